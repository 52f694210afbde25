#!/usr/bin/env bash
# tests/real_report.sh: validate/real-report.sh on tests/real-report/, whose table was worked out by hand (its README).
#
# Usage: tests/real_report.sh ROOT STREAMSIM. Checks the printed table, the
# same table written into a report between its marker lines (the text around
# them kept), the column of other runs (--runs), and the exit status of bad usage (2) and a missing file (3).
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

# Other runs (README: runs-1 matches a's timed interval, 950 us, runs-2 has none
# to match, runs-3 measured it 1050 us, which leaves the prediction outside).
validate/real-report.sh --predicted "$dir/predicted" --runs "$dir/runs-1" --runs "$dir/runs-2" \
  "$dir/results" h100 > "$work/runs.md"
diff -u "$dir/expected-runs.md" "$work/runs.md"
validate/real-report.sh --predicted "$dir/predicted" --runs "$dir/runs-3" "$dir/results" h100 > "$work/runs3.md"
grep -qF '| 1050.0 to 1105.0 us (2 runs); predicted 1000.0: outside |' "$work/runs3.md" \
  || { echo "runs-3: the timed interval is not 1050.0 to 1105.0 us, outside"; cat "$work/runs3.md"; exit 1; }
grep -qF 'measured over the runs: 1.' "$work/runs3.md" \
  || { echo "runs-3: a counted among the programs within their runs"; exit 1; }
grep -qF '| a | 3 | 2 | 9.50% | 9.50% |' "$work/runs3.md" \
  || { echo "runs-3: a's median with regions inside their runs met is not 9.50%"; cat "$work/runs3.md"; exit 1; }
# runs-4 closed a's timed interval before it opened (-50 us): no interval, no
# match, so with runs-3 the prediction stays outside (README).
validate/real-report.sh --predicted "$dir/predicted" --runs "$dir/runs-3" --runs "$dir/runs-4" \
  "$dir/results" h100 > "$work/runs4.md"
grep -qF '| 1050.0 to 1105.0 us (2 runs); predicted 1000.0: outside |' "$work/runs4.md" \
  || { echo "runs-4: a region of negative length taken as a run's"; cat "$work/runs4.md"; exit 1; }

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
