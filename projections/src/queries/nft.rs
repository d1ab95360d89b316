//! NFT queries: browse, detail, auctions, bid history, history, owners, trending, statistics.
//!
//! An NFT row comes with the users behind its creator and owner addresses (joined from the
//! accounts read model); bid and history rows carry addresses, which [`people`] maps to users
//! in one batch per response.

use std::collections::HashMap;

use chrono::Utc;
use domain::Position;
use serde::Serialize;
use sqlx::{Row, any::AnyRow};

pub use super::browse::{Explore, Facet, FacetValue, Facets, SaleFilter, SortBy, TraitFilter};
use super::{Page, Paged, iso, placeholders, wei_to_matic};
use crate::{ProjectionError, ReadDb, read_db::Current};

/// A token's current auction, as the spec shows it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AuctionView {
    /// The contract's auction id.
    pub auction_id: String,
    /// Base price (MATIC).
    pub auction_start_price: String,
    /// The same in wei.
    pub auction_start_price_wei: String,
    /// Buy-now price (MATIC).
    pub auction_buy_now_price: String,
    /// The same in wei.
    pub auction_buy_now_price_wei: String,
    /// Highest bid (MATIC).
    pub auction_highest_bid: String,
    /// The same in wei.
    pub auction_highest_bid_wei: String,
    /// End (ISO 8601).
    pub auction_end_hours: String,
    /// Whether bidding is over (settled, or past its end).
    pub auction_ended: bool,
}

/// An NFT as lists and the detail page show it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NftView {
    /// `{chain}-{token}`.
    #[serde(rename = "_id")]
    pub id: String,
    /// Token id.
    pub nft_token_id: String,
    /// Image URL.
    pub file: String,
    /// Title.
    pub title: String,
    /// Description.
    pub description: String,
    /// Category id.
    pub nft_category: String,
    /// Metadata URL.
    pub metadata_url: String,
    /// Token URI on chain.
    pub token_uri: String,
    /// Fixed (or buy-now) price in MATIC.
    pub fixed_price: String,
    /// The same in wei.
    pub fixed_price_wei: String,
    /// `FIXEDPRICE`, `AUCTION` or `NOT_FOR_SALE`.
    pub form_of_sale: String,
    /// Creator's address.
    pub creator_address: String,
    /// Current owner's address.
    pub owner_address: String,
    /// Likes.
    pub total_likes: i64,
    /// Mint time (ISO 8601).
    pub created_at: String,
    /// Last change (ISO 8601).
    pub updated_at: String,
    /// When it was last put on sale (ISO 8601; the mint time if never): explore's "most
    /// recent" order.
    pub listed_at: String,
    /// The open auction, if any.
    pub current_auction: Option<AuctionView>,
    /// While a moderator holds its sale (a stolen-item hold): when the hold ends (ISO 8601); null
    /// when not held or the hold has ended. Until then it cannot be listed, bought, bid on or
    /// offered for on this market; transfers stay free.
    pub sale_held_until: Option<String>,
    /// Whether the hold came with a note of evidence (a police report); false when not held.
    pub sale_hold_evidence: bool,
    /// Highest bid in MATIC ("0" without bids).
    pub highest_bid: String,
    /// The same in wei.
    pub highest_bid_wei: String,
    /// Royalty rows `{walletAddress, percentage}`.
    pub royalty: Vec<RoyaltyView>,
    /// Properties `{key, value}`.
    pub properties: serde_json::Value,
    /// The mint transaction.
    pub transaction_hash: String,
    /// Its rarity rank in its collection (the collection listed, or the first of its own).
    pub rarity: Option<RarityView>,
    /// When its running auction ends (Unix seconds): from then on `auctionEnded` is true.
    #[serde(skip)]
    pub auction_ends_at: Option<i64>,
    /// When its sale's hold ends (Unix seconds): from then on `saleHeldUntil` is null.
    #[serde(skip)]
    pub sale_hold_ends_at: Option<i64>,
    /// The user behind the creator's address, if it is linked to an account.
    #[serde(skip)]
    pub creator: Option<Person>,
    /// The user behind the owner's address, if it is linked to an account.
    #[serde(skip)]
    pub owner: Option<Person>,
}

