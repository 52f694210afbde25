#!/usr/bin/env bash
# tests/scripts/real_readme_counts.sh [--self-test] SOURCE_DIR STREAMSIM: every number in the
# "**The H100 recording**" line of each traces/real/<program>/README.md against the committed
# schedule it describes, validate/results/h100/real/<program>.sched (or .sched.gz), and
# validate/results/h200/real/ for a number said to be "(N on the H200)".
#
# What each phrase of the line is checked against (`graph` blocks' nodes count as ops; the
# other statements are counted outside `graph` blocks, where each stands for one call):
#   N ops                                   the op count of `streamsim predict --json`
#   N memsets / N host functions            `memset` / `hostfn` statements
#   N launches that load their kernel's code `kernel` statements with `loads`
#   N starts of `thread` blocks             `thread` statements; also "the N that called while ..."
#   N graph launches                        `graph` blocks; "N of them ... with branches": those
#                                           holding a `record` or `wait`
#   N intervals timed with cudaEventElapsedTime  records labelled elapsed_from_op
#   N calls captured into graphs            `# captured into a graph:` comments
#   calls from N host threads               the `# Calls came from N host threads` comment
#   not modelled: CALL xN, ... (or none)    `# not modelled: CALL` comments, every call named
#   CALL xN ... stream-ordered allocation   `# CALL: stream-ordered allocation` comments
#   N of the M CALL calls set 0 bytes       `# CALL of 0 bytes` comments, and M those plus the
#                                           `memset` statements of CALL
# A phrase for a count the schedule has but the line leaves out (a memset, say) is missing,
# and a number the line holds that none of these phrases explains cannot be checked: both
# fail, as does a number that differs, each naming the README. What the line says in words
# alone (which thread is the DataLoader's, what cuDNN timed) is not checked.
# Exit 0 when every README agrees. --self-test first changes one number of a copy of one
# README and fails unless that is reported.
set -euo pipefail
self_test=0
if [ "${1:-}" = --self-test ]; then self_test=1; shift; fi
src=${1:?usage: real_readme_counts.sh [--self-test] SOURCE_DIR STREAMSIM}
streamsim=${2:?usage: real_readme_counts.sh [--self-test] SOURCE_DIR STREAMSIM}
export STREAMSIM_PROFILE_PATH=$src/engines/profiles
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# facts SCHEDULE GPU: "KEY COUNT" lines of what the schedule holds (the keys of claims below).
facts () {
  local ops
  ops=$("$streamsim" predict "$1" --device "$2" --quiet --json - |
          awk -F': *' '/^  "ops" :/ && !n++ { sub(/,$/, "", $2); print $2 }')
  echo "ops ${ops:?no op count for $1}"
  gzip -dcf "$1" | awk '
    /^[ \t]*#/ {
      c = $0; sub(/^[ \t]*# */, "", c)
      if (c ~ /^not modelled: /) { n = c; sub(/^not modelled: /, "", n); sub(/[ (,].*/, "", n); count["nm:" n]++ }
      else if (c ~ /^captured into a graph: /) count["captured"]++
      else if (c ~ /^cuda[A-Za-z0-9_]+ of 0 bytes: /) { n = c; sub(/ .*/, "", n); count["zero:" n]++; count["calls:" n]++ }
      else if (c ~ /^cuda[A-Za-z0-9_]+: stream-ordered allocation/) { n = c; sub(/:.*/, "", n); count["alloc:" n]++ }
      else if (c ~ /^Calls came from [0-9]+ host threads/) { split(c, w, " "); count["threads"] = w[4] }
      next
    }
    {
      line = $0; sub(/#.*/, "", line); n = split(line, w, " ")
      if (n == 0) next
      if (w[1] == "graph") { in_graph = 1; branched = 0; count["graph"]++; next }
      if (in_graph && w[1] == "end") { in_graph = 0; if (branched) count["branched"]++; next }
      if (in_graph) { if (w[1] == "record" || w[1] == "wait") branched = 1; next }
      if (w[1] == "memset" || w[1] == "hostfn" || w[1] == "thread") count[w[1]]++
      for (i = 2; i <= n; i++) {
        if (w[1] == "kernel" && w[i] == "loads") count["loads"]++
        if (w[i] ~ /^label=elapsed_from_op/) count["elapsed"]++
      }
      if (w[1] == "memset") { c = $0; sub(/^[^#]*# */, "", c); sub(/[ ,].*/, "", c); count["calls:" c]++ }
    }
    END {
      if (!("threads" in count)) count["threads"] = 1
      for (k in count) print k, count[k]
    }'
}

# claims README: "GPU KEY COUNT" lines, one per number of the recording line; "h100 nm none"
# for a line that says nothing is not modelled, "? N CONTEXT" for a number none of the
# phrases explains, "! no line" for a README without the line.
claims () {
  awk '
    index($0, "**The H100 recording**:") {
      s = substr($0, index($0, "**The H100 recording**:") + 23)
      if (index(s, " Its regions against")) s = substr(s, 1, index(s, " Its regions against"))
      gsub(/\]\([^)]*\)/, "]", s)            # link targets
      if (s ~ /not modelled: none|nothing not modelled/) print "h100 nm none"
      done = ""; last = ""
      while (match(s, /[0-9]+/)) {
        num = substr(s, RSTART, RLENGTH); before = substr(s, 1, RSTART - 1)
        after = substr(s, RSTART + RLENGTH); s = after
        done = done before num
        if (before ~ /[A-Za-z0-9_.]$/ && before !~ / x$/ || after ~ /^[A-Za-z0-9_]/) continue  # H200, a 2D
        key = ""; gpu = "h100"
        seg = done; sub(/.*; /, "", seg)        # the clause the number stands in
        if (before ~ /cuda[A-Za-z0-9_]+ x$/) {
          call = before; sub(/ x$/, "", call); sub(/.* /, "", call)
          if (seg ~ /not modelled: / || after ~ /^[^;]*not modelled/) key = "nm:" call
          else if (after ~ /^[^;]*stream-ordered allocation/) key = "alloc:" call
        }
        else if (after ~ /^ ops/) key = "ops"
        else if (after ~ /^ memsets?[ ,;)]/) key = "memset"
        else if (after ~ /^ host functions?[ ,;)]/) key = "hostfn"
        else if (after ~ /^ launch(es)? that loads? (its|their) kernel.s code/) key = "loads"
        else if (after ~ /^ starts? of (a )?`thread` blocks?/) key = "thread"
        else if (after ~ /^ that called while another thread.s call was under way/) key = "thread"
        else if (after ~ /^ graph launch(es)?[ ,;)]/) key = "graph"
        else if (after ~ /^ of them( \([^)]*\))? with branches/) key = "branched"
        else if (after ~ /^ intervals? timed with cudaEventElapsedTime/) key = "elapsed"
        else if (after ~ /^ calls? captured into graphs?/) key = "captured"
        else if (after ~ /^ host threads?/ && before ~ /calls from $/) key = "threads"
        else if (after ~ /^ on the H200\)/ && before ~ /\($/ && last != "") { key = last; gpu = "h200" }
        else if (after ~ /^ of the [0-9]+ cuda[A-Za-z0-9_]+ calls set 0 bytes/) {
          call = after; sub(/^ of the [0-9]+ /, "", call); sub(/ .*/, "", call); key = "zero:" call
        }
        else if (after ~ /^ cuda[A-Za-z0-9_]+ calls set 0 bytes/ && before ~ /of the $/) {
          call = after; sub(/^ /, "", call); sub(/ .*/, "", call); key = "calls:" call
        }
        else if (num == "0" && after ~ /^ bytes/ && before ~ /calls set $/) continue
        if (key == "") { print "? " num " ..." substr(done, length(done) - 40) substr(after, 1, 30) "..."; continue }
        print gpu, key, num
        if (gpu == "h100") last = key
      }
      found = 1
    }
    END { if (!found) print "! no line" }' "$1"
}

