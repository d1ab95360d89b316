//! Market insight: `/api/nft/pricehistory/{nftId}` (an NFT's sales and bids over time),
//! `/api/stats/collections` (the collections ranked by a column over a period) and
//! `/api/stats/collection/{collectionId}` (a collection's figures and daily history).
//!
//! The figures are defined in `projections::queries::insight` (and docs/read-models.md): a
//! collection's history is the trade of its current members.

use axum::{
    extract::{Path, State},
    response::Response,
};
use projections::queries::{
    Page,
    insight::{self, Period, Ranking, StatsSort},
    nft,
};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{
    lists::{ORDER_BY, PAGE, limit},
    nft::Paged,
    openapi::{BadRequest, NotFound},
    params::{Choice, Params, query_params},
};
use crate::http::{
    AppState,
    error::{ApiError, Envelope, db_error, ok},
};

/// Rows per page of the ranking.
const STATS_PAGE_SIZE: u32 = 20;

const PERIOD: Choice<Period> = Choice {
    name: "period",
    default: "24H",
    values: &["24H", "7D", "30D", "ALL"],
    allowed: "24H, 7D, 30D, ALL",
    parse: Period::parse,
    description: "The period of `volume`, `sales` and `change`: the last 24 hours, 7 days, 30 days, or all time",
};

const STATS_SORT: Choice<StatsSort> = Choice {
    name: "sortBy",
    default: "VOLUME",
    values: &["VOLUME", "CHANGE", "FLOOR", "SALES", "OWNERS", "ITEMS", "LISTED", "TITLE"],
    allowed: "VOLUME, CHANGE, FLOOR, SALES, OWNERS, ITEMS, LISTED, TITLE",
    parse: StatsSort::parse,
    description: "The column: VOLUME and SALES over the period, CHANGE (volume against the period before; none last), FLOOR \
        (none last), OWNERS, ITEMS, LISTED (the share listed), TITLE (orderBy 1: A to Z). Ties: by title",
};

query_params!(
    /// The ranking's query.
    RankingQuery: PERIOD, STATS_SORT, ORDER_BY, PAGE, limit(STATS_PAGE_SIZE)
);

/// The insight routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(price_history)).routes(routes!(collection_ranking)).routes(routes!(collection_stats))
}

/// An NFT's price history: its sales and bids, oldest first (the latest 500).
#[utoipa::path(
    get,
    path = "/api/nft/pricehistory/{nftId}",
    tag = "nft",
    security(()),
    params(("nftId" = String, Path, description = "`{chainId}-{tokenId}`", example = "80001-1")),
    responses((status = 200, description = "Its sales and bids, oldest first", body = Envelope<Vec<PricePoint>>), (status = 404, response = NotFound)),
)]
async fn price_history(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    if !nft::exists(&state.read, &id).await.map_err(db_error)? {
        return Err(ApiError::NotFound(format!("No NFT with id {id}")));
    }
    Ok(ok(insight::price_history(&state.read, &id).await.map_err(db_error)?, "Price history fetched"))
}

/// The collections ranked: floor, volume, sales, owners, items and share listed, with the volume's
/// change over the period, a page at a time.
#[utoipa::path(
    get,
    path = "/api/stats/collections",
    tag = "collection",
    security(()),
    params(RankingQuery),
    responses((status = 200, description = "A page of the ranking", body = Envelope<Paged<RankedCollection>>), (status = 400, response = BadRequest)),
)]
async fn collection_ranking(State(state): State<AppState>, params: Params) -> Result<Response, ApiError> {
    let request = Ranking { period: params.choice(&PERIOD)?, sort: params.choice(&STATS_SORT)?, ascending: params.choice(&ORDER_BY)? };
    let page = Page { page: params.number(&PAGE)?, limit: params.number(&limit(STATS_PAGE_SIZE))? };
    let now = chrono::Utc::now().timestamp();
    let ranked = insight::ranking(&state.read, request, page, now).await.map_err(db_error)?;
    Ok(ok(ranked, "Collection statistics fetched"))
}