impl NftView {
    /// When this view changes by the clock alone (its running auction or its sale's hold ends),
    /// if ever: an answer made of it is stale from then on.
    pub fn changes_at(&self) -> Option<i64> {
        self.auction_ends_at.into_iter().chain(self.sale_hold_ends_at).min()
    }
}

/// A royalty row as the spec shows it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RoyaltyView {
    /// Receiver.
    pub wallet_address: String,
    /// Percent (basis points / 100).
    pub percentage: f64,
    /// The share in basis points, as the contract takes it (100 = 1%).
    pub bps: u32,
}

const NFT_COLUMNS: &str = "n.nft_id, n.token_id, n.token_uri, n.creator, n.owner, n.sale_type, n.price, n.base_price, \
    n.end_time, n.auction_id, n.highest_bid, n.royalties, n.total_likes, n.minted_at, n.updated_at, n.mint_tx, \
    COALESCE(d.title, ''), COALESCE(d.description, ''), COALESCE(d.category_id, ''), COALESCE(d.file, ''), \
    COALESCE(d.metadata_url, ''), COALESCE(d.properties, '[]'), \
    cu.user_id, cu.username, cu.full_name, cu.avatar, COALESCE(cm.verified, 0), \
    ou.user_id, ou.username, ou.full_name, ou.avatar, COALESCE(om.verified, 0), n.listed_at, \
    COALESCE(h.held_until, 0), h.evidence";

/// The tables [`NFT_COLUMNS`] come from: a token, its details, the users behind its creator and
/// owner and whether they are verified, its sale's hold.
const NFT_FROM: &str = "FROM nfts n LEFT JOIN nft_details d ON d.nft_id = n.nft_id LEFT JOIN sale_holds h ON h.nft_id = n.nft_id \
    LEFT JOIN user_wallets cw ON cw.address = n.creator LEFT JOIN users cu ON cu.user_id = cw.user_id \
    LEFT JOIN moderated cm ON cm.target_kind = 'user' AND cm.target_id = cu.user_id \
    LEFT JOIN user_wallets ow ON ow.address = n.owner LEFT JOIN users ou ON ou.user_id = ow.user_id \
    LEFT JOIN moderated om ON om.target_kind = 'user' AND om.target_id = ou.user_id";

/// A result row as sqlx or rusqlite read it: [`nft_view`] and [`person_at`] map either.
trait Columns {
    type Error;
    fn text(&self, at: usize) -> Result<String, Self::Error>;
    fn maybe_text(&self, at: usize) -> Result<Option<String>, Self::Error>;
    fn int(&self, at: usize) -> Result<i64, Self::Error>;
}

impl Columns for AnyRow {
    type Error = sqlx::Error;
    fn text(&self, at: usize) -> Result<String, sqlx::Error> {
        self.try_get(at)
    }
    fn maybe_text(&self, at: usize) -> Result<Option<String>, sqlx::Error> {
        self.try_get(at)
    }
    fn int(&self, at: usize) -> Result<i64, sqlx::Error> {
        self.try_get(at)
    }
}

impl Columns for rusqlite::Row<'_> {
    type Error = rusqlite::Error;
    fn text(&self, at: usize) -> rusqlite::Result<String> {
        self.get(at)
    }
    fn maybe_text(&self, at: usize) -> rusqlite::Result<Option<String>> {
        self.get(at)
    }
    fn int(&self, at: usize) -> rusqlite::Result<i64> {
        self.get(at)
    }
}

