//! Metadata of tokens minted elsewhere: what the server read at a token's URI (ERC-721
//! metadata JSON), or why it could not, and who asked for it to be read again.
//!
//! A token minted through this UI has the creator's own details (`catalog`); one minted by a
//! script on the contract has only its token URI on chain. The elected process fetches that URI
//! (`api/src/metadata`) and appends what it found here. Each token has its own stream,
//! `nft-metadata-{chain}-{token}`, beside its chain and details streams, appended without an
//! expected version: the last fetch wins, and nothing here decides from earlier state.
//!
//! [`parse`] is the rule of what counts as ERC-721 metadata: a JSON object whose `name`,
//! `description` and `image` are strings when present and whose `attributes` are
//! `[{trait_type, value}]`; anything else is refused with the reason.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{EventStore, ExpectedVersion, Metadata, NewEvent, Position, StoreError, StreamAppend, catalog::Property};

/// The stream of one token's fetched metadata.
pub fn metadata_stream(chain_id: u64, token_id: &str) -> String {
    format!("nft-metadata-{chain_id}-{token_id}")
}

/// Facts about a token's metadata, past tense.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all_fields = "camelCase")]
pub enum MetadataEvent {
    /// The token URI was read and held valid ERC-721 metadata.
    TokenMetadataFetched {
        /// Chain id.
        chain_id: u64,
        /// Token id (decimal).
        token_id: String,
        /// The URI read.
        token_uri: String,
        /// `name`.
        title: String,
        /// `description`.
        description: String,
        /// The image as the store serves it (`/ipfs/<cid>`), or empty without one.
        image: String,
        /// `attributes`, in order, as properties.
        properties: Vec<Property>,
        /// Which attempt this was (from 1).
        attempt: u32,
        /// When.
        at: DateTime<Utc>,
    },
    /// Reading the token URI failed.
    TokenMetadataFailed {
        /// Chain id.
        chain_id: u64,
        /// Token id (decimal).
        token_id: String,
        /// The URI read.
        token_uri: String,
        /// Why, for people.
        reason: String,
        /// Which attempt this was (from 1).
        attempt: u32,
        /// When the next attempt is due; `None`: given up (refused for good, or out of attempts).
        retry_at: Option<DateTime<Utc>>,
        /// When.
        at: DateTime<Utc>,
    },
    /// Someone asked for the metadata to be read again.
    TokenMetadataRefreshRequested {
        /// Chain id.
        chain_id: u64,
        /// Token id (decimal).
        token_id: String,
        /// When.
        at: DateTime<Utc>,
    },
}

impl MetadataEvent {
    /// The payload schema version.
    pub const SCHEMA_VERSION: u32 = 1;

    /// Every type name, for readers that dispatch on them.
    pub const TYPES: &'static [&'static str] = &["TokenMetadataFetched", "TokenMetadataFailed", "TokenMetadataRefreshRequested"];

    /// The past-tense type name stored in the envelope.
    pub fn event_type(&self) -> &'static str {
        match self {
            Self::TokenMetadataFetched { .. } => "TokenMetadataFetched",
            Self::TokenMetadataFailed { .. } => "TokenMetadataFailed",
            Self::TokenMetadataRefreshRequested { .. } => "TokenMetadataRefreshRequested",
        }
    }

    /// The token it is about.
    pub fn token(&self) -> (u64, &str) {
        match self {
            Self::TokenMetadataFetched { chain_id, token_id, .. }
            | Self::TokenMetadataFailed { chain_id, token_id, .. }
            | Self::TokenMetadataRefreshRequested { chain_id, token_id, .. } => (*chain_id, token_id),
        }
    }

    /// Its stream.
    pub fn stream_id(&self) -> String {
        let (chain_id, token_id) = self.token();
        metadata_stream(chain_id, token_id)
    }

    /// Its append to its token's stream (no expected version: the last fetch wins). Several
    /// tokens' appends go to the store together in one atomic write.
    pub fn to_append(&self, metadata: Metadata) -> Result<StreamAppend, StoreError> {
        Ok(StreamAppend {
            stream_id: self.stream_id(),
            expected: ExpectedVersion::Any,
            events: vec![NewEvent::new(self.event_type(), Self::SCHEMA_VERSION, self, metadata)?],
        })
    }

    /// Appends it to its token's stream: the position, to wait for the read models.
    pub async fn record(&self, store: &dyn EventStore, metadata: Metadata) -> Result<Position, StoreError> {
        Ok(store.append_streams(vec![self.to_append(metadata)?]).await?.last_position)
    }
}

