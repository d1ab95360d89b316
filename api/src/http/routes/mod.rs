//! One module per resource, each exposing `router()`: its handlers, registered with their
//! OpenAPI operations (see [`openapi`]).

pub mod account;
pub mod activity;
pub mod auth;
pub mod chain;
pub mod collection;
pub mod contact;
pub mod contract;
pub mod dev;
pub mod health;
pub mod insight;
pub mod ipfs;
pub mod keys;
pub mod limits;
pub mod lists;
pub mod metadata;
pub mod metrics;
pub mod misc;
pub mod moderation;
pub mod nft;
pub mod notices;
pub mod openapi;
mod params;
pub mod privacy;
pub mod social;
pub mod stream;
pub mod trade;
pub mod traits;
pub mod trending;
pub mod webhooks;
