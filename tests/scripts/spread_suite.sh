#!/usr/bin/env bash
# tests/scripts/spread_suite.sh SOURCE_DIR STREAMSIM: validate/spread-suite.sh on made-up runs,
# against what is worked out by hand.
#
# tests/profiles/spread.ini: a launch holds the host 1 ms, 0.5 ms on its fast host and 2 ms
# on its slow one; all else free. Schedule "one": a launch of a 1 ms kernel, then (appended)
# a device synchronize: 2 ms, fast 1.5 ms, slow 3 ms. Its runs, untraced: "one" 2.5 ms
# (inside the range; the profile's own 2 ms is 20% off), "two" (the same schedule) 3.2 ms
# (6.7% past the slow end: named), "three" 1.96 ms (inside, and within 3% of 2 ms).
set -euo pipefail
src=${1:?usage: spread_suite.sh SOURCE_DIR STREAMSIM}
streamsim=${2:?usage: spread_suite.sh SOURCE_DIR STREAMSIM}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/s" "$work/r"
for s in one two three; do printf 'stream s1\nkernel s1 grid=1 block=32 time=1ms\n' > "$work/s/$s.sched"; done
run () { printf '# source: measured\n# host_done_ns: %s timed with cupti, %s untimed, 1 with timing events\nop,line\n' "$2" "$2" > "$work/r/$1.measured.csv"; }
run one 2500000; run two 3200000; run three 1960000
export STREAMSIM_PROFILE_PATH=$src/tests/profiles
got=$(STREAMSIM=$streamsim bash "$src/validate/spread-suite.sh" "$work/r" "$work/s" spread)
want="two: measured 3200.0 us, the two ends 1500.0 to 3000.0 us
3 schedules; inside the range 2, within 3% of it 2; the profile's own host within 3%: 1"
if [ "$got" != "$want" ]; then
  printf 'FAIL: got\n%s\nwant\n%s\n' "$got" "$want"
  exit 1
fi
if STREAMSIM=$streamsim bash "$src/validate/spread-suite.sh" "$work/r" "$work/s" schematic-k20 > /dev/null 2>&1; then
  echo "FAIL: a profile without [spread] was accepted"
  exit 1
fi
echo "spread-suite: as worked out by hand"
