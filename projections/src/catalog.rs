//! Off-chain NFT facts: `nft_details` and `categories`.
//!
//! Both are last-writer-wins per key, so a batch keeps each key's last value in memory and
//! writes it with one multi-row upsert.

use std::collections::BTreeMap;

use async_trait::async_trait;
use domain::{RecordedEvent, catalog::CatalogEvent};

use crate::{
    ProjectionError, ReadModel,
    read_model::Prefetched,
    sql::{self, Conn, Value},
};

/// The catalog tables.
#[derive(Default)]
pub struct Catalog {
    /// What [`ReadModel::prefetch`] decoded.
    decoded: Prefetched<CatalogEvent>,
}

fn decode(event: &RecordedEvent) -> Result<CatalogEvent, ProjectionError> {
    event.payload().map_err(|e| ProjectionError::malformed(event, e.to_string()))
}

/// An `nft_details` row.
struct Details {
    title: String,
    description: String,
    category_id: String,
    file: String,
    metadata_url: String,
    properties: String,
    creator_user_id: Option<String>,
}

/// The columns written; `source` is always `'creator'`: the creator's details win over metadata
/// read from the token URI (see `metadata.rs`).
const DETAILS: [&str; 9] =
    ["nft_id", "title", "description", "category_id", "file", "metadata_url", "properties", "creator_user_id", "source"];

#[async_trait]
impl ReadModel for Catalog {
    fn handles(&self, event_type: &str) -> bool {
        matches!(event_type, "NftDetailsRecorded" | "CategoryAdded")
    }

    fn prefetch(&self, events: &[&RecordedEvent]) {
        self.decoded.put(events, decode);
    }

    async fn apply(&self, conn: &mut Conn<'_>, events: &[&RecordedEvent]) -> Result<(), ProjectionError> {
        // Each token's last details; each category's first position (its display order) and last name.
        let mut details = BTreeMap::new();
        let mut categories: BTreeMap<String, (String, i64)> = BTreeMap::new();
        let parsed = self.decoded.take(events, decode)?;
        for (event, parsed) in parsed {
            let position = event.position as i64;
            match parsed {
                CatalogEvent::NftDetailsRecorded {
                    chain_id,
                    token_id,
                    title,
                    description,
                    category_id,
                    file,
                    metadata_url,
                    properties,
                    creator_user_id,
                } => {
                    let properties = serde_json::to_string(&properties).unwrap_or_else(|_| "[]".into());
                    let creator_user_id = creator_user_id.map(|id| id.to_string());
                    let row = Details { title, description, category_id, file, metadata_url, properties, creator_user_id };
                    details.insert(crate::nft::nft_id(chain_id, &token_id), (position, row));
                }
                CatalogEvent::CategoryAdded { id, name } => {
                    categories.entry(id).and_modify(|c| c.0.clone_from(&name)).or_insert((name, position));
                }
            }
        }

        let rows: Vec<Vec<Value<'_>>> = details
            .iter()
            .map(|(id, (_, d))| {
                vec![
                    id.into(),
                    (&d.title).into(),
                    (&d.description).into(),
                    (&d.category_id).into(),
                    (&d.file).into(),
                    (&d.metadata_url).into(),
                    (&d.properties).into(),
                    (&d.creator_user_id).into(),
                    "creator".into(),
                ]
            })
            .collect();
        sql::insert(conn, "nft_details", &DETAILS, &sql::upsert(&["nft_id"], &DETAILS), &rows).await?;
        crate::nft::mark_changed(conn, details.iter().map(|(id, (position, _))| (id.as_str(), *position))).await?;

        let rows: Vec<Vec<Value<'_>>> =
            categories.iter().map(|(id, (name, position))| vec![id.into(), name.into(), (*position).into()]).collect();
        sql::insert(conn, "categories", &["id", "name", "position"], "ON CONFLICT (id) DO UPDATE SET name = excluded.name", &rows).await?;
        Ok(())
    }
}
