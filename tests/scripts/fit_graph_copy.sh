#!/usr/bin/env bash
# tests/scripts/fit_graph_copy.sh SOURCE_DIR: validate/fit-graph-copy.sh on made-up runs,
# against a value worked out by hand.
#
# A profile with d2h_pinned_latency=1.5us and three runs whose pinned and none medians
# differ by 5.0, 6.0 and 4.0 us (each run's pageable line and means are noise the fit
# ignores): the median difference 5.0 us, less 1.5: graph_engine_gap=3.500us. A run
# without its none line fails, before anything is printed.
set -euo pipefail
src=${1:?usage: fit_graph_copy.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '[copy]\nd2h_pinned_latency=1.5us\n' > "$work/p.ini"
printf 'variant pageable 30.00 31.00\nvariant pinned 20.00 99.00\nvariant none 15.00 1.00\n' > "$work/run1.out"
printf 'variant pageable 10.00 10.00\nvariant pinned 21.50 20.00\nvariant none 15.50 15.00\n' > "$work/run2.out"
printf 'variant pinned 18.25 18.00\nvariant none 14.25 14.00\n' > "$work/run3.out"
got=$(bash "$src/validate/fit-graph-copy.sh" "$work/p.ini" "$work"/run*.out | tail -1)
if [ "$got" != "graph_engine_gap=3.500us" ]; then
  echo "FAIL: got $got, want graph_engine_gap=3.500us"
  exit 1
fi
printf 'variant pinned 18.25 18.00\n' > "$work/run4.out"
if bash "$src/validate/fit-graph-copy.sh" "$work/p.ini" "$work/run4.out" > /dev/null 2>&1; then
  echo "FAIL: a run without its none variant was accepted"
  exit 1
fi
# nor with good runs after it, and then nothing is printed: no key from the
# runs that were read
status=0
bash "$src/validate/fit-graph-copy.sh" "$work/p.ini" "$work/run4.out" "$work/run1.out" > "$work/out" 2> /dev/null \
  || status=$?
if [ "$status" -ne 2 ] || [ -s "$work/out" ]; then
  echo "FAIL: a run without its none variant before a good one: exit $status, printed $(cat "$work/out")"
  exit 1
fi
echo "fit-graph-copy: the value worked out by hand"