/// The user in columns `at..at + 5` (id, username, full name, avatar CID, verified), if any.
fn person_at<R: Columns>(row: &R, at: usize) -> Result<Option<Person>, R::Error> {
    let Some(user_id) = row.maybe_text(at)? else { return Ok(None) };
    let avatar = row.maybe_text(at + 3)?;
    Ok(Some(Person {
        user_id,
        username: row.text(at + 1)?,
        full_name: row.text(at + 2)?,
        avatar: avatar.map(|cid| format!("/ipfs/{cid}")).unwrap_or_default(),
        verified: row.int(at + 4)? != 0,
    }))
}

fn nft_view<R: Columns>(row: &R) -> Result<NftView, R::Error> {
    let sale_type = row.text(5)?;
    let price = row.text(6)?;
    let end_time = row.int(8)?;
    let highest_bid = row.text(10)?;
    let royalties: Vec<domain::chain::Royalty> = serde_json::from_str(&row.text(11)?).unwrap_or_default();
    // A hold whose end has passed is no hold (no event ends it).
    let held_until = Some(row.int(33)?).filter(|until| *until > Utc::now().timestamp());
    let current_auction = (sale_type == "AUCTION").then(|| {
        let base_price = row.text(7).unwrap_or_default();
        AuctionView {
            auction_id: row.text(9).unwrap_or_default(),
            auction_start_price: wei_to_matic(&base_price),
            auction_start_price_wei: base_price,
            auction_buy_now_price: wei_to_matic(&price),
            auction_buy_now_price_wei: price.clone(),
            auction_highest_bid: wei_to_matic(&highest_bid),
            auction_highest_bid_wei: highest_bid.clone(),
            auction_end_hours: iso(end_time),
            auction_ended: Utc::now().timestamp() >= end_time,
        }
    });
    Ok(NftView {
        id: row.text(0)?,
        nft_token_id: row.text(1)?,
        token_uri: row.text(2)?,
        creator_address: row.text(3)?,
        owner_address: row.text(4)?,
        fixed_price: wei_to_matic(&price),
        fixed_price_wei: price,
        form_of_sale: sale_type,
        highest_bid: wei_to_matic(&highest_bid),
        highest_bid_wei: highest_bid,
        royalty: royalties
            .into_iter()
            .map(|r| RoyaltyView { wallet_address: r.receiver, percentage: f64::from(r.bps) / 100.0, bps: r.bps })
            .collect(),
        total_likes: row.int(12)?,
        created_at: iso(row.int(13)?),
        updated_at: iso(row.int(14)?),
        listed_at: iso(row.int(32)?),
        transaction_hash: row.text(15)?,
        rarity: None,
        title: row.text(16)?,
        description: row.text(17)?,
        nft_category: row.text(18)?,
        file: row.text(19)?,
        metadata_url: row.text(20)?,
        properties: serde_json::from_str(&row.text(21)?).unwrap_or_default(),
        auction_ends_at: current_auction.as_ref().filter(|a| !a.auction_ended).map(|_| end_time),
        sale_hold_evidence: held_until.is_some() && row.maybe_text(34)?.is_some(),
        sale_held_until: held_until.map(iso),
        sale_hold_ends_at: held_until,
        current_auction,
        creator: person_at(row, 22)?,
        owner: person_at(row, 27)?,
    })
}

/// The NFTs `sql` selects ([`NFT_COLUMNS`], `params` bound to `$1`, `$2`...), in its order. On
/// SQLite they are read in place on one of the generation's rusqlite connections (the same SQL:
/// SQLite numbers `$n` parameters in order of appearance); on Postgres through the pool.
async fn nft_rows(current: &Current, sql: &str, params: &[&str]) -> Result<Vec<NftView>, ProjectionError> {
    if let Some(readers) = &current.sqlite {
        let views =
            readers.read(|conn| conn.prepare_cached(sql)?.query_map(rusqlite::params_from_iter(params), |row| nft_view(row))?.collect())?;
        return Ok(views);
    }
    let mut query = sqlx::query(sql);
    for param in params {
        query = query.bind(*param);
    }
    Ok(query.fetch_all(&current.pool).await?.iter().map(nft_view).collect::<Result<_, _>>()?)
}

