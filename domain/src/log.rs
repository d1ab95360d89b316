//! Facts about the log itself.
//!
//! Stream: `log-migration`. A log written by `marketplace migrate-privacy` starts with one
//! [`LogEvent::LogMigrated`]: the head hash and event count of the log it was copied from, so an
//! auditor holding the old log (or a hash of it written down earlier) can tie the two chains: the
//! old chain ends at that hash after that many events, and every later event of the new log is an
//! old event in the same order, with its id, type, schema version and metadata, its personal
//! fields sealed and its e-mail and username claim streams blinded. Read models ignore it.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// The stream of [`LogEvent`]s.
pub const LOG_MIGRATION_STREAM: &str = "log-migration";

/// Facts about the log, past tense.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all_fields = "camelCase")]
pub enum LogEvent {
    /// This log is a copy of an earlier one, its personal fields sealed: the first event of the
    /// copy, followed by every event of the earlier log in position order.
    LogMigrated {
        /// The earlier log's head hash (hex): the hash of its last event.
        previous_head_hash: String,
        /// How many events the earlier log held (its last position).
        previous_event_count: u64,
        /// Where the earlier log was (a URL or path, credentials removed).
        previous_log: String,
        /// What was done to the copied events (`personal fields sealed`).
        reason: String,
        /// When the copy started.
        at: DateTime<Utc>,
    },
}

impl LogEvent {
    /// Payload schema version.
    pub const SCHEMA_VERSION: u32 = 1;

    /// The past-tense type name.
    pub fn event_type(&self) -> &'static str {
        match self {
            Self::LogMigrated { .. } => "LogMigrated",
        }
    }

    /// This event as a [`crate::NewEvent`].
    pub fn to_new_event(&self, metadata: crate::Metadata) -> Result<crate::NewEvent, crate::StoreError> {
        crate::NewEvent::new(self.event_type(), Self::SCHEMA_VERSION, self, metadata)
    }
}

/// A database URL with any password removed (`postgres://user:secret@host/db` →
/// `postgres://user@host/db`), to be written into the log.
pub fn redact_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_owned() };
    let (authority, path) = rest.split_once('/').map_or((rest, None), |(a, p)| (a, Some(p)));
    let authority = match authority.rsplit_once('@') {
        Some((user, host)) => format!("{}@{host}", user.split(':').next().unwrap_or(user)),
        None => authority.to_owned(),
    };
    // Query parameters may carry a password too (`?password=...`): dropped.
    let path = path.map(|p| p.split('?').next().unwrap_or(p));
    match path {
        Some(path) => format!("{scheme}://{authority}/{path}"),
        None => format!("{scheme}://{authority}"),
    }
}

#[cfg(test)]
mod tests {
    use super::redact_url;

    #[test]
    fn passwords_are_not_written_into_the_log() {
        assert_eq!(redact_url("postgres://mk:s3cret@db:5432/market?sslmode=require"), "postgres://mk@db:5432/market");
        assert_eq!(redact_url("postgres://db/market"), "postgres://db/market");
        assert_eq!(redact_url("sqlite:///var/lib/marketplace/events.db"), "sqlite:///var/lib/marketplace/events.db");
        assert_eq!(redact_url("/data/events.db"), "/data/events.db");
    }
}
