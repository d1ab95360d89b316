//! [`PrivateStore`]: the event store as the rest of the server sees it. Appends are sealed and
//! claim names blinded on their way in; reads are opened on their way out. What the inner store
//! keeps, chains and hashes is only ever the sealed form, so forgetting a key changes no byte
//! of the log and `verify` (which reads the inner store) never needs a key.

use std::{borrow::Cow, collections::HashMap, sync::Arc};

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use serde_json::{Map, Value};
use tokio::sync::watch;
use uuid::Uuid;

use super::{
    CONTACT_RETENTION,
    fields::{Blank, KeyOf, personal, personal_claim},
    keys::{KeyStore, NewKey},
    seal,
};
use crate::{AppendOutcome, EventStore, Position, RecordedEvent, StoreError, StreamAppend};

/// The claim streams whose names are personal, blinded with the server's key.
const BLINDED_STREAMS: [&str; 2] = ["email-", "username-"];

/// The event store with personal fields sealed at rest.
pub struct PrivateStore {
    inner: Arc<dyn EventStore>,
    keys: Arc<KeyStore>,
    blind_key: [u8; 32],
}

/// One field to seal: where, with whose key.
struct Plan {
    field: &'static str,
    subject: Uuid,
}

impl PrivateStore {
    /// The sealing store over `inner`, with `keys` and the key that blinds claim names.
    pub fn new(inner: Arc<dyn EventStore>, keys: Arc<KeyStore>, blind_key: [u8; 32]) -> Self {
        Self { inner, keys, blind_key }
    }

    /// The store underneath: what is really kept (sealed), for `verify` and the migration.
    pub fn inner(&self) -> &Arc<dyn EventStore> {
        &self.inner
    }

    /// The key store.
    pub fn keys(&self) -> &Arc<KeyStore> {
        &self.keys
    }

    /// The stream id kept for `stream_id`: claim streams of e-mails and usernames blinded.
    pub fn kept_stream_id<'a>(&self, stream_id: &'a str) -> Cow<'a, str> {
        for prefix in BLINDED_STREAMS {
            if let Some(value) = stream_id.strip_prefix(prefix) {
                return Cow::Owned(format!("{prefix}{}", &seal::blind(&self.blind_key, &[prefix.as_bytes(), value.as_bytes()])[..40]));
            }
        }
        Cow::Borrowed(stream_id)
    }

    /// The owner string of a contact message sent without an account: its blinded address, so
    /// erasing the account of that address forgets it too.
    pub fn blinded_address(&self, email: &str) -> String {
        self.kept_stream_id(&crate::accounts::ClaimKind::Email.stream(email)).into_owned()
    }

    /// Forgets every key of a person: their own, their codes', and their contact messages'
    /// (sent signed in, or from `email` without an account). Returns how many keys went.
    pub async fn forget_person(&self, user_id: Uuid, email: &str) -> Result<u64, StoreError> {
        let owners = [user_id.simple().to_string(), self.blinded_address(email)];
        self.keys.forget(&[user_id], &owners).await
    }

    /// Seals one event's personal fields (payload text in, payload text out).
    fn plan(stream_id: &str, event_type: &str, payload: &Map<String, Value>, event_id: Uuid) -> Result<Vec<(Plan, NewKey)>, StoreError> {
        let fields = personal(event_type);
        if fields.is_empty() {
            return Ok(Vec::new());
        }
        if matches!(event_type, "ValueClaimed" | "ValueReleased")
            && !payload.get("kind").and_then(Value::as_str).is_some_and(personal_claim)
        {
            return Ok(Vec::new());
        }
        let uuid_field = |name: &str| payload.get(name).and_then(Value::as_str).and_then(|s| Uuid::try_parse(s).ok());
        let bad = |why: &str| StoreError::InvalidAppend(format!("{event_type} in {stream_id}: {why}"));
        let person = || -> Result<Uuid, StoreError> {
            stream_id
                .strip_prefix("user-")
                .and_then(|id| Uuid::try_parse(id).ok())
                .or_else(|| uuid_field("userId"))
                .ok_or_else(|| bad("no person to seal for"))
        };
        let mut plans = Vec::new();
        for &(field, key_of, _) in fields {
            if payload.get(field).is_none_or(|v| v.is_null()) {
                continue;
            }
            let (subject, owner, expires_at) = match key_of {
                KeyOf::Person => {
                    let person = person()?;
                    (person, person.simple().to_string(), None)
                }
                KeyOf::Expiring => {
                    let expires = payload
                        .get("expiresAt")
                        .and_then(Value::as_str)
                        .and_then(|s| DateTime::parse_from_rfc3339(s).ok())
                        .ok_or_else(|| bad("no expiresAt"))?;
                    (event_id, person()?.simple().to_string(), Some(expires.timestamp()))
                }
                KeyOf::Message => {
                    let message = uuid_field("messageId").ok_or_else(|| bad("no messageId"))?;
                    let at = payload.get("at").and_then(Value::as_str).and_then(|s| DateTime::parse_from_rfc3339(s).ok());
                    let expires = at.map(|at| (at.with_timezone(&Utc) + CONTACT_RETENTION).timestamp());
                    let owner = match uuid_field("userId") {
                        Some(user) => user.simple().to_string(),
                        None => String::new(), // filled in by the caller (needs the blinding key)
                    };
                    (message, owner, expires)
                }
            };
            plans.push((Plan { field, subject }, NewKey { subject, owner, expires_at }));
        }
        Ok(plans)
    }

    async fn seal_writes(&self, mut writes: Vec<StreamAppend>) -> Result<Vec<StreamAppend>, StoreError> {
        let mut pending = Vec::new(); // (write, event, payload, plans)
        let mut wanted: Vec<NewKey> = Vec::new();
        for (w, write) in writes.iter().enumerate() {
            for (e, event) in write.events.iter().enumerate() {
                if personal(&event.event_type).is_empty() {
                    continue;
                }
                let Value::Object(payload) = serde_json::from_str::<Value>(&event.payload)? else { continue };
                let plans = Self::plan(&write.stream_id, &event.event_type, &payload, event.event_id)?;
                if plans.is_empty() {
                    continue;
                }
                let mut keep = Vec::with_capacity(plans.len());
                for (plan, mut key) in plans {
                    if key.owner.is_empty() {
                        let email = payload.get("email").and_then(Value::as_str).unwrap_or_default();
                        key.owner = self.blinded_address(email);
                    }
                    if !wanted.iter().any(|k| k.subject == key.subject) {
                        wanted.push(key);
                    }
                    keep.push(plan);
                }
                pending.push((w, e, payload, keep));
            }
        }
        if !pending.is_empty() {
            let keys = self.keys.keys_for_sealing(&wanted).await?;
            for (w, e, mut payload, plans) in pending {
                let event_id = writes[w].events[e].event_id;
                for plan in plans {
                    let key = &keys[&plan.subject];
                    let plain = serde_json::to_vec(&payload[plan.field])?;
                    let sealed = seal::seal(key, plan.subject, event_id, plan.field, &plain);
                    payload.insert(plan.field.to_owned(), Value::String(sealed));
                }
                writes[w].events[e].payload = serde_json::to_string(&payload)?;
            }
        }
        for write in &mut writes {
            if let Cow::Owned(kept) = self.kept_stream_id(&write.stream_id) {
                write.stream_id = kept;
            }
        }
        Ok(writes)
    }

    /// Opens the sealed fields of `events` in place (a forgotten key: the field's blank value).
    async fn open_events(&self, events: &mut [RecordedEvent]) -> Result<(), StoreError> {
        let mut subjects = Vec::new();
        let mut parsed: Vec<(usize, Map<String, Value>)> = Vec::new();
        for (i, event) in events.iter().enumerate() {
            if event.event_type == "AccountErased" {
                // Another process may have forgotten keys this one still holds.
                self.keys.evict_all();
            }
            let fields = personal(&event.event_type);
            if fields.is_empty() || !event.payload.contains("sealed:1:") {
                continue;
            }
            let Value::Object(payload) = serde_json::from_str::<Value>(&event.payload)? else { continue };
            for (field, _, _) in fields {
                if let Some(subject) = payload.get(*field).and_then(Value::as_str).and_then(seal::subject_of) {
                    subjects.push(subject);
                }
            }
            parsed.push((i, payload));
        }
        if parsed.is_empty() {
            return Ok(());
        }
        let keys = self.keys.keys(&subjects, Utc::now().timestamp()).await?;
        for (i, mut payload) in parsed {
            let event = &mut events[i];
            for &(field, _, blank) in personal(&event.event_type) {
                let Some(sealed) = payload.get(field).and_then(Value::as_str) else { continue };
                let Some(subject) = seal::subject_of(sealed) else { continue };
                let opened = keys
                    .get(&subject)
                    .cloned()
                    .flatten()
                    .and_then(|key| seal::open(&key, field, sealed))
                    .and_then(|plain| serde_json::from_slice::<Value>(&plain).ok());
                let value = opened.unwrap_or(match blank {
                    Blank::Text => Value::String(String::new()),
                    Blank::Null => Value::Null,
                });
                payload.insert(field.to_owned(), value);
            }
            event.payload = serde_json::to_string(&payload)?;
        }
        Ok(())
    }
}

