//! Trending: one score, from the read tables' recent sales, bids and likes, with time decay.
//!
//! score(x, now) = Σ over x's events e of weight(e) · exp(−(now − t(e)) / τ)
//!
//! * τ = [`TAU_SECONDS`] (3 days: an event's weight halves every τ·ln 2 ≈ 50 hours);
//! * events older than [`WINDOW_SECONDS`] (10 τ, where the factor is below 0.00005) are not read;
//! * an NFT's events: each sale, [`SALE_WEIGHT`] plus its price in MATIC (its volume); each bid,
//!   [`BID_WEIGHT`]; each standing like, [`LIKE_WEIGHT`] (a like taken back no longer counts);
//! * a seller's: each sale by one of their wallets, [`SALE_WEIGHT`] plus the price in MATIC;
//! * a creator's: each sale of an NFT they created, [`SALE_WEIGHT`] plus the price and the
//!   royalties paid in MATIC, and each standing like of one of their NFTs, [`LIKE_WEIGHT`].
//!
//! `t(e)` is the block time of a sale or bid and the time of a like. Every term has the factor
//! exp(−now/τ) in common, so the order of a list does not depend on when it is asked (only the
//! window does), and the same read tables (a replay gives the same) give the same lists.
//! Among equal scores (no recent activity) NFTs keep explore's popularity order, then the
//! newest; sellers the most sales, creators the most creations.

use std::{collections::HashMap, sync::Arc};

use sqlx::Row;

use domain::Position;

pub use super::scores::Scores;
use super::{
    Page, Paged,
    kept::Kept,
    placeholders,
    scores::{RankedPerson, Scored},
};
use crate::ReadDb;

/// The decay constant τ, in seconds (3 days).
pub const TAU_SECONDS: f64 = 3.0 * 86_400.0;
/// Events older than this (10 τ) are not read.
pub const WINDOW_SECONDS: i64 = 30 * 86_400;
/// A sale's weight before its volume.
pub const SALE_WEIGHT: f64 = 3.0;
/// A bid's weight.
pub const BID_WEIGHT: f64 = 1.0;
/// A like's weight.
pub const LIKE_WEIGHT: f64 = 1.0;

/// The decay factor of an event at `at` seen at `now` (an event a little ahead of the clock,
/// a block time, counts as now).
pub fn decay(now: i64, at: i64) -> f64 {
    (-((now - at).max(0) as f64) / TAU_SECONDS).exp()
}

/// Wei (decimal text) in MATIC, as a float: a weight, not an amount anyone is paid.
fn matic(wei: &str) -> f64 {
    wei.parse::<f64>().map(|w| w / 1e18).unwrap_or(0.0)
}

/// How long computed scores are used again, in seconds, while the read tables stay the same
/// (generation and checkpoint). The order of a list depends on the clock only through the window
/// (every score decays alike), so a list is at most this late in dropping an event that left the
/// window, and a shown score at most this old: a factor of at least e^(−10 s / 3 days) = 0.99996
/// of the current one.
pub const SCORES_KEPT_SECONDS: i64 = 10;

/// The scores at `now`, or ones computed at most [`SCORES_KEPT_SECONDS`] before from the same read
/// tables (generation and position `at`, the position the caller reads at): the window's events
/// are read once for every page, sale type and list asked meanwhile (with a third of 100,000
/// NFTs liked in the window, reading them costs a few hundred ms).
async fn recent_scores(db: &ReadDb, now: i64, at: Position) -> Result<Arc<Scored>, sqlx::Error> {
    // Kept for every request: computed on the primary (`db.pool()`), never a replica.
    let generation = db.generation();
    let mut kept = db.browse().trending_scores.lock().await;
    if let Some(scored) = kept.as_ref().and_then(|k| k.at(&generation, at)).filter(|s| (s.at..s.at + SCORES_KEPT_SECONDS).contains(&now)) {
        return Ok(scored.clone());
    }
    // Read at `at` or later: scores kept under `at` reflect that position or a later one.
    let scores = Arc::new(scores(db, now).await?);
    let fresh = Arc::new(Scored { at: now, scores, people: Default::default() });
    *kept = Some(Kept::new(generation, at, fresh.clone()));
    Ok(fresh)
}

