#!/usr/bin/env bash
# tests/scripts/fit_poll.sh SOURCE_DIR: validate/fit-poll.sh on made-up probe output,
# against values worked out by hand.
#
# Two files. Idle rows 200, 300, 400 ns (stream) and 250, 9000 ns (event): the
# median of the five is 300 ns. `after` rows with EVERY_US 0: 2000, 2100, 1900 and
# 5000 ns: median (2000 + 2100) / 2 = 2050 ns; rows with EVERY_US 10 (8000 ns) are
# left out. So query 0.3 us, query_latency 2050 - 1.5 * 300 = 1600 ns = 1.6 us. Files
# without `after` rows of EVERY_US 0 fail.
set -euo pipefail
src=${1:?usage: fit_poll.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'gpu made-up\nclock 0 100\nidle stream 0 200\nidle stream 1 300\nafter stream 0 0 2000 700\nafter stream 0 1 2100 690\nafter stream 10 0 8000 20\nmedian idle stream 250\n' > "$work/a.txt"
printf 'idle stream 0 400\nidle event 0 250\nidle event 1 9000\nafter event 0 0 1900 800\nafter event 0 1 5000 810\nsync stream 0 1200\n' > "$work/b.txt"
got=$(bash "$src/validate/fit-poll.sh" "$work/a.txt" "$work/b.txt")
want='[host] query=0.3us
[latency] query_latency=1.6us'
[ "$got" = "$want" ] || { echo "got:"; echo "$got"; echo "want:"; echo "$want"; exit 1; }
printf 'idle stream 0 200\nafter stream 10 0 8000 20\n' > "$work/c.txt"
if bash "$src/validate/fit-poll.sh" "$work/c.txt" 2>/dev/null; then echo "no EVERY_US 0 rows: fitted anyway"; exit 1; fi
echo ok
