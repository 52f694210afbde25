#!/usr/bin/env bash
# tests/scripts/untouched_part_table.sh SOURCE_DIR STREAMSIM: validate/untouched-part-table.sh
# on made-up runs, against what is worked out by hand.
#
# tests/profiles/schematic-untouched.ini: pageable 2.097152 GB/s both ways, no latency, calls
# free; untouched H2D 1.048576 GB/s + 0.5 ms, D2H 0.524288 GB/s. So for
# traces/validation/untouched-part.sched: d2h-none 4 ms; d2h-256KiB 0.5 ms for the 256 KiB
# untouched + 3.875 ms for the other 7.75 MiB = 4.375 ms, 0.375 ms added; h2d-256KiB 0.5 ms +
# 0.25 + 3.875 = 4.625 ms, 0.625 added; h2d-all 0.5 + 8 = 8.5 ms, 4.5 added. Three made-up
# processes measure every copy at 1.0, 1.1 and 1.2 times those times (the others' too, as
# typed below): the medians and the added times are 1.1 times the predicted ones.
set -euo pipefail
src=${1:?usage: untouched_part_table.sh SOURCE_DIR STREAMSIM}
streamsim=${2:?usage: untouched_part_table.sh SOURCE_DIR STREAMSIM}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
times='d2h-none 4000 d2h-256KiB 4375 d2h-1MiB 5500 d2h-2MiB 7000 d2h-4MiB 10000 d2h-6MiB 13000
d2h-all 16000 h2d-none 4000 h2d-256KiB 4625 h2d-1MiB 5000 h2d-4MiB 6500 h2d-all 8500'
for k in 10 11 12; do
  echo "$times" | awk -v k=$k 'BEGIN { print "op,line,stream,kind,engine,conn,issue_ns,start_ns,end_ns,bytes,grid,block,label,cause" }
    { for (i = 1; i < NF; i += 2) printf "%d,1,s1,%s,%s,,0,0,%d,8388608,,,%s,\n", n++, substr($i, 1, 3), substr($i, 1, 3), $(i + 1) * 100 * k, $i }' \
    > "$work/run$k.csv"
done
export STREAMSIM_PROFILE_PATH=$src/tests/profiles
got=$(cd "$src" && STREAMSIM=$streamsim bash validate/untouched-part-table.sh schematic-untouched "$work"/run*.csv)
for want in '| copy | predicted | measured (median of 3) | added: predicted | measured |' \
            '| d2h-none | 4000.0 us | 4400.0 us | +0.0 us | +0.0 us |' \
            '| d2h-256KiB | 4375.0 us | 4812.5 us | +375.0 us | +412.5 us |' \
            '| h2d-256KiB | 4625.0 us | 5087.5 us | +625.0 us | +687.5 us |' \
            '| h2d-all | 8500.0 us | 9350.0 us | +4500.0 us | +4950.0 us |'; do
  grep -qxF -- "$want" <<< "$got" || { echo "missing: $want"; echo "got:"; echo "$got"; exit 1; }
done
[ "$(grep -c '^| [dh]2[dh]-' <<< "$got")" = 12 ] || { echo "not 12 copies:"; echo "$got"; exit 1; }
echo ok
