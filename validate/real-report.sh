#!/bin/bash
# real-report.sh: the table of validate/results/<gpu>/real/REPORT.md, the recorded programs' regions predicted against measured.
#
# Usage (from the repository root, after building streamsim):
#   validate/real-report.sh [--predicted DIR] [--runs DIR]... [--update REPORT.md] RESULTS_DIR DEVICE
#   e.g. validate/real-report.sh --update validate/results/h100/real/REPORT.md \
#            validate/results/h100/real h100
# For each RESULTS_DIR/<program>.sched (or .sched.gz, gunzipped into a
# scratch folder, as is <program>.measured.csv.gz) it runs
#   streamsim predict <program>.sched --device DEVICE --csv <program>.predicted.csv
# with the calibrated profile alone (engines/profiles/DEVICE.ini; no per-run
# host costs), unless --predicted DIR holds <program>.predicted.csv already,
# then `streamsim compare --regions` against <program>.measured.csv, and
# prints one markdown row per program: its regions (all, and those measured
# 0.5 ms or more), the median |error| of all its regions and of those that
# hold GPU work (a region of host time alone is the recording's, copied), the
# median |wait part| (each region's error less its host part, compare's columns:
# what is left when the calls' costs before the closing op are taken out), its worst region of
# 0.5 ms or more and its worst region of any length (error, ops, kind,
# measured length), its makespan error, and how many `# not modelled`
# comments its schedule has; then how many programs meet issue 37's bounds.
# Each --runs DIR holds other recordings of the same programs
# (<program>.measured.csv or .csv.gz), which `streamsim compare --runs`
# reads: the table then gets a column with the region that is the worst of
# 0.5 ms or more, its shortest and longest over this recording and the runs
# that have it, and counts the programs whose worst region is within 5% or
# whose prediction of it lies within those lengths (the program's own
# spread); and a column with the median |error| where each region
# predicted within the lengths it measured over the runs counts as met
# (issue 37 lets a region miss by as much as the same region varies
# between runs).
# The same region is the one of the same kind (sync or elapsed) at the same
# place among them; a run with another number of regions of that kind has no
# match (ops of different runs of a program need not correspond), and so
# has a run where that region closed before it opened (its length 0 or less).
# With --update FILE the table replaces what FILE holds between the lines
# "<!-- real-report: begin -->" and "<!-- real-report: end -->".
# $STREAMSIM (default: build/bin/streamsim). Exit status: 0, or 2 for bad
# usage or input, 3 for a missing binary or file.
set -euo pipefail
SCRIPT_NAME=real-report.sh
. "$(dirname "$0")/script-lib.sh"

predicted=
update=
runs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --predicted) predicted=${2:?--predicted needs a folder}; shift 2 ;;
    --runs) runs+=("${2:?--runs needs a folder}"); shift 2 ;;
    --update) update=${2:?--update needs a file}; shift 2 ;;
    -*) echo "real-report.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
