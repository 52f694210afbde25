#!/bin/bash
# self-timed-table.sh: what the corpus's samples that time themselves printed when run plain, under the recorder, and what streamsim predicts for the same interval.
#
# Usage: validate/self-timed-table.sh [--recorder-gap TIME] GPU PLAIN_DIR
# PLAIN_DIR holds, for each program below, PROGRAM.plainN.out (its output run
# alone, N = 1, 2, ...) and PROGRAM.rec.out (its output under
# `streamsim-validate --record`, in the same call). The corpus's recordings
# (validate/results/GPU/real/PROGRAM.{sched,measured.csv}[.gz], their .out and
# run2/PROGRAM.out) give the recorded runs' values and the prediction:
# `streamsim predict PROGRAM.sched --device GPU`, the same interval taken from
# `streamsim compare --regions`, divided as the program divides it:
#   matrixMul               Time= ... msec          first elapsed region / 300
#   globalToShmemAsyncCopy  Time= ... msec          first elapsed region / 100
#   transpose               Time = ... ms, 8 lines  the k-th elapsed region / 100
#   BlackScholes            BlackScholesGPU() time  first region / 512
#   MonteCarloMultiGPU      Total time (ms.)        first region
#   reduction               Time = ... s            median of the regions measured 0.1 to 0.5 ms
#   jacobiCudaGraphs        GPU Processing time     every region but the first, added up
# Prints one markdown row per value, in microseconds: plain runs, the recorded
# runs (this call's, the corpus recording's, its run2), the prediction, and
# the prediction's error against the plain runs' median and the recorded
# run's value. With --recorder-gap, the prediction is of the recording's log
# converted again with `streamsim-validate --record --recorder-gap TIME` (its
# host gaps less the recorder's own time) instead of PROGRAM.sched.
# $STREAMSIM (default build/bin/streamsim), $STREAMSIM_VALIDATE (default
# build/validate/streamsim-validate). Exit 2 on a missing file or a program
# whose output lacks its line.
set -euo pipefail
gap=
if [ "${1:-}" = "--recorder-gap" ]; then
  gap=${2:?--recorder-gap needs a TIME}
  shift 2
fi
[ $# -eq 2 ] || { echo "usage: validate/self-timed-table.sh [--recorder-gap TIME] GPU PLAIN_DIR" >&2; exit 2; }
gpu=$1
plain=$2
real=validate/results/$gpu/real
streamsim=${STREAMSIM:-build/bin/streamsim}
[ -x "$streamsim" ] || { echo "self-timed-table.sh: $streamsim is missing; build first" >&2; exit 2; }
validate=${STREAMSIM_VALIDATE:-build/validate/streamsim-validate}
[ -z "$gap" ] || [ -x "$validate" ] ||
  { echo "self-timed-table.sh: --recorder-gap needs $validate; build it first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# values PROGRAM FILE: the program's self-timed values in FILE, one a line, in microseconds.
values () {
  local p=$1 f=$2
  [ -r "$f" ] || return 0
  case $p in
    matrixMul | globalToShmemAsyncCopy) sed -n 's/.*Time= *\([0-9.]*\) msec.*/\1/p' "$f" | awk '{ print $1 * 1000 }' ;;
    transpose) sed -n 's/.*Time = *\([0-9.]*\) ms.*/\1/p' "$f" | awk '{ print $1 * 1000 }' ;;
    BlackScholes) sed -n 's/.*BlackScholesGPU() time *: *\([0-9.]*\) msec.*/\1/p' "$f" | awk '{ print $1 * 1000 }' ;;
    MonteCarloMultiGPU) sed -n 's/.*Total time (ms.): *\([0-9.]*\).*/\1/p' "$f" | awk '{ print $1 * 1000 }' ;;
    reduction) sed -n 's/^Reduction,.*Time = *\([0-9.]*\) s.*/\1/p' "$f" | awk '{ print $1 * 1e6 }' ;;
    jacobiCudaGraphs) sed -n 's/.*GPU Processing time: *\([0-9.]*\).*/\1/p' "$f" | awk '{ print $1 * 1000 }' ;;
  esac
}

