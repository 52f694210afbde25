#!/usr/bin/env bash
# tests/scripts/recorded_sync_table.sh SOURCE_DIR: validate/recorded-sync-table.sh on made-up
# runs, against a table worked out by hand.
#
# Two runs as the probe ran (their stream medians: idle 500 and 700 ns, after 2500 and
# 2700) and one under the recorder (its own timing: idle 900, after 2900), whose log
# has 25 rounds of the probe's stream calls: an idle cudaStreamSynchronize of 1000 ns
# after the settling cudaDeviceSynchronize (5000 ns in the first 20 rounds), and one
# returning 3000 ns after its kernel's end; the first 20 of each are the warm-up, left
# out (counted, the idle median would be 5000). Medians over the
# processes, the lower one of two: 500 and 2500 as it runs, 900 and 2900 under the
# recorder, 1000 and 3000 in the log, so the recorder's cost is +0.50 us both ways.
# Kinds with no rows (device, event) have no line. A folder without a log is refused.
set -euo pipefail
src=${1:?usage: recorded_sync_table.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'median stream idle 500\nmedian stream after 2500\n' > "$work/plain1.txt"
printf 'median stream idle 700\nmedian stream after 2700\n' > "$work/plain2.txt"
printf 'median stream idle 900\nmedian stream after 2900\n' > "$work/recorded1.txt"
{
  printf 'streamsim-record\t1\n'
  t=1000000
  for r in $(seq 1 25); do
    c=$((r * 10))
    printf 'call\t1\tcudaEventRecord\t%d\t%d\t%d\t0xa1\t0xe1\t0\t0\t0\n' $t $((t + 100)) $c
    printf 'call\t1\tcudaDeviceSynchronize\t%d\t%d\t%d\t0x0\t0x0\t0\t0\t0\n' $((t + 200)) $((t + 300)) $((c + 1))
    idle=1000
    [ "$r" -le 20 ] && idle=5000
    printf 'call\t1\tcudaStreamSynchronize\t%d\t%d\t%d\t0xa1\t0x0\t0\t0\t0\n' $((t + 400)) $((t + 400 + idle)) $((c + 2))
    printf 'call\t1\tcudaLaunchKernel\t%d\t%d\t%d\t0xa1\t0x0\t1\t1\t0\n' $((t + 1500)) $((t + 1600)) $((c + 3))
    printf 'call\t1\tcudaGetLastError\t%d\t%d\t%d\t0x0\t0x0\t0\t0\t0\n' $((t + 1700)) $((t + 1700)) $((c + 4))
    printf 'call\t1\tcudaEventRecord\t%d\t%d\t%d\t0xa1\t0xe1\t0\t0\t0\n' $((t + 1800)) $((t + 1900)) $((c + 5))
    printf 'call\t1\tcudaStreamSynchronize\t%d\t%d\t%d\t0xa1\t0x0\t0\t0\t0\n' $((t + 2000)) $((t + 25000)) $((c + 6))
    kernels+=$(printf 'kernel\t%d\t%d\t%d\t1\t1\t0\t16\tk\\n' $((c + 3)) $((t + 2000)) $((t + 22000)))
    t=$((t + 100000))
  done
  printf "$kernels"
  printf 'end\t175\t25\n'
} | gzip > "$work/recorded1.log.gz"
want='| synchronize | as it runs | under the recorder, its own timing | the recorder'"'"'s log | the recorder'"'"'s cost |
| --- | ---: | ---: | ---: | ---: |
| stream-idle | 0.50 us (2) | 0.90 us (1) | 1.00 us (1) | +0.50 us |
| stream-after | 2.50 us (2) | 2.90 us (1) | 3.00 us (1) | +0.50 us |'
got=$(bash "$src/validate/recorded-sync-table.sh" "$work")
if [ "$got" != "$want" ]; then
  printf 'FAIL: got\n%s\nwant\n%s\n' "$got" "$want"
  exit 1
fi
rm "$work/recorded1.log.gz"
if bash "$src/validate/recorded-sync-table.sh" "$work" > /dev/null 2>&1; then
  echo "FAIL: a folder without a recorder's log was accepted"
  exit 1
fi
echo "recorded-sync-table: the table worked out by hand"
