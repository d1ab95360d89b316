#!/usr/bin/env bash
# Starts anvil (chain id 80001) on a loopback port, deploys the artifact with scripts/deploy.mjs,
# reads serviceFeeBps(), admin() and name() back with cast, and stops anvil.
# Port: $ANVIL_PORT, or a free loopback port.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/anvil.sh"
# anvil's first default account (a well-known public test key).
key=0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80
deployer=0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266

start_anvil

node "$here/scripts/deploy.mjs" --rpc-url "$rpc" --private-key "$key" --out "$tmp/deployments.json"
address="$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1]))["80001"].address)' "$tmp/deployments.json")"
fee="$("$bin/cast" call "$address" 'serviceFeeBps()(uint96)' --rpc-url "$rpc")"
admin="$("$bin/cast" call "$address" 'admin()(address)' --rpc-url "$rpc")"
name="$("$bin/cast" call "$address" 'name()(string)' --rpc-url "$rpc")"
if [ "$fee" != "500" ] || [ "${admin,,}" != "${deployer,,}" ] || [ "$name" != '"NFT Marketplace"' ]; then
  echo "deploy smoke FAILED: serviceFeeBps=$fee admin=$admin name=$name" >&2
  exit 1
fi
echo "deploy smoke ok: Marketplace at $address on chain 80001, serviceFeeBps=$fee, admin=$admin"
