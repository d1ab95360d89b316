//! Backfill throughput: 10,000 marketplace transactions on a local anvil, then
//! (a) a bare `eth_getLogs` fetch of the whole range in the indexer's ranges, and
//! (b) a full backfill by the indexer into a fresh SQLite store;
//! prints logs/s of both and their ratio (goal >= 0.5).
//!
//! `cargo bench -p indexer --bench backfill` (TXS=2000 for a quicker run).

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use alloy::{
    network::TransactionBuilder,
    primitives::{Address, Bytes, U256},
    providers::{DynProvider, Provider, ProviderBuilder, ext::AnvilApi},
    rpc::types::{Filter, TransactionRequest},
    sol_types::SolCall,
};
use futures::{StreamExt, TryStreamExt};
use indexer::{
    Indexer,
    bindings::Marketplace,
    test_utils::{CHAIN_ID, TestChain, mint_call, sqlite_store},
};

const RUNS: usize = 5;
const GAS_PRICE: u128 = 10_000_000_000;

/// Transactions sent unsigned (anvil signs for its unlocked accounts), nonces and fees set
/// here, so each is one RPC call and none waits for a receipt.
struct Sender {
    provider: DynProvider,
    market: Address,
    nonces: std::collections::HashMap<Address, u64>,
    batch: Vec<TransactionRequest>,
}

impl Sender {
    /// Transactions sent between two rounds of mining.
    const BATCH: usize = 400;

    async fn push(&mut self, from: Address, call: impl SolCall, value: U256, gas: u64) -> u64 {
        let nonce = self.nonces.entry(from).or_default();
        let tx = TransactionRequest::default()
            .from(from)
            .to(self.market)
            .input(Bytes::from(call.abi_encode()).into())
            .value(value)
            .nonce(*nonce)
            .gas_limit(gas)
            .max_fee_per_gas(GAS_PRICE)
            .max_priority_fee_per_gas(1)
            .with_chain_id(CHAIN_ID);
        *nonce += 1;
        self.batch.push(tx);
        if self.batch.len() >= Self::BATCH { self.flush().await } else { 0 }
    }

    /// Sends the batch and mines until the pool is empty; returns blocks mined.
    async fn flush(&mut self) -> u64 {
        let batch = std::mem::take(&mut self.batch);
        let provider = self.provider.clone();
        futures::stream::iter(batch)
            .map(|tx| {
                let provider = provider.clone();
                async move { provider.send_transaction(tx).await.map(|_| ()) }
            })
            .buffer_unordered(32)
            .try_collect::<Vec<()>>()
            .await
            .expect("send");
        // Mine until every sender's transactions are in (a block holds ~40 mints).
        let mut blocks = 0;
        for (account, nonce) in &self.nonces {
            while self.provider.get_transaction_count(*account).await.expect("nonce") < *nonce {
                assert!(blocks < Self::BATCH as u64, "transactions of {account} were dropped from the pool");
                // Full blocks raise the EIP-1559 base fee 12.5% each; keep it low so the
                // fixed fee cap stays above it.
                self.provider.anvil_set_next_block_base_fee_per_gas(1_000_000_000).await.expect("base fee");
                self.provider.evm_mine(None).await.expect("mine");
                blocks += 1;
            }
        }
        blocks
    }
}

async fn generate(chain: &TestChain, txs: usize) -> u64 {
    let provider = ProviderBuilder::new().disable_recommended_fillers().connect_http(chain.url.parse().unwrap()).erased();
    provider.anvil_set_auto_mine(false).await.expect("automine off");
    let mut blocks = 0;
    let mut sender = Sender { provider, market: chain.market, nonces: Default::default(), batch: Vec::new() };
    let creator = chain.accounts[1];
    let royalties = [(chain.accounts[2], 300u16), (chain.accounts[3], 200u16)];
    let (_, now) = chain.latest().await;
    let end = now + 6 * 24 * 3_600;
    // 70% mints by one creator (so token ids follow its nonces): 4 in 7 at a fixed price with two
    // royalty rows, 2 in 7 auctions, 1 in 7 not for sale.
    let mints = txs * 7 / 10;
    let mut fixed = Vec::new();
    let mut auctions = Vec::new();
    for i in 0..mints {
        let token = i as u64 + 1;
        let price = U256::from(1_000_000 + i);
        let call = match i % 7 {
            0..=3 => {
                fixed.push((token, price));
                mint_call(&format!("ipfs://bafy{i:08}"), 1, &royalties, 0, U256::ZERO, price)
            }
            4 | 5 => {
                auctions.push(token);
                mint_call(&format!("ipfs://bafy{i:08}"), 2, &royalties[..1], end, U256::from(1_000), price)
            }
            _ => mint_call(&format!("ipfs://bafy{i:08}"), 0, &[], 0, U256::ZERO, U256::ZERO),
        };
        blocks += sender.push(creator, call, U256::ZERO, 600_000).await;
    }
    blocks += sender.flush().await;
    // The rest: two thirds purchases of fixed-price tokens, one third first bids on auctions.
    let rest = txs - mints;
    let buyers = &chain.accounts[4..];
    for i in 0..rest {
        let buyer = buyers[i % buyers.len()];
        if i % 3 < 2 {
            let (token, price) = fixed[(i / 3 * 2 + i % 3) % fixed.len()];
            blocks += sender.push(buyer, Marketplace::buyTokenCall { tokenId: U256::from(token) }, price, 300_000).await;
        } else {
            let token = auctions[(i / 3) % auctions.len()];
            blocks += sender.push(buyer, Marketplace::bidCall { tokenId: U256::from(token) }, U256::from(1_000), 200_000).await;
        }
    }
    blocks += sender.flush().await;
    blocks
}

