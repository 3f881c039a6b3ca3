#!/usr/bin/env bash
# One command on a fresh Debian 12 machine: install missing dependencies, build, and lint the
# bundled demo project (which has findings on purpose, so its exit status 1 is expected).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
echo "== cudalint check examples/demo"
set +e
(cd examples/demo && ../../build/cudalint check .)
rc=$?
set -e
[[ $rc -le 1 ]] || { echo "cudalint failed with exit status $rc"; exit "$rc"; }
echo "== done: build/cudalint is ready (demo exit status $rc: findings are expected)"
