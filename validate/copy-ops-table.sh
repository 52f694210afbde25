#!/bin/bash
# copy-ops-table.sh: a schedule's copies, grouped by shape, their measured and predicted times on the GPU side by side.
#
#   validate/copy-ops-table.sh SCHEDULE PREDICTED.csv MEASURED.csv [MIN_BYTES]
#
# The copies (h2d, d2h, d2d and memcpy rows) of the two timelines of SCHEDULE
# (each file gzipped or not), matched by op; each grouped by its kind, bytes,
# rows (the statement's rows=, 1 without), pinned or pageable, and the call
# its comment names (`# cudaMemcpy2DAsync, ...`, as the recorder writes it;
# "-" without one); copies under MIN_BYTES (default 0) are left out. Prints a
# Markdown table, one row per group in the order the groups first appear: how
# many, the median of each side's end - start in us, and the error of the
# medians, (predicted - measured) / measured. Exit status 2 for bad usage, 3
# for a missing file.
set -euo pipefail
[ $# -ge 3 ] && [ $# -le 4 ] || { echo "usage: validate/copy-ops-table.sh SCHEDULE PREDICTED.csv MEASURED.csv [MIN_BYTES]" >&2; exit 2; }
for f in "$1" "$2" "$3"; do
  [ -f "$f" ] || { echo "copy-ops-table.sh: no file $f" >&2; exit 3; }
done
min=${4:-0}
SCRIPT_NAME=copy-ops-table.sh
. "$(dirname "$0")/script-lib.sh"
# cat FILE or FILE.gz
text () { case "$1" in *.gz) gzip -dc "$1" ;; *) cat "$1" ;; esac; }

# one stream: "S" lines (the schedule's lines), then "P" and "M" CSV rows
{ text "$1" | sed 's/^/S,/'; text "$2" | sed 's/^/P,/'; text "$3" | sed 's/^/M,/'; } | awk -F, -v min="$min" "$SCRIPT_MEDIAN_AWK"'
  $1 == "S" { line[++nl] = substr($0, 3); next }
  $2 ~ /^#/ || $2 == "op" { next }
  ($5 == "h2d" || $5 == "d2h" || $5 == "d2d" || $5 == "memcpy") && $11 + 0 >= min {
    dur[$1, $2] = ($10 - $9) / 1000
    if ($1 == "M") { kind[$2] = $5; bytes[$2] = $11; at[$2] = $3; order[++n] = $2 }
  }
  END {
    for (k = 1; k <= n; k++) {
      op = order[k]
      if (!(("P", op) in dur)) continue
      s = line[at[op]]; code = s; sub(/#.*/, "", code)
      rows = 1; if (match(code, /rows=[0-9]+/)) rows = substr(code, RSTART + 5, RLENGTH - 5)
      mem = (code ~ /(^|[ \t])pageable([ \t]|$)/) ? "pageable" : "pinned"
      call = "-"; if (match(s, /# [A-Za-z_0-9]+/)) call = substr(s, RSTART + 2, RLENGTH - 2)
      g = kind[op] "|" bytes[op] "|" rows "|" mem "|" call
      if (!(g in count)) groups[++ng] = g
      c = ++count[g]; v[g "m", c] = dur["M", op]; v[g "p", c] = dur["P", op]
    }
    print "| copy | bytes | rows | memory | call | ops | measured | predicted | error |"
    print "| --- | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: |"
    for (i = 1; i <= ng; i++) {
      g = groups[i]; split(g, f, "|")
      c = count[g]; mm = median_at(v, g "m", c); pp = median_at(v, g "p", c)
      printf "| %s | %d | %d | %s | %s | %d | %.1f us | %.1f us | %s |\n", f[1], f[2], f[3], f[4], f[5], c, mm, pp, (mm > 0 ? sprintf("%+.1f%%", (pp - mm) / mm * 100) : "-")
    }
  }'
