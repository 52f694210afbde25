#!/usr/bin/env bash
# tests/scripts/cross_gpu.sh SOURCE_DIR STREAMSIM: validate/cross-gpu.sh on a made-up pair of
# recordings, against rows worked out by hand.
#
# Profiles scale-a and scale-b (tests/profiles): no latencies, no call costs, the same clock,
# scale-b twice the bandwidth and FP32 rate. Program p, recorded on scale-a: a copy kernel of
# 1.001 ms, sync, a gemm of 1.001 ms, sync, the copy kernel again, sync (its recording on
# scale-b, the same calls, times 0.9 ms each). Carried to scale-b: the copy kernel 1 us +
# 1 ms x 0.9 = 901 us, the gemm 1 us + 1 ms x 0.5 = 501 us: syncs end at 901, 1402 and
# 2303 us. Bare: 1001, 2002, 3003 us. Measured on scale-b (made up): 950, 1500 and 2400 us.
# Regions (from one sync's end to the next's): measured 550 and 900 us; carried 501 and 901
# us, errors -8.91% and +0.11%; bare 1001 and 1001 us, +82.00% and +11.22%. The median of
# two is the smaller |error|; both regions are 0.5 ms or more. With FROM_ZERO=1 a first
# region runs from 0 to the first sync's end: measured 950 us, carried 901 (-5.16%), bare
# 1001 (+5.37%); the medians of three are then 5.16% and 11.22%.
set -euo pipefail
src=${1:?usage: cross_gpu.sh SOURCE_DIR STREAMSIM}
streamsim=${2:?usage: cross_gpu.sh SOURCE_DIR STREAMSIM}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/scale-a/real" "$work/scale-b/real"
program () { # TIME
  printf 'stream s\nkernel s grid=1 block=32 time=%s label=copy_kernel\nsync s\n' "$1"
  printf 'kernel s grid=1 block=32 time=%s label=gemm\nsync s\n' "$1"
  printf 'kernel s grid=1 block=32 time=%s label=copy_kernel\nsync s\n' "$1"
}
program 1.001ms > "$work/scale-a/real/p.sched"
program 0.9ms > "$work/scale-b/real/p.sched"
cat > "$work/scale-b/real/p.measured.csv" <<'CSV'
# source: measured
op,line,stream,kind,engine,conn,issue_ns,start_ns,end_ns,bytes,grid,block,label,cause
0,2,s,kernel,compute,,0,0,900000,,1,32,copy_kernel,
1,3,s,sync,host,,0,0,950000,,,,,
2,4,s,kernel,compute,,950000,950000,1450000,,1,32,gemm,
3,5,s,sync,host,,950000,950000,1500000,,,,,
4,6,s,kernel,compute,,1500000,1500000,2350000,,1,32,copy_kernel,
5,7,s,sync,host,,1500000,1500000,2400000,,,,,
CSV
export STREAMSIM_PROFILE_PATH=$src/tests/profiles
same () { # WHAT GOT WANT
  if [ "$2" != "$3" ]; then
    echo "$1 gave:"; echo "$2"; echo "expected:"; echo "$3"
    exit 1
  fi
}
got=$(RESULTS=$work STREAMSIM=$streamsim bash "$src/validate/cross-gpu.sh" scale-a scale-b p)
want='| program | regions | of 0.5 ms or more | recorded: median | worst | kernels: median | worst | bare: median | worst |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
| p | 2 | 2 | 0.11% | -8.91% | 0.11% | -8.91% | 11.22% | +82.00% |
| all | 2 | 2 | 0.11% | -8.91% | 0.11% | -8.91% | 11.22% | +82.00% |'
same "cross-gpu.sh" "$got" "$want"
got=$(FROM_ZERO=1 RESULTS=$work STREAMSIM=$streamsim bash "$src/validate/cross-gpu.sh" scale-a scale-b p)
want='| program | regions | of 0.5 ms or more | recorded: median | worst | kernels: median | worst | bare: median | worst |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
| p | 3 | 3 | 5.16% | -8.91% | 5.16% | -8.91% | 11.22% | +82.00% |
| all | 3 | 3 | 5.16% | -8.91% | 5.16% | -8.91% | 11.22% | +82.00% |'
same "cross-gpu.sh with FROM_ZERO=1" "$got" "$want"
echo "cross-gpu.sh: as worked out by hand"