/// Browse: filters, sort, search (every word a prefix of a word of the title or description),
/// one page, from read tables that include position `at` at least. Which tokens and in which
/// order comes from the in-memory browse index (`browse.rs`); their rows from SQL.
pub async fn explore(db: &ReadDb, request: &Explore, page: Page, at: Position) -> Result<Paged<NftView>, ProjectionError> {
    // The browse index is shared by every request and reloads what changed after its checkpoint:
    // it follows the primary (a replica behind it would send it back). The rows may come from a
    // replica.
    let current = db.current();
    let (ids, total) = db.browse().find(&current.generation, &current.pool, request, page, at).await?;
    let mut data = Vec::with_capacity(ids.len());
    if !ids.is_empty() {
        let sql = format!("SELECT {NFT_COLUMNS} {NFT_FROM} WHERE n.nft_id IN ({})", placeholders(ids.len()));
        let params: Vec<&str> = ids.iter().map(String::as_str).collect();
        let mut rows: HashMap<String, NftView> =
            nft_rows(&db.reading().await, &sql, &params).await?.into_iter().map(|v| (v.id.clone(), v)).collect();
        // In the index's order; a token a reorg removed since is left out.
        data.extend(ids.iter().filter_map(|id| rows.remove(id)));
    }
    set_rarity(db, &mut data, request.collection.as_deref());
    Ok(Paged::new(data, total as i64, page))
}

/// The facets of a browse request (see [`Facets`]: each trait's values with the count of
/// matches each would give), at most `per_trait` values a trait, from the browse index at `at`
/// at least.
pub async fn facets(db: &ReadDb, request: &Explore, per_trait: usize, at: Position) -> Result<Facets, ProjectionError> {
    let current = db.current();
    Ok(db.browse().facets(&current.generation, &current.pool, request, per_trait, at).await?)
}

/// A token's rarity in a collection, by OpenRarity's method ([`super::rarity`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RarityView {
    /// The collection it is ranked in.
    pub collection_id: String,
    /// 1 is the rarest; equal scores share a rank.
    pub rank: u32,
    /// Members ranked (the collection's tokens not burned).
    pub of: usize,
    /// OpenRarity's score (information content over the collection's entropy).
    pub score: f64,
}

/// Sets each view's rarity: in `collection`, or, without one, in the first of its collections
/// (by id). Reads the browse index as it stands (call it after [`explore`] or [`detail`]).
pub fn set_rarity(db: &ReadDb, views: &mut [NftView], collection: Option<&str>) {
    let ids: Vec<&str> = views.iter().map(|v| v.id.as_str()).collect();
    let mut found = db.browse().rarity(&ids, collection);
    for view in views {
        view.rarity =
            found.remove(&view.id).map(|(collection_id, rank, of)| RarityView { collection_id, rank: rank.rank, of, score: rank.score });
    }
}

/// A token's rarity in each of its collections (by collection id), from the browse index at
/// `at` at least.
pub async fn rarities(db: &ReadDb, nft_id: &str, at: Position) -> Result<Vec<RarityView>, ProjectionError> {
    let current = db.current();
    db.browse().cover(&current.generation, &current.pool, at).await?;
    Ok(db
        .browse()
        .rarities(nft_id)
        .into_iter()
        .map(|(collection_id, rank, of)| RarityView { collection_id, rank: rank.rank, of, score: rank.score })
        .collect())
}

/// When the next live auction ends after `now` (Unix seconds): a list of live auctions
/// ([`SaleFilter::LiveAuction`], [`SortBy::Ending`]) read from the index changes then, though
/// the read tables do not. Call it after [`explore`], which brings the index up to date.
pub fn next_auction_end(db: &ReadDb, now: i64) -> Option<i64> {
    db.browse().next_auction_end(now)
}

