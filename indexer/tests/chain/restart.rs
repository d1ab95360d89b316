//! An indexer killed in the middle of a backfill and restarted writes exactly the log an
//! uninterrupted one writes: no event lost, none doubled, same ids in the same order.

use std::time::Duration;

use alloy::primitives::U256;
use domain::{EventStore, store::sqlite::SqliteEventStore};
use indexer::{
    Indexer, IndexerConfig,
    bindings::Marketplace,
    test_utils::{TestChain, mint_call, read_log, sqlite_store},
};

use crate::{helpers::init_tracing, proxy::Proxy};

/// Runs a backfill through a slow provider and aborts it once it has indexed past `past`.
async fn kill_after(config: IndexerConfig, path: &std::path::Path, past: u64) -> u64 {
    let store: std::sync::Arc<dyn EventStore> = std::sync::Arc::new(SqliteEventStore::open(path).await.unwrap());
    let mut indexer = Indexer::connect(config, store).await.unwrap();
    let mut progress = indexer.handle().subscribe();
    let task = tokio::spawn(async move { indexer.index_to_head().await });
    let reached = progress.wait_for(|p| p.indexed_through > past).await.unwrap().indexed_through;
    task.abort();
    assert!(task.await.unwrap_err().is_cancelled(), "the backfill finished before it could be killed");
    reached
}

fn ids(log: Vec<domain::RecordedEvent>) -> Vec<(String, uuid::Uuid)> {
    log.into_iter().map(|e| (e.stream_id, e.event_id)).collect()
}

#[tokio::test]
async fn a_backfill_killed_twice_and_restarted_writes_the_same_log_as_an_uninterrupted_one() {
    init_tracing();
    // Arrange: 48 blocks of market activity; small ranges and a shallow reorg window, so the
    // backfill is many windowed appends plus a block-by-block tail.
    let chain = TestChain::start().await;
    for i in 0..40u64 {
        let creator = chain.accounts[1 + (i % 4) as usize];
        chain
            .transact(
                creator,
                mint_call(&format!("ipfs://{i}"), 1, &[(chain.accounts[9], 300)], 0, U256::ZERO, U256::from(1_000 + i)),
                U256::ZERO,
            )
            .await;
        if i % 5 == 4 {
            chain.transact(chain.accounts[8], Marketplace::buyTokenCall { tokenId: U256::from(i + 1) }, U256::from(1_000 + i)).await;
        }
    }
    let (head, _) = chain.latest().await;
    let mut config = chain.indexer_config();
    config.max_range = 4;
    config.max_reorg_depth = 3;
    let slow = Proxy::start(&chain.url, usize::MAX, Duration::from_millis(8)).await;
    let mut slow_config = config.clone();
    slow_config.rpc_url = slow.url.clone();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("killed.db");

    // Act: kill it twice mid-backfill, then let a third run finish.
    let first = kill_after(slow_config.clone(), &path, chain.deployment_block + 8).await;
    let second = kill_after(slow_config, &path, first + 12).await;
    assert!(second < head, "killed before the end ({second} < {head})");
    let store: std::sync::Arc<dyn EventStore> = std::sync::Arc::new(SqliteEventStore::open(&path).await.unwrap());
    let mut restarted = Indexer::connect(config.clone(), store.clone()).await.unwrap();
    assert_eq!(restarted.index_to_head().await.unwrap(), head);
    let uninterrupted = sqlite_store(&dir, "uninterrupted.db").await;
    Indexer::connect(config.clone(), uninterrupted.clone()).await.unwrap().index_to_head().await.unwrap();

    // Assert
    let killed_log = ids(read_log(&*store).await);
    assert_eq!(killed_log, ids(read_log(&*uninterrupted).await));
    // A mint on sale: NftMinted, SaleUpdated, ServiceFeeSnapshotted; a purchase: four more.
    assert_eq!(killed_log.iter().filter(|(s, _)| s.starts_with("nft-")).count(), 40 * 3 + 8 * 4);
    // A restart at the head adds nothing.
    let again = store.head().await.unwrap().0;
    Indexer::connect(config, store.clone()).await.unwrap().index_to_head().await.unwrap();
    assert_eq!(store.head().await.unwrap().0, again);
}
