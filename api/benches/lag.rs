//! Lag from a mined transaction to its change in `/api/nft/detail`, on a real anvil with the
//! stack as `marketplace dev` runs it (indexer woken by anvil's newHeads subscription, polling at
//! the dev interval as the fallback; projector; API over HTTP). Each round changes a token's
//! price and polls the detail every millisecond until the new price shows. Prints p50/p99 and,
//! measured in the same run, the bare `eth_blockNumber` round trip and the floor of the work any
//! indexer must do per block (ask for the head and its logs, then one HTTP read of the detail).
//! Goal: p50 < 10 ms. Beside it, a client of `/api/stream` following the token: the time from
//! the same transaction to its `change` event (goal p50 < 20 ms; the path of a bid's change is
//! the same: indexer, projector, stream).
//!
//! `cargo bench -p api --bench lag` (ROUNDS=50 for a quicker run; RPC_WS_URL=off to measure
//! polling alone).

mod support;

use std::time::{Duration, Instant};

use alloy::{primitives::U256, providers::Provider, rpc::types::Filter};
use indexer::{
    bindings::Marketplace,
    test_utils::{TestChain, mint_call},
};
use serde_json::Value;
use support::Latencies;

const POLL: Duration = Duration::from_millis(1);

fn main() {
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(300);
    let client = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let server = support::server_runtime();
    let dir = tempfile::tempdir().unwrap();
    let config = support::config(dir.path());

    // The chain with one token listed at a fixed price.
    let chain = client.block_on(async {
        let chain = TestChain::start().await;
        chain.transact(chain.accounts[1], mint_call("ipfs://lag", 1, &[], 0, U256::ZERO, U256::from(1_000u64)), U256::ZERO).await;
        chain
    });
    let indexer_config = config.indexer_config(&chain.url, chain.market, chain.deployment_block, true);
    let poll = indexer_config.poll_interval;
    let live_poll = poll.max(indexer_config.subscribed_poll_interval);

    // The stack, on its own runtime as the binary runs it.
    let (state, indexer_handle) = server.block_on(async {
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
        let state = api::http::AppState::new(config.clone(), store, read, handle).unwrap().with_chain(info, Some(indexer_handle.clone()));
        (state, indexer_handle)
    });
    let subscribed = config.rpc_ws_url.as_deref().is_none_or(|url| !url.eq_ignore_ascii_case("off"));
    let address = support::serve(&server, api::http::app(state, dir.path()));
    let detail = format!("http://{address}/api/nft/detail/80001-1");

    client.block_on(async {
        let http = reqwest::Client::new();
        // The stream client: the instant each `change` event arrives.
        let (seen, mut changes) = tokio::sync::mpsc::unbounded_channel::<Instant>();
        let mut stream = http.get(format!("http://{address}/api/stream?topics=nft:80001-1")).send().await.unwrap();
        tokio::spawn(async move {
            let mut text = String::new();
            while let Ok(Some(chunk)) = stream.chunk().await {
                text.push_str(&String::from_utf8_lossy(&chunk));
                while let Some(end) = text.find("\n\n") {
                    if text[..end].contains("event: change") {
                        let _ = seen.send(Instant::now());
                    }
                    text.drain(..end + 2);
                }
            }
        });
        let price_shown = |http: reqwest::Client, url: String| async move {
            let body: Value = http.get(&url).send().await.unwrap().json().await.unwrap();
            body["body"]["fixedPriceWei"].as_str().unwrap_or_default().to_owned()
        };
        // Wait for the mint to show, then measure each round.
        let deadline = Instant::now() + Duration::from_secs(30);
        while price_shown(http.clone(), detail.clone()).await != "1000" {
            assert!(Instant::now() < deadline, "the minted token never showed in the API");
            tokio::time::sleep(POLL).await;
        }
        if subscribed {
            let mut progress = indexer_handle.subscribe();
            let live = tokio::time::timeout(Duration::from_secs(30), progress.wait_for(|p| p.heads_live)).await;
            assert!(live.is_ok_and(|r| r.is_ok()), "the newHeads subscription never went live");
        }
        let mut lags = Vec::with_capacity(rounds);
        let mut streamed = Vec::with_capacity(rounds);
        while changes.try_recv().is_ok() {}
        for round in 0..rounds {
            // Start each round at a different point of the indexer's poll cycle, as a chain does.
            tokio::time::sleep(poll.mul_f64((round * 37 % 100) as f64 / 100.0)).await;
            while changes.try_recv().is_ok() {}
            let price = 2_000 + round as u64;
            let call = Marketplace::changeTokenPriceCall { tokenId: U256::from(1), newPrice: U256::from(price) };
            let tx = chain.call_request(chain.accounts[1], &call, U256::ZERO);
            // Anvil mines on arrival: the clock starts when the node has taken the transaction,
            // which is no later than its block.
            let pending = chain.provider.send_transaction(tx).await.unwrap();
            let mined = Instant::now();
            let limit = mined + Duration::from_secs(10);
            while price_shown(http.clone(), detail.clone()).await != price.to_string() {
                assert!(Instant::now() < limit, "round {round}: the new price never showed");
                tokio::time::sleep(POLL).await;
            }
            lags.push(mined.elapsed());
            let event = tokio::time::timeout(Duration::from_secs(10), changes.recv()).await.expect("the stream never told the change");
            streamed.push(event.unwrap().saturating_duration_since(mined));
            assert!(pending.get_receipt().await.unwrap().status());
        }
        let lags = Latencies::new(lags);
        let streamed = Latencies::new(streamed);

        // The floor, same run: one head + logs query per block, and one HTTP read of the detail.
        let mut floor = Vec::with_capacity(rounds);
        for _ in 0..rounds {
            let t = Instant::now();
            let head = chain.provider.get_block_number().await.unwrap();
            chain.provider.get_logs(&Filter::new().address(chain.market).from_block(head).to_block(head)).await.unwrap();
            price_shown(http.clone(), detail.clone()).await;
            floor.push(t.elapsed());
        }
        let floor = Latencies::new(floor);
        let mut round_trip = Vec::with_capacity(rounds);
        for _ in 0..rounds {
            let t = Instant::now();
            chain.provider.get_block_number().await.unwrap();
            round_trip.push(t.elapsed());
        }
        let round_trip = Latencies::new(round_trip);
        let following = if subscribed {
            format!(
                "its newHeads subscription (polling every {} ms while it is down, every {} ms while it is live)",
                poll.as_millis(),
                live_poll.as_millis()
            )
        } else {
            format!("polling alone every {} ms", poll.as_millis())
        };

        println!("---");
        println!("lag from a mined transaction to /api/nft/detail, {rounds} rounds, indexer following by {following}:");
        println!("  lag   : p50 {:>7.2} ms  p99 {:>7.2} ms  (goal p50 < 10 ms)", lags.ms(50.0), lags.ms(99.0));
        println!(
            "  stream: p50 {:>7.2} ms  p99 {:>7.2} ms  (the change event at a /api/stream client; goal p50 < 20 ms)",
            streamed.ms(50.0),
            streamed.ms(99.0)
        );
        println!(
            "  rpc   : p50 {:>7.2} ms  p99 {:>7.2} ms  (one bare eth_blockNumber round trip)",
            round_trip.ms(50.0),
            round_trip.ms(99.0)
        );
        println!("  floor : p50 {:>7.2} ms  p99 {:>7.2} ms  (head + logs + one detail read)", floor.ms(50.0), floor.ms(99.0));
        print!("  ratio floor / lag at p50: {:.2}", floor.ms(50.0) / lags.ms(50.0));
        if subscribed {
            println!();
        } else {
            println!("; the expected wait for the next poll alone is {:.0} ms", poll.as_secs_f64() * 500.0);
        }
    });
}
