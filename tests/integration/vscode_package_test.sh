#!/usr/bin/env bash
# integrations/vscode/package.sh --offline in a scratch copy of the extension (its tracked files,
# plus the source tree's node_modules, linked): the extension's tests (npm test: binary discovery
# and activation against fakes) pass and it writes dist/cudalint-vscode-<version>.vsix with the
# compiled extension and its runtime dependency. With WHEELHOUSE (tests/integration/wheel_build.sh's
# output) and a python3 that makes venvs, the packed discovery also finds a real wheel's cudalint:
# the wheel installed offline into a venv whose python is the only one on PATH.
# Exits 77 (skipped) when integrations/vscode/node_modules is missing: this test never fetches
# from the npm registry (`npm ci` in integrations/vscode first; vscode_test.sh does fetch).
# Usage: vscode_package_test.sh [WHEELHOUSE]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../../integrations/vscode" && pwd)
house=${1:-}
[[ -d $src/node_modules ]] || { echo "SKIP: no $src/node_modules (npm ci there first)"; exit 77; }
command -v node >/dev/null || { echo "SKIP: node is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "MISMATCH: $*"; failures=$((failures + 1)); }

mkdir "$tmp/ext"
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$src" && git ls-files -co --exclude-standard . | tar -cf - -T -) | tar -xf - -C "$tmp/ext"
else
  tar -C "$src" --exclude=node_modules --exclude=out --exclude=dist --exclude='*.vsix' -cf - . | tar -xf - -C "$tmp/ext"
fi
ln -s "$src/node_modules" "$tmp/ext/node_modules"
# package.sh's `npm test` runs ../../tests/integration/vscode/*.js relative to the extension.
mkdir -p "$tmp/tests/integration"
cp -r "$here/vscode" "$tmp/tests/integration/vscode"
mv "$tmp/ext" "$tmp/vscode"
mkdir -p "$tmp/integrations" && mv "$tmp/vscode" "$tmp/integrations/vscode"
ext=$tmp/integrations/vscode

echo "\$ integrations/vscode/package.sh --offline"
out=$("$ext/package.sh" --offline 2>"$tmp/package.log"); rc=$?
tail -n 25 "$tmp/package.log"
[[ $rc -eq 0 ]] || { echo "FAIL: package.sh exited $rc"; exit 1; }
version=$(node -p "require('$ext/package.json').version")
vsix=$ext/dist/cudalint-vscode-$version.vsix
[[ $out == "integrations/vscode/dist/cudalint-vscode-$version.vsix" ]] || fail "package.sh printed '$out'"
[[ -f $vsix ]] || { echo "FAIL: no $vsix"; exit 1; }
echo "vsix: $(basename "$vsix"), $(stat -c %s "$vsix") bytes"
grep -q 'ok: binary discovery' "$tmp/package.log" || fail "npm test did not run the discovery test"
grep -q 'ok: activation' "$tmp/package.log" || fail "npm test did not run the activation test"
python3 - "$vsix" "$tmp/unpacked" <<'PY' || fail ".vsix contents"
import json, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
names = set(z.namelist())
for need in ("extension/out/extension.js", "extension/out/discover.js", "extension/package.json",
             "extension/node_modules/vscode-languageclient/package.json"):
    if need not in names:
        sys.exit(f"FAIL: {need} is not in the .vsix")
bad = [n for n in names if n.startswith(("extension/src/", "extension/dist/", "extension/node_modules/typescript/",
                                         "extension/node_modules/@vscode/vsce/")) or n.endswith(("package.sh", ".vsix"))]
if bad:
    sys.exit(f"FAIL: packed but should not be: {bad[:5]}")
pkg = json.loads(z.read("extension/package.json"))
if pkg["contributes"]["configuration"]["properties"]["cudalint.path"]["default"] != "":
    sys.exit("FAIL: cudalint.path must default to empty (discovery)")
z.extractall(sys.argv[2])
print(f"ok: {len(names)} files, out/extension.js and out/discover.js packed")
PY
echo "\$ node discover_test.js <packed out/discover.js>"
node "$here/vscode/discover_test.js" "$tmp/unpacked/extension/out/discover.js" || fail "discovery test on the packed discover.js"

whl=$(ls "${house:-/nonexistent}"/cudalint-*.whl 2>/dev/null | head -n 1)
if [[ -n $whl ]] && /usr/bin/python3 -m venv "$tmp/venv" >/dev/null 2>&1 && [[ -x $tmp/venv/bin/pip ]]; then
  echo "\$ pip install --no-index $(basename "$whl")   (a venv whose python3 is the only one on PATH)"
  PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 "$tmp/venv/bin/pip" install --quiet --no-index "$whl" || fail "pip install"
  # A wrapper, not a symlink: python finds its venv from the path it is started as.
  mkdir "$tmp/pyonly" && printf '#!/bin/sh\nexec "%s" "$@"\n' "$tmp/venv/bin/python3" >"$tmp/pyonly/python3"
  chmod +x "$tmp/pyonly/python3"
  found=$(node -e '
    const { discover } = require(process.argv[1]);
    discover("", { env: { PATH: process.argv[2] }, home: process.argv[3] }).then((f) => console.log(JSON.stringify(f)));
  ' "$tmp/unpacked/extension/out/discover.js" "$tmp/pyonly" "$tmp")
  echo "found: $found"
  [[ $found == "{\"command\":\"$tmp/venv/bin/cudalint\",\"source\":\"python wheel ($tmp/pyonly/python3)\"}" ]] ||
    fail "the wheel's cudalint was not found through python3"
  "$tmp/venv/bin/cudalint" --version || fail "the discovered cudalint does not run"
else
  echo "(no wheel or no python3 venv: the real-wheel discovery is not checked)"
fi
echo
if ((failures)); then echo "FAILED: $failures mismatch(es)"; exit 1; fi
echo "OK: the .vsix is packaged offline and finds cudalint"
