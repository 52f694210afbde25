#!/usr/bin/env bash
# scripts/test.sh: install what is missing, build, and run the whole test suite, then the same
# suite under AddressSanitizer and UBSan, valgrind memcheck on predictions and advice of the seed
# schedules, and each fuzz target (scripts/fuzz.sh) for STREAMSIM_FUZZ_SECONDS (default 60).
# Every stage runs even when one before it failed. The output ends with ctest's closing line
# and then one line counting every check: "N passed, N failed" (the tests of both builds,
# the valgrind runs and the fuzz targets).
# STREAMSIM_QUICK=1 runs only the first stage (the plain build and its tests). The build
# folders are build-test, build-test-asan and build-test-fuzz (STREAMSIM_BUILD_DIR renames
# the first, the others follow).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
streamsim_install_deps clang libclang-rt-14-dev valgrind

base="${STREAMSIM_BUILD_DIR:-build-test}"
checks_passed=0  # tests, valgrind runs and fuzz targets
checks_failed=0
failures=()
count () {
  checks_passed=$((checks_passed + $1))
  checks_failed=$((checks_failed + $2))
}

# stage NAME COMMAND...: one header line, the command's own short report, a verdict.
stage () {
  local name="$1"; shift
  printf '\n== %s\n' "$name"
  local start=$SECONDS
  if "$@"; then
    printf -- '-- passed (%ss)\n' $((SECONDS - start))
  else
    failures+=("$name")
    printf -- '-- FAILED (%ss)\n' $((SECONDS - start))
  fi
}

# ctest, showing its closing summary (and the output of failed tests only); counts its tests.
run_ctest () {
  local dir="$1"; shift
  local log="$dir/ctest.log"
  local ok=0
  ctest --test-dir "$dir" --output-on-failure -j "$(nproc)" "$@" >"$log" 2>&1 || ok=$?
  local summary failed total
  summary=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -1)
  failed=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$summary")
  total=$(sed -E 's/.* failed out of ([0-9]+).*/\1/' <<<"$summary")
  if [ -z "$summary" ]; then
    tail -n 40 "$log"
    count 0 1
    return 1
  fi
  count $((total - failed)) "$failed"
  if [ "$ok" -ne 0 ]; then
    # the output of the tests that failed, then ctest's closing summary
    grep -vE '^ *Start +[0-9]+:|Passed +[0-9.]+ sec' "$log" | tail -n 200
    return 1
  fi
  grep -E '^([0-9]+% tests passed|Total Test time)' "$log"
}

build_and_test () {
  if ! streamsim_build "$base" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTREAMSIM_WERROR=ON; then
    count 0 1
    return 1
  fi
  run_ctest "$base"
}

sanitized () {
  if ! streamsim_build "$base-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTREAMSIM_SANITIZE=ON; then
    count 0 1
    return 1
  fi
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    run_ctest "$base-asan"
}

# valgrind memcheck on the plain build's streamsim: no error and no leak (definite or
# indirect) predicting the three seed schedules on each seed device, with --check; and
# advising the pipeline over `--vary` values, once refused at a later one. Each case is
# its exit status, then its arguments.
memcheck () {
  [ -x "$base/bin/streamsim" ] || { echo "valgrind: no $base/bin/streamsim (the build failed)"; count 0 1; return 1; }
  local bad=0 runs=0 case want rc
  local -a cases=()
  for sched in sequential async-v1 async-v2; do
    for device in c1060 c2050 k20; do
      cases+=("0 predict traces/seed/$sched.sched --device $device --check --csv /dev/null --quiet")
    done
  done
  cases+=("0 advise traces/seed/pipeline.sched --device k20 --vary nchunks=1..8 -j 1 --quiet"
          "2 advise traces/seed/pipeline.sched --device k20 --vary nchunks=4,abc -j 1 --quiet")
  for case in "${cases[@]}"; do
    runs=$((runs + 1))
    want=${case%% *}
    # shellcheck disable=SC2086 # a case's arguments are its words
    valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
      --error-exitcode=99 "$base/bin/streamsim" ${case#* } >"$base/valgrind.log" 2>&1 && rc=0 || rc=$?
    if [ "$rc" != "$want" ]; then
      echo "valgrind: streamsim ${case#* }: exit $rc, expected $want:"
      head -40 "$base/valgrind.log"
      bad=$((bad + 1))
    fi
  done
  echo "valgrind: $((runs - bad)) of $runs runs clean"
  count $((runs - bad)) "$bad"
  [ "$bad" -eq 0 ]
}

fuzz () {
  local log="$base/fuzz.log" ok=0
  mkdir -p "$(dirname "$log")"
  STREAMSIM_FUZZ_DIR="$base-fuzz" ./scripts/fuzz.sh >"$log" 2>&1 || ok=$?
  cat "$log"
  local good bad
  good=$(grep -c '^fuzz .*: ok$' "$log" || true)
  bad=$(grep -c '^fuzz .*: FOUND A PROBLEM$' "$log" || true)
  [ "$ok" -ne 0 ] && [ "$bad" -eq 0 ] && bad=1 # the build failed
  count "$good" "$bad"
  [ "$ok" -eq 0 ]
}

stage "1/4 build and test" build_and_test
if [ "${STREAMSIM_QUICK:-0}" != 1 ]; then
  stage "2/4 the same tests under AddressSanitizer and UBSan" sanitized
  stage "3/4 valgrind memcheck of predict and advise on the seed schedules" memcheck
  stage "4/4 fuzzing, ${STREAMSIM_FUZZ_SECONDS:-60} s per target" fuzz
fi
printf '\n'
[ ${#failures[@]} -eq 0 ] || echo "failed stages: ${failures[*]}"
# ctest's closing line of the plain build, then every check counted.
grep -E '^[0-9]+% tests passed' "$base/ctest.log" 2>/dev/null || true
echo "$checks_passed passed, $checks_failed failed"
[ ${#failures[@]} -eq 0 ]
