#!/bin/bash
# graph-branches-table.sh: how the branches of validate/examples/graph_branches_probe.cu's graphs ran, as two tables.
#
# Usage: validate/graph-branches-table.sh RUN.out...
# Each file is what one run of the probe printed (its header comment says what
# each line is). Prints two markdown tables, medians in microseconds (the
# lower middle value of an even count), one row per file and graph:
#
# Launches each followed by a synchronize (mode sync), per launch:
#   call         the cudaGraphLaunch call on the host
#   call to A    from the call's start to node A's start (host clock, the
#                GPU's tied to it)
#   A to branches  for each branch (the nodes between A and D), from A's end to
#                the branch's start; in a chain, from the node before's end
#   spread       latest branch start less the earliest (a fork only)
#   overlap      the time all branches ran together: earliest branch end less
#                the latest branch start, negative when they did not; with the
#                median of the shortest branch's length it is a share of it
#   to D         from the latest branch end (a chain: C's end) to D's start
#   A to D end   from A's start to D's end: the graph's time on the GPU
#   D to return  from D's end to the synchronize's return
#
# Launches back to back into one stream (b2b) and two streams in turn (b2b2),
# per launch after the first: its call; from the launch before's D end to its
# A start (the gap); how many launches began before the one before had ended
# (A start before the earlier D end: overlapping) out of those compared; and
# from the launch before's A start to its own (the period).
#
# A file with no graph, a node line of an unknown graph or node, or a launch
# missing any of its graph's nodes is not a run of the probe: exit 2, naming it.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: validate/graph-branches-table.sh RUN.out..." >&2; exit 2; }
for f in "$@"; do
  [ -r "$f" ] || { echo "graph-branches-table.sh: cannot read $f" >&2; exit 3; }
done

