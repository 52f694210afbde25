#!/usr/bin/env bash
# scripts/seed-table.sh: install what is missing, build, and predict the seed experiment
# (traces/seed/: the blog post "How to Overlap Data Transfers in CUDA Fortran") on the
# three devices, next to the times measured there (traces/seed/measured.csv).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
streamsim_install_deps
streamsim_build build -DCMAKE_BUILD_TYPE=Release
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-7s %-11s %12s %12s %8s\n' device variant predicted_ms measured_ms error
grep -v '^#' traces/seed/measured.csv | tail -n +2 | while IFS=, read -r device variant measured; do
  ./build/bin/streamsim predict "traces/seed/$variant.sched" --device "$device" \
    --csv "$tmp/t.csv" --quiet
  # the makespan is the largest end_ns of the timeline CSV
  awk -F, -v d="$device" -v v="$variant" -v m="$measured" '
    /^#/ { next }
    !c { for (i = 1; i <= NF; i++) if ($i == "end_ns") c = i; next }
    $c > max { max = $c }
    END { p = max / 1e6; printf "%-7s %-11s %12.3f %12.3f %+7.1f%%\n", d, v, p, m, 100 * (p - m) / m }
  ' "$tmp/t.csv"
done
