//! Upcasting: old payload shapes are brought up to date when read, never rewritten in the log
//! (the hash chain covers the stored bytes, and auditors replay what was really written).

use std::collections::HashMap;

use super::{RecordedEvent, StoreError};

/// Turns a payload of `(event_type, schema_version)` into the next version's shape.
pub type UpcastFn = fn(serde_json::Value) -> Result<serde_json::Value, StoreError>;

/// The upcasters of every event type, applied in a chain (v1 -> v2 -> v3 ...).
#[derive(Default, Clone)]
pub struct Upcasters {
    steps: HashMap<(String, u32), UpcastFn>,
}

impl Upcasters {
    /// Registers the step from `from_version` to `from_version + 1` of `event_type`.
    pub fn register(mut self, event_type: &str, from_version: u32, step: UpcastFn) -> Self {
        self.steps.insert((event_type.to_owned(), from_version), step);
        self
    }

    /// The event with its payload in the newest shape; events with no step pass unchanged.
    pub fn apply(&self, mut event: RecordedEvent) -> Result<RecordedEvent, StoreError> {
        let mut payload: Option<serde_json::Value> = None;
        while let Some(step) = self.steps.get(&(event.event_type.clone(), event.schema_version)) {
            let current = match payload.take() {
                Some(value) => value,
                None => serde_json::from_str(&event.payload)?,
            };
            payload = Some(step(current)?);
            event.schema_version += 1;
        }
        if let Some(value) = payload {
            event.payload = serde_json::to_string(&value)?;
        }
        Ok(event)
    }
}
