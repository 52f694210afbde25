#!/usr/bin/env bash
# scripts/fuzz.sh [SECONDS]: builds the libFuzzer targets of tests/fuzz with clang, ASan and
# UBSan (in build-fuzz, or $STREAMSIM_FUZZ_DIR), and runs each for SECONDS (default 60) from its seed corpus.
# Prints one line per target with its executions; on a finding prints where libFuzzer
# put the input (build-fuzz/findings/) and exits 1. New corpus entries go to
# build-fuzz/corpus/, never into the repository's tests/fuzz/corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
seconds="${1:-${STREAMSIM_FUZZ_SECONDS:-60}}"
dir="${STREAMSIM_FUZZ_DIR:-build-fuzz}"
streamsim_install_deps clang libclang-rt-14-dev
targets=(fuzz_schedule fuzz_profile fuzz_timeline fuzz_predict fuzz_record fuzz_kineto fuzz_nsys)
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
mkdir -p "$dir"
if ! { cmake -S . -B "$dir" "${gen[@]}" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
         -DSTREAMSIM_FUZZ=ON -DBUILD_TESTING=OFF \
       && cmake --build "$dir" -j "$(nproc)" --target "${targets[@]}"; } >"$dir/build.log" 2>&1; then
  cat "$dir/build.log" >&2
  echo "streamsim: the fuzz build failed (log above, also in $dir/build.log)" >&2
  exit 1
fi

# `inherits = schematic-base` in the profile corpus resolves here.
export STREAMSIM_PROFILE_PATH="$PWD/tests/profiles"
# Leaks are findings too; a report ends the run with the input that caused it.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"

status=0
for target in schedule profile timeline predict record kineto nsys; do
  work="$dir/corpus/$target"
  findings="$dir/findings"
  log="$dir/fuzz-$target.log"
  mkdir -p "$work" "$findings"
  dict="tests/fuzz/$target.dict"
  [ "$target" = predict ] && dict="tests/fuzz/schedule.dict"
  # a database of a few tables holds a page of 512 bytes each
  max_len=8192
  [ "$target" = nsys ] && max_len=16384
  # The first folder receives what the fuzzer finds; the second only seeds it.
  if "$dir/tests/fuzz/fuzz_$target" "$work" "tests/fuzz/corpus/$target" \
       -dict="$dict" -max_total_time="$seconds" -max_len="$max_len" \
       -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
       -artifact_prefix="$findings/$target-" >"$log" 2>&1; then
    result="ok"
  else
    result="FOUND A PROBLEM"
    status=1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  corpus=$(find "$work" -type f | wc -l)
  printf 'fuzz %-9s %10s executions in %ss, corpus %s inputs: %s\n' \
    "$target" "${runs:-?}" "$seconds" "$corpus" "$result"
  if [ "$result" != ok ]; then
    grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|artifact_prefix|Test unit written)' "$log" \
      | head -8 | sed 's/^/  /'
    echo "  full log: $log; replay: $dir/tests/fuzz/fuzz_$target FILE"
  fi
done
exit $status
