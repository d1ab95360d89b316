//! The event log: one global, hash-chained order of every event, split into streams.
//!
//! A *stream* holds the events of one aggregate (`user-<uuid>`, `nft-<chain>-<token>`, ...) and
//! numbers them 1, 2, 3, ... A *position* numbers every event of every stream: contiguous from 1,
//! assigned in commit order, so a reader that has seen position `p` never later finds an event
//! at or below `p`. Each event carries the SHA-256 of its content chained to the previous event's
//! hash, so an edited, deleted or reordered row breaks the chain ([`verify`]).

mod error;
mod event;
pub mod hash;
pub mod postgres;
pub mod sqlite;
mod subscription;
pub mod upcast;
pub mod verify;

#[cfg(feature = "kurrentdb")]
pub mod kurrent;

use async_trait::async_trait;
use tokio::sync::watch;

pub use error::StoreError;
pub use event::{AppendOutcome, ChainCoordinates, ExpectedVersion, Metadata, NewEvent, Position, RecordedEvent, StreamAppend};
pub use subscription::subscribe;

/// The port every backend implements; the conformance suite in `tests/event_store` runs the same
/// assertions against each of them.
#[async_trait]
pub trait EventStore: Send + Sync + 'static {
    /// Appends to one or more streams atomically: either every event of every stream is written,
    /// with consecutive positions, or nothing is.
    ///
    /// Each stream's [`ExpectedVersion`] is checked first; a mismatch is
    /// [`StoreError::WrongExpectedVersion`]. Retrying an append whose event ids are already stored
    /// returns the first append's outcome; reusing an id for different content is
    /// [`StoreError::DuplicateEventId`].
    async fn append_streams(&self, writes: Vec<StreamAppend>) -> Result<AppendOutcome, StoreError>;

    /// Events of one stream with `stream_version >= from_version`, at most `limit`, in order.
    async fn read_stream(&self, stream_id: &str, from_version: u64, limit: usize) -> Result<Vec<RecordedEvent>, StoreError>;

    /// Events with `position > after`, at most `limit`, in position order.
    async fn read_all(&self, after: Position, limit: usize) -> Result<Vec<RecordedEvent>, StoreError>;

    /// The position and hash of the last event, as recorded in the log's head row
    /// (`0` and the zero hash when the log is empty).
    async fn head(&self) -> Result<(Position, [u8; 32]), StoreError>;

    /// A signal carrying the last position this process knows to be committed. It only wakes
    /// readers up; they always read the log itself, so a missed signal delays but never loses.
    fn appended(&self) -> watch::Receiver<Position>;

    /// The stream's current version (0 when it does not exist).
    async fn stream_version(&self, stream_id: &str) -> Result<u64, StoreError> {
        // Correct for any backend; the SQL ones answer from their index instead.
        let mut version = 0;
        loop {
            let page = self.read_stream(stream_id, version + 1, 1_000).await?;
            match page.last() {
                Some(last) => version = last.stream_version,
                None => return Ok(version),
            }
        }
    }

    /// Appends to a single stream; see [`EventStore::append_streams`].
    async fn append(&self, stream_id: &str, expected: ExpectedVersion, events: Vec<NewEvent>) -> Result<AppendOutcome, StoreError> {
        self.append_streams(vec![StreamAppend { stream_id: stream_id.to_owned(), expected, events }]).await
    }
}

/// Checks a batch before any backend touches it: no empty batch, no stream named twice, no event
/// id used twice.
pub(crate) fn validate_batch(writes: &[StreamAppend]) -> Result<(), StoreError> {
    if writes.iter().all(|w| w.events.is_empty()) {
        return Err(StoreError::InvalidAppend("an append needs at least one event".into()));
    }
    let mut streams = std::collections::HashSet::new();
    let mut ids = std::collections::HashSet::new();
    for write in writes {
        if write.stream_id.is_empty() {
            return Err(StoreError::InvalidAppend("a stream id cannot be empty".into()));
        }
        if !streams.insert(write.stream_id.as_str()) {
            return Err(StoreError::InvalidAppend(format!("stream {} appears twice in one append", write.stream_id)));
        }
        for event in &write.events {
            if !ids.insert(event.event_id) {
                return Err(StoreError::InvalidAppend(format!("event id {} appears twice in one append", event.event_id)));
            }
        }
    }
    Ok(())
}

/// Rows as a backend is about to insert them: positions, versions and hashes assigned.
pub(crate) struct PreparedRow<'a> {
    pub position: Position,
    pub stream_id: &'a str,
    pub stream_version: u64,
    pub event: &'a NewEvent,
    pub metadata: String,
    pub recorded_at: chrono::DateTime<chrono::Utc>,
    pub hash: [u8; 32],
}

