#!/bin/bash
# fit-pageable-sizes.sh: [copy] h2d_pageable_sizes, the pageable H2D link's times by size where they leave its line.
#
# Usage: validate/fit-pageable-sizes.sh PROFILE.ini PROBE.txt...
# Each PROBE.txt is what `streamsim-pageable-probe sweep` or `small`
# printed: per direction, state and size, the median host time of a
# synchronous cudaMemcpy of a malloc'd buffer, with no tracer. The H2D
# `hot` and `again` rows (a buffer the CPU has just written, or copied just
# before) of 4 KiB to 256 KiB are used, every size the files have there:
# the sizes where the line, fitted on small copies below and large ones
# above, runs straight and the copies do not (on the H100: 4 KiB 7 us,
# 16 KiB 10, 64 KiB 22, 128 KiB 16, 256 KiB 22). Above 256 KiB the
# buffer's state moves the time more than the line misses it (1 MiB: hot
# 60, again 81, the calibration's interleaved 105 us on the H100), so the
# line's bandwidth carries on from the last point there. Each point is the
# median over its size's rows, less what the model charges before a copy
# starts (memcpy_async and copy_submit), the convention of the pageable
# latencies (fit-pageable-small.sh). D2H is left to its line: its hot and
# again rows differ by up to twice (256 KiB: 76 against 34 us on the
# H100), more than the line misses either.
# Prints the key. Exit 2 on a missing file, a profile without
# memcpy_async or copy_submit in us, or no H2D row in that range.
set -euo pipefail
SCRIPT_NAME=fit-pageable-sizes.sh
. "$(dirname "$0")/script-lib.sh"
script_profile_args "PROFILE.ini SWEEP.txt..." "$@"
call=$(script_need "$profile" memcpy_async us)
submit=$(script_need "$profile" copy_submit us)
cat "${files[@]}" | awk -v call="$call" -v submit="$submit" "$SCRIPT_MEDIAN_AWK"'
  $1 == "h2d" && $2 == "malloc" && ($3 == "hot" || $3 == "again") && NF == 6 \
    && $4 >= 4096 && $4 <= 262144 {
    if (!($4 in n)) sizes[++k] = $4
    n[$4]++; v[$4, n[$4]] = $5
  }
  END {
    if (k == 0) { print "fit-pageable-sizes.sh: no h2d hot or again rows of 4 KiB to 256 KiB" > "/dev/stderr"; exit 2 }
    for (i = 2; i <= k; i++) { x = sizes[i]; for (j = i - 1; j > 0 && sizes[j] > x; j--) sizes[j + 1] = sizes[j]; sizes[j + 1] = x }
    line = ""
    for (s = 1; s <= k; s++) {
      size = sizes[s]
      name = size % 1048576 == 0 ? (size / 1048576) "MiB" : size % 1024 == 0 ? (size / 1024) "KiB" : size "B"
      t = median_at(v, size, n[size])
      printf "# %s: %d rows, median %.2f us\n", name, n[size], t
      line = line sprintf("%s%s %.3fus", s > 1 ? ", " : "", name, t - call - submit)
    }
    printf "# each less memcpy_async %.3f and copy_submit %.3f\n", call, submit
    printf "h2d_pageable_sizes=%s\n", line
  }'
