//! Metadata of tokens minted elsewhere: a token's fetch status for its page, and what the
//! fetcher has to do.

use sqlx::Row;

use crate::{ProjectionError, ReadDb};

/// A token's metadata as its page shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetadataStatus {
    /// Chain id.
    pub chain_id: u64,
    /// Token id.
    pub token_id: String,
    /// The token URI on chain.
    pub token_uri: String,
    /// `CREATOR` (described by its creator through this UI: nothing is fetched), `PENDING`,
    /// `RETRYING`, `FETCHED` or `FAILED`.
    pub status: String,
    /// Why the last attempt failed (empty otherwise).
    pub reason: String,
    /// Attempts since the mint or the last refresh.
    pub attempts: i64,
    /// When the next attempt is due (Unix seconds), while `RETRYING`.
    pub next_attempt_at: Option<i64>,
    /// The last change (Unix seconds; 0 before any attempt).
    pub updated_at: i64,
}

/// The status of `nft_id`, `None` if no such token was minted.
pub async fn status(db: &ReadDb, nft_id: &str) -> Result<Option<MetadataStatus>, ProjectionError> {
    let row = sqlx::query(
        "SELECT n.chain_id, n.token_id, n.token_uri, m.status, m.reason, m.attempts, m.next_attempt_at, m.updated_at, d.source \
         FROM nfts n LEFT JOIN nft_metadata m ON m.nft_id = n.nft_id LEFT JOIN nft_details d ON d.nft_id = n.nft_id \
         WHERE n.nft_id = $1",
    )
    .bind(nft_id)
    .fetch_optional(&db.reader().await)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let source: Option<String> = row.try_get(8)?;
    let status: Option<String> = row.try_get(3)?;
    let status = if source.as_deref() == Some("creator") { "CREATOR".to_owned() } else { status.unwrap_or_else(|| "PENDING".into()) };
    let next: i64 = row.try_get::<Option<i64>, _>(6)?.unwrap_or(0);
    Ok(Some(MetadataStatus {
        chain_id: row.try_get::<i64, _>(0)? as u64,
        token_id: row.try_get(1)?,
        token_uri: row.try_get(2)?,
        next_attempt_at: (status == "RETRYING").then_some(next),
        status,
        reason: row.try_get::<Option<String>, _>(4)?.unwrap_or_default(),
        attempts: row.try_get::<Option<i64>, _>(5)?.unwrap_or(0),
        updated_at: row.try_get::<Option<i64>, _>(7)?.unwrap_or(0),
    }))
}

/// A token whose metadata is to be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Due {
    /// `{chain}-{token}`.
    pub nft_id: String,
    /// Chain id.
    pub chain_id: u64,
    /// Token id.
    pub token_id: String,
    /// What to read.
    pub token_uri: String,
    /// Attempts so far.
    pub attempts: i64,
    /// Never attempted nor asked for again since its mint: the fetcher may wait a moment for
    /// its creator's details.
    pub fresh: bool,
}

/// Up to `limit` tokens due at `now` (Unix seconds): pending, or retrying and due; minted and
/// not burned, and not described by their creator. Oldest due first.
pub async fn due(db: &ReadDb, now: i64, limit: i64) -> Result<Vec<Due>, ProjectionError> {
    let rows = sqlx::query(
        "SELECT m.nft_id, m.chain_id, m.token_id, m.token_uri, m.attempts, m.updated_at FROM nft_metadata m \
         JOIN nfts n ON n.nft_id = m.nft_id AND n.burned = 0 \
         LEFT JOIN nft_details d ON d.nft_id = m.nft_id AND d.source = 'creator' \
         WHERE m.status IN ('PENDING', 'RETRYING') AND m.next_attempt_at <= $1 AND d.nft_id IS NULL \
         ORDER BY m.next_attempt_at, m.nft_id LIMIT $2",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(&db.reader().await)
    .await?;
    rows.iter()
        .map(|row| {
            Ok(Due {
                nft_id: row.try_get(0)?,
                chain_id: row.try_get::<i64, _>(1)? as u64,
                token_id: row.try_get(2)?,
                token_uri: row.try_get(3)?,
                attempts: row.try_get(4)?,
                fresh: row.try_get::<i64, _>(5)? == 0,
            })
        })
        .collect()
}
