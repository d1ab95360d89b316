//! The spine end to end: transactions on a real anvil, through the indexer, the event log and
//! the projector, read back over HTTP from the read API.

use std::time::Duration;

use alloy::{
    primitives::{Address, U256},
    rpc::types::TransactionReceipt,
};
use api::http::AppState;
use axum::{body::Body, http::Request};
use indexer::{
    Indexer, IndexerHandle,
    bindings::Marketplace,
    test_utils::{TestChain, mint_call, sqlite_store},
};
use projections::{Projector, ProjectorHandle, ReadDb};
use serde_json::Value;
use support::ChainStack;
use tower::ServiceExt;

#[path = "../support/mod.rs"]
mod support;

const MATIC: u128 = 1_000_000_000_000_000_000;

struct Spine {
    chain: TestChain,
    state: AppState,
    indexer: IndexerHandle,
    projector: ProjectorHandle,
    _dir: tempfile::TempDir,
}

fn matic(tenths: u128) -> U256 {
    U256::from(tenths * MATIC / 10)
}

fn lower(address: Address) -> String {
    format!("{address:#x}")
}

impl Spine {
    async fn start() -> Self {
        let stack = ChainStack::start(false).await;
        let state = stack.state(support::config(&stack.dir, &[]), stack.chain_info());
        Self { chain: stack.chain, state, indexer: stack.indexer, projector: stack.projector, _dir: stack.dir }
    }

    /// Sends a transaction and waits until the read API shows its effect.
    async fn send<C: alloy::sol_types::SolCall>(&self, from: usize, call: C, value: U256) -> TransactionReceipt {
        let receipt = self.chain.transact(self.chain.accounts[from], call, value).await;
        let position = self.indexer.sync_to(receipt.block_number.unwrap()).await.unwrap();
        self.projector.wait_for(position, Duration::from_secs(10)).await.unwrap();
        receipt
    }

    async fn get(&self, uri: &str) -> Value {
        let app = api::http::app(self.state.clone(), std::path::Path::new("no-ui"));
        let response = app.oneshot(Request::get(uri).body(Body::empty()).unwrap()).await.unwrap();
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 20).await.unwrap();
        serde_json::from_slice(&bytes).unwrap()
    }

    fn account(&self, i: usize) -> String {
        lower(self.chain.accounts[i])
    }
}

fn token(n: u64) -> U256 {
    U256::from(n)
}

