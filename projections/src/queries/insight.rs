//! Market insight: an NFT's price history, and each collection's statistics (floor, volume,
//! sales, owners, items, share listed) with their daily history and the `/stats` ranking.
//!
//! What belongs to a collection's history: the sales of its **current members** (the NFTs its
//! creator put in it and has not taken out), whenever they were made. The read tables keep no
//! trace of a member taken out (its row goes), and a membership's time (the server's clock) and a
//! sale's (the block's) are different clocks, so "sold while a member" could not be answered
//! exactly; the current members' whole trade is what OpenSea-like statistics show for a
//! collection, and it follows the collection as its creator edits it (docs/read-models.md).
//!
//! * `items`: members not burned and not hidden by a moderator; `owners`: the distinct wallets
//!   owning them; `listed`: those of them on sale (fixed price or auction). A hidden collection
//!   has no figures (it is in no list).
//! * `floor`: the lowest fixed price among the members the collection's page shows (not burned,
//!   owned by a wallet of the creator, on sale at a fixed price), the same rule as its cards.
//! * volumes: the sum of the sale prices (wei) of the members' sales with `now - window <= at`.
//!
//! The figures of every collection (its members' counts, floor and sales) are read in one pass (a
//! few queries over indexes), then kept while the read tables stay the same (generation and
//! checkpoint): they do not depend on the clock, since the windows are cut from the kept sales at
//! each request. Every page, sort and period of `/stats`, and every card, is answered from them.

use std::{collections::HashMap, sync::Arc};

use serde::Serialize;
use sqlx::Row;

use super::{Page, Paged, kept::Kept};
use crate::ReadDb;

/// One day, in seconds.
pub const DAY: i64 = 86_400;
/// The most points an NFT's price history returns (its latest).
pub const HISTORY_POINTS: i64 = 500;
/// The most daily buckets of a collection's history (its latest days).
pub const MAX_DAYS: i64 = 365;

/// Wei as decimal text in a `u128` (sums saturate: 3.4e20 MATIC is beyond any market).
fn wei(text: &str) -> u128 {
    text.parse().unwrap_or(u128::MAX)
}

fn matic(wei: u128) -> String {
    super::wei_to_matic(&wei.to_string())
}

/// A period the ranking shows (volume, sales and their change over it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Period {
    /// The last 24 hours.
    Day,
    /// The last 7 days.
    Week,
    /// The last 30 days.
    Month,
    /// Everything.
    All,
}

impl Period {
    /// Parses `24H`, `7D`, `30D`, `ALL`.
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "24H" => Some(Self::Day),
            "7D" => Some(Self::Week),
            "30D" => Some(Self::Month),
            "ALL" => Some(Self::All),
            _ => None,
        }
    }

    /// Its length in seconds (`None`: all time).
    pub fn seconds(self) -> Option<i64> {
        match self {
            Self::Day => Some(DAY),
            Self::Week => Some(7 * DAY),
            Self::Month => Some(30 * DAY),
            Self::All => None,
        }
    }
}

/// What the ranking is sorted by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StatsSort {
    /// Volume over the period.
    Volume,
    /// Volume change over the period (against the period before).
    Change,
    /// Floor price (collections without a floor last).
    Floor,
    /// Sales over the period.
    Sales,
    /// Distinct owners.
    Owners,
    /// Items.
    Items,
    /// Share of the items listed.
    Listed,
    /// Title (case-insensitive).
    Title,
}

impl StatsSort {
    /// Parses `VOLUME`, `CHANGE`, `FLOOR`, `SALES`, `OWNERS`, `ITEMS`, `LISTED`, `TITLE`.
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "VOLUME" => Some(Self::Volume),
            "CHANGE" => Some(Self::Change),
            "FLOOR" => Some(Self::Floor),
            "SALES" => Some(Self::Sales),
            "OWNERS" => Some(Self::Owners),
            "ITEMS" => Some(Self::Items),
            "LISTED" => Some(Self::Listed),
            "TITLE" => Some(Self::Title),
            _ => None,
        }
    }
}

/// One sale of a member, as the statistics need it.
#[derive(Clone, Copy, Debug)]
struct Sale {
    price: u128,
    at: i64,
}

/// A collection's figures, before a period is chosen.
#[derive(Clone, Debug)]
pub(crate) struct Figures {
    id: String,
    title: String,
    title_lower: String,
    image: String,
    items: i64,
    owners: i64,
    listed: i64,
    floor: Option<u128>,
    /// Its members' sales, oldest first.
    sales: Vec<Sale>,
}

