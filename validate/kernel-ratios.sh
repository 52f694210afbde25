#!/usr/bin/env bash
# validate/kernel-ratios.sh: how much faster the same kernels ran on one GPU than on another, from recordings of the same programs on both.
#
#   validate/kernel-ratios.sh FROM TO [SKIP_REGEX]   (e.g. h100 h200)
#
# Reads every schedule recorded on both GPUs (validate/results/{FROM,TO}/real/
# *.sched and *.sched.gz), takes each kernel's median time per program and
# label on each, and keeps the kernels that engines/eng_kernel_scale.c calls
# memory-bound (programs whose name matches SKIP_REGEX are left out). For each memory efficiency E from 0 to 1 by 0.05, it
# prints the error of the model "the first microsecond scales with the clock
# (the same here), the rest by 1 - E x (1 - bw_FROM / bw_TO)", weighted by each
# kernel's total time on FROM: the E with the least error is what
# ENG_KERNEL_MEMORY_EFFICIENCY holds. The bandwidths are the profiles'
# memory_bandwidth (PROFILES, default engines/profiles; in TB/s); the words are read from
# engines/eng_kernel_scale.c.
set -euo pipefail
cd "$(dirname "$0")/.."
results=${RESULTS:-validate/results}
from=${1:?usage: $0 FROM TO [SKIP_REGEX]} to=${2:?usage: $0 FROM TO [SKIP_REGEX]} skip=${3:-^$}
bw () { sed -n 's/^memory_bandwidth *= *\([0-9.]*\)TB\/s.*/\1/p' "${PROFILES:-engines/profiles}/$1.ini"; }
ratio=$(awk -v a="$(bw "$from")" -v b="$(bw "$to")" 'BEGIN { print a / b }')
times () { # GPU: "program label ns" per kernel
  for f in "$results"/"$1"/real/*.sched "$results"/"$1"/real/*.sched.gz; do
    [ -f "$f" ] || continue
    p=$(basename "$f"); p=${p%%.*}
    if [[ $p =~ $skip ]]; then continue; fi
    case $f in *.gz) gunzip -c "$f" ;; *) cat "$f" ;; esac \
      | sed -n -E 's/^[[:space:]]*kernel .* time=([0-9.]+)(ns|us|ms|s)( .*)? label=([^ ]+).*/\1 \2 \4/p' \
      | awk -v p="$p" '{ t = $1; if ($2 == "us") t *= 1e3; else if ($2 == "ms") t *= 1e6;
                         else if ($2 == "s") t *= 1e9; print p, $3, t }'
  done
}
medians () { # "program label median total" per kernel, from "program label ns"
  sort -k1,1 -k2,2 -k3,3g | awk '
    function flush () { if (n) { m = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2;
                                 print key, m, s } }
    { k = $1 " " $2; if (k != key) { flush(); key = k; n = 0; s = 0 } v[++n] = $3; s += $3 }
    END { flush() }'
}
times "$from" | medians > "${TMPDIR:-/tmp}/kr.$$.from"
times "$to" | medians > "${TMPDIR:-/tmp}/kr.$$.to"
trap 'rm -f "${TMPDIR:-/tmp}/kr.$$.from" "${TMPDIR:-/tmp}/kr.$$.to"' EXIT
words () { # the quoted words of the C array NAME
  sed -n "/$1\[\] = {/,/};/p" engines/eng_kernel_scale.c | grep -o '"[^"]*"' | tr -d '"' | tr '\n' ' '
}
awk -v r="$ratio" -v compute="$(words compute_words)" -v memory="$(words memory_words)" '
  BEGIN { nc = split (compute, cw, " "); nm = split (memory, mw, " ") }
  NR == FNR { to[$1 " " $2] = $3; next }
  { key = $1 " " $2; if (!(key in to)) next
    l = tolower ($2); c = 0
    for (i = 1; i <= nc; i++) if (index (l, cw[i])) c = 1
    if (c) next
    m = 0
    for (i = 1; i <= nm; i++) if (index (l, mw[i])) m = 1
    if (!m) next
    n++; a[n] = $3; b[n] = to[key]; w[n] = $4 }
  END { printf "%d memory-bound kernels measured on both; bandwidth ratio %.4f\n", n, r
        for (e = 0; e <= 1.0001; e += 0.05) {
          f = 1 - e * (1 - r); se = 0; sw = 0
          for (i = 1; i <= n; i++) {
            t = (a[i] < 1000 ? a[i] : 1000) + (a[i] > 1000 ? a[i] - 1000 : 0) * f
            d = (t - b[i]) / b[i]; if (d < 0) d = -d; se += d * w[i]; sw += w[i] }
          printf "E %.2f  weighted error %.4f\n", e, sw ? se / sw : 0 } }' \
  "${TMPDIR:-/tmp}/kr.$$.to" "${TMPDIR:-/tmp}/kr.$$.from"
