#!/bin/bash
# fit-kernel-trace.sh: the profile's [kernel] trace_extra, from kernel_trace_probe.cu run under the recorder.
#
#   validate/fit-kernel-trace.sh DIR
#
# DIR holds runN.out (the probe's output: `launch INDEX MODE GRID BLOCK SPIN_NS
# START_NS END_NS`, its kernels' blocks on %globaltimer) and runN.measured.csv
# (the recorder's timeline of the same run: its kernel rows, CUPTI's records,
# are the same launches in the same order) for each run N. Prints, per shape
# (grid, block, spin), the median over its timed launches (not `warmup`) of
# CUPTI's duration less the blocks' duration, and then
#   trace_extra=Xus
# the median over every timed launch of every run. Exit status: 0; 1 when a
# run's kernel rows and launches do not pair up.
set -euo pipefail
dir=${1:?usage: fit-kernel-trace.sh DIR}

median () { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit 1; print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

pairs=$(mktemp)
trap 'rm -f "$pairs"' EXIT
for out in "$dir"/run*.out; do
  csv=${out%.out}.measured.csv
  # the CSV's kernel rows (column `kind`), then the probe's launches, paired by order
  awk -F, -v run="$out" '
    # end - start of two %globaltimer readings, whose 19 digits a double cannot hold:
    # their last 15 digits, modulo 10^15 (a run is far shorter)
    function span(start, end,   d) {
      d = substr(end, length(end) - 14) - substr(start, length(start) - 14)
      return d < 0 ? d + 1e15 : d
    }
    FNR == 1 { file++ }
    file == 1 && /^#/ { next }
    file == 1 && !have { for (i = 1; i <= NF; i++) col[$i] = i; have = 1; next }
    file == 1 { if ($col["kind"] == "kernel") traced[++nk] = $col["end_ns"] - $col["start_ns"]; next }
    file == 2 && /^launch / { split ($0, f, " "); n++
      if (f[3] != "warmup") printf "%s/%s/%s %d\n", f[4], f[5], f[6], traced[n] - span(f[7], f[8]) }
    END { if (n != nk) { printf "fit-kernel-trace.sh: %s: %d launches, %d kernel rows\n", run, n, nk > "/dev/stderr"; exit 1 } }
  ' "$csv" FS=' ' "$out" >> "$pairs"
done
for shape in $(cut -d' ' -f1 "$pairs" | sort -u -t/ -k1,1n -k2,2n -k3,3n); do
  printf 'grid/block/spin %s: %s ns\n' "$shape" "$(awk -v s="$shape" '$1 == s { print $2 }' "$pairs" | median)"
done
awk '{ print $2 }' "$pairs" | median | awk '{ printf "trace_extra=%.3fus\n", $1 / 1000 }'
