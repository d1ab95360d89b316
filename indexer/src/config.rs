//! The indexer's configuration.

use std::time::Duration;

use alloy::primitives::Address;

use crate::IndexerError;

/// The largest block range one `eth_getLogs` call may ask for (most providers refuse more).
pub const MAX_RANGE_LIMIT: u64 = 10_000;

/// Where the chain is, what to read from it, and how careful to be.
#[derive(Clone, Debug)]
pub struct IndexerConfig {
    /// JSON-RPC endpoint (http or https).
    pub rpc_url: String,
    /// EIP-155 chain id; checked against `eth_chainId` at connect, and part of every stream name.
    pub chain_id: u64,
    /// The marketplace contract: the only address logs are read from.
    pub contract_address: Address,
    /// The block the contract was deployed in: nothing before it is read.
    pub deployment_block: u64,
    /// Blocks below the head before a block is indexed (0 on the local chain; a few on a real one).
    pub confirmations: u64,
    /// The deepest reorg the indexer compensates; a deeper one stops it with
    /// [`IndexerError::ReorgTooDeep`]. The last this-many blocks are checkpointed one by one.
    pub max_reorg_depth: u64,
    /// The widest `eth_getLogs` range in blocks (at most 10,000). Ranges shrink on "too many
    /// results" errors and grow back; backfill checkpoints are aligned to multiples of it.
    pub max_range: u64,
    /// How often the follower asks for the head.
    pub poll_interval: Duration,
    /// The node's WebSocket endpoint (ws or wss), where the follower subscribes to new heads
    /// (`eth_subscribe("newHeads")`) and indexes each block as it arrives; polling goes on
    /// beside it and alone while the subscription is down. `None`: polling only. Default: the
    /// `rpc_url` with `ws` for `http` and `wss` for `https`.
    pub ws_url: Option<String>,
    /// While the subscription is live, the poll is only a safety net (a subscription that went
    /// silent, a reorg the node did not announce) and runs at least this far apart.
    pub subscribed_poll_interval: Duration,
    /// How long [`crate::IndexerHandle::sync_to`] waits at most.
    pub sync_timeout: Duration,
    /// How many requests for block headers are in flight at once.
    pub header_concurrency: usize,
    /// Headers asked for in one JSON-RPC batch (1: no batches, for providers that refuse them).
    pub header_batch_size: usize,
    /// First retry delay of a failed RPC call; it doubles up to `retry_max_delay`.
    pub retry_initial_delay: Duration,
    /// Cap of the retry delay.
    pub retry_max_delay: Duration,
    /// Attempts of one RPC call before the indexer gives up with [`IndexerError::Rpc`].
    pub max_attempts: u32,
}

impl IndexerConfig {
    /// A configuration with the defaults of the local stack (no confirmations, reorgs up to 64
    /// blocks, 10,000-block ranges, new heads over the RPC URL's WebSocket, a 250 ms poll, every
    /// 2 s while the subscription is live).
    pub fn new(rpc_url: impl Into<String>, chain_id: u64, contract_address: Address, deployment_block: u64) -> Self {
        let rpc_url = rpc_url.into();
        Self {
            ws_url: crate::heads::ws_url_for(&rpc_url),
            rpc_url,
            chain_id,
            contract_address,
            deployment_block,
            confirmations: 0,
            max_reorg_depth: 64,
            max_range: MAX_RANGE_LIMIT,
            poll_interval: Duration::from_millis(250),
            subscribed_poll_interval: Duration::from_secs(2),
            sync_timeout: Duration::from_secs(30),
            header_concurrency: 4,
            header_batch_size: 25,
            retry_initial_delay: Duration::from_millis(100),
            retry_max_delay: Duration::from_secs(10),
            max_attempts: 12,
        }
    }

    /// Checks the values that cannot work.
    pub fn validate(&self) -> Result<(), IndexerError> {
        if self.max_range == 0 || self.max_range > MAX_RANGE_LIMIT {
            return Err(IndexerError::Config(format!("max_range must be between 1 and {MAX_RANGE_LIMIT}, not {}", self.max_range)));
        }
        if self.header_concurrency == 0 || self.header_batch_size == 0 {
            return Err(IndexerError::Config("header_concurrency and header_batch_size must be at least 1".into()));
        }
        if self.max_attempts == 0 {
            return Err(IndexerError::Config("max_attempts must be at least 1".into()));
        }
        if self.poll_interval.is_zero() {
            return Err(IndexerError::Config("poll_interval must be positive".into()));
        }
        if let Some(url) = &self.ws_url
            && !["ws://", "wss://"].iter().any(|scheme| url.get(..scheme.len()).is_some_and(|s| s.eq_ignore_ascii_case(scheme)))
        {
            // Not the URL itself: it may hold an API key.
            return Err(IndexerError::Config("ws_url must start with ws:// or wss://".into()));
        }
        Ok(())
    }
}
