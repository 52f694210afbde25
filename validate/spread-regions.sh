#!/usr/bin/env bash
# spread-regions.sh: the recorded programs' region medians with a profile's own host and at the fast and slow end of its [spread].
#
# Usage: validate/spread-regions.sh RESULTS_DIR GPU
# For each PROGRAM.sched (or .sched.gz) in RESULTS_DIR with its
# PROGRAM.measured.csv (or .csv.gz), `streamsim predict --device GPU` and
# `streamsim compare --regions` against the measurement, three times: on
# the profile GPU as it is, and on a profile that inherits it with the four
# host costs of its [spread]'s fast end, then its slow end (what
# sim/front/host_spread.h runs). Prints a markdown table of each program's
# median |error| over its regions, and the count of programs within 2% each
# way and at either end. The profile file is GPU.ini in STREAMSIM_PROFILE_PATH's
# first folder that has it, else in engines/profiles; one without [spread]
# is an error (exit 2). STREAMSIM (default build/bin/streamsim) is the binary.
set -euo pipefail
cd "$(dirname "$0")/.."
streamsim=${STREAMSIM:-build/bin/streamsim}
[ $# -eq 2 ] || { echo "usage: validate/spread-regions.sh RESULTS_DIR GPU" >&2; exit 2; }
dir=$1 gpu=$2
ini=
IFS=: read -r -a folders <<< "${STREAMSIM_PROFILE_PATH:-}"
for d in "${folders[@]}" engines/profiles; do
  if [ -n "$d" ] && [ -f "$d/$gpu.ini" ]; then ini=$d/$gpu.ini; break; fi
done
[ -n "$ini" ] || { echo "spread-regions.sh: no profile $gpu.ini" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
abs=$(cd "$(dirname "$ini")" && pwd)/$(basename "$ini")
for end in fast slow; do
  awk -v end="$end" -v parent="$abs" '
    /^[ \t]*\[/ { section = $0; gsub(/[][ \t]/, "", section); next }
    section == "spread" && match($0, "^[a-z0-9_]+_" end "[ \t]*=") {
      k = substr($0, 1, RLENGTH); sub("_" end "[ \t]*=$", "", k)
      v = substr($0, RLENGTH + 1); gsub(/^[ \t]+|[ \t]+$/, "", v); val[k] = v; n++
    }
    END {
      if (n != 4) exit 2
      printf "[device]\ninherits=%s\n[host]\nkernel_launch=%s\nmemcpy_async=%s\n", parent, val["kernel_launch"], val["memcpy_async"]
      printf "[copy]\nh2d_pageable_bandwidth=%s\nd2h_pageable_bandwidth=%s\n", val["h2d_pageable_bandwidth"], val["d2h_pageable_bandwidth"]
    }' "$ini" > "$work/$gpu-$end.ini" ||
    { echo "spread-regions.sh: $ini has no [spread]" >&2; exit 2; }
done
median () { # SCHED MEASURED PROFILE
  "$streamsim" predict "$1" --device "$3" --csv - -q | "$streamsim" compare --regions - "$2" |
    sed -n 's/^median *|error| \([0-9.]*\)% over all.*/\1/p'
}
printf '| program | median with %s | at its fast host | at its slow host |\n| --- | ---: | ---: | ---: |\n' "$gpu"
for sched in "$dir"/*.sched "$dir"/*.sched.gz; do
  [ -f "$sched" ] || continue
  name=$(basename "$sched"); name=${name%.gz}; name=${name%.sched}
  measured=$dir/$name.measured.csv
  [ -f "$measured" ] || measured=$measured.gz
  [ -f "$measured" ] || continue
  printf '%s %s %s %s\n' "$name" "$(median "$sched" "$measured" "$gpu")" \
    "$(median "$sched" "$measured" "$work/$gpu-fast.ini")" "$(median "$sched" "$measured" "$work/$gpu-slow.ini")"
done | sort | awk '
  { printf "| %s | %.2f%% | %.2f%% | %.2f%% |\n", $1, $2, $3, $4; n++
    a += $2 <= 2; f += $3 <= 2; s += $4 <= 2; e += ($2 <= 2 || $3 <= 2 || $4 <= 2) }
  END { printf "\n%d programs; median <= 2%%: %d with the profile, %d at the fast host, %d at the slow host, %d at one of the three.\n", n, a, f, s, e }'