/// ERC-721 metadata as read: the fields the marketplace shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Erc721 {
    /// `name` (empty when absent).
    pub name: String,
    /// `description` (empty when absent).
    pub description: String,
    /// `image` as written (`ipfs://…`, `https://…`), empty when absent.
    pub image: String,
    /// `attributes` as properties: `trait_type` is the key, `value` (string, number or
    /// boolean) as text.
    pub properties: Vec<Property>,
}

/// The longest `name` taken.
pub const MAX_NAME: usize = 200;
/// The longest `description` taken.
pub const MAX_DESCRIPTION: usize = 10_000;
/// The most attributes taken.
pub const MAX_ATTRIBUTES: usize = 100;
/// The longest trait type or value taken.
pub const MAX_TRAIT: usize = 200;

/// Why a document is not ERC-721 metadata.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MetadataProblem {
    /// Not JSON at all.
    #[error("not valid JSON: {0}")]
    InvalidJson(String),
    /// JSON, but not an object.
    #[error("not a JSON object")]
    NotAnObject,
    /// A field of the wrong type.
    #[error("{field} must be {expected}")]
    WrongType {
        /// Where (`name`, `attributes[2].value`).
        field: String,
        /// What it must be.
        expected: &'static str,
    },
    /// A field longer than taken.
    #[error("{field} is longer than {max} characters")]
    TooLong {
        /// Where.
        field: String,
        /// The limit.
        max: usize,
    },
    /// More attributes than taken.
    #[error("more than {MAX_ATTRIBUTES} attributes")]
    TooManyAttributes,
    /// Neither a name nor an image: nothing to show.
    #[error("neither a name nor an image")]
    Empty,
}

/// Reads `bytes` as ERC-721 metadata (see the module's rule).
pub fn parse(bytes: &[u8]) -> Result<Erc721, MetadataProblem> {
    let value: Value = serde_json::from_slice(bytes).map_err(|e| MetadataProblem::InvalidJson(e.to_string()))?;
    let Value::Object(object) = value else { return Err(MetadataProblem::NotAnObject) };
    let text = |field: &str, max: usize| -> Result<String, MetadataProblem> {
        match object.get(field) {
            None | Some(Value::Null) => Ok(String::new()),
            Some(Value::String(text)) if text.chars().count() > max => Err(MetadataProblem::TooLong { field: field.into(), max }),
            Some(Value::String(text)) => Ok(text.trim().to_owned()),
            Some(_) => Err(MetadataProblem::WrongType { field: field.into(), expected: "a string" }),
        }
    };
    let name = text("name", MAX_NAME)?;
    let description = text("description", MAX_DESCRIPTION)?;
    let image = text("image", 2_048)?;
    let properties = match object.get("attributes") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) if items.len() > MAX_ATTRIBUTES => return Err(MetadataProblem::TooManyAttributes),
        Some(Value::Array(items)) => items.iter().enumerate().map(|(i, item)| attribute(i, item)).collect::<Result<_, _>>()?,
        Some(_) => return Err(MetadataProblem::WrongType { field: "attributes".into(), expected: "an array of {trait_type, value}" }),
    };
    if name.is_empty() && image.is_empty() {
        return Err(MetadataProblem::Empty);
    }
    Ok(Erc721 { name, description, image, properties })
}

