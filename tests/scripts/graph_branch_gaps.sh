#!/usr/bin/env bash
# tests/scripts/graph_branch_gaps.sh SOURCE_DIR: validate/graph-branch-gaps.sh on a made-up
# timeline, against gaps worked out by hand (ns in the CSV, us in the table):
#   fork3 launch 1: A 1000-6000, B 7000-57000, C 7200-57200, E 7500-57500, D 58500-63500:
#     A to B 1.00, A to C 1.20, A to E 1.50, latest branch end 57500 to D 1.00, A start
#     to D end 62.50;
#   fork2 launch 1: A 100000-105000, C 106000-126000, B 106100-206100 (C written first),
#     D 207300-212300: A to B 1.10, A to C 1.00, no E, latest end 206100 to D 1.20, span
#     112.30;
#   fork3 launch 2 (its record and wait rows, and an unlabelled kernel, are skipped): A
#     300000-305000, B 306000-356000, C 306000-356000, E 306000-356000, D 357000-362000:
#     1.00 1.00 1.00, 1.00, 62.00.
# A missing argument fails with usage.
set -euo pipefail
src=${1:?usage: graph_branch_gaps.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/t.csv" <<'DATA'
# made up for tests/scripts/graph_branch_gaps.sh
op,line,stream,kind,engine,conn,issue_ns,start_ns,end_ns,bytes,grid,block,label,cause
0,1,s1,kernel,compute,0,0,1000,6000,,1,32,fork3-A,
1,2,s1,kernel,compute,0,0,7000,57000,,1,32,fork3-B,
2,3,s2,kernel,compute,1,0,7200,57200,,1,32,fork3-C,
3,4,s3,kernel,compute,2,0,7500,57500,,1,32,fork3-E,
4,5,s1,kernel,compute,0,0,58500,63500,,1,32,fork3-D,
5,6,s1,kernel,compute,0,90000,100000,105000,,1,32,fork2-A,
6,7,s2,kernel,compute,1,90000,106000,126000,,1,32,fork2-C,
7,8,s1,kernel,compute,0,90000,106100,206100,,1,32,fork2-B,
8,9,s1,kernel,compute,0,90000,207300,212300,,1,32,fork2-D,
9,10,s1,kernel,compute,0,290000,300000,305000,,1,32,fork3-A,
10,11,s1,record,stream,0,290000,305000,305000,,,,,
11,12,s2,wait,stream,1,290000,305000,305000,,,,,
12,13,s1,kernel,compute,0,290000,306000,356000,,1,32,fork3-B,
13,14,s2,kernel,compute,1,290000,306000,356000,,1,32,fork3-C,
14,15,s3,kernel,compute,2,290000,306000,356000,,1,32,fork3-E,
15,16,s3,kernel,compute,2,290000,356000,356500,,1,32,,
16,17,s1,kernel,compute,0,290000,357000,362000,,1,32,fork3-D,
DATA
cat > "$work/want" <<'TABLE'
| timeline | shape | launch | A to B | A to C | A to E | branches to D | A start to D end |
| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |
| t.csv | fork3 | 1 | 1.00 | 1.20 | 1.50 | 1.00 | 62.50 |
| t.csv | fork2 | 1 | 1.10 | 1.00 | - | 1.20 | 112.30 |
| t.csv | fork3 | 2 | 1.00 | 1.00 | 1.00 | 1.00 | 62.00 |
TABLE
bash "$src/validate/graph-branch-gaps.sh" "$work/t.csv" > "$work/got"
diff -u "$work/want" "$work/got"
if bash "$src/validate/graph-branch-gaps.sh" 2> "$work/err"; then
  echo "no argument: expected a failure" >&2
  exit 1
fi
grep -q usage "$work/err"
echo "graph_branch_gaps: ok"
