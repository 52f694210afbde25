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
# $STREAMSIM (default: build/bin/streamsim, else the first build*/bin/streamsim).
set -euo pipefail

if [ "${1:-}" = "--unpack" ]; then
  tarball=$2
  gpu=$3
  tmp=$(mktemp -d)
  tar xzf "$tarball" -C "$tmp"
  mkdir -p "validate/results/$gpu"
  # Several rounds: keep each schedule's round with the median measured
  # makespan (run-suite.sh says why), and list them all in rounds.txt.
  rm -f "validate/results/$gpu/rounds.txt"
  for first in "$tmp"/*.measured.csv; do
    stem=$(basename "$first" .measured.csv)
    ls "$tmp/$stem".round*.csv > /dev/null 2>&1 || continue
    chosen=$(for f in "$first" "$tmp/$stem".round*.csv; do
               printf '%s %s\n' "$(sed -n 's/^# makespan_ns: .*median \([0-9]*\).*/\1/p' "$f")" "$f"
             done | sort -n | awk '{ v[NR] = $2 } END { print v[int((NR + 1) / 2)] }')
    printf '%s: round makespans (median of each run, us):' "$stem" >> "validate/results/$gpu/rounds.txt"
    for f in "$first" "$tmp/$stem".round*.csv; do
      printf ' %s%.1f' "$([ "$f" = "$chosen" ] && echo '*')" \
        "$(sed -n 's/^# makespan_ns: .*median \([0-9]*\).*/\1/p' "$f" | awk '{ print $1 / 1000 }')" \
        >> "validate/results/$gpu/rounds.txt"
    done
    echo >> "validate/results/$gpu/rounds.txt"
    [ "$chosen" = "$first" ] || cp "$chosen" "$first"
  done
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
  STREAMSIM=build/bin/streamsim
  [ -x "$STREAMSIM" ] || STREAMSIM=$(ls build*/bin/streamsim 2>/dev/null | head -1)
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

# run_profile MEASURED KEY DIR: writes DIR/$gpu-run.ini, the calibrated
# profile with the host call costs and pageable copy times that the measured
# run recorded under "# KEY:" (validate/run-profile.sh), and prints its name;
# prints nothing when the run recorded none.
run_profile () {
  local profile
  profile=$(validate/run-profile.sh "$1" "$2" "$gpu" "engines/profiles/$gpu.ini")
  [ -n "$profile" ] || return 0
  printf '%s\n' "$profile" > "$3/$gpu-run.ini"
  echo "$gpu-run"
}

# link MEASURED: "H2D -4.1%, D2H +0.3%", how far the run's pinned 64 MiB
# copies (between its untimed repeats) were from the calibrated profile;
# "-" when it measured none.
link () {
  validate/run-profile.sh --link "$1" host_calls_untimed "engines/profiles/$gpu.ini" \
    | awk -F= '/_pinned=/ { d = toupper(substr($1, 1, 3)); s = s (s ? ", " : "") sprintf ("%s %+.1f%%", d, $2) }
               END { print s ? s : "-" }'
}

# predict SCHEDULE DEVICE CSV: prints the predicted makespan, or nothing
# (and keeps the error in $dir/$stem.predict.err) when predict fails.
predict () {
  if "$STREAMSIM" predict "$1" --device "$2" --csv "$3" > /dev/null 2> "$dir/$stem.predict.err"; then
    rm -f "$dir/$stem.predict.err"
    makespan "$3"
  fi
}

# pct PREDICTED MEASURED: the error in percent, signed
pct () {
  awk -v p="$1" -v m="$2" 'BEGIN { if (p == "" || m <= 0) print "?"; else printf "%+.2f\n", 100 * (p - m) / m }'
}

rows=$(mktemp)
runs=$(mktemp -d)
for measured in "$dir"/*.measured.csv; do
  stem=$(basename "$measured" .measured.csv)
  sched=traces/validation/$stem.sched
  predicted=$dir/$stem.predicted.csv
  mkdir -p "$runs/$stem/timed" "$runs/$stem/untimed"
  # The headline: the program as it runs without the harness's tracing.
  # The harness's untimed repeats end in cudaDeviceSynchronize, so the
  # schedule is predicted with a `sync device` after its last op, and the
  # sync's end is compared with the untimed repeats' median "host done".
  { cat "$sched"; printf '\nsync device\n'; } > "$runs/$stem/synced.sched"
  done_untimed=$(meta "$measured" host_done_ns | sed -n 's/.*, \([0-9]*\) untimed.*/\1/p')
  name=$(run_profile "$measured" host_calls_untimed \
         "$runs/$stem/untimed")
  if [ -n "$name" ]; then
    p=$(STREAMSIM_PROFILE_PATH="$runs/$stem/untimed:engines/profiles" \
        predict "$runs/$stem/synced.sched" "$name" "$runs/$stem/untimed.csv")
  else
    p=$(predict "$runs/$stem/synced.sched" "$gpu" "$runs/$stem/untimed.csv")
  fi
  alone=$(predict "$runs/$stem/synced.sched" "$gpu" "$runs/$stem/alone.csv")
  # Op by op: the traced timeline against the prediction with the host
  # costs of the traced repeats.
  name=$(run_profile "$measured" host_calls \
         "$runs/$stem/timed")
  STREAMSIM_PROFILE_PATH="$runs/$stem/timed:engines/profiles" \
    predict "$sched" "${name:-$gpu}" "$predicted" > /dev/null
  endmed=? endmax=? tmerr=?
  if [ -f "$predicted" ] && [ ! -f "$dir/$stem.predict.err" ]; then
    out=$("$STREAMSIM" compare "$predicted" "$measured" --max-error 1000 2>&1) || true
    tmerr=$(echo "$out" | sed -n 's/^makespan .*error \([-+0-9.]*\)%.*/\1/p')
    endmed=$(echo "$out" | sed -n 's/^end error *median \([0-9.]*\)%.*/\1/p')
    endmax=$(echo "$out" | sed -n 's/^end error .* max \([0-9.]*\)%.*/\1/p')
  fi
  calls=$(meta "$measured" host_calls_untimed | sed -n 's/.*kernel_launch=\([0-9]*\)ns memcpy_async=\([0-9]*\)ns.*/\1 \2/p')
  drift=$(link "$measured")
  if [ -z "$p" ]; then
    printf '%s|-|%s|predict failed: %s|-|-|-|-|- -|-\n' "$stem" "${done_untimed:-0}" \
      "$(tail -1 "$dir/$stem.predict.err" 2>/dev/null | cut -c1-80)" >> "$rows"
    continue
  fi
  printf '%s|%s|%s|%s|%s|%s|%s|%s|%s|%s\n' "$stem" "$p" "${done_untimed:-0}" \
    "$(pct "$p" "$done_untimed")" "${endmed:-?}" "${endmax:-?}" "$(pct "$alone" "$done_untimed")" \
    "${tmerr:-?}" "${calls:-- -}" "$drift" >> "$rows"
