#!/usr/bin/env bash
# scripts/release.sh on the build's binary (issue 33), without rebuilding: `--binary`.
# CUDALINT_STATIC=ON build: release.sh succeeds; the binary is stripped, <= 60 MiB, `file` says
# "statically linked", `ldd` says "not a dynamic executable", it runs `--version` and lints a
# Dockerfile with an empty environment from an empty directory, and the wheel is tagged
# manylinux_2_17_x86_64. Dynamic build: release.sh refuses it (it must not call a dynamic binary
# static), and with --dynamic packages it with the tag its libraries allow.
# Usage: release_test.sh CUDALINT_BINARY ON|OFF OUTDIR
set -uo pipefail
bin=$(readlink -f "${1:?usage: release_test.sh CUDALINT_BINARY ON|OFF OUTDIR}")
static=${2:?}
out=${3:?}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
rm -rf "$out"
failures=0
fail() { echo "MISMATCH: $*"; failures=$((failures + 1)); }
max=$((60 * 1024 * 1024))

if [[ $static == ON ]]; then
  echo "\$ scripts/release.sh --binary $bin --out $out"
  "$repo/scripts/release.sh" --binary "$bin" --out "$out" || fail "release.sh failed on a static build"
  exe=$(ls "$out"/cudalint-*-linux-x86_64 2>/dev/null | head -n 1)
  [[ -x $exe ]] || { echo "FAIL: no binary in $out"; exit 1; }
  size=$(stat -c %s "$exe")
  echo "binary: $exe, $size bytes; file: $(file -b "$exe")"
  ((size <= max)) || fail "$size bytes > $max"
  file -b "$exe" | grep -q 'statically linked' || fail "file does not say statically linked"
  file -b "$exe" | grep -q ', stripped' || fail "file does not say stripped"
  [[ $(ldd "$exe" 2>&1 | tr -d '\t') == "not a dynamic executable" ]] || fail "ldd: $(ldd "$exe" 2>&1)"
  empty=$(mktemp -d)
  printf 'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST="sm_80"\n' >"$empty/Dockerfile"
  (cd "$empty" && env -i "$exe" --version) || fail "--version with an empty environment"
  res=$(cd "$empty" && env -i "$exe" check --no-cache --color never Dockerfile); rc=$?
  rm -rf "$empty"
  [[ $rc -eq 1 ]] && grep -q 'Dockerfile:2:27: error: .*\[ARCH004\]' <<<"$res" || fail "check with an empty environment: exit $rc: $res"
  ls "$out"/cudalint-*-py3-none-manylinux_2_17_x86_64.whl >/dev/null 2>&1 || fail "no manylinux_2_17 wheel: $(ls "$out")"
  (cd "$out" && sha256sum -c SHA256SUMS) || fail "SHA256SUMS"
else
  echo "\$ scripts/release.sh --binary $bin --out $out   (a dynamic build: must refuse)"
  msg=$("$repo/scripts/release.sh" --binary "$bin" --out "$out" 2>&1); rc=$?
  printf '%s\n[exit status %s]\n' "$msg" "$rc"
  [[ $rc -ne 0 ]] || fail "release.sh accepted a dynamic binary as static"
  grep -q 'is not static' <<<"$msg" || fail "release.sh does not say the binary is not static"
  rm -rf "$out"
  echo "\$ scripts/release.sh --dynamic --binary $bin --out $out"
  "$repo/scripts/release.sh" --dynamic --binary "$bin" --out "$out" || fail "release.sh --dynamic failed"
  exe=$(ls "$out"/cudalint-*-linux-x86_64 2>/dev/null | head -n 1)
  [[ -x $exe ]] || { echo "FAIL: no binary in $out"; exit 1; }
  size=$(stat -c %s "$exe")
  echo "binary: $exe, $size bytes; file: $(file -b "$exe")"
  ((size <= max)) || fail "$size bytes > $max"
  file -b "$exe" | grep -q 'dynamically linked' || fail "file does not say dynamically linked"
  whl=$(ls "$out"/cudalint-*.whl 2>/dev/null | head -n 1)
  needs=$(readelf -d "$exe" | grep -o 'Shared library: \[[^]]*\]' | grep -Ev 'lib(c|m|pthread|dl|rt|gcc_s|stdc\+\+)\.so|ld-linux' || true)
  if [[ -n $needs ]]; then
    [[ $whl == *-py3-none-linux_x86_64.whl ]] || fail "wheel $whl: the binary needs $needs, so the tag must be linux_x86_64"
  else
    [[ $whl == *-py3-none-manylinux_2_*_x86_64.whl ]] || fail "wheel $whl is not manylinux"
  fi
fi
echo
if ((failures)); then echo "FAILED: $failures mismatch(es)"; exit 1; fi
echo "OK"
