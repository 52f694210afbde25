#!/bin/bash
# fit-pageable-overlap.sh: [copy] d2h_pageable_overlap, how long a pinned D2H inside a pageable D2H runs before it holds the pageable copy up.
#
# Usage: validate/fit-pageable-overlap.sh MEASURED.csv...
# Each MEASURED.csv (gzipped or not) is a timeline of
# validate/examples/pageable-inside-d2h.sched measured by streamsim-validate:
# pageable D2Hs alone (labels alone-N) between pageable D2Hs with a pinned
# D2H inside (with-K-SIZE, and the pinned copy pinned-K-SIZE). Each with-
# copy's hold-up is its duration less the mean of the alone copies just
# before and just after it (read against its own neighbours: the pageable
# rate drifts within a process); its window is the pinned copy's duration
# less that hold-up. Prints the median window over every pair of every file
# as the key, with the count and each size's median hold-up in comments.
# Exit 2 on a missing file or fewer than 3 pairs.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: validate/fit-pageable-overlap.sh MEASURED.csv..." >&2; exit 2; }
for f in "$@"; do [ -r "$f" ] || { echo "fit-pageable-overlap.sh: cannot read $f" >&2; exit 2; }; done
for f in "$@"; do echo "file $f"; gzip -cdf "$f"; done | awk -F, '
  function sort(a, k,   i, j, x) {
    for (i = 2; i <= k; i++) { x = a[i]; for (j = i - 1; j > 0 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
  }
  function median(a, k) { sort(a, k); return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }
  # the pairs of the file read so far
  function flush(   i, a, b, lab, parts, hold, p) {
    for (i = 1; i <= n; i++) {
      lab = label[i]
      if (lab !~ /^with-/) continue
      split(lab, parts, "-")
      for (a = i - 1; a > 0 && label[a] !~ /^alone-/; a--) ;
      for (b = i + 1; b <= n && label[b] !~ /^alone-/; b++) ;
      if (a < 1 || b > n || !(("pinned-" parts[2] "-" parts[3]) in dur)) continue
      p = dur["pinned-" parts[2] "-" parts[3]]
      hold = dur[lab] - (dur[label[a]] + dur[label[b]]) / 2
      window[++w] = p - hold
      size = parts[3]
      if (!(size in m)) sizes[++ns] = size
      held[size, ++m[size]] = hold; pinned[size, m[size]] = p
    }
    n = 0
    for (lab in dur) delete dur[lab]
  }
  /^file / { flush(); next }
  /^#/ || $1 == "op" { next }
  $4 == "d2h" { label[++n] = $13; dur[$13] = ($9 - $8) / 1000 }
  END {
    flush()
    if (w < 3) { printf "fit-pageable-overlap.sh: %d pairs; at least 3 are needed\n", w > "/dev/stderr"; exit 2 }
    for (i = 1; i <= ns; i++) {
      s = sizes[i]; k = m[s]
      for (j = 1; j <= k; j++) { h[j] = held[s, j]; q[j] = pinned[s, j] }
      printf "# %s MiB pinned inside: %d pairs, pinned copy %.1f us, hold-up %.1f us (medians)\n", s, k, median(q, k), median(h, k)
    }
    printf "# the window, the pinned copy less its hold-up: median of %d pairs\n", w
    printf "d2h_pageable_overlap=%.1fus\n", median(window, w)
  }'
