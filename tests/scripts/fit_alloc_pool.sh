#!/usr/bin/env bash
# tests/scripts/fit_alloc_pool.sh SOURCE_DIR: validate/fit-alloc-pool.sh on made-up probe
# output, against values worked out by hand (us):
#   `end` cases: malloc 0.5 and 0.7 -> 0.60, free 0.7 and 0.9 -> 0.80;
#   growth (default each less keep each): 64 MiB 112 - 2 = 110, 128 MiB 212 - 2 = 210:
#     slope 100 / 64 = 1.5625 us/MiB (1048576 / 1.5625 / 1000 = 671.1 GB/s), intercept
#     110 - 1.5625 x 64 = 10.0; 1 MiB 50 - 2 = 48.0;
#   give-back (SYNC_CALL): 64 MiB 160 - 20 = 140, 128 MiB 300 - 20 = 280: slope 2.1875
#     us/MiB (479.3 GB/s), intercept 0.0.
# No argument fails with usage; a file without `end` cases fails.
set -euo pipefail
src=${1:?usage: fit_alloc_pool.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/run.out" <<'DATA'
gpu Made Up GPU
case 1 default each 50 1 70 0
case 1 keep each 2 1 20 0
case 1 default end 0.5 0.7 0 0
case 1 keep end 0.7 0.9 0 0
case 64 default each 112 1 160 0
case 64 keep each 2 1 20 0
case 128 default each 212 1 300 0
case 128 keep each 2 1 20 0
DATA
cat > "$work/want" <<'OUT'
malloc_async=0.60us
free_async=0.80us
pool_grow=10.0us
pool_grow_rate=671.1GB/s
pool_trim_rate=479.3GB/s
# pool_trim intercept 0.0 us; growth up to 32 MiB 48.0 us
OUT
bash "$src/validate/fit-alloc-pool.sh" "$work/run.out" > "$work/got"
diff -u "$work/want" "$work/got"
grep -v end "$work/run.out" > "$work/no-end.out"
if bash "$src/validate/fit-alloc-pool.sh" "$work/no-end.out" 2> /dev/null; then
  echo "a file without end cases: expected a failure" >&2
  exit 1
fi
if bash "$src/validate/fit-alloc-pool.sh" 2> "$work/err"; then
  echo "no argument: expected a failure" >&2
  exit 1
fi
grep -q usage "$work/err"
# a missing run is refused with the script's own message, before anything is printed
status=0
out=$(bash "$src/validate/fit-alloc-pool.sh" "$work/run.out" "$work/absent.out" 2> "$work/err") \
  || status=$?
if [ "$status" -ne 2 ] || [ -n "$out" ] \
   || ! grep -q "fit-alloc-pool.sh: cannot read $work/absent.out" "$work/err"; then
  echo "a missing run: exit $status, printed: $out; $(cat "$work/err")" >&2
  exit 1
fi
echo "fit_alloc_pool: ok"
