#!/usr/bin/env bash
# tests/scripts/fit_kernel_trace.sh SOURCE_DIR: validate/fit-kernel-trace.sh on a small
# made-up run, against differences worked out by hand.
#
# One run of four launches: a warmup (left out), then three of shape 1/32/0 and 2/64/100
# whose blocks (%globaltimer, 19 digits as the GPU gives them, the first pair across a
# 10^15 boundary) took 1000, 2000 and 500 ns, and whose CUPTI records (the CSV's kernel
# rows, after a host row that is not a kernel) took 1800, 2900 and 1500 ns: differences
# 800 and 900 (shape 1/32/0, median 850) and 1000 (2/64/100); over all three, median 900,
# "trace_extra=0.900us". A second run whose launches and kernel rows do not pair up fails.
set -euo pipefail
src=${1:?usage: fit_kernel_trace.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/run1.out" <<'DATA'
launch 0 warmup 1 32 0 1795708390000000000 1795708390000009000
launch 1 queued 1 32 0 1795999999999999500 1796000000000000500
launch 2 queued 1 32 0 1795708390000010000 1795708390000012000
launch 3 idle 2 64 100 1795708390000020000 1795708390000020500
something the program printed
DATA
cat > "$work/run1.measured.csv" <<'DATA'
# source: recorded
op,line,stream,kind,engine,conn,issue_ns,start_ns,end_ns,bytes,grid,block,label,cause
0,10,,host,host,,0,0,100,,,,,
1,11,s1,kernel,compute,,100,200,9000,,1,32,,
2,12,s1,kernel,compute,,300,10000,11800,,1,32,,
3,13,s1,kernel,compute,,400,12000,14900,,1,32,,
4,14,s1,kernel,compute,,500,20000,21500,,2,64,,
DATA
want='grid/block/spin 1/32/0: 850 ns
grid/block/spin 2/64/100: 1000 ns
trace_extra=0.900us'
got=$(bash "$src/validate/fit-kernel-trace.sh" "$work")
if [ "$got" != "$want" ]; then
  printf 'FAIL: got\n%s\nwant\n%s\n' "$got" "$want"
  exit 1
fi
head -4 "$work/run1.out" > "$work/run2.out"
head -5 "$work/run1.measured.csv" > "$work/run2.measured.csv"
echo 'launch 4 idle 2 64 100 1 2' >> "$work/run2.out"
echo 'launch 5 idle 2 64 100 1 2' >> "$work/run2.out"
if bash "$src/validate/fit-kernel-trace.sh" "$work" > /dev/null 2>&1; then
  echo "FAIL: a run whose launches and kernel rows do not pair up was accepted"
  exit 1
fi
echo "fit-kernel-trace: the differences worked out by hand"
