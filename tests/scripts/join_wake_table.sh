#!/usr/bin/env bash
# tests/scripts/join_wake_table.sh SOURCE_DIR: validate/join-wake-table.sh on a made-up
# timeline, against medians worked out by hand (PAIRS=5:3 9:7).
#   join line 5 matches sync line 3: syncs end 100, 200, 300 us; joins 50-120 (wake 20),
#   150-225 (wake 25), 310-311 (called after the sync: 1 us) -> wake 22.50 over 2, ended
#   before 1.00 over 1;
#   join line 9 matches sync line 7: one sync ending at 400, its join 350-430 -> 30.00
#   over 1, none ended before.
# No argument fails with usage.
set -euo pipefail
src=${1:?usage: join_wake_table.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/t.csv" <<'DATA'
# made up for tests/scripts/join_wake_table.sh
op,line,stream,kind,engine,conn,issue_ns,start_ns,end_ns,bytes,grid,block,label,cause
0,3,s1,sync,host,,90000,90000,100000,,,,,
1,5,,join,host,,50000,50000,120000,,,,,
2,3,s1,sync,host,,190000,190000,200000,,,,,
3,5,,join,host,,150000,150000,225000,,,,,
4,3,s1,sync,host,,290000,290000,300000,,,,,
5,5,,join,host,,310000,310000,311000,,,,,
6,7,s2,sync,host,,390000,390000,400000,,,,,
7,9,,join,host,,350000,350000,430000,,,,,
DATA
cat > "$work/want" <<'TABLE'
| timeline | join line | wake | joins | ended before | joins |
| --- | ---: | ---: | ---: | ---: | ---: |
| t.csv | 5 | 22.50 | 2 | 1.00 | 1 |
| t.csv | 9 | 30.00 | 1 | - | 0 |
TABLE
PAIRS="5:3 9:7" bash "$src/validate/join-wake-table.sh" "$work/t.csv" > "$work/got"
diff -u "$work/want" "$work/got"
if bash "$src/validate/join-wake-table.sh" 2> "$work/err"; then
  echo "no argument: expected a failure" >&2
  exit 1
fi
grep -q usage "$work/err"
echo "join_wake_table: ok"
