#!/bin/bash
# cold-call-table.sh: what each call of validate/examples/cold_call_probe.cu cost, by run, as a table.
#
# Usage: validate/cold-call-table.sh [--max-gap US] RUN...
# Each RUN is the probe's output (NAME.txt: its `cold WORK GAP CALL median
# p25 p75` lines, timed on the host's clock) or, for a run under
# `streamsim-validate --record`, its recorder log (NAME.log or NAME.log.gz),
# whose `call` lines time the same calls from inside, as the recorder sees
# them. Prints one markdown row per run, work kind (spin, touch) and call
# (launch, record, memset, h2d): the mean, over the gaps up to --max-gap
# (default 8 us), of the calls' median time in microseconds, then the same
# at the probe's longest gap.
#
# A log is read in the probe's order: its first launch, record, memset and
# copy are the warm-up; then, for each work kind and each of the nine gaps,
# 400 rounds of the four calls. A log that does not hold exactly that many
# of them is not a run of the probe: exit 2, naming it.
set -euo pipefail

max_gap=8
if [ "${1:-}" = "--max-gap" ]; then
  max_gap=${2:?--max-gap needs a number}
  shift 2
fi
[ $# -ge 1 ] || { echo "usage: validate/cold-call-table.sh [--max-gap US] RUN..." >&2; exit 2; }
for run in "$@"; do
  [ -r "$run" ] || { echo "cold-call-table.sh: cannot read $run" >&2; exit 3; }
done
SCRIPT_NAME=cold-call-table.sh
. "$(dirname "$0")/script-lib.sh"

GAPS="0 0.5 1 2 4 8 16 32 64"
ROUNDS=400

# lines FILE: the probe's `cold` lines of FILE, from a log rebuilt from its calls
lines() {
  case "$1" in
    *.log | *.log.gz)
      zcat -f "$1" | awk -F'\t' -v file="$1" -v gaps="$GAPS" -v rounds="$ROUNDS" "$SCRIPT_MEDIAN_AWK"'
        BEGIN { split("cudaLaunchKernel launch cudaEventRecord record cudaMemsetAsync memset cudaMemcpyAsync h2d", m, " ")
                for (i = 1; i < 8; i += 2) call[m[i]] = m[i + 1]
                n_gaps = split(gaps, g, " ") }
        $1 == "call" && ($3 in call) { n++; name[n] = call[$3]; t[n] = ($5 - $4) / 1e3 }
        END {
          want = 4 + 2 * n_gaps * rounds * 4
          if (n != want) { printf "%s: %d launch, record, memset and copy calls, not the probe'\''s %d\n", file, n, want > "/dev/stderr"; exit 2 }
          i = 4
          for (w = 1; w <= 2; w++)
            for (k = 1; k <= n_gaps; k++) {
              delete c
              for (r = 0; r < rounds * 4; r++) { i++; c[name[i]]++; v[name[i], c[name[i]]] = t[i] }
              split("launch record memset h2d", calls, " ")
              for (q = 1; q <= 4; q++) {
                delete a
                for (j = 1; j <= c[calls[q]]; j++) a[j] = v[calls[q], j]
                printf "cold %s %s %s %.3f\n", (w == 1 ? "spin" : "touch"), g[k], calls[q], lower_median(a, c[calls[q]])
              }
            }
        }' ;;
    *) grep '^cold ' "$1" ;;
  esac
}

echo "| run | work | call | mean of medians, gaps up to $max_gap us | at the longest gap |"
echo "| --- | --- | --- | ---: | ---: |"
for run in "$@"; do
  out=$(lines "$run") || exit 2
  [ -n "$out" ] || { echo "cold-call-table.sh: $run has no cold lines" >&2; exit 2; }
  awk -v run="$(basename "$run")" -v max="$max_gap" '
    { k = $2 " " $4; if (!(k in seen)) { seen[k] = 1; order[++n] = k }
      if ($3 + 0 <= max + 0) { s[k] += $5; c[k]++ }
      if ($3 + 0 >= last[k] + 0) { last[k] = $3; at[k] = $5 } }
    END { for (i = 1; i <= n; i++) { split(order[i], p, " ")
            printf "| %s | %s | %s | %.2f | %.2f |\n", run, p[1], p[2], c[order[i]] ? s[order[i]] / c[order[i]] : 0, at[order[i]] } }' <<< "$out"
done
