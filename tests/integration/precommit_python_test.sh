#!/usr/bin/env bash
# The `language: python` pre-commit hook (issue 33), offline, from a clean HOME with no cudalint
# on PATH: `PIP_FIND_LINKS=<wheelhouse> PIP_NO_INDEX=1 pre-commit try-repo <checkout> cudalint`.
# pre-commit makes the hook's virtualenv and runs `pip install .` in its clone of the checkout;
# the in-tree backend (integrations/python/cudalint_build.py) takes the wheel from PIP_FIND_LINKS
# instead of building from source. Case 1: a clean project (Dockerfile, x.dockerfile,
# Containerfile, Dockerfile.cuda): passes. Case 2: findings in `gpu.dockerfile` and
# `Containerfile` (names identify does not tag): fails and shows them.
# Exits 77 (skipped) when pre-commit or a python3 with venv is missing.
# Usage: precommit_python_test.sh WHEELHOUSE [CUDALINT_REPO]
set -uo pipefail
house=$(readlink -f "${1:?usage: precommit_python_test.sh WHEELHOUSE [CUDALINT_REPO]}")
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "${2:-$here/../..}" && pwd)
command -v pre-commit >/dev/null || { echo "SKIP: pre-commit is not installed"; exit 77; }
ls "$house"/cudalint-*.whl >/dev/null 2>&1 || { echo "FAIL: no wheel in $house (the wheelhouse fixture failed?)"; exit 1; }
precommit=$(command -v pre-commit)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A clean HOME, pre-commit's cache inside it, no user git configuration, no network index, and a
# PATH of system directories only: the hook's cudalint can only come from the wheel.
export HOME="$tmp/home" PRE_COMMIT_HOME="$tmp/home/.cache/pre-commit" XDG_CACHE_HOME="$tmp/home/.cache"
export PATH=/usr/local/bin:/usr/bin:/bin GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.invalid GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.invalid
export PIP_FIND_LINKS="$house" PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1
unset VIRTUAL_ENV PYTHONPATH PYTHONHOME NO_COLOR CUDALINT_WHEEL CUDALINT_BUILD_FROM_SOURCE
mkdir -p "$HOME"
failures=0
fail() { echo "MISMATCH: $*"; failures=$((failures + 1)); }
if command -v cudalint >/dev/null; then
  echo "SKIP: a cudalint is on the system PATH ($(command -v cudalint)); the test needs none"
  exit 77
fi
echo "pre-commit: $("$precommit" --version) ($precommit); wheelhouse: $(ls "$house")"
echo "hook repository: $repo (HEAD $(git -C "$repo" rev-parse --short HEAD))"

work="$tmp/project"
git init -q -b main "$work"
try_hook() {  # CASE FILES...: sets $out and $rc
  local case=$1; shift
  echo; echo "=== $case"
  echo "\$ PIP_FIND_LINKS=$house PIP_NO_INDEX=1 pre-commit try-repo $repo cudalint --color never --files $*"
  local start=$(date +%s)
  out=$(cd "$work" && "$precommit" try-repo "$repo" cudalint --color never --verbose --files "$@" 2>&1)
  rc=$?
  printf '%s\n' "$out" | grep -v '^\[INFO\] Initializing environment\|^\[INFO\] Installing environment' | tail -n 40
  echo "[exit status $rc, $(( $(date +%s) - start )) s]"
}

# Case 1: a clean project, every Dockerfile spelling.
for f in Dockerfile x.dockerfile Containerfile Dockerfile.cuda; do
  printf 'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST="8.0;9.0"\n' >"$work/$f"
done
git -C "$work" add -A
try_hook "case 1: clean project (hook must pass)" Dockerfile x.dockerfile Containerfile Dockerfile.cuda
if [[ $rc -ne 0 ]]; then
  fail "case 1: hook exited $rc"
  log="$PRE_COMMIT_HOME/pre-commit.log"
  [[ -f $log ]] && tail -n 40 "$log"
fi
grep -Eq '^cudalint\.+Passed$' <<<"$out" || fail "case 1: no 'cudalint....Passed' line"

# Case 2: findings in names identify gives no tag.
printf 'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST="sm_80"\n' >"$work/gpu.dockerfile"
printf 'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV TORCH_CUDA_ARCH_LIST="3.7;8.0"\n' >"$work/Containerfile"
git -C "$work" add -A
try_hook "case 2: findings in gpu.dockerfile and Containerfile (hook must fail)" gpu.dockerfile Containerfile Dockerfile
[[ $rc -ne 0 ]] || fail "case 2: hook exited 0"
grep -Eq '^cudalint\.+Failed$' <<<"$out" || fail "case 2: no 'cudalint....Failed' line"
grep -q 'gpu.dockerfile:2:27: error: .*\[ARCH004\]' <<<"$out" || fail "case 2: no ARCH004 on gpu.dockerfile"
grep -q 'Containerfile:2:.*\[ARCH003\]' <<<"$out" || fail "case 2: no ARCH003 on Containerfile"
# (try-repo installs into a temporary store it deletes, so the hook's virtualenv cannot be
# inspected afterwards; a from-source build could not have finished offline in seconds: the
# clone has no third_party/, which CMake fetches with npm.)
echo
if ((failures)); then echo "FAILED: $failures mismatch(es)"; exit 1; fi
echo "OK: the python hook installs cudalint from the wheel offline, passes on clean files and fails on findings"
