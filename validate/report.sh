#!/bin/bash
# report.sh: predict every measured validation schedule and write validate/results/<gpu>/REPORT.md.
#
# Usage (from the repository root, after building streamsim):
#   validate/report.sh GPU                    e.g. validate/report.sh h100
#   validate/report.sh --unpack TARBALL GPU   first unpack run-suite.sh's results-GPU.tar.gz
# For each validate/results/GPU/<stem>.measured.csv it runs
#   streamsim predict traces/validation/<stem>.sched --device GPU --csv <stem>.predicted.csv
# with the profile engines/profiles/GPU.ini, then `streamsim compare`, and
# writes the table of predicted and measured makespans and errors to
# REPORT.md. Rerun it after any change to the model or the profile.
# $STREAMSIM (default: build/sim/streamsim, else the first build*/sim/streamsim).
set -euo pipefail

if [ "${1:-}" = "--unpack" ]; then
  tarball=$2
  gpu=$3
  tmp=$(mktemp -d)
  tar xzf "$tarball" -C "$tmp"
  mkdir -p "validate/results/$gpu"
  cp "$tmp"/*.measured.csv "$tmp"/calibrate.log "$tmp"/system.txt "validate/results/$gpu/"
  cp "$tmp"/run.log "validate/results/$gpu/run.log"
  for f in "$tmp"/*.events.csv; do [ -e "$f" ] && cp "$f" "validate/results/$gpu/"; done
  cp "$tmp/$gpu.ini" "engines/profiles/$gpu.ini"
  rm -rf "$tmp"
else
  gpu=${1:?usage: validate/report.sh [--unpack TARBALL] GPU}
fi

dir=validate/results/$gpu
if [ -z "${STREAMSIM:-}" ]; then
  STREAMSIM=build/sim/streamsim
  [ -x "$STREAMSIM" ] || STREAMSIM=$(ls build*/sim/streamsim 2>/dev/null | head -1)
fi
[ -x "$STREAMSIM" ] || { echo "report.sh: no streamsim binary (set STREAMSIM)" >&2; exit 3; }
export STREAMSIM_PROFILE_PATH=engines/profiles

meta () { # meta FILE KEY: a "# key: value" line of a timeline CSV
  sed -n "s/^# $2: //p" "$1" | head -1
}
makespan () { # the largest end_ns of a timeline CSV
  awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == "end_ns") c = i; h = 1; next }
           $c > m { m = $c } END { print m + 0 }' "$1"
}

# run_profile MEASURED DIR: writes DIR/$gpu-run.ini, the calibrated profile
# with the host call costs measured in the measured run's own process (its
# "# host_calls:" metadata; see validate/val_hostcost.h for why), and prints
# its name; prints nothing when the run recorded none.
run_profile () {
  local calls
  calls=$(meta "$1" host_calls)
  [ -n "$calls" ] || return 0
  {
    echo "# $gpu with the host call costs measured next to $(basename "$1")"
    echo "[device]"
    echo "description=$gpu, host calls of one measured run"
    echo "inherits=$gpu"
    echo "[host]"
    for kv in $calls; do
      case $kv in kernel_launch=* | memcpy_async=*) echo "$kv" ;; esac
    done
    echo "[copy]"
    for kv in $calls; do
      case $kv in
        h2d_pageable_64MiB=* | d2h_pageable_64MiB=*)
          # bandwidth that makes the profile's latency + 64 MiB / bandwidth
          # equal the measured copy
          dir_=${kv%%_*}
          lat=$(sed -n "s/^${dir_}_pageable_latency=\([0-9.]*\)us$/\1/p" "engines/profiles/$gpu.ini")
          ns=${kv#*=}; ns=${ns%ns}
          awk -v ns="$ns" -v lat="${lat:-0}" -v d="$dir_" 'BEGIN {
            t = ns - lat * 1000; if (t > 0) printf "%s_pageable_bandwidth=%.6fGB/s\n", d, 67108864 / t }'
          ;;
      esac
    done
  } > "$2/$gpu-run.ini"
  echo "$gpu-run"
}

# evaluate MEASURED PREDICTED DEVICE: predicts into PREDICTED with DEVICE and
# prints "predicted|error|median end error|max end error", or "-|predict
# failed: why|-|-".
evaluate () {
  if ! "$STREAMSIM" predict "traces/validation/$stem.sched" --device "$3" \
       --csv "$2" > /dev/null 2> "$dir/$stem.predict.err"; then
    printf -- '-|predict failed: %s|-|-\n' "$(tail -1 "$dir/$stem.predict.err" | cut -c1-80)"
    return
  fi
  rm -f "$dir/$stem.predict.err"
  local out err endmed endmax
  out=$("$STREAMSIM" compare "$2" "$1" --max-error 1000 2>&1) || true
  err=$(echo "$out" | sed -n 's/^makespan .*error \([-+0-9.]*\)%.*/\1/p')
  endmed=$(echo "$out" | sed -n 's/^end error *median \([0-9.]*\)%.*/\1/p')
  endmax=$(echo "$out" | sed -n 's/^end error .* max \([0-9.]*\)%.*/\1/p')
  printf '%s|%s|%s|%s\n' "$(makespan "$2")" "${err:-?}" "${endmed:-?}" "${endmax:-?}"
}

