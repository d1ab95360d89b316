//! The indexer against a real anvil chain: each test starts its own anvil and its own SQLite
//! event store.

mod helpers;
mod proxy;

mod adaptive_range;
mod facts;
mod heads;
mod reorgs;
mod restart;
mod sync;