/// Builds the browse index now, from read tables at `at` at least, so that the first visitor
/// does not wait for it (it is otherwise built by the first browse).
pub async fn prepare_browse(db: &ReadDb, at: Position) -> Result<(), sqlx::Error> {
    let current = db.current();
    db.browse().cover(&current.generation, &current.pool, at).await
}

/// One token, unless unknown or burned.
pub async fn detail(db: &ReadDb, nft_id: &str) -> Result<Option<NftView>, ProjectionError> {
    let sql = format!("SELECT {NFT_COLUMNS} {NFT_FROM} WHERE n.nft_id = $1 AND n.burned = 0");
    Ok(nft_rows(&db.reading().await, &sql, &[nft_id]).await?.pop())
}

/// The tokens among `ids` that show (not burned), in no particular order.
pub async fn cards(db: &ReadDb, ids: &[&str]) -> Result<Vec<NftView>, ProjectionError> {
    // Far below either database's limit of parameters per statement.
    const CHUNK: usize = 500;
    let current = db.reading().await;
    let mut views = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(CHUNK) {
        let sql = format!("SELECT {NFT_COLUMNS} {NFT_FROM} WHERE n.nft_id IN ({}) AND n.burned = 0", placeholders(chunk.len()));
        views.extend(nft_rows(&current, &sql, chunk).await?);
    }
    Ok(views)
}

/// Whether a token exists (burned ones included): tells a 404 from an empty list.
pub async fn exists(db: &ReadDb, nft_id: &str) -> Result<bool, sqlx::Error> {
    let found: Option<String> =
        sqlx::query_scalar("SELECT nft_id FROM nfts WHERE nft_id = $1").bind(nft_id).fetch_optional(&db.reader().await).await?;
    Ok(found.is_some())
}

/// A token's open auctions, newest first (the UI reads the first).
pub async fn auctions(db: &ReadDb, nft_id: &str) -> Result<Vec<AuctionView>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT auction_id, start_price, buy_now_price, highest_bid, end_time, ended FROM auctions \
         WHERE nft_id = $1 AND ended = 0 ORDER BY started_at DESC, auction_id DESC",
    )
    .bind(nft_id)
    .fetch_all(&db.reader().await)
    .await?;
    let now = Utc::now().timestamp();
    rows.iter()
        .map(|row| {
            let end: i64 = row.try_get(4)?;
            let (start, buy_now, highest): (String, String, String) = (row.try_get(1)?, row.try_get(2)?, row.try_get(3)?);
            Ok(AuctionView {
                auction_id: row.try_get(0)?,
                auction_start_price: wei_to_matic(&start),
                auction_start_price_wei: start,
                auction_buy_now_price: wei_to_matic(&buy_now),
                auction_buy_now_price_wei: buy_now,
                auction_highest_bid: wei_to_matic(&highest),
                auction_highest_bid_wei: highest,
                auction_end_hours: iso(end),
                auction_ended: row.try_get::<i64, _>(5)? == 1 || now >= end,
            })
        })
        .collect()
}

/// A bid as the bid history and My Bids show it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BidView {
    /// Its log position.
    pub id: i64,
    /// `{chain}-{token}`.
    pub nft_id: String,
    /// The auction.
    pub auction_id: String,
    /// Amount in MATIC.
    pub bid_amount: String,
    /// The same in wei.
    pub bid_amount_wei: String,
    /// Bidder address.
    pub bidder_address: String,
    /// `BID`, `ALLOTED` or `REFUNDED`.
    pub status: String,
    /// The bid's transaction.
    pub transaction_hash: String,
    /// When (ISO 8601).
    pub created_at: String,
}

