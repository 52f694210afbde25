#!/bin/bash
# fit-copy2d.sh: the [copy] row-rate keys of a profile from the 2D copy probe's output.
#
#   validate/fit-copy2d.sh PROFILE.ini RUN.txt...
#
# RUN.txt is streamsim-copy2d-probe's output (validate/examples/copy2d_probe.cu
# says what each line is); PROFILE.ini the GPU's profile, whose pinned H2D
# and D2H bandwidths and d2d bandwidth it reads. For each direction, over the
# runs' 4 MiB 2D copies of 16 and 64 B rows (where the rows, not the bytes,
# set the pace): each case's row time is its median span less the median span
# of the 4 MiB copy made by cudaMemcpyAsync (so the stamps and the latency
# cancel), plus 4 MiB at the profile's bandwidth (what that copy's bytes
# took in the model), over its rows; the key is one over the median of those
# row times. Prints the three keys as a profile has them, with the cases.
set -euo pipefail
SCRIPT_NAME=fit-copy2d.sh
. "$(dirname "$0")/script-lib.sh"
script_profile_args "PROFILE.ini RUN.txt..." "$@"

# A bandwidth key in bytes per second ("54.5GB/s", "900MB/s").
bandwidth () {
  awk -F= -v key="$1" '$1 == key {
      v = $2; unit = v; sub(/^[0-9.eE+-]+/, "", unit); v += 0
      m = unit == "GB/s" ? 1e9 : unit == "MB/s" ? 1e6 : unit == "TB/s" ? 1e12 : unit == "KB/s" ? 1e3 : unit == "B/s" ? 1 : 0
      if (m == 0) { print "fit-copy2d.sh: unit of " key " not understood: " $2 > "/dev/stderr"; exit 2 }
      print v * m; found = 1 }
    END { if (!found) { print "fit-copy2d.sh: no " key > "/dev/stderr"; exit 2 } }' "$profile"
}
h2d=$(bandwidth h2d_pinned_bandwidth)
d2h=$(bandwidth d2h_pinned_bandwidth)
d2d=$(bandwidth d2d_bandwidth)

cat "${files[@]}" | awk -v bw_h2d="$h2d" -v bw_d2h="$d2h" -v bw_d2d="$d2d" "$SCRIPT_MEDIAN_AWK"'
  $1 == "copy" && $6 == 4194304 && ($2 == "1d" || ($2 == "2d" && ($4 == 16 || $4 == 64))) {
    key = $2 " " $3 " " $4; n[key]++; v[key, n[key]] = $7; rows[key] = $5
  }
  END {
    split("h2d d2h d2d", dirs, " ")
    bw["h2d"] = bw_h2d; bw["d2h"] = bw_d2h; bw["d2d"] = bw_d2d
    for (d = 1; d <= 3; d++) {
      dir = dirs[d]; one = "1d " dir " 4194304"
      if (!(one in n)) { print "fit-copy2d.sh: no 4 MiB " dir " copy in the runs" > "/dev/stderr"; exit 2 }
      base = median_at(v, one, n[one]) - 4194304 / bw[dir] * 1e6
      k = 0
      for (w = 16; w <= 64; w *= 4) {
        key = "2d " dir " " w
        if (!(key in n)) continue
        t = (median_at(v, key, n[key]) - base) / rows[key] * 1e3
        printf "# %s %d B rows: %d rows, %.2f us, %.4f ns a row\n", dir, w, rows[key], median_at(v, key, n[key]), t
        v["rows " dir, ++k] = t
      }
      if (k == 0) { print "fit-copy2d.sh: no 16 or 64 B " dir " rows in the runs" > "/dev/stderr"; exit 2 }
      printf "%s_row_rate=%.1fMHz\n", dir, 1e3 / median_at(v, "rows " dir, k)
    }
  }'
