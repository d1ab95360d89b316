//! The auction clock: time passing is no chain fact, so the elected process looks every
//! [`TICK`] for open auctions with bids that end within the hour or whose time is up unsettled,
//! and appends the clock's word once for each (`domain::notices::AuctionClockEvent`); the
//! notices model tells the bidders and the owner.

use std::{collections::HashSet, time::Duration};

use domain::notices::AuctionClockEvent;
use sqlx::Row;

use super::Node;

/// How often the clock looks.
pub const TICK: Duration = Duration::from_secs(30);
/// "Ending soon": within this many seconds.
const SOON: i64 = 3_600;
/// Auctions whose time was up longer ago than this are left alone (a server back after a long
/// downtime does not tell of every old auction).
const STALE: i64 = 86_400;

/// Starts the clock for as long as the process runs.
pub fn spawn(state: Node) {
    tokio::spawn(async move {
        let mut told = HashSet::new();
        loop {
            if state.leading.as_ref().is_none_or(|leading| *leading.borrow())
                && let Err(err) = tick(&state, &mut told, chrono::Utc::now().timestamp()).await
            {
                tracing::warn!(%err, "the auction clock could not look");
            }
            tokio::time::sleep(TICK).await;
        }
    });
}

/// Appends what is due at `now` (Unix seconds) and not appended yet (by this process: `told`;
/// by any: the event's own stream).
pub async fn tick(state: &Node, told: &mut HashSet<String>, now: i64) -> anyhow::Result<usize> {
    let rows = sqlx::query(
        "SELECT nft_id, auction_id, end_time FROM nfts WHERE sale_type = 'AUCTION' AND burned = 0 \
         AND highest_bidder IS NOT NULL AND end_time > $1 AND end_time <= $2",
    )
    .bind(now - STALE)
    .bind(now + SOON)
    .fetch_all(&state.read.pool())
    .await?;
    let mut appended = 0;
    for row in rows {
        let (nft_id, auction_id, end_time): (String, String, i64) = (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
        let event = if end_time <= now {
            AuctionClockEvent::AuctionTimeUp { nft_id, auction_id, end_time }
        } else {
            AuctionClockEvent::AuctionEndingSoon { nft_id, auction_id, end_time }
        };
        if told.insert(event.stream_id()) && event.record(state.store.as_ref()).await? {
            appended += 1;
        }
    }
    Ok(appended)
}
