#!/bin/sh
# Packages the VS Code extension: dist/cudalint-vscode-<version>.vsix (<version> from
# package.json), with @vscode/vsce from node_modules. Prints the .vsix's path.
#   integrations/vscode/package.sh [--offline]
# node_modules comes from `npm ci` (the committed package-lock.json, npm registry) when it is
# missing; --offline refuses to fetch it and exits 77 instead (what the ctest skips on).
# Then: tsc, the extension's tests (npm test: binary discovery and activation, against fakes),
# vsce package.
set -eu
cd "$(dirname "$0")"
offline=0
[ "${1:-}" = --offline ] && offline=1
for tool in node npm; do
  command -v "$tool" >/dev/null 2>&1 || { echo "package.sh: $tool is not installed" >&2; exit 1; }
done
if [ ! -x node_modules/.bin/vsce ] || [ ! -x node_modules/.bin/tsc ]; then
  if [ $offline = 1 ]; then
    echo "package.sh: no node_modules (run npm ci in integrations/vscode first); --offline: not fetching" >&2
    exit 77
  fi
  npm ci --ignore-scripts --no-audit --no-fund --fetch-timeout=60000 --fetch-retries=3 >&2
fi
version=$(node -p 'require("./package.json").version')
rm -rf out
node_modules/.bin/tsc -p . >&2
npm test --silent >&2
mkdir -p dist
vsix=dist/cudalint-vscode-$version.vsix
node_modules/.bin/vsce package --skip-license -o "$vsix" >&2
echo "integrations/vscode/$vsix"
