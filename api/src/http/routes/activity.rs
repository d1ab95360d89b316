//! `/api/activity` (issue 21): the market's activity feed, newest first, filtered by kind, NFT,
//! collection or user (see `projections::queries::activity`).

use axum::{extract::State, response::Response};
use projections::queries::{
    Page,
    activity::{self, ActivityFilter, ActivityKind},
    social::ViewerFlags,
};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use uuid::Uuid;

use super::{
    lists::{PAGE, limit},
    nft::{CardsPage, Paged, shared_answer},
    openapi::{BadRequest, Person},
    params::{Choice, Params, Text, query_params},
};
use crate::http::{
    AppState,
    error::{ApiError, Envelope, db_error, ok_from_bytes},
};

/// Rows per page unless `limit` says otherwise.
const PAGE_SIZE: u32 = 20;

fn kind_of(value: &str) -> Option<Option<ActivityKind>> {
    if value.eq_ignore_ascii_case("ALL") { Some(None) } else { ActivityKind::parse(value).map(Some) }
}

const KIND: Choice<Option<ActivityKind>> = Choice {
    name: "kind",
    default: "ALL",
    values: &["ALL", "MINT", "LIST", "PRICE", "BID", "SALE", "TRANSFER", "STOP", "BURN", "OFFER"],
    allowed: "ALL, MINT, LIST, PRICE, BID, SALE, TRANSFER, STOP, BURN, OFFER",
    parse: kind_of,
    description: "Only rows of this kind: mints, listings, price changes, bids, sales, transfers, stops (taken off sale), \
                  burns, offers made",
};

const NFT: Text = Text { name: "nftId", description: "Only this NFT's rows (`{chainId}-{tokenId}`)" };
const COLLECTION: Text = Text { name: "collectionId", description: "Only the rows of the NFTs in this collection" };
const USER: Text = Text { name: "userId", description: "Only the rows where a wallet linked to this user is on either side" };

query_params!(
    /// The activity feed's query.
    ActivityQuery: KIND, NFT, COLLECTION, USER, PAGE, limit(PAGE_SIZE)
);

/// The activity route.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(feed))
}

/// A UUID parameter, or 400 naming it (an empty one too: the filter was asked for).
fn uuid(params: &Params, param: &Text, what: &str) -> Result<Option<String>, ApiError> {
    params
        .value(param)
        .map(|raw| raw.parse::<Uuid>().map(|id| id.to_string()).map_err(|_| ApiError::BadRequest(format!("{} must be {what}", param.name))))
        .transpose()
}

/// An NFT id parameter of this chain, or 400 naming it.
fn nft_id(state: &AppState, params: &Params) -> Result<Option<String>, ApiError> {
    let Some(raw) = params.value(&NFT) else { return Ok(None) };
    let chain = state.chain.chain_id.to_string();
    match raw.split_once('-') {
        Some((c, token)) if c == chain && !token.is_empty() && token.len() <= 78 && token.chars().all(|ch| ch.is_ascii_digit()) => {
            Ok(Some(raw.to_owned()))
        }
        _ => Err(ApiError::BadRequest(format!("nftId must be an NFT id of this marketplace ({chain}-<token id>)"))),
    }
}

