//! One module per resource, each exposing `router()`.

pub mod health;
pub mod ipfs;
