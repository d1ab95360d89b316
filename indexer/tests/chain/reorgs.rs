//! Reorgs made with `anvil_reorg`: the retracted blocks' events are named by one
//! `BlocksRetracted`, the canonical blocks are indexed after it, and what still holds equals a
//! fresh index of the canonical chain. A reorg deeper than the limit stops the indexer cleanly.

use alloy::{
    primitives::U256,
    providers::ext::AnvilApi,
    rpc::types::anvil::{ReorgOptions, TransactionData},
};
use domain::chain::ChainEvent;
use indexer::{
    IndexerError,
    bindings::Marketplace,
    test_utils::{TestChain, mint_call, read_log, sqlite_store, stop_sale_call},
};

use crate::helpers::{chain_records, index_once, init_tracing, live_facts, spawn};

/// The checkpoints of blocks `from..=to` as they are on record just before a reorg.
fn live_checkpoints(records: &[ChainEvent], from: u64, to: u64) -> Vec<(u64, String, Vec<uuid::Uuid>)> {
    let mut live: std::collections::BTreeMap<u64, (String, Vec<uuid::Uuid>)> = Default::default();
    for record in records {
        match record {
            ChainEvent::BlockIndexed { number, hash, event_ids, .. } => {
                live.insert(*number, (hash.clone(), event_ids.clone()));
            }
            ChainEvent::BlocksRetracted { from_block, .. } => live.retain(|number, _| number < from_block),
            _ => unreachable!(),
        }
    }
    live.range(from..=to).map(|(n, (h, ids))| (*n, h.clone(), ids.clone())).collect()
}

