#!/usr/bin/env bash
# tests/scripts/fit_graph_probe.sh SOURCE_DIR: validate/fit-graph-probe.sh on two small
# made-up runs, against medians worked out by hand.
#
# Graph calls 2.0, 1.0 (run a) and 3.0 us (run b): median 2.0. Graph chains: run a's
# launch 2 has nodes ending ...999800 and ...2500 and the next ones starting ...000500
# and ...3000 (gaps 700, across a 10^15 boundary of %globaltimer's 19 digits, and 500),
# run b's launch 2 one gap of 900: median 700, "0.700us". The direct chain: gaps 1800 and 2000, median
# 1900. A node of launch 3 after launch 2's last is not a gap (another launch).
set -euo pipefail
src=${1:?usage: fit_graph_probe.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/a.txt" <<'DATA'
graph 1 2.00 16.0 4.0
graph 4 1.00 10.0 6.0
direct 1 5.00 7.00
node graph 2 0 1795999999999999000 1795999999999999800
node graph 2 1 1796000000000000500 1796000000000002500
node graph 2 2 1796000000000003000 1796000000000004000
node graph 3 0 1796000000000009000 1796000000000010000
node direct 2 0 1796000000000020000 1796000000000021000
node direct 2 1 1796000000000022800 1796000000000023000
DATA
cat > "$work/b.txt" <<'DATA'
graph 1 3.00 16.0 4.0
node graph 2 0 1796000000000000000 1796000000000001000
node graph 2 1 1796000000000001900 1796000000000002000
node direct 2 0 1796000000000030000 1796000000000031000
node direct 2 1 1796000000000033000 1796000000000034000
DATA
want='graph_launch=2.000us
graph_node_gap=0.700us
kernel_gap_direct=1.900us'
got=$(bash "$src/validate/fit-graph-probe.sh" "$work/a.txt" "$work/b.txt")
if [ "$got" != "$want" ]; then
  printf 'FAIL: got\n%s\nwant\n%s\n' "$got" "$want"
  exit 1
fi
echo "fit-graph-probe: the medians worked out by hand"
