#!/bin/bash
# fit-graph-copy.sh: [latency] graph_engine_gap from runs of validate/examples/graph_copy_probe.cu.
#
# Usage: validate/fit-graph-copy.sh PROFILE.ini RUN.out...
# Each RUN.out is what one run of the probe printed: per variant (pageable,
# pinned, none) the median and the mean of an iteration, a graph launch and
# its synchronize, on the host's clock. A pinned D2H node after the kernel
# node costs the iteration its wait for the kernel and the copy itself; the
# model charges the copy PROFILE's d2h_pinned_latency (8 B take no time at
# its bandwidth), so the wait is the pinned variant's median less the none
# variant's, less that latency. Prints each run's difference, their median,
# and the key: graph_engine_gap=X.XXXus. Exit 2 on a run without both
# variants or a profile without d2h_pinned_latency.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: validate/fit-graph-copy.sh PROFILE.ini RUN.out..." >&2; exit 2; }
profile=$1
shift
[ -r "$profile" ] || { echo "fit-graph-copy.sh: cannot read $profile" >&2; exit 2; }
latency=$(sed -n 's/^d2h_pinned_latency *= *\([0-9.]*\)us *$/\1/p' "$profile")
[ -n "$latency" ] || { echo "fit-graph-copy.sh: $profile has no d2h_pinned_latency in us" >&2; exit 2; }
for f in "$@"; do
  [ -r "$f" ] || { echo "fit-graph-copy.sh: cannot read $f" >&2; exit 2; }
  awk -v f="$f" '$1 == "variant" { m[$2] = $3 }
    END {
      if (!("pinned" in m) || !("none" in m)) { printf "fit-graph-copy.sh: %s lacks the pinned or none variant\n", f > "/dev/stderr"; exit 2 }
      printf "%s %.2f\n", f, m["pinned"] - m["none"]
    }' "$f"
done | awk -v latency="$latency" '
  { run[++n] = $1; d[n] = $2; printf "%s: pinned - none %.2f us\n", $1, $2 }
  END {
    for (i = 2; i <= n; i++) { x = d[i]; for (j = i - 1; j > 0 && d[j] > x; j--) d[j + 1] = d[j]; d[j + 1] = x }
    med = d[int((n + 1) / 2)]
    printf "median %.2f us, less d2h_pinned_latency %.3f us\ngraph_engine_gap=%.3fus\n", med, latency, med - latency
  }'
