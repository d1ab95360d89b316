//! Collection queries: the grids (all, one user's, mine), one collection, and which NFTs it
//! shows.
//!
//! A member shows while it is not burned and a wallet linked to the collection's creator owns
//! it: an NFT sold, given away or burned leaves the collection's lists and counts (its
//! membership stays in the log, so one that comes back to the creator shows again). The rule is
//! [`VISIBLE`], used by every query here, so counts and lists always agree. A collection's page
//! lists the members for sale at a fixed price (the spec's collection detail), so its card counts
//! and previews those ([`LISTED`]).

use std::{collections::HashMap, sync::Arc};

use domain::Position;
use serde::Serialize;
use sqlx::Row;

use super::{Page, Paged, iso, kept::Kept, placeholders};
use crate::ReadDb;

/// The joins that keep only the members shown: `cn` a `collection_nfts` row of collection `c`.
const VISIBLE: &str = "JOIN nfts n ON n.nft_id = cn.nft_id AND n.burned = 0 \
    JOIN user_wallets w ON w.address = n.owner AND w.user_id = c.creator_user_id";

/// Of the members shown, those a collection's page lists (on sale at a fixed price, not hidden by
/// a moderator): its card counts and previews these. A macro, so that [`CARD`] can `concat!` it.
macro_rules! listed {
    () => {
        "n.sale_type = 'FIXEDPRICE' \
         AND NOT EXISTS (SELECT 1 FROM moderated hm WHERE hm.target_kind = 'nft' AND hm.target_id = n.nft_id AND hm.hidden = 1)"
    };
}
const LISTED: &str = listed!();

/// How many NFT images a card previews.
pub const PREVIEWS: usize = 3;

/// How the grid is sorted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CollectionSort {
    /// Creation time.
    Date,
    /// Likes, then creation time.
    Popularity,
    /// NFTs its page lists ([`CollectionView::nft_count`]), then creation time.
    Items,
    /// Title (case-insensitive), then creation time.
    Title,
}

impl CollectionSort {
    /// Parses `DATE`, `POPULARITY`, `ITEMS`, `TITLE`.
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "DATE" => Some(Self::Date),
            "POPULARITY" => Some(Self::Popularity),
            "ITEMS" => Some(Self::Items),
            "TITLE" => Some(Self::Title),
            _ => None,
        }
    }
}

/// A grid request.
#[derive(Clone, Debug)]
pub struct Browse {
    /// Only this user's collections.
    pub creator: Option<String>,
    /// Words to find in the title (case-insensitive, as typed).
    pub search: Option<String>,
    /// Sort key.
    pub sort_by: CollectionSort,
    /// `true` for oldest / least liked first.
    pub ascending: bool,
    /// The signed-in viewer, for `isLiked`.
    pub viewer: Option<String>,
    /// Collections whose page lists no NFT come after the others, in any order (the public
    /// grid: empty ones are no place to start).
    pub empty_last: bool,
    /// Only collections an admin verified.
    pub verified_only: bool,
}

/// The creator on a card.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct CollectionCreator {
    /// User id.
    pub user_id: String,
    /// Username ("" if the account is not in the read tables).
    pub username: String,
    /// Full name.
    pub full_name: String,
    /// Avatar URL (`/ipfs/<cid>`) or "".
    pub avatar: String,
    /// Whether an admin verified the creator.
    pub verified: bool,
}

