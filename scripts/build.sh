#!/usr/bin/env bash
# Configures and builds cudalint into build/ (the binary is build/cudalint).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${CUDALINT_BUILD_JOBS:-$(nproc)}
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE:-RelWithDebInfo} "$@" >/dev/null
cmake --build build -j "$jobs"
