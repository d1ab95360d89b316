#!/usr/bin/env bash
# Fails when the committed artifact out/Marketplace.json differs from a fresh build of src/.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
node "$here/scripts/build.mjs" "$tmp/Marketplace.json" >/dev/null
if [ ! -f "$here/out/Marketplace.json" ]; then
  echo "artifact check FAILED: contracts/out/Marketplace.json is missing; run: node contracts/scripts/build.mjs" >&2
  exit 1
fi
if ! cmp -s "$tmp/Marketplace.json" "$here/out/Marketplace.json"; then
  echo "artifact check FAILED: contracts/out/Marketplace.json is stale (it differs from a fresh build of contracts/src)." >&2
  echo "Rebuild and commit it: node contracts/scripts/build.mjs && git add contracts/out/Marketplace.json" >&2
  diff <(head -c 2000 "$here/out/Marketplace.json") <(head -c 2000 "$tmp/Marketplace.json") | head -20 >&2 || true
  exit 1
fi
echo "artifact check ok: contracts/out/Marketplace.json matches contracts/src"
