#!/usr/bin/env bash
# tests/scripts/copy_ops_table.sh SOURCE_DIR: validate/copy-ops-table.sh on a made-up schedule
# and two timelines, against a table worked out by hand.
#
# Lines 3 and 5 are 2D copies of one shape (1MiB rows=16384, cudaMemcpy2DAsync): measured
# 10 and 14 us (median 12), predicted 12 and 12 (12): +0.0%. Line 4, a pageable 1D d2h of
# 4 KiB, measured 8, predicted 10: +25.0%. The kernel and the sync are not copies; with
# MIN_BYTES 8192 the d2h is left out.
set -euo pipefail
src=${1:?usage: copy_ops_table.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/s.sched" <<'SCHED'
stream s1
kernel s1 grid=1 block=32 time=1us
h2d s1 1MiB rows=16384   # cudaMemcpy2DAsync, 64B x 16384 rows
d2h s1 4KiB pageable   # cudaMemcpyAsync
h2d s1 1MiB rows=16384   # cudaMemcpy2DAsync, 64B x 16384 rows
sync s1
SCHED
head='op,line,stream,kind,engine,conn,issue_ns,start_ns,end_ns,bytes,grid,block,label,cause'
printf '# source: measured\n%s\n0,2,s1,kernel,compute,,0,0,1000,,1,32,,\n1,3,s1,h2d,h2d,,0,1000,11000,1048576,,,,\n2,4,s1,d2h,d2h,,0,11000,19000,4096,,,,\n3,5,s1,h2d,h2d,,0,19000,33000,1048576,,,,\n4,6,,sync,host,,0,33000,33000,,,,,\n' "$head" > "$work/m.csv"
printf '# source: predicted\n%s\n0,2,s1,kernel,compute,1,0,0,1000,,1,32,,\n1,3,s1,h2d,h2d,1,0,1000,13000,1048576,,,,\n2,4,s1,d2h,d2h,1,0,13000,23000,4096,,,,\n3,5,s1,h2d,h2d,1,0,23000,35000,1048576,,,,\n4,6,,sync,host,,0,35000,35000,,,,,\n' "$head" > "$work/p.csv"
got=$(bash "$src/validate/copy-ops-table.sh" "$work/s.sched" "$work/p.csv" "$work/m.csv")
want='| copy | bytes | rows | memory | call | ops | measured | predicted | error |
| --- | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: |
| h2d | 1048576 | 16384 | pinned | cudaMemcpy2DAsync | 2 | 12.0 us | 12.0 us | +0.0% |
| d2h | 4096 | 1 | pageable | cudaMemcpyAsync | 1 | 8.0 us | 10.0 us | +25.0% |'
if [ "$got" != "$want" ]; then
  printf 'copy-ops-table.sh gave:\n%s\nwanted:\n%s\n' "$got" "$want" >&2
  exit 1
fi
got=$(bash "$src/validate/copy-ops-table.sh" "$work/s.sched" "$work/p.csv" "$work/m.csv" 8192 | tail -n +3)
[ "$got" = '| h2d | 1048576 | 16384 | pinned | cudaMemcpy2DAsync | 2 | 12.0 us | 12.0 us | +0.0% |' ] || { echo "MIN_BYTES kept: $got" >&2; exit 1; }
if bash "$src/validate/copy-ops-table.sh" "$work/s.sched" "$work/p.csv" 2> /dev/null; then
  echo "copy-ops-table.sh took two arguments" >&2
  exit 1
fi
echo "copy-ops-table.sh: the table as worked out by hand"
