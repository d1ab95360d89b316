//! Reconciliation at scale: `TOKENS` (default 100,000) tokens minted on a local anvil (4 in 7
//! listed at a fixed price, 2 in 7 in auctions, 1 in 7 not for sale; one in ten sold, one in
//! ten auctions with a bid), indexed and projected into SQLite, then
//! (a) the bare RPC reads a reconciliation needs: the same `eth_call`s (`tokenInfo` of every
//! token, `auctionInfo` of every auctioned one, `creditsOf` of every account) in the same
//! JSON-RPC batches and concurrency, answers not even decoded; and
//! (b) `reconcile` itself (reads, decoding, the read tables, the comparison).
//! Prints both, median of `RUNS` (default 3), and the ratio bare / reconcile.
//!
//! `cargo bench -p api --bench reconcile` (`TOKENS=20000` for a quicker run; `BATCH`,
//! `CONCURRENCY` as `marketplace reconcile --batch/--concurrency`).

use std::time::{Duration, Instant};

use alloy::{
    eips::BlockId,
    network::TransactionBuilder,
    primitives::{Address, Bytes, U256},
    providers::{DynProvider, Provider, ProviderBuilder, ext::AnvilApi},
    rpc::types::TransactionRequest,
    sol_types::SolCall,
};
use futures::{StreamExt, TryStreamExt};
use indexer::{
    Indexer,
    bindings::Marketplace,
    test_utils::{CHAIN_ID, TestChain, mint_call, sqlite_store},
};

const GAS_PRICE: u128 = 10_000_000_000;

