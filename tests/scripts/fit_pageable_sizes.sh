#!/usr/bin/env bash
# tests/scripts/fit_pageable_sizes.sh SOURCE_DIR: validate/fit-pageable-sizes.sh on made-up
# probe sweeps, against values worked out by hand.
#
# A profile with memcpy_async=1us and copy_submit=2us. The H2D hot and again rows by
# size, from both files, in size order whatever order the files give them: 4 KiB 6, 8
# and 7 us, median 7, less 1 + 2: 4 us; 16 KiB 10 and 12, median 11: 8 us; 64 KiB 22:
# 19 us; 128 KiB 15 (below 64 KiB's: times need not rise): 12 us; 256 KiB 20, 30 and
# 25, median 25: 22 us. Cold rows, D2H rows, huge pages and sizes outside 4 to 256 KiB
# are not used (each would move a median or add a point). A file with no H2D row of 4
# to 256 KiB fails, as does a profile without copy_submit.
set -euo pipefail
src=${1:?usage: fit_pageable_sizes.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '[host]\nmemcpy_async=1us\n[latency]\ncopy_submit=2us\n' > "$work/p.ini"
cat > "$work/s1.txt" <<'ROWS'
thp always [madvise] never
h2d malloc hot 4096 6.0 5.0
h2d malloc again 4096 8.0 5.0
h2d malloc cold 4096 99.0 99.0
h2d huge hot 4096 99.0 99.0
d2h malloc hot 4096 99.0 99.0
h2d malloc hot 16384 10.0 9.0
h2d malloc hot 65536 22.0 20.0
h2d malloc hot 262144 20.0 19.0
h2d malloc hot 1048576 99.0 99.0
ROWS
cat > "$work/s2.txt" <<'ROWS'
h2d malloc hot 4096 7.0 6.0
h2d malloc again 16384 12.0 9.0
h2d malloc again 262144 30.0 19.0
h2d malloc hot 262144 25.0 19.0
h2d malloc hot 2048 99.0 99.0
h2d malloc again 131072 15.0 14.0
h2d malloc hot 524288 99.0 99.0
ROWS
want='# 4KiB: 3 rows, median 7.00 us
# 16KiB: 2 rows, median 11.00 us
# 64KiB: 1 rows, median 22.00 us
# 128KiB: 1 rows, median 15.00 us
# 256KiB: 3 rows, median 25.00 us
# each less memcpy_async 1.000 and copy_submit 2.000
h2d_pageable_sizes=4KiB 4.000us, 16KiB 8.000us, 64KiB 19.000us, 128KiB 12.000us, 256KiB 22.000us'
got=$(bash "$src/validate/fit-pageable-sizes.sh" "$work/p.ini" "$work"/s*.txt)
if [ "$got" != "$want" ]; then
  printf 'FAIL: got\n%s\nwant\n%s\n' "$got" "$want"
  exit 1
fi
grep -v '^h2d malloc' "$work/s1.txt" > "$work/none.txt"
if bash "$src/validate/fit-pageable-sizes.sh" "$work/p.ini" "$work/none.txt" > /dev/null 2>&1; then
  echo "FAIL: a file with no H2D row of 4 to 256 KiB was accepted"
  exit 1
fi
printf '[host]\nmemcpy_async=1us\n' > "$work/q.ini"
if bash "$src/validate/fit-pageable-sizes.sh" "$work/q.ini" "$work/s1.txt" > /dev/null 2>&1; then
  echo "FAIL: a profile without copy_submit was accepted"
  exit 1
fi
echo "fit-pageable-sizes: the values worked out by hand"
