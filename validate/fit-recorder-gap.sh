#!/bin/bash
# fit-recorder-gap.sh: the recorder's own time at each call, from recordings of loops that make nothing but calls, for `streamsim-validate --record --recorder-gap`.
#
# Usage: validate/fit-recorder-gap.sh LOG[.gz]...
# Each LOG is a recorder's log (`streamsim-validate --record ... --log LOG`)
# of a program whose loops launch kernels back to back, with at most a
# cudaGetLastError between two launches and nothing else (the corpus's
# matrixMul, BlackScholes and transpose). Between two such calls of one
# thread the program itself spends tens of nanoseconds; what the log shows
# there is the recorder's. Prints the number of gaps and their mean over
# those under 2 us (longer ones are the program's own work between loops),
# in nanoseconds, rounded: the value for --recorder-gap. Exit 2 when no log
# holds such a gap.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: validate/fit-recorder-gap.sh LOG..." >&2; exit 2; }
for f in "$@"; do
  [ -r "$f" ] || { echo "fit-recorder-gap.sh: cannot read $f" >&2; exit 2; }
done
for f in "$@"; do zcat -f "$f"; done | awk -F'\t' '
  function loop_call(name) { return name == "cudaLaunchKernel" || name == "cudaGetLastError" }
  $1 == "call" {
    if (loop_call($3) && loop_call(prev[$2]) && $4 >= last[$2] && $4 - last[$2] < 2000) {
      sum += $4 - last[$2]; n++
    }
    prev[$2] = $3; last[$2] = $5
  }
  END {
    if (n == 0) { print "fit-recorder-gap.sh: no gap between two loop calls under 2 us" > "/dev/stderr"; exit 2 }
    printf "%d gaps, mean %.0f ns\n--recorder-gap %.0fns\n", n, sum / n, sum / n
  }'
