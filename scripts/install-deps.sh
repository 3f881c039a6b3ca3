#!/usr/bin/env bash
# Installs what cudalint needs to build and test on Debian 12, skipping what is present.
set -euo pipefail
pkgs=(cmake ninja-build g++ llvm-19-dev libclang-19-dev clang-19 libtomlplusplus-dev libfmt-dev
      libgtest-dev python3 python3-jsonschema git openssl
      zlib1g-dev libxml2-dev libncurses-dev  # what the static Clang/LLVM archives link against
      libzstd-dev  # libzstd.a: the fully static release binary (-DCUDALINT_STATIC=ON, scripts/release.sh)
      libclang-rt-19-dev  # libFuzzer and the sanitizer runtimes for clang-19 (scripts/fuzz.sh)
      pre-commit python3-yaml python3-venv nodejs neovim)  # integration tests: pre-commit hook, CI YAML, VS Code extension, LSP client
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "cudalint: installing ${missing[*]}"
  sudo_cmd=()
  [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
# npm fetches the pinned tree-sitter sources (scripts/fetch-third-party.sh).
if ! command -v npm >/dev/null; then
  sudo_cmd=()
  [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends npm
fi
