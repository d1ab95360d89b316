//! KurrentDB (formerly EventStoreDB): the log kept in one KurrentDB stream.
//!
//! # Design, and why
//!
//! **One KurrentDB stream is the log** (`marketplace-log` unless told otherwise). Its stream
//! revision `r` is our position `r + 1`. KurrentDB numbers a stream's events 0, 1, 2, ... without
//! gaps, appends to one stream atomically and in one order, and a reader of the stream only ever
//! sees committed events: that is exactly the contiguous global order the port promises. `$all`
//! cannot give it (its positions are byte offsets with gaps, shared with every other stream and
//! system event), and neither can one KurrentDB stream per domain stream: a multi-stream batch
//! must be one atomic append.
//!
//! **Every append is optimistic on the log's revision.** Each batch goes to the log with
//! `StreamState::StreamRevision(head - 1)` (`NoStream` while the log is empty). The expected
//! versions and event ids are checked against an index of the log up to `head`; if the append
//! succeeds, the log was at `head` when it was written, so the checks were made against the true
//! state. If another writer moved the log, KurrentDB refuses the append, nothing is written, and
//! the store reads the new events, checks again and retries. Positions, stream versions and the
//! SHA-256 chain are prepared by `prepare_rows`, the code the SQL backends share, so
//! `verify` works unchanged.
//!
//! **The index is in memory**, one per store: event id -> position, stream -> the positions of
//! its versions, and the head (last position and hash). It is built by reading the whole log when
//! the store connects and kept current by reading the log from where it stopped before every
//! answer that depends on it ([`EventStore::read_stream`], [`EventStore::stream_version`],
//! refusing or replaying an append) and after every lost race. It is only a cache of the log,
//! never a second source of truth: several processes can share one log, each with its own index.
//! Alternatives considered:
//! - link events (`$>` to `{revision}@log`) in one KurrentDB stream per domain stream: written
//!   after the log append, so not atomic with it (a crash in between leaves them behind, and
//!   every check would still have to read the log past them), and they give no lookup by event
//!   id, which idempotency needs anyway;
//! - a server-side filtered scan per lookup: filters match stream names and event types, not the
//!   metadata a domain stream lives in, and every check would scan the log.
//!
//! **Idempotency is ours, by event id**, exactly as in the SQL backends: an append whose ids are
//! all stored with the same content returns the first outcome; any other reuse is
//! [`StoreError::DuplicateEventId`]. For that reason the KurrentDB event id is *not* our event id
//! but a UUID (version 8) made of the event's chained hash. KurrentDB acknowledges an append with
//! an expected revision as "already written" when the events after that revision carry the same
//! ids, without comparing content; with our ids, a retry racing the first attempt could be told
//! it wrote events it did not (another recording time, so another hash), and the process would
//! then chain on a hash that is not in the log. With hash-derived ids, KurrentDB's own dedup only
//! ever matches byte-identical events (a resent request), where "already written" is the truth.
//! Our event id is kept in the event's metadata.
//!
//! **What a KurrentDB event holds.** Type: our event type. Data: the payload bytes exactly as
//! given, with content type JSON (binary if the text would not survive as raw JSON). Metadata: a
//! JSON `Envelope` with the stream id and version, our event id, the schema version, our
//! metadata JSON as text (the hash covers its bytes), the recording time in microseconds and the
//! hash; plus `$correlationId` / `$causationId` so KurrentDB's system projections can use them.
//!
//! **Wake-ups** come from a catch-up subscription to the log (so appends of other processes wake
//! this one's readers too), and from this store's own appends at once.
//!
//! # Limits
//! - Memory: the index holds every event id and position, some 50 to 100 bytes per event plus the
//!   stream names; connecting reads the whole log once. Fine for millions of events; for far
//!   more, the index would have to be persisted (snapshotted) and loaded from its snapshot.
//! - One write at a time on the whole log, as in the SQL backends, but with a network round trip
//!   to the server per append and more retries under contention across processes (each process
//!   queues its own appends; races between processes are retried, with jitter after a few
//!   losses, up to `MAX_ATTEMPTS`).
//! - One append must fit in one KurrentDB append (the server's `MaxAppendSize`, 1 MiB by
//!   default): a larger batch fails with [`StoreError::Backend`] and writes nothing.
//! - [`EventStore::read_stream`] reads the stream's events from the log by position, a read per
//!   run of nearby positions: slower than the SQL backends for streams spread thinly over the log.
//! - The log stream must keep every event: no `$maxAge`, `$maxCount` or `$tb`, no deletion, and
//!   no other writer. `verify` reports what such edits broke.

