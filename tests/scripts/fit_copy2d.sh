#!/usr/bin/env bash
# tests/scripts/fit_copy2d.sh SOURCE_DIR: validate/fit-copy2d.sh on a small made-up probe
# output and profile, against row rates worked out by hand.
#
# Profile: every bandwidth 4194304 B / 1 us = 4.194304e12 B/s, so 4 MiB's bytes take 1 us.
# H2D: the plain 4 MiB copy's runs 11, 10, 12 us (median 11); 16 B rows (262144) 535 us,
# 64 B rows (65536) 141 and 143 (median 142). Row times: (535 - 11 + 1) / 262144 us =
# 2.002716 ns, (142 - 11 + 1) / 65536 = 2.014160 ns; median of two, 2.008438 ns: 497.9 MHz.
# D2H: plain 10; only 64 B rows, 76.536 us: (76.536 - 10 + 1) / 65536 = 1.030518 ns:
# 970.4 MHz. D2D: plain 5; 16 B rows 267.144 us: (267.144 - 5 + 1) / 262144 = 1.003815
# ns: 996.2 MHz. Lines of other sizes and shapes, and stamps, are not read.
set -euo pipefail
src=${1:?usage: fit_copy2d.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/p.ini" <<'INI'
[copy]
h2d_pinned_bandwidth=4194304MB/s
d2h_pinned_bandwidth=4194.304GB/s
d2d_bandwidth=4.194304TB/s
INI
cat > "$work/run1.txt" <<'DATA'
stamps 4.1
copy 1d h2d 4194304 1 4194304 11
copy 1d h2d 4194304 1 4194304 10
copy 2d h2d 16 262144 4194304 535
copy 2d h2d 64 65536 4194304 141
copy 2d h2d 256 16384 4194304 999
copy packed h2d 64 65536 4194304 999
copy 2d h2d 16 16384 262144 999
DATA
cat > "$work/run2.txt" <<'DATA'
copy 1d h2d 4194304 1 4194304 12
copy 2d h2d 64 65536 4194304 143
copy 1d d2h 4194304 1 4194304 10
copy 2d d2h 64 65536 4194304 76.536
copy 1d d2d 4194304 1 4194304 5
copy 2d d2d 16 262144 4194304 267.144
DATA
got=$(bash "$src/validate/fit-copy2d.sh" "$work/p.ini" "$work/run1.txt" "$work/run2.txt" | grep -v '^#')
want='h2d_row_rate=497.9MHz
d2h_row_rate=970.4MHz
d2d_row_rate=996.2MHz'
if [ "$got" != "$want" ]; then
  printf 'fit-copy2d.sh gave:\n%s\nwanted:\n%s\n' "$got" "$want" >&2
  exit 1
fi
# a run without a plain 4 MiB copy of a direction is refused
grep -v ' 1d d2d ' "$work/run2.txt" > "$work/run3.txt"
if bash "$src/validate/fit-copy2d.sh" "$work/p.ini" "$work/run1.txt" "$work/run3.txt" > /dev/null 2> "$work/err"; then
  echo "fit-copy2d.sh accepted runs without a plain d2d copy" >&2
  exit 1
fi
grep -q "no 4 MiB d2d copy" "$work/err"
# a missing run is refused before anything is printed (exit 2)
status=0
out=$(bash "$src/validate/fit-copy2d.sh" "$work/p.ini" "$work/run1.txt" "$work/absent.txt" 2> "$work/err") \
  || status=$?
if [ "$status" -ne 2 ] || [ -n "$out" ] || ! grep -q "cannot read $work/absent.txt" "$work/err"; then
  echo "fit-copy2d.sh with a missing run: exit $status, printed: $out" >&2
  exit 1
fi
echo "fit-copy2d.sh: row rates as worked out by hand"
