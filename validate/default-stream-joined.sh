#!/bin/bash
# default-stream-joined.sh MEASURED.csv...: which stream's hardware queue the legacy default
# stream's kernel joined, read from measured timelines of the connections-default schedules.
#
# In those schedules (traces/validation/connections-default*.sched) every stream sK runs a
# long kernel (label long-sK) with a short one behind it (label behind-sK), and the default
# stream then launches a kernel (label default, or default-again). A kernel that joined a
# queue starts when the kernel ahead of it in that queue lets it, at the same time as that
# queue's behind-sK: so the behind-sK whose start is nearest the default kernel's, within
# 5 us, names the queue joined ("none" when none is that near: it started at once).
# Prints one line per file: the file's name without .measured.csv, the stream, and the
# default kernel's start in us. Columns are found by their header names (label, start_ns).
# Exit status 2 when a file is not such a timeline.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: default-stream-joined.sh MEASURED.csv..." >&2; exit 2; }
for f in "$@"; do
  awk -F, -v name="$(basename "$f" .measured.csv)" '
    /^#/ { next }
    !header { for (i = 1; i <= NF; i++) col[$i] = i; header = 1
              if (!("label" in col) || !("start_ns" in col)) { print FILENAME ": no label or start_ns column" > "/dev/stderr"; bad = 1; exit }
              next }
    $col["label"] != "" { start[$col["label"]] = $col["start_ns"] }
    END {
      if (bad) exit 2
      if ("default" in start) d = start["default"]
      else if ("default-again" in start) d = start["default-again"]
      else { print FILENAME ": no kernel labelled default or default-again" > "/dev/stderr"; exit 2 }
      best = ""; gap = -1
      for (k in start)
        if (k ~ /^behind-/) {
          x = start[k] - d; if (x < 0) x = -x
          if (gap < 0 || x < gap) { gap = x; best = k }
        }
      sub(/^behind-/, "", best)
      printf "%s %s %.0f\n", name, (gap >= 0 && gap < 5000 ? best : "none"), d / 1000
    }' "$f"
done
