//! The chain indexer: turns the marketplace contract's logs into [`domain::chain::ChainEvent`]s in
//! the event store.
//!
//! * [`IndexerConfig`]: where the chain is, what to read, how careful to be.
//! * [`Indexer`]: backfills from the deployment block (or the last checkpoint) with `eth_getLogs`
//!   in adaptive ranges, then follows new blocks; every block's checkpoint
//!   ([`domain::chain::ChainEvent::BlockIndexed`]) is appended atomically with the block's events,
//!   and reorgs are compensated with [`domain::chain::ChainEvent::BlocksRetracted`]. New heads
//!   come over WebSocket where the node offers it, polling otherwise.
//! * [`IndexerHandle`]: what the API holds: "index up to block N now and tell me the log position
//!   after it" ([`IndexerHandle::sync_to`]), progress and metrics.
//! * [`bindings`]: the alloy `sol!` bindings of the contract, generated from its built artifact.
//! * [`decode_log`]: one log to at most one chain event.
//!
//! See the crate's README for how restarts and reorgs work and the backfill figures.

pub mod bindings;
mod checkpoint;
mod config;
mod decode;
mod error;
mod handle;
mod heads;
mod indexer;
mod metrics;
mod rpc;

pub use alloy::primitives::Address;
pub use config::IndexerConfig;
pub use decode::decode_log;
pub use error::IndexerError;
pub use handle::{IndexerFollower, IndexerHandle, IndexerMetrics, Progress};
pub use heads::ws_url_for;
pub use indexer::Indexer;

#[cfg(any(test, feature = "test-utils"))]
pub mod test_utils;
