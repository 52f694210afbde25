#!/usr/bin/env bash
# tests/scripts/import_cross_gpu.sh SOURCE_DIR STREAMSIM: validate/import-cross-gpu.sh on two
# made-up Kineto traces of one program, against rows worked out by hand.
#
# Profiles scale-a and scale-b (tests/profiles): no latencies, no call costs; a kernel
# carried from scale-a to scale-b takes 1 us + the rest x 0.9 when it copies memory
# (copy_kernel), x 0.5 when it computes (gemm); tests/scripts/cross_gpu.sh. The program,
# inside record_function("streamsim_region") from 1000 us: a launch at 1010 (1 us) of
# copy_kernel, a stream synchronize at 1013, a launch of gemm 1 us after it returns plus 6
# or 7 us, a synchronize 3 us after that launch. On scale-a both kernels ran 1001 us; on
# scale-b 900 and 500 us, each starting 2 us after its launch.
#   a (scale-a): copy 1012-2013, sync 1013-2014; gemm launch 2020, 2022-3023, sync 2023-3024.
#   b (scale-b): copy 1012-1912, sync 1013-1913; gemm launch 1920, 1922-2422, sync 1923-2423.
# b measured: syncs end at 913 and 1423 us: regions of 913 and 510 us from 0.
# a imported and predicted on scale-b: host 10 us, copy carried 901 us (10-911), host 2, sync
# to 911, host 6, gemm carried 501 us (917-1418), host 2, sync to 1418: regions 911 and 507
# us, -0.22% and -0.59%. kernels (b's host, a's times carried): host 7 instead of 6, so
# 911 and 508 us: -0.22% and -0.39%. bare (a's 1001 us as they are, on b's host): 1011
# and 1008 us: +10.73% and +97.65%. The median of two is the smaller |error|.
set -euo pipefail
src=${1:?usage: import_cross_gpu.sh SOURCE_DIR STREAMSIM}
streamsim=${2:?usage: import_cross_gpu.sh SOURCE_DIR STREAMSIM}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/a" "$work/b"
trace () { # COPY_END SYNC1_END GEMM_LAUNCH GEMM_START GEMM_END
  local call='{"ph": "X", "cat": "cuda_runtime", "pid": 1, "tid": 1, '
  local gpu='{"ph": "X", "cat": "kernel", "pid": 0, "tid": 7, '
  cat <<JSON
{"traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "streamsim_region", "pid": 1, "tid": 1, "ts": 1000, "dur": 4000},
  $call"name": "cudaLaunchKernel", "ts": 1010, "dur": 1, "args": {"correlation": 1}},
  $gpu"name": "copy_kernel", "ts": 1012, "dur": $(($1 - 1012)), "args": {"stream": 7, "correlation": 1, "grid": [1, 1, 1], "block": [32, 1, 1]}},
  $call"name": "cudaStreamSynchronize", "ts": 1013, "dur": $(($2 - 1013)), "args": {"correlation": 2}},
  $call"name": "cudaLaunchKernel", "ts": $3, "dur": 1, "args": {"correlation": 3}},
  $gpu"name": "gemm", "ts": $4, "dur": $(($5 - $4)), "args": {"stream": 7, "correlation": 3, "grid": [1, 1, 1], "block": [32, 1, 1]}},
  $call"name": "cudaStreamSynchronize", "ts": $(($3 + 3)), "dur": $(($5 + 1 - $3 - 3)), "args": {"correlation": 4}}
]}
JSON
}
trace 2013 2014 2020 2022 3023 > "$work/a/p.trace.json"
trace 1912 1913 1920 1922 2422 > "$work/b/p.trace.json"
export STREAMSIM_PROFILE_PATH=$src/tests/profiles
got=$(STREAMSIM=$streamsim bash "$src/validate/import-cross-gpu.sh" "$work/a" scale-a "$work/b" scale-b p)
want='| program | regions | of 0.5 ms or more | recorded: median | worst | kernels: median | worst | bare: median | worst |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
| p | 2 | 2 | 0.22% | -0.59% | 0.22% | -0.39% | 10.73% | +97.65% |
| all | 2 | 2 | 0.22% | -0.59% | 0.22% | -0.39% | 10.73% | +97.65% |'
if [ "$got" != "$want" ]; then
  echo "import-cross-gpu.sh gave:"; echo "$got"; echo "expected:"; echo "$want"
  exit 1
fi
status=0
STREAMSIM=$streamsim bash "$src/validate/import-cross-gpu.sh" "$work/a" scale-a "$work/b" scale-b q \
  2> "$work/err" > /dev/null || status=$?
if [ "$status" != 2 ] || ! grep -q "no $work/a/q.trace.json\[.gz\]" "$work/err"; then
  echo "a missing trace: exit $status, $(cat "$work/err")"
  exit 1
fi
echo "import-cross-gpu.sh: as worked out by hand"
