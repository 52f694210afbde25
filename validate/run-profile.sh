#!/bin/bash
# run-profile.sh: the calibrated profile with what one measured run's own process measured beside its repeats.
#
# Usage (validate/report.sh calls it):
#   validate/run-profile.sh MEASURED.csv KEY GPU PROFILE.ini
#       prints a profile that inherits GPU (whose file is PROFILE.ini) with
#       the host call costs and pageable links the run measured under
#       "# KEY:" in MEASURED.csv
#   validate/run-profile.sh --link MEASURED.csv KEY PROFILE.ini
#       prints how far the run's link was from the profile: for each 64 MiB
#       copy measured, "h2d_pinned=-4.12" (percent, measured minus the
#       profile's latency + 64 MiB / bandwidth, of the latter), one per line
# KEY is host_calls (measured between the traced repeats) or
# host_calls_untimed (between the untimed ones); validate/val_hostcost.h
# says what is measured and why. Prints nothing when MEASURED has no such
# line. Exits 2, naming the file and line, on a value it cannot read.
#
# A pageable copy measured at 64 MiB sets its link's bandwidth so that the
# profile's own latency + 64 MiB / bandwidth equals the measured time: the
# latency is the calibration's, the bandwidth the run's (pageable rates move
# 10 to 40% from one process to the next). Pinned copies are measured for
# --link only: set the same way, they made as many predictions worse as
# better on the H100 and the H200 (validate/FINDINGS.md, "The link's two
# spells"), so the profile keeps the calibrated pinned links.
set -euo pipefail

link=0
if [ "${1:-}" = "--link" ]; then
  link=1
  shift
  [ $# -eq 3 ] || { echo "usage: run-profile.sh --link MEASURED.csv KEY PROFILE.ini" >&2; exit 2; }
  measured=$1 key=$2 ini=$3 gpu=
else
  [ $# -eq 4 ] || { echo "usage: run-profile.sh MEASURED.csv KEY GPU PROFILE.ini" >&2; exit 2; }
  measured=$1 key=$2 gpu=$3 ini=$4
fi
for f in "$measured" "$ini"; do
  [ -r "$f" ] || { echo "run-profile.sh: cannot read $f" >&2; exit 3; }
done

awk -v key="$key" -v gpu="$gpu" -v link="$link" -v measured="$measured" -v ini="$ini" \
    -v label="$(basename "$measured")" '
function fail(file, line, col, msg) {
  printf "%s:%d:%d: %s\n", file, line, col, msg > "/dev/stderr"
  failed = 1
  exit 2
}
# "2.681us", "500ns", "1ms", "0" -> ns; -1 when it is not a time
function ns_of(v,    n, u) {
  if (!match(v, /^[0-9]+(\.[0-9]+)?/)) return -1
  n = substr(v, 1, RLENGTH); u = substr(v, RLENGTH + 1)
  if (u == "ns" || (u == "" && n == 0)) return n + 0
  if (u == "us") return n * 1e3
  if (u == "ms") return n * 1e6
  if (u == "s") return n * 1e9
  return -1
}
# "54.138214GB/s" -> bytes per second; -1 when it is not a bandwidth
function bps_of(v,    n, u) {
  if (!match(v, /^[0-9]+(\.[0-9]+)?/)) return -1
  n = substr(v, 1, RLENGTH); u = substr(v, RLENGTH + 1)
  if (u == "GB/s") return n * 1e9
  if (u == "MB/s") return n * 1e6
  if (u == "KB/s") return n * 1e3
  if (u == "B/s") return n + 0
  return -1
}
# The [copy] keys of the profile file itself (not those it inherits: a
# calibrated profile holds them all), and the line of its [copy] section.
FILENAME == ini {
  if ($0 ~ /^[ \t]*\[/) {
    section = $0; gsub(/[][ \t]/, "", section)
    if (section == "copy" && !copy_section) copy_section = FNR
    next
  }
  if (section == "copy" && match($0, /^[ \t]*[a-z0-9_]+[ \t]*=/)) {
    k = substr($0, 1, RLENGTH - 1); gsub(/[ \t]/, "", k)
    v = substr($0, RLENGTH + 1); gsub(/^[ \t]+|[ \t]+$/, "", v)
    copy[k] = v
  }
  next
}
FILENAME == measured && !found && index($0, "# " key ": ") == 1 {
  found = 1; value = substr($0, length("# " key ": ") + 1); value_line = FNR; value_text = $0
}
END {
  if (failed || !found) exit failed ? 2 : 0
  n = split(value, kv, " ")
  for (i = 1; i <= n; i++) {
    col = index(value_text, kv[i]); eq = index(kv[i], "=")
    if (eq == 0) fail(measured, value_line, col, "\"" kv[i] "\" in # " key ": is not key=value")
    name = substr(kv[i], 1, eq - 1); v = substr(kv[i], eq + 1)
    if (name == "kernel_launch" || name == "memcpy_async") {
      if (ns_of(v) < 0) fail(measured, value_line, col, name "=" v ": not a time")
      host[++n_host] = name "=" v
    } else if (name ~ /^(h2d|d2h)_(pinned|pageable)_64MiB$/) {
      t = ns_of(v)
      if (t <= 0) fail(measured, value_line, col, name "=" v ": not a time above 0")
      lk = substr(name, 1, length(name) - 6)
      lat = ns_of(copy[lk "_latency"]); bw = bps_of(copy[lk "_bandwidth"])
      if (lat < 0 || bw <= 0)
        fail(ini, copy_section ? copy_section : 1, 1,
             "[copy] has no usable " lk "_latency and " lk "_bandwidth")
      if (t <= lat)
        fail(measured, value_line, col, name "=" v " is no longer than the profile'\''s " lk "_latency")
      bytes = 67108864; calibrated = lat + bytes / bw * 1e9
      if (link)
        printf "%s=%+.2f\n", lk, 100 * (t - calibrated) / calibrated
      else if (lk ~ /_pageable$/)
        copies[++n_copies] = sprintf("%s_bandwidth=%.6fGB/s", lk, bytes / (t - lat))
    }
  }
  if (link) exit 0
  printf "# %s with the host call costs and pageable links measured next to %s (%s)\n", gpu, label, key
  print "[device]"
  printf "description=%s, host calls and pageable links of one measured run\n", gpu
  printf "inherits=%s\n", gpu
  print "[host]"
  for (i = 1; i <= n_host; i++) print host[i]
  print "[copy]"
  for (i = 1; i <= n_copies; i++) print copies[i]
}' "$ini" "$measured"