/// The bids of one auction, newest first.
pub async fn bid_history(db: &ReadDb, nft_id: &str, auction_id: &str, page: Page) -> Result<Paged<BidView>, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT position, nft_id, auction_id, amount, bidder, status, tx_hash, created_at FROM bids \
         WHERE nft_id = $1 AND auction_id = $2 ORDER BY position DESC LIMIT {} OFFSET {}",
        page.limit,
        page.offset()
    ))
    .bind(nft_id)
    .bind(auction_id)
    .fetch_all(&db.reader().await)
    .await?;
    let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM bids WHERE nft_id = $1 AND auction_id = $2")
        .bind(nft_id)
        .bind(auction_id)
        .fetch_one(&db.reader().await)
        .await?;
    let data = rows
        .iter()
        .map(|row| {
            let amount: String = row.try_get(3)?;
            Ok(BidView {
                id: row.try_get(0)?,
                nft_id: row.try_get(1)?,
                auction_id: row.try_get(2)?,
                bid_amount: wei_to_matic(&amount),
                bid_amount_wei: amount,
                bidder_address: row.try_get(4)?,
                status: row.try_get(5)?,
                transaction_hash: row.try_get(6)?,
                created_at: iso(row.try_get(7)?),
            })
        })
        .collect::<Result<_, sqlx::Error>>()?;
    Ok(Paged::new(data, total, page))
}

/// A history row.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryView {
    /// Its log position.
    #[serde(rename = "_id")]
    pub id: i64,
    /// MINTED, PUT_ON_AUCTION, PUT_ON_FIXEDSALE, REMOVED_FROM_SALE, BIDDED_FOR, PURCHASED,
    /// WON_AUCTION, BURNED, LIKED, UNLIKED.
    pub type_of_event: String,
    /// Who did it ("" for a like: a user, not a wallet).
    pub address: String,
    /// The transaction ("" for a like).
    pub transaction_hash: String,
    /// When (ISO 8601).
    pub timestamp: String,
    /// The user who did it, for LIKED and UNLIKED rows.
    #[serde(skip)]
    pub user_id: Option<String>,
}

/// A token's history, newest first: the chain's rows and the likes'. The spec's kinds only: the
/// rows only the activity feed shows (PRICE_CHANGED, TRANSFERRED, OFFER_MADE) are left out.
pub async fn history(db: &ReadDb, nft_id: &str) -> Result<Vec<HistoryView>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT position, type_of_event, address, tx_hash, at, NULL FROM nft_history WHERE nft_id = $1 \
         AND type_of_event NOT IN ('PRICE_CHANGED', 'TRANSFERRED', 'OFFER_MADE') \
         UNION ALL SELECT position, type_of_event, '', '', at, user_id FROM like_history WHERE nft_id = $1 \
         ORDER BY 1 DESC LIMIT 200",
    )
    .bind(nft_id)
    .fetch_all(&db.reader().await)
    .await?;
    rows.iter()
        .map(|row| {
            Ok(HistoryView {
                id: row.try_get(0)?,
                type_of_event: row.try_get(1)?,
                address: row.try_get(2)?,
                transaction_hash: row.try_get(3)?,
                timestamp: iso(row.try_get(4)?),
                user_id: row.try_get(5)?,
            })
        })
        .collect()
}

/// An owner of a token and since when.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OwnerView {
    /// Owner address.
    pub owner_address: String,
    /// The transaction that made them owner.
    pub transaction_hash: String,
    /// Since (ISO 8601).
    pub since: String,
}

/// Every owner a token has had, newest first.
pub async fn owners(db: &ReadDb, nft_id: &str) -> Result<Vec<OwnerView>, sqlx::Error> {
    let rows = sqlx::query("SELECT owner, tx_hash, at FROM owner_history WHERE nft_id = $1 ORDER BY position DESC")
        .bind(nft_id)
        .fetch_all(&db.reader().await)
        .await?;
    rows.iter()
        .map(|row| Ok(OwnerView { owner_address: row.try_get(0)?, transaction_hash: row.try_get(1)?, since: iso(row.try_get(2)?) }))
        .collect()
}