/// The market's activity, newest first: mints, listings, price changes, bids, sales, transfers,
/// stops, burns and offers made, each with its price, the wallets (and users) on both sides and
/// its transaction. The filters combine.
#[utoipa::path(
    get,
    path = "/api/activity",
    tag = "nft",
    security(()),
    params(ActivityQuery),
    responses((status = 200, description = "A page of activity", body = Envelope<Paged<ActivityItem>>), (status = 400, response = BadRequest)),
)]
async fn feed(State(state): State<AppState>, params: Params) -> Result<Response, ApiError> {
    let page = Page { page: params.number(&PAGE)?, limit: params.number(&limit(PAGE_SIZE))? };
    let kind = params.choice(&KIND)?;
    let nft_id = nft_id(&state, &params)?;
    let collection_id = uuid(&params, &COLLECTION, "a collection id")?;
    let user_id = uuid(&params, &USER, "a user id")?;
    let filter = ActivityFilter { kind, nft_id: nft_id.as_deref(), collection_id: collection_id.as_deref(), user_id: user_id.as_deref() };
    // The same for everyone until the read tables change: kept in the read cache, and the count
    // (a user's or a collection's reads their rows' index entries) once per filter.
    let answer = shared_answer(&state, format!("activity {filter:?} {page:?}"), async |_, _| {
        let total = shared_answer(&state, format!("activity count {filter:?}"), async |_, _| {
            let total = activity::count(&state.read, filter).await.map_err(db_error)?;
            Ok((CardsPage::without_cards(total.to_string().into()), None))
        })
        .await?;
        let total = std::str::from_utf8(&total.for_viewer(&ViewerFlags::default()))
            .ok()
            .and_then(|text| text.parse().ok())
            .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("a cached activity count is no number")))?;
        let paged = activity::rows(&state.read, filter, page, total).await.map_err(db_error)?;
        let bytes = serde_json::to_vec(&Envelope { statuscode: 200, body: paged, message: "Activity fetched".into() })
            .map_err(|e| ApiError::Internal(e.into()))?;
        Ok((CardsPage::without_cards(bytes.into()), None))
    })
    .await?;
    Ok(ok_from_bytes(answer.for_viewer(&ViewerFlags::default())))
}

/// What kind of fact an activity row is.
#[derive(ToSchema)]
#[schema(as = ActivityKind)]
#[allow(dead_code, clippy::upper_case_acronyms, reason = "a schema only, its values named as they are sent")]
enum ActivityKindName {
    MINT,
    LIST,
    PRICE,
    BID,
    SALE,
    TRANSFER,
    STOP,
    BURN,
    OFFER,
}

/// The fact an activity row records, as the NFT history names it.
#[derive(ToSchema)]
#[allow(dead_code, non_camel_case_types, clippy::upper_case_acronyms, reason = "a schema only, its values named as they are sent")]
enum ActivityEvent {
    MINTED,
    PUT_ON_FIXEDSALE,
    PUT_ON_AUCTION,
    PRICE_CHANGED,
    BIDDED_FOR,
    PURCHASED,
    WON_AUCTION,
    TRANSFERRED,
    REMOVED_FROM_SALE,
    BURNED,
    OFFER_MADE,
}

/// One row of the activity feed.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
struct ActivityItem {
    /// Its log position: unique; newer rows have larger ones.
    id: i64,
    /// Its kind.
    kind: ActivityKindName,
    /// The fact as the NFT history names it: `MINTED`, `PUT_ON_FIXEDSALE`, `PUT_ON_AUCTION`,
    /// `PRICE_CHANGED`, `BIDDED_FOR`, `PURCHASED`, `WON_AUCTION`, `TRANSFERRED`,
    /// `REMOVED_FROM_SALE`, `BURNED`, `OFFER_MADE`.
    event: ActivityEvent,
    /// The NFT (`{chainId}-{tokenId}`).
    nft_id: String,
    /// Its title ("" until its details are recorded).
    nft_title: String,
    /// Its image URL (`/ipfs/<cid>`; "" until its details are recorded).
    nft_file: String,
    /// The price in MATIC: a listing's price (an auction's start price), a new price, a bid, a
    /// sale's price, an offer; null for mints, transfers, stops and burns.
    price: Option<String>,
    /// The same in wei.
    price_wei: Option<String>,
    /// Who did it: the minter, lister, bidder, buyer, sender, burner or offerer.
    address: String,
    /// The user behind that wallet, if one is linked.
    user: Option<Person>,
    /// Who it was done to: a sale's seller, a transfer's receiver, the owner a bid was made to.
    counterpart: Option<String>,
    /// The user behind that wallet, if one is linked.
    counterpart_user: Option<Person>,
    /// The transaction.
    transaction_hash: String,
    /// When (block time, ISO 8601).
    timestamp: String,
}
