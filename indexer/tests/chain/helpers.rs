//! Shared arrangements: running an indexer, reading the log back.

use std::{collections::BTreeMap, sync::Arc};

use domain::{
    EventStore, RecordedEvent,
    chain::{ChainEvent, Origin, chain_stream},
};
use indexer::{Indexer, IndexerConfig, IndexerError, IndexerHandle, test_utils::CHAIN_ID};
use tokio::{sync::oneshot, task::JoinHandle};
use uuid::Uuid;

/// An indexer running in the background.
pub struct Running {
    pub handle: IndexerHandle,
    pub task: JoinHandle<Result<(), IndexerError>>,
    shutdown: Option<oneshot::Sender<()>>,
}

impl Running {
    /// Stops it and returns how `run` ended.
    pub async fn stop(mut self) -> Result<(), IndexerError> {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        self.task.await.expect("the indexer task")
    }
}

/// Connects an indexer and spawns its `run`.
pub async fn spawn(config: IndexerConfig, store: Arc<dyn EventStore>) -> Running {
    let indexer = Indexer::connect(config, store).await.expect("connect the indexer");
    let handle = indexer.handle();
    let (shutdown, stopped) = oneshot::channel();
    let task = tokio::spawn(indexer.run(async move {
        let _ = stopped.await;
    }));
    Running { handle, task, shutdown: Some(shutdown) }
}

/// Indexes the chain up to its head once into `store`.
pub async fn index_once(config: IndexerConfig, store: Arc<dyn EventStore>) -> u64 {
    let mut indexer = Indexer::connect(config, store).await.expect("connect the indexer");
    indexer.index_to_head().await.expect("index to the head")
}

/// The events of one stream, decoded.
pub async fn stream(store: &dyn EventStore, stream: &str) -> Vec<ChainEvent> {
    store
        .read_stream(stream, 1, 100_000)
        .await
        .expect("read the stream")
        .iter()
        .map(|e| e.payload::<ChainEvent>().expect("a chain event"))
        .collect()
}

/// The indexer's checkpoints and retractions.
pub async fn chain_records(store: &dyn EventStore) -> Vec<ChainEvent> {
    stream(store, &chain_stream(CHAIN_ID)).await
}

/// The event with its origin blanked, to compare values without coordinates.
pub fn without_origin(mut event: ChainEvent) -> ChainEvent {
    use ChainEvent::*;
    match &mut event {
        NftMinted { origin, .. }
        | SaleUpdated { origin, .. }
        | PriceChanged { origin, .. }
        | BidPlaced { origin, .. }
        | BidRefunded { origin, .. }
        | BidRejected { origin, .. }
        | AuctionExtended { origin, .. }
        | AuctionEnded { origin, .. }
        | NftSold { origin, .. }
        | RoyaltyPaid { origin, .. }
        | NftTransferred { origin, .. }
        | NftBurned { origin, .. }
        | Credited { origin, .. }
        | CreditsWithdrawn { origin, .. }
        | ServiceFeeSnapshotted { origin, .. }
        | ServiceFeeChanged { origin, .. }
        | AdminProposed { origin, .. }
        | AdminChanged { origin, .. }
        | OfferMade { origin, .. }
        | OfferCancelled { origin, .. }
        | OfferRejected { origin, .. }
        | OfferAccepted { origin, .. }
        | CartItemSkipped { origin, .. }
        | CartPurchased { origin, .. }
        | ModeratorSet { origin, .. }
        | SaleHeld { origin, .. }
        | SaleReleased { origin, .. } => {
            *origin = Origin { block_number: 0, block_time: 0, tx_hash: String::new(), log_index: 0 };
        }
        BlockIndexed { .. } | BlocksRetracted { .. } => {}
    }
    event
}

/// The origin of a chain fact.
pub fn origin(event: &ChainEvent) -> Option<&Origin> {
    use ChainEvent::*;
    match event {
        NftMinted { origin, .. }
        | SaleUpdated { origin, .. }
        | PriceChanged { origin, .. }
        | BidPlaced { origin, .. }
        | BidRefunded { origin, .. }
        | BidRejected { origin, .. }
        | AuctionExtended { origin, .. }
        | AuctionEnded { origin, .. }
        | NftSold { origin, .. }
        | RoyaltyPaid { origin, .. }
        | NftTransferred { origin, .. }
        | NftBurned { origin, .. }
        | Credited { origin, .. }
        | CreditsWithdrawn { origin, .. }
        | ServiceFeeSnapshotted { origin, .. }
        | ServiceFeeChanged { origin, .. }
        | AdminProposed { origin, .. }
        | AdminChanged { origin, .. }
        | OfferMade { origin, .. }
        | OfferCancelled { origin, .. }
        | OfferRejected { origin, .. }
        | OfferAccepted { origin, .. }
        | CartItemSkipped { origin, .. }
        | CartPurchased { origin, .. }
        | ModeratorSet { origin, .. }
        | SaleHeld { origin, .. }
        | SaleReleased { origin, .. } => Some(origin),
        BlockIndexed { .. } | BlocksRetracted { .. } => None,
    }
}

/// The facts that still hold: every chain fact (not the indexer's own records) minus those a
/// `BlocksRetracted` names, per stream as (event type, payload) in stream order.
pub fn live_facts(log: &[RecordedEvent]) -> BTreeMap<String, Vec<(String, String)>> {
    let chain = chain_stream(CHAIN_ID);
    let mut retracted: Vec<Uuid> = Vec::new();
    for event in log.iter().filter(|e| e.stream_id == chain) {
        if let ChainEvent::BlocksRetracted { event_ids, .. } = event.payload::<ChainEvent>().expect("a chain record") {
            retracted.extend(event_ids);
        }
    }
    let mut facts: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for event in log.iter().filter(|e| e.stream_id != chain && !retracted.contains(&e.event_id)) {
        facts.entry(event.stream_id.clone()).or_default().push((event.event_type.clone(), event.payload.clone()));
    }
    facts
}

/// Installs a log subscriber once (RUST_LOG=indexer=debug to see the indexer's lines).
pub fn init_tracing() {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()))
        .with_test_writer()
        .try_init();
}