/// One `{trait_type, value}` as a property.
fn attribute(i: usize, item: &Value) -> Result<Property, MetadataProblem> {
    let Value::Object(item) = item else {
        return Err(MetadataProblem::WrongType { field: format!("attributes[{i}]"), expected: "an object {trait_type, value}" });
    };
    let key = match item.get("trait_type") {
        Some(Value::String(key)) if !key.trim().is_empty() => key.trim().to_owned(),
        _ => return Err(MetadataProblem::WrongType { field: format!("attributes[{i}].trait_type"), expected: "a non-empty string" }),
    };
    let value = match item.get("value") {
        Some(Value::String(value)) => value.trim().to_owned(),
        Some(Value::Number(number)) => number.to_string(),
        Some(Value::Bool(flag)) => flag.to_string(),
        _ => {
            return Err(MetadataProblem::WrongType { field: format!("attributes[{i}].value"), expected: "a string, number or boolean" });
        }
    };
    for (field, text) in [("trait_type", &key), ("value", &value)] {
        if text.chars().count() > MAX_TRAIT {
            return Err(MetadataProblem::TooLong { field: format!("attributes[{i}].{field}"), max: MAX_TRAIT });
        }
    }
    Ok(Property { key, value })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erc721_metadata_is_read_with_its_attributes() {
        let json = br#"{"name":" Fox ","description":"A fox","image":"ipfs://bafy","attributes":[
            {"trait_type":"Fur","value":"Red"},{"trait_type":"Level","value":3},{"trait_type":"Shiny","value":true}],"extra":1}"#;
        let metadata = parse(json).unwrap();
        assert_eq!(metadata.name, "Fox");
        assert_eq!(metadata.image, "ipfs://bafy");
        let pairs: Vec<_> = metadata.properties.iter().map(|p| (p.key.as_str(), p.value.as_str())).collect();
        assert_eq!(pairs, [("Fur", "Red"), ("Level", "3"), ("Shiny", "true")]);
    }

    #[test]
    fn wrong_types_are_refused_with_the_field() {
        assert!(matches!(parse(b"{not json"), Err(MetadataProblem::InvalidJson(_))));
        assert_eq!(parse(b"[1]"), Err(MetadataProblem::NotAnObject));
        assert_eq!(parse(br#"{"name":5}"#).unwrap_err().to_string(), "name must be a string");
        assert_eq!(parse(br#"{"name":"a","image":["x"]}"#).unwrap_err().to_string(), "image must be a string");
        assert_eq!(
            parse(br#"{"name":"a","attributes":{"Fur":"Red"}}"#).unwrap_err().to_string(),
            "attributes must be an array of {trait_type, value}"
        );
        assert_eq!(
            parse(br#"{"name":"a","attributes":[{"trait_type":"Fur","value":{"x":1}}]}"#).unwrap_err().to_string(),
            "attributes[0].value must be a string, number or boolean"
        );
        assert_eq!(
            parse(br#"{"name":"a","attributes":[{"value":"Red"}]}"#).unwrap_err().to_string(),
            "attributes[0].trait_type must be a non-empty string"
        );
        assert_eq!(parse(br#"{"description":"only words"}"#), Err(MetadataProblem::Empty));
        let long = format!(r#"{{"name":"{}"}}"#, "x".repeat(MAX_NAME + 1));
        assert_eq!(parse(long.as_bytes()), Err(MetadataProblem::TooLong { field: "name".into(), max: MAX_NAME }));
    }

    #[test]
    fn events_keep_their_shape_and_stream() {
        let at = DateTime::from_timestamp(1_767_225_600, 0).unwrap();
        let event = MetadataEvent::TokenMetadataFailed {
            chain_id: 80001,
            token_id: "7".into(),
            token_uri: "ipfs://bafy".into(),
            reason: "not valid JSON".into(),
            attempt: 2,
            retry_at: None,
            at,
        };
        assert_eq!(event.stream_id(), "nft-metadata-80001-7");
        let json = serde_json::to_value(&event).unwrap();
        assert_eq!(json["type"], "TokenMetadataFailed");
        assert_eq!(json["tokenUri"], "ipfs://bafy");
        assert_eq!(serde_json::from_value::<MetadataEvent>(json).unwrap(), event);
    }
}
