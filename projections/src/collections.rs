//! Collections: `collections`, `collection_nfts` and `collection_likes`, folded from the
//! `collection-<uuid>` streams.
//!
//! Collections change when a user acts (a few events a minute at most), so each event is one or
//! two statements. None reads the tables: a like recounts `total_likes` in SQL, so the fold
//! works unchanged while a fresh generation fills (see [`ReadModel::remember`]).
//!
//! A change of membership stamps the tokens it moves in `nft_changes`, so the browse index
//! (which keeps each collection's members, for rarity) follows it.

use async_trait::async_trait;
use domain::{RecordedEvent, collections::CollectionEvent};

use crate::{
    ProjectionError, ReadModel,
    sql::{self, Conn, Value},
};

/// The collections tables.
pub struct Collections;

#[async_trait]
impl ReadModel for Collections {
    fn handles(&self, event_type: &str) -> bool {
        CollectionEvent::TYPES.contains(&event_type)
    }

    async fn apply(&self, conn: &mut Conn<'_>, events: &[&RecordedEvent]) -> Result<(), ProjectionError> {
        for event in events {
            apply_one(conn, event).await?;
        }
        Ok(())
    }
}

/// Recounts a collection's likes.
const RECOUNT: &str =
    "UPDATE collections SET total_likes = (SELECT COUNT(*) FROM collection_likes l WHERE l.collection_id = $1) WHERE collection_id = $1";

/// Stamps every member of collection `$1` as changed at position `$2` (a stamp only moves
/// forward, as [`crate::nft::mark_changed`] keeps it).
const STAMP_MEMBERS: &str = "INSERT INTO nft_changes (nft_id, position) SELECT nft_id, $2 FROM collection_nfts WHERE collection_id = $1 \
    ON CONFLICT (nft_id) DO UPDATE SET position = excluded.position WHERE nft_changes.position < excluded.position";

async fn apply_one(conn: &mut Conn<'_>, event: &RecordedEvent) -> Result<(), ProjectionError> {
    let id = event
        .stream_id
        .strip_prefix("collection-")
        .ok_or_else(|| ProjectionError::malformed(event, "not in a collection-<uuid> stream"))?
        .to_owned();
    let collection = Value::from(&id);
    let position = event.position as i64;
    let parsed: CollectionEvent = event.payload().map_err(|e| ProjectionError::malformed(event, e.to_string()))?;
    match parsed {
        CollectionEvent::CollectionCreated { creator_user_id, title, image, at, .. } => {
            let (creator, lower) = (creator_user_id.to_string(), title.to_lowercase());
            sql::execute(
                conn,
                "INSERT INTO collections (collection_id, creator_user_id, title, title_lower, image, created_at, updated_at, total_likes) \
                 VALUES ($1, $2, $3, $4, $5, $6, $6, 0)",
                &[collection, (&creator).into(), (&title).into(), (&lower).into(), (&image).into(), at.timestamp().into()],
            )
            .await?;
        }
        CollectionEvent::CollectionUpdated { title, image, at } => {
            let lower = title.to_lowercase();
            sql::execute(
                conn,
                "UPDATE collections SET title = $2, title_lower = $3, image = $4, updated_at = $5 WHERE collection_id = $1",
                &[collection, (&title).into(), (&lower).into(), (&image).into(), at.timestamp().into()],
            )
            .await?;
        }
        CollectionEvent::CollectionDeleted { .. } => {
            // The members first, while the rows that name them are there.
            sql::execute(conn, STAMP_MEMBERS, &[collection, position.into()]).await?;
            for table in ["collection_nfts", "collection_likes", "collections"] {
                sql::execute(conn, &format!("DELETE FROM {table} WHERE collection_id = $1"), &[collection]).await?;
            }
        }
        CollectionEvent::NftAddedToCollection { nft_id, at } => {
            sql::execute(
                conn,
                "INSERT INTO collection_nfts (collection_id, nft_id, added_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                &[collection, (&nft_id).into(), at.timestamp().into()],
            )
            .await?;
            crate::nft::mark_changed(conn, [(nft_id.as_str(), position)]).await?;
        }
        CollectionEvent::NftRemovedFromCollection { nft_id, .. } => {
            sql::execute(conn, "DELETE FROM collection_nfts WHERE collection_id = $1 AND nft_id = $2", &[collection, (&nft_id).into()])
                .await?;
            crate::nft::mark_changed(conn, [(nft_id.as_str(), position)]).await?;
        }
        CollectionEvent::CollectionLiked { user_id, at } => {
            let user = user_id.to_string();
            sql::execute(
                conn,
                "INSERT INTO collection_likes (collection_id, user_id, liked_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                &[collection, (&user).into(), at.timestamp().into()],
            )
            .await?;
            sql::execute(conn, RECOUNT, &[collection]).await?;
        }
        CollectionEvent::CollectionUnliked { user_id, .. } => {
            let user = user_id.to_string();
            sql::execute(conn, "DELETE FROM collection_likes WHERE collection_id = $1 AND user_id = $2", &[collection, (&user).into()])
                .await?;
            sql::execute(conn, RECOUNT, &[collection]).await?;
        }
    }
    Ok(())
}