use std::{
    collections::{HashMap, HashSet},
    sync::RwLock,
    time::Duration,
};

use async_trait::async_trait;
use futures::{StreamExt, TryStreamExt, stream};
use kurrentdb::{
    AppendToStreamOptions, Client, ClientSettings, EventData, ReadStreamOptions, StreamPosition, StreamState, SubscribeToStreamOptions,
};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use tokio::{
    sync::{Mutex, watch},
    task::JoinHandle,
};
use uuid::Uuid;

use super::{
    AppendOutcome, EventStore, Position, PreparedRow, RecordedEvent, StoreError, StreamAppend, hash, now_micros, prepare_rows,
    replayed_outcome, signal_appended, validate_batch,
};

/// The log stream's name when neither the URL nor the caller names one.
pub const DEFAULT_LOG_STREAM: &str = "marketplace-log";
/// The URL query parameter that names the log stream (`esdb://host:2113?tls=false&logStream=x`).
pub const LOG_STREAM_PARAM: &str = "logStream";
/// Events per read while catching up the index.
const PAGE: usize = 4_096;
/// A writer that keeps losing the race for the log gives up after this many attempts.
const MAX_ATTEMPTS: u32 = 1_000;
/// Positions at most this far apart are read in one request (reading a few events too many is
/// cheaper than another round trip).
const READ_GAP: u64 = 32;
/// Requests in flight at once for one scattered read.
const PARALLEL_READS: usize = 8;

/// The KurrentDB event store.
pub struct KurrentEventStore {
    log: Log,
    index: RwLock<Index>,
    /// Queues this process's appends: they never race each other, only other processes.
    writer: Mutex<()>,
    appended: watch::Sender<Position>,
    follower: JoinHandle<()>,
}

impl KurrentEventStore {
    /// Connects to the server a KurrentDB connection string names
    /// (`esdb://localhost:2113?tls=false`, `kurrentdb://...`, `esdb+discover://...`). The log
    /// stream is [`DEFAULT_LOG_STREAM`] unless the URL's [`LOG_STREAM_PARAM`] names another.
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        let (url, log) = split_log_param(url);
        Self::connect_with_log(&url, log.as_deref().unwrap_or(DEFAULT_LOG_STREAM)).await
    }

    /// Connects, keeping the log in the stream `log_stream` (a fresh name gives an empty store).
    pub async fn connect_with_log(url: &str, log_stream: &str) -> Result<Self, StoreError> {
        let settings: ClientSettings = url.parse().map_err(|e| StoreError::Backend(format!("invalid KurrentDB connection string: {e}")))?;
        let client = Client::new(settings).map_err(|e| StoreError::Backend(format!("KurrentDB client: {e}")))?;
        Self::with_client(client, log_stream).await
    }

    /// Uses an existing client; reads the whole log once to build the index.
    pub async fn with_client(client: Client, log_stream: &str) -> Result<Self, StoreError> {
        if log_stream.is_empty() || log_stream.starts_with('$') {
            return Err(StoreError::Backend(format!("{log_stream:?} cannot be the log stream: not a user stream")));
        }
        let log = Log { client, name: log_stream.to_owned() };
        let index = RwLock::new(Index::default());
        catch_up(&log, &index).await?;
        let head = index.read().expect("not poisoned").head.0;
        let appended = watch::channel(head).0;
        let follower = tokio::spawn(follow_log(log.clone(), appended.clone()));
        Ok(Self { log, index, writer: Mutex::new(()), appended, follower })
    }

    /// The name of the KurrentDB stream that holds the log.
    pub fn log_stream(&self) -> &str {
        &self.log.name
    }

    /// The KurrentDB client, for tools that inspect the log directly.
    pub fn client(&self) -> &Client {
        &self.log.client
    }

    /// Reads the events at `positions` (known to exist), in position order.
    async fn read_positions(&self, positions: &[Position]) -> Result<Vec<RecordedEvent>, StoreError> {
        let wanted: HashSet<Position> = positions.iter().copied().collect();
        let pages: Vec<Vec<RecordedEvent>> = stream::iter(read_ranges(positions, READ_GAP))
            .map(|(first, last)| self.log.read(first - 1, (last - first + 1) as usize))
            .buffered(PARALLEL_READS)
            .try_collect()
            .await?;
        let events: Vec<RecordedEvent> = pages.into_iter().flatten().filter(|e| wanted.contains(&e.position)).collect();
        if events.len() != wanted.len() {
            return Err(StoreError::Backend(format!(
                "the log returned {} of the {} indexed events asked for (was it truncated?)",
                events.len(),
                wanted.len()
            )));
        }
        Ok(events)
    }

    /// Records a successful append: index, wake-up signal.
    fn note_appended(&self, rows: &[PreparedRow<'_>], outcome: &AppendOutcome) -> Result<(), StoreError> {
        {
            let mut index = self.index.write().expect("not poisoned");
            for row in rows {
                index.apply(row.position, row.stream_id, row.stream_version, row.event.event_id, row.hash)?;
            }
        }
        signal_appended(&self.appended, outcome.last_position);
        Ok(())
    }
}

