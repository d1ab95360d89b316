//! Walks the whole log and checks what the hash chain and the numbering promise.

use std::collections::HashMap;

use super::{EventStore, Position, StoreError, hash};

/// What a sound log looks like.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyReport {
    /// Events checked.
    pub events: u64,
    /// Distinct streams.
    pub streams: u64,
    /// The last position.
    pub last_position: Position,
    /// The last hash (hex): write it down somewhere else to anchor the chain.
    pub last_hash: String,
}

/// The first thing found wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("log broken at position {position}: {reason}")]
pub struct Tampering {
    /// The first position that does not check out.
    pub position: Position,
    /// Why.
    pub reason: String,
}

/// Why verification did not produce a report.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The log was altered.
    #[error(transparent)]
    Tampered(#[from] Tampering),
    /// The store could not be read.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Reads every event in position order and checks that positions run 1, 2, 3 ..., each stream's
/// versions run 1, 2, 3 ..., every hash matches its row and its predecessor, and the head row
/// names the last event.
pub async fn verify(store: &dyn EventStore, page: usize) -> Result<VerifyReport, VerifyError> {
    let mut prev_hash = hash::GENESIS;
    let mut expected_position: Position = 1;
    let mut versions: HashMap<String, u64> = HashMap::new();
    loop {
        let events = match store.read_all(expected_position - 1, page).await {
            Ok(events) => events,
            Err(StoreError::Corrupt { position, reason }) => return Err(Tampering { position, reason }.into()),
            Err(err) => return Err(err.into()),
        };
        if events.is_empty() {
            break;
        }
        for event in events {
            let broken = |reason: String| Tampering { position: expected_position, reason };
            if event.position != expected_position {
                return Err(broken(format!(
                    "expected position {expected_position}, found {} (a row is missing or was moved)",
                    event.position
                ))
                .into());
            }
            let version = versions.entry(event.stream_id.clone()).or_default();
            if event.stream_version != *version + 1 {
                return Err(broken(format!("stream {} jumps from version {} to {}", event.stream_id, version, event.stream_version)).into());
            }
            *version += 1;
            let recomputed = hash::event_hash(
                &prev_hash,
                &hash::HashedFields {
                    position: event.position,
                    stream_id: &event.stream_id,
                    stream_version: event.stream_version,
                    event_id: event.event_id,
                    event_type: &event.event_type,
                    schema_version: event.schema_version,
                    payload: &event.payload,
                    metadata: &event.metadata,
                    recorded_at_micros: event.recorded_at.timestamp_micros(),
                },
            );
            if recomputed != event.hash {
                return Err(broken("the row's content does not match its hash".into()).into());
            }
            prev_hash = event.hash;
            expected_position += 1;
        }
    }
    let last_position = expected_position - 1;
    let (head_position, head_hash) = store.head().await?;
    if head_position != last_position || head_hash != prev_hash {
        return Err(Tampering {
            position: last_position + 1,
            reason: format!(
                "the head names position {head_position} but the log ends at {last_position} (the tail was cut or the head edited)"
            ),
        }
        .into());
    }
    Ok(VerifyReport { events: last_position, streams: versions.len() as u64, last_position, last_hash: hex::encode(prev_hash) })
}
