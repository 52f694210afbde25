#!/bin/bash
# rederive-real.sh: the recordings of validate/results/<gpu>/real/ converted again from their raw logs, without the GPU.
#
# Usage (from the repository root, after building streamsim-validate):
#   validate/rederive-real.sh RESULTS_DIR [OUT_DIR]
#   e.g. validate/rederive-real.sh validate/results/h100/real
# For each RESULTS_DIR/<program>.log.gz it runs
#   streamsim-validate --record <program>.sched --csv <program>.measured.csv --log <program>.log
# with --device PROFILE and --connections N, the profile of the GPU it was
# recorded on and the connections it ran with, as the recording's schedule
# names them ("# GPU: ...; profile h100", `connections 8`), and writes both
# into OUT_DIR (default: RESULTS_DIR itself), gzipped when over 100 KB as
# the recordings are (<program>.sched.gz, <program>.measured.csv.gz), in
# place of the other form. What the log does not hold is kept from the
# recording: the schedule's first lines (the command, the GPU, the date)
# and the timeline's metadata lines; the timeline's `line` column follows
# the schedule's lines. $VALIDATE (default: build/validate/streamsim-validate);
# $RECORDER_GAP, when set, goes to --recorder-gap (the schedules then predict
# the programs without the recorder: validate/README.md, "Recording").
# Exit status: 0, 2 for bad usage or a log the converter refuses, 3 for a
# missing binary or file.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: validate/rederive-real.sh RESULTS_DIR [OUT_DIR]" >&2
  exit 2
fi
dir=$1
out=${2:-$1}
VALIDATE=${VALIDATE:-build/validate/streamsim-validate}
[ -d "$dir" ] || { echo "rederive-real.sh: no folder $dir" >&2; exit 3; }
[ -x "$VALIDATE" ] || { echo "rederive-real.sh: no binary $VALIDATE (set VALIDATE)" >&2; exit 3; }
mkdir -p "$out"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# old FILE: the recording's FILE or FILE.gz, unpacked, on standard output.
old() {
  if [ -f "$1" ]; then cat "$1"; elif [ -f "$1.gz" ]; then gunzip -c "$1.gz"; else
    echo "rederive-real.sh: no $1 (nor $1.gz)" >&2; exit 3; fi
}

# put FILE NAME: FILE into OUT_DIR as NAME, or as NAME.gz when over 100 KB.
put() {
  if [ "$(wc -c < "$1")" -gt 102400 ]; then
    gzip -9 -n -c "$1" > "$out/$2.gz"
    rm -f "$out/$2"
  else
    cp "$1" "$out/$2"
    rm -f "$out/$2.gz"
  fi
}

for log_gz in "$dir"/*.log.gz; do
  name=$(basename "$log_gz" .log.gz)
  gunzip -c "$log_gz" > "$work/$name.log"
  old "$dir/$name.sched" > "$work/$name.old.sched"
  old "$dir/$name.measured.csv" > "$work/$name.old.csv"
  device=$(sed -n 's/^# GPU: .*; profile \([a-z0-9_.-]*\)$/\1/p' "$work/$name.old.sched" | head -n 1)
  connections=$(sed -n 's/^connections \([0-9]*\)$/\1/p' "$work/$name.old.sched" | head -n 1)
  status=0
  "$VALIDATE" --record "$work/$name.sched" --csv "$work/$name.csv" --log "$work/$name.log" \
    ${device:+--device "$device"} ${connections:+--connections "$connections"} \
    ${RECORDER_GAP:+--recorder-gap "$RECORDER_GAP"} \
    2> "$work/$name.err" || status=$?
  if [ "$status" -ne 0 ]; then
    cat "$work/$name.err" >&2
    exit "$status"
  fi
  # The recording's header: its comment lines before the converter's own
  # ("# Kernel times are ..."), but for an earlier run of this script's line.
  awk '/^# Kernel times are /{ exit } !/^# Converted again from /' "$work/$name.old.sched" \
    > "$work/$name.head"
  head_lines=$(wc -l < "$work/$name.head")
  # The conversion's header lines before its own comments ("# Converted by", "# Date").
  skip=$(awk '/^# Kernel times are /{ print NR - 1; exit }' "$work/$name.sched")
  {
    cat "$work/$name.head"
    echo "# Converted again from $name.log.gz without the GPU (validate/rederive-real.sh)."
    tail -n +"$((skip + 1))" "$work/$name.sched"
  } > "$work/$name.new.sched"
  # Every op line moved by the same number of lines (all ops come after the header).
  shift=$((head_lines + 1 - skip))
  {
    grep '^#' "$work/$name.old.csv"
    grep -v '^#' "$work/$name.csv" | awk -F, -v OFS=, -v d="$shift" 'NR > 1 { $2 += d } { print }'
  } > "$work/$name.new.csv"
  put "$work/$name.new.sched" "$name.sched"
  put "$work/$name.new.csv" "$name.measured.csv"
  echo "$name: $(sed 's/^streamsim-validate: [^:]*: //' "$work/$name.err")"
done
