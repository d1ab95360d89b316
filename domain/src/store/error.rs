use uuid::Uuid;

use super::{ExpectedVersion, Position};

/// Everything an event store operation can fail with.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The stream was not at the version the writer expected; nothing was written.
    #[error("stream {stream_id} expected {expected} but is at version {actual}")]
    WrongExpectedVersion {
        /// The stream whose check failed.
        stream_id: String,
        /// What the writer expected.
        expected: ExpectedVersion,
        /// The stream's actual version (0: no stream).
        actual: u64,
    },
    /// An event id already stored was reused for different content; nothing was written.
    #[error("event id {event_id} is already stored with different content")]
    DuplicateEventId {
        /// The reused id.
        event_id: Uuid,
    },
    /// The append itself is malformed (empty, a stream or event id twice).
    #[error("invalid append: {0}")]
    InvalidAppend(String),
    /// Other writers kept moving the log's head; the append gave up without writing.
    #[error("gave up after {attempts} attempts against concurrent writers")]
    Contention {
        /// How many times it tried.
        attempts: u32,
    },
    /// A stored row could not be decoded (the log was damaged outside the store).
    #[error("corrupt row at position {position}: {reason}")]
    Corrupt {
        /// Position of the row.
        position: Position,
        /// What was wrong with it.
        reason: String,
    },
    /// The database failed.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// Migrations failed.
    #[error("migration error: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
    /// A payload or metadata could not be (de)serialized.
    #[error("serialization error: {0}")]
    Serialization(#[from] serde_json::Error),
    /// A backend other than SQL failed (KurrentDB).
    #[error("backend error: {0}")]
    Backend(String),
}
