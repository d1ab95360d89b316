#!/usr/bin/env bash
# Prints the gas used by real transactions (intrinsic 21,000 and calldata included) for the main
# operations, on a throw-away anvil: mint, buyToken, bid, outbid, acceptOffer, settleAuction.
# The token has two royalty receivers, so a sale makes four payouts (2 royalties, fee, seller).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/anvil.sh"
start_anvil

# anvil's default test accounts, as it reports them.
k0="$(acct private_keys 0)"; k1="$(acct private_keys 1)"; k2="$(acct private_keys 2)"; k3="$(acct private_keys 3)"
r1="$(acct available_accounts 4)"; r2="$(acct available_accounts 5)"

node "$here/scripts/deploy.mjs" --rpc-url "$rpc" --private-key "$k0" --out "$tmp/d.json" >/dev/null
m="$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1]))["80001"].address)' "$tmp/d.json")"
uri="ipfs://bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy"
send() { # label key value sig args...
  local label="$1" key="$2" value="$3"; shift 3
  local gas
  gas="$("$bin/cast" send --rpc-url "$rpc" --private-key "$key" --value "$value" --json "$m" "$@" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const r=JSON.parse(s);if(r.status!=="0x1")process.exit(1);console.log(Number(BigInt(r.gasUsed)))})')"
  printf '%-48s %8s\n' "$label" "$gas"
}
now="$("$bin/cast" block latest --rpc-url "$rpc" --field timestamp)"
mint='mint(string,uint8,address[],uint96[],uint64,uint256,uint256)'
send "mint (fixed price, 2 royalties)" "$k1" 0 "$mint" "$uri" 1 "[$r1,$r2]" "[1000,250]" 0 0 1000000000000000000
send "buyToken (fixed, 4 payouts)" "$k2" 1ether 'buyToken(uint256)' 1
send "mint (auction, 2 royalties)" "$k1" 0 "$mint" "$uri" 2 "[$r1,$r2]" "[1000,250]" $((now + 86400)) 1000000000000000000 10000000000000000000
send "bid (first)" "$k2" 1ether 'bid(uint256)' 2
send "bid (outbid, refund pushed)" "$k3" 2ether 'bid(uint256)' 2
send "acceptOffer (accept, 4 payouts)" "$k1" 0 'acceptOffer(uint256,bool)' 2 true
send "mint (auction, 2 royalties)" "$k1" 0 "$mint" "$uri" 2 "[$r1,$r2]" "[1000,250]" $((now + 3600)) 1000000000000000000 10000000000000000000
send "bid (first)" "$k2" 1ether 'bid(uint256)' 3
"$bin/cast" rpc --rpc-url "$rpc" evm_increaseTime 7200 >/dev/null
"$bin/cast" rpc --rpc-url "$rpc" evm_mine >/dev/null
send "settleAuction (4 payouts)" "$k3" 0 'settleAuction(uint256)' 3
toggle='toggleForSale(uint256,uint8,uint256,uint64,uint256)'
send "toggleForSale (list at a fixed price)" "$k2" 0 "$toggle" 3 1 5000000000000000000 0 0
send "changeTokenPrice" "$k2" 0 'changeTokenPrice(uint256,uint256)' 3 4000000000000000000
send "toggleForSale (stop)" "$k2" 0 "$toggle" 3 0 0 0 0
send "burn" "$k2" 0 'burn(uint256)' 3
