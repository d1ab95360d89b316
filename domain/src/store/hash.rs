//! The hash chain over the log.
//!
//! `hash(n) = SHA-256(hash(n-1) || fields(n))`, with 32 zero bytes before the first event. Every
//! field is written with a fixed width or a length prefix, so no two different rows share an
//! encoding. Because the position is inside the hash, moving a row breaks the chain as surely as
//! editing or deleting it.

use sha2::{Digest, Sha256};
use uuid::Uuid;

/// The hash "before" the first event.
pub const GENESIS: [u8; 32] = [0; 32];

/// The stored fields the hash covers (everything but the hash itself).
#[derive(Clone, Copy, Debug)]
pub struct HashedFields<'a> {
    /// Global position.
    pub position: u64,
    /// Stream id.
    pub stream_id: &'a str,
    /// Version within the stream.
    pub stream_version: u64,
    /// Event id.
    pub event_id: Uuid,
    /// Type name.
    pub event_type: &'a str,
    /// Schema version.
    pub schema_version: u32,
    /// Payload JSON text.
    pub payload: &'a str,
    /// Metadata JSON text.
    pub metadata: &'a str,
    /// Recording time in microseconds since the Unix epoch.
    pub recorded_at_micros: i64,
}

/// The chained hash of one event.
pub fn event_hash(prev: &[u8; 32], f: &HashedFields<'_>) -> [u8; 32] {
    fn text(h: &mut Sha256, s: &str) {
        h.update((s.len() as u64).to_be_bytes());
        h.update(s.as_bytes());
    }
    let mut h = Sha256::new();
    h.update(prev);
    h.update(f.position.to_be_bytes());
    text(&mut h, f.stream_id);
    h.update(f.stream_version.to_be_bytes());
    h.update(f.event_id.as_bytes());
    text(&mut h, f.event_type);
    h.update(f.schema_version.to_be_bytes());
    text(&mut h, f.payload);
    text(&mut h, f.metadata);
    h.update(f.recorded_at_micros.to_be_bytes());
    h.finalize().into()
}

/// Decodes a stored hash column.
pub(crate) fn from_slice(position: u64, bytes: &[u8]) -> Result<[u8; 32], super::StoreError> {
    bytes.try_into().map_err(|_| super::StoreError::Corrupt { position, reason: format!("hash has {} bytes, not 32", bytes.len()) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(payload: &str) -> HashedFields<'_> {
        HashedFields {
            position: 1,
            stream_id: "user-1",
            stream_version: 1,
            event_id: Uuid::nil(),
            event_type: "UserRegistered",
            schema_version: 1,
            payload,
            metadata: "{}",
            recorded_at_micros: 0,
        }
    }

    #[test]
    fn the_hash_depends_on_the_previous_hash_and_every_field() {
        let base = event_hash(&GENESIS, &fields("{}"));
        assert_ne!(base, event_hash(&[1; 32], &fields("{}")));
        assert_ne!(base, event_hash(&GENESIS, &fields("{\"a\":1}")));
        assert_ne!(base, event_hash(&GENESIS, &HashedFields { position: 2, ..fields("{}") }));
        assert_ne!(base, event_hash(&GENESIS, &HashedFields { stream_version: 2, ..fields("{}") }));
        assert_eq!(base, event_hash(&GENESIS, &fields("{}")));
    }

    #[test]
    fn length_prefixes_keep_neighbouring_fields_apart() {
        let a = HashedFields { stream_id: "ab", event_type: "c", ..fields("{}") };
        let b = HashedFields { stream_id: "a", event_type: "bc", ..fields("{}") };
        assert_ne!(event_hash(&GENESIS, &a), event_hash(&GENESIS, &b));
    }
}
