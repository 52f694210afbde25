# validate/pageable-inside-table.awk: how long a pageable copy was held up by a pinned copy inside it.
#
# Usage: awk -f validate/pageable-inside-table.awk MEASURED.csv
# MEASURED.csv is a timeline of validate/examples/pageable-inside.sched (its labels
# DIR-alone-1, DIR-alone-2, DIR-pinned-N and DIR-with-N, for DIR d2h and h2d and N 4 and
# 16). Per direction one line: each pageable copy with a pinned one inside, its duration
# less the mean of the two alone, as a share of the pinned copy's duration (1: the
# pageable copy halted for all of it, as eng_copy.c models; 0: it went on beside).
BEGIN { FS = "," }
/^#/ || $1 == "op" { next }
{ d[$13] = ($9 - $8) / 1000 }
END {
  split("d2h h2d", dirs, " ")
  for (i = 1; i <= 2; i++) {
    x = dirs[i]; alone = (d[x "-alone-1"] + d[x "-alone-2"]) / 2
    printf "%s alone %.1f and %.1f us", x, d[x "-alone-1"], d[x "-alone-2"]
    for (j = 4; j <= 16; j += 12) {
      w = d[x "-with-" j]; p = d[x "-pinned-" j]
      printf "; with %d MiB pinned (%.1f us): %.1f us, share %.2f", j, p, w, (w - alone) / p
    }
    printf "\n"
  }
}
