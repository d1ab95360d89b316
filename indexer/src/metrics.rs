//! The indexer's counters, shared by the fetches (`rpc`), the indexing loop and the handles.

use std::sync::atomic::{AtomicU32, AtomicU64};

/// Counters kept while indexing.
#[derive(Debug, Default)]
pub(crate) struct Metrics {
    pub blocks_indexed: AtomicU64,
    pub logs_indexed: AtomicU64,
    pub events_appended: AtomicU64,
    pub appends: AtomicU64,
    pub append_micros: AtomicU64,
    pub reorgs: AtomicU64,
    pub retracted_events: AtomicU64,
    pub rpc_calls: AtomicU64,
    pub rpc_retries: AtomicU64,
    pub range_shrinks: AtomicU64,
    pub range: AtomicU64,
    /// New heads pushed by the node, and newHeads subscriptions made (renewals included).
    pub heads_received: AtomicU64,
    pub head_subscriptions: AtomicU64,
    /// Header batches that failed in a row.
    pub batch_failures: AtomicU32,
}
