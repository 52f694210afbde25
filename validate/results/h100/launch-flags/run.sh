#!/bin/bash
# launch_flags_probe.cu three times; the advised connections-8 schedule and tiny-kernels
# through the harness with blocking and with nonblocking streams, taking turns, each a new process.
want=$1
name=$(nvidia-smi --query-gpu=name --format=csv,noheader)
case "$name" in *H200*) gpu=h200;; *) gpu=h100;; esac
[ -n "$want" ] && [ "$want" != "$gpu" ] && { echo "wanted $want, got $name"; exit 3; }
B=$(pwd)/.device-carry/lf
export STREAMSIM_PROFILE_PATH=$(pwd)/engines/profiles
d=$OUT/launch-flags-$gpu; mkdir -p $d
{ nvidia-smi --query-gpu=name,driver_version --format=csv; nvcc --version | tail -2; date -u; nproc; grep -m1 "model name" /proc/cpuinfo; uname -r; } > $d/system.txt
for r in 1 2 3 4; do timeout 120 $B/streamsim-launch-flags-probe > $d/probe$r.out 2>&1; echo "probe$r rc=$?" >> $d/runs.txt; done
for r in 1 2 3 4; do
  for s in c8-blocking c8-nonblocking tk-blocking tk-nonblocking; do
    timeout 120 $B/streamsim-validate $B/$s.sched --reps 10 --warmup 2 --device $gpu --csv $d/$s.round$r.csv > $d/$s.round$r.log 2>&1
    echo "$s round$r rc=$?" >> $d/runs.txt
  done
done
tar czf $OUT/launch-flags-$gpu.tar.gz -C $OUT launch-flags-$gpu
cat $d/runs.txt | grep -v 'rc=0' ; grep -h '^median' $d/probe*.out | sort -k2,2 -k4n -k3 
for s in c8-blocking c8-nonblocking tk-blocking tk-nonblocking; do for f in $d/$s.round*.csv; do
  grep -v '^#' $f | awk -F, -v n=$(basename $f .csv) 'NR>1 && $4=="kernel"{ k++; if (k>1) { d=$7-p; g+=d; ng++; if (k<=48) {a+=d; na++} else {b+=d; nb++} } p=$7 } END {printf "%s gap %.0f first %.0f rest %.0f ", n, g/ng, a/na, b/nb}'
  grep -h 'host_calls_untimed\|host_calls:' $f | sed 's/memcpy_async=[0-9]*ns //; s/ memcpy_async_median.*//' | tr '\n' ' '; grep -h host_done $f; done; done
