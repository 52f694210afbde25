#!/usr/bin/env bash
# tests/scripts/fit_thread_costs.sh SOURCE_DIR: validate/fit-thread-costs.sh on two small
# made-up timelines, against medians worked out by hand.
#
# Run a: thread 1 called 0-20 us, its first call (a kernel) issued at 50, its sync
# 52-60, joined 300-301 (ended before: thread_join 1 us); thread 2 called 400-430, its
# kernel issued at 470, its sync 472-770, joined 430-830 (called before the sync
# returned: wake 830 - 770 = 60 us). Run b: thread 1 called 0-40, kernel issued at
# 100, sync 102-110, joined 400-403 (3 us). Samples: create 20, 30, 40 -> 30 us; start
# 50, 70, 100 -> 70 us; join 1, 3 -> 2 us; wake 60 us. The first thread of each run:
# create 20 and 40 -> 30 us; start 50 and 100 -> 75 us. (A kernel's start and end are
# the GPU's, later than its issue.) First calls, from the kernel's issue to the sync's,
# less the header's kernel_launch_median (a: 1.2 us, b: 1.0 us): a 52 - 50 - 1.2 = 0.8
# and 475 - 470 - 1.2 = 3.8, b 102 - 100 - 1.0 = 1.0 -> 1.0 us.
set -euo pipefail
src=${1:?usage: fit_thread_costs.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/a.csv" <<'DATA'
# source: measured
# host_calls: kernel_launch=1500ns memcpy_async=1000ns kernel_launch_median=1200ns memcpy_async_median=900ns
op,line,stream,kind,engine,conn,issue_ns,start_ns,end_ns,bytes,grid,block,label,cause
0,9,,thread,host,,0,0,20000,,,,,
1,10,s1,kernel,compute,1,50000,58000,59000,,1,32,,
2,11,s1,sync,host,,52000,52000,60000,,,,,
3,13,,host,host,,20000,20000,300000,,,,,
4,14,,join,host,,300000,300000,301000,,,,,
5,18,,thread,host,,400000,400000,430000,,,,,
6,19,s1,kernel,compute,1,470000,478000,768000,,1,32,,
7,20,s1,sync,host,,475000,475000,770000,,,,,
8,22,,join,host,,430000,430000,830000,,,,,
DATA
cat > "$work/b.csv" <<'DATA'
# host_calls: kernel_launch=1100ns memcpy_async=1000ns kernel_launch_median=1000ns memcpy_async_median=900ns
op,line,stream,kind,engine,conn,issue_ns,start_ns,end_ns,bytes,grid,block,label,cause
0,9,,thread,host,,0,0,40000,,,,,
1,10,s1,kernel,compute,1,100000,108000,109000,,1,32,,
2,11,s1,sync,host,,102000,102000,110000,,,,,
3,13,,host,host,,40000,40000,400000,,,,,
4,14,,join,host,,400000,400000,403000,,,,,
DATA
want='thread_create=30.000us
thread_start=70.000us
thread_join=2.000us
thread_join_wake=60.000us
thread_create_first=30.000us
thread_start_first=75.000us
thread_first_call=1.000us'
got=$(bash "$src/validate/fit-thread-costs.sh" "$work/a.csv" "$work/b.csv")
if [ "$got" != "$want" ]; then
  printf 'FAIL: got\n%s\nwant\n%s\n' "$got" "$want"
  exit 1
fi
echo "fit-thread-costs: the medians worked out by hand"
