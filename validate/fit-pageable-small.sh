#!/bin/bash
# fit-pageable-small.sh: [copy] h2d_pageable_latency and d2h_pageable_latency from small copies that the CPU's caches hold.
#
# Usage: validate/fit-pageable-small.sh PROFILE.ini SMALL.txt...
# Each SMALL.txt is what `streamsim-pageable-probe small` printed: per
# direction, state and size, the median host time of a synchronous
# cudaMemcpy of a malloc'd buffer, with no tracer. The `hot` and `again`
# rows of 2 KiB or less are used: copies that small take the same time at
# any size (the bytes at the pageable bandwidth add under 0.2 us), and a
# real program's small pageable copy (a scalar read back with .item(), a
# graph's 8 B D2H) comes from memory the CPU has just touched. The `cold`
# rows (a 256 MiB write in between) are left out: they miss the CPU's
# caches and page tables, 28 to 71 us, as the calibration's interleaved
# sizes partly do, which made its intercept too long for small copies.
# The latency is the median over those rows of the time less the bytes at
# PROFILE's pageable bandwidth and less what the model charges before a
# copy starts (memcpy_async and copy_submit), the convention of the
# calibration's pageable latencies (calib_fit_net_latency) and of
# fit-cached.sh. Prints both keys. Exit 2 on a missing file, a profile
# without those keys, or a direction with no rows.
set -euo pipefail
SCRIPT_NAME=fit-pageable-small.sh
. "$(dirname "$0")/script-lib.sh"
script_profile_args "PROFILE.ini SMALL.txt..." "$@"
call=$(script_need "$profile" memcpy_async us)
submit=$(script_need "$profile" copy_submit us)
h2d_bw=$(script_need "$profile" h2d_pageable_bandwidth GB/s)
d2h_bw=$(script_need "$profile" d2h_pageable_bandwidth GB/s)
cat "${files[@]}" | awk -v h2d_bw="$h2d_bw" -v d2h_bw="$d2h_bw" -v call="$call" -v submit="$submit" "$SCRIPT_MEDIAN_AWK"'
  $2 == "malloc" && ($3 == "hot" || $3 == "again") && $4 <= 2048 && NF == 6 {
    bw = $1 == "h2d" ? h2d_bw : d2h_bw
    n[$1]++; v[$1, n[$1]] = $5 - $4 / (bw * 1e3)
  }
  END {
    split("h2d d2h", dirs, " ")
    for (d = 1; d <= 2; d++) {
      dir = dirs[d]
      if (n[dir] == 0) { printf "fit-pageable-small.sh: no %s rows of 2 KiB or less\n", dir > "/dev/stderr"; exit 2 }
      t = median_at(v, dir, n[dir])
      printf "# %s: %d rows, median %.2f us less memcpy_async %.3f and copy_submit %.3f\n", dir, n[dir], t, call, submit
      printf "%s_pageable_latency=%.3fus\n", dir, t - call - submit
    }
  }'
