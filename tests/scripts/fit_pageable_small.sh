#!/usr/bin/env bash
# tests/scripts/fit_pageable_small.sh SOURCE_DIR: validate/fit-pageable-small.sh on made-up
# probe outputs, against values worked out by hand.
#
# A profile with memcpy_async=1us, copy_submit=2us, H2D pageable at 1 GB/s (1 B a ns)
# and D2H at 2 GB/s. The hot and again rows of 2 KiB or less, less their bytes at
# that rate: H2D 4 B 10.004 us -> 10, 2048 B 12.048 -> 10, 4 B 13.004 -> 13, median 10,
# less 1 + 2: 7 us; D2H 2048 B 9.024 -> 8, 4 B 8.002 -> 8, 256 B 20.128 -> 20, median
# 8: 5 us. Rows of the cold state, of huge pages and over 2 KiB are not used (each of
# them would move a median). A file with no D2H rows fails, as does a profile without
# a pageable bandwidth.
set -euo pipefail
src=${1:?usage: fit_pageable_small.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '[host]\nmemcpy_async=1us\n[copy]\nh2d_pageable_bandwidth=1GB/s\nd2h_pageable_bandwidth=2GB/s\n[latency]\ncopy_submit=2us\n' > "$work/p.ini"
cat > "$work/s1.txt" <<'ROWS'
thp always [madvise] never
h2d malloc hot 4 10.004 9.0
h2d malloc again 2048 12.048 9.0
h2d malloc cold 4 99.0 99.0
h2d malloc hot 16384 500.0 400.0
h2d huge hot 4 99.0 99.0
d2h malloc hot 2048 9.024 9.0
d2h malloc cold 2048 99.0 99.0
ROWS
cat > "$work/s2.txt" <<'ROWS'
h2d malloc hot 4 13.004 9.0
d2h malloc again 4 8.002 8.0
d2h malloc hot 256 20.128 20.0
d2h malloc again 131072 500.0 400.0
ROWS
want='# h2d: 3 rows, median 10.00 us less memcpy_async 1.000 and copy_submit 2.000
h2d_pageable_latency=7.000us
# d2h: 3 rows, median 8.00 us less memcpy_async 1.000 and copy_submit 2.000
d2h_pageable_latency=5.000us'
got=$(bash "$src/validate/fit-pageable-small.sh" "$work/p.ini" "$work"/s*.txt)
if [ "$got" != "$want" ]; then
  printf 'FAIL: got\n%s\nwant\n%s\n' "$got" "$want"
  exit 1
fi
grep -v '^d2h' "$work/s1.txt" > "$work/h2d-only.txt"
if bash "$src/validate/fit-pageable-small.sh" "$work/p.ini" "$work/h2d-only.txt" > /dev/null 2>&1; then
  echo "FAIL: a file with no D2H rows was accepted"
  exit 1
fi
printf '[host]\nmemcpy_async=1us\n[latency]\ncopy_submit=2us\n' > "$work/q.ini"
if bash "$src/validate/fit-pageable-small.sh" "$work/q.ini" "$work/s1.txt" > /dev/null 2>&1; then
  echo "FAIL: a profile without a pageable bandwidth was accepted"
  exit 1
fi
echo "fit-pageable-small: the values worked out by hand"
