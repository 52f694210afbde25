#!/usr/bin/env bash
# validate/import-public.sh: public PyTorch profiler traces, made by nobody here, imported and predicted on the GPU they came from, against their own timelines.
#
#   validate/import-public.sh kineto KINETO_CLONE
#   validate/import-public.sh hta HTA_CLONE
#
# kineto: the four ResNet-50 training runs that pytorch/kineto kept as
# samples of its TensorBoard plugin (a Tesla V100-DGXS-32GB, PyTorch of
# 2020-2021; DataLoader workers 0 and 4), read from a clone of
# https://github.com/pytorch/kineto at the commits that added them (the
# repository has since removed them; a full clone keeps them).
# hta: the test traces of https://github.com/facebookresearch/HolisticTraceAnalysis
# (tests/data/, at f4d0062) that ran on a GPU with a profile here: an A100
# (a100) or a V100 (v100), by their `deviceProperties`.
# Each is imported (`streamsim import TRACE -d DEVICE -o NAME.sched
# --timeline NAME.measured.csv`: the schedule, and the trace's own times as
# the measured timeline), predicted (`streamsim predict NAME.sched -d
# DEVICE`) and compared region by region (`streamsim compare --regions`).
# Prints a Markdown table, one row per trace: its device, ops, the makespan
# error, regions (of 0.5 ms or more), the median |error| over all regions and
# over the long ones, and the worst long region. The traces are not copied
# into this repository. STREAMSIM (default build/bin/streamsim) is the
# binary used; TRACES, when set, replaces the source's list (lines
# "COMMIT:PATH NAME DEVICE"). Exit status: 0, 2 for bad usage or a trace the
# clone lacks, 3 for a missing binary.
set -euo pipefail
cd "$(dirname "$0")/.."
SCRIPT_NAME=import-public.sh
. validate/script-lib.sh
streamsim=${STREAMSIM:-build/bin/streamsim}
if [ $# -ne 2 ] || { [ "$1" != kineto ] && [ "$1" != hta ]; }; then
  echo "usage: $0 kineto|hta CLONE" >&2
  exit 2
fi
source=$1 clone=$2
[ -x "$streamsim" ] || { echo "$0: no $streamsim (build first)" >&2; exit 3; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# commit:path of each trace, the name its row takes, the device it ran on
kineto=be239c044d2f4b62982e1ff64144097acd69f59a
kineto_2020=a0380a320dcf1f34df55f05182471ac59ff6cb78
hta=f4d0062c382f42bd8a74838bcdad1916c7d5d2da
if [ "$source" = kineto ]; then
  traces=(
    "$kineto:tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz workers-0 v100"
    "$kineto:tb_plugin/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz workers-4 v100"
    "$kineto_2020:plugin/samples/resnet50_num_workers_0/worker0.pt.trace.json.gz 2020-workers-0 v100"
    "$kineto_2020:plugin/samples/resnet50_num_workers_4/worker0.pt.trace.json.gz 2020-workers-4 v100"
  )
else
  traces=(
    "$hta:tests/data/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz alexnet a100"
    "$hta:tests/data/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz simple_add a100"
    "$hta:tests/data/cupti_profiler/benchmark_result_924719_1679055439_trace.json.gz cupti_profiler a100"
    "$hta:tests/data/nccl_parser_config/nccl_data.json.gz nccl_data a100"
    "$hta:tests/data/negative_queue_length_values_check/rank0.json.gz negative_queue_rank0 a100"
    "$hta:tests/data/trace_diff/control/control.json.gz trace_diff_control a100"
    "$hta:tests/data/trace_diff/test/test.json.gz trace_diff_test v100"
    "$hta:tests/data/df_index_resolver/df_index_resolver.json.gz df_index_resolver v100"
    "$hta:tests/data/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz ns_resolution v100"
  )
fi
if [ -n "${TRACES:-}" ]; then
  mapfile -t traces <<< "$TRACES"
fi

# every trace first, so that a clone without one prints no part of the table
for entry in "${traces[@]}"; do
  read -r object name _ <<< "$entry"
  if ! git -C "$clone" show "$object" > "$work/$name.json.gz" 2>/dev/null; then
    echo "$0: $clone has no $object" >&2
    exit 2
  fi
done
# a figure of the compare output in $out, "-" where it has none
field() { local v; v=$(script_compare_field "$out" "$1"); echo "${v:--}"; }
echo "| trace | device | ops | makespan error | regions (of 0.5 ms or more) | median \|error\| | over the long ones | worst long region |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |"
for entry in "${traces[@]}"; do
  read -r _ name device <<< "$entry"
  "$streamsim" import "$work/$name.json.gz" -d "$device" -o "$work/$name.sched" \
    --timeline "$work/$name.measured.csv" -q
  "$streamsim" predict "$work/$name.sched" -d "$device" --csv "$work/$name.predicted.csv" -q
  ops=$(grep -v '^#' "$work/$name.predicted.csv" | tail -n +2 | wc -l)
  out=$("$streamsim" compare "$work/$name.predicted.csv" "$work/$name.measured.csv" --regions \
          2>&1) || true
  printf '| %s | %s | %d | %s | %s (%s) | %s | %s | %s |\n' "$name" "$device" "$ops" \
    "$(field makespan)" "$(field regions)" "$(field long)" "$(field median)" \
    "$(field median_long)" "$(field worst_long)"
done
