//! The event envelope: what a writer hands in ([`NewEvent`]) and what a reader gets back
//! ([`RecordedEvent`]).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use uuid::Uuid;

use super::StoreError;

/// A global position in the log: 1 for the first event, contiguous, in commit order.
pub type Position = u64;

/// What the writer believes the stream's current version to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExpectedVersion {
    /// No check.
    Any,
    /// The stream must not exist yet.
    NoStream,
    /// The stream's last event must have exactly this version (`Exact(0)` means no stream).
    Exact(u64),
}

impl std::fmt::Display for ExpectedVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Any => f.write_str("any"),
            Self::NoStream => f.write_str("no stream"),
            Self::Exact(v) => write!(f, "version {v}"),
        }
    }
}

impl ExpectedVersion {
    /// The version the stream must be at for this expectation to hold, if it names one.
    pub fn required(self) -> Option<u64> {
        match self {
            Self::Any => None,
            Self::NoStream => Some(0),
            Self::Exact(v) => Some(v),
        }
    }
}

/// Where on chain an event came from (only for events the indexer derives from logs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChainCoordinates {
    /// EIP-155 chain id.
    pub chain_id: u64,
    /// Block the log is in.
    pub block_number: u64,
    /// That block's hash (0x-hex).
    pub block_hash: String,
    /// Transaction that emitted the log (0x-hex).
    pub tx_hash: String,
    /// Index of the log within its block.
    pub log_index: u64,
}

/// Who and what caused an event; stored beside the payload and covered by the hash.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metadata {
    /// The user id or component (`indexer`, `system`) that caused the event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actor: Option<String>,
    /// Ties together every event caused by one request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub correlation_id: Option<Uuid>,
    /// The event or command that directly caused this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub causation_id: Option<Uuid>,
    /// Chain coordinates for chain-derived events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain: Option<ChainCoordinates>,
}

/// An event about to be appended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewEvent {
    /// Idempotency key: appending the same id twice stores it once.
    pub event_id: Uuid,
    /// The past-tense name readers dispatch on (`UserRegistered`).
    pub event_type: String,
    /// Version of the payload's shape, for upcasting old events.
    pub schema_version: u32,
    /// The payload as JSON text, stored byte for byte.
    pub payload: String,
    /// Actor, correlation, causation and chain coordinates.
    pub metadata: Metadata,
}

impl NewEvent {
    /// An event with a fresh time-ordered id and the payload serialized as JSON.
    pub fn new(
        event_type: impl Into<String>,
        schema_version: u32,
        payload: &impl Serialize,
        metadata: Metadata,
    ) -> Result<Self, StoreError> {
        Ok(Self {
            event_id: Uuid::now_v7(),
            event_type: event_type.into(),
            schema_version,
            payload: serde_json::to_string(payload)?,
            metadata,
        })
    }

    /// The same event with a given id (deterministic ids for chain events and retried commands).
    pub fn with_id(mut self, event_id: Uuid) -> Self {
        self.event_id = event_id;
        self
    }
}

/// A group of events for one stream inside an atomic append.
#[derive(Clone, Debug)]
pub struct StreamAppend {
    /// The stream the events go to.
    pub stream_id: String,
    /// The version the stream must be at.
    pub expected: ExpectedVersion,
    /// The events, in order.
    pub events: Vec<NewEvent>,
}

/// What an append wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppendOutcome {
    /// Position of the first event written.
    pub first_position: Position,
    /// Position of the last event written: wait for projections to pass it to read your writes.
    pub last_position: Position,
    /// Each stream's version after the append, in the order of the request.
    pub streams: Vec<(String, u64)>,
}

/// An event as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedEvent {
    /// Global position.
    pub position: Position,
    /// The stream it belongs to.
    pub stream_id: String,
    /// Its number within the stream, from 1.
    pub stream_version: u64,
    /// Its id.
    pub event_id: Uuid,
    /// Its type name.
    pub event_type: String,
    /// Its payload's schema version.
    pub schema_version: u32,
    /// The payload, JSON text exactly as appended.
    pub payload: String,
    /// The metadata, JSON text exactly as stored (see [`RecordedEvent::metadata`]).
    pub metadata: String,
    /// When the store recorded it (microsecond precision).
    pub recorded_at: DateTime<Utc>,
    /// SHA-256 of this event chained to the previous one.
    pub hash: [u8; 32],
}

impl RecordedEvent {
    /// The payload deserialized.
    pub fn payload<T: DeserializeOwned>(&self) -> Result<T, StoreError> {
        Ok(serde_json::from_str(&self.payload)?)
    }

    /// The metadata deserialized.
    pub fn metadata(&self) -> Result<Metadata, StoreError> {
        Ok(serde_json::from_str(&self.metadata)?)
    }
}