rows=$(mktemp)
runs=$(mktemp -d)
for measured in "$dir"/*.measured.csv; do
  stem=$(basename "$measured" .measured.csv)
  predicted=$dir/$stem.predicted.csv
  mkdir -p "$runs/$stem"
  name=$(STREAMSIM_PROFILE_PATH=engines/profiles run_profile "$measured" "$runs/$stem")
  # with the calibrated profile alone
  alone=$(evaluate "$measured" "$runs/$stem/alone.csv" "$gpu")
  if [ -n "$name" ]; then
    # with this run's own host call costs: the headline numbers
    with=$(STREAMSIM_PROFILE_PATH="$runs/$stem:engines/profiles" \
           evaluate "$measured" "$predicted" "$name")
  else
    cp "$runs/$stem/alone.csv" "$predicted" 2>/dev/null || true
    with=$alone
  fi
  IFS='|' read -r p err endmed endmax <<< "$with"
  IFS='|' read -r _ err_alone _ _ <<< "$alone"
  calls=$(meta "$measured" host_calls | sed -n 's/.*kernel_launch=\([0-9]*\)ns memcpy_async=\([0-9]*\)ns.*/\1 \2/p')
  printf '%s|%s|%s|%s|%s|%s|%s|%s\n' "$stem" "$p" "$(makespan "$measured")" "$err" "$endmed" \
    "$endmax" "$err_alone" "${calls:-- -}" >> "$rows"
done
rm -rf "$runs"

any=$(ls "$dir"/*.measured.csv | head -1)
{
  echo "# Validation on $(meta "$any" gpu) ($gpu)"
  echo
  echo "Generated by \`validate/report.sh $gpu\` on $(date -u +%Y-%m-%d): each schedule of"
  echo "traces/validation/ measured by \`streamsim-validate\` (validate/run-suite.sh; median of"
  echo "$(meta "$any" reps)) and predicted by \`streamsim predict\` with the profile"
  echo "engines/profiles/$gpu.ini, calibrated on the same machine in the same session, whose"
  echo "host call costs (kernel launch, cudaMemcpyAsync, and for schedules with pageable"
  echo "copies the pageable rates) are replaced by those measured in the measured run's own"
  echo "process (its \`# host_calls:\` line; validate/val_hostcost.h and validate/FINDINGS.md"
  echo "say why: the lent machines' host runs at one of two speeds, chosen per process)."
  echo "The column \"profile alone\" gives the makespan error without that replacement."
  echo
  echo "- GPU: $(meta "$any" gpu); driver $(meta "$any" driver); CUDA runtime $(meta "$any" cuda)"
  echo "- measured: $(meta "$any" date | cut -c1-19) UTC; timing: $(meta "$any" timing | sed 's/ (.*)//')"
  [ -f "$dir/device-time.txt" ] && echo "- device time: $(cat "$dir/device-time.txt")"
  echo
  echo "Errors are predicted minus measured. \"end err\" is |predicted - measured| end time of"
  echo "each op as a percentage of the measured makespan: the median over the schedule's ops,"
  echo "and the largest."
  echo
  echo "| schedule | predicted (us) | measured (us) | makespan error | median end err | max end err | profile alone | run's launch / memcpy (us) |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  awk -F'|' 'function pct(v) { return v ~ /^[-+0-9.]+$/ ? v "%" : v }
             { p = $2 == "-" ? "-" : sprintf ("%.1f", $2 / 1000);
               split ($8, c, " ");
               calls = c[1] == "-" ? "-" : sprintf ("%.2f / %.2f", c[1] / 1000, c[2] / 1000);
               printf "| %s | %s | %.1f | %s | %s | %s | %s | %s |\n", $1, p, $3 / 1000,
                 pct($4), pct($5), pct($6), pct($7), calls }' "$rows"
  echo
  median () { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "?"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
  summary () { # summary COLUMN LABEL
    local errs n
    errs=$(awk -F'|' -v c="$1" '$c ~ /^[-+0-9.]+$/ { print ($c < 0 ? -$c : $c) }' "$rows")
    n=$(echo "$errs" | grep -c . || true)
    printf '%s over %s schedules: median |makespan error| %.2f%%, largest %.2f%%; %s within 3%%, %s within 10%%' \
      "$2" "$n" "$(echo "$errs" | median)" "$(echo "$errs" | sort -g | tail -1)" \
      "$(echo "$errs" | awk '$1 <= 3' | grep -c . || true)" \
      "$(echo "$errs" | awk '$1 <= 10' | grep -c . || true)"
  }
  summary 4 "Summary"
  printf '; median of the per-schedule median end errors %.2f%% (targets: 3%%, 10%%, 5%%).\n' \
    "$(awk -F'|' '$5 ~ /^[0-9.]+$/ { print $5 }' "$rows" | median)"
  echo
  summary 7 "With the profile alone (no per-run host costs)"
  echo "."
} > "$dir/REPORT.md"
rm -f "$rows"
cat "$dir/REPORT.md"