impl Figures {
    /// Volume and sales with `from <= at < to`.
    fn between(&self, from: i64, to: i64) -> (u128, i64) {
        let start = self.sales.partition_point(|s| s.at < from);
        let end = self.sales.partition_point(|s| s.at < to);
        let volume = self.sales[start..end].iter().fold(0u128, |sum, s| sum.saturating_add(s.price));
        (volume, (end - start) as i64)
    }

    fn listed_share(&self) -> f64 {
        if self.items == 0 { 0.0 } else { self.listed as f64 / self.items as f64 }
    }
}

/// Every collection's figures and the rankings asked of them (kept while the read tables stay
/// the same).
pub(crate) type KeptStats = Kept<(Arc<Vec<Figures>>, Arc<KeptOrders>)>;

/// The rankings asked of some figures, each kept with the time it was ranked at, and every
/// sale's time (sorted), to tell whether a sale has crossed a window's edge since.
#[derive(Default)]
pub(crate) struct KeptOrders {
    sale_times: Vec<i64>,
    orders: std::sync::Mutex<HashMap<Ranking, RankedAt>>,
}

/// An order of the figures' indexes and the time it was ranked at.
type RankedAt = (i64, Arc<Vec<usize>>);

impl KeptOrders {
    /// Whether `request`'s order at `then` is its order at `now`: always when it does not
    /// depend on the clock (all time, or figures with no window), else when no sale entered or
    /// left the period or the one before it meanwhile (their edges moved from `then` to `now`).
    fn still(&self, request: Ranking, then: i64, now: i64) -> bool {
        let windowed = matches!(request.sort, StatsSort::Volume | StatsSort::Sales | StatsSort::Change);
        let Some(length) = request.period.seconds().filter(|_| windowed) else { return true };
        let (from, to) = (then.min(now), then.max(now));
        // A sale at `s` is in the window at `t` when `s >= t - length + 1` (the previous one:
        // from `t - 2 length + 1`): it changes sides only if it lies between an edge's two places.
        [length, 2 * length].into_iter().all(|back| {
            let (low, high) = (from - back + 1, to - back + 1);
            let first = self.sale_times.partition_point(|&s| s < low);
            self.sale_times.get(first).is_none_or(|&s| s >= high)
        })
    }
}

/// A collection's statistics: its card's and page's figures.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CollectionStats {
    /// The collection's id.
    pub collection_id: String,
    /// Lowest fixed price among the members its page shows (MATIC), or `None`.
    pub floor_price: Option<String>,
    /// The same in wei.
    pub floor_price_wei: Option<String>,
    /// Volume of the last 24 hours (MATIC).
    pub volume_24h: String,
    /// The same in wei.
    pub volume_24h_wei: String,
    /// Volume of the last 7 days (MATIC).
    pub volume_7d: String,
    /// The same in wei.
    pub volume_7d_wei: String,
    /// Volume of all time (MATIC).
    pub volume_all: String,
    /// The same in wei.
    pub volume_all_wei: String,
    /// Sales of all time.
    pub sales: i64,
    /// Distinct owners of its items.
    pub owners: i64,
    /// Members not burned.
    pub items: i64,
    /// Items on sale (fixed price or auction).
    pub listed: i64,
    /// `listed / items` (0 when it has none).
    pub listed_share: f64,
}

/// A row of the `/stats` ranking.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RankedCollection {
    /// Its place in this order (1 first).
    pub rank: i64,
    /// The collection's id.
    pub collection_id: String,
    /// Title.
    pub title: String,
    /// Image URL (`/ipfs/<cid>`).
    pub image: String,
    /// Lowest fixed price among the members its page shows (MATIC), or `None`.
    pub floor_price: Option<String>,
    /// The same in wei.
    pub floor_price_wei: Option<String>,
    /// Volume over the period (MATIC).
    pub volume: String,
    /// The same in wei.
    pub volume_wei: String,
    /// Volume over the period before it, of the same length (MATIC; `None` for all time).
    pub previous_volume: Option<String>,
    /// The same in wei.
    pub previous_volume_wei: Option<String>,
    /// Volume change against the period before, in percent (`None` for all time, or when
    /// nothing sold in the period before).
    pub change: Option<f64>,
    /// Sales over the period.
    pub sales: i64,
    /// Distinct owners of its items.
    pub owners: i64,
    /// Members not burned.
    pub items: i64,
    /// Items on sale.
    pub listed: i64,
    /// `listed / items`.
    pub listed_share: f64,
}

