//! One marketplace process, in rooms that show what it runs (see docs/architecture.md):
//!
//! - [`config`]: the settings every room reads; [`net`]: the guard of outgoing requests.
//! - [`log`]: the event log as every room opens it, personal fields sealed.
//! - [`chain`], [`files`], [`mail`]: the process's outside world: the chain node, the file
//!   store, outgoing mail.
//! - [`node`]: the services one process shares ([`node::Node`]) and the work it runs beside the
//!   HTTP surface: the election, the metadata fetcher, the notifier, the auction clock, the
//!   stream hub, reconciliation.
//! - [`http`]: the HTTP surface: one router per resource over [`http::AppState`], the built UI.
//! - [`ops`]: the operators' commands (replay, verify, reconcile, export, ...).
//! - [`demo`]: the demo market, made by driving the HTTP API and the chain as users would.
//! - [`serve`]: `marketplace serve` and `dev`: a whole process assembled from the rooms.
//!
//! Imports run one way, down that list (`tests/architecture` holds the rule); the `marketplace`
//! binary in `main.rs` parses the command line and calls `serve`, `ops` or `demo`.

pub mod chain;
pub mod config;
pub mod demo;
pub mod files;
pub mod http;
pub mod log;
pub mod mail;
pub mod net;
pub mod node;
pub mod ops;
pub mod serve;
