#!/usr/bin/env bash
# One command: install missing dependencies, build, and run every test (unit, fixtures, golden,
# SARIF schema validation, CLI end to end).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
(cd build && ctest --output-on-failure -j "${CUDALINT_TEST_JOBS:-$(nproc)}" "$@")
# Robustness (issue 9): the suite under ASan + UBSan and a bounded fuzz run, in build-fuzz
# (about 20 minutes on 2 cores). CUDALINT_ROBUSTNESS=0 skips it, e.g. for quick local runs.
if [[ ${CUDALINT_ROBUSTNESS:-1} != 0 ]]; then
  scripts/robustness.sh
fi