/// The ranges the indexer reads: windows of `max_range`, split where block-by-block
/// checkpointing begins (`max_reorg_depth` below the head), the first one a quarter of a range.
fn ranges(from: u64, head: u64, max_range: u64, max_reorg_depth: u64) -> Vec<(u64, u64)> {
    let dense_start = head.saturating_sub(max_reorg_depth) + 1;
    let mut ranges = Vec::new();
    let mut next = from;
    while next <= head {
        let mut to = head.min((next / max_range + 1) * max_range - 1);
        if next < dense_start {
            to = to.min(dense_start - 1);
        }
        if ranges.is_empty() {
            to = to.min(next + max_range.div_ceil(4) - 1);
        }
        ranges.push((next, to));
        next = to + 1;
    }
    ranges
}

#[tokio::main]
async fn main() {
    let txs: usize = std::env::var("TXS").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000);
    let started = Instant::now();
    let chain = TestChain::start_with(&["--gas-limit", "10000000"]).await;
    let blocks = tokio::time::timeout(Duration::from_secs(300), generate(&chain, txs)).await.expect("generation took over 5 minutes");
    let (head, _) = chain.latest().await;
    println!("generated {txs} transactions in {blocks} blocks ({:.1} s); chain head {head}", started.elapsed().as_secs_f64());

    // Ranges of 25 blocks (~3,600 logs here): a long chain is read in many ranges, so the
    // fetcher and the writer overlap as they do on one; a single range would leave nothing to
    // overlap.
    let mut config = chain.indexer_config();
    config.max_range = std::env::var("MAX_RANGE").ok().and_then(|v| v.parse().ok()).unwrap_or(25);
    let ranges = ranges(chain.deployment_block, head, config.max_range, config.max_reorg_depth);
    let provider = ProviderBuilder::new().connect_http(chain.url.parse().unwrap()).erased();
    let dir = tempfile::tempdir().unwrap();
    let mut bare_rates = Vec::new();
    let mut index_rates = Vec::new();
    let mut append_rates = Vec::new();
    let mut logs_total = 0;
    let mut events_per_run = 1;
    for run in 0..RUNS {
        // (a) bare eth_getLogs over the same ranges.
        let t = Instant::now();
        let mut logs = 0;
        for (from, to) in &ranges {
            let filter = Filter::new().address(chain.market).from_block(*from).to_block(*to);
            logs += provider.get_logs(&filter).await.expect("eth_getLogs").len();
        }
        let bare = t.elapsed();
        logs_total = logs;
        bare_rates.push(logs as f64 / bare.as_secs_f64());

        // (b) the indexer into a fresh SQLite store.
        let store = sqlite_store(&dir, &format!("run{run}.db")).await;
        let mut indexer = Indexer::connect(config.clone(), Arc::clone(&store)).await.expect("connect");
        let handle = indexer.handle();
        let t = Instant::now();
        let through = indexer.index_to_head().await.expect("backfill");
        let backfill = t.elapsed();
        assert_eq!(through, head);
        let metrics = handle.metrics();
        assert_eq!(metrics.logs_indexed as usize, logs);
        events_per_run = metrics.events_appended;
        index_rates.push(logs as f64 / backfill.as_secs_f64());
        let appending = metrics.append_micros as f64 / 1e6;
        append_rates.push(metrics.events_appended as f64 / appending);
        println!(
            "run {}: bare eth_getLogs {logs} logs in {:.3} s ({:.0} logs/s); backfill {:.3} s ({:.0} logs/s), \
             of which {:.3} s appending {} events in {} appends ({:.0} events/s)",
            run + 1,
            bare.as_secs_f64(),
            bare_rates[run],
            backfill.as_secs_f64(),
            index_rates[run],
            appending,
            metrics.events_appended,
            metrics.appends,
            append_rates[run],
        );
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (bare, index, append) = (median(bare_rates), median(index_rates), median(append_rates));
    println!("---");
    println!(
        "backfill of {txs} transactions ({logs_total} logs, {} blocks, {} getLogs ranges), median of {RUNS} runs:",
        head - chain.deployment_block + 1,
        ranges.len()
    );
    println!("  bare eth_getLogs : {bare:>10.0} logs/s");
    println!("  indexer backfill : {index:>10.0} logs/s");
    println!("  ratio            : {:>10.2} (goal >= 0.5)", index / bare);
    println!("  (the store's appends alone: {append:.0} events/s, {:.0} logs/s)", append * logs_total as f64 / events_per_run as f64);
    println!("total {:.1} s", started.elapsed().as_secs_f64());
}
