//! The indexer's own record in the `chain-{id}` stream: turning fetched blocks into one atomic
//! append (events + `BlockIndexed` checkpoints), and reading the live checkpoints back.

use alloy::{primitives::B256, rpc::types::Log};
use domain::{
    ChainCoordinates, EventStore, ExpectedVersion, Metadata, NewEvent, RecordedEvent, StreamAppend,
    chain::{ChainEvent, chain_event_id},
};
use uuid::Uuid;

use crate::{
    IndexerError,
    decode::{decode_log, hash},
    rpc::BlockHeader,
};

/// The actor every chain-derived event names.
pub(crate) const ACTOR: &str = "indexer";

/// The `n` of [`chain_event_id`] that marks the indexer's own records; a log only ever yields
/// `n = 0`, so these ids cannot collide with an event's.
const RECORD_N: u32 = u32::MAX;

/// A block ready to be written: its header and the events its logs yield, in log order.
#[derive(Clone, Debug)]
pub(crate) struct PreparedBlock {
    pub header: BlockHeader,
    /// (stream, event) in log order.
    pub events: Vec<(String, NewEvent)>,
    /// How many contract logs the block had.
    pub logs: usize,
}

/// Decodes a block's logs (sorted by log index) into its events with deterministic ids.
pub(crate) fn prepare_block(chain_id: u64, header: BlockHeader, logs: &[Log]) -> Result<PreparedBlock, IndexerError> {
    let block_hash = hash(header.hash);
    let time = i64::try_from(header.time).unwrap_or(i64::MAX);
    let mut events = Vec::with_capacity(logs.len());
    for log in logs {
        let Some(event) = decode_log(log, time)? else { continue };
        let tx_hash = log.transaction_hash.map(hash).unwrap_or_default();
        let log_index = log.log_index.unwrap_or_default();
        let id = chain_event_id(chain_id, &block_hash, &tx_hash, log_index, 0);
        let metadata = Metadata {
            actor: Some(ACTOR.into()),
            chain: Some(ChainCoordinates { chain_id, block_number: header.number, block_hash: block_hash.clone(), tx_hash, log_index }),
            ..Metadata::default()
        };
        events.push((event.stream_id(chain_id), event.to_new_event(id, metadata)?));
    }
    Ok(PreparedBlock { header, events, logs: logs.len() })
}

/// The id of a block's checkpoint: deterministic, so re-deriving the same block is idempotent.
pub(crate) fn checkpoint_id(chain_id: u64, header: &BlockHeader) -> Uuid {
    chain_event_id(chain_id, &hash(header.hash), "block-indexed", header.number, RECORD_N)
}

/// The id of a retraction: deterministic in the retracted tip and range.
pub(crate) fn retraction_id(chain_id: u64, tip_hash: B256, from_block: u64, to_block: u64) -> Uuid {
    chain_event_id(chain_id, &hash(tip_hash), &format!("blocks-retracted-{from_block}"), to_block, RECORD_N)
}

/// Metadata of the indexer's own records.
pub(crate) fn record_metadata() -> Metadata {
    Metadata { actor: Some(ACTOR.into()), ..Metadata::default() }
}

/// One atomic append for consecutive blocks: each stream's events in chain order (`Any`), then
/// every block's `BlockIndexed` in `chain_stream` at exactly `chain_version`. Streams come in the
/// order they first appear; the checkpoints come last, so a reader that has seen a block's
/// checkpoint has seen its events.
pub(crate) fn block_append(
    chain_id: u64,
    chain_stream: &str,
    chain_version: u64,
    blocks: Vec<PreparedBlock>,
) -> Result<Vec<StreamAppend>, IndexerError> {
    let mut writes: Vec<StreamAppend> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut checkpoints = Vec::with_capacity(blocks.len());
    for block in blocks {
        let mut event_ids = Vec::with_capacity(block.events.len());
        let mut streams: Vec<String> = Vec::new();
        for (stream, event) in block.events {
            event_ids.push(event.event_id);
            if !streams.contains(&stream) {
                streams.push(stream.clone());
            }
            match index.get(&stream) {
                Some(&at) => writes[at].events.push(event),
                None => {
                    index.insert(stream.clone(), writes.len());
                    writes.push(StreamAppend { stream_id: stream, expected: ExpectedVersion::Any, events: vec![event] });
                }
            }
        }
        let header = &block.header;
        let checkpoint = ChainEvent::BlockIndexed {
            number: header.number,
            hash: hash(header.hash),
            parent_hash: hash(header.parent_hash),
            time: i64::try_from(header.time).unwrap_or(i64::MAX),
            event_ids,
            streams,
        };
        checkpoints.push(checkpoint.to_new_event(checkpoint_id(chain_id, header), record_metadata())?);
    }
    writes.push(StreamAppend { stream_id: chain_stream.to_owned(), expected: ExpectedVersion::Exact(chain_version), events: checkpoints });
    Ok(writes)
}

/// A live `BlockIndexed` read back from the chain stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Checkpoint {
    pub number: u64,
    pub hash: String,
    pub event_ids: Vec<Uuid>,
    pub streams: Vec<String>,
}

