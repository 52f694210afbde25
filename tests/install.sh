#!/usr/bin/env bash
# tests/install.sh: `cmake --install` into a fresh prefix, then the installed streamsim run
# from another folder finds its profiles and gnuplot scripts under PREFIX/share/streamsim.
#
#   tests/install.sh CMAKE BUILD_DIR SOURCE_DIR
#
# Expected values: the makespan of traces/seed/async-v1.sched on the c2050, 5.761 ms,
# is the seed table's (README.md; traces/seed/README.md derives the kernel times and
# tests/test_seed_table.c checks the same prediction against the measured 5.736 ms).
# That a file came from the prefix, not from the source tree compiled in as the
# build tree's fallback, is shown by removing it from the prefix: the message must
# then name the prefix's folder. Exit 0 when every check passed.
set -euo pipefail
cmake=${1:?usage: install.sh CMAKE BUILD_DIR SOURCE_DIR}
build=${2:?}
src=${3:?}

work=$(cd "$(mktemp -d)" && pwd -P)  # canonical, as the program reports its folders
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
failed=0
fail () { echo "FAIL: $*"; failed=1; }

"$cmake" --install "$build" --prefix "$prefix" > "$work/install.log"
share=$prefix/share/streamsim
for f in bin/streamsim share/streamsim/profiles/c2050.ini share/streamsim/profiles/h100.ini \
         share/streamsim/plots/gantt.gp share/streamsim/plots/sweep.gp; do
  [ -e "$prefix/$f" ] || fail "$f was not installed"
done
# the harness and its recorder, where the build made them
for f in validate/streamsim-validate validate/libstreamsim-record.so; do
  if [ -e "$build/$f" ]; then
    [ -e "$prefix/bin/$(basename "$f")" ] || fail "bin/$(basename "$f") was not installed"
  fi
done

# Another folder, holding only the schedule; no variable that points at the source tree.
elsewhere=$work/elsewhere
mkdir -p "$elsewhere/traces/seed"
cp "$src/traces/seed/async-v1.sched" "$elsewhere/traces/seed/"
cd "$elsewhere"
unset STREAMSIM_PROFILE_PATH STREAMSIM_PLOT_DIR
streamsim=$prefix/bin/streamsim

out=$("$streamsim" predict traces/seed/async-v1.sched --device c2050)
grep -qE '^makespan +5\.761 ms$' <<<"$out" || fail "predict: no 'makespan 5.761 ms' in: $out"

# the profile came from the prefix: without it there, the search names the prefix only
mv "$share/profiles/c2050.ini" "$work/c2050.ini"
if msg=$("$streamsim" predict traces/seed/async-v1.sched --device c2050 2>&1); then
  fail "predict found c2050 with the installed profile removed"
fi
grep -qF "looked for c2050.ini in $share/profiles)" <<<"$msg" \
  || fail "the not-found message names another folder: $msg"
mv "$work/c2050.ini" "$share/profiles/c2050.ini"

if command -v gnuplot > /dev/null; then
  "$streamsim" predict traces/seed/async-v1.sched --device c2050 --plot t.png -q \
    || fail "predict --plot failed"
  [ "$(head -c 4 t.png 2>/dev/null | tail -c 3)" = PNG ] || fail "t.png is not a PNG"
  mv "$share/plots/gantt.gp" "$work/gantt.gp"
  if msg=$("$streamsim" predict traces/seed/async-v1.sched --device c2050 --plot u.png -q 2>&1); then
    fail "predict --plot ran with the installed gantt.gp removed"
  fi
  grep -qF "$share/plots/gantt.gp: plot script not found" <<<"$msg" \
    || fail "the plot error names another script: $msg"
  mv "$work/gantt.gp" "$share/plots/gantt.gp"
else
  echo "gnuplot missing: plots not checked"
fi

[ "$failed" -eq 0 ] && echo "installed streamsim: ok"
exit "$failed"
