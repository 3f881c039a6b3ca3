#!/usr/bin/env bash
# One command: install missing dependencies, build, and run every test (unit, fixtures, golden,
# SARIF schema validation, CLI end to end).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
cd build
ctest --output-on-failure -j "${CUDALINT_TEST_JOBS:-$(nproc)}" "$@"