/// A collection as cards and the detail chip show it.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CollectionView {
    /// Its id (a UUID).
    #[serde(rename = "_id")]
    pub id: String,
    /// Title.
    pub title: String,
    /// Image URL (`/ipfs/<cid>`).
    pub image: String,
    /// Who made it.
    pub creator: CollectionCreator,
    /// Whether an admin verified it (a badge on its card and page).
    pub verified: bool,
    /// NFTs its page lists (members shown and for sale at a fixed price).
    pub nft_count: i64,
    /// The same (the spec carries both).
    pub total_items: i64,
    /// Creation time (ISO 8601).
    pub created_at: String,
    /// Whether the viewer likes it (false when signed out).
    pub is_liked: bool,
    /// Likes.
    pub total_likes: i64,
    /// Images of up to [`PREVIEWS`] of the NFTs its page lists, latest added first.
    pub nft_images: Vec<String>,
    /// Its floor price (MATIC), or `None` (see [`super::insight`]).
    pub floor_price: Option<String>,
    /// The same in wei.
    pub floor_price_wei: Option<String>,
    /// Its volume of all time (MATIC).
    pub volume: String,
    /// The same in wei.
    pub volume_wei: String,
}

fn file_url(cid: &str) -> String {
    if cid.starts_with('/') || cid.contains("://") { cid.to_owned() } else { format!("/ipfs/{cid}") }
}

/// The search as titles are matched against it: trimmed and lower-cased; `None` for no search.
fn search_key(search: Option<&str>) -> Option<String> {
    search.map(str::trim).filter(|s| !s.is_empty()).map(str::to_lowercase)
}

/// Whether a lower-cased title holds the search ([`search_key`]) as typed: no character is a
/// wildcard.
fn title_matches(title_lower: &str, search: &str) -> bool {
    title_lower.contains(search)
}

/// The card columns of collection `c` (`$1` the viewer, or "" when signed out); the count
/// ([`VISIBLE`] and [`LISTED`]) is named `items`, for the order.
const CARD: &str = concat!(
    "c.collection_id, c.title, c.image, c.created_at, c.total_likes, c.creator_user_id, \
    COALESCE(u.username, ''), COALESCE(u.full_name, ''), u.avatar, \
    CAST((SELECT COUNT(*) FROM collection_nfts cn JOIN collections cc ON cc.collection_id = cn.collection_id \
        JOIN nfts n ON n.nft_id = cn.nft_id AND n.burned = 0 \
        JOIN user_wallets w ON w.address = n.owner AND w.user_id = cc.creator_user_id \
        WHERE cn.collection_id = c.collection_id AND ",
    listed!(),
    ") AS BIGINT) AS items, \
    CAST(CASE WHEN EXISTS (SELECT 1 FROM collection_likes l WHERE l.collection_id = c.collection_id AND l.user_id = $1) \
        THEN 1 ELSE 0 END AS BIGINT), c.title_lower AS title_key, \
    CAST(COALESCE((SELECT m.verified FROM moderated m WHERE m.target_kind = 'collection' AND m.target_id = c.collection_id), 0) AS BIGINT), \
    CAST(COALESCE((SELECT m.verified FROM moderated m WHERE m.target_kind = 'user' AND m.target_id = c.creator_user_id), 0) AS BIGINT)"
);

fn card(row: &sqlx::any::AnyRow) -> Result<CollectionView, sqlx::Error> {
    let count: i64 = row.try_get(9)?;
    let avatar: Option<String> = row.try_get(8)?;
    Ok(CollectionView {
        id: row.try_get(0)?,
        title: row.try_get(1)?,
        image: file_url(&row.try_get::<String, _>(2)?),
        created_at: iso(row.try_get(3)?),
        total_likes: row.try_get(4)?,
        creator: CollectionCreator {
            user_id: row.try_get(5)?,
            username: row.try_get(6)?,
            full_name: row.try_get(7)?,
            avatar: avatar.as_deref().map(file_url).unwrap_or_default(),
            verified: row.try_get::<i64, _>(13)? != 0,
        },
        verified: row.try_get::<i64, _>(12)? != 0,
        nft_count: count,
        total_items: count,
        is_liked: row.try_get::<i64, _>(10)? == 1,
        nft_images: Vec::new(),
        floor_price: None,
        floor_price_wei: None,
        volume: "0".into(),
        volume_wei: "0".into(),
    })
}