/// Reads the window's sales, bids and likes and adds them up.
pub async fn scores(db: &ReadDb, now: i64) -> Result<Scores, sqlx::Error> {
    // The primary: the scores are kept for every request under the primary's checkpoint.
    let pool = db.pool();
    let since = now - WINDOW_SECONDS;
    let mut scores = Scores::default();
    let sales = sqlx::query(
        "SELECT s.nft_id, s.seller, s.price, s.royalties, s.at, n.creator FROM sales s JOIN nfts n ON n.nft_id = s.nft_id WHERE s.at >= $1",
    )
    .bind(since)
    .fetch_all(&pool)
    .await?;
    for row in &sales {
        let (nft, seller, creator): (String, String, String) = (row.try_get(0)?, row.try_get(1)?, row.try_get(5)?);
        let (price, royalties) = (matic(&row.try_get::<String, _>(2)?), matic(&row.try_get::<String, _>(3)?));
        let factor = decay(now, row.try_get(4)?);
        *scores.nfts.entry(nft).or_default() += (SALE_WEIGHT + price) * factor;
        *scores.sellers.entry(seller).or_default() += (SALE_WEIGHT + price) * factor;
        *scores.creators.entry(creator).or_default() += (SALE_WEIGHT + price + royalties) * factor;
    }
    let bids = sqlx::query("SELECT nft_id, created_at FROM bids WHERE created_at >= $1").bind(since).fetch_all(&pool).await?;
    for row in &bids {
        *scores.nfts.entry(row.try_get(0)?).or_default() += BID_WEIGHT * decay(now, row.try_get(1)?);
    }
    let likes = sqlx::query("SELECT l.nft_id, l.at, n.creator FROM likes l JOIN nfts n ON n.nft_id = l.nft_id WHERE l.at >= $1")
        .bind(since)
        .fetch_all(&pool)
        .await?;
    for row in &likes {
        let factor = decay(now, row.try_get(1)?);
        *scores.nfts.entry(row.try_get(0)?).or_default() += LIKE_WEIGHT * factor;
        *scores.creators.entry(row.try_get(2)?).or_default() += LIKE_WEIGHT * factor;
    }
    Ok(scores)
}

/// Descending by score, then by the tie-breakers given (already in the wanted order).
fn by_score(a: f64, b: f64) -> std::cmp::Ordering {
    b.partial_cmp(&a).unwrap_or(std::cmp::Ordering::Equal)
}

/// The ids of `page` of the live NFTs on sale as `sale_type`, trending first, and how many
/// there are.
///
/// Only the NFTs with a score (events in the window) are sorted; the order of all the others
/// (popularity, mint time, id) is kept by the in-memory browse index, which reads a page of
/// them without reading every row. The answer is [`nft_ids_by_full_sort`]'s.
pub async fn nft_ids(db: &ReadDb, sale_type: Option<&str>, page: Page, now: i64, at: Position) -> Result<(Vec<String>, i64), sqlx::Error> {
    let kept = recent_scores(db, now, at).await?;
    let current = db.current();
    // The index must include at least what the scores were read from.
    let (ids, total) = db.browse().trending(&current.generation, &current.pool, sale_type, &kept.scores, page, at).await?;
    Ok((ids, total as i64))
}

/// [`nft_ids`] by its definition: every live row read and sorted. The reference the fast path
/// is tested against.
pub async fn nft_ids_by_full_sort(db: &ReadDb, sale_type: Option<&str>, page: Page, now: i64) -> Result<(Vec<String>, i64), sqlx::Error> {
    let scores = scores(db, now).await?;
    let filter = if sale_type.is_some() { "AND sale_type = $1" } else { "" };
    let sql = format!("SELECT nft_id, total_likes + bid_count + 2 * sales, minted_at FROM nfts WHERE burned = 0 {filter}");
    let mut query = sqlx::query(&sql);
    if let Some(sale_type) = sale_type {
        query = query.bind(sale_type);
    }
    let mut rows: Vec<(String, f64, i64, i64)> = Vec::new();
    for row in query.fetch_all(&db.reader().await).await? {
        let id: String = row.try_get(0)?;
        let score = scores.nfts.get(&id).copied().unwrap_or(0.0);
        rows.push((id, score, row.try_get(1)?, row.try_get(2)?));
    }
    rows.sort_by(|a, b| by_score(a.1, b.1).then(b.2.cmp(&a.2)).then(b.3.cmp(&a.3)).then(b.0.cmp(&a.0)));
    let total = rows.len() as i64;
    let ids = rows.into_iter().skip(page.offset() as usize).take(page.limit as usize).map(|r| r.0).collect();
    Ok((ids, total))
}

/// Which list of people.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeopleKind {
    /// Users who have sold, by their score as sellers.
    Seller,
    /// Users who have created NFTs, by their creators' score.
    Creator,
}

impl PeopleKind {
    /// Parses `SELLER`, `CREATOR`.
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "SELLER" => Some(Self::Seller),
            "CREATOR" => Some(Self::Creator),
            _ => None,
        }
    }
}

/// A seller or creator card.
#[derive(Debug, serde::Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PersonCard {
    /// The user's id.
    pub id: String,
    /// The same.
    pub user_id: String,
    /// Username.
    pub username: String,
    /// Full name.
    pub full_name: String,
    /// Avatar URL (`/ipfs/<cid>`) or "".
    pub avatar: String,
    /// Cover image URL or "".
    pub cover_image: String,
    /// Their bio.
    pub info: String,
    /// Sales made from their wallets.
    pub total_sold: i64,
    /// Their collections.
    pub total_collection: i64,
    /// NFTs they created (not burned).
    pub total_creations: i64,
    /// Their trending score now (see the module's formula).
    pub score: f64,
}

