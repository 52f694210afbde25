#!/usr/bin/env bash
# tests/real_report.sh: validate/real-report.sh on tests/real-report/, whose table was worked out by hand (its README).
#
# Usage: tests/real_report.sh ROOT STREAMSIM. Checks the printed table, the
# same table written into a report between its marker lines (the text around
# them kept), and the exit status of bad usage (2) and a missing file (3).
set -euo pipefail
root=$1
export STREAMSIM=$2
cd "$root"
dir=tests/real-report
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

validate/real-report.sh --predicted "$dir/predicted" "$dir/results" h100 > "$work/table.md"
diff -u "$dir/expected.md" "$work/table.md"

printf '# Report\n\nbefore\n<!-- real-report: begin -->\nold table\n<!-- real-report: end -->\nafter\n' \
  > "$work/REPORT.md"
validate/real-report.sh --predicted "$dir/predicted" --update "$work/REPORT.md" "$dir/results" h100
{ printf '# Report\n\nbefore\n<!-- real-report: begin -->\n'; cat "$dir/expected.md"
  printf '<!-- real-report: end -->\nafter\n'; } > "$work/want.md"
diff -u "$work/want.md" "$work/REPORT.md"

status=0
validate/real-report.sh "$dir/results" > /dev/null 2>&1 || status=$?
[ "$status" -eq 2 ] || { echo "bad usage gave exit status $status, not 2"; exit 1; }
status=0
validate/real-report.sh --predicted "$work" "$dir/results" h100 > /dev/null 2>&1 || status=$?
[ "$status" -eq 3 ] || { echo "a missing predicted timeline gave exit status $status, not 3"; exit 1; }
printf 'no markers\n' > "$work/plain.md"
status=0
validate/real-report.sh --predicted "$dir/predicted" --update "$work/plain.md" "$dir/results" h100 \
  > /dev/null 2>&1 || status=$?
[ "$status" -eq 2 ] || { echo "a report without markers gave exit status $status, not 2"; exit 1; }
echo "real_report: ok"