#[tokio::test]
async fn reorgs_of_depth_one_and_three_are_retracted_and_the_canonical_blocks_indexed() {
    init_tracing();
    // Arrange: a chain with activity, an indexer following it.
    let chain = TestChain::start().await;
    let [_, creator, alice, bob, ..] = chain.accounts[..] else { unreachable!() };
    for i in 0..6u64 {
        chain.transact(creator, mint_call(&format!("ipfs://{i}"), 1, &[(bob, 200)], 0, U256::ZERO, U256::from(10_000)), U256::ZERO).await;
    }
    chain.transact(alice, Marketplace::buyTokenCall { tokenId: U256::from(2) }, U256::from(10_000)).await;
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite_store(&dir, "followed.db").await;
    let running = spawn(chain.indexer_config(), store.clone()).await;
    let (head, _) = chain.latest().await;
    running.handle.sync_to(head).await.unwrap();

    // Act 1: the last block (alice's purchase) is replaced by a block where alice mints instead.
    let before = chain_records(&*store).await;
    let replaced = live_checkpoints(&before, head, head);
    let replacement = mint_call("ipfs://reorg-1", 1, &[], 0, U256::ZERO, U256::from(777));
    chain
        .provider
        .anvil_reorg(ReorgOptions {
            depth: 1,
            tx_block_pairs: vec![(TransactionData::JSON(chain.call_request(alice, &replacement, U256::ZERO)), 0)],
        })
        .await
        .unwrap();
    let (same_head, _) = chain.latest().await;
    assert_eq!(same_head, head);
    running.handle.sync_to(head).await.unwrap();

    // Assert 1: one retraction naming exactly block `head`'s events, then the new block.
    let after = chain_records(&*store).await;
    let added = &after[before.len()..];
    let ChainEvent::BlocksRetracted { from_block, to_block, event_ids, .. } = &added[0] else {
        panic!("expected a retraction first, got {added:?}");
    };
    assert_eq!((*from_block, *to_block), (head, head));
    assert_eq!(event_ids, &replaced[0].2);
    assert!(!event_ids.is_empty());
    let ChainEvent::BlockIndexed { number, hash, event_ids: new_ids, .. } = &added[1] else { panic!("{added:?}") };
    assert_eq!(*number, head);
    assert_ne!(hash, &replaced[0].1);
    assert_eq!(new_ids.len(), 3, "the replacement mint's NftMinted, SaleUpdated and ServiceFeeSnapshotted");
    assert!(new_ids.iter().all(|id| !event_ids.contains(id)));

    // Act 2: more activity, then the last three blocks are replaced by two different
    // transactions in the first and third new block.
    chain.transact(creator, Marketplace::changeTokenPriceCall { tokenId: U256::from(1), newPrice: U256::from(20_000) }, U256::ZERO).await;
    chain.transact(bob, Marketplace::buyTokenCall { tokenId: U256::from(3) }, U256::from(10_000)).await;
    chain.transact(alice, Marketplace::buyTokenCall { tokenId: U256::from(4) }, U256::from(10_000)).await;
    let (head, _) = chain.latest().await;
    running.handle.sync_to(head).await.unwrap();
    let before = chain_records(&*store).await;
    let replaced = live_checkpoints(&before, head - 2, head);
    assert_eq!(replaced.len(), 3);
    let first = chain.call_request(bob, &Marketplace::buyTokenCall { tokenId: U256::from(4) }, U256::from(10_000));
    let third = chain.call_request(creator, &mint_call("ipfs://reorg-3", 0, &[], 0, U256::ZERO, U256::ZERO), U256::ZERO);
    chain
        .provider
        .anvil_reorg(ReorgOptions { depth: 3, tx_block_pairs: vec![(TransactionData::JSON(first), 0), (TransactionData::JSON(third), 2)] })
        .await
        .unwrap();
    running.handle.sync_to(head).await.unwrap();
    // And life goes on after it.
    chain.transact(creator, stop_sale_call(5), U256::ZERO).await;
    let (head, _) = chain.latest().await;
    running.handle.sync_to(head).await.unwrap();
    running.stop().await.unwrap();

    // Assert 2: one retraction of the three blocks naming exactly their live events.
    let after = chain_records(&*store).await;
    let added = &after[before.len()..];
    let ChainEvent::BlocksRetracted { from_block, to_block, event_ids, .. } = &added[0] else { panic!("{added:?}") };
    assert_eq!((*from_block, *to_block), (head - 3, head - 1));
    let expected: Vec<uuid::Uuid> = replaced.iter().flat_map(|(_, _, ids)| ids.clone()).collect();
    assert_eq!(event_ids, &expected);
    let reindexed: Vec<u64> = added[1..]
        .iter()
        .map(|r| match r {
            ChainEvent::BlockIndexed { number, .. } => *number,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(reindexed, vec![head - 3, head - 2, head - 1, head]);

    // What still holds equals a fresh index of the canonical chain.
    let fresh = sqlite_store(&dir, "fresh.db").await;
    index_once(chain.indexer_config(), fresh.clone()).await;
    let followed = live_facts(&read_log(&*store).await);
    assert_eq!(followed, live_facts(&read_log(&*fresh).await));
    assert!(followed.values().flatten().any(|(_, payload)| payload.contains("ipfs://reorg-3")));
    let buyers: Vec<&String> = followed["nft-80001-4"].iter().filter(|(t, _)| t == "NftSold").map(|(_, p)| p).collect();
    assert_eq!(buyers.len(), 1, "alice's retracted purchase is gone, bob's replacement holds");
    assert!(buyers[0].contains(&format!("{bob:#x}")));
}

#[tokio::test]
async fn a_reorg_deeper_than_the_limit_stops_the_indexer_and_writes_nothing() {
    init_tracing();
    // Arrange
    let chain = TestChain::start().await;
    let creator = chain.accounts[1];
    for i in 0..5u64 {
        chain.transact(creator, mint_call(&format!("ipfs://{i}"), 1, &[], 0, U256::ZERO, U256::from(10 + i)), U256::ZERO).await;
    }
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite_store(&dir, "events.db").await;
    let mut config = chain.indexer_config();
    config.max_reorg_depth = 2;
    let running = spawn(config, store.clone()).await;
    let (head, _) = chain.latest().await;
    running.handle.sync_to(head).await.unwrap();
    let written = store.head().await.unwrap();

    // Act: replace the last three blocks.
    let other = chain.call_request(chain.accounts[2], &mint_call("ipfs://other", 1, &[], 0, U256::ZERO, U256::from(99)), U256::ZERO);
    chain.provider.anvil_reorg(ReorgOptions { depth: 3, tx_block_pairs: vec![(TransactionData::JSON(other), 1)] }).await.unwrap();
    let synced = running.handle.sync_to(head).await;

    // Assert
    assert!(matches!(synced, Err(IndexerError::Stopped(ref reason)) if reason.contains("reorg")), "{synced:?}");
    match running.task.await.unwrap() {
        Err(IndexerError::ReorgTooDeep { depth, limit }) => assert_eq!((depth, limit), (3, 2)),
        other => panic!("expected ReorgTooDeep, got {other:?}"),
    }
    assert_eq!(store.head().await.unwrap(), written, "nothing was appended");
}
