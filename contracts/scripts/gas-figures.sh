#!/usr/bin/env bash
# Gas of offers and carts in real transactions (intrinsic 21,000 and calldata included), on a
# throw-away anvil, compared with buyToken:
#   1. buyToken of a fixed-price token  vs  makeOffer + acceptOfferFrom on the same kind of token;
#   2. ten buyToken transactions  vs  one buyTokens cart of ten, for
#      (a) ten tokens of one seller with the same two royalty receivers (a creator's collection),
#      (b) ten tokens of ten sellers, each with its own two royalty receivers (nothing shared) that
#          never held ether (each first payout creates the account: 25,000 gas more),
#      (c) the same with receivers that already hold ether.
# Every token has two royalty receivers, so each sale makes four payouts (2 royalties, fee, seller).
# Prints each figure and the ratios; exits non-zero when a cart costs more than 0.7 x the ten
# purchases in (a) or (c), or in (b) once the new accounts are taken out: the protocol charges
# 25,000 gas for each account a payout creates (20 here), the same in both paths, which no
# contract can share. Run from any directory: contracts/scripts/gas-figures.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/anvil.sh"
start_anvil --accounts 14

# Account 0 deploys (the admin), 1-10 sell, 11-13 buy; royalty receivers are plain addresses.
deployer="$(acct private_keys 0)"
sellers=(); for i in $(seq 1 10); do sellers+=("$(acct private_keys "$i")"); done
buyer1="$(acct private_keys 11)"; buyer2="$(acct private_keys 12)"; buyer3="$(acct private_keys 13)"
node "$here/scripts/deploy.mjs" --rpc-url "$rpc" --private-key "$deployer" --out "$tmp/d.json" >/dev/null
m="$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1]))["80001"].address)' "$tmp/d.json")"

uri="ipfs://bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy"
mint='mint(string,uint8,address[],uint96[],uint64,uint256,uint256)'
one=1000000000000000000
token=0
gas() { # key value sig args... -> prints the transaction's gasUsed (fails if it reverted)
  local key="$1" value="$2"; shift 2
  "$bin/cast" send --rpc-url "$rpc" --private-key "$key" --value "$value" --json "$m" "$@" |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const r=JSON.parse(s);if(r.status!=="0x1")process.exit(1);console.log(Number(BigInt(r.gasUsed)))})'
}
receiver() { printf '0x%040x' "$((0x5000 + $1))"; } # a fresh address per number
mint_fixed() { # seller-key receiver0 receiver1 -> mints at 1 ether, sets $token
  gas "$1" 0 "$mint" "$uri" 1 "[$2,$3]" "[1000,250]" 0 0 "$one" >/dev/null
  token=$((token + 1))
}
row() { printf '%-58s %10s\n' "$1" "$2"; }
ratio() { node -e 'console.log((Number(process.argv[1]) / Number(process.argv[2])).toFixed(3))' "$1" "$2"; }

r0="$(receiver 0)"; r1="$(receiver 1)"
echo "== offer vs buyToken (a fixed-price token at 1 ether, 2 royalties)"
mint_fixed "${sellers[0]}" "$r0" "$r1"
row "buyToken (first sale: fresh royalty receivers and buyer)" "$(gas "$buyer1" 1ether 'buyToken(uint256)' "$token")"
mint_fixed "${sellers[0]}" "$r0" "$r1"
buy="$(gas "$buyer1" 1ether 'buyToken(uint256)' "$token")"
row "buyToken (every account already funded, as below)" "$buy"
mint_fixed "${sellers[0]}" "$r0" "$r1"
expires="$(( $("$bin/cast" block latest --rpc-url "$rpc" --field timestamp) + 86400 ))"
make="$(gas "$buyer1" 1ether 'makeOffer(uint256,uint64)' "$token" "$expires")"
# minProceeds: 1 ether less the 5% fee and the 10% + 2.5% royalties.
accept="$(gas "${sellers[0]}" 0 'acceptOfferFrom(uint256,address,uint256,uint256)' "$token" "$(acct available_accounts 11)" "$one" 825000000000000000)"
row "makeOffer" "$make"
row "acceptOfferFrom (clears the listing, 4 payouts)" "$accept"
row "makeOffer + acceptOfferFrom" "$((make + accept))"
row "  ratio to buyToken" "$(ratio "$((make + accept))" "$buy")"
mint_fixed "${sellers[0]}" "$r0" "$r1"
make="$(gas "$buyer1" 2ether 'makeOffer(uint256,uint64)' "$token" "$expires")"
replace="$(gas "$buyer1" 1ether 'makeOffer(uint256,uint64)' "$token" "$expires")"
cancel="$(gas "$buyer1" 0 'cancelOffer(uint256)' "$token")"
row "makeOffer (replacing one, old amount pushed back)" "$replace"
row "cancelOffer" "$cancel"

