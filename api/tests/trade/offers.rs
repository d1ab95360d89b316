//! Offers and the cart on a real anvil: every record call, with the forged, failed, foreign,
//! other-user and replayed transactions refused and recording nothing, and the offer lists.

use alloy::primitives::U256;
use indexer::{bindings::Marketplace, test_utils::mint_call};
use serde_json::json;

use crate::helpers::{Market, User, forged_hash, hash, matic};

fn token(n: u64) -> U256 {
    U256::from(n)
}

async fn record(market: &Market, user: &User, what: &str, body: serde_json::Value) -> crate::helpers::Answer {
    market.json("POST", &format!("/api/nft/offer/{what}"), Some(&user.token), body).await
}

async fn offer(market: &Market, user: &User, token_id: u64, tenths: u128, expires_at: u64) -> String {
    let call = Marketplace::makeOfferCall { tokenId: token(token_id), expiresAt: expires_at };
    hash(&market.transact(user, call, matic(tenths)).await)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn offers_are_made_cancelled_rejected_and_accepted_through_checked_record_calls() {
    let market = Market::start().await;
    let alice = market.user("alice", 1).await;
    let bob = market.user("bob", 2).await;
    let carol = market.user("carol", 3).await;
    // Token 1, Alice's, not for sale.
    market.transact(&alice, mint_call("ipfs://one", 0, &[], 0, U256::ZERO, U256::ZERO), U256::ZERO).await;
    let (_, now) = market.chain.latest().await;

    // Bob offers 1 MATIC for a day.
    let bobs = offer(&market, &bob, 1, 10, now + 86_400).await;
    let body = |tx: &str| json!({ "nftid": "80001-1", "transactionHash": tx });
    record(&market, &bob, "make", body(&forged_hash())).await.refused("");
    record(&market, &alice, "make", body(&bobs)).await.refused("not a wallet linked to your account");
    record(&market, &bob, "make", json!({ "nftid": "80001-1", "transactionHash": bobs, "amount": "2" })).await.refused("wei");
    record(&market, &bob, "make", json!({ "nftid": "80001-7", "transactionHash": bobs })).await.refused("concerns token 1");
    record(&market, &bob, "cancel", body(&bobs)).await.refused("not a cancelled offer");
    let failed = market.transact_failing(&alice, Marketplace::makeOfferCall { tokenId: token(1), expiresAt: now + 60 }, matic(1)).await;
    record(&market, &alice, "make", body(&failed)).await.refused("failed");
    let foreign = market.transfer(&bob, market.address(&carol)).await;
    record(&market, &bob, "make", body(&foreign)).await.refused("not sent to the marketplace contract");
    record(&market, &bob, "make", json!({ "nftid": "80001-1" })).await.refused("transactionHash");
    market.json("POST", "/api/nft/offer/make", None, body(&bobs)).await.expect(401);
    assert_eq!(market.records().await, 0, "refused records write nothing");

    let made = record(&market, &bob, "make", json!({ "nftid": "80001-1", "transactionHash": bobs, "amount": "1" })).await.expect(200);
    let offer_row = made.body()["offer"].clone();
    assert_eq!((offer_row["state"].as_str(), offer_row["amount"].as_str()), (Some("ACTIVE"), Some("1")));
    assert_eq!(offer_row["offererUsername"], "bob");
    assert_eq!(offer_row["acceptable"], true);
    assert_eq!(made.body()["nftData"]["_id"], "80001-1");
    // Bob's retry answers the same and appends nothing; Alice cannot take it over.
    let again = record(&market, &bob, "make", body(&bobs)).await.expect(200);
    assert_eq!(again.body()["offer"], offer_row);
    record(&market, &alice, "make", body(&bobs)).await.refused("");
    assert_eq!(market.records().await, 1);

    // Carol offers 2 and cancels; then offers 3 and Alice rejects it.
    let carols = offer(&market, &carol, 1, 20, now + 86_400).await;
    record(&market, &carol, "make", body(&carols)).await.expect(200);
    let cancel = hash(&market.transact(&carol, Marketplace::cancelOfferCall { tokenId: token(1) }, U256::ZERO).await);
    record(&market, &bob, "cancel", body(&cancel)).await.refused("not a wallet linked to your account");
    let cancelled = record(&market, &carol, "cancel", body(&cancel)).await.expect(200);
    assert_eq!(cancelled.body()["offer"]["state"], "CANCELLED");
    let carols = offer(&market, &carol, 1, 30, now + 86_400).await;
    record(&market, &carol, "make", body(&carols)).await.expect(200);
    let carol_address = format!("{:#x}", market.address(&carol));
    let reject = Marketplace::rejectOfferFromCall { tokenId: token(1), offerer: market.address(&carol) };
    let reject = hash(&market.transact(&alice, reject, U256::ZERO).await);
    record(&market, &carol, "reject", body(&reject)).await.refused("not a wallet linked to your account");
    let bob_address = format!("{:#x}", market.address(&bob));
    record(&market, &alice, "reject", json!({ "nftid": "80001-1", "transactionHash": reject, "offerer": bob_address }))
        .await
        .refused("not of");
    record(&market, &alice, "reject", json!({ "nftid": "80001-1", "transactionHash": reject, "offerer": "bob" })).await.refused("offerer");
    let rejected = record(&market, &alice, "reject", json!({ "nftid": "80001-1", "transactionHash": reject, "offerer": carol_address }))
        .await
        .expect(200);
    assert_eq!(rejected.body()["offer"]["state"], "REJECTED");

    // The lists: the NFT's offers, newest first; mine; received; a bad filter.
    let listed = market.get("/api/nft/80001-1/offers", None).await.expect(200);
    let states: Vec<&str> = listed.body()["data"].as_array().unwrap().iter().map(|o| o["state"].as_str().unwrap()).collect();
    assert_eq!(states, ["REJECTED", "CANCELLED", "ACTIVE"]);
    assert_eq!(listed.body()["totalItems"], 3);
    let active = market.get("/api/nft/80001-1/offers?state=active&limit=1", None).await.expect(200);
    assert_eq!(active.body()["data"][0]["offererAddress"], bob_address);
    market.get("/api/nft/80001-1/offers?state=GONE", None).await.refused("state");
    market.get("/api/nft/80001-x/offers", None).await.refused("nftId: not an NFT id");
    // An unknown NFT is a 404, as on the other per-NFT reads, not an empty list.
    let unknown = market.get("/api/nft/80001-999/offers", None).await.expect(404);
    assert_eq!(unknown.body(), &serde_json::Value::Null, "the envelope's error: {:?}", unknown.body());
    let carols_list = market.get("/api/myoffers?state=CANCELLED", Some(&carol.token)).await.expect(200);
    assert_eq!(carols_list.body()["totalItems"], 1);
    assert_eq!(market.get("/api/myoffers", Some(&carol.token)).await.expect(200).body()["totalItems"], 2);
    assert_eq!(market.get("/api/myoffers/received", Some(&alice.token)).await.expect(200).body()["totalItems"], 3);
    assert_eq!(market.get("/api/myoffers/received", Some(&bob.token)).await.expect(200).body()["totalItems"], 0);
    market.get("/api/myoffers", None).await.expect(401);

    // Alice accepts Bob's offer: only she can record it, and not as Bob's purchase.
    // No royalties: Alice receives the 1 MATIC less the 5% fee, and names exactly that as her floor.
    let proceeds = matic(10) * U256::from(95) / U256::from(100);
    let too_much = Marketplace::acceptOfferFromCall {
        tokenId: token(1),
        offerer: market.address(&bob),
        expectedAmount: matic(10),
        minProceeds: proceeds + U256::from(1),
    };
    let too_much = market.transact_failing(&alice, too_much, U256::ZERO).await;
    record(&market, &alice, "accept", body(&too_much)).await.refused("failed");
    let accept = Marketplace::acceptOfferFromCall {
        tokenId: token(1),
        offerer: market.address(&bob),
        expectedAmount: matic(10),
        minProceeds: proceeds,
    };
    let accept = hash(&market.transact(&alice, accept, U256::ZERO).await);
    record(&market, &bob, "accept", body(&accept)).await.refused("not a wallet linked to your account");
    market
        .json("POST", "/api/nft/fixedsale/purchase", Some(&bob.token), json!({ "nftid": "80001-1", "transactionHash": accept }))
        .await
        .refused("not a wallet linked to your account");
    market
        .json("POST", "/api/nft/fixedsale/purchase", Some(&alice.token), json!({ "nftid": "80001-1", "transactionHash": accept }))
        .await
        .refused("buyer");
    let accepted = record(&market, &alice, "accept", json!({ "nftid": "80001-1", "transactionHash": accept, "offerer": bob_address }))
        .await
        .expect(200);
    assert_eq!(accepted.body()["offer"]["state"], "ACCEPTED");
    assert_eq!(accepted.body()["nftData"]["currentOwner"]["userId"].as_str(), Some(bob.id.as_str()));
    // Now Bob owns it; Alice keeps what was offered to her as owner (accepted, rejected, withdrawn),
    // none of it open, and none of it becomes Bob's.
    assert_eq!(market.get("/api/myoffers/received", Some(&alice.token)).await.expect(200).body()["totalItems"], 3);
    for (state, count) in [("ACCEPTED", 1), ("REJECTED", 1), ("CANCELLED", 1), ("ACTIVE", 0)] {
        let url = format!("/api/myoffers/received?state={state}");
        assert_eq!(market.get(&url, Some(&alice.token)).await.expect(200).body()["totalItems"], count, "received, {state}");
    }
    assert_eq!(market.get("/api/myoffers/received", Some(&bob.token)).await.expect(200).body()["totalItems"], 0);
    assert_eq!(market.get("/api/myoffers?state=ACCEPTED", Some(&bob.token)).await.expect(200).body()["totalItems"], 1);

    // Carol's new offer expires: listed EXPIRED, and the owner can no longer accept it.
    // The server reads the state at its own clock, the contract at the block's: both must pass.
    let (_, now) = market.chain.latest().await;
    let expires_at = now.max(chrono::Utc::now().timestamp() as u64) + 4;
    let carols = offer(&market, &carol, 1, 10, expires_at).await;
    let made = record(&market, &carol, "make", body(&carols)).await.expect(200);
    assert_eq!(made.body()["offer"]["state"], "ACTIVE");
    tokio::time::sleep(std::time::Duration::from_secs(5)).await;
    market.chain.advance_time(10).await;
    market.chain.mine().await;
    let expired = market.get("/api/nft/80001-1/offers?state=EXPIRED", None).await.expect(200);
    assert_eq!((expired.body()["totalItems"].as_i64(), expired.body()["data"][0]["withdrawable"].as_bool()), (Some(1), Some(true)));
    let late = Marketplace::acceptOfferFromCall {
        tokenId: token(1),
        offerer: market.address(&carol),
        expectedAmount: matic(10),
        minProceeds: U256::ZERO,
    };
    let late = market.transact_failing(&bob, late, U256::ZERO).await;
    record(&market, &bob, "accept", body(&late)).await.refused("failed");

    // An offer on a burned NFT stays listed, only withdrawable, and its cancel is recorded.
    market.transact(&alice, mint_call("ipfs://two", 0, &[], 0, U256::ZERO, U256::ZERO), U256::ZERO).await;
    let (_, now) = market.chain.latest().await;
    let on_two = offer(&market, &carol, 2, 10, now + 86_400).await;
    record(&market, &carol, "make", json!({ "nftid": "80001-2", "transactionHash": on_two })).await.expect(200);
    market.transact(&alice, Marketplace::burnCall { tokenId: token(2) }, U256::ZERO).await;
    market.indexed().await;
    let listed = market.get("/api/nft/80001-2/offers", None).await.expect(200);
    let row = &listed.body()["data"][0];
    assert_eq!((row["state"].as_str(), row["nftBurned"].as_bool()), (Some("ACTIVE"), Some(true)));
    assert_eq!((row["withdrawable"].as_bool(), row["acceptable"].as_bool()), (Some(true), Some(false)));
    let cancel = hash(&market.transact(&carol, Marketplace::cancelOfferCall { tokenId: token(2) }, U256::ZERO).await);
    let cancelled = record(&market, &carol, "cancel", json!({ "nftid": "80001-2", "transactionHash": cancel })).await.expect(200);
    assert_eq!((cancelled.body()["offer"]["state"].as_str(), &cancelled.body()["nftData"]), (Some("CANCELLED"), &json!(null)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cart_records_what_was_bought_and_names_what_was_skipped() {
    let market = Market::start().await;
    let alice = market.user("alice", 1).await;
    let bob = market.user("bob", 2).await;
    let carol = market.user("carol", 3).await;
    for uri in ["ipfs://a", "ipfs://b", "ipfs://c"] {
        market.transact(&alice, mint_call(uri, 1, &[], 0, U256::ZERO, matic(10)), U256::ZERO).await;
    }
    // Bob has an offer on token 3: buying it in the cart refunds it (OfferCancelled in the cart's logs).
    let (_, now) = market.chain.latest().await;
    let bobs = offer(&market, &bob, 3, 5, now + 86_400).await;
    record(&market, &bob, "make", json!({ "nftid": "80001-3", "transactionHash": bobs })).await.expect(200);
    // Carol buys token 2 before Bob's cart of 1, 2 and 3 goes through.
    let single = hash(&market.transact(&carol, Marketplace::buyTokenCall { tokenId: token(2) }, matic(10)).await);
    let cart = Marketplace::buyTokensCall { tokenIds: vec![token(1), token(2), token(3)], seenPrices: vec![matic(10); 3] };
    let cart = hash(&market.transact(&bob, cart, matic(30)).await);

    let send = |user: &User, tx: String| {
        let token = user.token.clone();
        let market = &market;
        async move { market.json("POST", "/api/nft/cart/purchase", Some(&token), json!({ "transactionHash": tx })).await }
    };
    send(&bob, forged_hash()).await.refused("");
    send(&alice, cart.clone()).await.refused("not a wallet linked to your account");
    send(&carol, single.clone()).await.refused("not a cart purchase");
    send(&bob, "0x12".into()).await.refused("transactionHash");
    assert_eq!(market.records().await, 1, "only Bob's offer");

    let bought = send(&bob, cart.clone()).await.expect(200);
    let ids = |list: &str| -> Vec<String> {
        bought.body()[list].as_array().unwrap().iter().map(|i| i["nftId"].as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(ids("bought"), ["80001-1", "80001-3"]);
    assert_eq!(ids("skipped"), ["80001-2"]);
    assert_eq!((bought.body()["spent"].as_str(), bought.body()["refunded"].as_str()), (Some("2"), Some("1")));
    assert_eq!(bought.body()["skipped"][0]["seenPrice"], "1");
    let wei = |key: &str| bought.body()[key].as_str().map(str::to_owned);
    assert_eq!((wei("spentWei"), wei("refundedWei")), (Some(matic(20).to_string()), Some(matic(10).to_string())), "the totals in wei too");
    assert_eq!(bought.body()["skipped"][0]["seenPriceWei"], matic(10).to_string());
    assert!(bought.body()["bought"][0].get("seenPriceWei").is_none(), "only a skipped item has a seen price");
    assert_eq!(bought.body()["skipped"][0]["price"], "0");
    assert_eq!(bought.body()["bought"][0]["nftData"]["currentOwner"]["userId"].as_str(), Some(bob.id.as_str()));
    // The cart's Sold ends each listing (the contract emits no SaleUpdated for a cart's item).
    for item in bought.body()["bought"].as_array().unwrap() {
        assert_eq!(item["nftData"]["formOfSale"], "NOT_FOR_SALE");
    }
    // A retry answers the same; the cart is recorded once.
    let again = send(&bob, cart.clone()).await.expect(200);
    assert_eq!(again.body()["bought"].as_array().map(Vec::len), Some(2));
    assert_eq!(market.records().await, 2);
    // Bob's offer on token 3 came back with the purchase: no longer live, nothing left to withdraw.
    market.indexed().await;
    let mine = market.get("/api/nft/80001-3/offers", None).await.expect(200);
    let row = &mine.body()["data"][0];
    assert_eq!((row["state"].as_str(), row["withdrawable"].as_bool()), (Some("CANCELLED"), Some(false)));
}
