#!/bin/bash
# fit-thread-costs.sh: the profile's [host] thread_create, thread_start, thread_join, thread_join_wake and thread_first_call, from measured timelines of validate/examples/thread-costs.sched.
#
#   validate/fit-thread-costs.sh CSV...
#
# Each CSV is what `streamsim-validate validate/examples/thread-costs.sched --csv CSV`
# wrote. In each, a `thread` row (the call that starts a thread) is followed by the
# thread's rows, its first call first and a `sync` its last, and later by the `join`
# of that thread. Prints the median, over every thread of every file, of:
#   thread_create     the thread row's end less its start (the call, to its caller);
#   thread_start      the thread's first row's issue less the thread row's start;
#   thread_join       a join's end less its start, where the thread's sync had
#                     returned before the join was called;
#   thread_join_wake  a join's end less the thread's sync's end, where the join was
#                     called before that;
#   thread_first_call the thread's first call (its launch: from its issue to the
#                     next row's) less the launch calls' median the file's header
#                     gives (`# host_calls: ... kernel_launch_median=`), which the
#                     thread's first call costs beyond a launch's usual cost;
# and over every file, of its first thread's (the run's first):
#   thread_create_first, thread_start_first  as thread_create and thread_start.
# Exit status: 0; 1 when a file has no thread rows or a kind of sample is missing.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: fit-thread-costs.sh CSV..." >&2; exit 2; }

median () { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit 1; print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

samples () {
  awk -F, -v want="$1" '
    FNR == 1 { spawned = 0; n = 0; launch = "" }
    /^# host_calls: / { m = split($0, w, " ")
                        for (i = 3; i <= m; i++) if (w[i] ~ /^kernel_launch_median=/) {
                          v = w[i]; sub(/^kernel_launch_median=/, "", v); sub(/ns$/, "", v); launch = v } }
    /^#/ { next }
    $1 == "op" { for (i = 1; i <= NF; i++) col[$i] = i; next }
    {
      kind = $col["kind"]; s = $col["start_ns"]; e = $col["end_ns"]
      if (kind == "thread") { spawn = s; spawned = 1; first = 1; synced = 0; n++
                              if (want == "create" || (want == "create_first" && n == 1)) print e - s
                              next }
      if (spawned && first == 2) {
        first = 0
        if (want == "first_call" && launch != "") print $col["issue_ns"] - first_issue - launch
      }
      if (spawned && first == 1) {
        first = 2; first_issue = $col["issue_ns"]
        if (want == "start" || (want == "start_first" && n == 1)) print $col["issue_ns"] - spawn
      }
      if (kind == "sync" && spawned && !synced) { synced = 1; ended = e; next }
      if (kind == "join" && spawned) {
        if (s >= ended && want == "join") print e - s
        if (s < ended && want == "wake") print e - ended
        spawned = 0
      }
    }' "${@:2}"
}

for key in create start join wake create_first start_first first_call; do
  name=thread_$key
  [ "$key" = wake ] && name=thread_join_wake
  samples "$key" "$@" | median | awk -v n="$name" '{ printf "%s=%.3fus\n", n, $1 / 1000 }' \
    || { echo "fit-thread-costs.sh: no $name samples in $*" >&2; exit 1; }
done
