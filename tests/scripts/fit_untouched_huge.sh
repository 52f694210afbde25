#!/usr/bin/env bash
# tests/scripts/fit_untouched_huge.sh SOURCE_DIR: validate/fit-untouched-huge.sh on made-up
# probe outputs, against values worked out by hand.
#
# A profile with memcpy_async=1us and copy_submit=2us. The huge rows of 4 MiB or more,
# each size's median over both files: H2D 4 MiB 1010 us and 16 MiB 4010 us, on the line
# 10 us + bytes / 4.194304 GB/s (4 MiB in 1000 us), so the weighted fit gives it back:
# bandwidth 4.194304 GB/s, latency 10 - 1 - 2 = 7 us. D2H 4, 16 and 64 MiB at 2020,
# 8020 (the median of 7000, 8020 and 9000) and 32020 us: 20 us + bytes / 2.097152
# GB/s, latency 17 us. Rows of small pages, of 1 MiB and of other states are not used
# (each would move the line). A direction with huge rows of one size only fails, as
# does a profile without copy_submit.
set -euo pipefail
src=${1:?usage: fit_untouched_huge.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '[host]\nmemcpy_async=1us\n[latency]\ncopy_submit=2us\n' > "$work/p.ini"
cat > "$work/u1.txt" <<'ROWS'
thp always [madvise] never
h2d small-pages untouched 4194304 9999.0 9000.0
h2d huge untouched 1048576 9999.0 9000.0
h2d huge untouched 4194304 1010.0 1000.0
d2h huge untouched 4194304 2020.0 2000.0
d2h huge untouched 16777216 7000.0 6000.0
d2h huge untouched 67108864 32020.0 30000.0
h2d malloc hot 4194304 9999.0 9000.0
ROWS
cat > "$work/u2.txt" <<'ROWS'
h2d huge untouched 4194304 1010.0 1000.0
h2d huge untouched 16777216 4010.0 4000.0
d2h huge untouched 16777216 8020.0 8000.0
d2h huge untouched 16777216 9000.0 8000.0
d2h small-pages untouched 16777216 1.0 1.0
ROWS
want='# h2d 4194304 B: 2 rows, median 1010.0 us
# h2d 16777216 B: 1 rows, median 4010.0 us
# h2d: intercept 10.00 us less memcpy_async 1.000 and copy_submit 2.000
h2d_untouched_huge_bandwidth=4.194304GB/s
h2d_untouched_huge_latency=7.000us
# d2h 4194304 B: 1 rows, median 2020.0 us
# d2h 16777216 B: 3 rows, median 8020.0 us
# d2h 67108864 B: 1 rows, median 32020.0 us
# d2h: intercept 20.00 us less memcpy_async 1.000 and copy_submit 2.000
d2h_untouched_huge_bandwidth=2.097152GB/s
d2h_untouched_huge_latency=17.000us'
got=$(bash "$src/validate/fit-untouched-huge.sh" "$work/p.ini" "$work"/u*.txt)
if [ "$got" != "$want" ]; then
  printf 'FAIL: got\n%s\nwant\n%s\n' "$got" "$want"
  exit 1
fi
if bash "$src/validate/fit-untouched-huge.sh" "$work/p.ini" "$work/u1.txt" > /dev/null 2>&1; then
  echo "FAIL: H2D huge rows of one size were accepted"
  exit 1
fi
printf '[host]\nmemcpy_async=1us\n' > "$work/q.ini"
if bash "$src/validate/fit-untouched-huge.sh" "$work/q.ini" "$work"/u*.txt > /dev/null 2>&1; then
  echo "FAIL: a profile without copy_submit was accepted"
  exit 1
fi
echo "fit-untouched-huge: the values worked out by hand"
