#!/bin/bash
# recorded-sync-table.sh: what the recorder adds to a synchronize, from runs of validate/examples/sync_probe.cu as it is and under the recorder.
#
# Usage: validate/recorded-sync-table.sh DIR
# DIR holds plainN.txt (the probe's output as it ran) and recordedN.txt with
# recordedN.log.gz (its output and the recorder's raw log under
# `streamsim-validate --record`). Per kind (stream, device, event) and state
# (idle: nothing to wait for, the call's own time; after: from the end of the
# 20 us kernel it waited for to its return) the table gives the median over
# the processes of each process's median: as the probe timed itself as it
# ran and under the recorder, and as the recorder's log has it (a call from
# its enter to its exit stamp; the kernel's end from CUPTI's record), and
# the recorder's cost, its log less the probe as it ran. In the log a
# synchronize is `after` where a launch and an event record come just before
# it, `idle` where the cudaDeviceSynchronize that settles each round does;
# the first 20 of each (the probe's warm-up) are left out.
# Exit status: 0, 2 for bad usage or a folder without both kinds of run.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: validate/recorded-sync-table.sh DIR" >&2; exit 2; }
dir=$1
ls "$dir"/plain*.txt > /dev/null 2>&1 && ls "$dir"/recorded*.log.gz > /dev/null 2>&1 \
  || { echo "recorded-sync-table.sh: $dir lacks plainN.txt or recordedN.log.gz" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# log_view LOG: "KIND STATE NS" per synchronize of the recorder's LOG
# (read twice: the kernel records come after the calls).
log_view() {
  awk -F'\t' '
    FNR == NR { if ($1 == "kernel") kend[$2] = $4; else if ($1 == "link") runtime[$2] = $3; next }
    FNR == 1 { for (d in kend) if (d in runtime) kend[runtime[d]] = kend[d] }
    $1 != "call" { next }
    {
      name = $3
      kind = name == "cudaStreamSynchronize" ? "stream" : name == "cudaDeviceSynchronize" ? "device" \
           : name == "cudaEventSynchronize" ? "event" : ""
      if (kind != "") {
        state = p1 == "cudaEventRecord" && p2 == "cudaGetLastError" ? "after" \
              : p1 == "cudaDeviceSynchronize" && p2 == "cudaEventRecord" ? "idle" : ""
        if (state != "" && ++n[kind, state] > 20) {
          if (state == "idle") print kind, state, $5 - $4
          else if (launched in kend) print kind, state, $5 - kend[launched]
        }
      }
      if (name == "cudaLaunchKernel") launched = $6
      p2 = p1; p1 = name
    }' "$1" "$1"
}

# medians: "A B NS" lines in, "A B MEDIAN COUNT" out, one per pair A B (the
# lower median of its values, and how many there were)
medians() {
  sort -k1,1 -k2,2 -k3,3n | awk '
    { k = $1 " " $2; v[k, ++c[k]] = $3 }
    END { for (k in c) print k, v[k, int((c[k] + 1) / 2)], c[k] }'
}

for f in "$dir"/plain*.txt; do
  awk '$1 == "median" { print $2, $3, $4 }' "$f" | sed 's/^/plain /'
done > "$work/all"
for f in "$dir"/recorded*.txt; do
  awk '$1 == "median" { print $2, $3, $4 }' "$f" | sed 's/^/self /'
done >> "$work/all"
for f in "$dir"/recorded*.log.gz; do
  gunzip -c "$f" > "$work/log"
  log_view "$work/log" | medians | awk '{ print "log", $1, $2, $3 }'
done >> "$work/all"

echo "| synchronize | as it runs | under the recorder, its own timing | the recorder's log | the recorder's cost |"
echo "| --- | ---: | ---: | ---: | ---: |"
awk '{ print $2 "-" $3, $1, $4 }' "$work/all" | medians | awk '
  { m[$1, $2] = $3; n[$1, $2] = $4; names[$1] = 1 }
  END {
    split("stream-idle stream-after device-idle device-after event-idle event-after", order, " ")
    for (i = 1; i <= 6; i++) {
      s = order[i]
      if (!(s in names)) continue
      printf "| %s | %.2f us (%d) | %.2f us (%d) | %.2f us (%d) | %+.2f us |\n", s,
        m[s, "plain"] / 1000, n[s, "plain"], m[s, "self"] / 1000, n[s, "self"],
        m[s, "log"] / 1000, n[s, "log"], (m[s, "log"] - m[s, "plain"]) / 1000
    }
  }'
