#!/usr/bin/env bash
# tests/scripts/graph_branches_table.sh SOURCE_DIR: validate/graph-branches-table.sh on two
# made-up runs, against medians worked out by hand (us; the lower middle of an even count).
#
# a.out, fork2 (A -> {B, C} -> D), three launches with a synchronize (times from each call):
#   launch  call  A            B             C             D              sync
#   0       1000  4000-9000    10000-60000   10200-60200   61000-66000    70000
#   1       2000  5000-10000   11000-61000   11400-61400   62400-67400    72000
#   2       3000  3000-8000    8800-58800    8600-58600    59400-64400    69000
# call 2.00; call to A 4000 5000 3000: 4.00; A end to B 1000 1000 800: 1.00, to C 1200
# 1400 600: 1.20; spread 200 400 200: 0.20; overlap (earliest end - latest start) 49800
# 49600 49800: 49.80, of the shortest branch's 50000 99.6%, "100%"; latest branch end to D
# 800 1000 600: 0.80; A start to D end 62000 62400 61400: 62.00; D end to sync 4000 4600
# 4600: 4.60.
# b.out, chain (A -> B -> C -> D), four launches, each node 1000 long:
#   launch  call  A          B          C          D            sync
#   0       1500  3000-4000  4500-5500  6500-7500  8000-9000    12000
#   1       1000  2000-3000  3700-4700  5500-6500  6800-7800    10800
#   2       2500  4000-5000  5900-6900  7500-8500  9400-10400   12400
#   3       500   5000-6000  6300-7300  7700-8700  9400-10400   15400
# call 500 1000 1500 2500: 1.00; call to A 2000 3000 4000 5000: 3.00; A to B 300 500 700
# 900: 0.50; B to C 400 600 800 1000: 0.60; C to D 300 500 700 900: 0.50; A to D end 5400
# 5800 6000 6400: 5.80; to the sync 2000 3000 3000 5000: 3.00.
# Back to back (times from the first call; the launches after the first are compared):
# fork2 b2b: calls 900 700: 0.70; D 66000 to A 68500, D 130500 to A 132500: gaps 2500
# 2000: 2.00, none overlapping; periods 64500 64000: 64.00. fork2 b2b2: calls 1600 800:
# 0.80; gaps -1000 (A 65000 before D 66000: overlapping) and 2000: -1.00, 1/2; periods
# 61000 64000: 61.00. chain b2b: call 1300, gap 3000, period 8500; b2b2: call 2200, gap
# 1500, period 7000.
# A launch missing a node fails.
set -euo pipefail
src=${1:?usage: graph_branches_table.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/a.out" <<'DATA'
# made up for tests/scripts/graph_branches_table.sh
gpu Made Up GPU 4
clock fork2 -1795762776939146502 183
graph fork2 fork A=5000/1 B=50000/1 C=50000/1 D=5000/1
prep fork2 37326 12765 2735
launch fork2 sync 0 0 1000 70000
node fork2 sync 0 A 4000 9000 4000 1
node fork2 sync 0 B 10000 60000 10000 1
node fork2 sync 0 C 10200 60200 10200 1
node fork2 sync 0 D 61000 66000 61000 1
launch fork2 sync 1 0 2000 72000
node fork2 sync 1 A 5000 10000 5000 1
node fork2 sync 1 B 11000 61000 11000 1
node fork2 sync 1 C 11400 61400 11400 1
node fork2 sync 1 D 62400 67400 62400 1
launch fork2 sync 2 0 3000 69000
node fork2 sync 2 A 3000 8000 3000 1
node fork2 sync 2 B 8800 58800 8800 1
node fork2 sync 2 C 8600 58600 8600 1
node fork2 sync 2 D 59400 64400 59400 1
launch fork2 b2b 0 0 1000 300000
node fork2 b2b 0 A 4000 9000 4000 1
node fork2 b2b 0 B 10000 60000 10000 1
node fork2 b2b 0 C 10200 60200 10200 1
node fork2 b2b 0 D 61000 66000 61000 1
launch fork2 b2b 1 1500 900 300000
node fork2 b2b 1 A 68500 73500 68500 1
node fork2 b2b 1 B 74500 124500 74500 1
node fork2 b2b 1 C 74700 124700 74700 1
node fork2 b2b 1 D 125500 130500 125500 1
launch fork2 b2b 2 2600 700 300000
node fork2 b2b 2 A 132500 137500 132500 1
node fork2 b2b 2 B 138500 188500 138500 1
node fork2 b2b 2 C 138700 188700 138700 1
node fork2 b2b 2 D 189500 194500 189500 1
launch fork2 b2b2 0 0 1200 300000
node fork2 b2b2 0 A 4000 9000 4000 1
node fork2 b2b2 0 B 10000 60000 10000 1
node fork2 b2b2 0 C 10200 60200 10200 1
node fork2 b2b2 0 D 61000 66000 61000 1
launch fork2 b2b2 1 2000 1600 300000
node fork2 b2b2 1 A 65000 70000 65000 1
node fork2 b2b2 1 B 71000 121000 71000 1
node fork2 b2b2 1 C 71200 121200 71200 1
node fork2 b2b2 1 D 122000 127000 122000 1
launch fork2 b2b2 2 4000 800 300000
node fork2 b2b2 2 A 129000 134000 129000 1
node fork2 b2b2 2 B 135000 185000 135000 1
node fork2 b2b2 2 C 135200 185200 135200 1
node fork2 b2b2 2 D 186000 191000 186000 1
DATA
cat > "$work/b.out" <<'DATA'
gpu Made Up GPU 4
graph chain chain A=1000/1 B=1000/1 C=1000/1 D=1000/1
launch chain sync 0 0 1500 12000
node chain sync 0 A 3000 4000 3000 1
node chain sync 0 B 4500 5500 4500 1
node chain sync 0 C 6500 7500 6500 1
node chain sync 0 D 8000 9000 8000 1
launch chain sync 1 0 1000 10800
node chain sync 1 A 2000 3000 2000 1
node chain sync 1 B 3700 4700 3700 1
node chain sync 1 C 5500 6500 5500 1
node chain sync 1 D 6800 7800 6800 1
launch chain sync 2 0 2500 12400
node chain sync 2 A 4000 5000 4000 1
node chain sync 2 B 5900 6900 5900 1
node chain sync 2 C 7500 8500 7500 1
node chain sync 2 D 9400 10400 9400 1
launch chain sync 3 0 500 15400
node chain sync 3 A 5000 6000 5000 1
node chain sync 3 B 6300 7300 6300 1
node chain sync 3 C 7700 8700 7700 1
node chain sync 3 D 9400 10400 9400 1
launch chain b2b 0 0 1100 20000
node chain b2b 0 A 3000 4000 3000 1
node chain b2b 0 B 4500 5500 4500 1
node chain b2b 0 C 6000 7000 6000 1
node chain b2b 0 D 7500 8500 7500 1
launch chain b2b 1 1500 1300 20000
node chain b2b 1 A 11500 12500 11500 1
node chain b2b 1 B 13000 14000 13000 1
node chain b2b 1 C 14500 15500 14500 1
node chain b2b 1 D 16000 17000 16000 1
launch chain b2b2 0 0 1000 20000
node chain b2b2 0 A 3000 4000 3000 1
node chain b2b2 0 B 4500 5500 4500 1
node chain b2b2 0 C 6000 7000 6000 1
node chain b2b2 0 D 7500 8500 7500 1
launch chain b2b2 1 1200 2200 20000
node chain b2b2 1 A 10000 11000 10000 1
node chain b2b2 1 B 11500 12500 11500 1
node chain b2b2 1 C 13000 14000 13000 1
node chain b2b2 1 D 14500 15500 14500 1
DATA
want='| run | graph | call | call to A | A to branches | spread | overlap | to D | A to D end | D to return |
| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |
| a | fork2 | 2.00 | 4.00 | B 1.00 / C 1.20 | 0.20 | 49.80 (100%) | 0.80 | 62.00 | 4.60 |
| b | chain | 1.00 | 3.00 | B 0.50 / C 0.60 | - | - | 0.50 | 5.80 | 3.00 |

| run | graph | mode | call | D to next A | overlapping | period |
| --- | --- | --- | ---: | ---: | ---: | ---: |
| a | fork2 | b2b | 0.70 | 2.00 | 0/2 | 64.00 |
| a | fork2 | b2b2 | 0.80 | -1.00 | 1/2 | 61.00 |
| b | chain | b2b | 1.30 | 3.00 | 0/1 | 8.50 |
| b | chain | b2b2 | 2.20 | 1.50 | 0/1 | 7.00 |'
got=$(bash "$src/validate/graph-branches-table.sh" "$work/a.out" "$work/b.out")
if [ "$got" != "$want" ]; then
  printf 'FAIL: got\n%s\nwant\n%s\n' "$got" "$want"
  exit 1
fi
grep -v '^node fork2 b2b 1 C ' "$work/a.out" > "$work/short.out"
if bash "$src/validate/graph-branches-table.sh" "$work/short.out" > /dev/null 2>&1; then
  echo "FAIL: a launch missing a node was accepted"
  exit 1
fi
echo "graph-branches-table: the medians worked out by hand"