#[async_trait]
impl EventStore for PrivateStore {
    async fn append_streams(&self, writes: Vec<StreamAppend>) -> Result<AppendOutcome, StoreError> {
        let names: Vec<String> = writes.iter().map(|w| w.stream_id.clone()).collect();
        let sealed = self.seal_writes(writes).await?;
        let mut outcome = self.inner.append_streams(sealed).await?;
        // The caller named its streams in clear; answer in its names, in its order.
        for ((name, _), asked) in outcome.streams.iter_mut().zip(names) {
            *name = asked;
        }
        Ok(outcome)
    }

    async fn read_stream(&self, stream_id: &str, from_version: u64, limit: usize) -> Result<Vec<RecordedEvent>, StoreError> {
        let mut events = self.inner.read_stream(&self.kept_stream_id(stream_id), from_version, limit).await?;
        self.open_events(&mut events).await?;
        Ok(events)
    }

    async fn read_all(&self, after: Position, limit: usize) -> Result<Vec<RecordedEvent>, StoreError> {
        let mut events = self.inner.read_all(after, limit).await?;
        self.open_events(&mut events).await?;
        Ok(events)
    }

    async fn head(&self) -> Result<(Position, [u8; 32]), StoreError> {
        self.inner.head().await
    }

    fn appended(&self) -> watch::Receiver<Position> {
        self.inner.appended()
    }

    async fn stream_version(&self, stream_id: &str) -> Result<u64, StoreError> {
        self.inner.stream_version(&self.kept_stream_id(stream_id)).await
    }
}

/// Subjects in `events`' sealed fields (tests and the export read them).
pub fn sealed_subjects(event: &RecordedEvent) -> HashMap<&'static str, Uuid> {
    let mut found = HashMap::new();
    if let Ok(Value::Object(payload)) = serde_json::from_str::<Value>(&event.payload) {
        for &(field, _, _) in personal(&event.event_type) {
            if let Some(subject) = payload.get(field).and_then(Value::as_str).and_then(seal::subject_of) {
                found.insert(field, subject);
            }
        }
    }
    found
}
