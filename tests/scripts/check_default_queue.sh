#!/usr/bin/env bash
# tests/scripts/check_default_queue.sh SOURCE_DIR: validate/check-default-queue.sh on the
# committed output of validate/examples/default_queue.cu, against answers worked out by hand.
#
# The rule gives sj with (K + j) mod C = 0: with C = 4, K = 3 that is s1 ((3 + 1) mod 4 =
# 0); with C = 8, K = 3 none of j = 1..4 (4..7 are not multiples of 8); with C = 2, K = 1
# s1 and s3 both qualify and the last, s3, is the one on connection 0. The H100's file has
# 43 lines with "joined:", each as the rule says (validate/results/h100/connections-more/
# MANIFEST.md), so "43 of 43" and exit 0. The same file with its C = 4, K = 3 line
# changed to joined:s2 must give DIFFERS on that line, "42 of 43" and exit 1; a file
# without such lines, exit 2.
set -euo pipefail
src=${1:?usage: check_default_queue.sh SOURCE_DIR}
script=$src/validate/check-default-queue.sh
data=$src/validate/results/h100/connections-more/default-queue.txt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
expect () { # expect WHAT GOT WANT
  if [ "$2" != "$3" ]; then echo "FAIL: $1: got '$2', want '$3'"; failed=1; fi
}

status=0
bash "$script" "$data" > "$work/out" || status=$?
expect "exit status" "$status" 0
expect "count" "$(tail -1 "$work/out")" "43 of 43 as the rule says"
expect "C=4 a k=3" "$(grep -m1 '^C=4 a k=3 ' "$work/out" | sed 's/.*  rule: //')" "s1  ok"
expect "C=8 a k=3" "$(grep -m1 '^C=8 a k=3 ' "$work/out" | sed 's/.*  rule: //')" "none  ok"
expect "C=2 a k=1" "$(grep -m1 '^C=2 a k=1 ' "$work/out" | sed 's/.*  rule: //')" "s3  ok"

sed '/^C=4 a k=3 /s/joined:s1$/joined:s2/' "$data" > "$work/changed.txt"
status=0
bash "$script" "$work/changed.txt" > "$work/out" || status=$?
expect "changed line: exit status" "$status" 1
expect "changed line: count" "$(tail -1 "$work/out")" "42 of 43 as the rule says"
expect "changed line: verdict" "$(grep -m1 '^C=4 a k=3 ' "$work/out" | sed 's/.*  rule: //')" "s1  DIFFERS"

status=0
printf 'nothing here\n' > "$work/empty.txt"
bash "$script" "$work/empty.txt" > /dev/null || status=$?
expect "no line: exit status" "$status" 2

[ "$failed" -eq 0 ] && echo "check-default-queue.sh: ok"
exit "$failed"
