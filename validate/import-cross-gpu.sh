#!/usr/bin/env bash
# validate/import-cross-gpu.sh: profiler traces taken on one GPU, imported and predicted on another, against the same programs' traces from that other GPU, region by region.
#
#   validate/import-cross-gpu.sh FROM_DIR FROM TO_DIR TO PROGRAM...
#   (e.g. validate/results/h100/torch h100 validate/results/h200/torch h200 mlp_train)
#
# For each PROGRAM, `streamsim import` reads FROM_DIR/PROGRAM.trace.json.gz (or
# .trace.json) with -d FROM, and TO_DIR's with -d TO and --timeline, the
# timeline that trace measured; then validate/cross-gpu.sh FROM TO PROGRAM...
# compares them with FROM_ZERO=1 (both timelines start at the traced region's
# start, so the first region runs from it to the first synchronization). Its
# table's columns: *recorded* the FROM import predicted on TO, its kernel
# times carried; *kernels* the TO import with FROM's kernel times carried;
# *bare* not carried. Exit status: cross-gpu.sh's, or 2 for a missing trace.
# STREAMSIM (default build/bin/streamsim) is the binary used.
set -euo pipefail
cd "$(dirname "$0")/.."
streamsim=${STREAMSIM:-build/bin/streamsim}
[ $# -ge 5 ] || { echo "usage: $0 FROM_DIR FROM TO_DIR TO PROGRAM..." >&2; exit 2; }
from_dir=$1 from=$2 to_dir=$3 to=$4
shift 4
if [ "$from" = "$to" ]; then
  echo "$0: FROM and TO are both $from" >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/$from/real" "$work/$to/real"

# the trace of PROGRAM in DIR, gzipped or not
trace_of () {
  for t in "$1/$2.trace.json.gz" "$1/$2.trace.json"; do
    [ -f "$t" ] && { echo "$t"; return; }
  done
  echo "$0: no $1/$2.trace.json[.gz]" >&2
  exit 2
}

for prog in "$@"; do
  from_trace=$(trace_of "$from_dir" "$prog")
  to_trace=$(trace_of "$to_dir" "$prog")
  "$streamsim" import "$from_trace" -d "$from" -o "$work/$from/real/$prog.sched" -q
  "$streamsim" import "$to_trace" -d "$to" -o "$work/$to/real/$prog.sched" \
    --timeline "$work/$to/real/$prog.measured.csv" -q
done
FROM_ZERO=1 RESULTS=$work STREAMSIM=$streamsim bash validate/cross-gpu.sh "$from" "$to" "$@"
