#!/usr/bin/env bash
# Fails when a committed artifact in out/ differs from a fresh build of src/ (scripts/build.mjs).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
node "$here/scripts/build.mjs" "$tmp" >/dev/null
for artifact in Marketplace SignatureValidator; do
  if [ ! -f "$here/out/$artifact.json" ]; then
    echo "artifact check FAILED: contracts/out/$artifact.json is missing; run: node contracts/scripts/build.mjs" >&2
    exit 1
  fi
  if ! cmp -s "$tmp/$artifact.json" "$here/out/$artifact.json"; then
    echo "artifact check FAILED: contracts/out/$artifact.json is stale (it differs from a fresh build of contracts/src)." >&2
    echo "Rebuild and commit it: node contracts/scripts/build.mjs && git add contracts/out" >&2
    diff <(head -c 2000 "$here/out/$artifact.json") <(head -c 2000 "$tmp/$artifact.json") | head -20 >&2 || true
    exit 1
  fi
  echo "artifact check ok: contracts/out/$artifact.json matches contracts/src"
done