/// Fills each card's [`CollectionView::nft_images`] and its floor and volume.
async fn previews(db: &ReadDb, cards: &mut [CollectionView]) -> Result<(), sqlx::Error> {
    if cards.is_empty() {
        return Ok(());
    }
    let ids = cards.iter().map(|c| c.id.as_str()).collect::<Vec<_>>();
    let mut stats = super::insight::stats(db, &ids, chrono::Utc::now().timestamp()).await?;
    for card in cards.iter_mut() {
        if let Some(stats) = stats.remove(&card.id) {
            card.floor_price = stats.floor_price;
            card.floor_price_wei = stats.floor_price_wei;
            card.volume = stats.volume_all;
            card.volume_wei = stats.volume_all_wei;
        }
    }
    let sql = format!(
        "SELECT cn.collection_id, d.file FROM collection_nfts cn JOIN collections c ON c.collection_id = cn.collection_id {VISIBLE} \
         JOIN nft_details d ON d.nft_id = cn.nft_id WHERE cn.collection_id IN ({}) AND {LISTED} \
         ORDER BY cn.collection_id, cn.added_at DESC, cn.nft_id",
        placeholders(cards.len())
    );
    let mut query = sqlx::query(&sql);
    for card in cards.iter() {
        query = query.bind(card.id.as_str());
    }
    let mut images: HashMap<String, Vec<String>> = HashMap::new();
    for row in query.fetch_all(&db.reader().await).await? {
        let list = images.entry(row.try_get(0)?).or_default();
        if list.len() < PREVIEWS {
            list.push(file_url(&row.try_get::<String, _>(1)?));
        }
    }
    for card in cards {
        card.nft_images = images.remove(&card.id).unwrap_or_default();
    }
    Ok(())
}

/// A page of collections: everyone's, or one creator's; searched by title; sorted. From the
/// grid's rows kept for the read tables at `at` ([`grid_rows`]): filtering, counting and sorting
/// 10,000 collections in memory takes well under a millisecond, where SQL counted every
/// collection's listed members before it could sort; only the page's cards are read.
pub async fn browse(db: &ReadDb, request: &Browse, page: Page, at: Position) -> Result<Paged<CollectionView>, sqlx::Error> {
    let grid = grid_rows(db, at).await?;
    let viewer = request.viewer.as_deref().unwrap_or_default();
    let search = search_key(request.search.as_deref());
    let order = grid.order(request.sort_by, request.ascending, request.empty_last);
    let matches: Vec<&GridRow> = order
        .iter()
        .map(|&i| &grid.rows[i as usize])
        .filter(|r| request.creator.as_deref().is_none_or(|creator| r.creator == creator))
        .filter(|r| search.as_deref().is_none_or(|words| title_matches(&r.title_lower, words)))
        // Hidden ones show to their creator only.
        .filter(|r| !r.hidden || r.creator == viewer)
        .filter(|r| !request.verified_only || r.verified)
        .collect();
    let total = matches.len() as i64;
    let chosen: Vec<&str> = matches.iter().skip(page.offset().max(0) as usize).take(page.limit as usize).map(|r| r.id.as_str()).collect();
    let mut data = Vec::with_capacity(chosen.len());
    if !chosen.is_empty() {
        let sql = format!(
            "SELECT {CARD} FROM collections c LEFT JOIN users u ON u.user_id = c.creator_user_id WHERE c.collection_id IN ({})",
            (2..chosen.len() + 2).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ")
        );
        let mut query = sqlx::query(&sql).bind(viewer);
        for id in &chosen {
            query = query.bind(*id);
        }
        let mut cards: HashMap<String, CollectionView> = HashMap::new();
        // The page's cards may come from a replica; the kept rows that chose them are the primary's.
        for row in query.fetch_all(&db.reader().await).await? {
            let card = card(&row)?;
            cards.insert(card.id.clone(), card);
        }
        data.extend(chosen.iter().filter_map(|id| cards.remove(*id)));
        previews(db, &mut data).await?;
    }
    Ok(Paged::new(data, total, page))
}

