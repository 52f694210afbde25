#!/usr/bin/env bash
# tests/scripts/predict_rounds.sh SOURCE_DIR STREAMSIM: validate/predict-rounds.sh on the
# committed copy-queues rounds of the H100, its predictions written to a scratch folder.
#
# Expected values, computed by hand from the committed CSVs (the largest end_ns of each):
# copies-held-large, round 1, measured 1,250,504 ns. With the profile as shipped the
# prediction (copies-held-large.round1.shared.predicted.csv) ends at 1,248,777 ns:
# (1248777 - 1250504) / 1250504 = -0.14%. With a copy queue per connection ("own") the
# copies of s5 and s9 no longer wait behind s1's held D2H, and it ends with that D2H at
# 1,092,485 ns: -12.64%. Every round of the folder gives one line per rule: 3 schedules x
# 3 rounds x 2 rules = 18. Nothing may be written into validate/results/.
set -euo pipefail
src=${1:?usage: predict_rounds.sh SOURCE_DIR STREAMSIM}
streamsim=${2:?}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
expect () { # expect WHAT GOT WANT
  if [ "$2" != "$3" ]; then echo "FAIL: $1: got '$2', want '$3'"; failed=1; fi
}

cd "$src"
before=$(ls -l --time-style=+%s.%N validate/results/h100/copy-queues | md5sum)
STREAMSIM=$streamsim PREDICTED_DIR=$work validate/predict-rounds.sh h100 copy-queues shared own \
  '[queues]\ndefault_copy_connections = 8' > "$work/out"
expect "lines" "$(wc -l < "$work/out")" 18
expect "shared, round 1" "$(grep '^h100 copies-held-large 1 shared ' "$work/out" | cut -d' ' -f5)" -0.14
expect "own, round 1" "$(grep '^h100 copies-held-large 1 own ' "$work/out" | cut -d' ' -f5)" -12.64
[ -s "$work/copies-held-large.round1.own.predicted.csv" ] || { echo "FAIL: no prediction in PREDICTED_DIR"; failed=1; }
expect "the results folder untouched" "$(ls -l --time-style=+%s.%N validate/results/h100/copy-queues | md5sum)" "$before"

[ "$failed" -eq 0 ] && echo "predict-rounds.sh: ok"
exit "$failed"
