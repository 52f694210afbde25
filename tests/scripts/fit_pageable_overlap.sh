#!/usr/bin/env bash
# tests/scripts/fit_pageable_overlap.sh SOURCE_DIR: validate/fit-pageable-overlap.sh on made-up
# timelines, against values worked out by hand.
#
# File a: alone 1000 us, a 4 MiB pinned copy of 100 us inside a pageable one of 1050 us,
# alone 1100 (mean of the two beside it 1050: hold-up 0, window 100), a 16 MiB pinned copy
# of 400 us inside one of 1400, alone 1100 (hold-up 300, window 100). File b (gzipped):
# alone 1000, an 8 MiB pinned copy of 200 us inside one of 1150, alone 1000 (hold-up
# 150, window 50). The median window of 100, 100 and 50: 100 us. With one file's two
# pairs only, it fails (three are needed).
set -euo pipefail
src=${1:?usage: fit_pageable_overlap.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
row () { echo "$1,0,s1,d2h,d2h,,0,0,$(($2 * 1000)),,,,$3,"; }
head='# source: measured
op,line,stream,kind,engine,conn,issue_ns,start_ns,end_ns,bytes,grid,block,label,cause'
{ echo "$head"; row 0 1000 alone-1; row 1 100 pinned-1-4; row 2 1050 with-1-4; row 3 1100 alone-2
  row 4 400 pinned-2-16; row 5 1400 with-2-16; row 6 1100 alone-3; } > "$work/a.csv"
{ echo "$head"; row 0 1000 alone-1; row 1 200 pinned-1-8; row 2 1150 with-1-8; row 3 1000 alone-2; } |
  gzip > "$work/b.csv.gz"
want='# 4 MiB pinned inside: 1 pairs, pinned copy 100.0 us, hold-up 0.0 us (medians)
# 16 MiB pinned inside: 1 pairs, pinned copy 400.0 us, hold-up 300.0 us (medians)
# 8 MiB pinned inside: 1 pairs, pinned copy 200.0 us, hold-up 150.0 us (medians)
# the window, the pinned copy less its hold-up: median of 3 pairs
d2h_pageable_overlap=100.0us'
got=$(bash "$src/validate/fit-pageable-overlap.sh" "$work/a.csv" "$work/b.csv.gz")
if [ "$got" != "$want" ]; then
  printf 'FAIL: got\n%s\nwant\n%s\n' "$got" "$want"
  exit 1
fi
if bash "$src/validate/fit-pageable-overlap.sh" "$work/a.csv" > /dev/null 2>&1; then
  echo "FAIL: two pairs were accepted"
  exit 1
fi
echo "fit-pageable-overlap: the values worked out by hand"
