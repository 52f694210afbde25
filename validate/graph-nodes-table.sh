#!/bin/bash
# graph-nodes-table.sh: how the nodes of validate/examples/graph_nodes_probe.cu's chains followed one another, as a table.
#
# Usage: validate/graph-nodes-table.sh RUN.measured.csv[.gz]...
# Each file is the timeline `streamsim-validate --record --csv` wrote for one
# run of the probe under the recorder. Its ops other than `host`, in order,
# are 330 chains of four: the first op (a memset or an H2D), the kernel, the
# D2H, the synchronize after them; 33 launches of each of the probe's five
# chains, as a graph and then one call at a time (graph_nodes_probe.cu). The
# first 3 of each 33 are its warm-up. Prints one markdown row per file,
# chain and mode: the medians, in microseconds, of the first op's duration,
# the gap from its end to the kernel's start, from the kernel's end to the
# copy's start, the copy's duration, and the time from the copy's end to the
# synchronize's return. A file that does not hold 330 such chains is not a
# run of the probe: exit 2, naming it.
#
# With --update, each file is a run of validate/examples/graph_update_probe.cu
# instead: 132 chains of the same four ops, 33 launches of one graph in each
# of its four modes (captured, captured-set, built, built-set), one row each.
set -euo pipefail
layout=nodes
if [ "${1:-}" = "--update" ]; then
  layout=update
  shift
fi
[ $# -ge 1 ] || { echo "usage: validate/graph-nodes-table.sh [--update] RUN.measured.csv..." >&2; exit 2; }
for f in "$@"; do
  [ -r "$f" ] || { echo "graph-nodes-table.sh: cannot read $f" >&2; exit 3; }
done
SCRIPT_NAME=graph-nodes-table.sh
. "$(dirname "$0")/script-lib.sh"

echo "| run | chain | mode | first op | to the kernel | kernel to the copy | copy | copy end to the sync's return |"
echo "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"
for f in "$@"; do
  zcat -f "$f" | awk -F, -v layout="$layout" -v file="$f" -v run="$(basename "${f%.gz}" .measured.csv)" "$SCRIPT_MEDIAN_AWK"'
    /^#/ { next }
    !header { for (i = 1; i <= NF; i++) col[$i] = i; header = 1; next }
    $col["kind"] != "host" { n++; kind[n] = $col["kind"]; s[n] = $col["start_ns"]; e[n] = $col["end_ns"] }
    END {
      split("pageable-8B pinned-8B pageable-1MiB pinned-1MiB h2d", chains, " ")
      i = 1
      while (i + 3 <= n) {
        if (kind[i + 1] == "kernel" && kind[i + 3] == "sync") {
          m++; first[m] = e[i] - s[i]; gap1[m] = s[i + 1] - e[i]; gap2[m] = s[i + 2] - e[i + 1]
          copy[m] = e[i + 2] - s[i + 2]; after[m] = e[i + 3] - e[i + 2]; i += 4
        } else
          i++
      }
      want = layout == "update" ? 132 : 330
      if (m != want) { printf "%s: %d chains of four ops, not the probe'\''s %d\n", file, m, want > "/dev/stderr"; exit 2 }
      split("captured captured-set built built-set", modes, " ")
      for (c = 0; c < want / 33; c++) {
        delete a1; delete a2; delete a3; delete a4; delete a5; k = 0
        for (j = c * 33 + 4; j <= (c + 1) * 33; j++) {
          k++; a1[k] = first[j]; a2[k] = gap1[j]; a3[k] = gap2[j]; a4[k] = copy[j]; a5[k] = after[j]
        }
        printf "| %s | %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f |\n", run,
               layout == "update" ? "pageable-8B" : chains[int(c / 2) + 1],
               layout == "update" ? modes[c + 1] : c % 2 ? "one by one" : "graph",
               lower_median(a1, k) / 1e3, lower_median(a2, k) / 1e3,
               lower_median(a3, k) / 1e3, lower_median(a4, k) / 1e3, lower_median(a5, k) / 1e3
      }
    }' || exit 2
done