/// A collection's figures now and its history in daily buckets (volume, sales, floor at the
/// day's end).
#[utoipa::path(
    get,
    path = "/api/stats/collection/{collectionId}",
    tag = "collection",
    security(()),
    params(("collectionId" = String, Path, description = "The collection's id (a UUID)")),
    responses((status = 200, description = "Its figures and daily history", body = Envelope<CollectionInsight>), (status = 404, response = NotFound)),
)]
async fn collection_stats(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let now = chrono::Utc::now().timestamp();
    let found = insight::collection(&state.read, id.trim(), now).await.map_err(db_error)?;
    let found = found.ok_or_else(|| ApiError::NotFound(format!("No collection with id {id}")))?;
    Ok(ok(found, "Collection statistics fetched"))
}

// The answers' shapes, for the document (the handlers serialize the read model's views).

/// One point of an NFT's price history.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
struct PricePoint {
    /// `SALE` or `BID`.
    kind: PricePointKind,
    /// The price (MATIC).
    price: String,
    /// The same in wei.
    price_wei: String,
    /// Block time (Unix seconds).
    at: i64,
    /// The buyer or the bidder.
    address: String,
    /// The transaction.
    tx_hash: String,
}

/// What a price point is.
#[derive(ToSchema)]
#[allow(dead_code, non_camel_case_types, clippy::upper_case_acronyms, reason = "a schema only, its values named as they are sent")]
enum PricePointKind {
    SALE,
    BID,
}

/// A row of the ranking.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
struct RankedCollection {
    /// Its place in this order (1 first).
    rank: i64,
    /// The collection's id.
    collection_id: String,
    /// Title.
    title: String,
    /// Image URL (`/ipfs/<cid>`).
    image: String,
    /// The lowest fixed price among the NFTs its page lists (MATIC), or null.
    floor_price: Option<String>,
    /// The same in wei.
    floor_price_wei: Option<String>,
    /// Volume over the period: the sales of its members (MATIC).
    volume: String,
    /// The same in wei.
    volume_wei: String,
    /// Volume over the period before, of the same length (MATIC; null for ALL).
    previous_volume: Option<String>,
    /// The same in wei.
    previous_volume_wei: Option<String>,
    /// The volume's change against the period before, in percent (null for ALL or when nothing
    /// sold in the period before).
    change: Option<f64>,
    /// Sales over the period.
    sales: i64,
    /// Distinct owners of its items.
    owners: i64,
    /// Members not burned.
    items: i64,
    /// Items on sale (fixed price or auction).
    listed: i64,
    /// `listed / items` (0 without items).
    listed_share: f64,
}

/// A collection's figures now.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
struct CollectionStats {
    /// The collection's id.
    collection_id: String,
    /// The lowest fixed price among the NFTs its page lists (MATIC), or null.
    floor_price: Option<String>,
    /// The same in wei.
    floor_price_wei: Option<String>,
    /// Volume of the last 24 hours (MATIC).
    #[schema(rename = "volume24h")]
    volume_24h: String,
    /// The same in wei.
    #[schema(rename = "volume24hWei")]
    volume_24h_wei: String,
    /// Volume of the last 7 days (MATIC).
    #[schema(rename = "volume7d")]
    volume_7d: String,
    /// The same in wei.
    #[schema(rename = "volume7dWei")]
    volume_7d_wei: String,
    /// Volume of all time (MATIC).
    volume_all: String,
    /// The same in wei.
    volume_all_wei: String,
    /// Sales of all time.
    sales: i64,
    /// Distinct owners of its items.
    owners: i64,
    /// Members not burned.
    items: i64,
    /// Items on sale (fixed price or auction).
    listed: i64,
    /// `listed / items` (0 without items).
    listed_share: f64,
}

/// One day of a collection's history.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
struct DayBucket {
    /// The day's start (Unix seconds, UTC midnight).
    day: i64,
    /// Volume of the day's sales (MATIC).
    volume: String,
    /// The same in wei.
    volume_wei: String,
    /// The day's sales.
    sales: i64,
    /// The lowest fixed-price listing by a wallet of the creator at the day's end (MATIC), or null.
    floor: Option<String>,
    /// The same in wei.
    floor_wei: Option<String>,
}

/// A collection's figures and daily history.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
struct CollectionInsight {
    /// The figures now.
    stats: CollectionStats,
    /// From the day of its members' first listing or sale to today (at most 365 days).
    days: Vec<DayBucket>,
}
