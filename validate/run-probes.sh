#!/bin/bash
# run-probes.sh: on a GPU machine, run the measurement programs of validate/examples that
# decide the model's rules for memsets, host functions and lazy module loading, the
# kernel trace probe under the recorder ([kernel] trace_extra), and the
# traces/validation/markers-*.sched schedules, three rounds each.
#
# Usage: OUT=DIR validate/run-probes.sh BIN   (from the repository root)
# BIN holds streamsim-validate (static build, validate/README.md), its recorder and
# libcupti.so.13, and the streamsim-lazy-loading, streamsim-memset-probe,
# streamsim-hostfn-probe and streamsim-kernel-trace-probe programs. Writes
# DIR/probes-<gpu>.tar.gz holding res/:
# system.txt, memset-connC.txt and hostfn-connC.txt (CUDA_DEVICE_MAX_CONNECTIONS C = 1
# and 8), lazy-LAZY.txt and lazy-EAGER.txt (five processes each: the first launch
# happens once a process), kernel-trace/runN.{out,measured.csv,log} (two processes;
# validate/fit-kernel-trace.sh fits them), and S.roundR.csv for each markers schedule S.
set -u
B=${1:?usage: OUT=DIR validate/run-probes.sh BIN}
OUT=${OUT:-probes-out}
R=$OUT/res
mkdir -p "$R"
{ nvidia-smi --query-gpu=name,driver_version --format=csv; nvcc --version | tail -2; date -u; } > "$R/system.txt" 2>&1
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | grep -o -i -E 'h100|h200' | tr 'A-Z' 'a-z')
echo "gpu=$GPU" >> "$R/system.txt"
export LD_LIBRARY_PATH=$PWD/$B:${LD_LIBRARY_PATH:-}
for c in 1 8; do
  CUDA_DEVICE_MAX_CONNECTIONS=$c timeout 60 "$B/streamsim-memset-probe" > "$R/memset-conn$c.txt" 2>&1
  CUDA_DEVICE_MAX_CONNECTIONS=$c timeout 60 "$B/streamsim-hostfn-probe" > "$R/hostfn-conn$c.txt" 2>&1
done
for m in LAZY EAGER; do
  for i in 1 2 3 4 5; do CUDA_MODULE_LOADING=$m timeout 30 "$B/streamsim-lazy-loading"; done > "$R/lazy-$m.txt" 2>&1
done
export STREAMSIM_PROFILE_PATH=$PWD/engines/profiles
mkdir -p "$R/kernel-trace"
for i in 1 2; do
  timeout 120 "$B/streamsim-validate" --record "$R/kernel-trace/run$i.sched" \
    --csv "$R/kernel-trace/run$i.measured.csv" --device "$GPU" --log "$R/kernel-trace/run$i.log" \
    -- "$B/streamsim-kernel-trace-probe" > "$R/kernel-trace/run$i.out" 2>&1
done
for round in 1 2 3; do
  for f in traces/validation/markers-*.sched; do
    stem=$(basename "$f" .sched)
    timeout 60 "$B/streamsim-validate" "$f" --reps 10 --warmup 2 --device "$GPU" \
      --csv "$R/$stem.round$round.csv" > "$R/$stem.round$round.log" 2>&1
    echo "$stem round $round rc=$?" >> "$R/runs.txt"
  done
done
tar -czf "$OUT/probes-$GPU.tar.gz" -C "$OUT" res
rm -rf "$R"
