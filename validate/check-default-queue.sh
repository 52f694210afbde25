#!/bin/bash
# check-default-queue.sh OUTPUT.txt...: checks each line of streamsim-default-queue's output
# (validate/examples/default_queue.cu) against the model's rule for the legacy default
# stream's connection (engines/eng_connection.c, WHICH CONNECTION; engines/MODEL.md).
#
# The rule: the default stream has connection 0 from the context's creation and takes no
# part in the round robin; streams take connections 1, 2, ... in the order they first
# submit, modulo C (the program's K extra streams first, then s1..s4). So the default
# stream's kernel joins the queue of the one of s1..s4 that got connection 0, the sj with
# (K + j) mod C = 0, or none. A line reads
#   C=4 a k=0 s1:0/3002 s2:10/1013 ... default:1525 joined:s4
# (C=unset means the driver's default, 8). Prints each such line with the rule's answer
# and "ok" or "DIFFERS", then "N of M as the rule says". Exit status 1 when a line
# differs, 2 when no line could be read.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: check-default-queue.sh OUTPUT.txt..." >&2; exit 2; }
awk '
  /joined:/ {
    c = $1; sub(/^C=/, "", c); if (c == "unset") c = 8
    k = $3; sub(/^k=/, "", k)
    want = "none"
    for (j = 1; j <= 4; j++) if ((k + j) % c == 0) want = "s" j
    got = $NF; sub(/^joined:/, "", got)
    n++
    if (got == want) ok++
    printf "%s  rule: %s  %s\n", $0, want, (got == want ? "ok" : "DIFFERS")
  }
  END {
    printf "%d of %d as the rule says\n", ok, n
    exit (n == 0 ? 2 : (ok == n ? 0 : 1))
  }' "$@"