/// Trending: the listings of a sale type by their trending score at `now` (see
/// [`super::trending`]), then by popularity and mint time.
pub async fn trending(db: &ReadDb, sale: SaleFilter, page: Page, now: i64, at: Position) -> Result<Paged<NftView>, ProjectionError> {
    let (ids, total) = super::trending::nft_ids(db, sale.sale_type(), page, now, at).await?;
    let mut data = Vec::with_capacity(ids.len());
    if !ids.is_empty() {
        let sql = format!("SELECT {NFT_COLUMNS} {NFT_FROM} WHERE n.nft_id IN ({})", placeholders(ids.len()));
        let params: Vec<&str> = ids.iter().map(String::as_str).collect();
        let mut rows: HashMap<String, NftView> =
            nft_rows(&db.reading().await, &sql, &params).await?.into_iter().map(|v| (v.id.clone(), v)).collect();
        data.extend(ids.iter().filter_map(|id| rows.remove(id)));
    }
    Ok(Paged::new(data, total, page))
}

/// The landing page's counters.
#[derive(Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Statistics {
    /// Tokens ever minted.
    pub total_nft_minted: i64,
    /// Distinct addresses that sold.
    pub total_seller: i64,
    /// Sales.
    pub total_nft_sold: i64,
}

/// Marketplace statistics.
pub async fn statistics(db: &ReadDb) -> Result<Statistics, sqlx::Error> {
    let row = sqlx::query("SELECT (SELECT COUNT(*) FROM nfts), (SELECT COUNT(DISTINCT seller) FROM sales), (SELECT COUNT(*) FROM sales)")
        .fetch_one(&db.reader().await)
        .await?;
    Ok(Statistics { total_nft_minted: row.try_get(0)?, total_seller: row.try_get(1)?, total_nft_sold: row.try_get(2)? })
}

/// A category.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CategoryView {
    /// Id.
    pub id: String,
    /// Name.
    pub category_name: String,
}

/// Every category, in the order they were added.
pub async fn categories(db: &ReadDb) -> Result<Vec<CategoryView>, sqlx::Error> {
    let rows = sqlx::query("SELECT id, name FROM categories ORDER BY position").fetch_all(&db.reader().await).await?;
    rows.iter().map(|row| Ok(CategoryView { id: row.try_get(0)?, category_name: row.try_get(1)? })).collect()
}

/// The user behind a wallet address, as NFT cards, bids and history rows show them.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Person {
    /// User id.
    pub user_id: String,
    /// Username.
    pub username: String,
    /// Full name.
    pub full_name: String,
    /// Avatar URL (`/ipfs/<cid>`) or "".
    pub avatar: String,
    /// Whether an admin verified them (a badge beside their name).
    pub verified: bool,
}

/// The users behind `addresses` (lower-case), for those linked to an account. One query for a
/// whole page of rows.
pub async fn people(db: &ReadDb, addresses: &[String]) -> Result<std::collections::HashMap<String, Person>, sqlx::Error> {
    let mut unique: Vec<&String> = addresses.iter().collect();
    unique.sort();
    unique.dedup();
    if unique.is_empty() {
        return Ok(Default::default());
    }
    let sql = format!(
        "SELECT w.address, u.user_id, u.username, u.full_name, u.avatar, COALESCE(m.verified, 0) FROM user_wallets w \
         JOIN users u ON u.user_id = w.user_id LEFT JOIN moderated m ON m.target_kind = 'user' AND m.target_id = u.user_id \
         WHERE w.address IN ({})",
        placeholders(unique.len())
    );
    let mut query = sqlx::query(&sql);
    for address in unique {
        query = query.bind(address.as_str());
    }
    query
        .fetch_all(&db.reader().await)
        .await?
        .iter()
        .filter_map(|row| match (row.try_get(0), person_at(row, 1)) {
            (Ok(address), Ok(Some(person))) => Some(Ok((address, person))),
            (Err(e), _) | (_, Err(e)) => Some(Err(e)),
            (Ok(_), Ok(None)) => None,
        })
        .collect()
}