fn kinds(history: &Value) -> Vec<String> {
    history["body"]["data"].as_array().unwrap().iter().map(|h| h["typeOfEvent"].as_str().unwrap().to_owned()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn trading_on_chain_shows_up_in_the_read_api() {
    let spine = Spine::start().await;
    let (alice, bob, carol, dave) = (1, 2, 3, 4);

    // Mint at a fixed price with a 5% royalty to carol.
    spine.send(alice, mint_call("ipfs://meta", 1, &[(spine.chain.accounts[carol], 500)], 0, U256::ZERO, matic(10)), U256::ZERO).await;
    let detail = spine.get("/api/nft/detail/80001-1").await;
    assert_eq!(detail["statuscode"], 200);
    let nft = &detail["body"];
    assert_eq!((nft["formOfSale"].as_str(), nft["fixedPrice"].as_str()), (Some("FIXEDPRICE"), Some("1")));
    assert_eq!(nft["currentOwner"]["ownerAddress"].as_str(), Some(spine.account(alice).as_str()));
    assert_eq!(nft["royalty"][0]["percentage"], 5.0);
    assert_eq!(nft["contractAddress"].as_str(), Some(lower(spine.chain.market).as_str()));

    // Bob buys it.
    spine.send(bob, Marketplace::buyTokenCall { tokenId: token(1) }, matic(10)).await;
    let nft = spine.get("/api/nft/detail/80001-1").await["body"].clone();
    assert_eq!(
        (nft["formOfSale"].as_str(), nft["currentOwner"]["ownerAddress"].as_str()),
        (Some("NOT_FOR_SALE"), Some(spine.account(bob).as_str()))
    );
    assert_eq!(kinds(&spine.get("/api/nft/nfthistory/80001-1").await), ["PURCHASED", "PUT_ON_FIXEDSALE", "MINTED"]);
    let owners = spine.get("/api/nft/ownnerhistory/80001-1").await;
    assert_eq!(owners["body"].as_array().unwrap().len(), 2);

    // Bob auctions it: base 1, buy now 5, an hour long.
    let (_, now) = spine.chain.latest().await;
    spine
        .send(
            bob,
            Marketplace::toggleForSaleCall {
                tokenId: token(1),
                saleType: 2,
                price: matic(50),
                auctionEndTime: now + 3600,
                basePrice: matic(10),
            },
            U256::ZERO,
        )
        .await;
    let auctions = spine.get("/api/nft/explore/?formOfSale=AUCTION").await;
    assert_eq!(auctions["body"]["totalItems"], 1);
    let in_auction = spine.get("/api/nft/nftinauction/80001-1").await;
    let auction_id = in_auction["body"][0]["auctionId"].as_str().unwrap().to_owned();
    assert_eq!(in_auction["body"][0]["auctionBuyNowPrice"], "5");

    // Carol bids 1, dave outbids with 2: carol is refunded.
    spine.send(carol, Marketplace::bidCall { tokenId: token(1) }, matic(10)).await;
    spine.send(dave, Marketplace::bidCall { tokenId: token(1) }, matic(20)).await;
    let bids = spine.get(&format!("/api/nft/bidhistory/80001-1/{auction_id}/?page=1&limit=10")).await;
    let rows: Vec<_> = bids["body"]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["bidAmount"].as_str().unwrap().to_owned(), b["status"].as_str().unwrap().to_owned()))
        .collect();
    assert_eq!(rows, [("2".to_owned(), "BID".to_owned()), ("1".to_owned(), "REFUNDED".to_owned())]);
    assert_eq!(spine.get("/api/nft/detail/80001-1").await["body"]["highestBid"], "2");

    // Bob rejects dave's bid, carol bids again, bob accepts: carol owns it.
    spine.send(bob, Marketplace::acceptOfferCall { tokenId: token(1), accept: false }, U256::ZERO).await;
    assert_eq!(spine.get("/api/nft/detail/80001-1").await["body"]["highestBid"], "0");
    spine.send(carol, Marketplace::bidCall { tokenId: token(1) }, matic(15)).await;
    spine.send(bob, Marketplace::acceptOfferCall { tokenId: token(1), accept: true }, U256::ZERO).await;
    let nft = spine.get("/api/nft/detail/80001-1").await["body"].clone();
    assert_eq!(nft["currentOwner"]["ownerAddress"].as_str(), Some(spine.account(carol).as_str()));
    let bids = spine.get(&format!("/api/nft/bidhistory/80001-1/{auction_id}/")).await;
    let statuses: Vec<_> = bids["body"]["data"].as_array().unwrap().iter().map(|b| b["status"].as_str().unwrap().to_owned()).collect();
    assert_eq!(statuses, ["ALLOTED", "REFUNDED", "REFUNDED"]);
    assert_eq!(kinds(&spine.get("/api/nft/nfthistory/80001-1").await)[0], "WON_AUCTION");

    // Carol lists it, stops the sale, and burns it.
    spine
        .send(
            carol,
            Marketplace::toggleForSaleCall { tokenId: token(1), saleType: 1, price: matic(30), auctionEndTime: 0, basePrice: U256::ZERO },
            U256::ZERO,
        )
        .await;
    spine
        .send(
            carol,
            Marketplace::toggleForSaleCall { tokenId: token(1), saleType: 0, price: U256::ZERO, auctionEndTime: 0, basePrice: U256::ZERO },
            U256::ZERO,
        )
        .await;
    assert_eq!(kinds(&spine.get("/api/nft/nfthistory/80001-1").await)[..2], ["REMOVED_FROM_SALE", "PUT_ON_FIXEDSALE"]);
    spine.send(carol, Marketplace::burnCall { tokenId: token(1) }, U256::ZERO).await;
    assert_eq!(spine.get("/api/nft/detail/80001-1").await["statuscode"], 404);

    let stats = spine.get("/api/getmarketplacestatistics").await;
    assert_eq!(stats["body"], serde_json::json!({ "totalNftMinted": 1, "totalSeller": 2, "totalNftSold": 2 }));

    // The indexer follows the heads anvil pushes, and /metrics says so.
    let app = api::http::app(spine.state.clone(), std::path::Path::new("no-ui"));
    let response = app.oneshot(Request::get("/metrics").body(Body::empty()).unwrap()).await.unwrap();
    let text = String::from_utf8(axum::body::to_bytes(response.into_body(), 1 << 20).await.unwrap().to_vec()).unwrap();
    assert!(text.contains("marketplace_indexer_heads_subscribed 1\n"), "{text}");
}

