#!/usr/bin/env bash
# tests/scripts/fit_pageable_overlap.sh SOURCE_DIR: validate/fit-pageable-overlap.sh on made-up
# timelines, against values worked out by hand.
#
# File a: alone 1000 us, a 4 MiB pinned copy of 100 us inside a pageable one of 1070 us,
# alone 1100 (mean of the two beside it 1050: hold-up 20, window 80), a 16 MiB pinned copy
# of 400 us inside one of 1400, alone 1100 (hold-up 300, window 100), a 2 MiB pinned copy
# of 50 us inside one of 1100, alone 1100 (hold-up 0: under a tenth of 50, so its size is
# left out). File b (gzipped): alone 1000, an 8 MiB pinned copy of 200 us inside one of
# 1150, alone 1000 (hold-up 150, window 50). The median window of 80, 100 and 50: 80 us.
# File a alone has two pairs that count, and fails (three are needed). The same as H2D,
# with a warm-up copy of 5000 us (not a neighbour), gives the H2D key; the two directions
# together fail.
set -euo pipefail
src=${1:?usage: fit_pageable_overlap.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
row () { echo "$1,0,s1,d2h,d2h,,0,0,$(($2 * 1000)),,,,$3,"; }
head='# source: measured
op,line,stream,kind,engine,conn,issue_ns,start_ns,end_ns,bytes,grid,block,label,cause'
{ echo "$head"; row 0 1000 alone-1; row 1 100 pinned-1-4; row 2 1070 with-1-4; row 3 1100 alone-2
  row 4 400 pinned-2-16; row 5 1400 with-2-16; row 6 1100 alone-3
  row 7 50 pinned-3-2; row 8 1100 with-3-2; row 9 1100 alone-4; } > "$work/a.csv"
{ echo "$head"; row 0 1000 alone-1; row 1 200 pinned-1-8; row 2 1150 with-1-8; row 3 1000 alone-2; } |
  gzip > "$work/b.csv.gz"
want='# 4 MiB pinned inside: 1 pairs, pinned copy 100.0 us, hold-up 20.0 us (medians)
# 16 MiB pinned inside: 1 pairs, pinned copy 400.0 us, hold-up 300.0 us (medians)
# 2 MiB pinned inside: 1 pairs, pinned copy 50.0 us, hold-up 0.0 us (medians), left out
# 8 MiB pinned inside: 1 pairs, pinned copy 200.0 us, hold-up 150.0 us (medians)
# the window, the pinned copy less its hold-up: median of 3 pairs
d2h_pageable_overlap=80.0us'
got=$(bash "$src/validate/fit-pageable-overlap.sh" "$work/a.csv" "$work/b.csv.gz")
if [ "$got" != "$want" ]; then
  printf 'FAIL: got\n%s\nwant\n%s\n' "$got" "$want"
  exit 1
fi
if bash "$src/validate/fit-pageable-overlap.sh" "$work/a.csv" > /dev/null 2>&1; then
  echo "FAIL: two pairs that count were accepted"
  exit 1
fi
# an H2D file's rows give the h2d key (warm-up copies left out), and a D2H file beside an
# H2D one is refused
sed 's/,d2h,d2h,/,h2d,h2d,/' "$work/a.csv" > "$work/h.csv"
{ echo "$head"; row 0 5000 warm-1; } | sed 's/,d2h,d2h,/,h2d,h2d,/' > "$work/w.csv"
{ cat "$work/h.csv"; tail -n +3 "$work/w.csv"; } > "$work/hw.csv"
gzip -cd "$work/b.csv.gz" | sed 's/,d2h,d2h,/,h2d,h2d,/' > "$work/hb.csv"
got=$(bash "$src/validate/fit-pageable-overlap.sh" "$work/hw.csv" "$work/hb.csv" | tail -1)
if [ "$got" != "h2d_pageable_overlap=80.0us" ]; then
  echo "FAIL: H2D gave $got"
  exit 1
fi
if bash "$src/validate/fit-pageable-overlap.sh" "$work/a.csv" "$work/hb.csv" > /dev/null 2>&1; then
  echo "FAIL: copies of both directions were accepted"
  exit 1
fi
echo "fit-pageable-overlap: the values worked out by hand"
