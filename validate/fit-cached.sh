#!/bin/bash
# fit-cached.sh: [copy] h2d_cached_* and d2h_cached_* from pageable_probe.cu's sweeps, for `pageable cached` copies.
#
# Usage: validate/fit-cached.sh PROFILE.ini SWEEP.txt...
# Each SWEEP.txt is what `streamsim-pageable-probe sweep` printed: per
# direction, state and size, the median host time of a synchronous
# cudaMemcpy of a malloc'd buffer. The `again` rows (a buffer copied over and
# over) up to 16 MiB, the sizes the host's caches hold, are the cached state;
# each size's value is the median over the sweeps. Fitted as the calibration
# fits a link: least squares of latency + bytes / bandwidth, weights 1/t^2;
# the latency is the fit's intercept less what the model charges before a
# copy starts (PROFILE's memcpy_async and copy_submit), which the host's
# time holds, as h100.ini's pageable latencies are. Prints both keys of each
# direction. Exit 2 on a missing file, a profile without those keys, or a
# direction with fewer than two sizes.
set -euo pipefail
SCRIPT_NAME=fit-cached.sh
. "$(dirname "$0")/script-lib.sh"
script_profile_args "PROFILE.ini SWEEP.txt..." "$@"
call=$(script_need "$profile" memcpy_async us)
submit=$(script_need "$profile" copy_submit us)
cat "${files[@]}" | awk -v before="$(awk -v a="$call" -v b="$submit" 'BEGIN { print a + b }')" "$SCRIPT_MEDIAN_AWK"'
  $2 == "malloc" && $3 == "again" && $4 <= 16777216 { n[$1, $4]++; v[$1, $4, n[$1, $4]] = $5; sizes[$1, $4] = 1 }
  END {
    split("h2d d2h", dirs, " ")
    for (d = 1; d <= 2; d++) {
      dir = dirs[d]; sw = swx = swy = swxx = swxy = 0; m = 0
      for (k in sizes) {
        split(k, parts, SUBSEP)
        if (parts[1] != dir) continue
        cnt = n[dir, parts[2]]; delete a
        for (i = 1; i <= cnt; i++) a[i] = v[dir, parts[2], i]
        t = lower_median(a, cnt); x = parts[2]; w = 1 / (t * t); m++
        sw += w; swx += w * x; swy += w * t; swxx += w * x * x; swxy += w * x * t
      }
      if (m < 2) { printf "fit-cached.sh: %s: %d sizes, need two\n", dir, m > "/dev/stderr"; exit 2 }
      slope = (sw * swxy - swx * swy) / (sw * swxx - swx * swx)
      intercept = (swy - slope * swx) / sw
      printf "%s_cached_bandwidth=%.6fGB/s\n%s_cached_latency=%.3fus\n", dir, 1e-3 / slope, dir, intercept - before
    }
  }'
