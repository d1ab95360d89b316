//! The read side of the marketplace.
//!
//! The [`Projector`] reads the event log in order and folds it into SQL read tables a batch at a
//! time, each batch in the same transaction as its checkpoint, on SQLite or PostgreSQL
//! ([`ReadDb`]). Each [`ReadModel`] folds a batch in memory and writes the result with a few
//! multi-row statements. Read tables are never a source of truth: drop them and the projector
//! rebuilds them from the log.

pub mod accounts;
mod catalog;
mod checkpoint;
mod collections;
pub mod credits;
mod error;
mod holds;
mod metadata;
mod moderation;
mod nft;
mod notices;
mod offers;
mod projector;
pub mod queries;
mod read_db;
mod read_model;
pub mod reads;
mod social;
mod sql;
#[cfg(feature = "test-utils")]
pub mod test_utils;

pub use checkpoint::NAME as CHECKPOINT;
pub use error::ProjectionError;
pub use projector::{Projector, ProjectorFollower, ProjectorHandle};
pub use read_db::{
    ANALYST_ROLE, ReadDb,
    replicas::{ReplicaSettings, ReplicaStatus},
};
pub use read_model::{ReadModel, Remember};

/// Every read model, in the order the projector applies them to each event.
pub fn read_models() -> Vec<Box<dyn ReadModel>> {
    // The social model recounts likes of tokens minted in a batch: after the chain model.
    vec![
        Box::new(nft::Nfts::default()),
        Box::new(catalog::Catalog::default()),
        // After the catalog: the creator's details of a batch are in before metadata is weighed.
        Box::new(metadata::TokenMetadata::default()),
        Box::new(accounts::Accounts),
        Box::new(social::Socials::default()),
        Box::new(collections::Collections),
        Box::new(credits::Credits),
        Box::new(offers::Offers),
        Box::new(holds::SaleHolds),
        Box::new(notices::Notices::default()),
        Box::new(moderation::Moderation::default()),
    ]
}
