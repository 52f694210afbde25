#!/usr/bin/env bash
# tests/scripts/fit_recorder_gap.sh SOURCE_DIR: validate/fit-recorder-gap.sh on a made-up log,
# against a mean worked out by hand.
#
# Thread 1: a launch 0-1000 ns, a cudaGetLastError 1200-1300, a launch 1700-2700, a
# cudaGetLastError 2900-3000: gaps of 200, 400 and 200 ns between loop calls. Then a
# cudaMemcpy 3100-9000 (not a loop call: the gaps on either side of it do not count) and
# a launch 9100-10000 and another 14000-15000 (a gap of 4000 ns: the program's own work,
# over 2 us, left out). Thread 2: a launch 1000-1500 and a cudaGetLastError 1600-1700,
# a gap of 100 ns of its own (not 1500 - 1300 against thread 1's call). So 4 gaps,
# 200 + 400 + 200 + 100 = 900 ns, a mean of 225 ns. A log with no such gap fails.
set -euo pipefail
src=${1:?usage: fit_recorder_gap.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
call () { printf 'call\t%s\t%s\t%s\t%s\t0\t0\t0\t0\t0\t0\n' "$@"; }
{
  printf 'streamsim-record\t1\n'
  call 1 cudaLaunchKernel 0 1000
  call 2 cudaLaunchKernel 1000 1500
  call 1 cudaGetLastError 1200 1300
  call 2 cudaGetLastError 1600 1700
  call 1 cudaLaunchKernel 1700 2700
  call 1 cudaGetLastError 2900 3000
  call 1 cudaMemcpy 3100 9000
  call 1 cudaLaunchKernel 9100 10000
  call 1 cudaLaunchKernel 14000 15000
} > "$work/loop.log"
want='4 gaps, mean 225 ns
--recorder-gap 225ns'
got=$(bash "$src/validate/fit-recorder-gap.sh" "$work/loop.log")
if [ "$got" != "$want" ]; then
  printf 'FAIL: got\n%s\nwant\n%s\n' "$got" "$want"
  exit 1
fi
{
  printf 'streamsim-record\t1\n'
  call 1 cudaMemcpy 0 1000
  call 1 cudaLaunchKernel 1100 2000
} > "$work/none.log"
if bash "$src/validate/fit-recorder-gap.sh" "$work/none.log" > /dev/null 2>&1; then
  echo "FAIL: a log with no gap between two loop calls was accepted"
  exit 1
fi
echo "fit-recorder-gap: the mean worked out by hand"
