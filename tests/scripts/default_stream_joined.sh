#!/usr/bin/env bash
# tests/scripts/default_stream_joined.sh SOURCE_DIR: validate/default-stream-joined.sh on
# committed measurements, against answers worked out by hand from their rows.
#
# validate/results/h100/connections-more/connections-default-eight.round1.measured.csv:
# the kernel labelled default starts at 1,108,665 ns; of the behind-sK kernels, behind-s7
# starts nearest, at 1,108,137 ns (528 ns apart, under the 5 us limit; the next nearest,
# behind-s3, at 1,298,461, is 190 us away), so "s7", and 1108.665 us rounds to 1109.
# helper-only/connections-default-first.w0.measured.csv: default-again starts at
# 1,573,416 ns and behind-s4 at 1,572,808 ns (608 ns apart), so "s4 1573".
# The same rows with the columns in another order must give the same answer (the script
# reads columns by their header names), and a file with no default kernel exits 2.
set -euo pipefail
src=${1:?usage: default_stream_joined.sh SOURCE_DIR}
script=$src/validate/default-stream-joined.sh
data=$src/validate/results/h100/connections-more
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
expect () { # expect WHAT GOT WANT
  if [ "$2" != "$3" ]; then echo "FAIL: $1: got '$2', want '$3'"; failed=1; fi
}

expect "connections-default-eight round 1" \
  "$(bash "$script" "$data/connections-default-eight.round1.measured.csv")" \
  "connections-default-eight.round1 s7 1109"
expect "connections-default-first w0" \
  "$(bash "$script" "$data/helper-only/connections-default-first.w0.measured.csv")" \
  "connections-default-first.w0 s4 1573"

# label and start_ns moved: the 13th and 8th columns become the 1st and 2nd
awk -F, -v OFS=, '/^#/ { print; next } { print $13, $8, $1, $2, $3, $4, $5, $6, $7, $9, $10, $11, $12, $14 }' \
  "$data/connections-default-eight.round1.measured.csv" > "$work/reordered.measured.csv"
expect "columns reordered" "$(bash "$script" "$work/reordered.measured.csv")" "reordered s7 1109"

grep -v ',default,$' "$data/connections-default-eight.round1.measured.csv" > "$work/nodefault.measured.csv"
status=0
bash "$script" "$work/nodefault.measured.csv" > /dev/null 2>&1 || status=$?
expect "no default kernel: exit status" "$status" 2

[ "$failed" -eq 0 ] && echo "default-stream-joined.sh: ok"
exit "$failed"
