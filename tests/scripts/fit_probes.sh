#!/usr/bin/env bash
# tests/scripts/fit_probes.sh SOURCE_DIR: validate/fit-probes.sh on a small made-up probe
# output, against keys worked out by hand.
#
# Stamps: 13 - 10 = 3 us. Memsets: 1 MiB spans 8 us, 64 MiB 30, 128 MiB 50; the two
# largest give 64 MiB in 20 us: 67108864 / 20e-6 = 3.3554432e12 B/s, "3355.44GB/s". The
# only memset of 4 MiB or less, 1 MiB: 8 - 3 - 1 (the kernel gap given) - 1048576 /
# 3.3554432e12 s (0.3125 us) = 3.6875 us, "3.69us". Host functions: 25 - 3 - 0 = 22 and
# 1024 - 3 - 1000 = 21, median 21.5. First launches: 4.5, 4 and 5 us after the running
# kernel's end, median 4.5.
set -euo pipefail
src=${1:?usage: fit_probes.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/memset-conn8.txt" <<'DATA'
warmup 4096 4912.6 4916.0 0.0 4911.5
stamps 0 10 13 0 0
alone 1048576 10 18 0 0
alone 67108864 10 40 0 0
alone 134217728 10 60 0 0
beside-kernel 67108864 2005.2 2031.1 4.8 2005.1
DATA
cat > "$work/hostfn-conn8.txt" <<'DATA'
warmup 0.100 0.0 404.7 412.4 422.4
alone 0.000 0.0 25 0.0 0.0
alone 1.000 0.0 1024 0.0 0.0
beside-kernel 1.000 0.0 1031.2 16.9 26.9
DATA
cat > "$work/lazy-LAZY.txt" <<'DATA'
# CUDA_MODULE_LOADING=LAZY
first-launch 2004.5 2000.0 14.6
second-launch 3.4 2000.2 3.6
first-launch 2004.0 2000.0 14.6
first-launch 2005.0 2000.0 14.6
DATA
want='[kernel] memset_bandwidth=3355.44GB/s
[kernel] memset_latency=3.69us
[host] hostfn_wake+[latency] hostfn_resume=21.5us
[latency] module_load=4.5us'
got=$(bash "$src/validate/fit-probes.sh" "$work" 1)
if [ "$got" != "$want" ]; then
  printf 'FAIL: got\n%s\nwant\n%s\n' "$got" "$want"
  exit 1
fi
echo "fit-probes: the keys worked out by hand"
