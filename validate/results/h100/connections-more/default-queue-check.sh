#!/bin/bash
# default-queue-check.sh FILE...: compares each line of streamsim-default-queue's output
# (validate/examples/default_queue.cu, run as in README.md here) with what the model's
# rule says: the default stream has connection 0 from the context's creation, and the
# streams take connections 1, 2, ... in the order they first submit, modulo C (K extra
# streams first, then s1..s4); the default stream's kernel joins the queue of the last
# of s1..s4 on connection 0, or none. Prints each line's verdict and a count.
awk '
  /joined:/ {
    c = $1; sub(/^C=/, "", c); if (c == "unset") c = 8
    k = $3; sub(/^k=/, "", k)
    want = "none"
    for (j = 1; j <= 4; j++) if ((k + j) % c == 0) want = "s" j
    got = $NF; sub(/^joined:/, "", got)
    verdict = (got == want) ? "ok" : "DIFFERS"
    n++; if (got == want) ok++
    printf "%s  rule: %s  %s\n", $0, want, verdict
  }
  END { printf "%d of %d as the rule says\n", ok, n }' "$@"
