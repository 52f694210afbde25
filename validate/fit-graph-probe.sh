#!/bin/bash
# fit-graph-probe.sh: the profile's [host] graph_launch and [latency] graph_node_gap, from graph_probe.cu's output.
#
#   validate/fit-graph-probe.sh FILE...
#
# Each FILE is what one run of validate/examples/graph_probe.cu printed (its header
# comment says what each line is). Prints
#   graph_launch=Xus    the median, over every `graph N CALL_US ...` line of every
#                       file, of CALL_US (a cudaGraphLaunch call's median time);
#   graph_node_gap=Yus  the median, over every launch of every file, of the gaps
#                       between two nodes of the `graph` chain (a node's START less
#                       the END of the node before it in the same launch);
#   kernel_gap_direct=Zus  the same over the `direct` chain, launched one by one.
# Exit status: 0; 1 when a file has no such lines.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: fit-graph-probe.sh FILE..." >&2; exit 2; }

median () { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit 1; print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

awk '$1 == "graph" { print $3 }' "$@" | median | awk '{ printf "graph_launch=%.3fus\n", $1 }'
for mode in graph direct; do
  # %globaltimer's 19 digits: differences of the last 15, modulo 10^15
  awk -v m="$mode" '
    function span(start, end,   d) {
      d = substr(end, length(end) - 14) - substr(start, length(start) - 14)
      return d < 0 ? d + 1e15 : d
    }
    $1 == "node" && $2 == m {
      key = FILENAME " " $3
      if ((key, $4 - 1) in ended) print span(ended[key, $4 - 1], $5)
      ended[key, $4] = $6
    }' "$@" | median | awk -v m="$mode" '{ printf "%s=%.3fus\n", m == "graph" ? "graph_node_gap" : "kernel_gap_direct", $1 / 1000 }'
done