fund() { # address: sends it 1 wei, so that a later payout finds the account existing
  "$bin/cast" send --rpc-url "$rpc" --private-key "$deployer" --value 1 "$1" >/dev/null
}
cart() { # label buyer-key buyer2-key receiver-offset-for-(b)-or-empty [funded]
  local label="$1" single="$2" carter="$3" spread="$4" funded="${5:-}"
  local ids=() total=0 i key
  if [ -n "$funded" ]; then
    for i in $(seq 0 39); do fund "$(receiver $((spread + i)))"; fund "$(receiver $((spread + 100 + i)))"; done
  fi
  for i in $(seq 0 9); do
    if [ -n "$spread" ]; then key="${sellers[$i]}"; mint_fixed "$key" "$(receiver $((spread + 2 * i)))" "$(receiver $((spread + 2 * i + 1)))"
    else mint_fixed "${sellers[0]}" "$r0" "$r1"; fi
    total=$((total + $(gas "$single" 1ether 'buyToken(uint256)' "$token")))
  done
  for i in $(seq 0 9); do
    if [ -n "$spread" ]; then key="${sellers[$i]}"; mint_fixed "$key" "$(receiver $((spread + 100 + 2 * i)))" "$(receiver $((spread + 100 + 2 * i + 1)))"
    else mint_fixed "${sellers[0]}" "$r0" "$r1"; fi
    ids+=("$token")
  done
  local list prices
  list="[$(IFS=,; echo "${ids[*]}")]"
  prices="[$(for _ in $(seq 1 10); do printf '%s,' "$one"; done | sed 's/,$//')]"
  local c
  c="$(gas "$carter" 10ether 'buyTokens(uint256[],uint256[])' "$list" "$prices")"
  echo "== cart of ten vs ten purchases: $label"
  row "ten buyToken transactions (sum)" "$total"
  row "one buyTokens cart of ten" "$c"
  row "  ratio (goal <= 0.7)" "$(ratio "$c" "$total")"
  last_ratio="$(ratio "$c" "$total")" last_cart="$c" last_total="$total"
}
failed=0
check() { node -e 'process.exit(Number(process.argv[1]) <= 0.7 ? 0 : 1)' "$last_ratio" || { echo "cart ratio $last_ratio of $1 is above 0.7" >&2; failed=1; }; }
cart "(a) one seller, shared royalty receivers" "$buyer2" "$buyer3" ""
check "(a)"
cart "(b) ten sellers, each with its own royalty receivers (new accounts)" "$buyer2" "$buyer3" 1000
new_accounts=$((20 * 25000))
row "  the 20 new accounts, in both paths" "$new_accounts"
last_ratio="$(ratio "$((last_cart - new_accounts))" "$((last_total - new_accounts))")"
row "  ratio without them (goal <= 0.7)" "$last_ratio"
check "(b)"
cart "(c) ten sellers, each with its own royalty receivers (holding ether)" "$buyer2" "$buyer3" 2000 funded
check "(c)"
exit "$failed"
