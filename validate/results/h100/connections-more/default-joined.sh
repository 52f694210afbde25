#!/bin/bash
# joined.sh FILE...: for each measured CSV, the stream whose short kernel the default stream's last kernel started with
for f in "$@"; do
  awk -F, -v f="$(basename $f .measured.csv)" '!/^#/ && NR>1 && $13!="" { start[$13]=$8 }
    END { d = ("default" in start) ? start["default"] : start["default-again"]; best=""; bd=1e18;
      for (k in start) if (k ~ /^behind-/) { x = start[k]-d; if (x<0) x=-x; if (x<bd) {bd=x; best=k} }
      sub(/behind-/, "", best); printf "%s %s %.0f\n", f, (bd < 5000 ? best : "none"), d/1000 }' "$f"
done