/// A ranking request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ranking {
    /// The period of volume, sales and change.
    pub period: Period,
    /// The column.
    pub sort: StatsSort,
    /// Lowest first (else highest first; titles: A to Z when ascending).
    pub ascending: bool,
}

fn card_image(cid: &str) -> String {
    if cid.starts_with('/') || cid.contains("://") { cid.to_owned() } else { format!("/ipfs/{cid}") }
}

/// Reads every collection's figures (the definition in the module's doc).
async fn read_figures(db: &ReadDb) -> Result<Vec<Figures>, sqlx::Error> {
    // The primary: the figures are kept for every request under the primary's checkpoint.
    let pool = db.pool();
    let mut figures: Vec<Figures> = Vec::new();
    for row in
        sqlx::query(
            "SELECT c.collection_id, c.title, c.title_lower, c.image FROM collections c \
             WHERE NOT EXISTS (SELECT 1 FROM moderated m WHERE m.target_kind = 'collection' AND m.target_id = c.collection_id AND m.hidden = 1) \
             ORDER BY c.collection_id",
        )
        .fetch_all(&pool)
        .await?
    {
        let id: String = row.try_get(0)?;
        figures.push(Figures {
            id,
            title: row.try_get(1)?,
            title_lower: row.try_get(2)?,
            image: card_image(&row.try_get::<String, _>(3)?),
            items: 0,
            owners: 0,
            listed: 0,
            floor: None,
            sales: Vec::new(),
        });
    }
    // Byte order (a database's collation may order ids otherwise): looked up by binary search.
    figures.sort_by(|a, b| a.id.cmp(&b.id));
    let index: HashMap<String, usize> = figures.iter().enumerate().map(|(i, f)| (f.id.clone(), i)).collect();
    // The members not burned and not hidden (a hidden scam listing must not set the floor),
    // whose owner is (or is not) a wallet of the creator. Their past sales still count: they
    // happened.
    let members = sqlx::query(
        "SELECT cn.collection_id, n.owner, n.sale_type, n.price, \
            CAST(CASE WHEN EXISTS (SELECT 1 FROM user_wallets w WHERE w.address = n.owner AND w.user_id = c.creator_user_id) \
            THEN 1 ELSE 0 END AS BIGINT) \
         FROM collection_nfts cn JOIN collections c ON c.collection_id = cn.collection_id \
         JOIN nfts n ON n.nft_id = cn.nft_id AND n.burned = 0 \
         WHERE NOT EXISTS (SELECT 1 FROM moderated m WHERE m.target_kind = 'nft' AND m.target_id = cn.nft_id AND m.hidden = 1) \
         ORDER BY cn.collection_id, n.owner",
    )
    .fetch_all(&pool)
    .await?;
    let mut last_owner: Option<(String, String)> = None;
    for row in &members {
        let (collection, owner, sale_type): (String, String, String) = (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
        let Some(&i) = index.get(&collection) else { continue };
        let f = &mut figures[i];
        f.items += 1;
        if sale_type != "NOT_FOR_SALE" {
            f.listed += 1;
        }
        if sale_type == "FIXEDPRICE" && row.try_get::<i64, _>(4)? == 1 {
            let price = wei(&row.try_get::<String, _>(3)?);
            f.floor = Some(f.floor.map_or(price, |floor| floor.min(price)));
        }
        let key = (collection, owner);
        if last_owner.as_ref() != Some(&key) {
            f.owners += 1;
            last_owner = Some(key);
        }
    }
    let sales = sqlx::query(
        "SELECT cn.collection_id, s.price, s.at FROM sales s JOIN collection_nfts cn ON cn.nft_id = s.nft_id ORDER BY s.at, s.position",
    )
    .fetch_all(&pool)
    .await?;
    for row in &sales {
        let collection: String = row.try_get(0)?;
        if let Some(&i) = index.get(&collection) {
            figures[i].sales.push(Sale { price: wei(&row.try_get::<String, _>(1)?), at: row.try_get(2)? });
        }
    }
    Ok(figures)
}

/// Every collection's figures: the kept ones while the read tables stay the same, else read
/// again (concurrent callers wait for the one pass).
async fn figures(db: &ReadDb) -> Result<Arc<Vec<Figures>>, sqlx::Error> {
    Ok(kept_stats(db).await?.0)
}

/// [`figures`] with the rankings kept for them.
async fn kept_stats(db: &ReadDb) -> Result<(Arc<Vec<Figures>>, Arc<KeptOrders>), sqlx::Error> {
    // Kept for every request: computed on the primary, under its checkpoint (not a replica's).
    let current = db.current();
    let mut kept = db.insight().lock().await;
    // Read before the figures: they reflect this checkpoint or a later one.
    let position = crate::checkpoint::checkpoint_in(&current.pool).await?;
    if let Some((figures, orders)) = kept.as_ref().and_then(|k| k.at(&current.generation, position)) {
        return Ok((figures.clone(), orders.clone()));
    }
    let figures = Arc::new(read_figures(db).await?);
    let mut sale_times: Vec<i64> = figures.iter().flat_map(|f| f.sales.iter().map(|s| s.at)).collect();
    sale_times.sort_unstable();
    let orders = Arc::new(KeptOrders { sale_times, orders: Default::default() });
    *kept = Some(Kept::new(current.generation, position, (figures.clone(), orders.clone())));
    Ok((figures, orders))
}

/// The window of `length` seconds ending at `now`: `now - length < at`, and a block time a
/// little ahead of the clock counts as now.
fn window(f: &Figures, now: i64, length: i64) -> (u128, i64) {
    f.between(now - length + 1, i64::MAX)
}

fn stats_of(f: &Figures, now: i64) -> CollectionStats {
    CollectionStats {
        collection_id: f.id.clone(),
        floor_price: f.floor.map(matic),
        floor_price_wei: f.floor.map(|p| p.to_string()),
        volume_24h: matic(window(f, now, DAY).0),
        volume_24h_wei: window(f, now, DAY).0.to_string(),
        volume_7d: matic(window(f, now, 7 * DAY).0),
        volume_7d_wei: window(f, now, 7 * DAY).0.to_string(),
        volume_all: matic(f.between(i64::MIN, i64::MAX).0),
        volume_all_wei: f.between(i64::MIN, i64::MAX).0.to_string(),
        sales: f.sales.len() as i64,
        owners: f.owners,
        items: f.items,
        listed: f.listed,
        listed_share: f.listed_share(),
    }
}

/// The statistics of the collections `ids` at `now` (those that exist), by id.
pub async fn stats(db: &ReadDb, ids: &[&str], now: i64) -> Result<HashMap<String, CollectionStats>, sqlx::Error> {
    let figures = figures(db).await?;
    let mut out = HashMap::new();
    for id in ids {
        if let Ok(i) = figures.binary_search_by(|f| f.id.as_str().cmp(id)) {
            out.insert(id.to_string(), stats_of(&figures[i], now));
        }
    }
    Ok(out)
}

/// A page of the ranking at `now`.
/// The order is kept with the figures while it stays the same: always for an order that does not
/// depend on the clock, else until a sale crosses the edge of the period or the one before it
/// ([`KeptOrders::still`]); a page is then written from it alone.
pub async fn ranking(db: &ReadDb, request: Ranking, page: Page, now: i64) -> Result<Paged<RankedCollection>, sqlx::Error> {
    let (figures, kept) = kept_stats(db).await?;
    let found = kept.orders.lock().unwrap_or_else(|e| e.into_inner()).get(&request).cloned();
    let order = match found {
        Some((then, order)) if kept.still(request, then, now) => order,
        _ => {
            let order = Arc::new(rank_order(&figures, request, now));
            kept.orders.lock().unwrap_or_else(|e| e.into_inner()).insert(request, (now, order.clone()));
            order
        }
    };
    Ok(ranked_page(&figures, &order, request, page, now))
}

/// A collection's figures over the period: what the order needs, numbers only (rows are written
/// for the page alone).
struct Key {
    i: usize,
    volume: u128,
    sales: i64,
    previous: Option<u128>,
    change: Option<f64>,
}

fn key(figures: &[Figures], i: usize, period: Period, now: i64) -> Key {
    let f = &figures[i];
    let ((volume, sales), previous) = match period.seconds() {
        Some(length) => (window(f, now, length), Some(f.between(now - 2 * length + 1, now - length + 1).0)),
        None => (f.between(i64::MIN, i64::MAX), None),
    };
    let change = previous.filter(|p| *p > 0).map(|p| (volume as f64 - p as f64) / p as f64 * 100.0);
    Key { i, volume, sales, previous, change }
}

/// The figures' indexes in the order `request` asks at `now`.
fn rank_order(figures: &[Figures], request: Ranking, now: i64) -> Vec<usize> {
    use std::cmp::Ordering;
    let mut keys: Vec<Key> = (0..figures.len()).map(|i| key(figures, i, request.period, now)).collect();
    // Values compared in the asked direction; a missing floor or change comes last either way.
    let ordered = |a: Ordering| if request.ascending { a } else { a.reverse() };
    let missing_last = |a: Option<Ordering>, a_some: bool, b_some: bool| match (a_some, b_some) {
        (true, true) => ordered(a.unwrap_or(Ordering::Equal)),
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        (false, false) => Ordering::Equal,
    };
    keys.sort_by(|a, b| {
        let (fa, fb) = (&figures[a.i], &figures[b.i]);
        let primary = match request.sort {
            StatsSort::Volume => ordered(a.volume.cmp(&b.volume)),
            StatsSort::Sales => ordered(a.sales.cmp(&b.sales)),
            StatsSort::Owners => ordered(fa.owners.cmp(&fb.owners)),
            StatsSort::Items => ordered(fa.items.cmp(&fb.items)),
            StatsSort::Listed => ordered(fa.listed_share().total_cmp(&fb.listed_share())),
            StatsSort::Title => ordered(fa.title_lower.cmp(&fb.title_lower)),
            StatsSort::Floor => missing_last(fa.floor.zip(fb.floor).map(|(x, y)| x.cmp(&y)), fa.floor.is_some(), fb.floor.is_some()),
            StatsSort::Change => missing_last(a.change.zip(b.change).map(|(x, y)| x.total_cmp(&y)), a.change.is_some(), b.change.is_some()),
        };
        // Ties: the title, then the id (a stable order).
        primary.then_with(|| fa.title_lower.cmp(&fb.title_lower)).then_with(|| fa.id.cmp(&fb.id))
    });
    keys.into_iter().map(|k| k.i).collect()
}

/// `page` of the ranking in `order`, its figures over the period at `now`.
fn ranked_page(figures: &[Figures], order: &[usize], request: Ranking, page: Page, now: i64) -> Paged<RankedCollection> {
    let total = order.len() as i64;
    let start = (page.offset() as usize).min(order.len());
    let data = order
        .iter()
        .enumerate()
        .skip(start)
        .take(page.limit as usize)
        .map(|(place, &i)| {
            let k = key(figures, i, request.period, now);
            let f = &figures[k.i];
            RankedCollection {
                rank: place as i64 + 1,
                collection_id: f.id.clone(),
                title: f.title.clone(),
                image: f.image.clone(),
                floor_price: f.floor.map(matic),
                floor_price_wei: f.floor.map(|p| p.to_string()),
                volume: matic(k.volume),
                volume_wei: k.volume.to_string(),
                previous_volume: k.previous.map(matic),
                previous_volume_wei: k.previous.map(|v| v.to_string()),
                change: k.change,
                sales: k.sales,
                owners: f.owners,
                items: f.items,
                listed: f.listed,
                listed_share: f.listed_share(),
            }
        })
        .collect();
    Paged::new(data, total, page)
}

/// One day of a collection's history.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct DayBucket {
    /// The day's start (Unix seconds, UTC midnight).
    pub day: i64,
    /// Volume of the day's sales (MATIC).
    pub volume: String,
    /// The same in wei.
    pub volume_wei: String,
    /// The day's sales.
    pub sales: i64,
    /// The lowest fixed-price listing by a wallet of the creator at the day's end (MATIC), or
    /// `None` when there was none.
    pub floor: Option<String>,
    /// The same in wei.
    pub floor_wei: Option<String>,
}

