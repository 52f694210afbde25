#!/bin/bash
# fit-sync-blocking.sh: the profile's [host] sync_blocking_wake, from runs of validate/examples/sync_probe.cu by how the host waits.
#
# Usage: validate/fit-sync-blocking.sh DIR...
# Each DIR holds the probe's output of one machine as MODE-SPIN_US-runN.out, or
# .out.gz (MODE spin, blocking or event-blocking; SPIN_US the kernel's length:
# 20, 200, 2000), as validate/results/<gpu>/sync-mode/ and its pageable/ have
# them. For each kernel length, each kind of call that blocks its thread
# (stream, device, copy, free and pageable under `blocking`, event under
# `event-blocking`; the kinds a run has) gives, per DIR, the median of its
# `after` times less the median of the same kind under `spin` at the same
# length (the same place in a run of the same length, so that the drift
# between the GPU's clock and the host's over a run cancels); the wake at that
# length is the median over the kinds and the DIRs. Prints one line per length
# (length, each kind's difference) and the key as a profile has it, the
# lengths as the waits.
set -euo pipefail
SCRIPT_NAME=fit-sync-blocking.sh
. "$(dirname "$0")/script-lib.sh"
script_args 1 DIR... "$@"
points=""
for us in 20 200 2000; do
  line=$(for dir in "$@"; do for k in stream device event copy free pageable; do
    mode=blocking
    [ "$k" = event ] && mode=event-blocking
    ls "$dir"/spin-"$us"-run*.out* > /dev/null 2>&1 || continue
    zcat -f "$dir"/spin-"$us"-run*.out* "$dir"/"$mode"-"$us"-run*.out* 2> /dev/null |
      awk -v k="$k" "$SCRIPT_MEDIAN_AWK"'
        $1 == "mode" { mode = $2 }
        $1 == "sync" && $2 == k && $3 == "after" { n[mode]++; v[mode, n[mode]] = $5 }
        END {
          other = (k == "event") ? "event-blocking" : "blocking"
          if (n["spin"] > 0 && n[other] > 0)
            printf "%s %.1f\n", k, (median_at(v, other, n[other]) - median_at(v, "spin", n["spin"])) / 1000
        }'
  done; done)
  [ -n "$line" ] || { echo "$SCRIPT_NAME: no spin and blocking runs of ${us} us in $*" >&2; exit 2; }
  wake=$(awk "$SCRIPT_MEDIAN_AWK"'{ v[NR] = $2 } END { printf "%.1f", median(v, NR) }' <<< "$line")
  echo "$us us: $(tr '\n' ' ' <<< "$line")-> ${wake} us"
  points="${points:+$points, }${us}us ${wake}us"
done
echo "sync_blocking_wake=$points"
