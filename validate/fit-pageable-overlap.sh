#!/bin/bash
# fit-pageable-overlap.sh: [copy] d2h_pageable_overlap or h2d_pageable_overlap, how long a pinned copy inside a pageable one of its direction runs before it holds the pageable copy up.
#
# Usage: validate/fit-pageable-overlap.sh MEASURED.csv...
# Each MEASURED.csv (gzipped or not) is a timeline of
# validate/examples/pageable-inside-d2h.sched or pageable-inside-h2d.sched
# measured by streamsim-validate, all of one direction: pageable copies
# alone (labels alone-N) between pageable copies with a pinned copy inside
# (with-K-SIZE, and the pinned copy pinned-K-SIZE); other labels (warm-N)
# are not used. Each with-
# copy's hold-up is its duration less the mean of the alone copies just
# before and just after it (read against its own neighbours: the pageable
# rate drifts within a process); its window is the pinned copy's duration
# less that hold-up. Prints the median window over the pairs of every file
# as the key, with the count and each size's median hold-up in comments. A
# size whose median hold-up is under a tenth of its pinned copy's time is
# left out: a pinned copy shorter than the window holds nothing up, and its
# pairs would read the window as the pinned copy's own length.
# Exit 2 on a missing file, copies of both directions, or fewer than 3 pairs.
set -euo pipefail
SCRIPT_NAME=fit-pageable-overlap.sh
. "$(dirname "$0")/script-lib.sh"
script_args 1 "MEASURED.csv..." "$@"
for f in "$@"; do echo "file $f"; gzip -cdf "$f"; done | awk -F, "$SCRIPT_MEDIAN_AWK"'
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
      size = parts[3]; pairs++
      if (!(size in m)) sizes[++ns] = size
      held[size, ++m[size]] = hold; pinned[size, m[size]] = p
    }
    n = 0
    for (lab in dur) delete dur[lab]
  }
  /^file / { flush(); next }
  /^#/ || $1 == "op" { next }
  ($4 == "d2h" || $4 == "h2d") && $13 !~ /^warm-/ {
    if (dir != "" && dir != $4) { print "fit-pageable-overlap.sh: copies of both directions" > "/dev/stderr"; bad = 1; exit 2 }
    dir = $4; label[++n] = $13; dur[$13] = ($9 - $8) / 1000
  }
  END {
    if (bad) exit 2
    flush()
    if (pairs < 3) { printf "fit-pageable-overlap.sh: %d pairs; at least 3 are needed\n", pairs > "/dev/stderr"; exit 2 }
    for (i = 1; i <= ns; i++) {
      s = sizes[i]; k = m[s]
      mh = median_at(held, s, k); mq = median_at(pinned, s, k)
      used = mh >= mq / 10
      printf "# %s MiB pinned inside: %d pairs, pinned copy %.1f us, hold-up %.1f us (medians)%s\n", s, k, mq, mh, used ? "" : ", left out"
      if (used)
        for (j = 1; j <= k; j++) window[++w] = pinned[s, j] - held[s, j]
    }
    if (w < 3) { printf "fit-pageable-overlap.sh: %d pairs of sizes that hold the copy up; at least 3 are needed\n", w > "/dev/stderr"; exit 2 }
    printf "# the window, the pinned copy less its hold-up: median of %d pairs\n", w
    printf "%s_pageable_overlap=%.1fus\n", dir, median(window, w)
  }'