/// A collection's statistics and its history in daily buckets.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CollectionInsight {
    /// The figures now.
    pub stats: CollectionStats,
    /// From the day of its members' first sale or listing to today (the last [`MAX_DAYS`]).
    pub days: Vec<DayBucket>,
}

/// Collection `id`'s statistics and daily history at `now`, or `None` if there is no such
/// collection.
///
/// The floor of a past day is rebuilt from its members' activity rows: a member counts from a
/// fixed-price listing made by a wallet of the creator (only the owner lists, so the creator owned
/// it: the page showed it), at that price and at the price changes that follow, until it is
/// sold, transferred, burned, taken off sale or put in an auction.
pub async fn collection(db: &ReadDb, id: &str, now: i64) -> Result<Option<CollectionInsight>, sqlx::Error> {
    let figures = figures(db).await?;
    let Ok(i) = figures.binary_search_by(|f| f.id.as_str().cmp(id)) else { return Ok(None) };
    let f = &figures[i];
    let rows = sqlx::query(
        "SELECT h.nft_id, h.type_of_event, h.kind, h.price, h.at, \
            CAST(CASE WHEN EXISTS (SELECT 1 FROM user_wallets w WHERE w.address = h.address AND w.user_id = c.creator_user_id) \
            THEN 1 ELSE 0 END AS BIGINT) \
         FROM collection_nfts cn JOIN collections c ON c.collection_id = cn.collection_id \
         JOIN nft_history h ON h.nft_id = cn.nft_id \
         WHERE cn.collection_id = $1 AND h.kind IN ('LIST', 'PRICE', 'STOP', 'SALE', 'TRANSFER', 'BURN') \
         AND NOT EXISTS (SELECT 1 FROM moderated m WHERE m.target_kind = 'nft' AND m.target_id = cn.nft_id AND m.hidden = 1) \
         ORDER BY h.position",
    )
    .bind(id)
    .fetch_all(&db.reader().await)
    .await?;
    let today = now.div_euclid(DAY) * DAY;
    let first = rows
        .iter()
        .filter_map(|r| r.try_get::<i64, _>(4).ok())
        .chain(f.sales.first().map(|s| s.at))
        .min()
        .map_or(today, |at| at.div_euclid(DAY) * DAY)
        .max(today - (MAX_DAYS - 1) * DAY)
        .min(today);
    // Each member's fixed price while it counts toward the floor.
    let mut listed: HashMap<String, u128> = HashMap::new();
    let mut days = Vec::new();
    let mut next = 0;
    let mut day = first;
    // Activity before the first bucket (older than MAX_DAYS) sets the state it starts from.
    while day <= today {
        let end = day + DAY;
        while next < rows.len() {
            let row = &rows[next];
            let at: i64 = row.try_get(4)?;
            if at >= end {
                break;
            }
            let (nft, event, kind): (String, String, String) = (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
            let price: Option<String> = row.try_get(3)?;
            let by_creator = row.try_get::<i64, _>(5)? == 1;
            match kind.as_str() {
                "LIST" if event == "PUT_ON_FIXEDSALE" && by_creator => {
                    listed.insert(nft, price.as_deref().map_or(0, wei));
                }
                "PRICE" => {
                    if let (Some(p), Some(price)) = (listed.get_mut(&nft), price) {
                        *p = wei(&price);
                    }
                }
                _ => {
                    listed.remove(&nft);
                }
            }
            next += 1;
        }
        let (volume, sales) = f.between(day, end);
        let floor = listed.values().min().copied();
        days.push(DayBucket {
            day,
            volume: matic(volume),
            volume_wei: volume.to_string(),
            sales,
            floor: floor.map(matic),
            floor_wei: floor.map(|p| p.to_string()),
        });
        day = end;
    }
    Ok(Some(CollectionInsight { stats: stats_of(f, now), days }))
}

/// One point of an NFT's price history.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct PricePoint {
    /// `SALE` or `BID`.
    pub kind: String,
    /// The price (MATIC).
    pub price: String,
    /// The same in wei.
    pub price_wei: String,
    /// Block time (Unix seconds).
    pub at: i64,
    /// The buyer or the bidder.
    pub address: String,
    /// The transaction.
    pub tx_hash: String,
}

