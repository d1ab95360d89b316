//! `sale_holds`: the stolen-item holds on NFTs' sales, folded from the `SaleHeld` and
//! `SaleReleased` facts of the `nft-{chain}-{token}` streams (see
//! `migrations/*/0016_sale_holds.sql`).
//!
//! One row per held token: a hold or a renewal writes it (the latest end and evidence), a release
//! deletes it. An expired hold keeps its row and reads as not held: [`crate::queries::nft`]
//! compares its end with the time of the query. Each fact is one statement that never reads the
//! table back, so a fresh generation fills it in the pipeline like the offers. Every fact stamps
//! its NFT in `nft_changes`, so the NFT's page and cards hear of it over the stream.
//!
//! A hold and a release are also public decisions of the moderation record
//! (`moderation_decisions`, `HOLD` and `RELEASE`): the moderator is the wallet that signed, its
//! user's name where it is linked; the record says whether a hold came with evidence, not the
//! evidence's hash (a police report's reference is the victim's, not the public's).

use async_trait::async_trait;
use domain::{RecordedEvent, chain::ChainEvent};

use crate::{
    ProjectionError, ReadModel,
    read_model::nft_of,
    sql::{self, Conn, Value},
};

/// The holds table.
#[derive(Default)]
pub struct SaleHolds;

const COLUMNS: [&str; 6] = ["nft_id", "held_until", "evidence", "moderator", "held_at", "tx_hash"];

#[async_trait]
impl ReadModel for SaleHolds {
    fn handles(&self, event_type: &str) -> bool {
        matches!(event_type, "SaleHeld" | "SaleReleased")
    }

    async fn apply(&self, conn: &mut Conn<'_>, events: &[&RecordedEvent]) -> Result<(), ProjectionError> {
        let mut touched: Vec<(&str, i64)> = Vec::with_capacity(events.len());
        for event in events {
            let nft_id = nft_of(event)?;
            touched.push((nft_id, event.position as i64));
            match event.payload().map_err(|e| ProjectionError::malformed(event, e.to_string()))? {
                ChainEvent::SaleHeld { until, evidence, moderator, origin, .. } => {
                    let row: Vec<Value<'_>> = vec![
                        nft_id.into(),
                        until.into(),
                        (&evidence).into(),
                        (&moderator).into(),
                        origin.block_time.into(),
                        (&origin.tx_hash).into(),
                    ];
                    sql::insert(conn, "sale_holds", &COLUMNS, &sql::upsert(&["nft_id"], &COLUMNS), &[row]).await?;
                    let until = chrono::DateTime::<chrono::Utc>::from_timestamp(until, 0).unwrap_or_default();
                    let with = if evidence.is_some() { ", with evidence" } else { "" };
                    let reason = format!("Sale held until {}{with}", until.format("%Y-%m-%d %H:%M UTC"));
                    decided(conn, event.position as i64, nft_id, "HOLD", &moderator, &reason, origin.block_time).await?;
                }
                ChainEvent::SaleReleased { moderator, origin, .. } => {
                    sql::execute(conn, "DELETE FROM sale_holds WHERE nft_id = $1", &[nft_id.into()]).await?;
                    decided(conn, event.position as i64, nft_id, "RELEASE", &moderator, "Sale hold released", origin.block_time).await?;
                }
                _ => return Err(ProjectionError::malformed(event, "not a hold fact")),
            }
        }
        crate::nft::mark_changed(conn, touched).await
    }

    async fn forget_stream(&self, conn: &mut Conn<'_>, stream_id: &str, _at: i64) -> Result<(), ProjectionError> {
        let Some(nft_id) = stream_id.strip_prefix("nft-") else {
            return Ok(());
        };
        sql::execute(conn, "DELETE FROM sale_holds WHERE nft_id = $1", &[nft_id.into()]).await?;
        let sql = "DELETE FROM moderation_decisions WHERE target_kind = 'nft' AND target_id = $1 AND decision IN ('HOLD', 'RELEASE')";
        sql::execute(conn, sql, &[nft_id.into()]).await
    }
}

/// A hold or release in the public record.
async fn decided(
    conn: &mut Conn<'_>,
    position: i64,
    nft_id: &str,
    decision: &str,
    moderator: &str,
    reason: &str,
    at: i64,
) -> Result<(), ProjectionError> {
    let sql = "INSERT INTO moderation_decisions (position, target_kind, target_id, decision, moderator_id, reason, reports, first_report_at, at) \
               VALUES ($1, 'nft', $2, $3, $4, $5, 0, NULL, $6) ON CONFLICT (position) DO NOTHING";
    sql::execute(conn, sql, &[position.into(), nft_id.into(), decision.into(), moderator.into(), reason.into(), at.into()]).await
}