# predicted PROGRAM: the prediction of the same values, one a line, in microseconds.
predicted () {
  local p=$1 s=$real/$1.sched m=$real/$1.measured.csv
  [ -r "$s" ] || { zcat "$s.gz" > "$work/$p.sched"; s=$work/$p.sched; }
  [ -r "$m" ] || m=$m.gz
  if [ -n "$gap" ]; then
    zcat -f "$real/$p.log.gz" > "$work/$p.log"
    "$validate" --record "$work/$p.gap.sched" --csv "$work/$p.gap.csv" --log "$work/$p.log" \
      --device "$gpu" --connections 8 --recorder-gap "$gap" 2> /dev/null
    s=$work/$p.gap.sched
    m=$work/$p.gap.csv
  fi
  "$streamsim" predict "$s" --device "$gpu" --csv "$work/$p.csv" > /dev/null
  "$streamsim" compare "$work/$p.csv" "$m" --regions --max-error 1000000 |
    awk -v p="$p" '
      $1 ~ /^[0-9]+$/ && ($2 == "sync" || $2 == "elapsed") {
        n++; kind[n] = $2; pred[n] = $5; meas[n] = $6
      }
      END {
        if (p == "matrixMul" || p == "globalToShmemAsyncCopy" || p == "transpose") {
          div = p == "matrixMul" ? 300 : 100
          for (i = 1; i <= n; i++)
            if (kind[i] == "elapsed") { print (pred[i] / div); if (p != "transpose") exit }
        } else if (p == "BlackScholes") print (pred[1] / 512)
        else if (p == "MonteCarloMultiGPU") print pred[1]
        else if (p == "jacobiCudaGraphs") { for (i = 2; i <= n; i++) sum += pred[i]; print sum }
        else if (p == "reduction") {
          for (i = 1; i <= n; i++) if (meas[i] >= 100 && meas[i] < 500) v[++k] = pred[i]
          for (i = 2; i <= k; i++) { x = v[i]; for (j = i - 1; j > 0 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
          print v[int((k + 1) / 2)]
        }
      }'
}

echo "| program | value | plain runs | recorded: this call | the corpus recording, its run2 | predicted | against the plain median | against this call's recording |"
echo "| --- | ---: | --- | ---: | --- | ---: | ---: | ---: |"
for p in matrixMul globalToShmemAsyncCopy reduction BlackScholes MonteCarloMultiGPU jacobiCudaGraphs transpose; do
  shopt -s nullglob
  plains=("$plain/$p".plain*.out)
  shopt -u nullglob
  [ ${#plains[@]} -gt 0 ] || { echo "self-timed-table.sh: no $plain/$p.plainN.out" >&2; exit 2; }
  for f in "${plains[@]}"; do values "$p" "$f" > "$work/$(basename "$f").v"; done
  values "$p" "$plain/$p.rec.out" > "$work/rec.v"
  values "$p" "$real/$p.out" > "$work/corpus.v"
  values "$p" "$real/run2/$p.out" > "$work/run2.v"
  predicted "$p" > "$work/pred.v"
  rows=$(wc -l < "$work/pred.v")
  [ "$rows" -gt 0 ] && [ "$(wc -l < "$work/rec.v")" -eq "$rows" ] ||
    { echo "self-timed-table.sh: $p: $rows predicted values, $(wc -l < "$work/rec.v") in $plain/$p.rec.out" >&2; exit 2; }
  for ((i = 1; i <= rows; i++)); do
    line () { sed -n "${i}p" "$1" 2> /dev/null; }
    ps=$(for f in "${plains[@]}"; do line "$work/$(basename "$f").v"; done | tr '\n' ' ')
    awk -v p="$p" -v i="$i" -v rows="$rows" -v ps="$ps" -v rec="$(line "$work/rec.v")" \
        -v corpus="$(line "$work/corpus.v")" -v run2="$(line "$work/run2.v")" -v pred="$(line "$work/pred.v")" '
      BEGIN {
        k = split(ps, v, " ")
        for (a = 2; a <= k; a++) { x = v[a]; for (b = a - 1; b > 0 && v[b] > x; b--) v[b + 1] = v[b]; v[b + 1] = x }
        med = v[int((k + 1) / 2)]
        list = ""
        for (a = 1; a <= k; a++) list = list (a > 1 ? ", " : "") sprintf("%.1f", v[a])
        rec2 = corpus == "" ? "-" : sprintf("%.1f", corpus) (run2 == "" ? "" : sprintf(", %.1f", run2))
        what = rows > 1 ? "kernel " i : "-"
        printf "| %s | %s | %s | %.1f | %s | %.1f | %+.1f%% | %+.1f%% |\n", p, what, list,
               rec, rec2, pred, (pred - med) / med * 100, (pred - rec) / rec * 100
      }'
  done
done