# check TRACES RESULTS: prints each disagreement; returns 1 if any.
check () {
  local traces=$1 results=$2 bad=0 n=0 readme program gpu sched
  for readme in "$traces"/*/README.md; do
    program=$(basename "$(dirname "$readme")")
    for gpu in h100 h200; do
      sched=$results/$gpu/real/$program.sched
      [ -f "$sched" ] || sched=$sched.gz
      if [ ! -f "$sched" ]; then echo "$readme: no schedule $results/$gpu/real/$program.sched(.gz)"; bad=1; continue 2; fi
      facts "$sched" "$gpu" | sed "s|^|$gpu ${sched#"$src"/} |" >> "$work/facts.$program"
    done
    claims "$readme" > "$work/claims.$program"
    n=$((n + 1))
    awk -v readme="${readme#"$src"/}" '
      FNR == NR { have[$1 " " $3] = $4; where[$1] = $2; next }
      $1 == "!" { print readme ": no \"**The H100 recording**:\" line"; bad = 1; next }
      $1 == "?" { print readme ": " $2 " cannot be checked against the schedule: " substr($0, length($2) + 4); bad = 1; next }
      $3 == "none" { said[$1 " " $2] = 1; next }
      {
        said[$1 " " $2] = 1
        got = ($1 " " $2) in have ? have[$1 " " $2] : 0
        if ($3 != got) { print readme ": " $3 " (" $2 "), but " where[$1] " has " got; bad = 1 }
      }
      END {
        if (!("h100 ops" in said)) { print readme ": no op count"; bad = 1 }
        for (k in have) {
          split(k, p, " ")
          if (p[1] != "h100" || k in said || p[2] ~ /^calls:/ || p[2] == "threads" && have[k] == 1) continue  # one thread goes without saying
          print readme ": says nothing of " have[k] " (" p[2] "), which " where["h100"] " has"; bad = 1
        }
        exit bad
      }' "$work/facts.$program" "$work/claims.$program" || bad=1
  done
  echo "real READMEs: $n checked"
  return $bad
}

if [ "$self_test" = 1 ]; then
  readme=$src/traces/real/matrixMul/README.md
  ops=$(sed -n 's/^- \*\*The H100 recording\*\*: \([0-9]*\) ops.*/\1/p' "$readme")
  wrong=$((${ops:?self-test: no op count in $readme} + 1))
  mkdir -p "$work/traces/matrixMul"
  sed "s/^\(- \*\*The H100 recording\*\*: \)$ops /\1$wrong /" "$readme" > "$work/traces/matrixMul/README.md"
  if out=$(check "$work/traces" "$src/validate/results"); then
    echo "self-test: matrixMul's op count changed from $ops to $wrong was not reported" >&2
    exit 1
  fi
  grep -q "matrixMul/README.md: $wrong (ops), but .*/h100/real/matrixMul.sched has $ops\$" <<<"$out" ||
    { echo "self-test: wrong report: $out" >&2; exit 1; }
  rm -f "$work"/facts.* "$work"/claims.*
  echo "self-test: an op count changed from $ops to $wrong is reported"
fi
check "$src/traces/real" "$src/validate/results"