impl Drop for KurrentEventStore {
    fn drop(&mut self) {
        self.follower.abort();
    }
}

#[async_trait]
impl EventStore for KurrentEventStore {
    async fn append_streams(&self, writes: Vec<StreamAppend>) -> Result<AppendOutcome, StoreError> {
        validate_batch(&writes)?;
        let _queued = self.writer.lock().await;
        // Whether the index was brought up to the log during this call: a refusal or a replay
        // is only decided on an index at least that fresh. (Accepting needs no such care: the
        // log's expected revision proves the index was current.)
        let mut fresh = false;
        let mut lost: u32 = 0;
        for _ in 0..MAX_ATTEMPTS {
            let plan = self.index.read().expect("not poisoned").plan(&writes);
            match plan {
                Plan::Append { head, versions } => {
                    let (rows, outcome) = prepare_rows(&writes, &versions, head, now_micros())?;
                    let events = rows.iter().map(encode).collect::<Result<Vec<_>, _>>()?;
                    match self.log.append(head.0, events).await? {
                        Appended::Written { last_position } if last_position == outcome.last_position => {
                            self.note_appended(&rows, &outcome)?;
                            return Ok(outcome);
                        }
                        Appended::Written { last_position } => {
                            return Err(StoreError::Backend(format!(
                                "KurrentDB wrote the batch ending at {} up to position {last_position}",
                                outcome.last_position
                            )));
                        }
                        Appended::LogMoved => {
                            lost += 1;
                            if lost > 2 {
                                tokio::time::sleep(jitter(lost)).await;
                            }
                            catch_up(&self.log, &self.index).await?;
                            fresh = true;
                        }
                    }
                }
                Plan::Refuse(_) | Plan::Replay(_) if !fresh => {
                    catch_up(&self.log, &self.index).await?;
                    fresh = true;
                }
                Plan::Refuse(err) => return Err(err),
                Plan::Replay(positions) => {
                    let stored = self.read_positions(&positions).await?;
                    return replayed_outcome(&writes, &stored);
                }
            }
        }
        Err(StoreError::Contention { attempts: MAX_ATTEMPTS })
    }

    async fn read_stream(&self, stream_id: &str, from_version: u64, limit: usize) -> Result<Vec<RecordedEvent>, StoreError> {
        catch_up(&self.log, &self.index).await?;
        let positions = self.index.read().expect("not poisoned").positions(stream_id, from_version, limit);
        let events = self.read_positions(&positions).await?;
        if let Some(stranger) = events.iter().find(|e| e.stream_id != stream_id) {
            return Err(StoreError::Corrupt {
                position: stranger.position,
                reason: format!("indexed for stream {stream_id} but belongs to {}", stranger.stream_id),
            });
        }
        Ok(events)
    }

    async fn read_all(&self, after: Position, limit: usize) -> Result<Vec<RecordedEvent>, StoreError> {
        self.log.read(after, limit).await
    }

    async fn stream_version(&self, stream_id: &str) -> Result<u64, StoreError> {
        catch_up(&self.log, &self.index).await?;
        Ok(self.index.read().expect("not poisoned").version(stream_id))
    }

    async fn head(&self) -> Result<(Position, [u8; 32]), StoreError> {
        Ok(self.log.last().await?.map_or((0, hash::GENESIS), |e| (e.position, e.hash)))
    }

    fn appended(&self) -> watch::Receiver<Position> {
        self.appended.subscribe()
    }
}

/// The log stream on the server.
#[derive(Clone)]
struct Log {
    client: Client,
    name: String,
}

/// What an append to the log did.
enum Appended {
    /// Written; the log now ends at this position.
    Written { last_position: Position },
    /// Refused: the log is no longer at the expected head; nothing was written.
    LogMoved,
}

