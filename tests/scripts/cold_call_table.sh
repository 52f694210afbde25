#!/usr/bin/env bash
# tests/scripts/cold_call_table.sh SOURCE_DIR: validate/cold-call-table.sh on made-up runs,
# against means worked out by hand.
#
# A probe output (.txt) with launch lines at gaps 0, 8 and 64 us whose medians are 4, 6
# and 9: the mean over gaps up to 8 is (4 + 6) / 2 = 5.00, and 9.00 at the longest gap.
# A recorder log of the probe's shape (the four warm-up calls, then per work kind and
# gap 400 rounds of launch, record, memset, copy, other calls between them ignored):
# every launch takes 3000 ns, except in each round of the spin rounds at the longest gap
# (64 us), where launches take 7000 ns; records take 1000 ns in the first 200 rounds of a
# gap and 2000 ns after (the median of 400, the 200th, is 1000). So spin launch 3.00 and
# 7.00, touch launch 3.00 and 3.00, record 1.00 and 1.00. A log one call short fails.
set -euo pipefail
src=${1:?usage: cold_call_table.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/plain.txt" <<'DATA'
cold spin 0 launch 4.000 3.900 4.100
cold spin 8 launch 6.000 5.000 7.000
cold spin 64 launch 9.000 8.000 10.000
something else the program printed
DATA
awk 'BEGIN {
  OFS = "\t"; t = 1000000; n = split("0 0.5 1 2 4 8 16 32 64", g, " ")
  print "streamsim-record", 1
  split("cudaLaunchKernel cudaEventRecord cudaMemsetAsync cudaMemcpyAsync", c, " ")
  for (q = 1; q <= 4; q++) { print "call", 1, c[q], t, t + 500; t += 1000 }
  for (w = 1; w <= 2; w++)
    for (k = 1; k <= n; k++)
      for (r = 0; r < 400; r++) {
        if (r % 50 == 0) { print "call", 1, "cudaStreamSynchronize", t, t + 9000; t += 10000 }
        d[1] = (w == 1 && g[k] == 64) ? 7000 : 3000
        d[2] = r < 200 ? 1000 : 2000
        d[3] = 1500; d[4] = 2500
        for (q = 1; q <= 4; q++) { print "call", 1, c[q], t, t + d[q]; t += d[q] + 100 }
      }
  print "end", 0, 0
}' > "$work/rec.log"
want='| run | work | call | mean of medians, gaps up to 8 us | at the longest gap |
| --- | --- | --- | ---: | ---: |
| plain.txt | spin | launch | 5.00 | 9.00 |
| rec.log | spin | launch | 3.00 | 7.00 |
| rec.log | spin | record | 1.00 | 1.00 |
| rec.log | spin | memset | 1.50 | 1.50 |
| rec.log | spin | h2d | 2.50 | 2.50 |
| rec.log | touch | launch | 3.00 | 3.00 |
| rec.log | touch | record | 1.00 | 1.00 |
| rec.log | touch | memset | 1.50 | 1.50 |
| rec.log | touch | h2d | 2.50 | 2.50 |'
got=$(bash "$src/validate/cold-call-table.sh" "$work/plain.txt" "$work/rec.log")
if [ "$got" != "$want" ]; then
  printf 'FAIL: got\n%s\nwant\n%s\n' "$got" "$want"
  exit 1
fi
awk 'NR > 1 && $3 == "cudaMemcpyAsync" && !done { done = 1; next } { print }' "$work/rec.log" > "$work/short.log"
if bash "$src/validate/cold-call-table.sh" "$work/short.log" > /dev/null 2>&1; then
  echo "FAIL: a log one call short of the probe's was accepted"
  exit 1
fi
# a file that cannot be read: exit 3 before anything is printed
status=0
bash "$src/validate/cold-call-table.sh" "$work/plain.txt" "$work/none.txt" > "$work/out" 2> /dev/null || status=$?
if [ "$status" -ne 3 ] || [ -s "$work/out" ]; then
  echo "FAIL: an unreadable run: exit $status, printed $(cat "$work/out")"
  exit 1
fi
echo "cold-call-table: the means worked out by hand"
