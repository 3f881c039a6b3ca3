#!/usr/bin/env bash
# Builds the wheel the wheel and pre-commit tests install (ctest fixture `wheelhouse`): strips a
# copy of the cudalint binary and packs it with scripts/build-wheel.py into OUTDIR (emptied first).
# Usage: wheel_build.sh CUDALINT_BINARY OUTDIR
set -euo pipefail
bin=$(readlink -f "${1:?usage: wheel_build.sh CUDALINT_BINARY OUTDIR}")
out=${2:?usage: wheel_build.sh CUDALINT_BINARY OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
rm -rf "$out"
mkdir -p "$out/bin"
cp "$bin" "$out/bin/cudalint"
strip --strip-all "$out/bin/cudalint"
whl=$(python3 "$repo/scripts/build-wheel.py" "$out/bin/cudalint" --out "$out")
rm -rf "$out/bin"
echo "binary: $(stat -c %s "$bin") bytes; stripped: $(python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(sum(i.file_size for i in z.infolist() if i.filename.endswith("/scripts/cudalint")))' "$whl") bytes"
echo "wheel: $whl, $(stat -c %s "$whl") bytes"