/// Indexes the chain into a new store and read database from scratch; returns their content checksum.
async fn fresh_index_checksum(chain: &TestChain) -> String {
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite_store(&dir, "fresh.db").await;
    let read = ReadDb::open(&format!("sqlite://{}", dir.path().join("fresh-read.db").display())).await.unwrap();
    let mut indexer = Indexer::connect(chain.indexer_config(), store.clone()).await.unwrap();
    indexer.index_to_head().await.unwrap();
    Projector::new(store, read.clone()).await.unwrap().catch_up().await.unwrap();
    read.content_checksum().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_reorgs_of_depth_one_and_three_the_read_tables_equal_a_fresh_index() {
    use alloy::{
        providers::ext::AnvilApi,
        rpc::types::anvil::{ReorgOptions, TransactionData},
    };
    let spine = Spine::start().await;
    let (alice, bob, carol) = (1, 2, 3);
    for i in 0..4u64 {
        spine
            .send(
                alice,
                mint_call(&format!("ipfs://{i}"), 1, &[(spine.chain.accounts[carol], 250)], 0, U256::ZERO, matic(10 + i as u128)),
                U256::ZERO,
            )
            .await;
    }
    let (_, now) = spine.chain.latest().await;
    spine
        .send(
            alice,
            Marketplace::toggleForSaleCall {
                tokenId: token(4),
                saleType: 2,
                price: matic(90),
                auctionEndTime: now + 3600,
                basePrice: matic(10),
            },
            U256::ZERO,
        )
        .await;
    spine.send(bob, Marketplace::buyTokenCall { tokenId: token(1) }, matic(10)).await;
    spine.send(carol, Marketplace::bidCall { tokenId: token(4) }, matic(12)).await;

    for (depth, replacement) in [
        // Depth 1: carol's bid becomes bob's purchase of token 2.
        (
            1u64,
            vec![(bob, spine.chain.call_request(spine.chain.accounts[bob], &Marketplace::buyTokenCall { tokenId: token(2) }, matic(11)))],
        ),
        // Depth 3: the last three blocks become a single new mint by carol.
        (
            3,
            vec![(
                carol,
                spine.chain.call_request(
                    spine.chain.accounts[carol],
                    &mint_call("ipfs://reorged", 1, &[], 0, U256::ZERO, matic(5)),
                    U256::ZERO,
                ),
            )],
        ),
    ] {
        let (head, _) = spine.chain.latest().await;
        let txs = replacement.into_iter().map(|(_, tx)| (TransactionData::JSON(tx), 0)).collect();
        spine.chain.provider.anvil_reorg(ReorgOptions { depth, tx_block_pairs: txs }).await.unwrap();
        let position = spine.indexer.sync_to(head).await.unwrap();
        spine.projector.wait_for(position, Duration::from_secs(10)).await.unwrap();

        let followed = spine.state.read.content_checksum().await.unwrap();
        assert_eq!(followed, fresh_index_checksum(&spine.chain).await, "after a reorg of depth {depth}");
    }
    // The depth-3 reorg dropped bob's purchase of token 2 and carol's bid; its mint is there.
    assert_eq!(spine.get("/api/nft/detail/80001-2").await["body"]["formOfSale"], "FIXEDPRICE");
    assert_eq!(spine.get("/api/nft/detail/80001-4").await["body"]["highestBid"], "0");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nfts_bids_and_history_name_the_users_behind_the_addresses() {
    use domain::accounts::{AuthProvider, UserEvent, WalletProvider, user_stream};
    let spine = Spine::start().await;
    let (alice, bob) = (1, 2);
    // Alice has an account with her wallet linked (as the accounts API records it); bob has none.
    let user_id = uuid::Uuid::now_v7();
    let at = chrono::Utc::now();
    let events = [
        UserEvent::UserRegistered {
            user_id,
            email: "alice@example.com".into(),
            username: "alice".into(),
            full_name: "Alice Liddell".into(),
            password_hash: "not-used-here".into(),
            auth_provider: AuthProvider::Email,
            at,
        },
        UserEvent::WalletLinked { provider: WalletProvider::Other, address: spine.account(alice), at },
    ];
    let events = events.iter().map(|e| e.to_new_event(domain::Metadata::default()).unwrap()).collect();
    spine.state.store.append(&user_stream(user_id), domain::ExpectedVersion::NoStream, events).await.unwrap();

    let (_, now) = spine.chain.latest().await;
    spine.send(bob, mint_call("ipfs://b", 2, &[], now + 3600, matic(10), matic(50)), U256::ZERO).await;
    spine.send(alice, Marketplace::bidCall { tokenId: token(1) }, matic(10)).await;

    let nft = spine.get("/api/nft/detail/80001-1").await["body"].clone();
    assert_eq!(nft["currentOwner"]["userId"], serde_json::Value::Null, "bob has no account");
    assert_eq!(nft["currentOwner"]["ownerAddress"].as_str(), Some(spine.account(bob).as_str()));
    let auction_id = nft["currentAuction"]["auctionId"].as_str().unwrap().to_owned();
    let bids = spine.get(&format!("/api/nft/bidhistory/80001-1/{auction_id}/")).await;
    let bidder = &bids["body"]["data"][0]["bidder"];
    assert_eq!((bidder["userId"].as_str(), bidder["fullName"].as_str()), (Some(user_id.to_string().as_str()), Some("Alice Liddell")));
    let history = spine.get("/api/nft/nfthistory/80001-1").await;
    assert_eq!(history["body"]["data"][0]["typeOfEvent"], "BIDDED_FOR");
    assert_eq!(history["body"]["data"][0]["username"], "alice");
    let explore = spine.get("/api/nft/explore/?formOfSale=AUCTION").await;
    assert_eq!(explore["body"]["data"][0]["creator"]["address"].as_str(), Some(spine.account(bob).as_str()));

    // Alice's own token names her as creator and owner, in browse and detail alike.
    spine.send(alice, mint_call("ipfs://a", 2, &[], now + 3600, matic(1), matic(5)), U256::ZERO).await;
    let explore = spine.get("/api/nft/explore/?formOfSale=AUCTION&sortBy=PRICE&orderBy=1").await;
    let card = &explore["body"]["data"][0];
    assert_eq!(card["_id"], "80001-2");
    assert_eq!((card["creator"]["username"].as_str(), card["currentOwner"]["fullName"].as_str()), (Some("alice"), Some("Alice Liddell")));
    let detail = spine.get("/api/nft/detail/80001-2").await;
    assert_eq!(detail["body"]["creator"], card["creator"]);
}

#[test]
fn the_indexer_subscribes_at_the_rpc_urls_websocket_unless_rpc_ws_url_says_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let indexer_config = |args: &[&str], rpc_url: &str| support::config(&dir, args).indexer_config(rpc_url, Address::ZERO, 0, false);
    assert_eq!(indexer_config(&[], "http://127.0.0.1:8545").ws_url.as_deref(), Some("ws://127.0.0.1:8545"));
    assert_eq!(indexer_config(&[], "https://node.example/v2/key").ws_url.as_deref(), Some("wss://node.example/v2/key"));
    assert_eq!(indexer_config(&["--rpc-ws-url", "off"], "http://127.0.0.1:8545").ws_url, None);
    let explicit = indexer_config(&["--rpc-ws-url", "wss://ws.node.example/ws/v3/key"], "https://node.example/v3/key");
    assert_eq!(explicit.ws_url.as_deref(), Some("wss://ws.node.example/ws/v3/key"));
    // Not a WebSocket URL: the indexer refuses to start with a clear error.
    let wrong = indexer_config(&["--rpc-ws-url", "https://node.example"], "https://node.example");
    assert!(wrong.validate().unwrap_err().to_string().contains("ws:// or wss://"));
}
