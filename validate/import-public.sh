#!/usr/bin/env bash
# validate/import-public.sh: public PyTorch profiler traces, made by nobody here, imported and predicted on the GPU they came from, against their own timelines.
#
#   validate/import-public.sh KINETO_CLONE [DEVICE]   (DEVICE default v100)
#
# The traces are the four ResNet-50 training runs that pytorch/kineto kept as
# samples of its TensorBoard plugin (a Tesla V100-DGXS-32GB, PyTorch of
# 2020-2021; DataLoader workers 0 and 4), read from a clone of
# https://github.com/pytorch/kineto at the commits that added them (the
# repository has since removed them; a full clone keeps them). Each is
# imported (`streamsim import TRACE -d DEVICE -o NAME.sched --timeline
# NAME.measured.csv`: the schedule, and the trace's own times as the
# measured timeline), predicted (`streamsim predict NAME.sched -d DEVICE`)
# and compared region by region (`streamsim compare --regions`). Prints a
# Markdown table, one row per trace: ops, the makespan error, regions (of
# 0.5 ms or more), the median |error| over all regions and over the long
# ones, and the worst long region. The traces are not copied into this
# repository. STREAMSIM (default build/bin/streamsim) is the binary used;
# TRACES, when set, replaces the list below (lines "COMMIT:PATH NAME").
# Exit status: 0, 2 for bad usage or a trace the clone lacks, 3 for a
# missing binary.
set -euo pipefail
cd "$(dirname "$0")/.."
streamsim=${STREAMSIM:-build/bin/streamsim}
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 KINETO_CLONE [DEVICE]" >&2
  exit 2
fi
clone=$1
device=${2:-v100}
[ -x "$streamsim" ] || { echo "$0: no $streamsim (build first)" >&2; exit 3; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# commit:path of each trace, and the name its row takes
traces=(
  "be239c044d2f4b62982e1ff64144097acd69f59a:tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz workers-0"
  "be239c044d2f4b62982e1ff64144097acd69f59a:tb_plugin/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz workers-4"
  "a0380a320dcf1f34df55f05182471ac59ff6cb78:plugin/samples/resnet50_num_workers_0/worker0.pt.trace.json.gz 2020-workers-0"
  "a0380a320dcf1f34df55f05182471ac59ff6cb78:plugin/samples/resnet50_num_workers_4/worker0.pt.trace.json.gz 2020-workers-4"
)
if [ -n "${TRACES:-}" ]; then
  mapfile -t traces <<< "$TRACES"
fi

# every trace first, so that a clone without one prints no part of the table
for entry in "${traces[@]}"; do
  object=${entry% *} name=${entry##* }
  if ! git -C "$clone" show "$object" > "$work/$name.json.gz" 2>/dev/null; then
    echo "$0: $clone has no $object" >&2
    exit 2
  fi
done
echo "| trace | ops | makespan error | regions (of 0.5 ms or more) | median \|error\| | over the long ones | worst long region |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
for entry in "${traces[@]}"; do
  name=${entry##* }
  "$streamsim" import "$work/$name.json.gz" -d "$device" -o "$work/$name.sched" \
    --timeline "$work/$name.measured.csv" -q
  "$streamsim" predict "$work/$name.sched" -d "$device" --csv "$work/$name.predicted.csv" -q
  ops=$(grep -v '^#' "$work/$name.predicted.csv" | tail -n +2 | wc -l)
  "$streamsim" compare "$work/$name.predicted.csv" "$work/$name.measured.csv" --regions \
    > "$work/$name.compare" 2>&1 || true
  awk -v name="$name" -v ops="$ops" '
    /^makespan / { for (i = 1; i <= NF; i++) if ($i == "error") err = $(i + 1) }
    /^regions / { n = $2; long = $3; sub(/\(/, "", long) }
    /^median / { all = $3; over = $7 }
    /^worst long / { sub(/^worst long +/, ""); worst = $0 }
    END { printf "| %s | %d | %s | %s (%s) | %s | %s | %s |\n", name, ops, err, n, long,
                 all != "" ? all : "-", over != "" ? over : "-", worst }
  ' "$work/$name.compare"
done
