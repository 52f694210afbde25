#!/usr/bin/env bash
# tests/scripts/pageable_inside_table.sh SOURCE_DIR: validate/pageable-inside-table.awk on a
# made-up timeline, against shares worked out by hand.
#
# D2H: alone 1000 and 1200 us (mean 1100); with a 100 us pinned copy inside 1150 us:
# (1150 - 1100) / 100 = 0.50; with a 400 us one 1500 us: 1.00. H2D: alone 2000 and
# 2000 us; with 100 us inside 2000 us: 0.00; with 200 us inside 2100 us: 0.50.
set -euo pipefail
src=${1:?usage: pageable_inside_table.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
row () { echo "$1,0,s1,d2h,d2h,,0,0,$(($2 * 1000)),,,,$3,"; }
{
  echo "# source: measured"
  echo "op,line,stream,kind,engine,conn,issue_ns,start_ns,end_ns,bytes,grid,block,label,cause"
  row 0 1000 d2h-alone-1; row 1 100 d2h-pinned-4; row 2 1150 d2h-with-4
  row 3 400 d2h-pinned-16; row 4 1500 d2h-with-16; row 5 1200 d2h-alone-2
  row 6 2000 h2d-alone-1; row 7 100 h2d-pinned-4; row 8 2000 h2d-with-4
  row 9 200 h2d-pinned-16; row 10 2100 h2d-with-16; row 11 2000 h2d-alone-2
} > "$work/t.csv"
want='d2h alone 1000.0 and 1200.0 us; with 4 MiB pinned (100.0 us): 1150.0 us, share 0.50; with 16 MiB pinned (400.0 us): 1500.0 us, share 1.00
h2d alone 2000.0 and 2000.0 us; with 4 MiB pinned (100.0 us): 2000.0 us, share 0.00; with 16 MiB pinned (200.0 us): 2100.0 us, share 0.50'
got=$(awk -f "$src/validate/pageable-inside-table.awk" "$work/t.csv")
if [ "$got" != "$want" ]; then
  printf 'FAIL: got\n%s\nwant\n%s\n' "$got" "$want"
  exit 1
fi
echo "pageable-inside-table: the shares worked out by hand"
