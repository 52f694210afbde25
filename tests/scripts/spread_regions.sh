#!/usr/bin/env bash
# tests/scripts/spread_regions.sh SOURCE_DIR STREAMSIM: validate/spread-regions.sh on a made-up
# recording, against medians worked out by hand.
#
# tests/profiles/spread.ini: a launch holds the host 1 ms, 0.5 ms on its fast host and 2 ms
# on its slow one; all else free. The program: a synchronize, a launch of a 1 ms kernel, a
# synchronize; its one region, from the first synchronize's end (0) to the second's, took
# 2 ms as measured (written here by hand). Predicted: 1 + 1 = 2 ms (0.00%), fast 0.5 + 1 =
# 1.5 ms (25.00%), slow 2 + 1 = 3 ms (50.00%). A profile without [spread] is refused.
set -euo pipefail
src=${1:?usage: spread_regions.sh SOURCE_DIR STREAMSIM}
streamsim=${2:?usage: spread_regions.sh SOURCE_DIR STREAMSIM}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'stream s1\nsync s1\nkernel s1 grid=1 block=32 time=1ms\nsync s1\n' > "$work/p.sched"
cat > "$work/p.measured.csv" <<'CSV'
# source: measured
op,line,stream,kind,engine,conn,issue_ns,start_ns,end_ns,bytes,grid,block,label,cause
0,2,s1,sync,host,,0,0,0,,,,,
1,3,s1,kernel,compute,,0,1000000,2000000,,1,32,,
2,4,s1,sync,host,,1000000,1000000,2000000,,,,,
CSV
export STREAMSIM_PROFILE_PATH=$src/tests/profiles
got=$(STREAMSIM=$streamsim bash "$src/validate/spread-regions.sh" "$work" spread)
want='| program | median with spread | at its fast host | at its slow host |
| --- | ---: | ---: | ---: |
| p | 0.00% | 25.00% | 50.00% |

1 programs; median <= 2%: 1 with the profile, 0 at the fast host, 0 at the slow host, 1 at one of the three.'
if [ "$got" != "$want" ]; then
  printf 'FAIL: got\n%s\nwant\n%s\n' "$got" "$want"
  exit 1
fi
if STREAMSIM=$streamsim bash "$src/validate/spread-regions.sh" "$work" schematic-k20 > /dev/null 2>&1; then
  echo "FAIL: a profile without [spread] was accepted"
  exit 1
fi
echo "spread-regions: the medians worked out by hand"
