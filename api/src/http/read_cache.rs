//! Answers of public browse calls, kept while the read tables stay the same.
//!
//! Read tables change only when the projector applies a batch (or a replay publishes a new
//! generation), so an answer computed at one (generation, position) is exactly the answer for
//! every request until then: no staleness, no expiry to tune. Popular pages (the first page of
//! explore, a search many people type) are then served without touching the database; every
//! new block empties the cache. The one thing that changes without an event is the clock: an
//! answer showing a running auction says whether it has ended, so it is kept only until the
//! first of its auctions ends. Per-viewer fields (likes, bookmarks) are not in the shared
//! answer: the caller lays them on top (see `routes::nft::CardsPage`).

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

/// Serialized answers by request (`T`: the bytes, and what a caller keeps beside them), for one
/// [`ReadVersion`] at a time.
pub struct ReadCache<T = Bytes> {
    state: Mutex<Entries<T>>,
}

impl<T> Default for ReadCache<T> {
    fn default() -> Self {
        Self { state: Mutex::new(Entries { version: None, answers: HashMap::new() }) }
    }
}

struct Entries<T> {
    version: Option<ReadVersion>,
    /// Each answer, and the time (Unix seconds) from which it no longer holds, if any.
    answers: HashMap<String, (T, Option<i64>)>,
}

impl<T: Clone> ReadCache<T> {
    /// The answer to `request` computed at `version`, if there is one that still holds at `now`
    /// (Unix seconds).
    pub fn get(&self, version: &ReadVersion, request: &str, now: i64) -> Option<T> {
        let entries = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if entries.version.as_ref() != Some(version) {
            return None;
        }
        let (answer, until) = entries.answers.get(request)?;
        until.is_none_or(|until| now < until).then(|| answer.clone())
    }

    /// Keeps `answer` to `request`, computed at `version`, until `until` (Unix seconds; `None`:
    /// for as long as the version lasts). An answer from an older version than the cache holds
    /// is dropped; a newer one replaces everything.
    pub fn put(&self, version: ReadVersion, request: String, answer: T, until: Option<i64>) {
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
        entries.answers.insert(request, (answer, until));
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
        cache.put(at("g1", 10), "page=1".into(), Bytes::from_static(b"a"), None);
        assert_eq!(cache.get(&at("g1", 10), "page=1", 0), Some(Bytes::from_static(b"a")));
        assert_eq!(cache.get(&at("g1", 10), "page=2", 0), None);
        assert_eq!(cache.get(&at("g1", 11), "page=1", 0), None, "a new event");
        assert_eq!(cache.get(&at("g2", 10), "page=1", 0), None, "a replayed generation");
    }

    #[test]
    fn a_newer_version_empties_the_cache_and_an_older_answer_is_dropped() {
        let cache = ReadCache::default();
        cache.put(at("g1", 10), "page=1".into(), Bytes::from_static(b"a"), None);
        cache.put(at("g1", 11), "page=2".into(), Bytes::from_static(b"b"), None);
        assert_eq!(cache.get(&at("g1", 11), "page=1", 0), None);
        // A slow request that read the tables at 10 finishes after the cache moved on.
        cache.put(at("g1", 10), "page=1".into(), Bytes::from_static(b"old"), None);
        assert_eq!(cache.get(&at("g1", 10), "page=1", 0), None);
        assert_eq!(cache.get(&at("g1", 11), "page=2", 0), Some(Bytes::from_static(b"b")));
    }

    #[test]
    fn an_answer_showing_a_running_auction_holds_until_it_ends() {
        let cache = ReadCache::default();
        cache.put(at("g", 1), "auctions".into(), Bytes::from_static(b"a"), Some(1_000));
        assert_eq!(cache.get(&at("g", 1), "auctions", 999), Some(Bytes::from_static(b"a")));
        assert_eq!(cache.get(&at("g", 1), "auctions", 1_000), None, "the auction has ended: the answer changes");
    }

    #[test]
    fn it_never_holds_more_than_its_capacity() {
        let cache = ReadCache::default();
        for i in 0..CAPACITY + 10 {
            cache.put(at("g", 1), format!("q{i}"), Bytes::from_static(b"x"), None);
        }
        assert!(cache.state.lock().unwrap().answers.len() <= CAPACITY);
    }
}
