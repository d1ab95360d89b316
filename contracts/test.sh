#!/usr/bin/env bash
# The contracts' test entry point (run from any directory):
#   1. installs the npm tools (solc-js, OpenZeppelin, forge, anvil, cast) if node_modules is missing
#      (`npm install` from the committed lock file: `npm ci` refuses this lock because the registry
#      reached here only has the linux-amd64 builds of forge/anvil/cast, so the other platforms'
#      optional packages cannot be recorded in it),
#   2. checks that the committed artifact out/Marketplace.json matches a fresh build of src/,
#   3. runs every forge test (unit, fuzz, invariant) with the gas report,
#   4. deploys the artifact to a throw-away anvil (chain id 80001) and reads it back.
# Exits non-zero on any failure.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"

if [ ! -x node_modules/.bin/forge ] || [ ! -d node_modules/solc ] || [ ! -d node_modules/@openzeppelin/contracts ]; then
  echo "== npm install (contracts, from package-lock.json)"
  npm install --no-audit --no-fund
fi

echo "== artifact check"
scripts/check-artifact.sh

echo "== forge test (unit, fuzz, invariant) with gas report"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
set +e
node_modules/.bin/forge test --gas-report 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
summary="$(grep -Eo '[0-9]+ tests passed, [0-9]+ failed, [0-9]+ skipped' "$log" | tail -n 1 || true)"
# The npm shim of forge exits 0 whatever forge returns, so the summary's failed count decides too.
if [ "$status" -ne 0 ] || [ -z "$summary" ] || [ "$(echo "$summary" | awk '{print $4}')" != 0 ]; then
  echo "forge test FAILED (exit $status; ${summary:-no summary})" >&2
  exit 1
fi

echo "== deploy smoke test (anvil, chain id 80001)"
scripts/deploy-smoke.sh

passed="$(echo "$summary" | awk '{print $1}')"
failed="$(echo "$summary" | awk '{print $4}')"
skipped="$(echo "$summary" | awk '{print $6}')"
echo "contracts: $passed passed, $failed failed, $skipped skipped"
