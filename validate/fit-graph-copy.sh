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
SCRIPT_NAME=fit-graph-copy.sh
. "$(dirname "$0")/script-lib.sh"
script_profile_args "PROFILE.ini RUN.out..." "$@"
latency=$(script_need "$profile" d2h_pinned_latency us)
# each run's difference first, so that a run without both variants stops
# the script before it prints anything
diffs=$(for f in "${files[@]}"; do
  awk -v f="$f" '$1 == "variant" { m[$2] = $3 }
    END {
      if (!("pinned" in m) || !("none" in m)) { printf "fit-graph-copy.sh: %s lacks the pinned or none variant\n", f > "/dev/stderr"; exit 2 }
      printf "%s %.2f\n", f, m["pinned"] - m["none"]
    }' "$f" || exit 2
done)
awk -v latency="$latency" "$SCRIPT_MEDIAN_AWK"'
  { d[++n] = $2; printf "%s: pinned - none %.2f us\n", $1, $2 }
  END {
    med = lower_median(d, n)
    printf "median %.2f us, less d2h_pinned_latency %.3f us\ngraph_engine_gap=%.3fus\n", med, latency, med - latency
  }' <<< "$diffs"
