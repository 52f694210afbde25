#!/bin/bash
# fit-spread.sh: [spread], the host's fast and slow end, from the host costs the harness measured in every run.
#
# Usage: validate/fit-spread.sh PROFILE.ini MEASURED.csv...
# Each MEASURED.csv (gzipped or not) is a timeline streamsim-validate
# measured; its `# host_calls_untimed:` line holds what the run's own
# process measured between its untraced repeats (validate/val_hostcost.h):
# the mean gap of kernel launches and of cudaMemcpyAsync calls, and for
# schedules with pageable copies a 64 MiB pageable copy each way. Over all
# the files given, the fast end is the 10th percentile of each cost (nearest
# rank) and the slow end the 90th; a pageable time becomes the bandwidth
# that gives it with the profile's own latency (latency + 64 MiB /
# bandwidth, as validate/run-profile.sh sets a run's link). Each quantity
# is taken apart: lent machines run a process's host at one of two speeds,
# and these costs rise and fall together with it (validate/FINDINGS.md, "The
# host's two speeds"). Prints the eight keys, each end's values with the
# counts in comments. Exit 2 on a missing file, a profile without the
# pageable latencies in us, or fewer than 10 values of a quantity.
set -euo pipefail
SCRIPT_NAME=fit-spread.sh
. "$(dirname "$0")/script-lib.sh"
script_profile_args "PROFILE.ini MEASURED.csv..." "$@"
h2d_latency=$(script_need "$profile" h2d_pageable_latency us)
d2h_latency=$(script_need "$profile" d2h_pageable_latency us)
# a run's line once, where a file was kept twice (a round and its copy as
# the median one)
for f in "${files[@]}"; do gzip -cdf "$f" | sed -n 's/^# host_calls_untimed: //p'; done | sort -u |
awk -v h2d_latency="$h2d_latency" -v d2h_latency="$d2h_latency" "$SCRIPT_MEDIAN_AWK"'
  # nearest rank: the smallest value with at least p of the values at or below it
  function rank(k, p,   r) { r = int(p * k); if (r < p * k) r++; return r < 1 ? 1 : r }
  {
    for (i = 1; i <= NF; i++) {
      split($i, kv, "=")
      if (kv[1] in want) { q = want[kv[1]]; sub(/ns$/, "", kv[2]); v[q, ++n[q]] = kv[2] + 0 }
    }
  }
  BEGIN {
    want["kernel_launch"] = 1; want["memcpy_async"] = 2
    want["h2d_pageable_64MiB"] = 3; want["d2h_pageable_64MiB"] = 4
    name[1] = "kernel_launch"; name[2] = "memcpy_async"
    name[3] = "h2d_pageable_bandwidth"; name[4] = "d2h_pageable_bandwidth"
    latency[3] = h2d_latency * 1000; latency[4] = d2h_latency * 1000
  }
  END {
    for (q = 1; q <= 4; q++) {
      if (n[q] < 10) {
        printf "fit-spread.sh: %d values of %s; at least 10 are needed\n", n[q], name[q] > "/dev/stderr"
        exit 2
      }
      k = n[q]
      for (i = 1; i <= k; i++) a[i] = v[q, i]
      sort_values(a, k)
      fast[q] = a[rank(k, 0.1)]; slow[q] = a[rank(k, 0.9)]; count[q] = k
    }
    for (e = 1; e <= 2; e++) {
      end = e == 1 ? "fast" : "slow"
      for (q = 1; q <= 4; q++) {
        t = e == 1 ? fast[q] : slow[q]
        if (q <= 2) {
          printf "# %s: %d runs, %s percentile %.0f ns\n", name[q], count[q], e == 1 ? "10th" : "90th", t
          printf "%s_%s=%.3fus\n", name[q], end, t / 1000
        } else {
          printf "# %s: %d runs, %s percentile of the 64 MiB copy %.0f ns, less the latency %.0f ns\n", \
                 name[q], count[q], e == 1 ? "10th" : "90th", t, latency[q]
          printf "%s_%s=%.6fGB/s\n", name[q], end, 67108864 / (t - latency[q])
        }
      }
    }
  }'
