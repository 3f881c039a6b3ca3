#!/usr/bin/env bash
# The wheel (issue 33) installed offline into a fresh venv: `pip install --no-index` puts
# `cudalint` on the venv's PATH; --version, `python -m cudalint` and `check` on a clean and a bad
# project give the expected output and exit codes. Exits 77 (skipped) when python3 cannot make a
# venv with pip (Debian: apt-get install python3-venv).
# Usage: wheel_test.sh WHEELHOUSE   (the directory tests/integration/wheel_build.sh filled)
set -uo pipefail
house=$(readlink -f "${1:?usage: wheel_test.sh WHEELHOUSE}")
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
whl=$(ls "$house"/cudalint-*.whl 2>/dev/null | head -n 1)
[[ -f $whl ]] || { echo "FAIL: no wheel in $house (the wheelhouse fixture failed?)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "MISMATCH: $*"; failures=$((failures + 1)); }
py=/usr/bin/python3; [[ -x $py ]] || py=python3
if ! "$py" -m venv "$tmp/venv" >"$tmp/venv.log" 2>&1 || [[ ! -x $tmp/venv/bin/pip ]]; then
  cat "$tmp/venv.log"
  echo "SKIP: $py -m venv cannot make a venv with pip (apt-get install python3-venv)"
  exit 77
fi
export HOME="$tmp/home" PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
mkdir -p "$HOME"
echo "\$ pip install --no-index $(basename "$whl")"
start=$(date +%s.%N)
"$tmp/venv/bin/pip" install --no-index "$whl" || fail "pip install failed"
echo "[pip install: $(python3 -c "print(round($(date +%s.%N) - $start, 1))") s]"
# Only the venv's bin on PATH, as in an activated venv: no other cudalint can answer.
export PATH="$tmp/venv/bin:/usr/bin:/bin"
[[ $(command -v cudalint) == "$tmp/venv/bin/cudalint" ]] || fail "cudalint on PATH is $(command -v cudalint), not the venv's"
version=$(cudalint --version); rc=$?
echo "\$ cudalint --version"; echo "$version"
[[ $rc -eq 0 ]] || fail "--version exited $rc"
[[ $version =~ ^cudalint\ [0-9]+\.[0-9]+\.[0-9]+[^\ ]*\ \([0-9a-f]{7,40}(-dirty)?\)$ ]] || fail "--version printed '$version'"
wheel_version=$(basename "$whl" | cut -d- -f2)
described=$(cut -d' ' -f2 <<<"$version")
expected=$(python3 -c 'import importlib.util, sys
spec = importlib.util.spec_from_file_location("bw", sys.argv[1]); m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m); print(m.pep440(sys.argv[2]))' "$repo/scripts/build-wheel.py" "$described")
[[ $wheel_version == "$expected" ]] || fail "wheel version $wheel_version is not $expected (from '$version')"
[[ $("$tmp/venv/bin/python" -m cudalint --version) == "$version" ]] || fail "python -m cudalint --version differs"

mkdir -p "$tmp/clean" "$tmp/bad"
cp -r "$repo/examples/clean/." "$tmp/clean/"
printf 'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST="sm_80"\n' >"$tmp/bad/gpu.dockerfile"
echo "\$ cudalint check   (examples/clean)"
out=$(cd "$tmp/clean" && cudalint check --color never 2>&1); rc=$?
printf '%s\n[exit status %s]\n' "$out" "$rc"
[[ $rc -eq 0 && -z $out ]] || fail "clean project: exit $rc, output '$out'"
echo "\$ cudalint check   (a gpu.dockerfile with TORCH_CUDA_ARCH_LIST=sm_80)"
out=$(cd "$tmp/bad" && cudalint check --color never 2>&1); rc=$?
printf '%s\n[exit status %s]\n' "$out" "$rc"
[[ $rc -eq 1 ]] || fail "bad project: exit $rc, not 1"
grep -q 'gpu.dockerfile:2:27: error: .*\[ARCH004\]' <<<"$out" || fail "bad project: no ARCH004 on gpu.dockerfile:2:27"

echo
if ((failures)); then echo "FAILED: $failures mismatch(es)"; exit 1; fi
echo "OK: the wheel installs offline into a fresh venv and its cudalint works"
