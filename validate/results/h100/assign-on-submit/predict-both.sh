#!/bin/bash
# predict-both.sh GPU [FOLDER]: predicts every round measured in validate/results/GPU/FOLDER/
# (default assign-on-submit; connections-more and connections-more/helper-only also hold rounds)
# twice, with the run's own (traced) host call costs (validate/run-profile.sh):
# with the shipped profile (assign_on_submit = true) into S.roundN.submit.predicted.csv,
# and with assign_on_submit = false (creation order) into S.roundN.create.predicted.csv;
# then prints one line per round and rule: gpu, schedule, round, rule, makespan error %,
# median and largest end error % of the measured makespan (`streamsim compare`).
# Run from the repository root; $STREAMSIM (default build-speed/sim/streamsim).
set -eu
g=${1:?usage: predict-both.sh GPU [FOLDER]}
d=validate/results/$g/${2:-assign-on-submit}
S=${STREAMSIM:-build-speed/sim/streamsim}
export STREAMSIM_PROFILE_PATH=$PWD/engines/profiles
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
for m in "$d"/*.round*.measured.csv; do
  base=$(basename "$m" .measured.csv)
  stem=${base%.round*}
  round=${base##*.round}
  validate/run-profile.sh "$m" host_calls "$g" "engines/profiles/$g.ini" > "$t/$g-run.ini"
  printf '[device]\ninherits = %s\n[queues]\nassign_on_submit = false\n' "$t/$g-run.ini" > "$t/create.ini"
  for rule in submit create; do
    profile=$t/$g-run.ini
    [ "$rule" = create ] && profile=$t/create.ini
    out=$d/$base.$rule.predicted.csv
    "$S" predict "traces/validation/$stem.sched" --device "$profile" --csv "$out" -q
    c=$("$S" compare "$out" "$m" --max-error 1000 2>&1) || true
    printf '%s %s %s %s %s %s %s\n' "$g" "$stem" "$round" "$rule" \
      "$(echo "$c" | sed -n 's/^makespan .*error \([-+0-9.]*\)%.*/\1/p')" \
      "$(echo "$c" | sed -n 's/^end error *median \([0-9.]*\)%.*/\1/p')" \
      "$(echo "$c" | sed -n 's/^end error .* max \([0-9.]*\)%.*/\1/p')"
  done
done