impl Log {
    /// Reads up to `limit` events after position `after`, in order (none if the log does not
    /// exist yet).
    async fn read(&self, after: Position, limit: usize) -> Result<Vec<RecordedEvent>, StoreError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let options = ReadStreamOptions::default()
            .forwards()
            .position(StreamPosition::Position(first_revision_after(after)))
            .max_count(limit)
            .requires_leader(true);
        self.collect(&options, limit).await
    }

    /// The last event of the log, if any.
    async fn last(&self) -> Result<Option<RecordedEvent>, StoreError> {
        let options = ReadStreamOptions::default().position(StreamPosition::End).max_count(1).requires_leader(true);
        Ok(self.collect(&options, 1).await?.pop())
    }

    async fn collect(&self, options: &ReadStreamOptions, limit: usize) -> Result<Vec<RecordedEvent>, StoreError> {
        let mut read = match self.client.read_stream(self.name.as_str(), options).await {
            Ok(read) => read,
            Err(kurrentdb::Error::ResourceNotFound) => return Ok(Vec::new()),
            Err(err) => return Err(backend(&err)),
        };
        let mut events = Vec::with_capacity(limit.min(PAGE));
        loop {
            match read.next().await {
                Ok(Some(resolved)) => {
                    let event = resolved.get_original_event();
                    events.push(decode(event.revision, &event.event_type, &event.data, &event.custom_metadata)?);
                }
                Ok(None) | Err(kurrentdb::Error::ResourceNotFound) => return Ok(events),
                Err(err) => return Err(backend(&err)),
            }
        }
    }

    /// Appends `events` if the log still ends at position `head`.
    async fn append(&self, head: Position, events: Vec<EventData>) -> Result<Appended, StoreError> {
        let options = AppendToStreamOptions::default().stream_state(expected_log_state(head));
        match self.client.append_to_stream(self.name.as_str(), &options, events).await {
            Ok(written) => Ok(Appended::Written { last_position: revision_to_position(written.next_expected_version) }),
            Err(kurrentdb::Error::WrongExpectedVersion { .. }) => Ok(Appended::LogMoved),
            Err(err) => Err(backend(&err)),
        }
    }
}

fn backend(err: &kurrentdb::Error) -> StoreError {
    StoreError::Backend(format!("KurrentDB: {err}"))
}

/// Brings the index up to the end of the log; returns the position it reached.
async fn catch_up(log: &Log, index: &RwLock<Index>) -> Result<Position, StoreError> {
    loop {
        let from = index.read().expect("not poisoned").head.0;
        let events = log.read(from, PAGE).await?;
        let mut guard = index.write().expect("not poisoned");
        for e in &events {
            guard.apply(e.position, &e.stream_id, e.stream_version, e.event_id, e.hash)?;
        }
        if events.len() < PAGE {
            return Ok(guard.head.0);
        }
    }
}