fn url(cid: Option<String>) -> String {
    cid.map(|c| format!("/ipfs/{c}")).unwrap_or_default()
}

/// A page of trending sellers or creators at `now`, from read tables at position `at` or later.
pub async fn people(db: &ReadDb, kind: PeopleKind, page: Page, now: i64, at: Position) -> Result<Paged<PersonCard>, sqlx::Error> {
    let kept = recent_scores(db, now, at).await?;
    let slot = if kind == PeopleKind::Seller { 0 } else { 1 };
    let ranked = kept.people[slot].get_or_try_init(|| async { rank_people(db, kind, &kept.scores).await.map(Arc::new) }).await?;
    let total = ranked.len() as i64;
    let chosen: Vec<&RankedPerson> = ranked.iter().skip(page.offset().max(0) as usize).take(page.limit as usize).collect();
    let mut data = Vec::with_capacity(chosen.len());
    if !chosen.is_empty() {
        let sql = format!(
            "SELECT user_id, username, full_name, avatar, cover_image, bio FROM users WHERE user_id IN ({})",
            placeholders(chosen.len())
        );
        let mut query = sqlx::query(&sql);
        for person in &chosen {
            query = query.bind(person.user_id.as_str());
        }
        let mut rows: HashMap<String, sqlx::any::AnyRow> = HashMap::new();
        for row in query.fetch_all(&db.pool()).await? {
            rows.insert(row.try_get(0)?, row);
        }
        let ids: Vec<String> = chosen.iter().map(|p| p.user_id.clone()).collect();
        let collections = super::collections::counts_by_creator(db, &ids).await?;
        for person in chosen {
            let Some(row) = rows.get(&person.user_id) else { continue };
            data.push(PersonCard {
                id: person.user_id.clone(),
                user_id: person.user_id.clone(),
                username: row.try_get(1)?,
                full_name: row.try_get(2)?,
                avatar: url(row.try_get(3)?),
                cover_image: url(row.try_get(4)?),
                info: row.try_get(5)?,
                total_sold: person.sold,
                total_collection: collections.get(&person.user_id).copied().unwrap_or(0),
                total_creations: person.created,
                score: person.score,
            });
        }
    }
    Ok(Paged::new(data, total, page))
}

/// Every seller (users who have sold) or creator (users who have created), by their score in
/// `scores`, then their sales or creations, then id: counted once for a set of kept scores.
async fn rank_people(db: &ReadDb, kind: PeopleKind, scores: &Scores) -> Result<Vec<RankedPerson>, sqlx::Error> {
    let pool = db.pool();
    let mut users: HashMap<String, (f64, i64, i64)> = HashMap::new();
    let wallets = sqlx::query("SELECT address, user_id FROM user_wallets").fetch_all(&pool).await?;
    let by_address = match kind {
        PeopleKind::Seller => &scores.sellers,
        PeopleKind::Creator => &scores.creators,
    };
    for row in &wallets {
        let (address, user): (String, String) = (row.try_get(0)?, row.try_get(1)?);
        users.entry(user).or_default().0 += by_address.get(&address).copied().unwrap_or(0.0);
    }
    let sold = sqlx::query("SELECT w.user_id, COUNT(*) FROM sales s JOIN user_wallets w ON w.address = s.seller GROUP BY w.user_id")
        .fetch_all(&pool)
        .await?;
    for row in &sold {
        users.entry(row.try_get(0)?).or_default().1 = row.try_get(1)?;
    }
    let created = sqlx::query(
        "SELECT w.user_id, COUNT(*) FROM nfts n JOIN user_wallets w ON w.address = n.creator WHERE n.burned = 0 GROUP BY w.user_id",
    )
    .fetch_all(&pool)
    .await?;
    for row in &created {
        users.entry(row.try_get(0)?).or_default().2 = row.try_get(1)?;
    }
    let count = |x: &RankedPerson| if kind == PeopleKind::Seller { x.sold } else { x.created };
    let mut ranked: Vec<RankedPerson> = users
        .into_iter()
        .map(|(user_id, (score, sold, created))| RankedPerson { user_id, score, sold, created })
        // Sellers are users who have sold; creators users who have created.
        .filter(|p| count(p) > 0)
        .collect();
    ranked.sort_by(|a, b| by_score(a.score, b.score).then(count(b).cmp(&count(a))).then(a.user_id.cmp(&b.user_id)));
    Ok(ranked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_weighs_less_the_older_it_is_halving_about_every_50_hours() {
        let now = 1_800_000_000;
        assert_eq!(decay(now, now), 1.0);
        assert_eq!(decay(now, now + 60), 1.0, "a block a little ahead of the clock counts as now");
        let half_life = (TAU_SECONDS * std::f64::consts::LN_2) as i64;
        assert!((decay(now, now - half_life) - 0.5).abs() < 1e-4);
        assert!(decay(now, now - WINDOW_SECONDS) < 5e-5);
        assert_eq!(matic("1500000000000000000"), 1.5);
    }
}
