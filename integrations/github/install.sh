#!/bin/sh
# Installs a cudalint release (the static binary or the wheel) into DIR and prints the path of
# its `cudalint` executable. Used by the GitHub Action (action.yml); POSIX sh, so it runs in any
# image with sh, sha256sum and one of curl, python3 or wget (python3 and pip for the wheel).
#
# Usage: install.sh VERSION binary|wheel DIR [RELEASE_URL]
#   VERSION      0.1.0 or v0.1.0: the release tag v<VERSION>
#   binary       cudalint-<VERSION>-linux-<arch>, installed as DIR/bin/cudalint
#   wheel        cudalint-<VERSION>-py3-none-<platform>.whl, `pip install --target DIR/site-packages`,
#                whose cudalint is DIR/site-packages/bin/cudalint
#   DIR          the install (and cache) directory; a working install already there is reused
#   RELEASE_URL  where release assets are: RELEASE_URL/v<VERSION>/<asset> (default: the canonical
#                repository's release page; a file:// URL or a mirror works too)
# The asset's name is read from the release's SHA256SUMS (scripts/release.sh writes it), and the
# download is checked against it before anything is installed.
set -eu
version=${1:?usage: install.sh VERSION binary|wheel DIR [RELEASE_URL]}
kind=${2:?usage: install.sh VERSION binary|wheel DIR [RELEASE_URL]}
dir=${3:?usage: install.sh VERSION binary|wheel DIR [RELEASE_URL]}
base=${4:-https://github.com/cudalint/cudalint/releases/download}
version=${version#v}
base=${base%/}/v$version
say() { echo "cudalint install: $*" >&2; }

case $kind in
  binary) exe=$dir/bin/cudalint ;;
  wheel) exe=$dir/site-packages/bin/cudalint ;;
  *) say "unknown install kind '$kind' (binary or wheel)"; exit 2 ;;
esac
if [ -x "$exe" ] && "$exe" --version >/dev/null 2>&1; then
  say "cached: $exe ($("$exe" --version))"
  echo "$exe"
  exit 0
fi

fetch() {  # URL FILE
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 3 --retry-delay 2 -o "$2" "$1"
  elif command -v python3 >/dev/null 2>&1; then
    python3 -c 'import shutil, sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=120) as r, open(sys.argv[2], "wb") as f:
    shutil.copyfileobj(r, f)' "$1" "$2"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1"
  else
    say "needs curl, python3 or wget to download $1"
    return 1
  fi
}

arch=$(uname -m)
tmp=$dir/download
rm -rf "$tmp"
mkdir -p "$tmp"
say "$base/SHA256SUMS"
fetch "$base/SHA256SUMS" "$tmp/SHA256SUMS" || { say "cannot download $base/SHA256SUMS (is v$version released?)"; exit 1; }
case $kind in
  binary) pattern="^cudalint-.*-linux-$arch\$" ;;
  wheel) pattern="^cudalint-.*-py3-none-.*$arch.*\\.whl\$" ;;
esac
asset=$(awk '{ sub(/^\*/, "", $2); print $2 }' "$tmp/SHA256SUMS" | grep -E "$pattern" | head -n 1 || true)
[ -n "$asset" ] || { say "v$version has no $kind for $arch (SHA256SUMS lists: $(awk '{print $2}' "$tmp/SHA256SUMS" | tr '\n' ' '))"; exit 1; }
say "$base/$asset"
fetch "$base/$asset" "$tmp/$asset" || { say "cannot download $base/$asset"; exit 1; }
(cd "$tmp" && grep -E "[ *]$asset\$" SHA256SUMS | sha256sum -c - >/dev/null) || { say "$asset does not match SHA256SUMS"; exit 1; }

case $kind in
  binary)
    mkdir -p "$dir/bin"
    cp "$tmp/$asset" "$exe.tmp"
    chmod 0755 "$exe.tmp"
    mv "$exe.tmp" "$exe"
    ;;
  wheel)
    py=$(command -v python3 || command -v python || true)
    [ -n "$py" ] || { say "the wheel needs python3 with pip"; exit 1; }
    rm -rf "$dir/site-packages"
    # --target installs next to, not into, the interpreter's environment (no venv, and no
    # PEP 668 "externally managed" refusal); the executable goes to DIR/site-packages/bin.
    PIP_ROOT_USER_ACTION=ignore "$py" -m pip install --quiet --no-deps --no-index --disable-pip-version-check --target "$dir/site-packages" "$tmp/$asset" >&2 ||
      { say "pip install --target $dir/site-packages $asset failed (python3 -m pip missing?)"; exit 1; }
    ;;
esac
rm -rf "$tmp"
"$exe" --version >/dev/null || { say "$exe does not run"; exit 1; }
say "installed $exe ($("$exe" --version))"
echo "$exe"
