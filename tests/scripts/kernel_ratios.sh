#!/usr/bin/env bash
# tests/scripts/kernel_ratios.sh SOURCE_DIR: validate/kernel-ratios.sh on a made-up pair of
# recordings, against errors worked out by hand.
#
# Profiles scale-a and scale-b (tests/profiles): scale-b has twice the bandwidth, ratio 0.5.
# Program p ran a copy kernel (memory-bound) in 1.001 ms on scale-a and 0.901 ms on scale-b,
# and a gemm (compute-bound: left out) in 1 ms on both. The model gives the copy kernel
# 1000 + 1000000 x (1 - E x 0.5) ns on scale-b: E = 0 gives 1.001 ms, off by
# 100000 / 901000 = 0.1110; E = 0.2 gives 0.901 ms exactly; E = 1 gives 0.501 ms, off by
# 400000 / 901000 = 0.4440.
set -euo pipefail
src=${1:?usage: kernel_ratios.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/scale-a/real" "$work/scale-b/real"
printf 'stream s\nkernel s grid=1 block=32 time=1.001ms label=copy_kernel\nkernel s grid=1 block=32 time=1ms label=gemm\n' > "$work/scale-a/real/p.sched"
printf 'stream s\nkernel s grid=1 block=32 time=0.901ms label=copy_kernel\nkernel s grid=1 block=32 time=1ms label=gemm\n' > "$work/scale-b/real/p.sched"
got=$(cd "$src" && RESULTS=$work PROFILES=$src/tests/profiles bash validate/kernel-ratios.sh scale-a scale-b)
for line in '1 memory-bound kernels measured on both; bandwidth ratio 0.5000' \
            'E 0.00  weighted error 0.1110' 'E 0.20  weighted error 0.0000' \
            'E 1.00  weighted error 0.4440'; do
  if ! grep -qxF "$line" <<< "$got"; then
    echo "kernel-ratios.sh gave:"; echo "$got"; echo "missing: $line"
    exit 1
  fi
done
echo "kernel-ratios.sh: as worked out by hand"