done
rm -rf "$runs"

any=$(ls "$dir"/*.measured.csv | head -1)
{
  echo "# Validation on $(meta "$any" gpu) ($gpu)"
  echo
  echo "Generated by \`validate/report.sh $gpu\` on $(date -u +%Y-%m-%d): each schedule of"
  echo "traces/validation/ measured by \`streamsim-validate\` (validate/run-suite.sh; median of"
  echo "$(meta "$any" reps)) and predicted by \`streamsim predict\` with the profile"
  echo "engines/profiles/$gpu.ini, calibrated on the same machine in the same session."
  echo
  echo "- GPU: $(meta "$any" gpu); driver $(meta "$any" driver); CUDA runtime $(meta "$any" cuda)"
  echo "- measured: $(meta "$any" date | cut -c1-19) UTC; timing: $(meta "$any" timing | sed 's/ (.*)//')"
  [ -f "$dir/device-time.txt" ] && echo "- device time: $(cat "$dir/device-time.txt")"
  [ -f "$dir/rounds.txt" ] && echo "- rounds: the suite ran $(head -1 "$dir/rounds.txt" | awk -F: '{ print split ($3, a, " ") }') times, each schedule in a new process each time; each schedule's round with the median measured makespan is the one used (* in rounds.txt)"
  echo
  echo "How to read the table (validate/FINDINGS.md says why it is done this way):"
  echo
  echo "- **makespan error**: the program as it runs without the harness's tracing. Each"
  echo "  schedule also runs untraced (as many repeats as traced ones), and its median time"
  echo "  from the first call to the return of the final cudaDeviceSynchronize (\"measured\")"
  echo "  is compared with the predicted end of a \`sync device\` appended to the schedule"
  echo "  (\"predicted\"). The prediction uses the profile with the host call costs and the"
  echo "  64 MiB pageable copy times measured in the run's own process between the untraced"
  echo "  repeats (\`# host_calls_untimed:\`, validate/run-profile.sh; launch and memcpy costs"
  echo "  in the next to last column): the lent machines' host runs at one of two speeds,"
  echo "  chosen per process."
  echo "- **profile alone**: the same with the calibrated profile as it is."
  echo "- **run's link**: the run's 64 MiB pinned copies, measured in the same places,"
  echo "  against the calibrated profile's latency + 64 MiB / bandwidth. The link's speed"
  echo "  moves by a few percent over tens of seconds; the predictions keep the calibrated"
  echo "  pinned links (validate/FINDINGS.md, \"The link's two spells\"). Read it beside a"
  echo "  copy-bound schedule's error; about 1% of it is the calibration's own fit at 64 MiB."
  echo "- **end err**: op by op, the traced timeline (the CSV) against the prediction with"
  echo "  the host costs measured between the traced repeats: |predicted - measured| end"
  echo "  time of each op as a percentage of the measured makespan, the median over the"
  echo "  schedule's ops and the largest. **traced** is the makespan error of that pair;"
  echo "  CUPTI's tracing slows small copies on the GPU, which the profile does not model."
  echo
  echo "Errors are predicted minus measured."
  echo
  echo "| schedule | predicted (us) | measured (us) | makespan error | median end err | max end err | profile alone | traced | run's launch / memcpy (us) | run's link |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  awk -F'|' 'function pct(v) { return v ~ /^[-+0-9.]+$/ ? v "%" : v }
             { p = $2 == "-" ? "-" : sprintf ("%.1f", $2 / 1000);
               split ($9, c, " ");
               calls = c[1] == "-" ? "-" : sprintf ("%.2f / %.2f", c[1] / 1000, c[2] / 1000);
               printf "| %s | %s | %.1f | %s | %s | %s | %s | %s | %s | %s |\n", $1, p, $3 / 1000,
                 pct($4), pct($5), pct($6), pct($7), pct($8), calls, $10 }' "$rows"
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
  echo
  summary 8 "Traced timelines against predictions with the traced runs' host costs"
  echo "."
} > "$dir/REPORT.md"
rm -f "$rows"
cat "$dir/REPORT.md"
