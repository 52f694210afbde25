#!/bin/bash
# fit-untouched-huge.sh: [copy] h2d_untouched_huge_* and d2h_untouched_huge_*, copies from and into untouched memory whose pages fault in huge.
#
# Usage: validate/fit-untouched-huge.sh PROFILE.ini UNTOUCHED.txt...
# Each UNTOUCHED.txt is what `streamsim-pageable-probe untouched BYTES...`
# printed: per direction, advice and size, the median host time of a
# synchronous cudaMemcpy from or into a fresh mapping no page of which was
# touched, with no tracer. The `huge` rows (MADV_HUGEPAGE, 2 MiB-aligned)
# of 4 MiB or more are used: below 2 MiB no huge page forms, and 1 MiB
# took what small pages take. Per direction, each size's median over the
# files, then the least-squares line latency + bytes / bandwidth with
# weights 1/t^2 (the calibration's fit), its intercept less what the model
# charges before a copy starts (memcpy_async and copy_submit), as the
# untouched latencies are. Prints the four keys. Exit 2 on a missing file,
# a profile without memcpy_async or copy_submit in us, or a direction with
# fewer than two sizes.
set -euo pipefail
SCRIPT_NAME=fit-untouched-huge.sh
. "$(dirname "$0")/script-lib.sh"
script_profile_args "PROFILE.ini UNTOUCHED.txt..." "$@"
call=$(script_need "$profile" memcpy_async us)
submit=$(script_need "$profile" copy_submit us)
cat "${files[@]}" | awk -v call="$call" -v submit="$submit" "$SCRIPT_MEDIAN_AWK"'
  $2 == "huge" && $3 == "untouched" && NF == 6 && $4 >= 4194304 {
    if (!(($1, $4) in n)) { m[$1]++; size[$1, m[$1]] = $4 }
    n[$1, $4]++; v[$1, $4, n[$1, $4]] = $5
  }
  END {
    split("h2d d2h", dirs, " ")
    for (d = 1; d <= 2; d++) {
      dir = dirs[d]
      if (m[dir] < 2) { printf "fit-untouched-huge.sh: %s has huge rows of fewer than two sizes of 4 MiB or more\n", dir > "/dev/stderr"; exit 2 }
      sw = sx = sy = sxx = sxy = 0
      for (k = 1; k <= m[dir]; k++) {
        x = size[dir, k]
        t = median_at(v, dir SUBSEP x, n[dir, x])
        printf "# %s %d B: %d rows, median %.1f us\n", dir, x, n[dir, x], t
        w = 1 / (t * t)
        sw += w; sx += w * x; sy += w * t; sxx += w * x * x; sxy += w * x * t
      }
      slope = (sw * sxy - sx * sy) / (sw * sxx - sx * sx)
      intercept = (sy - slope * sx) / sw
      printf "# %s: intercept %.2f us less memcpy_async %.3f and copy_submit %.3f\n", dir, intercept, call, submit
      printf "%s_untouched_huge_bandwidth=%.6fGB/s\n", dir, 1e-3 / slope
      net = intercept - call - submit
      printf "%s_untouched_huge_latency=%.3fus\n", dir, (net > 0 ? net : 0)
    }
  }'
