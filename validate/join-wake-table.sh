#!/usr/bin/env bash
# validate/join-wake-table.sh: how long after a thread's last call its `join` returned, per
# `join` line of a measured timeline of validate/examples/join-probe.sched.
#
#   validate/join-wake-table.sh CSV...
#
# Each thread of the probe ends with a `sync`; the k-th join of a `join` line is matched
# with the k-th sync of the thread block it joins (the block's `sync` line: the last
# sync line above the block's `join` whose thread was started before, given as
# JOIN_LINE:SYNC_LINE pairs in PAIRS, default the probe's 12:10 24:22 36:30 37:34).
# For each CSV and join line, one row: the median of join end - sync end over the joins
# called before the thread's sync returned (the wake), how many, and the median of the
# join's own length over those called after (the thread had ended), how many. Times
# in microseconds. Exit status 0; 2 for bad usage.
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: $0 CSV..." >&2
  exit 2
fi
pairs="${PAIRS:-12:10 24:22 36:30 37:34}"
median () { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) { print "-"; exit } printf "%.2f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "| timeline | join line | wake | joins | ended before | joins |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for f in "$@"; do
  for pair in $pairs; do
    jl=${pair%%:*}; sl=${pair##*:}
    rows=$(awk -F, -v jl="$jl" -v sl="$sl" '
      /^#/ { next }
      $1 == "op" { for (i = 1; i <= NF; i++) col[$i] = i; next }
      $col["kind"] == "sync" && $col["line"] == sl { se[++ns] = $col["end_ns"] }
      $col["kind"] == "join" && $col["line"] == jl { js[++nj] = $col["start_ns"]; je[nj] = $col["end_ns"] }
      END { for (k = 1; k <= nj && k <= ns; k++)
              if (js[k] < se[k]) print "wake", (je[k] - se[k]) / 1000
              else print "late", (je[k] - js[k]) / 1000 }' "$f")
    wake=$(awk '$1 == "wake" { print $2 }' <<<"$rows" | median)
    nw=$(awk '$1 == "wake" { n++ } END { print n + 0 }' <<<"$rows")
    late=$(awk '$1 == "late" { print $2 }' <<<"$rows" | median)
    nl=$(awk '$1 == "late" { n++ } END { print n + 0 }' <<<"$rows")
    echo "| $(basename "$f") | $jl | $wake | $nw | $late | $nl |"
  done
done