/// A collection as the grid filters and sorts it.
pub(crate) struct GridRow {
    id: String,
    creator: String,
    title_lower: String,
    created_at: i64,
    total_likes: i64,
    /// The NFTs its page lists: its card's count ([`VISIBLE`] and [`LISTED`]).
    items: i64,
    /// Hidden by a moderator (shown to its creator only).
    hidden: bool,
    /// Verified by an admin.
    verified: bool,
}

/// Every collection's grid row and the orders asked of them (kept while the read tables stay
/// the same).
pub(crate) type KeptGrid = Kept<Arc<Grid>>;

/// An order of the grid: its sort, whether ascending, whether empty ones last.
type GridOrder = (u8, bool, bool);

/// The grid's rows and their orders, each sorted when first asked.
pub(crate) struct Grid {
    rows: Vec<GridRow>,
    orders: std::sync::Mutex<HashMap<GridOrder, Arc<Vec<u32>>>>,
}

impl Grid {
    /// The rows' indexes sorted by `sort_by` (then creation time, then id), lowest first if
    /// `ascending`, and with `empty_last` the empty ones after the others either way.
    fn order(&self, sort_by: CollectionSort, ascending: bool, empty_last: bool) -> Arc<Vec<u32>> {
        let key = (sort_by as u8, ascending, empty_last);
        let mut orders = self.orders.lock().unwrap_or_else(|e| e.into_inner());
        orders
            .entry(key)
            .or_insert_with(|| {
                let rows = &self.rows;
                let mut order: Vec<u32> = (0..rows.len() as u32).collect();
                order.sort_unstable_by(|&a, &b| {
                    let (a, b) = (&rows[a as usize], &rows[b as usize]);
                    let by_key = match sort_by {
                        CollectionSort::Date => std::cmp::Ordering::Equal,
                        CollectionSort::Popularity => a.total_likes.cmp(&b.total_likes),
                        CollectionSort::Items => a.items.cmp(&b.items),
                        CollectionSort::Title => a.title_lower.cmp(&b.title_lower),
                    };
                    let order = by_key.then(a.created_at.cmp(&b.created_at)).then_with(|| a.id.cmp(&b.id));
                    let order = if ascending { order } else { order.reverse() };
                    let empty = |r: &GridRow| empty_last && r.items == 0;
                    empty(a).cmp(&empty(b)).then(order)
                });
                Arc::new(order)
            })
            .clone()
    }
}

/// Every collection's grid row: the kept ones while the read tables stay at `at`, else read
/// again (concurrent callers wait for the one pass: two queries, the second counting every
/// collection's listed members at once).
async fn grid_rows(db: &ReadDb, at: Position) -> Result<Arc<Grid>, sqlx::Error> {
    let generation = db.generation();
    let mut kept = db.collection_grid().lock().await;
    if let Some(grid) = kept.as_ref().and_then(|k| k.at(&generation, at)) {
        return Ok(grid.clone());
    }
    let pool = db.pool();
    let mut rows: Vec<GridRow> = Vec::new();
    for row in sqlx::query(
        "SELECT c.collection_id, c.creator_user_id, c.title_lower, c.created_at, c.total_likes, \
            CAST(COALESCE(m.hidden, 0) AS BIGINT), CAST(COALESCE(m.verified, 0) AS BIGINT) \
         FROM collections c LEFT JOIN moderated m ON m.target_kind = 'collection' AND m.target_id = c.collection_id",
    )
    .fetch_all(&pool)
    .await?
    {
        rows.push(GridRow {
            id: row.try_get(0)?,
            creator: row.try_get(1)?,
            title_lower: row.try_get(2)?,
            created_at: row.try_get(3)?,
            total_likes: row.try_get(4)?,
            items: 0,
            hidden: row.try_get::<i64, _>(5)? == 1,
            verified: row.try_get::<i64, _>(6)? == 1,
        });
    }
    let index: HashMap<String, usize> = rows.iter().enumerate().map(|(i, r)| (r.id.clone(), i)).collect();
    let counts = format!(
        "SELECT cn.collection_id, COUNT(*) FROM collection_nfts cn JOIN collections c ON c.collection_id = cn.collection_id {VISIBLE} \
         WHERE {LISTED} GROUP BY cn.collection_id"
    );
    for row in sqlx::query(&counts).fetch_all(&pool).await? {
        if let Some(&i) = index.get(&row.try_get::<String, _>(0)?) {
            rows[i].items = row.try_get(1)?;
        }
    }
    let grid = Arc::new(Grid { rows, orders: Default::default() });
    *kept = Some(Kept::new(generation, at, grid.clone()));
    Ok(grid)
}

