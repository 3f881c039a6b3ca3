#!/usr/bin/env bash
# Fetches the pinned tree-sitter runtime and Python grammar from the npm registry with
# `npm pack` (no install scripts run), checks their integrity, and unpacks the C sources into
# third_party/ (git-ignored). Re-running is a no-op when the pinned versions are present.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=third_party
pins=(
  "tree-sitter@0.25.0 sha512-PGZZzFW63eElZJDe/b/R/LbsjDDYJa5UEjLZJB59RQsMX+fo0j54fqBPn1MGKav/QNa0JR0zBiVaikYDWCj5KQ=="
  "tree-sitter-python@0.25.0 sha512-eCmJx6zQa35GxaCtQD+wXHOhYqBxEL+bp71W/s3fcDMu06MrtzkVXR437dRrCrbrDbyLuUDJpAgycs7ncngLXw=="
)
mkdir -p "$dest"
for pin in "${pins[@]}"; do
  spec=${pin%% *}
  want=${pin#* }
  name=${spec%@*}
  if [[ -f "$dest/$name/.pinned" && "$(cat "$dest/$name/.pinned")" == "$spec" ]]; then continue; fi
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "$spec" >/dev/null 2>&1)
  tgz=$(ls "$tmp"/*.tgz)
  got="sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)"
  if [[ "$got" != "$want" ]]; then
    echo "cudalint: integrity mismatch for $spec: $got" >&2
    exit 1
  fi
  rm -rf "${dest:?}/$name"
  mkdir -p "$dest/$name"
  tar xzf "$tgz" -C "$dest/$name" --strip-components=1
  echo "$spec" > "$dest/$name/.pinned"
  rm -rf "$tmp"
done