if [ $# -ne 2 ]; then
  echo "usage: validate/real-report.sh [--predicted DIR] [--runs DIR]... [--update REPORT.md] RESULTS_DIR DEVICE" >&2
  exit 2
fi
dir=$1
device=$2
[ -d "$dir" ] || { echo "real-report.sh: no folder $dir" >&2; exit 3; }
for r in "${runs[@]}"; do
  [ -d "$r" ] || { echo "real-report.sh: no folder $r" >&2; exit 3; }
done
STREAMSIM=${STREAMSIM:-build/bin/streamsim}
[ -x "$STREAMSIM" ] || { echo "real-report.sh: no streamsim binary $STREAMSIM (set STREAMSIM)" >&2; exit 3; }
export STREAMSIM_PROFILE_PATH=${STREAMSIM_PROFILE_PATH:-engines/profiles}
if [ -n "$update" ]; then
  [ -f "$update" ] || { echo "real-report.sh: no file $update" >&2; exit 3; }
  grep -q '^<!-- real-report: begin -->$' "$update" && grep -q '^<!-- real-report: end -->$' "$update" \
    || { echo "real-report.sh: $update has no real-report begin and end lines" >&2; exit 2; }
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# plain FILE: FILE, or FILE.gz unpacked into the scratch folder; prints the path.
plain() {
  if [ -f "$1" ]; then
    echo "$1"
  elif [ -f "$1.gz" ]; then
    gunzip -c "$1.gz" > "$work/$(basename "$1")"
    echo "$work/$(basename "$1")"
  else
    echo "real-report.sh: no $1 (nor $1.gz)" >&2
    exit 3
  fi
}

# worst LINE: "worst ...  +12.34% (region 3: ops 6 to 8, sync, predicted P ms, measured Q us)"
# as a table cell "+12.34% (ops 6-8, sync, Q us)".
worst() {
  sed -n 's/^worst[a-z ]* \([-+][0-9.]*%\) (region [0-9]*: ops \([0-9]*\) to \([0-9]*\), \([a-z]*\), predicted [0-9.]* [a-z]*s, measured \([0-9.]* [a-z]*s\))$/\1 (ops \2-\3, \4, \5)/p; s/^worst[a-z ]* none$/none/p' <<< "$1"
}

table=$work/table.md
{
  if [ ${#runs[@]} -eq 0 ]; then
    echo "| program | regions | of 0.5 ms or more | median \|error\| | the same over regions with GPU work | median \|wait part\| | worst of 0.5 ms or more | worst of any length | makespan error | not modelled |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: |"
  else
    echo "| program | regions | of 0.5 ms or more | median \|error\| | the same, a region inside its runs met | the same over regions with GPU work | median \|wait part\| | worst of 0.5 ms or more | the same region over the runs | worst of any length | makespan error | not modelled |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | --- | ---: | ---: |"
  fi
} > "$table"
# lower_median: the median of the numbers on standard input, one a line (the
# lower middle one of an even count, as compare's), as "N.NN%"; "-" for none.
lower_median() {
  sort -g | awk '{ v[++n] = $1 } END { if (n == 0) print "-"; else printf "%.2f%%\n", v[int((n + 1) / 2)] }'
}

# gpu_median PREDICTED COMPARE_OUTPUT: the median |error| of the regions that
# hold GPU work: a kernel, copy, memset or host function among their ops
# (after the op that opens them, up to the one that closes them, by
# PREDICTED's kinds); "-" when none does. The others hold only host time and
# waits, which a recording copies from the run.
gpu_median() {
  { grep -v '^#' "$1" | sed 's/^/K,/'; sed 's/^/R /' <<< "$2"; } | awk '
    /^K,/ { split($0, f, ","); if (f[2] ~ /^[0-9]+$/) kind[f[2] + 0] = f[5]; next }
    $1 == "R" && $2 ~ /^[0-9]+$/ && $8 ~ /%$/ {
      gpu = 0
      for (op = $4 + 1; op <= $5; op++)
        if (kind[op] ~ /^(kernel|h2d|d2h|d2d|memcpy|memset|hostfn)$/) gpu = 1
      if (gpu) { e = $8; sub(/%$/, "", e); sub(/^[-+]/, "", e); print e + 0 }
    }' | lower_median
}

# wait_median COMPARE_OUTPUT: the median |wait part| of its regions: each
# region's error less its host part, the part until the host issued the op
# that closes the region (compare's `host` column: the calls' costs, and
# blocking calls' waits, on the way); "-" when there is no region.
wait_median() {
  awk '$1 ~ /^[0-9]+$/ && ($2 == "sync" || $2 == "elapsed") && $9 ~ /%$/ {
      w = $9; sub(/%$/, "", w); sub(/^[-+]/, "", w); print w + 0 }' <<< "$1" | lower_median
}

# run_args NAME: "--runs FILE" for each --runs folder that has NAME's
# measured timeline (gzipped or not), one word a line.
run_args() {
  local r
  for r in "${runs[@]}"; do
    if [ -f "$r/$1.measured.csv" ]; then
      printf -- '--runs\n%s\n' "$r/$1.measured.csv"
    elif [ -f "$r/$1.measured.csv.gz" ]; then
      printf -- '--runs\n%s\n' "$r/$1.measured.csv.gz"
    fi
  done
}

# spread INDEX COMPARE_OUTPUT: "SHORTEST to LONGEST us (N runs); predicted
# P: inside|outside" for region INDEX, from compare --runs' columns (its
# length here and in the runs that have it); "no other run" when none has.
spread() {
  awk -v i="$1" '$1 == i && $2 ~ /^(sync|elapsed)$/ {
      if (NF < 13 || $12 == 0) { print "no other run"; exit }
      printf "%s to %s us (%d runs); predicted %s: %s\n", $10, $11, $12 + 1, $5, $13; exit }' <<< "$2"
}

programs=0
median_ok=0
gpu_ok=0
wait_ok=0
worst_ok=0
spread_ok=0
runs_median_ok=0
for sched_path in $(ls "$dir" | sed -n 's/\.sched\(\.gz\)\{0,1\}$//p' | sort -u); do
  name=$sched_path
  sched=$(plain "$dir/$name.sched")
  measured=$(plain "$dir/$name.measured.csv")
  if [ -n "$predicted" ]; then
    pred=$predicted/$name.predicted.csv
    [ -f "$pred" ] || { echo "real-report.sh: no $pred" >&2; exit 3; }
  else
    pred=$work/$name.predicted.csv
    "$STREAMSIM" predict "$sched" --device "$device" --csv "$pred" > /dev/null
  fi
  status=0
  mapfile -t others < <(run_args "$name")
  out=$("$STREAMSIM" compare "$pred" "$measured" --regions --max-error 1e9 "${others[@]}") || status=$?
  if [ "$status" -gt 1 ]; then
    echo "real-report.sh: streamsim compare failed on $name" >&2
    exit 2
  fi
  makespan=$(script_compare_field "$out" makespan)
  regions=$(script_compare_field "$out" regions)
  long=$(script_compare_field "$out" long)
  median=$(script_compare_field "$out" median)
  gpu=$(gpu_median "$pred" "$out")
  wait=$(wait_median "$out")
  worst_any=$(worst "$(grep '^worst  ' <<< "$out" || true)")
  worst_long=$(worst "$(grep '^worst long' <<< "$out" || true)")
  not_modelled=$(grep -c '^# not modelled' "$sched" || true)
  same=
  if [ ${#runs[@]} -gt 0 ]; then
    same=none
    over_runs=$(sed -n 's/^over runs .*; median |error| \([0-9.]*%\) with those counted as met.*/\1/p' <<< "$out")
    over_runs=${over_runs:-${median:--}}
    index=$(sed -n 's/^worst long *[-+][0-9.]*% (region \([0-9]*\): .*/\1/p' <<< "$out")
    if [ -n "$index" ]; then
      same=$(spread "$index" "$out")
    fi
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$regions" "$long" "${median:--}" \
      "$over_runs" "$gpu" "$wait" "${worst_long:--}" "$same" "${worst_any:--}" "$makespan" "$not_modelled" >> "$table"
    if [ "$over_runs" != - ] && awk -v m="${over_runs%\%}" 'BEGIN { exit !(m <= 2) }'; then
      runs_median_ok=$((runs_median_ok + 1))
    fi
  else
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$regions" "$long" "${median:--}" \
      "$gpu" "$wait" "${worst_long:--}" "${worst_any:--}" "$makespan" "$not_modelled" >> "$table"
  fi
  programs=$((programs + 1))
  # issue 37's bounds: median <= 2%, worst of 0.5 ms or more <= 5% (none passes)
  if [ -n "$median" ] && awk -v m="${median%\%}" 'BEGIN { exit !(m <= 2) }'; then
    median_ok=$((median_ok + 1))
  fi
  if [ "$gpu" = - ] || awk -v m="${gpu%\%}" 'BEGIN { exit !(m <= 2) }'; then
    gpu_ok=$((gpu_ok + 1))
  fi
  if [ "$wait" = - ] || awk -v m="${wait%\%}" 'BEGIN { exit !(m <= 2) }'; then
    wait_ok=$((wait_ok + 1))
  fi
  w=$(sed -n 's/^[-+]\([0-9.]*\)%.*/\1/p' <<< "$worst_long")
  if [ -z "$w" ] || awk -v w="$w" 'BEGIN { exit !(w <= 5) }'; then
    worst_ok=$((worst_ok + 1))
    spread_ok=$((spread_ok + 1))
  else
    if [[ "$same" == *": inside" ]]; then
      spread_ok=$((spread_ok + 1))
    fi
  fi
done
{
  echo
  echo "$programs programs; region error median <= 2%: $median_ok; worst region of 0.5 ms or more <= 5% (or none): $worst_ok."
  echo "Region error median <= 2% over the regions with GPU work (or none): $gpu_ok."
  echo "Median |wait part| <= 2% (each region's error less what the host's calls before its closing op made of it; or none): $wait_ok."
  if [ ${#runs[@]} -gt 0 ]; then
    echo "Worst region of 0.5 ms or more <= 5% (or none), or predicted within the lengths the same region measured over the runs: $spread_ok."
    echo "Region error median <= 2% where a region predicted within the lengths it measured over the runs counts as met: $runs_median_ok."
  fi
} >> "$table"

if [ -n "$update" ]; then
  awk -v table="$table" '
    /^<!-- real-report: end -->$/ { while ((getline line < table) > 0) print line; skip = 0 }
    !skip { print }
    /^<!-- real-report: begin -->$/ { skip = 1 }' "$update" > "$work/updated"
  cat "$work/updated" > "$update"
else
  cat "$table"
fi
