#!/usr/bin/env bash
# scripts/check-predictions.sh: predict every trace (and a set of generated schedules) and compare the timelines byte for byte with a reference folder.
#
#   scripts/check-predictions.sh --write REFDIR   # record the references (before a change)
#   scripts/check-predictions.sh REFDIR           # compare against them (after it)
#
# For each schedule and device it keeps the timeline CSV (`predict --csv`),
# the Chrome trace (`--chrome`), the JSON summary (`--json`) and the summary
# `predict --explain --critical-path` prints, so that a change meant to make
# streamsim faster or smaller can be shown not to change one byte of what it
# predicts. The schedules: traces/seed and traces/examples, traces/validation
# if present, tests/schedules, and schedules written by the benchmark's
# generator (streamsim-bench --emit) with few and many streams, one and many
# connections, big kernels, on the shipped profiles and on the zero-latency
# test profiles, where many events fall on the same nanosecond and the order
# of ties decides the causes.
#
# BUILD (default: build) is the build folder holding bin/streamsim and
# tests/streamsim-bench. Exit status: 0 identical, 1 a difference (listed),
# 2 usage or a missing binary.
set -euo pipefail
cd "$(dirname "$0")/.."

write=0
if [ "${1:-}" = "--write" ]; then
  write=1
  shift
fi
if [ $# -ne 1 ]; then
  echo "usage: $0 [--write] REFDIR" >&2
  exit 2
fi
ref=$1
build=${BUILD:-build}
streamsim=$build/bin/streamsim
bench=$build/tests/streamsim-bench
for bin in "$streamsim" "$bench"; do
  if [ ! -x "$bin" ]; then
    echo "$0: $bin is missing; build first (cmake --build $build)" >&2
    exit 2
  fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$work/out
mkdir -p "$out" "$work/gen" "$work/profiles"

# A profile with connection_serializes on, which no shipped profile sets.
sed 's/^connection_serializes = false/connection_serializes = true/' engines/profiles/k20.ini \
  > "$work/profiles/k20-serial.ini"
grep -q '^connection_serializes = true' "$work/profiles/k20-serial.ini"

# Generated schedules: name, then streamsim-bench options.
gen() {
  local name=$1
  shift
  "$bench" --emit "$work/gen/$name.sched" "$@"
}
gen mixed-8s-8c --ops 3000 --streams 8 --connections 8 --seed 1
gen mixed-1s-1c --ops 2000 --streams 1 --connections 1 --seed 2
gen mixed-64s-32c --ops 3000 --streams 64 --connections 32 --seed 3
gen mixed-1024s --ops 3000 --streams 1024 --connections 8 --seed 4
gen mixed-3s-2c --ops 2000 --streams 3 --connections 2 --seed 5
gen big-4s --ops 300 --streams 4 --connections 4 --seed 6 --big-kernels
gen big-16s-1c --ops 300 --streams 16 --connections 1 --seed 7 --big-kernels

n=0
# predict NAME SCHEDULE DEVICE [PROFILE_PATH]
predict() {
  local name=$1 sched=$2 device=$3 ppath=${4:-}
  local csv=$out/$name.csv
  local env=()
  [ -n "$ppath" ] && env=(env "STREAMSIM_PROFILE_PATH=$ppath")
  local rc=0
  "${env[@]}" "$streamsim" predict "$sched" --device "$device" --csv "$csv" --explain \
    --critical-path --chrome "$out/$name.trace.json" --json "$out/$name.summary.json" \
    > "$out/$name.txt" 2>&1 || rc=$?
  echo "exit $rc" >> "$out/$name.txt"
  n=$((n + 1))
}

for s in traces/seed/*.sched; do
  for d in c1060 c2050 k20; do predict "seed-$(basename "$s" .sched)-$d" "$s" "$d"; done
done
for s in traces/examples/*.sched; do
  for d in k20 c1060 h200; do predict "example-$(basename "$s" .sched)-$d" "$s" "$d"; done
done
if [ -d traces/validation ]; then
  for s in traces/validation/*.sched; do
    [ -e "$s" ] || continue
    # measured on an H100 and an H200: their calibrated profiles too
    for d in k20 h100 h200; do predict "validation-$(basename "$s" .sched)-$d" "$s" "$d"; done
  done
fi
for s in tests/schedules/*.sched; do
  for d in schematic-c1060 schematic-c2050 schematic-k20; do
    predict "tests-$(basename "$s" .sched)-$d" "$s" "$d" tests/profiles
  done
done
for s in "$work"/gen/*.sched; do
  b=gen-$(basename "$s" .sched)
  for d in c1060 c2050 k20 h100 h200; do predict "$b-$d" "$s" "$d"; done
  predict "$b-k20-serial" "$s" "$work/profiles/k20-serial.ini"
  for d in schematic-c1060 schematic-c2050 schematic-k20 slots4 duplex-half; do
    predict "$b-$d" "$s" "$d" tests/profiles
  done
done

# The temporary folder's name appears in the generated schedules' metadata
# and messages; make it the same on every run.
find "$out" -type f -exec sed -i "s|$work|WORK|g" {} +

if [ $write = 1 ]; then
  rm -rf "$ref"
  mkdir -p "$ref"
  cp -r "$out"/. "$ref"/
  echo "check-predictions: wrote $n predictions to $ref"
  exit 0
fi

if [ ! -d "$ref" ]; then
  echo "$0: no reference folder $ref (make one with --write)" >&2
  exit 2
fi
if diff -r -q "$ref" "$out" > "$work/diff.txt"; then
  echo "check-predictions: $n predictions identical to $ref"
  exit 0
fi
echo "check-predictions: predictions differ from $ref:" >&2
cat "$work/diff.txt" >&2
exit 1
