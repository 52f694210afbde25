#!/usr/bin/env bash
# validate/fit-alloc-pool.sh: the profile's [host] stream-ordered allocation keys from
# validate/examples/alloc_async_probe.cu's output.
#
#   validate/fit-alloc-pool.sh RUN.out...
#
# Each line `case SIZE_MIB THRESHOLD SYNC MALLOC FREE SYNC_CALL GPU` of the files (times in
# us) is a median over one case's iterations. Prints:
#   malloc_async, free_async  the median over the `end` cases (no synchronize between
#                  iterations, so the pool has the memory) of MALLOC and FREE;
#   pool_grow, pool_grow_rate  the least-squares line through (SIZE, MALLOC of `default
#                  each` less MALLOC of `keep each` at that SIZE, the median of the files'
#                  values) over the sizes of 64 MiB and up: its intercept, and its slope
#                  as a rate (MiB per us given as bytes per second, GB/s);
#   pool_trim_rate  the same line's slope for SYNC_CALL (the synchronize that gives the
#                  memory back, less the `keep` one), as a rate; its intercept is printed
#                  as a comment (the profile takes 0 when it is negative);
#   growth_small   a comment: the median growth over the sizes up to 32 MiB.
# Exit status 0; 1 when a kind of sample is missing; 2 for bad usage.
set -euo pipefail
SCRIPT_NAME=fit-alloc-pool.sh
. "$(dirname "$0")/script-lib.sh"
script_args 1 "RUN.out..." "$@"
awk "$SCRIPT_MEDIAN_AWK"'
  # the median of a list of numbers separated by blanks
  function median_of_list(list,   a, k) { k = split(list, a, " "); return median(a, k) }
  $1 == "case" {
    size = $2; key = size " " $3 " " $4
    m[key] = m[key] " " $5; y[key] = y[key] " " $7
    if ($4 == "end") { calls_m = calls_m " " $5; calls_f = calls_f " " $6 }
    sizes[size] = 1
  }
  END {
    if (calls_m == "") { print "fit-alloc-pool.sh: no `end` cases" > "/dev/stderr"; exit 1 }
    printf "malloc_async=%.2fus\nfree_async=%.2fus\n", median_of_list(calls_m), median_of_list(calls_f)
    n = 0; sx = sy = sxx = sxy = sy2 = sxy2 = 0; small = ""
    for (s in sizes) {
      d = s " default each"; k = s " keep each"
      if (!(d in m) || !(k in m)) continue
      g = median_of_list(m[d]) - median_of_list(m[k]); t = median_of_list(y[d]) - median_of_list(y[k])
      if (s + 0 <= 32) { small = small " " g; continue }
      if (s + 0 < 64) continue
      n++; sx += s; sxx += s * s; sy += g; sxy += s * g; sy2 += t; sxy2 += s * t
    }
    if (n < 2) { print "fit-alloc-pool.sh: fewer than two sizes of 64 MiB or more" > "/dev/stderr"; exit 1 }
    b = (n * sxy - sx * sy) / (n * sxx - sx * sx); a = (sy - b * sx) / n
    b2 = (n * sxy2 - sx * sy2) / (n * sxx - sx * sx); a2 = (sy2 - b2 * sx) / n
    printf "pool_grow=%.1fus\npool_grow_rate=%.1fGB/s\n", a, 1048576 / b / 1000
    printf "pool_trim_rate=%.1fGB/s\n", 1048576 / b2 / 1000
    printf "# pool_trim intercept %.1f us; growth up to 32 MiB %s us\n", a2, small == "" ? "-" : sprintf ("%.1f", median_of_list(small))
  }' "$@"
