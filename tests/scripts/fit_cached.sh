#!/usr/bin/env bash
# tests/scripts/fit_cached.sh SOURCE_DIR: validate/fit-cached.sh on made-up sweeps, against
# values worked out by hand.
#
# A profile with memcpy_async=1us and copy_submit=2us. Three sweeps whose `again` rows
# lie on straight lines: H2D 5 us + bytes at 1 GB/s (1 MiB 1053.576 us, 2 MiB
# 2102.152 us), D2H 10 us + bytes at 2 GB/s (534.288 and 1058.576 us); the third
# sweep's 1 MiB H2D reads 9999 us, which the median over the sweeps leaves out. Rows of
# other states, of huge pages and over 16 MiB are not fitted. So H2D 1 GB/s and 5 - 3 =
# 2 us, D2H 2 GB/s and 7 us. A profile without copy_submit fails.
set -euo pipefail
src=${1:?usage: fit_cached.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '[host]\nmemcpy_async=1us\n[latency]\ncopy_submit=2us\n' > "$work/p.ini"
sweep () {
  printf 'thp always [madvise] never\n'
  printf 'h2d malloc hot 1048576 1.0 1.0\n'
  printf 'h2d malloc again 1048576 %s 1.0\n' "$1"
  printf 'h2d malloc again 2097152 2102.152 1.0\n'
  printf 'h2d malloc again 33554432 1.0 1.0\n'
  printf 'h2d huge again 1048576 1.0 1.0\n'
  printf 'h2d malloc cold 2097152 1.0 1.0\n'
  printf 'd2h malloc again 1048576 534.288 1.0\n'
  printf 'd2h malloc again 2097152 1058.576 1.0\n'
}
sweep 1053.576 > "$work/s1.txt"
sweep 1053.576 > "$work/s2.txt"
sweep 9999 > "$work/s3.txt"
want='h2d_cached_bandwidth=1.000000GB/s
h2d_cached_latency=2.000us
d2h_cached_bandwidth=2.000000GB/s
d2h_cached_latency=7.000us'
got=$(bash "$src/validate/fit-cached.sh" "$work/p.ini" "$work"/s*.txt)
if [ "$got" != "$want" ]; then
  printf 'FAIL: got\n%s\nwant\n%s\n' "$got" "$want"
  exit 1
fi
printf '[host]\nmemcpy_async=1us\n' > "$work/q.ini"
if bash "$src/validate/fit-cached.sh" "$work/q.ini" "$work/s1.txt" > /dev/null 2>&1; then
  echo "FAIL: a profile without copy_submit was accepted"
  exit 1
fi
echo "fit-cached: the values worked out by hand"
