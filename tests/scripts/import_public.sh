#!/usr/bin/env bash
# tests/scripts/import_public.sh SOURCE_DIR STREAMSIM: validate/import-public.sh on a made-up
# trace in a git repository of its own, against the row worked out by hand.
#
# The trace, in Kineto's form (us): a launch at 1000 of a kernel that ran 1002-1102 on stream
# 7, a stream synchronize 1003-1103, a launch at 1110 of a kernel that ran 1112-1712, a
# synchronize 1113-1713. Its own timeline, from the first call: the synchronizes end at 103
# and 713 us. Imported on tests/profiles/scale-a (no latencies, no call costs): the first
# kernel 0-100, host 2 us, the synchronize returns at 100; host 7 us, the second kernel
# 107-707, host 2 us, the synchronize returns at 707. Seven ops; makespan 707 against 713 us,
# -0.84%; one region, from the first synchronize's end to the second's, 607 against 610 us,
# -0.49%, of 0.5 ms or more. A repository without the trace is refused (exit 2) with no
# part of the table printed.
set -euo pipefail
src=${1:?usage: import_public.sh SOURCE_DIR STREAMSIM}
streamsim=${2:?usage: import_public.sh SOURCE_DIR STREAMSIM}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git init -q "$work/repo"
cat > "$work/repo/t.json" <<'JSON'
{"traceEvents": [
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1000, "dur": 1, "args": {"correlation": 1}},
  {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1002, "dur": 100, "args": {"stream": 7, "correlation": 1, "grid": [1, 1, 1], "block": [32, 1, 1]}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamSynchronize", "pid": 1, "tid": 1, "ts": 1003, "dur": 100, "args": {"correlation": 2}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1110, "dur": 1, "args": {"correlation": 3}},
  {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1112, "dur": 600, "args": {"stream": 7, "correlation": 3, "grid": [1, 1, 1], "block": [32, 1, 1]}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamSynchronize", "pid": 1, "tid": 1, "ts": 1113, "dur": 600, "args": {"correlation": 4}}
]}
JSON
gzip "$work/repo/t.json"
git -C "$work/repo" add t.json.gz
git -C "$work/repo" -c user.name=test -c user.email=test@example.com commit -qm trace
export STREAMSIM_PROFILE_PATH=$src/tests/profiles
got=$(TRACES="HEAD:t.json.gz made-up scale-a" STREAMSIM=$streamsim \
        bash "$src/validate/import-public.sh" kineto "$work/repo")
want='| trace | device | ops | makespan error | regions (of 0.5 ms or more) | median \|error\| | over the long ones | worst long region |
| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |
| made-up | scale-a | 7 | -0.84% | 1 (1) | 0.49% | 0.49% | -0.49% (region 0: ops 2 to 6, sync, predicted 607 us, measured 610 us) |'
if [ "$got" != "$want" ]; then
  echo "import-public.sh gave:"; echo "$got"; echo "expected:"; echo "$want"
  exit 1
fi
status=0
out=$(TRACES="HEAD:absent.json.gz gone scale-a" STREAMSIM=$streamsim \
        bash "$src/validate/import-public.sh" hta "$work/repo" 2>/dev/null) || status=$?
if [ "$status" -ne 2 ] || [ -n "$out" ]; then
  echo "a missing trace: exit $status (expected 2), printed: $out"
  exit 1
fi
echo "import-public.sh: the made-up trace's row as worked out, a missing one refused"
