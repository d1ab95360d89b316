//! The write side of the marketplace.
//!
//! * [`store`]: the append-only event log every state change goes to, behind one
//!   [`EventStore`] trait with SQLite, PostgreSQL and (feature `kurrentdb`) KurrentDB backends.
//! * [`chain`]: the chain facts the indexer derives from the contract's logs.
//! * [`catalog`]: off-chain facts about NFTs (titles, categories) only the server knows.
//! * [`collections`]: users' collections of NFTs and their likes.
//! * [`metadata`]: what the server read at the token URI of tokens minted elsewhere.
//! * [`moderation`]: reports, moderators' decisions, appeals, verified badges and staff roles.
//! * [`log`]: facts about the log itself (the copy `migrate-privacy` writes starts with one).
//! * [`command`]: how a command lost to a concurrent write on its stream is decided again.
//! * [`notices`]: a user's reads of their notices and their notice settings.
//! * [`privacy`]: personal fields sealed per person in the log, erased by forgetting a key.
//! * [`social`]: likes and bookmarks, one stream per user.
//! * [`trade`]: which user sent a marketplace transaction, checked against its receipt.
//!
//! Nothing here knows about HTTP or read models: the API turns requests into commands, aggregates
//! decide which events follow, and the store keeps them in one hash-chained global order.

pub mod accounts;
pub mod catalog;
pub mod chain;
pub mod collections;
pub mod command;
pub mod log;
pub mod metadata;
pub mod moderation;
pub mod notices;
pub mod privacy;
pub mod social;
pub mod store;
pub mod trade;

pub use store::{
    AppendOutcome, ChainCoordinates, EventStore, ExpectedVersion, Metadata, NewEvent, Position, RecordedEvent, StoreError, StreamAppend,
};

#[cfg(any(test, feature = "test-utils"))]
pub mod test_utils;
