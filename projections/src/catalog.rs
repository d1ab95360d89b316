//! Off-chain NFT facts: `nft_details` (with its search index) and `categories`.

use async_trait::async_trait;
use domain::{RecordedEvent, catalog::CatalogEvent};
use sqlx::AnyConnection;

use crate::{ProjectionError, ReadModel};

/// The catalog tables.
pub struct Catalog;

#[async_trait]
impl ReadModel for Catalog {
    fn handles(&self, event_type: &str) -> bool {
        matches!(event_type, "NftDetailsRecorded" | "CategoryAdded")
    }

    async fn apply(&self, conn: &mut AnyConnection, event: &RecordedEvent) -> Result<(), ProjectionError> {
        let parsed: CatalogEvent = event.payload().map_err(|e| ProjectionError::Malformed {
            position: event.position,
            event_type: event.event_type.clone(),
            reason: e.to_string(),
        })?;
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
                let nft = crate::nft::nft_id(chain_id, &token_id);
                let properties = serde_json::to_string(&properties).unwrap_or_else(|_| "[]".into());
                sqlx::query(
                    "INSERT INTO nft_details (nft_id, title, description, category_id, file, metadata_url, properties, creator_user_id) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
                     ON CONFLICT (nft_id) DO UPDATE SET title = excluded.title, description = excluded.description, \
                     category_id = excluded.category_id, file = excluded.file, metadata_url = excluded.metadata_url, \
                     properties = excluded.properties, creator_user_id = excluded.creator_user_id",
                )
                .bind(&nft)
                .bind(&title)
                .bind(&description)
                .bind(&category_id)
                .bind(&file)
                .bind(&metadata_url)
                .bind(&properties)
                .bind(creator_user_id.map(|id| id.to_string()))
                .execute(&mut *conn)
                .await?;
                // Postgres indexes a generated column; SQLite keeps an FTS5 table in step.
                if conn.backend_name() == "SQLite" {
                    sqlx::query("DELETE FROM nft_search WHERE nft_id = $1").bind(&nft).execute(&mut *conn).await?;
                    sqlx::query("INSERT INTO nft_search (nft_id, title, description) VALUES ($1, $2, $3)")
                        .bind(&nft)
                        .bind(&title)
                        .bind(&description)
                        .execute(&mut *conn)
                        .await?;
                }
            }
            CatalogEvent::CategoryAdded { id, name } => {
                sqlx::query(
                    "INSERT INTO categories (id, name, position) VALUES ($1, $2, $3) \
                     ON CONFLICT (id) DO UPDATE SET name = excluded.name",
                )
                .bind(&id)
                .bind(&name)
                .bind(event.position as i64)
                .execute(&mut *conn)
                .await?;
            }
        }
        Ok(())
    }
}
