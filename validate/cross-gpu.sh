#!/usr/bin/env bash
# validate/cross-gpu.sh: programs recorded on one GPU, predicted on another, against what that other GPU measured, region by region.
#
#   validate/cross-gpu.sh FROM TO PROGRAM...      (e.g. h100 h200 dcgan matrixMul)
#
# For each PROGRAM, three schedules are predicted with `streamsim predict -d TO`
# and compared with the timeline the same program measured on TO
# (validate/results/TO/real/PROGRAM.measured.csv, or .csv.gz), region by region:
#   recorded: the schedule recorded on FROM (validate/results/FROM/real/
#     PROGRAM.sched, or .sched.gz), its kernels' bare times marked as FROM's
#     (`time=20us` becomes `time=FROM:20us`, as a schedule says where its times
#     were measured), so that predict carries each to TO by what bounds the
#     kernel (engines/MODEL.md). Its host gaps are FROM's machine's.
#   kernels: the schedule recorded on TO with each kernel's time replaced by the
#     time the same kernel (the k-th) took on FROM, marked as FROM's: the GPU's
#     change alone, the host as TO's machine ran it.
#   bare: the same with FROM's kernel times left bare, used on TO as they are:
#     what predicting without carrying gives. The two recordings' ops differ (host gaps fall
# differently), but their synchronizations are the same calls in the same order,
# so a region here is from the end of the k-th synchronization (a `sync`, or a
# blocking copy to the host) to the end of the next, in each timeline; its error is
# (predicted - measured) / measured. Prints one row per program: the regions,
# and for each schedule the median |error| and the worst region of 0.5 ms or
# more; then the same over all regions of all programs. With FROM_ZERO=1 the
# first region runs from time 0 to the first synchronization's end: for
# schedules and timelines imported from traces (`streamsim import
# --timeline`), which all start at the traced region's start.
#
# STREAMSIM (default build/bin/streamsim) is the binary used; RESULTS (default
# validate/results) the folder of the recordings.
set -euo pipefail
cd "$(dirname "$0")/.."
streamsim=${STREAMSIM:-build/bin/streamsim}
results=${RESULTS:-validate/results}
[ $# -ge 3 ] || { echo "usage: $0 FROM TO PROGRAM..." >&2; exit 2; }
from=$1 to=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# cat FILE or FILE.gz
open_either () {
  if [ -f "$1" ]; then cat "$1"; elif [ -f "$1.gz" ]; then gunzip -c "$1.gz"; else
    echo "$0: neither $1 nor $1.gz" >&2; return 1; fi
}

# the ends of the synchronizations of a timeline CSV, in op order (after a 0
# with FROM_ZERO=1)
sync_ends () {
  [ "${FROM_ZERO:-0}" = 1 ] && echo 0
  awk -F, '/^#/ || $1 == "op" { next }
           $4 == "sync" || ($4 == "memcpy" && $5 == "d2h") { print $9 }' "$1"
}

# regions PREDICTED_ENDS MEASURED_ENDS: "measured_ns error_percent" per region
regions () {
  paste -d' ' "$1" "$2" | awk 'NR > 1 && NF == 2 {
      m = $2 - pm; p = $1 - pp; if (m < 1) m = 1
      printf "%d %.4f\n", m, 100 * (p - m) / m }
    { pp = $1; pm = $2 }'
}

# summary REGIONS_FILE: "count count_over median_abs worst_over"
summary () {
  local n med
  n=$(wc -l < "$1")
  if [ "$n" -eq 0 ]; then echo "0 0 - -"; return; fi
  med=$(awk '{ print ($2 < 0 ? -$2 : $2) }' "$1" | sort -g \
          | awk -v n="$n" 'NR == int ((n + 1) / 2) { printf "%.2f%%", $1 }')
  awk -v n="$n" -v med="$med" '{ a = $2 < 0 ? -$2 : $2
         if ($1 >= 500000) { n5++; if (a >= w) { w = a; ws = $2 } } }
       END { printf "%d %d %s %s\n", n, n5, med, n5 ? sprintf ("%+.2f%%", ws) : "none" }' "$1"
}

# kernel_times SCHEDULE: each kernel's time= value, in order, without the
# device a recording names (time=h100:20us gives 20us)
kernel_times () {
  sed -n -E 's/^[[:space:]]*kernel .* time=([A-Za-z][A-Za-z0-9_.-]*:)?([^ ]+).*/\2/p' "$1"
}

# with_times SCHEDULE TIMES PREFIX: SCHEDULE with its k-th kernel's time= the
# k-th line of TIMES, written PREFIX:TIME
with_times () {
  awk -v prefix="$3" 'NR == FNR { t[NR] = $1; next }
       /^[[:space:]]*kernel / && match ($0, / time=[^ ]+/) {
         k++; $0 = substr ($0, 1, RSTART - 1) " time=" prefix t[k] substr ($0, RSTART + RLENGTH) }
       { print }' "$2" "$1"
}

printf '| program | regions | of 0.5 ms or more | recorded: median | worst | kernels: median | worst | bare: median | worst |\n'
printf '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n'
for how in recorded kernels bare; do : > "$work/all.$how"; done
for prog in "$@"; do
  open_either "$results/$from/real/$prog.sched" > "$work/from.sched"
  open_either "$results/$to/real/$prog.sched" > "$work/to.sched"
  sed -E "s/( time=)([0-9][0-9.]*[a-z]+)( |\$)/\1$from:\2\3/" "$work/from.sched" > "$work/recorded.sched"
  kernel_times "$work/from.sched" > "$work/from.times"
  same_kernels=yes
  [ "$(wc -l < "$work/from.times")" = "$(kernel_times "$work/to.sched" | wc -l)" ] || same_kernels=no
  with_times "$work/to.sched" "$work/from.times" "$from:" > "$work/kernels.sched"
  with_times "$work/to.sched" "$work/from.times" "" > "$work/bare.sched"
  open_either "$results/$to/real/$prog.measured.csv" > "$work/measured.csv"
  sync_ends "$work/measured.csv" > "$work/measured.ends"
  row="| $prog"
  for how in recorded kernels bare; do
    if [ "$how" != recorded ] && [ "$same_kernels" = no ]; then
      row="$row | kernels differ | "
      continue
    fi
    "$streamsim" predict "$work/$how.sched" -d "$to" -q --csv "$work/$how.csv" 2> /dev/null
    sync_ends "$work/$how.csv" > "$work/$how.ends"
    if [ "$(wc -l < "$work/$how.ends")" != "$(wc -l < "$work/measured.ends")" ]; then
      echo "$0: $prog: $(wc -l < "$work/$how.ends") synchronizations predicted, $(wc -l < "$work/measured.ends") measured" >&2
      exit 1
    fi
    regions "$work/$how.ends" "$work/measured.ends" > "$work/$how.regions"
    cat "$work/$how.regions" >> "$work/all.$how"
    read -r n n5 med worst <<< "$(summary "$work/$how.regions")"
    [ "$how" = recorded ] && row="$row | $n | $n5"
    row="$row | $med | $worst"
  done
  echo "$row |"
done
row="| all"
for how in recorded kernels bare; do
  read -r n n5 med worst <<< "$(summary "$work/all.$how")"
  [ "$how" = recorded ] && row="$row | $n | $n5"
  row="$row | $med | $worst"
done
echo "$row |"
