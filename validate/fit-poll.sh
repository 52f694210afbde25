#!/bin/bash
# fit-poll.sh: the profile keys of a `poll` (engines/MODEL.md, "How the host waits"),
# from validate/examples/poll_probe.cu's output.
#
#   validate/fit-poll.sh PROBE.txt...
#
# Prints the keys as a profile has them:
#   [host] query: the median, over every `idle` row of the files (a query of work long
#          done, stream and event alike), of the call's time;
#   [latency] query_latency: the median, over every `after` row with no host work
#          between queries (EVERY_US 0), of the time from the kernel's end to the loop's
#          return, less one and a half queries: the model's loop returns after the first
#          query that begins once the work is seen done, on average half a query after
#          that, and that query's own time.
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: fit-poll.sh PROBE.txt..." >&2; exit 2; }

median () { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit 1; print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

query=$(awk '$1 == "idle" { print $4 }' "$@" | median) ||
  { echo "fit-poll.sh: no idle rows in $*" >&2; exit 1; }
lag=$(awk '$1 == "after" && $3 == 0 { print $5 }' "$@" | median) ||
  { echo "fit-poll.sh: no after rows with EVERY_US 0 in $*" >&2; exit 1; }
awk -v q="$query" -v l="$lag" 'BEGIN {
  latency = l - 1.5 * q
  if (latency < 0) latency = 0
  printf "[host] query=%.3gus\n", q / 1000
  printf "[latency] query_latency=%.3gus\n", latency / 1000
}'
