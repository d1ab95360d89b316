//! A record call's latency, answered once its events are projected, against the chain round
//! trip it follows, on a real anvil with the stack as `marketplace dev` runs it (indexer at the
//! dev poll interval, projector, API over HTTP).
//!
//! Each round sends a transaction (a purchase, or a bid) and waits for its receipt (the chain
//! round trip, timed), then posts its record call over HTTP (timed until the answer, which the
//! server sends once the read tables show the transaction). Prints p50/p99 of both and their
//! ratio, for purchases and for bids. Goal: a record call's p50 < 250 ms.
//!
//! `cargo bench -p api --bench record` (ROUNDS=20 for a quicker run).

mod support;

use std::time::{Duration, Instant};

use alloy::{
    primitives::{Address, U256},
    providers::Provider,
    signers::{
        SignerSync,
        local::{MnemonicBuilder, coins_bip39::English},
    },
    sol_types::SolCall,
};
use indexer::{
    bindings::Marketplace,
    test_utils::{TEST_MNEMONIC, TestChain, mint_call},
};
use serde_json::{Value, json};
use support::Latencies;

/// Auctions bid on in turn, so one bidder never has to outbid themself.
const AUCTIONS: usize = 5;
const GOAL_MS: f64 = 250.0;

/// A signed-up user of the served API with anvil account `account` linked; returns the token.
async fn user(http: &reqwest::Client, base: &str, name: &str, account: u32) -> String {
    let email = format!("{name}@example.com");
    let password = "correct horse battery";
    let post = |path: &str, token: Option<&str>, body: Value| {
        let mut request = http.post(format!("{base}{path}")).json(&body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send()
    };
    let registration = json!({ "email": email, "fullName": name, "username": name, "password": password, "confirmPassword": password });
    assert!(post("/api/auth/register", None, registration).await.unwrap().status().is_success());
    let mails: Value = http.get(format!("{base}/api/dev/mailbox?to={name}%40example.com")).send().await.unwrap().json().await.unwrap();
    let code = mails["body"][0]["code"].as_str().unwrap().to_owned();
    let verified: Value =
        post("/api/auth/verifyaccount", None, json!({ "email": email, "verificationCode": code })).await.unwrap().json().await.unwrap();
    let token = verified["body"]["accessToken"].as_str().unwrap().to_owned();
    let nonce: Value = http.get(format!("{base}/api/account/walletnonce")).bearer_auth(&token).send().await.unwrap().json().await.unwrap();
    let signer = MnemonicBuilder::<English>::from_phrase_nth(TEST_MNEMONIC, account);
    let address = signer.address().to_checksum(None);
    let host = base.trim_start_matches("http://");
    let message = format!(
        "{host} wants you to sign in with your Ethereum account:\n{address}\n\nLink this wallet to your marketplace account.\n\n\
         URI: {base}\nVersion: 1\nChain ID: 80001\nNonce: {}\nIssued At: {}",
        nonce["body"]["nonce"].as_str().unwrap(),
        chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
    );
    let signature = signer.sign_message_sync(message.as_bytes()).unwrap().to_string();
    let linked = http
        .put(format!("{base}/api/account/connectwallet"))
        .bearer_auth(&token)
        .json(&json!({ "walletProvider": "Metamask", "walletAddress": address, "message": message, "signature": signature }))
        .send()
        .await
        .unwrap();
    assert!(linked.status().is_success(), "linking the wallet: {}", linked.text().await.unwrap());
    token
}

/// Sends `call` from `from` and waits for its receipt; returns its hash and how long that took.
async fn round_trip<C: SolCall>(chain: &TestChain, from: Address, call: C, value: U256) -> (String, Duration) {
    let tx = chain.call_request(from, &call, value);
    let started = Instant::now();
    let receipt = chain.provider.send_transaction(tx).await.unwrap().get_receipt().await.unwrap();
    let elapsed = started.elapsed();
    assert!(receipt.status(), "{} reverted", C::SIGNATURE);
    (format!("{:#x}", receipt.transaction_hash), elapsed)
}

/// Posts a record call; returns how long until the answer.
async fn record(http: &reqwest::Client, url: &str, token: &str, body: Value) -> Duration {
    let started = Instant::now();
    let response = http.post(url).bearer_auth(token).json(&body).send().await.unwrap();
    let status = response.status();
    let answer = response.text().await.unwrap();
    let elapsed = started.elapsed();
    assert!(status.is_success(), "{url}: {answer}");
    elapsed
}

fn report(name: &str, chain: Vec<Duration>, calls: Vec<Duration>) {
    let (chain, calls) = (Latencies::new(chain), Latencies::new(calls));
    let (p50, p99) = (calls.ms(50.0), calls.ms(99.0));
    println!(
        "{name:<9} record call p50 {p50:7.2} ms  p99 {p99:7.2} ms | chain round trip p50 {:6.2} ms  p99 {:6.2} ms | \
         ratio p50 {:5.2}  p99 {:5.2} | goal p50 < {GOAL_MS} ms: {}",
        chain.ms(50.0),
        chain.ms(99.0),
        p50 / chain.ms(50.0),
        p99 / chain.ms(99.0),
        if p50 < GOAL_MS { "met" } else { "MISSED" }
    );
}

fn main() {
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(100);
    let client = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let server = support::server_runtime();
    let dir = tempfile::tempdir().unwrap();
    let mut config = support::config(dir.path());
    config.rate_limit_per_ip = 0;
    config.rate_limit_per_account = 0;
    let chain = client.block_on(TestChain::start());
    let indexer_config = config.indexer_config(&chain.url, chain.market, chain.deployment_block, true);

    let state = server.block_on(async {
        let store = api::log::open(&config).await.unwrap();
        let read = projections::ReadDb::open(&config.read_database_url()).await.unwrap();
        let projector = projections::Projector::new(store.clone(), read.clone()).await.unwrap();
        let handle = projector.handle();
        tokio::spawn(projector.run());
        let indexer = indexer::Indexer::connect(indexer_config, store.clone()).await.unwrap();
        let indexer_handle = indexer.handle();
        tokio::spawn(indexer.run(std::future::pending()));
        let info = api::chain::ChainInfo {
            chain_id: config.chain_id,
            rpc_url: Some(chain.url.clone()),
            contract_address: Some(format!("{:#x}", chain.market)),
            ..Default::default()
        };
        api::http::AppState::new(config.clone(), store, read, handle).unwrap().with_chain(info, Some(indexer_handle))
    });
    let address = support::serve(&server, api::http::app(state, dir.path()));
    let base = format!("http://{address}");

    client.block_on(async {
        let http = reqwest::Client::new();
        let (seller, buyer, bidders) = (chain.accounts[1], chain.accounts[2], [chain.accounts[3], chain.accounts[4]]);
        user(&http, &base, "seller", 1).await;
        let buyer_token = user(&http, &base, "buyer", 2).await;
        let bidder_tokens = [user(&http, &base, "bidder1", 3).await, user(&http, &base, "bidder2", 4).await];

        // Listings: `rounds` tokens at a fixed price, then the auctions (base 0.001 MATIC, a day long).
        let price = U256::from(1_000_000_000_000_000u64);
        for i in 0..rounds {
            chain.transact(seller, mint_call(&format!("ipfs://fixed-{i}"), 1, &[], 0, U256::ZERO, price), U256::ZERO).await;
        }
        let (_, now) = chain.latest().await;
        for i in 0..AUCTIONS {
            let call = mint_call(&format!("ipfs://auction-{i}"), 2, &[], now + 86_400, price, U256::from(10u128.pow(24)));
            chain.transact(seller, call, U256::ZERO).await;
        }

        let purchase_url = format!("{base}/api/nft/fixedsale/purchase");
        let (mut chain_times, mut call_times) = (Vec::new(), Vec::new());
        for i in 0..rounds {
            let token = i as u64 + 1;
            let (hash, trip) = round_trip(&chain, buyer, Marketplace::buyTokenCall { tokenId: U256::from(token) }, price).await;
            let body = json!({ "formOfSale": "FIXEDPRICE", "nftid": format!("80001-{token}"), "saleQuantity": 1, "transactionHash": hash });
            chain_times.push(trip);
            call_times.push(record(&http, &purchase_url, &buyer_token, body).await);
        }
        println!("{rounds} rounds of each; anvil, SQLite, the indexer polling every 50 ms and nudged by each record call");
        report("purchase", chain_times, call_times);

        let bid_url = format!("{base}/api/nft/auction/placebid");
        let mut top = [price; AUCTIONS];
        let (mut chain_times, mut call_times) = (Vec::new(), Vec::new());
        for i in 0..rounds {
            let auction = i % AUCTIONS;
            let bidder = (i / AUCTIONS) % 2;
            let token = (rounds + auction) as u64 + 1;
            // Above the minimum raise (5%) over the top bid.
            let amount = if i < AUCTIONS { top[auction] } else { top[auction] * U256::from(106) / U256::from(100) + U256::from(1) };
            top[auction] = amount;
            let (hash, trip) = round_trip(&chain, bidders[bidder], Marketplace::bidCall { tokenId: U256::from(token) }, amount).await;
            let body = json!({ "formOfSale": "AUCTION", "nftid": format!("80001-{token}"), "transactionHash": hash });
            chain_times.push(trip);
            call_times.push(record(&http, &bid_url, &bidder_tokens[bidder], body).await);
        }
        report("placebid", chain_times, call_times);
    });
}
