#!/bin/bash
# pages-table.sh: recordings of untouched D2Hs with and without what the recorder saw of huge pages.
#
# Usage: validate/pages-table.sh GPU DIR...
# For each NAME.log.gz in each DIR (streamsim-validate --record logs with
# `pages` lines, sim/recorded/record_log.h), converts the log twice with
# GPU's profile and 8 connections: as it is, and without its `pages` lines
# (every untouched copy on small pages, as logs of older recorders are),
# predicts both with the profile alone and prints, per log: each pageable
# D2H's bytes that faulted in huge and its call's time, then the error of
# every region of 0.5 ms or more that holds such a copy, with the pages and
# without. Needs build/validate/streamsim-validate and build/bin/streamsim.
set -euo pipefail
SCRIPT_NAME=pages-table.sh
. "$(dirname "$0")/script-lib.sh"
script_usage 2 "GPU DIR..." "$@"
gpu=$1; shift
root=$(cd "$(dirname "$0")/.." && pwd)
V=$root/build/validate/streamsim-validate; S=$root/build/bin/streamsim
export STREAMSIM_PROFILE_PATH=${STREAMSIM_PROFILE_PATH:-$root/engines/profiles}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf '| log | D2H calls: huge, time | regions with them: with the pages | without |\n| --- | --- | --- | --- |\n'
for dir in "$@"; do
  for log in "$dir"/*.log.gz; do
    name=$(basename "$log" .log.gz)
    script_convert_twice "$log" pages "$tmp" "$gpu" "$V" "$S"
    calls=$(awk -F'\t' '$1 == "pages" { p[$2] = $4 - $3 }
      $1 == "call" && $3 ~ /Memcpy/ && $10 == 2 { c[$6] = ($5 - $4) / 1000 }
      END { for (k in p) if (k in c) printf "%s%.1f MiB, %.0f us", (n++ ? "; " : ""), p[k] / 1048576, c[k] }' "$tmp/new.log")
    # the ops of the untouched D2Hs (the same in both), then the regions that hold them
    lines=$( (grep -n '^d2h .* untouched' "$tmp/new.sched" || true) | cut -d: -f1 | tr '\n' ' ')
    ops=$(awk -F, -v lines="$lines" 'BEGIN { n = split(lines, l, " "); for (i = 1; i <= n; i++) u[l[i]] = 1 }
      $1 ~ /^[0-9]+$/ && ($2 in u) { print $1 }' "$tmp/new.measured.csv" | tr '\n' ' ')
    cols=()
    for v in new old; do
      cols+=("$("$S" compare "$tmp/$v.pred.csv" "$tmp/$v.measured.csv" --regions | awk -v ops="$ops" '
        BEGIN { n = split(ops, o, " ") }
        /^region kind/ { r = 1; next }
        /^\(from/ { r = 0 }
        r && $1 ~ /^[0-9]+$/ && $6 >= 500 {
          for (i = 1; i <= n; i++) if (o[i] + 0 > $3 + 0 && o[i] + 0 <= $4 + 0) { printf "%s%s", (k++ ? ", " : ""), $7; break }
        }')")
    done
    printf '| %s | %s | %s | %s |\n' "$(basename "$dir")/$name" "$calls" "${cols[0]}" "${cols[1]}"
  done
done
