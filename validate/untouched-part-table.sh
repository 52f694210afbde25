#!/bin/bash
# untouched-part-table.sh: how a pageable copy's time grows with the part of its buffer left untouched.
#
# Usage: validate/untouched-part-table.sh GPU CSV...
# Each CSV is streamsim-validate's measured timeline of
# traces/validation/untouched-part.sched (one process each). For each copy
# it prints, against GPU's profile alone (`streamsim predict`): the predicted
# time (issue to end) and the median measured one, then what its untouched
# bytes added, predicted and measured: the copy's time less that of the copy
# of the same direction with none untouched (`d2h-none`, `h2d-none`), in the
# same process, the median over the processes. The added time tells how the
# model charges the faults: in series with the transfer of the resident
# bytes, or hidden under it. STREAMSIM (default build/bin/streamsim).
set -euo pipefail
SCRIPT_NAME=untouched-part-table.sh
. "$(dirname "$0")/script-lib.sh"
script_usage 2 "GPU CSV..." "$@"
gpu=$1; shift
script_readable "$@"
root=$(cd "$(dirname "$0")/.." && pwd)
export STREAMSIM_PROFILE_PATH=${STREAMSIM_PROFILE_PATH:-$root/engines/profiles}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"${STREAMSIM:-$root/build/bin/streamsim}" predict "$root/traces/validation/untouched-part.sched" --device "$gpu" \
  --csv "$tmp/pred.csv" > /dev/null
printf '| copy | predicted | measured (median of %d) | added: predicted | measured |\n' $#
printf '| --- | ---: | ---: | ---: | ---: |\n'
# rows: label, issue to end in us; the first file read is the prediction
awk -F, "$SCRIPT_MEDIAN_AWK"'
  FNR == 1 { file++ }
  /^#/ || $1 == "op" { next }
  { t = ($9 - $7) / 1000; dir = substr($13, 1, 3) }
  file == 1 { pred[$13] = t; order[++n] = $13; next }
  { run[$13, file - 1] = t }
  END {
    runs = file - 1
    for (i = 1; i <= n; i++) {
      l = order[i]; base = substr(l, 1, 3) "-none"
      for (r = 1; r <= runs; r++) { a[r] = run[l, r]; d[r] = run[l, r] - run[base, r] }
      printf "| %s | %.1f us | %.1f us | %+.1f us | %+.1f us |\n", l, pred[l], median(a, runs),
        pred[l] - pred[base], median(d, runs)
    }
  }' "$tmp/pred.csv" "$@"