/// An NFT's sales and bids, oldest first (its latest [`HISTORY_POINTS`]).
pub async fn price_history(db: &ReadDb, nft_id: &str) -> Result<Vec<PricePoint>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT kind, price, at, address, tx_hash FROM nft_history \
         WHERE nft_id = $1 AND kind IN ('SALE', 'BID') AND price IS NOT NULL ORDER BY position DESC LIMIT $2",
    )
    .bind(nft_id)
    .bind(HISTORY_POINTS)
    .fetch_all(&db.reader().await)
    .await?;
    let mut points = rows
        .iter()
        .map(|row| {
            let price: String = row.try_get(1)?;
            Ok(PricePoint {
                kind: row.try_get(0)?,
                price: super::wei_to_matic(&price),
                price_wei: price,
                at: row.try_get(2)?,
                address: row.try_get(3)?,
                tx_hash: row.try_get(4)?,
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    points.reverse();
    Ok(points)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures(id: &str, title: &str, floor: Option<u128>, sales: &[(u128, i64)], owners: i64) -> Figures {
        Figures {
            id: id.into(),
            title: title.into(),
            title_lower: title.to_lowercase(),
            image: String::new(),
            items: 4,
            owners,
            listed: 1,
            floor,
            sales: sales.iter().map(|&(price, at)| Sale { price, at }).collect(),
        }
    }

    fn rank(figures: &[Figures], request: Ranking, page: Page, now: i64) -> Paged<RankedCollection> {
        ranked_page(figures, &rank_order(figures, request, now), request, page, now)
    }

    #[test]
    fn a_kept_order_is_used_only_while_no_sale_crosses_an_edge_of_its_periods() {
        // 30 collections with sales spread over 40 days, some hours apart.
        let mut seed = 7u64;
        let mut next = move || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            seed >> 33
        };
        let start = 100 * DAY;
        let all: Vec<Figures> = (0..30)
            .map(|c| {
                let mut sales: Vec<(u128, i64)> =
                    (0..next() % 12).map(|_| (u128::from(next() % 50 + 1), start - (next() % (40 * 24)) as i64 * 3_600)).collect();
                sales.sort_by_key(|s| s.1);
                figures(&format!("c{c:02}"), &format!("C{c:02}"), None, &sales, 1)
            })
            .collect();
        let mut sale_times: Vec<i64> = all.iter().flat_map(|f| f.sales.iter().map(|s| s.at)).collect();
        sale_times.sort_unstable();
        let kept = KeptOrders { sale_times, orders: Default::default() };
        let (mut kept_count, mut redone) = (0, 0);
        for period in [Period::Day, Period::Week, Period::Month, Period::All] {
            for sort in [StatsSort::Volume, StatsSort::Sales, StatsSort::Change, StatsSort::Title] {
                let request = Ranking { period, sort, ascending: false };
                for step in [1, 60, 1_800, 7_200, DAY] {
                    let now = start + step;
                    // The page's figures are always written at `now`: a kept order must be the
                    // order at `now`.
                    if kept.still(request, start, now) {
                        kept_count += 1;
                        assert_eq!(rank_order(&all, request, start), rank_order(&all, request, now), "{request:?} +{step} s");
                    } else {
                        redone += 1;
                    }
                }
            }
        }
        assert!(kept_count > 10 && redone > 10, "both cases: {kept_count} kept, {redone} ranked again");
    }

    #[test]
    fn windows_include_their_start_and_the_change_compares_the_period_before() {
        let now = 10 * DAY;
        // One sale exactly 24 h ago (in), one a second earlier (the day before), one now.
        let f = figures("a", "A", None, &[(5, now - DAY - 1), (7, now - DAY), (3, now)], 1);
        let rows = rank(&[f], Ranking { period: Period::Day, sort: StatsSort::Volume, ascending: false }, Page { page: 1, limit: 5 }, now);
        let row = &rows.data[0];
        // The window is (now - 24 h, now]: the sale at now - 24 h is in the period before.
        assert_eq!((row.volume_wei.as_str(), row.sales), ("3", 1));
        assert_eq!(row.previous_volume.as_deref(), Some("0.000000000000000012"));
        assert_eq!(row.previous_volume_wei.as_deref(), Some("12"));
        assert_eq!(row.change, Some((3.0 - 12.0) / 12.0 * 100.0));
    }

    #[test]
    fn a_missing_floor_sorts_last_both_ways() {
        let all = [figures("a", "A", Some(5), &[], 1), figures("b", "B", None, &[], 1), figures("c", "C", Some(2), &[], 1)];
        let order = |ascending| {
            let request = Ranking { period: Period::All, sort: StatsSort::Floor, ascending };
            rank(&all, request, Page { page: 1, limit: 5 }, 0).data.into_iter().map(|r| r.collection_id).collect::<Vec<_>>()
        };
        assert_eq!(order(true), ["c", "a", "b"]);
        assert_eq!(order(false), ["a", "c", "b"]);
    }
}
