#!/bin/bash
# predict-rounds.sh GPU FOLDER SHIPPED OTHER OVERRIDE: predicts every round measured in
# validate/results/GPU/FOLDER/ (S.roundN.measured.csv) twice, with the run's own (traced)
# host call costs (validate/run-profile.sh): with the profile as shipped into
# S.roundN.SHIPPED.predicted.csv, and with OVERRIDE (key file text, e.g.
# '[queues]\nassign_on_submit = false') on top of it into S.roundN.OTHER.predicted.csv;
# then prints one line per round and rule: gpu, schedule, round, rule, makespan error %,
# median and largest end error % of the measured makespan (`streamsim compare`).
# The experiments' MANIFEST.md files give the call for each folder, e.g.
#   validate/predict-rounds.sh h100 copy-queues shared own '[queues]\ndefault_copy_connections = 8'
# Run from the repository root; $STREAMSIM (default build-speed/bin/streamsim);
# $PREDICTED_DIR (default the measured rounds' folder) is where the predictions go.
set -eu
g=${1:?usage: predict-rounds.sh GPU FOLDER SHIPPED OTHER OVERRIDE}
d=validate/results/$g/${2:?}
out_dir=${PREDICTED_DIR:-$d}
shipped=${3:?}
other=${4:?}
override=${5:?}
S=${STREAMSIM:-build-speed/bin/streamsim}
export STREAMSIM_PROFILE_PATH=$PWD/engines/profiles
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
for m in "$d"/*.round*.measured.csv; do
  base=$(basename "$m" .measured.csv)
  stem=${base%.round*}
  round=${base##*.round}
  validate/run-profile.sh "$m" host_calls "$g" "engines/profiles/$g.ini" > "$t/$g-run.ini"
  printf '[device]\ninherits = %s\n%b\n' "$t/$g-run.ini" "$override" > "$t/$other.ini"
  for rule in "$shipped" "$other"; do
    profile=$t/$g-run.ini
    [ "$rule" = "$other" ] && profile=$t/$other.ini
    out=$out_dir/$base.$rule.predicted.csv
    "$S" predict "traces/validation/$stem.sched" --device "$profile" --csv "$out" -q
    c=$("$S" compare "$out" "$m" --max-error 1000 2>&1) || true
    printf '%s %s %s %s %s %s %s\n' "$g" "$stem" "$round" "$rule" \
      "$(echo "$c" | sed -n 's/^makespan .*error \([-+0-9.]*\)%.*/\1/p')" \
      "$(echo "$c" | sed -n 's/^end error *median \([0-9.]*\)%.*/\1/p')" \
      "$(echo "$c" | sed -n 's/^end error .* max \([0-9.]*\)%.*/\1/p')"
  done
done
