//! Personal data in a log that is never edited: sealed per person, erased by forgetting a key.
//!
//! * [`fields`] lists the personal fields of each event kind and whose key seals each.
//! * [`seal`] is the sealed form (XChaCha20-Poly1305, deterministic per event).
//! * [`keys`] keeps one data key per subject outside the log, wrapped by a key derived from the
//!   server's secret; forgetting one makes every value sealed with it unreadable for good.
//! * [`store`] wraps the event store: appends are sealed and e-mail and username claim streams
//!   blinded (HMAC) on the way in, reads opened on the way out. Aggregates, projections and the
//!   API see clear values; the log, its hash chain and its backups hold only ciphertext.
//!
//! Erasure appends its own event and forgets the key; no earlier byte of the log changes, so
//! `verify` still passes and every earlier hash stays what an auditor recorded.

mod fields;
pub mod keys;
mod seal;
pub mod store;

use std::sync::Arc;

use chrono::Duration;

pub use fields::SEALED_TYPES;
pub use keys::KeyStore;
pub use store::PrivateStore;

use crate::{EventStore, StoreError};

/// How long a contact message is kept readable: the team answers within days; a year covers a
/// dispute about an answer. Past it, the elected process forgets its key.
pub const CONTACT_RETENTION: Duration = Duration::days(365);

/// The keys derived from the server's master secret, one per use.
#[derive(Clone)]
pub struct PrivacyKeys {
    /// Wraps the subjects' data keys.
    pub kek: [u8; 32],
    /// Blinds e-mail and username claim names.
    pub blind: [u8; 32],
}

impl PrivacyKeys {
    /// Derives both from the server's master secret.
    pub fn derive(master: &[u8]) -> Self {
        let derive = |purpose: &[u8]| -> [u8; 32] {
            let hex = seal::blind(&sha(master), &[purpose]);
            let mut out = [0u8; 32];
            hex::decode_to_slice(hex, &mut out).expect("64 hex digits");
            out
        };
        Self { kek: derive(b"subject-key-wrap"), blind: derive(b"claim-blind") }
    }
}

fn sha(bytes: &[u8]) -> [u8; 32] {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).into()
}

/// The key store's URL for a log: the log's own Postgres database, or `keys.db` beside a SQLite
/// log (a file of its own, backed up apart from the log).
pub fn default_keys_url(log_url: &str) -> String {
    if log_url.starts_with("postgres://") || log_url.starts_with("postgresql://") {
        return log_url.to_owned();
    }
    let path = log_url.strip_prefix("sqlite://").or_else(|| log_url.strip_prefix("sqlite:")).unwrap_or(log_url);
    let dir = std::path::Path::new(path).parent().unwrap_or(std::path::Path::new(""));
    format!("sqlite://{}", dir.join("keys.db").display())
}

/// Why a log cannot be opened privately.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The log predates sealing: its personal fields are in clear.
    #[error(
        "this event log ({0} events) was written before personal data was sealed: run `marketplace migrate-privacy` to write a sealed copy"
    )]
    Unsealed(u64),
}

/// Opens the log at `log_url` with its key store at `keys_url`: the store the server uses.
/// A fresh log is tied to the key store at its first open; a log that already holds events but
/// was never sealed is refused (see [`OpenError::Unsealed`]).
pub async fn open(log_url: &str, keys_url: &str, keys: &PrivacyKeys) -> Result<Arc<PrivateStore>, OpenError> {
    let inner = crate::store::open(log_url).await?;
    wrap(inner, keys_url, keys).await
}

/// [`open`] over a store already opened.
pub async fn wrap(inner: Arc<dyn EventStore>, keys_url: &str, keys: &PrivacyKeys) -> Result<Arc<PrivateStore>, OpenError> {
    let key_store = KeyStore::open(keys_url, keys.kek).await?;
    let (head, _) = inner.head().await?;
    if key_store.sealed_since(None).await?.is_none() {
        // Never tied: a log with nothing personal in clear (empty, or chain facts only) is
        // sealed from here on; one holding personal fields in clear must be migrated first.
        if holds_personal_data_in_clear(inner.as_ref()).await? {
            return Err(OpenError::Unsealed(head));
        }
        key_store.sealed_since(Some(0)).await?;
    }
    Ok(Arc::new(PrivateStore::new(inner, Arc::new(key_store), keys.blind)))
}

/// Whether any event of `log` holds a personal field in clear (read once, when a key store is
/// first tied to a log that already has events).
async fn holds_personal_data_in_clear(log: &dyn EventStore) -> Result<bool, StoreError> {
    let mut after = 0;
    loop {
        let page = log.read_all(after, 10_000).await?;
        let Some(last) = page.last() else { return Ok(false) };
        after = last.position;
        for event in &page {
            let fields = fields::personal(&event.event_type);
            if fields.is_empty() {
                continue;
            }
            let payload: serde_json::Value = serde_json::from_str(&event.payload)?;
            if matches!(event.event_type.as_str(), "ValueClaimed" | "ValueReleased")
                && !payload.get("kind").and_then(serde_json::Value::as_str).is_some_and(fields::personal_claim)
            {
                continue;
            }
            let clear = fields.iter().any(|(field, _, _)| {
                payload.get(*field).and_then(serde_json::Value::as_str).is_some_and(|v| !v.is_empty() && seal::subject_of(v).is_none())
            });
            if clear {
                return Ok(true);
            }
        }
    }
}

/// Ties a key store to a log that was written sealed from its first event (the migration).
pub async fn tie(key_store: &KeyStore) -> Result<(), StoreError> {
    key_store.sealed_since(Some(0)).await.map(|_| ())
}
