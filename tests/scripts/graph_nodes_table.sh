#!/usr/bin/env bash
# tests/scripts/graph_nodes_table.sh SOURCE_DIR: validate/graph-nodes-table.sh on a made-up
# run, against medians worked out by hand.
#
# 330 chains of four ops (memset, kernel, D2H, sync) with a host row before each, times
# in ns: in block c (0 to 9; chains pageable-8B graph, pageable-8B one by one, pinned-8B
# graph, ...) the first op lasts 1000, the kernel starts (c + 1) x 1000 after it ends and
# lasts 5000, the copy starts 2000 after the kernel ends in odd launches and 4000 in even
# ones, lasts 500 x (c + 1), and the sync returns 3000 after it; the first 3 launches of
# each block (the warm-up) have a gap of 999000 before the kernel, which the table leaves
# out. Of the 30 others, 15 gaps of 2000 and 15 of 4000: the lower median, 2000. So block
# c's row is 1.00 | c + 1 | 2.00 | 0.5 x (c + 1) | 3.00. A run one chain short fails.
# With --update (graph_update_probe.cu's layout), the first 4 blocks alone: the rows
# of modes captured, captured-set, built and built-set are blocks 0 to 3's.
set -euo pipefail
src=${1:?usage: graph_nodes_table.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
made_up () {
awk -v blocks="$1" 'BEGIN {
  OFS = ","
  print "# source: made up for tests/scripts/graph_nodes_table.sh"
  print "op,line,stream,kind,engine,conn,issue_ns,start_ns,end_ns,bytes,grid,block,label,cause"
  t = 0; op = 0
  for (c = 0; c < blocks; c++)
    for (j = 1; j <= 33; j++) {
      print op++, 1, "", "host", "host", "", t, t, t + 100, "", "", "", "", ""
      t += 100
      g1 = j <= 3 ? 999000 : (c + 1) * 1000
      g2 = j % 2 ? 2000 : 4000
      print op++, 2, "s1", "memset", "compute", "", t, t, t + 1000, 8, "", "", "", ""
      ks = t + 1000 + g1
      print op++, 3, "s1", "kernel", "compute", "", t, ks, ks + 5000, "", 1, 32, "k", ""
      cs = ks + 5000 + g2; ce = cs + 500 * (c + 1)
      print op++, 4, "s1", "d2h", "d2h", "", t, cs, ce, 8, "", "", "", ""
      print op++, 5, "s1", "sync", "host", "", t, t, ce + 3000, "", "", "", "", ""
      t = ce + 3000
    }
}'
}
made_up 10 > "$work/run1.measured.csv"
want='| run | chain | mode | first op | to the kernel | kernel to the copy | copy | copy end to the sync'"'"'s return |
| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |
| run1 | pageable-8B | graph | 1.00 | 1.00 | 2.00 | 0.50 | 3.00 |
| run1 | pageable-8B | one by one | 1.00 | 2.00 | 2.00 | 1.00 | 3.00 |
| run1 | pinned-8B | graph | 1.00 | 3.00 | 2.00 | 1.50 | 3.00 |
| run1 | pinned-8B | one by one | 1.00 | 4.00 | 2.00 | 2.00 | 3.00 |
| run1 | pageable-1MiB | graph | 1.00 | 5.00 | 2.00 | 2.50 | 3.00 |
| run1 | pageable-1MiB | one by one | 1.00 | 6.00 | 2.00 | 3.00 | 3.00 |
| run1 | pinned-1MiB | graph | 1.00 | 7.00 | 2.00 | 3.50 | 3.00 |
| run1 | pinned-1MiB | one by one | 1.00 | 8.00 | 2.00 | 4.00 | 3.00 |
| run1 | h2d | graph | 1.00 | 9.00 | 2.00 | 4.50 | 3.00 |
| run1 | h2d | one by one | 1.00 | 10.00 | 2.00 | 5.00 | 3.00 |'
got=$(bash "$src/validate/graph-nodes-table.sh" "$work/run1.measured.csv")
if [ "$got" != "$want" ]; then
  printf 'FAIL: got\n%s\nwant\n%s\n' "$got" "$want"
  exit 1
fi
head -n -5 "$work/run1.measured.csv" > "$work/short.measured.csv"
if bash "$src/validate/graph-nodes-table.sh" "$work/short.measured.csv" > /dev/null 2>&1; then
  echo "FAIL: a run one chain short was accepted"
  exit 1
fi
made_up 4 > "$work/run1u.measured.csv"
want='| run | chain | mode | first op | to the kernel | kernel to the copy | copy | copy end to the sync'"'"'s return |
| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |
| run1u | pageable-8B | captured | 1.00 | 1.00 | 2.00 | 0.50 | 3.00 |
| run1u | pageable-8B | captured-set | 1.00 | 2.00 | 2.00 | 1.00 | 3.00 |
| run1u | pageable-8B | built | 1.00 | 3.00 | 2.00 | 1.50 | 3.00 |
| run1u | pageable-8B | built-set | 1.00 | 4.00 | 2.00 | 2.00 | 3.00 |'
got=$(bash "$src/validate/graph-nodes-table.sh" --update "$work/run1u.measured.csv")
if [ "$got" != "$want" ]; then
  printf 'FAIL: --update: got\n%s\nwant\n%s\n' "$got" "$want"
  exit 1
fi
if bash "$src/validate/graph-nodes-table.sh" --update "$work/run1.measured.csv" > /dev/null 2>&1; then
  echo "FAIL: --update accepted a run of the other probe"
  exit 1
fi
# a file that cannot be read: exit 3 before anything is printed
status=0
bash "$src/validate/graph-nodes-table.sh" "$work/run1.measured.csv" "$work/none.csv" > "$work/out" 2> /dev/null \
  || status=$?
if [ "$status" -ne 3 ] || [ -s "$work/out" ]; then
  echo "FAIL: an unreadable run: exit $status, printed $(cat "$work/out")"
  exit 1
fi
echo "graph-nodes-table: the medians worked out by hand"
