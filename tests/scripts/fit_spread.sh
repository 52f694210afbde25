#!/usr/bin/env bash
# tests/scripts/fit_spread.sh SOURCE_DIR: validate/fit-spread.sh on made-up run headers, against
# values worked out by hand.
#
# A profile with h2d_pageable_latency=1us and d2h_pageable_latency=2us. Ten runs i = 1..10,
# kept in two files (one gzipped), the fifth twice (a round and its copy, counted once):
# kernel_launch i us, memcpy_async i x 100 ns, a 64 MiB pageable H2D of 1 us + 64 MiB x
# (0.5 + (i - 1) / 16) ns and a D2H of 2 us + 64 MiB x (0.25 + (i - 1) x 3 / 32) ns. The
# 10th percentile by nearest rank is run 1, the 90th run 9: launches 1 and 9 us, calls 0.1
# and 0.9 us, H2D 64 MiB in 0.5 and 1 x 64 Mi ns past its latency (2 and 1 GB/s), D2H
# in 0.25 and 1 x (4 and 1 GB/s). With nine runs it fails (ten are needed).
set -euo pipefail
src=${1:?usage: fit_spread.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '[copy]\nh2d_pageable_latency=1us\nd2h_pageable_latency=2us\n' > "$work/p.ini"
row () {
  local i=$1
  echo "# host_calls_untimed: kernel_launch=$((i * 1000))ns memcpy_async=$((i * 100))ns h2d_pageable_64MiB=$((1000 + 33554432 + (i - 1) * 4194304))ns d2h_pageable_64MiB=$((2000 + 16777216 + (i - 1) * 6291456))ns kernel_launch_median=1ns"
}
{ echo "# source: measured"; for i in 1 2 3 4 5; do row $i; done; echo "op,line"; } > "$work/a.csv"
{ for i in 5 6 7 8 9 10; do row $i; done; } | gzip > "$work/b.csv.gz"
want='kernel_launch_fast=1.000us
memcpy_async_fast=0.100us
h2d_pageable_bandwidth_fast=2.000000GB/s
d2h_pageable_bandwidth_fast=4.000000GB/s
kernel_launch_slow=9.000us
memcpy_async_slow=0.900us
h2d_pageable_bandwidth_slow=1.000000GB/s
d2h_pageable_bandwidth_slow=1.000000GB/s'
got=$(bash "$src/validate/fit-spread.sh" "$work/p.ini" "$work/a.csv" "$work/b.csv.gz" | grep -v '^#')
if [ "$got" != "$want" ]; then
  printf 'FAIL: got\n%s\nwant\n%s\n' "$got" "$want"
  exit 1
fi
{ for i in 1 2 3 4 5 6 7 8 9; do row $i; done; } > "$work/nine.csv"
if bash "$src/validate/fit-spread.sh" "$work/p.ini" "$work/nine.csv" > /dev/null 2>&1; then
  echo "FAIL: nine runs were accepted"
  exit 1
fi
echo "fit-spread: the values worked out by hand"
