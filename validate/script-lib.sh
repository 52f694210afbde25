# script-lib.sh: what the fit and table scripts beside it share, sourced by them: their arguments' checks, a profile key's value, and medians in awk.
#
# A script sets SCRIPT_NAME (its file name, for messages) before sourcing it.
# Every failure here prints "SCRIPT_NAME: ..." on standard error and exits 2,
# before the script has printed anything.

# script_usage MIN USAGE "$@": "usage: validate/SCRIPT_NAME USAGE" unless there
# are at least MIN arguments.
script_usage() {
  local min=$1 usage=$2
  shift 2
  [ $# -ge "$min" ] || { echo "usage: validate/$SCRIPT_NAME $usage" >&2; exit 2; }
}

# script_readable FILE...: every FILE can be read.
script_readable() {
  local f
  for f in "$@"; do
    [ -r "$f" ] || { echo "$SCRIPT_NAME: cannot read $f" >&2; exit 2; }
  done
}

# script_args MIN USAGE "$@": script_usage, then script_readable of every
# argument: the opening of a script whose arguments are all files.
script_args() {
  script_usage "$@"
  shift 2
  script_readable "$@"
}

# script_profile_args USAGE "$@": script_args for a script called as
# `PROFILE.ini FILE...` (at least one FILE); sets `profile` to the first
# argument and the array `files` to the others.
script_profile_args() {
  script_args 2 "$@"
  profile=$2
  files=("${@:3}")
}

# script_key PROFILE KEY UNIT: the number of PROFILE's `KEY=NUMBERUNIT` line
# (the first), or nothing where it has none in that unit (UNIT a sed
# pattern: `us`, `GB/s`).
script_key() {
  sed -n "s|^$2 *= *\([0-9.]*\)$3 *$|\1|p" "$1" | head -n 1
}

# script_need PROFILE KEY UNIT: script_key's number, or a message naming the key
# and exit 2 where PROFILE has none (as `x=$(script_need ...)` under set -e,
# the script exits with it).
script_need() {
  local v
  v=$(script_key "$@")
  [ -n "$v" ] || { echo "$SCRIPT_NAME: $1 lacks $2 in $3" >&2; exit 2; }
  echo "$v"
}

# script_compare_field OUTPUT FIELD: one figure of `streamsim compare
# --regions`' summary: makespan (its error, "-0.84%"), regions, long (the
# regions of --region-min or more), median (|error| over all regions),
# median_long (over the long ones), worst_long (the line's text after its
# name); nothing where the output has none.
script_compare_field() {
  case $2 in
    makespan) sed -n 's/^makespan .*error \([-+][0-9.]*%\)$/\1/p' ;;
    regions) sed -n 's/^regions *\([0-9]*\) (\([0-9]*\) of .*/\1/p' ;;
    long) sed -n 's/^regions *\([0-9]*\) (\([0-9]*\) of .*/\2/p' ;;
    median) sed -n 's/^median *|error| \([0-9.]*%\) over all regions.*/\1/p' ;;
    median_long) sed -n 's/^median .*, \([0-9.]*%\) over those of .*/\1/p' ;;
    worst_long) sed -n 's/^worst long *//p' ;;
    *) echo "$SCRIPT_NAME: no compare field $2" >&2; exit 2 ;;
  esac <<< "$1"
}

# Awk functions, to put before a script's own program text:
#   sort_values(a, k)    sorts a[1..k] ascending, in place
#   median(a, k)         the median of a[1..k] (the mean of the middle two of
#                        an even count), sorting it
#   lower_median(a, k)   the lower middle one of an even count, sorting it
#   median_at(v, key, n) the median of v[key, 1..n], leaving v as it is
# k and n are at least 1.
SCRIPT_MEDIAN_AWK='
  function sort_values(a, k,   i, j, x) {
    for (i = 2; i <= k; i++) { x = a[i]; for (j = i - 1; j > 0 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
  }
  function median(a, k) { sort_values(a, k); return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }
  function lower_median(a, k) { sort_values(a, k); return a[int((k + 1) / 2)] }
  function median_at(v, key, n,   i, a) { for (i = 1; i <= n; i++) a[i] = v[key, i]; return median(a, n) }
'

# script_convert_twice LOG KIND TMP GPU VALIDATE STREAMSIM: the recorder log LOG (plain or
# gzipped) converted with GPU's profile and 8 connections as it is and without its KIND
# lines (`pages`, `buffer`: what older recorders did not log), each predicted with the
# profile alone: TMP/new.* and TMP/old.* (.log, .sched, .measured.csv, .pred.csv).
script_convert_twice() {
  local log=$1 kind=$2 tmp=$3 gpu=$4 validate=$5 streamsim=$6 v
  zcat -f "$log" > "$tmp/new.log"
  grep -v "^$kind" "$tmp/new.log" > "$tmp/old.log"
  for v in new old; do
    "$validate" --record "$tmp/$v.sched" --csv "$tmp/$v.measured.csv" --log "$tmp/$v.log" \
      --device "$gpu" --connections 8 > /dev/null 2>&1
    "$streamsim" predict "$tmp/$v.sched" --device "$gpu" --csv "$tmp/$v.pred.csv" > /dev/null
  done
}
