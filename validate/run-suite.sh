#!/bin/bash
# run-suite.sh: on a GPU machine, calibrate this GPU's profile and measure every validation schedule.
#
# Usage: validate/run-suite.sh [REPS] [ROUNDS]   (from the repository root)
# Needs build-gpu/validate/streamsim-validate (or $STREAMSIM_VALIDATE), built
# where GLib is (validate/README.md, "The whole suite"), and for
# exact copy times libcupti.so.13 beside it or in the CUDA toolkit (without it
# copies are timed with events, which disturb few-connection runs). Writes into
# $OUT (default ./validate-out): run.log, and results-<gpu>.tar.gz holding
# <gpu>.ini, calibrate.log, system.txt and <stem>.measured.csv for each
# traces/validation/<stem>.sched. With ROUNDS (default 3) above 1 the whole
# suite runs ROUNDS times, each schedule in a new process each time (rounds
# after the first write <stem>.round<k>.csv): the lent machines' host speed
# is chosen per process, and report.sh --unpack keeps, for each schedule, the
# round whose measured makespan is the median. Unpack with
# validate/report.sh --unpack.
set -u
REPS=${1:-10}
ROUNDS=${2:-3}
BIN=${STREAMSIM_VALIDATE:-build-gpu/validate/streamsim-validate}
OUT=${OUT:-validate-out}
mkdir -p "$OUT"
WORK=$(mktemp -d)
LOG="$OUT/run.log"
exec > >(tee "$LOG") 2>&1

started=$(date +%s)
echo "== system"
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  uname -a
  nvidia-smi
  nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,clocks.sm,clocks.mem,clocks.max.sm,power.draw,temperature.gpu --format=csv
  cat /proc/driver/nvidia/version
  echo "clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)"
  nvcc --version
  lscpu | head -20
} > "$WORK/system.txt" 2>&1
cat "$WORK/system.txt"

GPU_NAME=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
GPU=$(echo "$GPU_NAME" | tr ' -' '\n\n' | grep -m1 -E '^[A-Za-z].*[0-9]' | tr 'A-Z' 'a-z')
GPU=${GPU:-gpu}
echo "== gpu: $GPU_NAME -> profile $GPU"
mkdir -p "$WORK/profiles"
export STREAMSIM_PROFILE_PATH="$WORK/profiles"
unset CUDA_DEVICE_MAX_CONNECTIONS

echo "== smoke test"
timeout 60 "$BIN" traces/validation/seed-depth-first.sched --reps 2 --warmup 1 --device "$GPU" || echo "SMOKE TEST FAILED: $?"

echo "== calibrate"
timeout 300 "$BIN" --calibrate -o "$WORK/profiles/$GPU.ini" 2>&1 | tee "$WORK/calibrate.log"
echo "calibrate exit: ${PIPESTATUS[0]}"
cp "$WORK/profiles/$GPU.ini" "$WORK/$GPU.ini" 2>/dev/null

echo "== timing events instead of CUPTI, for comparison (validate/FINDINGS.md)"
for stem in seed-depth-first-conn1 copies-conn2 tiny-copies; do
  timeout 60 "$BIN" "traces/validation/$stem.sched" --reps "$REPS" --warmup 2 --device "$GPU" \
    --timing events --csv "$WORK/$stem.events.csv" 2>&1 | tail -1
done

failed=0
for round in $(seq 1 "$ROUNDS"); do
  echo "== suite, round $round of $ROUNDS ($REPS repeats each)"
  for f in traces/validation/*.sched; do
    stem=$(basename "$f" .sched)
    csv=$WORK/$stem.measured.csv
    [ "$round" -eq 1 ] || csv=$WORK/$stem.round$round.csv
    t0=$(date +%s%N)
    timeout 120 "$BIN" "$f" --reps "$REPS" --warmup 2 --device "$GPU" \
      --csv "$csv" 2> "$WORK/$stem.log"
    rc=$?
    t1=$(date +%s%N)
    printf '%-34s rc=%d %6.1fs  %s\n' "$stem" "$rc" "$(awk "BEGIN { print ($t1 - $t0) / 1e9 }")" \
      "$(tail -1 "$WORK/$stem.log")"
    [ $rc -eq 0 ] || failed=$((failed + 1))
  done
done
echo "== $failed schedules failed; $(( $(date +%s) - started )) s in all"

cp "$LOG" "$WORK/run.log"
tar czf "$OUT/results-$GPU.tar.gz" -C "$WORK" .
ls -la "$OUT"