/// Assigns positions after `head`, versions after each stream's current version, and chains
/// the hashes; shared by every SQL backend so the chain is computed in exactly one place.
pub(crate) fn prepare_rows<'a>(
    writes: &'a [StreamAppend],
    current_versions: &[u64],
    head: (Position, [u8; 32]),
    recorded_at: chrono::DateTime<chrono::Utc>,
) -> Result<(Vec<PreparedRow<'a>>, AppendOutcome), StoreError> {
    let (mut position, mut prev_hash) = head;
    let mut rows = Vec::with_capacity(writes.iter().map(|w| w.events.len()).sum());
    let mut streams = Vec::with_capacity(writes.len());
    for (write, &current) in writes.iter().zip(current_versions) {
        let mut version = current;
        for event in &write.events {
            position += 1;
            version += 1;
            let metadata = serde_json::to_string(&event.metadata)?;
            let hash = hash::event_hash(
                &prev_hash,
                &hash::HashedFields {
                    position,
                    stream_id: &write.stream_id,
                    stream_version: version,
                    event_id: event.event_id,
                    event_type: &event.event_type,
                    schema_version: event.schema_version,
                    payload: &event.payload,
                    metadata: &metadata,
                    recorded_at_micros: recorded_at.timestamp_micros(),
                },
            );
            prev_hash = hash;
            rows.push(PreparedRow { position, stream_id: &write.stream_id, stream_version: version, event, metadata, recorded_at, hash });
        }
        streams.push((write.stream_id.clone(), version));
    }
    let outcome = AppendOutcome { first_position: head.0 + 1, last_position: position, streams };
    Ok((rows, outcome))
}

/// The outcome of an append whose events were all found already stored with the same content:
/// what the first append returned. Anything else is a [`StoreError::DuplicateEventId`].
pub(crate) fn replayed_outcome(writes: &[StreamAppend], stored: &[RecordedEvent]) -> Result<AppendOutcome, StoreError> {
    let by_id: std::collections::HashMap<_, _> = stored.iter().map(|e| (e.event_id, e)).collect();
    let mut first = Position::MAX;
    let mut last = 0;
    let mut streams = Vec::with_capacity(writes.len());
    for write in writes {
        let mut version = 0;
        for event in &write.events {
            let Some(found) = by_id.get(&event.event_id) else {
                // Part of the batch is new: a different append reusing some ids.
                let reused = writes
                    .iter()
                    .flat_map(|w| &w.events)
                    .find(|e| by_id.contains_key(&e.event_id))
                    .map(|e| e.event_id)
                    .unwrap_or(event.event_id);
                return Err(StoreError::DuplicateEventId { event_id: reused });
            };
            let same = found.stream_id == write.stream_id
                && found.event_type == event.event_type
                && found.schema_version == event.schema_version
                && found.payload == event.payload
                && found.metadata == serde_json::to_string(&event.metadata)?;
            if !same {
                return Err(StoreError::DuplicateEventId { event_id: event.event_id });
            }
            first = first.min(found.position);
            last = last.max(found.position);
            version = version.max(found.stream_version);
        }
        streams.push((write.stream_id.clone(), version));
    }
    Ok(AppendOutcome { first_position: first, last_position: last, streams })
}

/// Stream versions a process wrote lately: the first guess for `Any` appends, so those take the
/// one-round-trip path too. A wrong guess is caught by the database and corrected.
#[derive(Default)]
pub(crate) struct KnownVersions(std::sync::Mutex<std::collections::HashMap<String, u64>>);

impl KnownVersions {
    /// Bound on the cache; past it the cache starts over.
    const CAPACITY: usize = 100_000;

    /// The version each stream is assumed to be at: the expectation if it names one, else the
    /// last version seen, else new.
    pub fn assume(&self, writes: &[StreamAppend]) -> Vec<u64> {
        let known = self.0.lock().expect("not poisoned");
        writes.iter().map(|w| w.expected.required().unwrap_or_else(|| known.get(&w.stream_id).copied().unwrap_or(0))).collect()
    }

    /// Remembers the versions an append left its streams at.
    pub fn record(&self, outcome: &AppendOutcome) {
        let mut known = self.0.lock().expect("not poisoned");
        if known.len() > Self::CAPACITY {
            known.clear();
        }
        for (stream, version) in &outcome.streams {
            known.insert(stream.clone(), *version);
        }
    }
}

/// Moves a wake-up signal forward to `position` (never back), waking subscribers only when
/// it moved.
pub(crate) fn signal_appended(appended: &watch::Sender<Position>, position: Position) {
    appended.send_if_modified(|seen| {
        let newer = position > *seen;
        *seen = (*seen).max(position);
        newer
    });
}

/// Microsecond precision, the finest both SQL backends store: the hash is computed over exactly
/// what is stored.
pub(crate) fn now_micros() -> chrono::DateTime<chrono::Utc> {
    let now = chrono::Utc::now();
    chrono::DateTime::from_timestamp_micros(now.timestamp_micros()).unwrap_or(now)
}

/// Opens the store a URL names: `sqlite://path/to/file.db` (or a plain path) or
/// `postgres://...`. With the `kurrentdb` feature, `esdb://`, `kurrent://` and `kurrentdb://`
/// URLs (and their `+discover` forms) too.
pub async fn open(url: &str) -> Result<std::sync::Arc<dyn EventStore>, StoreError> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return Ok(std::sync::Arc::new(postgres::PostgresEventStore::connect(url).await?));
    }
    #[cfg(feature = "kurrentdb")]
    if ["esdb://", "esdb+discover://", "kurrent://", "kurrent+discover://", "kurrentdb://", "kurrentdb+discover://"]
        .iter()
        .any(|scheme| url.starts_with(scheme))
    {
        return Ok(std::sync::Arc::new(kurrent::KurrentEventStore::connect(url).await?));
    }
    let path = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")).unwrap_or(url);
    if let Some(dir) = std::path::Path::new(path).parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| StoreError::Backend(format!("cannot create {}: {e}", dir.display())))?;
    }
    Ok(std::sync::Arc::new(sqlite::SqliteEventStore::open(std::path::Path::new(path)).await?))
}
