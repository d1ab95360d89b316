//! Off-chain facts about NFTs that only the server knows: what the creator wrote about a token
//! (title, description, category, properties, the file and metadata on IPFS), and the categories
//! themselves. They live in their own streams, beside the token's chain stream, so a reorg that
//! retracts a mint never loses them: they join the token again when it is minted canonically.
//!
//! Streams: `nft-details-{chain}-{token}`, `categories`.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// One key/value property of an NFT.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Property {
    /// Trait type.
    pub key: String,
    /// Value.
    pub value: String,
}

/// Facts about the catalog, past tense.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all_fields = "camelCase")]
pub enum CatalogEvent {
    /// The creator's description of a minted token was recorded.
    NftDetailsRecorded {
        /// Chain id.
        chain_id: u64,
        /// Token id (decimal).
        token_id: String,
        /// Title.
        title: String,
        /// Description.
        description: String,
        /// Category id.
        category_id: String,
        /// The image (`/ipfs/<cid>`).
        file: String,
        /// The metadata JSON (`/ipfs/<cid>`), also the token URI's target.
        metadata_url: String,
        /// Properties, in order.
        properties: Vec<Property>,
        /// The user who created it (the server maps wallets to users).
        creator_user_id: Option<Uuid>,
    },
    /// A category became available.
    CategoryAdded {
        /// Stable id.
        id: String,
        /// Display name.
        name: String,
    },
}

impl CatalogEvent {
    /// The payload schema version.
    pub const SCHEMA_VERSION: u32 = 1;

    /// The past-tense type name stored in the envelope.
    pub fn event_type(&self) -> &'static str {
        match self {
            Self::NftDetailsRecorded { .. } => "NftDetailsRecorded",
            Self::CategoryAdded { .. } => "CategoryAdded",
        }
    }

    /// The stream this event belongs to.
    pub fn stream_id(&self) -> String {
        match self {
            Self::NftDetailsRecorded { chain_id, token_id, .. } => format!("nft-details-{chain_id}-{token_id}"),
            Self::CategoryAdded { .. } => "categories".into(),
        }
    }

    /// This event as a [`crate::NewEvent`].
    pub fn to_new_event(&self, metadata: crate::Metadata) -> Result<crate::NewEvent, crate::StoreError> {
        crate::NewEvent::new(self.event_type(), Self::SCHEMA_VERSION, self, metadata)
    }
}

/// The categories a new marketplace starts with (appended once, as events, on first start).
pub const DEFAULT_CATEGORIES: [(&str, &str); 8] = [
    ("art", "Art"),
    ("music", "Music"),
    ("photography", "Photography"),
    ("games", "Games"),
    ("sports", "Sports"),
    ("collectibles", "Collectibles"),
    ("virtual-worlds", "Virtual Worlds"),
    ("utility", "Utility"),
];
