//! `sync_to(n)` answers only once block n is indexed, with a log position after its events.

use std::time::Duration;

use alloy::primitives::U256;
use domain::chain::ChainEvent;
use indexer::{
    IndexerError,
    test_utils::{TestChain, mint_call, read_log, sqlite_store},
};

use crate::helpers::{init_tracing, origin, spawn};

#[tokio::test]
async fn sync_to_returns_only_once_the_block_is_indexed() {
    init_tracing();
    // Arrange: a follower that would only poll by itself every minute.
    let chain = TestChain::start().await;
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite_store(&dir, "events.db").await;
    let mut config = chain.indexer_config();
    config.poll_interval = Duration::from_secs(60);
    config.sync_timeout = Duration::from_secs(2);
    let running = spawn(config, store.clone()).await;
    let (head, _) = chain.latest().await;
    running.handle.sync_to(head).await.unwrap();

    // Act 1: wait for a block that does not exist yet.
    let waiter = {
        let handle = running.handle.clone();
        tokio::spawn(async move { handle.sync_to(head + 1).await })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!waiter.is_finished(), "sync_to answered before the block existed");
    let receipt = chain.transact(chain.accounts[1], mint_call("ipfs://x", 1, &[], 0, U256::ZERO, U256::from(5)), U256::ZERO).await;
    assert_eq!(receipt.block_number, Some(head + 1));
    let position = running.handle.sync_to(head + 1).await.unwrap();

    // Assert 1: the block's events are in the log at or before the position returned.
    let log = read_log(&*store).await;
    let minted = log
        .iter()
        .find(|e| matches!(e.payload::<ChainEvent>().ok().as_ref().and_then(origin), Some(o) if o.block_number == head + 1))
        .expect("the mint of block head + 1 is indexed");
    assert!(minted.position <= position);
    assert_eq!(running.handle.progress().indexed_through, head + 1);
    // The earlier waiter is answered by the same poll.
    assert!(waiter.await.unwrap().unwrap() >= minted.position);

    // Act 2 / Assert 2: a block that never comes times out with a typed error.
    match running.handle.sync_to(head + 10).await {
        Err(IndexerError::SyncTimeout { block, indexed_through, .. }) => assert_eq!((block, indexed_through), (head + 10, head + 1)),
        other => panic!("expected a timeout, got {other:?}"),
    }
    let handle = running.handle.clone();
    running.stop().await.unwrap();
    assert!(matches!(handle.sync_to(head).await, Err(IndexerError::Stopped(_))));
}
