//! The indexer's one error type.

use domain::StoreError;

/// Everything the indexer can fail with.
#[derive(Debug, thiserror::Error)]
pub enum IndexerError {
    /// The configuration cannot work (an empty range, a bad URL, ...).
    #[error("invalid indexer configuration: {0}")]
    Config(String),
    /// The RPC endpoint serves another chain than the one configured.
    #[error("the RPC endpoint serves chain {actual}, the indexer is configured for chain {expected}")]
    ChainIdMismatch {
        /// The configured chain id.
        expected: u64,
        /// What `eth_chainId` answered.
        actual: u64,
    },
    /// An RPC call kept failing after every retry.
    #[error("RPC {method} failed after {attempts} attempts: {message}")]
    Rpc {
        /// The JSON-RPC method.
        method: &'static str,
        /// How many times it was tried.
        attempts: u32,
        /// The last error.
        message: String,
    },
    /// The node kept answering with data that does not fit together (logs of a block whose hash
    /// is not the block's, a broken parent link inside one range): it is reorganizing faster than
    /// the indexer can read.
    #[error("the chain kept changing while blocks {from}..={to} were read")]
    Unstable {
        /// First block of the range.
        from: u64,
        /// Last block of the range.
        to: u64,
    },
    /// A log of the contract with a known event signature did not decode: the ABI and the
    /// deployed contract disagree, and going on would record wrong facts.
    #[error("cannot decode the log at block {block}, index {log_index}: {reason}")]
    Decode {
        /// Block number.
        block: u64,
        /// Log index within the block.
        log_index: u64,
        /// What was wrong.
        reason: String,
    },
    /// A reorg went deeper than the configured limit. Nothing was written: an operator has to look
    /// (a wrong RPC endpoint, or a chain event the configuration did not plan for).
    #[error("reorg of at least {depth} blocks exceeds the limit of {limit}; the indexer stopped without writing")]
    ReorgTooDeep {
        /// Blocks that would have to be retracted (at least this many).
        depth: u64,
        /// The configured `max_reorg_depth`.
        limit: u64,
    },
    /// The chain stream moved under the indexer: another indexer writes to the same log.
    #[error("another writer appended to {stream} (expected version {expected}, found {actual}); only one indexer may run per chain")]
    ConcurrentIndexer {
        /// The chain stream.
        stream: String,
        /// The version this indexer expected.
        expected: u64,
        /// The version found.
        actual: u64,
    },
    /// The chain stream holds something the indexer did not write.
    #[error("unexpected event in {stream} at version {version}: {reason}")]
    CorruptCheckpoint {
        /// The chain stream.
        stream: String,
        /// The event's version in it.
        version: u64,
        /// What was wrong.
        reason: String,
    },
    /// [`crate::IndexerHandle::sync_to`] gave up waiting.
    #[error("block {block} was not indexed within {timeout_ms} ms (indexed through {indexed_through})")]
    SyncTimeout {
        /// The block asked for.
        block: u64,
        /// How far the indexer had got.
        indexed_through: u64,
        /// The timeout.
        timeout_ms: u64,
    },
    /// The indexer is not running (it stopped, or failed with the given reason).
    #[error("the indexer is not running: {0}")]
    Stopped(String),
    /// The event store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl IndexerError {
    /// Whether waiting and trying again can help (the node is down or moving); the follower
    /// keeps going after these and stops on every other error.
    pub fn is_transient(&self) -> bool {
        matches!(self, Self::Rpc { .. } | Self::Unstable { .. })
    }
}
