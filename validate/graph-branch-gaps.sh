#!/usr/bin/env bash
# validate/graph-branch-gaps.sh: the node gaps of traces/validation/graph-branches.sched's
# launches in a timeline CSV (measured by streamsim-validate or predicted by streamsim).
#
#   validate/graph-branch-gaps.sh TIMELINE.csv...
#
# Kernels are labelled SHAPE-NODE (fork2-A ... fork2-D). For each launch, in file order,
# one row: the CSV, the shape, the launch's number within the CSV, then in microseconds
# the gap from A's end to each branch's start (B, C, E: whichever ran), from the later
# branch's end to D's start, and A's start to D's end. A launch starts at each A.
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: $0 TIMELINE.csv..." >&2
  exit 2
fi
echo "| timeline | shape | launch | A to B | A to C | A to E | branches to D | A start to D end |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for f in "$@"; do
  awk -F, -v name="$(basename "$f")" '
    function us(ns) { return sprintf("%.2f", ns / 1000) }
    function flush() {
      if (shape == "") return
      n[shape]++
      later = 0
      for (k in bstart) if (bend[k] > later) later = bend[k]
      printf "| %s | %s | %d | %s | %s | %s | %s | %s |\n", name, shape, n[shape],
        ("B" in bstart) ? us(bstart["B"] - aend) : "-",
        ("C" in bstart) ? us(bstart["C"] - aend) : "-",
        ("E" in bstart) ? us(bstart["E"] - aend) : "-",
        (dstart > 0) ? us(dstart - later) : "-", (dend > 0) ? us(dend - astart) : "-"
      shape = ""; delete bstart; delete bend; dstart = dend = 0
    }
    /^#/ { next }
    !header { for (i = 1; i <= NF; i++) col[$i] = i; header = 1; next }
    $col["kind"] == "kernel" {
      label = $col["label"]
      k = split(label, part, "-")
      if (k != 2) next
      s = part[1]; node = part[2]
      start = $col["start_ns"]; end = $col["end_ns"]
      if (node == "A") { flush(); shape = s; astart = start; aend = end }
      else if (node == "D") { dstart = start; dend = end }
      else if (node == "B" || node == "C" || node == "E") { bstart[node] = start; bend[node] = end }
    }
    END { flush() }' "$f"
done
