#!/usr/bin/env bash
# The `cudalint-system` pre-commit hook end to end (issue 7): pre-commit itself runs `pre-commit
# try-repo <cudalint checkout> cudalint-system` in a scratch git repository, so the hook definition in
# .pre-commit-hooks.yaml (with the checkout's uncommitted changes, as try-repo clones them) is what
# runs. Case 1: a staged Dockerfile with a finding -> the hook fails and shows the finding.
# Case 2: a clean staged Dockerfile (and a README the hook's types leave out) -> the hook passes.
# Prints a transcript; exits non-zero on any mismatch, and when pre-commit is not installed
# (CI installs it: scripts/install-deps.sh), because a skipped hook test hides a broken hook.
# Usage: precommit_test.sh CUDALINT_BINARY [CUDALINT_REPO]   (repo default: this checkout)
set -uo pipefail
bin=$(readlink -f "${1:?usage: precommit_test.sh CUDALINT_BINARY [CUDALINT_REPO]}")
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "${2:-$here/../..}" && pwd)
if ! command -v pre-commit >/dev/null; then
  echo "FAIL: pre-commit is not installed (apt-get install pre-commit; scripts/install-deps.sh does)"
  exit 1
fi
[[ -x $bin ]] || { echo "FAIL: $bin is not an executable"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# `language: system`: the hook runs `cudalint` from PATH, so the binary under test goes first.
# A private copy of it: a rebuild of the shared build directory relinks build/cudalint, and a
# hook that runs in that moment finds no executable.
mkdir "$tmp/bin"
cp "$bin" "$tmp/bin/cudalint"
export PATH="$tmp/bin:$PATH"
# Keep pre-commit's cache and the user's git configuration out of the test.
export PRE_COMMIT_HOME="$tmp/cache" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.invalid GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.invalid
unset NO_COLOR
failures=0
fail() { echo "MISMATCH: $*"; failures=$((failures + 1)); }

echo "pre-commit: $(pre-commit --version)"
echo "cudalint on PATH: $(command -v cudalint), a copy of $bin ($(cudalint --version 2>&1 | head -n 1))"
echo "hook repository: $repo (HEAD $(git -C "$repo" rev-parse --short HEAD))"
[[ $(command -v cudalint) == "$tmp/bin/cudalint" ]] || fail "cudalint on PATH is not the binary under test"

echo "\$ pre-commit validate-manifest .pre-commit-hooks.yaml"
(cd "$repo" && pre-commit validate-manifest .pre-commit-hooks.yaml) || fail "the hook manifest does not validate"

work="$tmp/project"
git init -q -b main "$work"

# try_hook CASE: runs the hook on what is staged in $work; sets $out and $rc.
try_hook() {
  echo
  echo "=== $1"
  echo "\$ git status --short"
  git -C "$work" status --short
  echo "\$ pre-commit try-repo $repo cudalint-system --color never"
  out=$(cd "$work" && pre-commit try-repo "$repo" cudalint-system --color never 2>&1)
  rc=$?
  printf '%s\n' "$out"
  echo "[exit status $rc]"
}

# Case 1: a staged Dockerfile whose arch list torch rejects (ARCH004 on line 2).
printf 'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST="sm_80"\n' >"$work/Dockerfile"
git -C "$work" add Dockerfile
try_hook "case 1: staged Dockerfile with a finding (hook must fail)"
[[ $rc -ne 0 ]] || fail "case 1: hook exited 0"
grep -Eq '^cudalint\.+Failed$' <<<"$out" || fail "case 1: no 'cudalint....Failed' line"
grep -q -- '- exit code: 1' <<<"$out" || fail "case 1: hook exit code is not 1"
grep -q 'Dockerfile:2:27: error: TORCH_CUDA_ARCH_LIST entry `sm_80`: torch expects `8.0`, not `sm_80` \[ARCH004\]' <<<"$out" ||
  fail "case 1: the ARCH004 finding is not in the output"

# Case 2: the same Dockerfile fixed, plus a file outside the hook's `files`; both staged.
printf 'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST="8.0;9.0"\n' >"$work/Dockerfile"
printf '# project\nENV TORCH_CUDA_ARCH_LIST="sm_80" is not read from markdown\n' >"$work/README.md"
git -C "$work" add Dockerfile README.md
try_hook "case 2: staged clean Dockerfile and a README (hook must pass)"
[[ $rc -eq 0 ]] || fail "case 2: hook exited $rc"
grep -Eq '^cudalint\.+Passed$' <<<"$out" || fail "case 2: no 'cudalint....Passed' line (skipped or failed?)"
grep -q 'ARCH0' <<<"$out" && fail "case 2: a finding was reported"

echo
if ((failures)); then
  echo "FAILED: $failures mismatch(es)"
  exit 1
fi
echo "OK: the hook fails on a finding and passes on clean files"