/// Wakes this process's readers whenever any process appends to the log.
async fn follow_log(log: Log, appended: watch::Sender<Position>) {
    loop {
        // From the last position seen, so a reconnection misses no wake-up.
        let seen = *appended.borrow();
        let start = if seen == 0 { StreamPosition::Start } else { StreamPosition::Position(seen - 1) };
        let options = SubscribeToStreamOptions::default().start_from(start);
        let mut subscription = log.client.subscribe_to_stream(log.name.as_str(), &options).await;
        loop {
            match subscription.next().await {
                Ok(event) => {
                    let position = revision_to_position(event.get_original_event().revision);
                    signal_appended(&appended, position);
                }
                Err(err) => {
                    tracing::warn!(%err, log = %log.name, "lost the log subscription; resubscribing");
                    break;
                }
            }
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// A random pause that grows with the number of races lost, so contending processes spread out.
fn jitter(lost: u32) -> Duration {
    use std::hash::BuildHasher;
    let random = std::collections::hash_map::RandomState::new().hash_one(lost);
    Duration::from_micros(random % (u64::from(lost.clamp(1, 50)) * 200))
}

/// Our position of the event at a log stream revision.
fn revision_to_position(revision: u64) -> Position {
    revision + 1
}

/// The first log stream revision holding a position above `after`.
fn first_revision_after(after: Position) -> u64 {
    after
}

/// What the log stream must be at for a batch prepared on `head` (the log's last position).
fn expected_log_state(head: Position) -> StreamState {
    if head == 0 { StreamState::NoStream } else { StreamState::StreamRevision(head - 1) }
}

/// Splits the store's own [`LOG_STREAM_PARAM`] off a connection string: the client warns about
/// parameters it does not know. The value is taken as written (no percent-decoding).
fn split_log_param(url: &str) -> (String, Option<String>) {
    let Some((base, query)) = url.split_once('?') else { return (url.to_owned(), None) };
    let mut log = None;
    let mut kept = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        match pair.split_once('=') {
            Some((key, value)) if key.eq_ignore_ascii_case(LOG_STREAM_PARAM) => log = Some(value.to_owned()),
            _ => kept.push(pair),
        }
    }
    let url = if kept.is_empty() { base.to_owned() } else { format!("{base}?{}", kept.join("&")) };
    (url, log)
}

/// Sorted, deduplicated positions grouped into inclusive ranges whose neighbours are at most
/// `gap` apart: one read each.
fn read_ranges(positions: &[Position], gap: u64) -> Vec<(Position, Position)> {
    let mut sorted = positions.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut ranges: Vec<(Position, Position)> = Vec::new();
    for p in sorted {
        match ranges.last_mut() {
            Some((_, last)) if p - *last <= gap => *last = p,
            _ => ranges.push((p, p)),
        }
    }
    ranges
}

/// The KurrentDB event id of a prepared event: its chained hash as a version-8 UUID.
fn kurrent_event_id(hash: &[u8; 32]) -> Uuid {
    let mut bytes = [0; 16];
    bytes.copy_from_slice(&hash[..16]);
    uuid::Builder::from_custom_bytes(bytes).into_uuid()
}

/// The KurrentDB event metadata: everything of ours that is not the type or the payload.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Envelope {
    stream_id: String,
    stream_version: u64,
    event_id: Uuid,
    schema_version: u32,
    /// Our metadata JSON as text: the hash covers these exact bytes.
    metadata: String,
    recorded_at_micros: i64,
    /// The chained SHA-256, hex.
    hash: String,
    /// For KurrentDB's `$by_correlation_id` projection; not read back.
    #[serde(rename = "$correlationId", default, skip_serializing_if = "Option::is_none")]
    correlation_id: Option<Uuid>,
    /// KurrentDB's conventional causation field; not read back.
    #[serde(rename = "$causationId", default, skip_serializing_if = "Option::is_none")]
    causation_id: Option<Uuid>,
}

impl Envelope {
    fn of(row: &PreparedRow<'_>) -> Self {
        Self {
            stream_id: row.stream_id.to_owned(),
            stream_version: row.stream_version,
            event_id: row.event.event_id,
            schema_version: row.event.schema_version,
            metadata: row.metadata.clone(),
            recorded_at_micros: row.recorded_at.timestamp_micros(),
            hash: hex::encode(row.hash),
            correlation_id: row.event.metadata.correlation_id,
            causation_id: row.event.metadata.causation_id,
        }
    }
}

/// The payload as a raw JSON value if serializing that value gives back exactly the payload's
/// bytes (serde_json trims surrounding whitespace), so it can be stored with the JSON content type.
fn raw_json(payload: &str) -> Option<Box<RawValue>> {
    RawValue::from_string(payload.to_owned()).ok().filter(|raw| raw.get() == payload)
}

/// A prepared row as a KurrentDB event.
fn encode(row: &PreparedRow<'_>) -> Result<EventData, StoreError> {
    let event_type = row.event.event_type.as_str();
    let data = match raw_json(&row.event.payload) {
        Some(raw) => EventData::json(event_type, &raw)?,
        None => EventData::binary(event_type, row.event.payload.clone().into_bytes().into()),
    };
    Ok(data.id(kurrent_event_id(&row.hash)).metadata_as_json(&Envelope::of(row))?)
}

/// A KurrentDB event of the log back as ours.
fn decode(revision: u64, event_type: &str, data: &[u8], metadata: &[u8]) -> Result<RecordedEvent, StoreError> {
    let position = revision_to_position(revision);
    let corrupt = |reason: String| StoreError::Corrupt { position, reason };
    let envelope: Envelope = serde_json::from_slice(metadata).map_err(|e| corrupt(format!("unreadable event metadata: {e}")))?;
    let payload = String::from_utf8(data.to_vec()).map_err(|e| corrupt(format!("payload is not UTF-8: {e}")))?;
    let hash_bytes = hex::decode(&envelope.hash).map_err(|e| corrupt(format!("unreadable hash: {e}")))?;
    let micros = envelope.recorded_at_micros;
    Ok(RecordedEvent {
        position,
        stream_id: envelope.stream_id,
        stream_version: envelope.stream_version,
        event_id: envelope.event_id,
        event_type: event_type.to_owned(),
        schema_version: envelope.schema_version,
        payload,
        metadata: envelope.metadata,
        recorded_at: chrono::DateTime::from_timestamp_micros(micros).ok_or_else(|| corrupt(format!("bad timestamp {micros}")))?,
        hash: hash::from_slice(position, &hash_bytes)?,
    })
}

/// What the log holds, as far as this process has read it.
#[derive(Default)]
struct Index {
    /// The last indexed position (the log's length) and its hash.
    head: (Position, [u8; 32]),
    /// Event id -> position.
    ids: HashMap<Uuid, Position>,
    /// Stream id -> the positions of its versions 1, 2, 3, ...
    streams: HashMap<String, Vec<Position>>,
}

/// What an append should do, judged on the index.
#[derive(Debug)]
enum Plan {
    /// Write, preparing on this head with these current stream versions.
    Append { head: (Position, [u8; 32]), versions: Vec<u64> },
    /// Some ids are stored, at these positions: a retry, or a reuse.
    Replay(Vec<Position>),
    /// An expectation does not hold.
    Refuse(StoreError),
}

impl Index {
    /// Adds the event at `position`, the log's next; events already indexed are skipped.
    fn apply(
        &mut self,
        position: Position,
        stream_id: &str,
        stream_version: u64,
        event_id: Uuid,
        hash: [u8; 32],
    ) -> Result<(), StoreError> {
        if position <= self.head.0 {
            return Ok(());
        }
        let corrupt = |reason: String| StoreError::Corrupt { position, reason };
        if position != self.head.0 + 1 {
            return Err(corrupt(format!("the index ends at {} but the next event read is {position}", self.head.0)));
        }
        let current = self.version(stream_id);
        if stream_version != current + 1 {
            return Err(corrupt(format!("stream {stream_id} jumps from version {current} to {stream_version}")));
        }
        if let Some(first) = self.ids.get(&event_id) {
            return Err(corrupt(format!("event id {event_id} is already stored at position {first}")));
        }
        self.ids.insert(event_id, position);
        self.streams.entry(stream_id.to_owned()).or_default().push(position);
        self.head = (position, hash);
        Ok(())
    }

    /// A stream's current version (0: no stream).
    fn version(&self, stream_id: &str) -> u64 {
        self.streams.get(stream_id).map_or(0, |v| v.len() as u64)
    }

    /// Positions of a stream's versions `from_version..`, at most `limit`.
    fn positions(&self, stream_id: &str, from_version: u64, limit: usize) -> Vec<Position> {
        let skip = usize::try_from(from_version.saturating_sub(1)).unwrap_or(usize::MAX);
        self.streams.get(stream_id).map(|v| v.iter().skip(skip).take(limit).copied().collect()).unwrap_or_default()
    }

    /// Idempotency first, then the expected versions, as the SQL backends decide.
    fn plan(&self, writes: &[StreamAppend]) -> Plan {
        let stored: Vec<Position> = writes.iter().flat_map(|w| &w.events).filter_map(|e| self.ids.get(&e.event_id).copied()).collect();
        if !stored.is_empty() {
            return Plan::Replay(stored);
        }
        let mut versions = Vec::with_capacity(writes.len());
        for write in writes {
            let actual = self.version(&write.stream_id);
            if write.expected.required().is_some_and(|required| required != actual) {
                return Plan::Refuse(StoreError::WrongExpectedVersion {
                    stream_id: write.stream_id.clone(),
                    expected: write.expected,
                    actual,
                });
            }
            versions.push(actual);
        }
        Plan::Append { head: self.head, versions }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{ChainCoordinates, ExpectedVersion, Metadata, NewEvent};

    fn event(n: u32) -> NewEvent {
        NewEvent::new("AmountRecorded", 1, &serde_json::json!({ "n": n }), Metadata::default()).unwrap()
    }

    fn write(stream: &str, expected: ExpectedVersion, events: Vec<NewEvent>) -> StreamAppend {
        StreamAppend { stream_id: stream.into(), expected, events }
    }

    /// An index holding `writes` appended one after another from an empty log.
    fn indexed(writes: &[StreamAppend]) -> Index {
        let mut index = Index::default();
        for w in writes {
            let Plan::Append { head, versions } = index.plan(std::slice::from_ref(w)) else { panic!("plan") };
            let (rows, _) = prepare_rows(std::slice::from_ref(w), &versions, head, now_micros()).unwrap();
            for r in &rows {
                index.apply(r.position, r.stream_id, r.stream_version, r.event.event_id, r.hash).unwrap();
            }
        }
        index
    }

    #[test]
    fn revision_r_is_position_r_plus_one() {
        assert_eq!(revision_to_position(0), 1);
        assert_eq!(revision_to_position(41), 42);
        // Reading "after position p" starts at revision p: the event at position p + 1.
        for after in [0, 1, 7, 1_000] {
            assert_eq!(revision_to_position(first_revision_after(after)), after + 1);
        }
        assert_eq!(expected_log_state(0), StreamState::NoStream);
        assert_eq!(expected_log_state(1), StreamState::StreamRevision(0));
        assert_eq!(expected_log_state(42), StreamState::StreamRevision(41));
    }

    #[test]
    fn an_event_survives_encoding_and_decoding() {
        let metadata = Metadata {
            actor: Some("user-42".into()),
            correlation_id: Some(Uuid::now_v7()),
            causation_id: Some(Uuid::now_v7()),
            chain: Some(ChainCoordinates {
                chain_id: 80001,
                block_number: 12,
                block_hash: format!("0x{}", "ab".repeat(32)),
                tx_hash: format!("0x{}", "cd".repeat(32)),
                log_index: 3,
            }),
        };
        let payload = r#"{ "z": 1,  "a": "é\u00e9", "n": 1.50 }"#.to_owned();
        let new = NewEvent { payload: payload.clone(), metadata, ..event(0) };
        let writes = vec![write("m", ExpectedVersion::NoStream, vec![event(1), new.clone()])];
        let head = (6, [7; 32]);
        let (rows, _) = prepare_rows(&writes, &[3], head, now_micros()).unwrap();
        let row = &rows[1];
        assert!(encode(row).is_ok());

        let envelope = serde_json::to_vec(&Envelope::of(row)).unwrap();
        let body = serde_json::to_vec(&raw_json(&row.event.payload).expect("valid JSON")).unwrap();
        assert_eq!(body, payload.as_bytes(), "the payload is stored byte for byte");
        let decoded = decode(row.position - 1, &row.event.event_type, &body, &envelope).unwrap();

        assert_eq!(
            decoded,
            RecordedEvent {
                position: 8,
                stream_id: "m".into(),
                stream_version: 5,
                event_id: new.event_id,
                event_type: "AmountRecorded".into(),
                schema_version: 1,
                payload,
                metadata: row.metadata.clone(),
                recorded_at: row.recorded_at,
                hash: row.hash,
            }
        );
        // What verify recomputes from the decoded event is the stored hash.
        let recomputed = hash::event_hash(
            &rows[0].hash,
            &hash::HashedFields {
                position: decoded.position,
                stream_id: &decoded.stream_id,
                stream_version: decoded.stream_version,
                event_id: decoded.event_id,
                event_type: &decoded.event_type,
                schema_version: decoded.schema_version,
                payload: &decoded.payload,
                metadata: &decoded.metadata,
                recorded_at_micros: decoded.recorded_at.timestamp_micros(),
            },
        );
        assert_eq!(recomputed, decoded.hash);
        // KurrentDB's projections see the correlation and causation ids.
        let raw: serde_json::Value = serde_json::from_slice(&envelope).unwrap();
        assert_eq!(raw["$correlationId"], serde_json::json!(new.metadata.correlation_id));
        assert_eq!(raw["$causationId"], serde_json::json!(new.metadata.causation_id));
    }

    #[test]
    fn payloads_that_would_not_survive_as_raw_json_are_stored_as_bytes() {
        assert!(raw_json(r#"{"a": 1}"#).is_some());
        assert!(raw_json(" {\"a\": 1}\n").is_none(), "serde_json would trim the whitespace");
        assert!(raw_json("not json").is_none());
        let odd = NewEvent { payload: " not json ".into(), ..event(0) };
        let writes = vec![write("s", ExpectedVersion::Any, vec![odd])];
        let (rows, _) = prepare_rows(&writes, &[0], (0, hash::GENESIS), now_micros()).unwrap();
        assert!(encode(&rows[0]).is_ok());
    }

    #[test]
    fn unreadable_metadata_is_reported_at_its_position() {
        for metadata in [&b"not json"[..], br#"{"streamId":"s"}"#] {
            match decode(4, "T", b"{}", metadata) {
                Err(StoreError::Corrupt { position: 5, .. }) => {}
                other => panic!("{other:?}"),
            }
        }
        let writes = vec![write("s", ExpectedVersion::Any, vec![event(1)])];
        let (rows, _) = prepare_rows(&writes, &[0], (0, hash::GENESIS), now_micros()).unwrap();
        let mut envelope = Envelope::of(&rows[0]);
        envelope.hash = "abcd".into();
        let bytes = serde_json::to_vec(&envelope).unwrap();
        assert!(matches!(decode(0, "T", b"{}", &bytes), Err(StoreError::Corrupt { position: 1, .. })));
    }

    #[test]
    fn kurrent_ids_follow_the_hash() {
        let a = kurrent_event_id(&[1; 32]);
        assert_eq!(a, kurrent_event_id(&[1; 32]));
        assert_ne!(a, kurrent_event_id(&[2; 32]));
        assert_eq!(a.get_version_num(), 8);
    }

    #[test]
    fn the_index_follows_the_log_and_plans_appends() {
        let first = write("a", ExpectedVersion::NoStream, vec![event(1), event(2)]);
        let second = write("b", ExpectedVersion::Any, vec![event(3)]);
        let index = indexed(&[first.clone(), second]);
        assert_eq!(index.head.0, 3);
        assert_eq!((index.version("a"), index.version("b"), index.version("c")), (2, 1, 0));
        assert_eq!(index.positions("a", 1, 10), vec![1, 2]);
        assert_eq!(index.positions("a", 2, 10), vec![2]);
        assert_eq!(index.positions("a", 0, 1), vec![1]);
        assert!(index.positions("c", 1, 10).is_empty());

        let Plan::Append { head, versions } = index.plan(&[
            write("a", ExpectedVersion::Exact(2), vec![event(4)]),
            write("c", ExpectedVersion::NoStream, vec![event(5)]),
            write("b", ExpectedVersion::Any, vec![event(6)]),
        ]) else {
            panic!("should append")
        };
        assert_eq!((head, versions), (index.head, vec![2, 0, 1]));

        match index.plan(&[write("c", ExpectedVersion::NoStream, vec![event(7)]), write("a", ExpectedVersion::Exact(1), vec![event(8)])]) {
            Plan::Refuse(StoreError::WrongExpectedVersion { stream_id, actual: 2, .. }) => assert_eq!(stream_id, "a"),
            other => panic!("{other:?}"),
        }
        match index.plan(&[write("z", ExpectedVersion::Any, vec![event(9), first.events[1].clone()])]) {
            Plan::Replay(positions) => assert_eq!(positions, vec![2]),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_index_skips_what_it_has_and_refuses_what_cannot_be() {
        let mut index = indexed(&[write("a", ExpectedVersion::Any, vec![event(1), event(2)])]);
        let known = index.ids.iter().find(|(_, p)| **p == 2).map(|(id, _)| *id).unwrap();
        // Already indexed (read twice by racing catch-ups): skipped.
        index.apply(2, "a", 2, known, [0; 32]).unwrap();
        assert_eq!(index.head.0, 2);
        assert!(matches!(index.apply(4, "a", 3, Uuid::now_v7(), [0; 32]), Err(StoreError::Corrupt { position: 4, .. })));
        assert!(matches!(index.apply(3, "a", 4, Uuid::now_v7(), [0; 32]), Err(StoreError::Corrupt { position: 3, .. })));
        assert!(matches!(index.apply(3, "b", 1, known, [0; 32]), Err(StoreError::Corrupt { position: 3, .. })));
        assert_eq!(index.head.0, 2, "a refused event changes nothing");
        index.apply(3, "b", 1, Uuid::now_v7(), [3; 32]).unwrap();
        assert_eq!(index.head, (3, [3; 32]));
    }

    #[test]
    fn nearby_positions_are_read_together() {
        assert_eq!(read_ranges(&[], 32), vec![]);
        assert_eq!(read_ranges(&[5, 1, 2, 3, 3], 0), vec![(1, 1), (2, 2), (3, 3), (5, 5)]);
        assert_eq!(read_ranges(&[5, 1, 2, 3], 1), vec![(1, 3), (5, 5)]);
        assert_eq!(read_ranges(&[1, 4, 7, 10, 100], 32), vec![(1, 10), (100, 100)]);
    }

    #[test]
    fn the_log_stream_can_be_named_in_the_url() {
        assert_eq!(split_log_param("esdb://localhost:2113?tls=false"), ("esdb://localhost:2113?tls=false".into(), None));
        assert_eq!(
            split_log_param("esdb://h:2113?tls=false&logStream=log-1&nodePreference=leader"),
            ("esdb://h:2113?tls=false&nodePreference=leader".into(), Some("log-1".into()))
        );
        assert_eq!(split_log_param("kurrentdb://h?logstream=x"), ("kurrentdb://h".into(), Some("x".into())));
        assert_eq!(split_log_param("esdb://h"), ("esdb://h".into(), None));
    }

    #[test]
    fn jitter_stays_small() {
        for lost in [3, 10, 1_000] {
            assert!(jitter(lost) < Duration::from_millis(10));
        }
    }
}
