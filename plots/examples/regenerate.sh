#!/bin/sh
# regenerate.sh: redraws the example pictures of plots/README.md from the seed schedules and the H200 results.
# Usage: plots/examples/regenerate.sh [STREAMSIM]   (default: build/bin/streamsim)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$root/build/bin/streamsim}
out=$root/plots/examples
seed=$root/traces/seed

# The seed experiment: both issue orders on the three devices of the blog.
for device in c1060 c2050 k20; do
  for version in v1 v2; do
    "$bin" predict "$seed/async-$version.sched" --device "$device" -q \
      --plot "$out/seed-$version-$device.png"
  done
done

# Makespan against the number of chunks of the same 16 MiB.
"$bin" sweep "$seed/pipeline.sched" -D nchunks=1..64 --device c1060,c2050,k20 -q \
  -o "$out/sweep-chunks.png"

# Predicted (above) against measured (below) on the H200 (validate/results).
res="$(dirname "$0")/../../validate/results/h200"
"$bin" plot "$res/seed-depth-first-conn1.predicted.csv" --vs "$res/seed-depth-first-conn1.measured.csv" \
  --title "seed depth-first, 1 connection, H200: predicted (above) vs measured (below)" \
  -o "$out/overlay-seed-depth-first-conn1-h200.png"
