//! Providers with limits: one that refuses large `eth_getLogs` answers makes the range shrink,
//! one that refuses JSON-RPC batches gets single calls, one that fails for a while is retried;
//! everything is still indexed.

use std::time::Duration;

use alloy::primitives::U256;
use indexer::test_utils::{TestChain, mint_call, read_log, sqlite_store};

use crate::{helpers::init_tracing, proxy::Proxy};

#[tokio::test]
async fn too_many_results_halves_the_range_and_still_indexes_everything() {
    init_tracing();
    // Arrange: 30 mints on sale (4 logs each: Transfer, Minted, SaleUpdated, ServiceFeeSnapshotted),
    // behind a provider that answers at most 10 logs per call.
    let chain = TestChain::start().await;
    for i in 0..30 {
        let creator = chain.accounts[1 + i % 3];
        chain.transact(creator, mint_call(&format!("ipfs://{i}"), 1, &[], 0, U256::ZERO, U256::from(1_000 + i)), U256::ZERO).await;
    }
    let proxy = Proxy::start(&chain.url, 10, Duration::ZERO).await;
    let dir = tempfile::tempdir().unwrap();
    let limited = sqlite_store(&dir, "limited.db").await;
    let direct = sqlite_store(&dir, "direct.db").await;
    let mut config = chain.indexer_config();
    config.rpc_url = proxy.url.clone();

    // Act
    let mut indexer = indexer::Indexer::connect(config, limited.clone()).await.unwrap();
    let handle = indexer.handle();
    let through = indexer.index_to_head().await.unwrap();
    let mut reference = indexer::Indexer::connect(chain.indexer_config(), direct.clone()).await.unwrap();
    reference.index_to_head().await.unwrap();

    // Assert: it shrank, never got more than the provider allows, and indexed the same log.
    let (head, _) = chain.latest().await;
    assert_eq!(through, head);
    let metrics = handle.metrics();
    let refused = proxy.refused.load(std::sync::atomic::Ordering::Relaxed);
    assert!(refused > 0 && proxy.answered.load(std::sync::atomic::Ordering::Relaxed) > refused);
    assert_eq!(metrics.range_shrinks, proxy.refused.load(std::sync::atomic::Ordering::Relaxed));
    assert!(metrics.range < 10_000, "the range shrank to {}", metrics.range);
    let ids = |log: Vec<domain::RecordedEvent>| log.into_iter().map(|e| (e.stream_id, e.event_id)).collect::<Vec<_>>();
    let limited_log = ids(read_log(&*limited).await);
    assert_eq!(limited_log, ids(read_log(&*direct).await));
    // 3 facts per mint: the Transfer from zero adds nothing.
    assert_eq!(limited_log.iter().filter(|(stream, _)| stream.starts_with("nft-")).count(), 90);
}

#[tokio::test]
async fn a_provider_without_batches_is_asked_one_header_at_a_time() {
    init_tracing();
    // Arrange
    let chain = TestChain::start().await;
    for i in 0..8 {
        chain.transact(chain.accounts[1], mint_call(&format!("ipfs://{i}"), 0, &[], 0, U256::ZERO, U256::ZERO), U256::ZERO).await;
    }
    let proxy = Proxy::start_with(&chain.url, usize::MAX, Duration::ZERO, false).await;
    let dir = tempfile::tempdir().unwrap();
    let (unbatched, direct) = (sqlite_store(&dir, "unbatched.db").await, sqlite_store(&dir, "direct.db").await);
    let mut config = chain.indexer_config();
    config.rpc_url = proxy.url.clone();

    // Act
    indexer::Indexer::connect(config, unbatched.clone()).await.unwrap().index_to_head().await.unwrap();
    indexer::Indexer::connect(chain.indexer_config(), direct.clone()).await.unwrap().index_to_head().await.unwrap();

    // Assert
    let ids = |log: Vec<domain::RecordedEvent>| log.into_iter().map(|e| e.event_id).collect::<Vec<_>>();
    let log = ids(read_log(&*unbatched).await);
    assert_eq!(log.len(), 8 + 2 + (chain.latest().await.0 - chain.deployment_block + 1) as usize);
    assert_eq!(log, ids(read_log(&*direct).await));
}

#[tokio::test]
async fn failing_rpc_calls_are_retried_with_backoff() {
    init_tracing();
    // Arrange: the first three eth_getLogs calls fail.
    let chain = TestChain::start().await;
    chain.transact(chain.accounts[1], mint_call("ipfs://a", 1, &[], 0, U256::ZERO, U256::from(9)), U256::ZERO).await;
    let proxy = Proxy::start_full(&chain.url, usize::MAX, Duration::ZERO, true, 3).await;
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite_store(&dir, "events.db").await;
    let mut config = chain.indexer_config();
    config.rpc_url = proxy.url.clone();

    // Act
    let mut indexer = indexer::Indexer::connect(config, store.clone()).await.unwrap();
    let through = indexer.index_to_head().await.unwrap();

    // Assert
    assert_eq!(through, chain.latest().await.0);
    assert_eq!(indexer.handle().metrics().rpc_retries, 3);
    let facts = read_log(&*store).await.into_iter().filter(|e| e.stream_id.starts_with("nft-")).count();
    assert_eq!(facts, 3, "NftMinted, SaleUpdated, ServiceFeeSnapshotted");
}
