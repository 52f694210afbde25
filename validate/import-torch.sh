#!/usr/bin/env bash
# validate/import-torch.sh: PyTorch profiler traces imported with `streamsim import` and predicted, against the wall time each program measured for its traced region.
#
#   validate/import-torch.sh [DIR [DEVICE]]   (default validate/results/h100/torch h100)
#
# For each DIR/NAME.trace.json.gz (or .trace.json) with a DIR/NAME.wall.json
# beside it: `streamsim import TRACE -d DEVICE -o NAME.sched`, then `streamsim
# predict NAME.sched -d DEVICE --json -`; the prediction is its makespan_ns,
# the measurement the wall.json's traced_region_s (time.perf_counter around
# the region the trace's record_function("streamsim_region") spans). Prints a
# Markdown table, one row per trace: measured and predicted ms and the error,
# (predicted - measured) / measured. Exits 1 when an |error| is over MAX_ERROR
# percent (default 3, issue 39's bound), 2 when DIR holds no trace with its
# wall time. STREAMSIM (default build/bin/streamsim) is the binary used.
set -euo pipefail
cd "$(dirname "$0")/.."
streamsim=${STREAMSIM:-build/bin/streamsim}
dir=${1:-validate/results/h100/torch}
device=${2:-h100}
max=${MAX_ERROR:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# the number after "KEY": in a JSON file (the files read here are flat)
json_number () {
  sed -n "s/.*\"$2\" *: *\\([-0-9.eE+]*\\).*/\\1/p" "$1" | head -n 1
}

rows=0 over=0
echo "| trace | measured wall | predicted | error |"
echo "| --- | ---: | ---: | ---: |"
mapfile -t traces < <(find "$dir" -maxdepth 1 -type f \( -name '*.trace.json.gz' -o -name '*.trace.json' \) | sort)
for trace in "${traces[@]}"; do
  name=$(basename "$trace"); name=${name%%.trace.json*}
  wall="$dir/$name.wall.json"
  [ -f "$wall" ] || continue
  "$streamsim" import "$trace" -d "$device" -o "$work/$name.sched" -q
  "$streamsim" predict "$work/$name.sched" -d "$device" --json "$work/$name.json" -q
  measured=$(json_number "$wall" traced_region_s)
  predicted=$(json_number "$work/$name.json" makespan_ns)
  row=$(awk -v m="$measured" -v p="$predicted" -v max="$max" -v n="$(basename "$trace")" 'BEGIN {
      m *= 1e3; p /= 1e6; e = 100 * (p - m) / m
      printf "| %s | %.3f ms | %.3f ms | %+.2f%% |\n", n, m, p, e
      exit (e > max || e < -max) }') || over=$((over + 1))
  echo "$row"
  rows=$((rows + 1))
done
if [ "$rows" -eq 0 ]; then
  echo "$0: no NAME.trace.json[.gz] with a NAME.wall.json in $dir" >&2
  exit 2
fi
if [ "$over" -gt 0 ]; then
  echo "$0: $over of $rows traces predicted more than $max% off their measured wall time" >&2
  exit 1
fi
