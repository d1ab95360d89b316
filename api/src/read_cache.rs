//! Answers of public browse calls, kept while the read tables stay the same.
//!
//! Read tables change only when the projector applies a batch (or a replay publishes a new
//! generation), so an answer computed at one (generation, position) is exactly the answer for
//! every request until then: no staleness, no expiry to tune. Popular pages (the first page of
//! explore, a search many people type) are then served without touching the database; every
//! new block empties the cache.

use std::{collections::HashMap, sync::Mutex};

use axum::body::Bytes;
use domain::Position;

/// How many answers are kept at most; past it the cache starts over (a burst of distinct queries
/// must not grow memory without bound).
const CAPACITY: usize = 4_096;

/// The state of the read tables an answer was computed from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadVersion {
    /// The read generation (a replay publishes a new one).
    pub generation: String,
    /// The log position the projector had applied.
    pub position: Position,
}

/// Serialized answers by request, for one [`ReadVersion`] at a time.
#[derive(Default)]
pub struct ReadCache {
    state: Mutex<Entries>,
}

#[derive(Default)]
struct Entries {
    version: Option<ReadVersion>,
    answers: HashMap<String, Bytes>,
}

impl ReadCache {
    /// The answer to `request` computed at `version`, if there is one.
    pub fn get(&self, version: &ReadVersion, request: &str) -> Option<Bytes> {
        let entries = self.state.lock().unwrap_or_else(|e| e.into_inner());
        (entries.version.as_ref() == Some(version)).then(|| entries.answers.get(request).cloned()).flatten()
    }

    /// Keeps `answer` to `request`, computed at `version`. An answer from an older version than
    /// the cache holds is dropped; a newer one replaces everything.
    pub fn put(&self, version: ReadVersion, request: String, answer: Bytes) {
        let mut entries = self.state.lock().unwrap_or_else(|e| e.into_inner());
        match &entries.version {
            Some(current) if *current == version => {}
            Some(current) if current.generation == version.generation && current.position > version.position => return,
            _ => {
                entries.answers.clear();
                entries.version = Some(version);
            }
        }
        if entries.answers.len() >= CAPACITY {
            entries.answers.clear();
        }
        entries.answers.insert(request, answer);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(generation: &str, position: Position) -> ReadVersion {
        ReadVersion { generation: generation.into(), position }
    }

    #[test]
    fn an_answer_holds_only_for_the_version_it_was_computed_at() {
        let cache = ReadCache::default();
        cache.put(at("g1", 10), "page=1".into(), Bytes::from_static(b"a"));
        assert_eq!(cache.get(&at("g1", 10), "page=1"), Some(Bytes::from_static(b"a")));
        assert_eq!(cache.get(&at("g1", 10), "page=2"), None);
        assert_eq!(cache.get(&at("g1", 11), "page=1"), None, "a new event");
        assert_eq!(cache.get(&at("g2", 10), "page=1"), None, "a replayed generation");
    }

    #[test]
    fn a_newer_version_empties_the_cache_and_an_older_answer_is_dropped() {
        let cache = ReadCache::default();
        cache.put(at("g1", 10), "page=1".into(), Bytes::from_static(b"a"));
        cache.put(at("g1", 11), "page=2".into(), Bytes::from_static(b"b"));
        assert_eq!(cache.get(&at("g1", 11), "page=1"), None);
        // A slow request that read the tables at 10 finishes after the cache moved on.
        cache.put(at("g1", 10), "page=1".into(), Bytes::from_static(b"old"));
        assert_eq!(cache.get(&at("g1", 10), "page=1"), None);
        assert_eq!(cache.get(&at("g1", 11), "page=2"), Some(Bytes::from_static(b"b")));
    }

    #[test]
    fn it_never_holds_more_than_its_capacity() {
        let cache = ReadCache::default();
        for i in 0..CAPACITY + 10 {
            cache.put(at("g", 1), format!("q{i}"), Bytes::from_static(b"x"));
        }
        assert!(cache.state.lock().unwrap().answers.len() <= CAPACITY);
    }
}
