#!/usr/bin/env bash
# spread-suite.sh: the validation suite's untraced makespans against the range a profile's host spread predicts.
#
# Usage: validate/spread-suite.sh RESULTS_DIR SCHEDULES_DIR GPU
# For each S.measured.csv in RESULTS_DIR whose schedule SCHEDULES_DIR/S.sched
# exists: its untraced makespan (`# host_done_ns: ... N untimed`, as
# validate/report.sh reads it) against `streamsim predict -d GPU` of the
# schedule with a `sync device` appended, at the profile's own host and at
# the fast and slow end of its [spread] (makespan_fast_host_ns,
# makespan_slow_host_ns). Prints a line for each schedule the range misses
# by more than 3%, then the counts: inside the range, within 3% of it, and
# the profile's own host within 3%. STREAMSIM (default build/bin/streamsim).
set -euo pipefail
cd "$(dirname "$0")/.."
streamsim=${STREAMSIM:-build/bin/streamsim}
[ $# -eq 3 ] || { echo "usage: validate/spread-suite.sh RESULTS_DIR SCHEDULES_DIR GPU" >&2; exit 2; }
results=$1 schedules=$2 gpu=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for measured in "$results"/*.measured.csv; do
  [ -f "$measured" ] || continue
  stem=$(basename "$measured" .measured.csv)
  [ -f "$schedules/$stem.sched" ] || continue
  untimed=$(sed -n 's/^# host_done_ns: .*, \([0-9]*\) untimed.*/\1/p' "$measured")
  [ -n "$untimed" ] || continue
  { cat "$schedules/$stem.sched"; printf '\nsync device\n'; } > "$work/synced.sched"
  "$streamsim" predict "$work/synced.sched" -d "$gpu" --json - -q > "$work/p.json"
  get () { sed -n "s/.*\"$1\" *: *\([0-9]*\).*/\1/p" "$work/p.json" | head -1; }
  fast=$(get makespan_fast_host_ns) slow=$(get makespan_slow_host_ns) own=$(get makespan_ns)
  [ -n "$fast" ] && [ -n "$slow" ] || { echo "spread-suite.sh: profile $gpu gives no [spread]" >&2; exit 2; }
  echo "$stem $untimed $own $fast $slow"
done | awk '
  { lo = $4 < $5 ? $4 : $5; hi = $4 < $5 ? $5 : $4; n++
    inside += $2 >= lo && $2 <= hi
    near = $2 >= lo * 0.97 && $2 <= hi * 1.03; within += near
    own += ($3 - $2) / $2 <= 0.03 && ($2 - $3) / $2 <= 0.03
    if (!near) printf "%s: measured %.1f us, the two ends %.1f to %.1f us\n", $1, $2 / 1000, lo / 1000, hi / 1000 }
  END { printf "%d schedules; inside the range %d, within 3%% of it %d; the profile'"'"'s own host within 3%%: %d\n", n, inside, within, own }'
