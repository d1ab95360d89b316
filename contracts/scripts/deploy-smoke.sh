#!/usr/bin/env bash
# Starts anvil (chain id 80001) on a loopback port, deploys the artifact with scripts/deploy.mjs,
# reads serviceFeeBps(), admin() and name() back with cast, and stops anvil.
# Port: $ANVIL_PORT, or a free loopback port.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$here/node_modules/.bin"
# A free loopback port unless ANVIL_PORT is set.
port="${ANVIL_PORT:-$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')}"
rpc="http://127.0.0.1:$port"
tmp="$(mktemp -d)"
# anvil's first default account (a well-known public test key).
key=0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80
deployer=0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266

"$bin/anvil" --host 127.0.0.1 --port "$port" --chain-id 80001 --silent >"$tmp/anvil.log" 2>&1 &
anvil_pid=$!
trap 'kill "$anvil_pid" 2>/dev/null || true; wait "$anvil_pid" 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 1 100); do
  "$bin/cast" chain-id --rpc-url "$rpc" >/dev/null 2>&1 && break
  sleep 0.1
done

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
