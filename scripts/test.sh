#!/usr/bin/env bash
# scripts/test.sh: install what is missing, build, and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
streamsim_install_deps
streamsim_build build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTREAMSIM_WERROR=ON
ctest --test-dir build-test --output-on-failure -j "$(nproc)"