/// One collection, unless unknown or deleted.
pub async fn by_id(db: &ReadDb, collection_id: &str, viewer: Option<&str>) -> Result<Option<CollectionView>, sqlx::Error> {
    let sql = format!("SELECT {CARD} FROM collections c LEFT JOIN users u ON u.user_id = c.creator_user_id WHERE c.collection_id = $2");
    let row = sqlx::query(&sql).bind(viewer.unwrap_or_default()).bind(collection_id).fetch_optional(&db.reader().await).await?;
    let Some(row) = row else { return Ok(None) };
    let mut cards = vec![card(&row)?];
    previews(db, &mut cards).await?;
    Ok(cards.pop())
}

/// The NFTs a collection shows (see [`VISIBLE`]), in no particular order.
pub async fn shown_nfts(db: &ReadDb, collection_id: &str) -> Result<Vec<String>, sqlx::Error> {
    let sql = format!(
        "SELECT cn.nft_id FROM collection_nfts cn JOIN collections c ON c.collection_id = cn.collection_id {VISIBLE} \
         WHERE cn.collection_id = $1"
    );
    sqlx::query_scalar(&sql).bind(collection_id).fetch_all(&db.reader().await).await
}

/// The owners of tokens that exist and are not burned, by id.
pub async fn owners(db: &ReadDb, nft_ids: &[String]) -> Result<HashMap<String, String>, sqlx::Error> {
    if nft_ids.is_empty() {
        return Ok(HashMap::new());
    }
    let sql = format!("SELECT nft_id, owner FROM nfts WHERE burned = 0 AND nft_id IN ({})", placeholders(nft_ids.len()));
    let mut query = sqlx::query(&sql);
    for id in nft_ids {
        query = query.bind(id.as_str());
    }
    query.fetch_all(&db.reader().await).await?.iter().map(|row| Ok((row.try_get(0)?, row.try_get(1)?))).collect()
}

/// How many collections each of these users has.
pub async fn counts_by_creator(db: &ReadDb, user_ids: &[String]) -> Result<HashMap<String, i64>, sqlx::Error> {
    if user_ids.is_empty() {
        return Ok(HashMap::new());
    }
    let sql = format!(
        "SELECT creator_user_id, COUNT(*) FROM collections WHERE creator_user_id IN ({}) GROUP BY creator_user_id",
        placeholders(user_ids.len())
    );
    let mut query = sqlx::query(&sql);
    for id in user_ids {
        query = query.bind(id.as_str());
    }
    query.fetch_all(&db.reader().await).await?.iter().map(|row| Ok((row.try_get(0)?, row.try_get(1)?))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searches_match_case_insensitively_and_take_wildcards_literally() {
        let search = search_key(Some(" Sea Birds ")).unwrap();
        assert!(title_matches("the sea birds of may", &search));
        assert!(!title_matches("sea-birds", &search));
        let literal = search_key(Some("100%_a\\b")).unwrap();
        assert!(title_matches("over 100%_a\\b!", &literal));
        assert!(!title_matches("1000 ab", &literal), "% and _ are no wildcards");
        assert_eq!(search_key(Some("   ")), None);
    }
}
