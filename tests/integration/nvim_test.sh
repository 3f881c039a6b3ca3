#!/usr/bin/env bash
# The Neovim end-to-end test of `cudalint lsp` (issue 7): headless Neovim opens a .cu file and
# a Dockerfile from a scratch copy of tests/integration/nvim/workspace, checks the diagnostics
# it shows, edits the buffers, applies quick fixes and a suppression, and stops the server.
# Usage: nvim_test.sh CUDALINT_BINARY [TRANSCRIPT_FILE]
# Fails (it does not skip) when nvim is missing: CI installs it (scripts/install-deps.sh).
# The whole run is bounded by CUDALINT_NVIM_TEST_TIMEOUT seconds (default 180).
set -euo pipefail
bin=$(readlink -f "$1")
transcript=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v nvim >/dev/null; then
  echo "nvim-lsp: FAIL: nvim is not installed (apt-get install neovim, or scripts/install-deps.sh)" >&2
  exit 1
fi
[[ -x $bin ]] || { echo "nvim-lsp: FAIL: $1 is not an executable" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$here/nvim/workspace" "$tmp/ws"
mkdir -p "$tmp/xdg"
# Neovim writes its LSP log under the cache dir: keep everything in the scratch dir.
export XDG_CACHE_HOME="$tmp/xdg" XDG_STATE_HOME="$tmp/xdg" XDG_DATA_HOME="$tmp/xdg" XDG_CONFIG_HOME="$tmp/xdg"
export CUDALINT_BIN="$bin" CUDALINT_WS="$tmp/ws"
rc=0
timeout -k 10 "${CUDALINT_NVIM_TEST_TIMEOUT:-180}" \
  nvim --headless -u "$here/nvim/init.lua" -i NONE -n -c "luafile $here/nvim/lsp_test.lua" </dev/null \
  >"$tmp/out.txt" 2>&1 || rc=$?
cat "$tmp/out.txt"
if [[ $rc -eq 124 || $rc -eq 137 ]]; then
  echo "nvim-lsp: FAIL: timed out after ${CUDALINT_NVIM_TEST_TIMEOUT:-180} s"
fi
# Neovim exits 0 only through the script's `qall` after PASS; anything else is a failure.
if [[ $rc -eq 0 ]] && ! grep -qx 'nvim-lsp: PASS' "$tmp/out.txt"; then
  echo "nvim-lsp: FAIL: Neovim exited without the script finishing"
  rc=1
fi
if [[ $rc -ne 0 && -f "$tmp/xdg/nvim/lsp.log" ]]; then
  echo "--- lsp.log (last 40 lines)"
  tail -n 40 "$tmp/xdg/nvim/lsp.log"
fi
if [[ -n $transcript ]]; then
  sed "s#$tmp/ws#<workspace>#g" "$tmp/out.txt" >"$transcript"
fi
exit $rc
