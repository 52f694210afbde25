#!/bin/bash
# fit-probes.sh: the profile keys the probes of validate/run-probes.sh measure, from their output.
#
#   validate/fit-probes.sh DIR KERNEL_GAP_US
#
# DIR holds memset-conn8.txt, hostfn-conn8.txt and lazy-LAZY.txt (the probes' output,
# whose columns each program's opening comment gives); KERNEL_GAP_US is the GPU's
# profile's [latency] kernel_gap in microseconds. Prints the keys as a profile has them:
#   [kernel] memset_bandwidth: from the two largest memsets, the bytes between them over
#            the time between them (each size's median span);
#   [kernel] memset_latency: the median, over the memsets of 4 MiB or less, of the span
#            less the span of two stamps with nothing between, less one kernel gap (the
#            memset runs as a kernel between the two stamps), less bytes / bandwidth; at
#            least 0;
#   [host] hostfn_wake plus [latency] hostfn_resume: the median, over the host
#            functions, of the span less the stamps' span less the function's own time
#            (the probe cannot tell the two apart: subtract a measured resume);
#   [latency] module_load: the median time from the end of the kernel running to the
#            start of a kernel whose first launch loaded its code.
set -euo pipefail
dir=${1:?usage: fit-probes.sh DIR KERNEL_GAP_US}
gap=${2:?usage: fit-probes.sh DIR KERNEL_GAP_US}

median () { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit 1; print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

stamps=$(awk '$1 == "stamps" { print $4 - $3 }' "$dir/memset-conn8.txt" | median)
# each size's median span
spans=$(awk '$1 == "alone" { print $2, $4 - $3 }' "$dir/memset-conn8.txt" | sort -k1,1g -k2,2g |
  awk '{ n[$1]++; v[$1, n[$1]] = $2 } END { for (b in n) { k = n[b]; m = (k % 2) ? v[b, (k + 1) / 2] : (v[b, k / 2] + v[b, k / 2 + 1]) / 2; print b, m } }' |
  sort -g)
bandwidth=$(tail -2 <<<"$spans" | awk 'NR == 1 { b0 = $1; t0 = $2 } NR == 2 { printf "%.6g", ($1 - b0) / (($2 - t0) * 1e-6) }')
latency=$(awk -v s="$stamps" -v g="$gap" -v bw="$bandwidth" '$1 <= 4194304 { print $2 - s - g - $1 / bw * 1e6 }' <<<"$spans" | median)
hostfn=$(awk -v s="$stamps" '$1 == "alone" { print $4 - $3 - s - $2 * 1000 }' "$dir/hostfn-conn8.txt" | median)
load=$(awk '$1 == "first-launch" { print $2 - $3 }' "$dir/lazy-LAZY.txt" | median)
awk -v bw="$bandwidth" -v l="$latency" -v h="$hostfn" -v m="$load" 'BEGIN {
  if (l < 0) l = 0
  printf "[kernel] memset_bandwidth=%.6gGB/s\n", bw / 1e9
  printf "[kernel] memset_latency=%.3gus\n", l
  printf "[host] hostfn_wake+[latency] hostfn_resume=%.3gus\n", h
  printf "[latency] module_load=%.3gus\n", m
}'