/// Walks the chain stream backwards and yields the *live* checkpoints, newest first.
///
/// A `BlocksRetracted { from_block, .. }` kills every earlier checkpoint at or above `from_block`
/// (a retraction always removes a suffix of the chain), so walking backwards it is enough to keep
/// the lowest `from_block` seen.
pub(crate) struct LiveCheckpoints<'a> {
    store: &'a dyn EventStore,
    stream: &'a str,
    /// The highest version not read yet (0: the start was reached).
    unread: u64,
    /// Read but not yet yielded, in ascending order.
    page: Vec<RecordedEvent>,
    dead_from: Option<u64>,
}

impl<'a> LiveCheckpoints<'a> {
    const PAGE: u64 = 64;

    /// Starts below (and including) `version`.
    pub fn new(store: &'a dyn EventStore, stream: &'a str, version: u64) -> Self {
        Self { store, stream, unread: version, page: Vec::new(), dead_from: None }
    }

    pub async fn next(&mut self) -> Result<Option<Checkpoint>, IndexerError> {
        loop {
            let event = match self.page.pop() {
                Some(event) => event,
                None if self.unread == 0 => return Ok(None),
                None => {
                    let start = self.unread.saturating_sub(Self::PAGE - 1).max(1);
                    self.page = self.store.read_stream(self.stream, start, (self.unread - start + 1) as usize).await?;
                    if self.page.is_empty() {
                        return Err(self.corrupt(self.unread, "the stream is shorter than its version".into()));
                    }
                    self.unread = start - 1;
                    continue;
                }
            };
            let version = event.stream_version;
            match event.payload::<ChainEvent>().map_err(|e| self.corrupt(version, e.to_string()))? {
                ChainEvent::BlocksRetracted { from_block, .. } => {
                    self.dead_from = Some(self.dead_from.map_or(from_block, |d| d.min(from_block)));
                }
                ChainEvent::BlockIndexed { number, hash, event_ids, streams, .. } => {
                    if self.dead_from.is_none_or(|dead| number < dead) {
                        return Ok(Some(Checkpoint { number, hash, event_ids, streams }));
                    }
                }
                other => return Err(self.corrupt(version, format!("{} does not belong here", other.event_type()))),
            }
        }
    }

    fn corrupt(&self, version: u64, reason: String) -> IndexerError {
        IndexerError::CorruptCheckpoint { stream: self.stream.to_owned(), version, reason }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use domain::store::sqlite::SqliteEventStore;

    use super::*;

    fn header(number: u64, fork: u8) -> BlockHeader {
        BlockHeader {
            number,
            hash: B256::repeat_byte(number as u8 * 16 + fork),
            parent_hash: B256::repeat_byte((number as u8 - 1) * 16 + fork),
            time: 1_000 + number,
        }
    }

    fn block(number: u64, fork: u8) -> PreparedBlock {
        PreparedBlock { header: header(number, fork), events: Vec::new(), logs: 0 }
    }

    async fn numbers(store: &dyn EventStore, version: u64) -> Vec<(u64, String)> {
        let mut cursor = LiveCheckpoints::new(store, "chain-1", version);
        let mut seen = Vec::new();
        while let Some(checkpoint) = cursor.next().await.unwrap() {
            seen.push((checkpoint.number, checkpoint.hash));
        }
        seen
    }

    #[tokio::test]
    async fn retracted_checkpoints_are_not_live_and_their_replacements_are() {
        let dir = tempfile::tempdir().unwrap();
        let store: Arc<dyn EventStore> = Arc::new(SqliteEventStore::open(&dir.path().join("log.db")).await.unwrap());
        let blocks = (1..=3).map(|n| block(n, 0)).collect();
        store.append_streams(block_append(1, "chain-1", 0, blocks).unwrap()).await.unwrap();
        let retraction = ChainEvent::BlocksRetracted { from_block: 2, to_block: 3, event_ids: vec![], streams: vec![] };
        let retraction = retraction.to_new_event(retraction_id(1, header(3, 0).hash, 2, 3), record_metadata()).unwrap();
        store.append("chain-1", ExpectedVersion::Exact(3), vec![retraction]).await.unwrap();
        let replacements = (2..=4).map(|n| block(n, 1)).collect();
        store.append_streams(block_append(1, "chain-1", 4, replacements).unwrap()).await.unwrap();

        let live = numbers(&*store, 7).await;
        let expected: Vec<(u64, String)> =
            [header(4, 1), header(3, 1), header(2, 1), header(1, 0)].iter().map(|h| (h.number, hash(h.hash))).collect();
        assert_eq!(live, expected);
        // Right after the retraction, only block 1 is live.
        assert_eq!(numbers(&*store, 4).await, vec![(1, hash(header(1, 0).hash))]);
    }

    #[tokio::test]
    async fn a_checkpoint_append_at_a_stale_version_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let store = SqliteEventStore::open(&dir.path().join("log.db")).await.unwrap();
        store.append_streams(block_append(1, "chain-1", 0, vec![block(1, 0)]).unwrap()).await.unwrap();
        let second = store.append_streams(block_append(1, "chain-1", 0, vec![block(2, 0)]).unwrap()).await;
        assert!(matches!(second, Err(domain::StoreError::WrongExpectedVersion { .. })));
        // The same block again is idempotent: same ids, same content.
        assert!(store.append_streams(block_append(1, "chain-1", 0, vec![block(1, 0)]).unwrap()).await.is_ok());
    }
}