fn env(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Transactions sent unsigned (anvil signs for its unlocked accounts) with nonces and fees set
/// here, mined in rounds (as the indexer's backfill benchmark does).
struct Sender {
    provider: DynProvider,
    market: Address,
    nonces: std::collections::HashMap<Address, u64>,
    batch: Vec<TransactionRequest>,
}

impl Sender {
    const BATCH: usize = 1_000;

    async fn push(&mut self, from: Address, call: impl SolCall, value: U256, gas: u64) {
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
        if self.batch.len() >= Self::BATCH {
            self.flush().await;
        }
    }

    async fn flush(&mut self) {
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
        for (account, nonce) in &self.nonces {
            while self.provider.get_transaction_count(*account).await.expect("nonce") < *nonce {
                self.provider.anvil_set_next_block_base_fee_per_gas(1_000_000_000).await.expect("base fee");
                self.provider.evm_mine(None).await.expect("mine");
            }
        }
    }
}

/// Mints `tokens` tokens; returns the auctioned ids.
async fn generate(chain: &TestChain, tokens: usize) -> Vec<u64> {
    let provider = ProviderBuilder::new().disable_recommended_fillers().connect_http(chain.url.parse().unwrap()).erased();
    provider.anvil_set_auto_mine(false).await.expect("automine off");
    let mut sender = Sender { provider, market: chain.market, nonces: Default::default(), batch: Vec::new() };
    let creator = chain.accounts[1];
    let royalties = [(chain.accounts[2], 300u16)];
    let (_, now) = chain.latest().await;
    let end = now + 6 * 24 * 3_600;
    let mut fixed = Vec::new();
    let mut auctions = Vec::new();
    for i in 0..tokens {
        let token = i as u64 + 1;
        let price = U256::from(1_000_000 + i);
        let call = match i % 7 {
            0..=3 => {
                fixed.push((token, price));
                mint_call(&format!("ipfs://bafy{i:08}"), 1, &royalties, 0, U256::ZERO, price)
            }
            4 | 5 => {
                auctions.push(token);
                mint_call(&format!("ipfs://bafy{i:08}"), 2, &[], end, U256::from(1_000), price)
            }
            _ => mint_call(&format!("ipfs://bafy{i:08}"), 0, &[], 0, U256::ZERO, U256::ZERO),
        };
        sender.push(creator, call, U256::ZERO, 600_000).await;
    }
    sender.flush().await;
    let buyers = &chain.accounts[4..];
    for (i, (token, price)) in fixed.iter().step_by(6).enumerate() {
        sender.push(buyers[i % buyers.len()], Marketplace::buyTokenCall { tokenId: U256::from(*token) }, *price, 300_000).await;
    }
    for (i, token) in auctions.iter().step_by(3).enumerate() {
        sender.push(buyers[i % buyers.len()], Marketplace::bidCall { tokenId: U256::from(*token) }, U256::from(1_000), 200_000).await;
    }
    sender.flush().await;
    auctions
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

#[tokio::main]
async fn main() {
    let tokens = env("TOKENS", 100_000);
    let runs = env("RUNS", 3).max(1);
    let chain = TestChain::start_with(&["--gas-limit", "100000000"]).await;
    let started = Instant::now();
    let auctioned = generate(&chain, tokens).await;
    println!("minted {tokens} tokens ({} in auctions) in {:.1} s", auctioned.len(), started.elapsed().as_secs_f64());

    let dir = tempfile::tempdir().unwrap();
    let store = sqlite_store(&dir, "events.db").await;
    let started = Instant::now();
    Indexer::connect(chain.indexer_config(), store.clone()).await.unwrap().index_to_head().await.unwrap();
    let read = projections::ReadDb::open(&format!("sqlite://{}", dir.path().join("read.db").display())).await.unwrap();
    projections::Projector::new(store.clone(), read.clone()).await.unwrap().catch_up().await.unwrap();
    println!("indexed and projected in {:.1} s", started.elapsed().as_secs_f64());

    let mut target = api::node::reconcile::Target::connect(&chain.url, CHAIN_ID, chain.market).unwrap();
    (target.batch, target.concurrency) = (env("BATCH", target.batch), env("CONCURRENCY", target.concurrency));
    let (block, _) = chain.latest().await;
    let at = BlockId::number(block);

    let mut bare = Vec::new();
    let mut full = Vec::new();
    for run in 0..runs {
        let started = Instant::now();
        let mut inputs: Vec<Bytes> =
            (1..=tokens as u64).map(|id| Bytes::from(Marketplace::tokenInfoCall { tokenId: U256::from(id) }.abi_encode())).collect();
        inputs.extend(auctioned.iter().map(|&id| Bytes::from(Marketplace::auctionInfoCall { tokenId: U256::from(id) }.abi_encode())));
        inputs.extend(chain.accounts.iter().map(|&account| Bytes::from(Marketplace::creditsOfCall { account }.abi_encode())));
        let calls = inputs.len();
        let chunks: Vec<Vec<Bytes>> = inputs.chunks(target.batch).map(<[Bytes]>::to_vec).collect();
        let answers: Vec<Vec<Option<Bytes>>> = futures::stream::iter(chunks)
            .map(|chunk| api::node::reconcile::raw_batch(&target.provider, target.contract, at, chunk))
            .buffered(target.concurrency)
            .try_collect()
            .await
            .expect("bare reads");
        assert_eq!(answers.iter().map(Vec::len).sum::<usize>(), calls);
        bare.push(started.elapsed());

        let started = Instant::now();
        let report = api::node::reconcile::reconcile(store.as_ref(), &read, &target).await.expect("reconcile");
        full.push(started.elapsed());
        assert!(report.differences.is_empty(), "{:?}", &report.differences[..report.differences.len().min(5)]);
        println!(
            "run {}: bare reads {:.2} s ({calls} eth_calls), reconcile {:.2} s ({} eth_calls, {} tokens, {} accounts, 0 differences)",
            run + 1,
            bare[run].as_secs_f64(),
            full[run].as_secs_f64(),
            report.calls,
            report.tokens,
            report.accounts
        );
    }
    let (bare, full) = (median(bare), median(full));
    println!(
        "reconciliation of {tokens} tokens, median of {runs}: {:.2} s; the bare RPC reads it needs {:.2} s; ratio (bare / reconcile) {:.2}",
        full.as_secs_f64(),
        bare.as_secs_f64(),
        bare.as_secs_f64() / full.as_secs_f64()
    );
}
