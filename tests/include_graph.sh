#!/usr/bin/env bash
# tests/include_graph.sh: every #include of the project points down its layers.
#
#   sim/core     the event core and the shared types   includes nothing of the project
#   sim/formats  schedules, profiles, timelines         core
#   sim/recorded a recorded program as a schedule       core, formats
#   sim/import   profilers' traces as recorded programs core, formats, recorded
#   engines      the GPU model                          core
#   sim/front    predictions, pictures, the CLI         core, formats, recorded, import, engines
#   validate     the CUDA harness                       core, formats, recorded, kernels
#   kernels      the harness's CUDA kernels             nothing of the project
#
# An include is resolved as the compiler would: beside the including file,
# else from the repository root. Usage: tests/include_graph.sh [ROOT]; with
# --self-test it first builds a small tree with one wrong include and fails
# unless that include is reported. Exit 0: every include points down.
set -euo pipefail

# allowed LAYER: the layers a file of LAYER may include
allowed () {
  case "$1" in
    sim/core) echo "sim/core" ;;
    sim/formats) echo "sim/core sim/formats" ;;
    sim/recorded) echo "sim/core sim/formats sim/recorded" ;;
    sim/import) echo "sim/core sim/formats sim/recorded sim/import" ;;
    engines) echo "sim/core engines" ;;
    sim/front) echo "sim/core sim/formats sim/recorded sim/import engines sim/front" ;;
    validate) echo "sim/core sim/formats sim/recorded kernels validate" ;;
    kernels) echo "kernels" ;;
  esac
}

layer_of () {
  case "$1" in
    sim/core/*) echo sim/core ;;
    sim/formats/*) echo sim/formats ;;
    sim/recorded/*) echo sim/recorded ;;
    sim/import/*) echo sim/import ;;
    sim/front/*) echo sim/front ;;
    engines/*) echo engines ;;
    validate/*) echo validate ;;
    kernels/*) echo kernels ;;
    *) echo other ;;
  esac
}

# check ROOT: prints each include that points up or sideways; returns 1 if any.
check () {
  local root=$1 bad=0 n=0 file from dir inc target to
  cd "$root"
  while IFS= read -r file; do
    from=$(layer_of "$file")
    [ "$from" = other ] && continue
    dir=$(dirname "$file")
    while IFS= read -r inc; do
      if [ -e "$dir/$inc" ]; then
        target=$(realpath --relative-to=. "$dir/$inc")
      elif [ -e "$inc" ]; then
        target=$inc
      else
        continue # a system header that shares the quote form
      fi
      n=$((n + 1))
      to=$(layer_of "$target")
      if [[ " $(allowed "$from") " != *" $to "* ]]; then
        echo "$file includes $target: $from may include only $(allowed "$from")"
        bad=1
      fi
    done < <(sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]+"([^"]+)".*/\1/p' "$file")
  done < <(find sim engines validate kernels -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' \) \
             -not -path 'validate/results/*' | sort)
  echo "include graph: $n includes checked"
  cd - >/dev/null
  return $bad
}

if [ "${1:-}" = --self-test ]; then
  shift
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/sim/core" "$tmp/sim/formats" "$tmp/sim/front" "$tmp/engines" "$tmp/validate" "$tmp/kernels"
  echo '#include "sim/core/a.h"' > "$tmp/engines/e.h"
  echo '' > "$tmp/sim/core/a.h"
  echo '#include "engines/e.h"' > "$tmp/validate/v.c" # the harness may not use the engines
  if out=$(check "$tmp"); then
    echo "self-test: an include of engines/ from validate/ was not reported" >&2
    exit 1
  fi
  grep -q '^validate/v.c includes engines/e.h' <<<"$out" || { echo "self-test: wrong report: $out" >&2; exit 1; }
  echo "self-test: a wrong include is reported"
fi
check "${1:-$(cd "$(dirname "$0")/.." && pwd)}"
