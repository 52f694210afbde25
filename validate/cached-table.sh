#!/bin/bash
# cached-table.sh: recordings whose pageable H2Ds read buffers copied before, with and without the recorder's buffer lines.
#
# Usage: validate/cached-table.sh GPU LOG...
# Each LOG (plain or .gz) is a streamsim-validate --record log with `buffer`
# lines (sim/recorded/record_log.h). Converts it twice with GPU's profile
# and 8 connections: as it is, where the converter writes `cached` for an H2D
# of a buffer copied a moment before (sim/recorded/record_cached.c), and
# without its `buffer` lines (every H2D uncached, as logs of older recorders
# are); predicts both with the profile alone and prints, per log: the H2Ds
# written `cached`, the median |error| of their calls' time (issue to the
# next op's issue, predicted against measured) with and without, and the
# median |error| of the regions (`streamsim compare --regions`) with and
# without. VALIDATE and STREAMSIM (default build/validate/streamsim-validate,
# build/bin/streamsim).
set -euo pipefail
SCRIPT_NAME=cached-table.sh
. "$(dirname "$0")/script-lib.sh"
script_usage 2 "GPU LOG..." "$@"
gpu=$1; shift
script_readable "$@"
root=$(cd "$(dirname "$0")/.." && pwd)
V=${VALIDATE:-$root/build/validate/streamsim-validate}; S=${STREAMSIM:-$root/build/bin/streamsim}
export STREAMSIM_PROFILE_PATH=${STREAMSIM_PROFILE_PATH:-$root/engines/profiles}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# call_times SCHED_LINES CSV: "line ns" for each op of the CSV whose schedule
# line is among SCHED_LINES, its time from its issue to the next op's
call_times() {
  awk -F, -v lines="$1" 'BEGIN { n = split(lines, l, " "); for (i = 1; i <= n; i++) want[l[i]] = 1 }
    /^#/ || $1 == "op" { next }
    open != "" { print open, $7 - issue; open = "" }
    ($2 in want) { open = $2; issue = $7 }' "$2"
}

printf '| log | H2Ds cached | their calls: median \\|error\\| with | without | regions: median \\|error\\| with | without |\n'
printf '| --- | ---: | ---: | ---: | ---: | ---: |\n'
declare -A regions
for log in "$@"; do
  name=$(basename "$log"); name=${name%.gz}; name=${name%.log}
  script_convert_twice "$log" buffer "$tmp" "$gpu" "$V" "$S"
  cols=()
  for v in new old; do
    regions["$v"]=$(script_compare_field "$("$S" compare "$tmp/$v.pred.csv" "$tmp/$v.measured.csv" --regions)" median)
  done
  lines=$( (grep -n '^h2d .* cached\|^memcpy h2d .* cached' "$tmp/new.sched" || true) | cut -d: -f1 | tr '\n' ' ')
  for v in new old; do
    cols+=("$(join <(call_times "$lines" "$tmp/new.measured.csv" | sort) <(call_times "$lines" "$tmp/$v.pred.csv" | sort) |
      awk "$SCRIPT_MEDIAN_AWK"'{ e = ($3 - $2) / $2; a[++n] = e < 0 ? -e : e }
        END { if (n) printf "%.1f%%", 100 * median(a, n); else printf "-" }')")
  done
  printf '| %s | %s | %s | %s | %s | %s |\n' "$name" "$(wc -w <<< "$lines")" "${cols[0]}" "${cols[1]}" \
    "${regions[new]}" "${regions[old]}"
done
