# Sourced by the scripts that need a throw-away chain: `start_anvil [anvil flags...]` starts anvil
# (chain id 80001) on $ANVIL_PORT or a free loopback port, waits until it answers, and stops it
# (and removes $tmp) when the script exits. Sets here, bin, rpc and tmp; `acct KIND N` reads
# anvil's test accounts (KIND: private_keys or available_accounts).
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$here/node_modules/.bin"

start_anvil() {
  local port="${ANVIL_PORT:-$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')}"
  rpc="http://127.0.0.1:$port"
  tmp="$(mktemp -d)"
  "$bin/anvil" --host 127.0.0.1 --port "$port" --chain-id 80001 --silent --config-out "$tmp/anvil.json" "$@" >"$tmp/anvil.log" 2>&1 &
  anvil_pid=$!
  trap 'kill "$anvil_pid" 2>/dev/null || true; wait "$anvil_pid" 2>/dev/null || true; rm -rf "$tmp"' EXIT
  for _ in $(seq 1 100); do "$bin/cast" chain-id --rpc-url "$rpc" >/dev/null 2>&1 && break; sleep 0.1; done
  for _ in $(seq 1 50); do [ -s "$tmp/anvil.json" ] && break; sleep 0.1; done
}

acct() { node -e 'const c=JSON.parse(require("fs").readFileSync(process.argv[1]));console.log(c[process.argv[2]][+process.argv[3]])' "$tmp/anvil.json" "$1" "$2"; }
