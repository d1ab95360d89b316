//! Metadata of tokens minted elsewhere: `nft_metadata` (each minted token's fetch status) and,
//! for tokens whose creator did not describe them, their `nft_details` row (`source =
//! 'metadata'`), where the NFT page and the browse index read titles, images and properties.
//!
//! Every event sets a token's whole status (the last one wins), so a batch keeps each token's
//! last status in memory and writes it with one multi-row update; a mint inserts its row first.
//! Nothing is read back: the creator's details win by the upsert's own condition.

use std::collections::BTreeMap;

use async_trait::async_trait;
use domain::{RecordedEvent, chain::ChainEvent, metadata::MetadataEvent};

use crate::{
    ProjectionError, ReadModel,
    read_model::{Prefetched, chain_of},
    sql::{self, Conn, Value},
};

/// The metadata tables.
#[derive(Default)]
pub struct TokenMetadata {
    /// What [`ReadModel::prefetch`] decoded (on the read-ahead's thread).
    decoded: Prefetched<Decoded>,
}

/// An event this model folds, decoded.
enum Decoded {
    /// A mint: its chain, token and token URI.
    Minted(u64, String, String),
    Metadata(MetadataEvent),
}

fn decode(event: &RecordedEvent) -> Result<Decoded, ProjectionError> {
    if event.event_type == "NftMinted" {
        let ChainEvent::NftMinted { token_id, token_uri, .. } =
            event.payload::<ChainEvent>().map_err(|e| ProjectionError::malformed(event, e.to_string()))?
        else {
            return Err(ProjectionError::malformed(event, "not a mint"));
        };
        return Ok(Decoded::Minted(chain_of(event)?, token_id, token_uri));
    }
    Ok(Decoded::Metadata(event.payload().map_err(|e| ProjectionError::malformed(event, e.to_string()))?))
}

/// A token's status after an event.
struct Status {
    status: &'static str,
    reason: String,
    attempts: i64,
    next_attempt_at: i64,
    updated_at: i64,
}

/// Details read from a token URI.
struct Details {
    title: String,
    description: String,
    file: String,
    metadata_url: String,
    properties: String,
}

const ROWS: [&str; 9] = ["nft_id", "chain_id", "token_id", "token_uri", "status", "reason", "attempts", "next_attempt_at", "updated_at"];
const STATUS: [&str; 6] = ["nft_id", "status", "reason", "attempts", "next_attempt_at", "updated_at"];
const DETAILS: [&str; 9] =
    ["nft_id", "title", "description", "category_id", "file", "metadata_url", "properties", "creator_user_id", "source"];

#[async_trait]
impl ReadModel for TokenMetadata {
    fn handles(&self, event_type: &str) -> bool {
        event_type == "NftMinted" || MetadataEvent::TYPES.contains(&event_type)
    }

    fn prefetch(&self, events: &[&RecordedEvent]) {
        self.decoded.put(events, decode);
    }

    async fn apply(&self, conn: &mut Conn<'_>, events: &[&RecordedEvent]) -> Result<(), ProjectionError> {
        let mut minted: BTreeMap<String, (i64, String, String)> = BTreeMap::new();
        let mut statuses: BTreeMap<String, Status> = BTreeMap::new();
        let mut details: BTreeMap<String, (i64, Details)> = BTreeMap::new();
        for (event, decoded) in self.decoded.take(events, decode)? {
            let position = event.position as i64;
            let parsed = match decoded {
                Decoded::Minted(chain_id, token_id, token_uri) => {
                    minted.entry(crate::nft::nft_id(chain_id, &token_id)).or_insert((chain_id as i64, token_id, token_uri));
                    continue;
                }
                Decoded::Metadata(parsed) => parsed,
            };
            let (chain_id, token_id) = parsed.token();
            let id = crate::nft::nft_id(chain_id, token_id);
            let status = match parsed {
                MetadataEvent::TokenMetadataRefreshRequested { at, .. } => {
                    Status { status: "PENDING", reason: String::new(), attempts: 0, next_attempt_at: 0, updated_at: at.timestamp() }
                }
                MetadataEvent::TokenMetadataFailed { reason, attempt, retry_at, at, .. } => Status {
                    status: if retry_at.is_some() { "RETRYING" } else { "FAILED" },
                    reason,
                    attempts: attempt.into(),
                    next_attempt_at: retry_at.map_or(0, |t| t.timestamp()),
                    updated_at: at.timestamp(),
                },
                MetadataEvent::TokenMetadataFetched { token_uri, title, description, image, properties, attempt, at, .. } => {
                    let properties = serde_json::to_string(&properties).unwrap_or_else(|_| "[]".into());
                    let row = Details { title, description, file: image, metadata_url: token_uri, properties };
                    details.insert(id.clone(), (position, row));
                    Status {
                        status: "FETCHED",
                        reason: String::new(),
                        attempts: attempt.into(),
                        next_attempt_at: 0,
                        updated_at: at.timestamp(),
                    }
                }
            };
            statuses.insert(id, status);
        }

        let rows: Vec<Vec<Value<'_>>> = minted
            .iter()
            .map(|(id, (chain_id, token_id, uri))| {
                vec![id.into(), (*chain_id).into(), token_id.into(), uri.into(), "PENDING".into(), "".into(), 0.into(), 0.into(), 0.into()]
            })
            .collect();
        sql::insert(conn, "nft_metadata", &ROWS, "ON CONFLICT (nft_id) DO NOTHING", &rows).await?;

        let rows: Vec<Vec<Value<'_>>> = statuses
            .iter()
            .map(|(id, s)| {
                vec![id.into(), s.status.into(), (&s.reason).into(), s.attempts.into(), s.next_attempt_at.into(), s.updated_at.into()]
            })
            .collect();
        sql::update(conn, "nft_metadata", &STATUS, &rows).await?;

        let rows: Vec<Vec<Value<'_>>> = details
            .iter()
            .map(|(id, (_, d))| {
                vec![
                    id.into(),
                    (&d.title).into(),
                    (&d.description).into(),
                    "".into(),
                    (&d.file).into(),
                    (&d.metadata_url).into(),
                    (&d.properties).into(),
                    Value::Opt(None),
                    "metadata".into(),
                ]
            })
            .collect();
        // The creator's own details win: a 'creator' row is left as it is.
        let tail = format!("{} WHERE nft_details.source = 'metadata'", sql::upsert(&["nft_id"], &DETAILS));
        sql::insert(conn, "nft_details", &DETAILS, &tail, &rows).await?;
        crate::nft::mark_changed(conn, details.iter().map(|(id, (position, _))| (id.as_str(), *position))).await?;
        Ok(())
    }
}
