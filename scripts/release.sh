#!/usr/bin/env bash
# Release artifacts in dist/ (issue 33):
#   dist/cudalint-<version>-linux-x86_64                   stripped, fully static binary
#   dist/cudalint-<version>-py3-none-manylinux_2_17_x86_64.whl   that binary as a wheel
#   dist/SHA256SUMS
# Builds cudalint in build-release/ (Release, no tests, -DCUDALINT_STATIC=ON: glibc, libstdc++,
# zlib, zstd and the Clang/LLVM archives linked in; needs Debian's libc6-dev, zlib1g-dev and
# libzstd-dev besides the usual build dependencies), takes the full build time (10-20 minutes on
# 2 cores), then checks what it wrote: `ldd` says "not a dynamic executable", the stripped binary
# is at most 60 MB, and it runs with an empty environment from an empty directory.
#
# Usage: scripts/release.sh [--dynamic] [--binary PATH] [--out DIR]
#   --dynamic      build without CUDALINT_STATIC (the binary then needs the build machine's
#                  glibc and libz/libzstd; the wheel is tagged for what it needs, see
#                  scripts/build-wheel.py) and skip the static checks
#   --binary PATH  package PATH instead of building (a build of your own, e.g. build/cudalint)
#   --out DIR      instead of dist/
# Environment: CUDALINT_RELEASE_BUILD_DIR (default build-release), CUDALINT_BUILD_JOBS (default
# all cores), CUDALINT_MAX_BYTES (default 62914560 = 60 MiB).
set -euo pipefail
cd "$(dirname "$0")/.."
static=1 binary="" out=dist
while (($#)); do
  case $1 in
    --dynamic) static=0 ;;
    --binary) binary=$(readlink -f "${2:?--binary needs a path}"); shift ;;
    --out) out=${2:?--out needs a directory}; shift ;;
    *) echo "usage: scripts/release.sh [--dynamic] [--binary PATH] [--out DIR]" >&2; exit 2 ;;
  esac
  shift
done
max=${CUDALINT_MAX_BYTES:-62914560}
say() { echo "release: $*" >&2; }

if [[ -z $binary ]]; then
  build=${CUDALINT_RELEASE_BUILD_DIR:-build-release}
  flags=(-DCMAKE_BUILD_TYPE=Release -DCUDALINT_BUILD_TESTS=OFF "-DCUDALINT_STATIC=$([[ $static == 1 ]] && echo ON || echo OFF)")
  say "configuring $build (${flags[*]})"
  mkdir -p "$build"
  if ! cmake -S . -B "$build" -G Ninja "${flags[@]}" >"$build/release-configure.log" 2>&1; then
    cat "$build/release-configure.log" >&2
    say "configure failed; a static build needs libc.a, libz.a and libzstd.a (apt-get install libc6-dev zlib1g-dev libzstd-dev), or pass --dynamic"
    exit 1
  fi
  say "building (the full build time on a fresh directory)"
  cmake --build "$build" --target cudalint -j "${CUDALINT_BUILD_JOBS:-$(nproc)}"
  binary=$(readlink -f "$build/cudalint")
fi

version=$("$binary" --version | awk '{print $2}')
mkdir -p "$out"
dest="$out/cudalint-$version-linux-x86_64"
cp "$binary" "$dest.tmp"
strip --strip-all "$dest.tmp"
chmod 0755 "$dest.tmp"
mv "$dest.tmp" "$dest"
dest_abs=$(readlink -f "$dest")
size=$(stat -c %s "$dest")
say "$dest: $size bytes stripped (unstripped $(stat -c %s "$binary"))"
say "file: $(file -b "$dest")"
say "ldd: $(ldd "$dest" 2>&1 | tr '\n' ' ')"

fail=0
if ((size > max)); then say "FAIL: $size bytes is over the $max-byte limit"; fail=1; fi
if [[ $static == 1 ]]; then
  if ! file -b "$dest" | grep -q 'statically linked' || ldd "$dest" 2>&1 | grep -qv 'not a dynamic executable'; then
    say "FAIL: $dest is not static (configure with -DCUDALINT_STATIC=ON, or pass --dynamic)"
    fail=1
  fi
  empty=$(mktemp -d)
  if ! (cd "$empty" && env -i "$dest_abs" --version >/dev/null); then
    say "FAIL: $dest does not run with an empty environment"
    fail=1
  fi
  rmdir "$empty"
else
  say "NOTE: dynamic build: it needs this machine's glibc ($(ldd --version | head -n 1 | awk '{print $NF}')) or newer and the libraries ldd lists"
fi
((fail == 0)) || exit 1

wheel=$(python3 scripts/build-wheel.py "$dest" --out "$out")
say "$wheel: $(stat -c %s "$wheel") bytes"
(cd "$out" && sha256sum "$(basename "$dest")" "$(basename "$wheel")" >SHA256SUMS)
echo "$dest"
echo "$wheel"
