#!/usr/bin/env bash
# spread-regions.sh: the recorded programs' region medians with a profile's own host and at the fast and slow end of its [spread].
#
# Usage: validate/spread-regions.sh RESULTS_DIR GPU
# For each PROGRAM.sched (or .sched.gz) in RESULTS_DIR with its
# PROGRAM.measured.csv (or .csv.gz), `streamsim predict --device GPU` and
# `streamsim compare --regions` against the measurement, three times: on
# the profile GPU as it is, then with `--host fast` and `--host slow` (the
# host costs of its [spread]'s two ends, sim/front/host_spread.h). Prints a
# markdown table of each program's median |error| over its regions, and the
# count of programs within 2% each way and at either end. A profile without
# [spread] is an error (predict's, exit 2). STREAMSIM (default
# build/bin/streamsim) is the binary.
set -euo pipefail
cd "$(dirname "$0")/.."
streamsim=${STREAMSIM:-build/bin/streamsim}
[ $# -eq 2 ] || { echo "usage: validate/spread-regions.sh RESULTS_DIR GPU" >&2; exit 2; }
dir=$1 gpu=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
median () { # SCHED MEASURED [--host END]
  local sched=$1 measured=$2 out rc=0
  shift 2
  "$streamsim" predict "$sched" --device "$gpu" "$@" --csv "$work/predicted.csv" -q || return 2
  # compare's 1 says the makespan missed its --max-error: not a failure here
  out=$("$streamsim" compare --regions "$work/predicted.csv" "$measured") || rc=$?
  [ "$rc" -le 1 ] || return 2
  sed -n 's/^median *|error| \([0-9.]*\)% over all.*/\1/p' <<< "$out"
}
printf '| program | median with %s | at its fast host | at its slow host |\n| --- | ---: | ---: | ---: |\n' "$gpu"
for sched in "$dir"/*.sched "$dir"/*.sched.gz; do
  [ -f "$sched" ] || continue
  name=$(basename "$sched"); name=${name%.gz}; name=${name%.sched}
  measured=$dir/$name.measured.csv
  [ -f "$measured" ] || measured=$measured.gz
  [ -f "$measured" ] || continue
  own=$(median "$sched" "$measured") && fast=$(median "$sched" "$measured" --host fast) &&
    slow=$(median "$sched" "$measured" --host slow) || exit 2
  printf '%s %s %s %s\n' "$name" "$own" "$fast" "$slow"
done | sort | awk '
  { printf "| %s | %.2f%% | %.2f%% | %.2f%% |\n", $1, $2, $3, $4; n++
    a += $2 <= 2; f += $3 <= 2; s += $4 <= 2; e += ($2 <= 2 || $3 <= 2 || $4 <= 2) }
  END { printf "\n%d programs; median <= 2%%: %d with the profile, %d at the fast host, %d at the slow host, %d at one of the three.\n", n, a, f, s, e }'