SCRIPT_NAME=graph-branches-table.sh
. "$(dirname "$0")/script-lib.sh"
awk -v nfiles=$# "$SCRIPT_MEDIAN_AWK"'
  function bad(why) { printf "%s: %s\n", FILENAME, why > "/dev/stderr"; failed = 1; exit 2 }
  function us(x) { return sprintf("%.2f", x / 1e3) }
  FNR == 1 {
    nf++; file[nf] = FILENAME; run = FILENAME; sub(/.*\//, "", run); sub(/\.out$/, "", run); runname[nf] = run
  }
  /^graph / {
    g = $2; ng[nf]++; gname[nf, ng[nf]] = g; shape[nf, g] = $3; nn[nf, g] = 0
    for (i = 4; i <= NF; i++) { nn[nf, g]++; nodename[nf, g, nn[nf, g]] = substr($i, 1, 1); known[nf, g, substr($i, 1, 1)] = 1 }
    next
  }
  /^launch / {
    g = $2; m = $3; i = $4
    if (!((nf, g) in shape)) bad("launch of graph " g " before its graph line")
    if (!((nf, g, m) in nl) || i + 1 > nl[nf, g, m]) nl[nf, g, m] = i + 1
    cs[nf, g, m, i] = $5; call[nf, g, m, i] = $6; sy[nf, g, m, i] = $7
    next
  }
  /^node / {
    g = $2; m = $3; i = $4; n = $5
    if (!((nf, g, n) in known)) bad("node " n " of graph " g " not in its graph line")
    st[nf, g, m, i, n] = $6; en[nf, g, m, i, n] = $7
    next
  }
  END {
    if (failed) exit 2
    if (nf != nfiles) { print "graph-branches-table.sh: an empty file among the runs" > "/dev/stderr"; exit 2 }
    for (f = 1; f <= nf; f++) {
      if (ng[f] == 0) { printf "%s: no graph line, not a run of the probe\n", file[f] > "/dev/stderr"; exit 2 }
      for (h = 1; h <= ng[f]; h++) {
        g = gname[f, h]
        for (mi = 1; mi <= 3; mi++) {
          m = mi == 1 ? "sync" : mi == 2 ? "b2b" : "b2b2"
          if (!((f, g, m) in nl)) { printf "%s: graph %s has no %s launches\n", file[f], g, m > "/dev/stderr"; exit 2 }
          for (i = 0; i < nl[f, g, m]; i++) {
            if (!((f, g, m, i) in call)) { printf "%s: graph %s %s launch %d missing\n", file[f], g, m, i > "/dev/stderr"; exit 2 }
            for (k = 1; k <= nn[f, g]; k++)
              if (!((f, g, m, i, nodename[f, g, k]) in st)) {
                printf "%s: graph %s %s launch %d has no node %s\n", file[f], g, m, i, nodename[f, g, k] > "/dev/stderr"; exit 2
              }
          }
        }
      }
    }

    print "| run | graph | call | call to A | A to branches | spread | overlap | to D | A to D end | D to return |"
    print "| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |"
    for (f = 1; f <= nf; f++)
      for (h = 1; h <= ng[f]; h++) {
        g = gname[f, h]; m = "sync"; k = nl[f, g, m]; chain = shape[f, g] == "chain"
        nb = 0
        for (j = 1; j <= nn[f, g]; j++)
          if (nodename[f, g, j] != "A" && nodename[f, g, j] != "D") { nb++; br[nb] = nodename[f, g, j] }
        delete a1; delete a2; delete a4; delete a5; delete a6; delete a7; delete a8; delete a9
        delete gb
        for (i = 0; i < k; i++) {
          c = i + 1
          a1[c] = call[f, g, m, i]
          a2[c] = st[f, g, m, i, "A"] - cs[f, g, m, i]
          prev = "A"; maxs = ""; mins = ""; maxe = ""; mine = ""; shortest = ""
          for (b = 1; b <= nb; b++) {
            s = st[f, g, m, i, br[b]]; e = en[f, g, m, i, br[b]]
            gb[b, c] = s - en[f, g, m, i, prev] + 0
            if (chain) prev = br[b]
            if (maxs == "" || s > maxs) maxs = s
            if (mins == "" || s < mins) mins = s
            if (maxe == "" || e > maxe) maxe = e
            if (mine == "" || e < mine) mine = e
            if (shortest == "" || e - s < shortest) shortest = e - s
          }
          a4[c] = maxs - mins; a5[c] = mine - maxs; a9[c] = shortest
          a6[c] = st[f, g, m, i, "D"] - (chain ? en[f, g, m, i, prev] : maxe)
          a7[c] = en[f, g, m, i, "D"] - st[f, g, m, i, "A"]
          a8[c] = sy[f, g, m, i] - en[f, g, m, i, "D"]
        }
        cell = ""
        for (b = 1; b <= nb; b++) {
          delete x
          for (c = 1; c <= k; c++) x[c] = gb[b, c]
          cell = cell (b > 1 ? " / " : "") br[b] " " us(lower_median(x, k))
        }
        if (chain) { spread = "-"; overlap = "-" }
        else {
          spread = us(lower_median(a4, k))
          ov = lower_median(a5, k); sh = lower_median(a9, k)
          overlap = sprintf("%s (%d%%)", us(ov), ov > 0 && sh > 0 ? int(100 * ov / sh + 0.5) : 0)
        }
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", runname[f], g, us(lower_median(a1, k)),
               us(lower_median(a2, k)), cell, spread, overlap, us(lower_median(a6, k)), us(lower_median(a7, k)), us(lower_median(a8, k))
      }

    print ""
    print "| run | graph | mode | call | D to next A | overlapping | period |"
    print "| --- | --- | --- | ---: | ---: | ---: | ---: |"
    for (f = 1; f <= nf; f++)
      for (h = 1; h <= ng[f]; h++)
        for (mi = 2; mi <= 3; mi++) {
          g = gname[f, h]; m = mi == 2 ? "b2b" : "b2b2"; k = nl[f, g, m]
          delete a1; delete a2; delete a3; over = 0; c = 0
          for (i = 1; i < k; i++) {
            c++
            a1[c] = call[f, g, m, i]
            a2[c] = st[f, g, m, i, "A"] - en[f, g, m, i - 1, "D"]
            a3[c] = st[f, g, m, i, "A"] - st[f, g, m, i - 1, "A"]
            if (a2[c] < 0) over++
          }
          if (c == 0) { printf "%s: graph %s has one %s launch, nothing to compare\n", file[f], g, m > "/dev/stderr"; exit 2 }
          printf "| %s | %s | %s | %s | %s | %d/%d | %s |\n", runname[f], g, m, us(lower_median(a1, c)),
                 us(lower_median(a2, c)), over, c, us(lower_median(a3, c))
        }
  }' "$@"
