//! One module per resource, each exposing `router()`.

pub mod chain;
pub mod health;
pub mod ipfs;
pub mod misc;
pub mod nft;
mod params;
