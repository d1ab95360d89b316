//! NFT reads: browse, detail, auctions, bid history, history, owners, trending, statistics.

use std::{collections::HashMap, sync::Arc};

use axum::{
    body::Bytes,
    extract::{Path, State},
    response::Response,
};
use projections::queries::{
    moderation,
    nft::{self, Explore, NftView, Person, SaleFilter, SortBy},
    social::{self, ViewerFlags},
};
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{
    lists::{FORM_OF_SALE, ORDER_BY, PAGE, PAGE_SIZE, SEARCH, TRAIT, VERIFIED_ONLY, limit, page, trait_filters},
    openapi::{BadRequest, NotFound, Unavailable, also_at},
    params::{Choice, Params, Text, query_params},
};
use crate::http::{
    AppState,
    auth::MaybeUser,
    error::{ApiError, Envelope, db_error, ok, ok_from_bytes},
    read_cache::ReadVersion,
};

/// Page size of bid lists.
pub const BID_PAGE_SIZE: u32 = 10;
/// The NFT read routes. Paths are the spec's, which writes the browse and bid lists with a
/// trailing slash; they answer without it too.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(also_at(routes!(explore), "/api/nft/explore"))
        .routes(routes!(detail))
        .routes(routes!(in_auction))
        .routes(also_at(routes!(bid_history), "/api/nft/bidhistory/{nftId}/{auctionId}"))
        .routes(routes!(history))
        .routes(routes!(owners))
        .routes(routes!(trending))
        .routes(routes!(statistics))
}

/// Explore's sort keys: its `DATE` is when a token was last put on sale (a relisted NFT comes
/// back to the top), and `ENDING` orders the auctions still taking bids by their end.
const EXPLORE_SORT_BY: Choice<SortBy> = Choice {
    name: "sortBy",
    default: "DATE",
    values: &["DATE", "PRICE", "POPULARITY", "ENDING"],
    allowed: "DATE, PRICE, POPULARITY, ENDING",
    parse: |v| match v {
        "DATE" => Some(SortBy::Listed),
        "ENDING" => Some(SortBy::Ending),
        other => SortBy::parse(other),
    },
    description: "Sort key: DATE, when last put on sale (or minted, if never); PRICE; POPULARITY, likes, bids and sales; \
        ENDING, the auction's end: lists only auctions still taking bids, whatever formOfSale says (orderBy 1: the soonest first)",
};

const CATEGORY: Text = Text { name: "nftCategory", description: "Category id; omitted or `all` for every category" };
query_params!(
    /// The browse list's query.
    ExploreQuery: CATEGORY, PAGE, limit(PAGE_SIZE), FORM_OF_SALE, EXPLORE_SORT_BY, ORDER_BY, SEARCH, TRAIT, VERIFIED_ONLY
);
query_params!(
    /// The bid list's query.
    BidQuery: PAGE, limit(BID_PAGE_SIZE)
);
query_params!(
    /// The trending list's query.
    TrendingQuery: PAGE, limit(TRENDING_PAGE_SIZE), FORM_OF_SALE
);

/// Page size of the trending list.
const TRENDING_PAGE_SIZE: u32 = 10;

/// The users behind a set of addresses (those linked to an account).
async fn people(state: &AppState, addresses: Vec<String>) -> Result<HashMap<String, Person>, ApiError> {
    nft::people(&state.read, &addresses).await.map_err(db_error)
}

/// `value` (an object) with `extra`'s fields added.
fn with(mut value: Value, extra: Value) -> Value {
    if let (Some(object), Value::Object(extra)) = (value.as_object_mut(), extra) {
        object.extend(extra);
    }
    value
}

/// An NFT in the spec's shape: the read model's fields plus what the server adds (contract,
/// coin, the viewer's like and bookmark, users behind the addresses). Serialized straight from
/// these borrowed fields: browsing answers many of them. The viewer's flags come first, so a
/// card serialized for nobody starts with [`NO_FLAGS`] and a viewer's can be laid over it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Card<'a> {
    is_liked: bool,
    is_bookmarked: bool,
    #[serde(flatten)]
    view: &'a NftView,
    contract_address: &'a str,
    contract_type: &'static str,
    coin_name: &'static str,
    sale_coin: &'static str,
    creator: UserFields<'a>,
    current_owner: UserFields<'a>,
}

/// `{userId, username, fullName, avatar}` of the user behind an address (`null`s when none); on
/// a card also the address under the spec's name (`address` for the creator, `ownerAddress` for
/// the owner).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct UserFields<'a> {
    user_id: Option<&'a str>,
    username: Option<&'a str>,
    full_name: Option<&'a str>,
    avatar: Option<&'a str>,
    verified: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    address: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    owner_address: Option<&'a str>,
}

impl<'a> UserFields<'a> {
    fn of(person: Option<&'a Person>) -> Self {
        Self {
            user_id: person.map(|p| p.user_id.as_str()),
            username: person.map(|p| p.username.as_str()),
            full_name: person.map(|p| p.full_name.as_str()),
            avatar: person.map(|p| p.avatar.as_str()),
            verified: person.is_some_and(|p| p.verified),
            address: None,
            owner_address: None,
        }
    }
}

pub(crate) fn card<'a>(state: &'a AppState, view: &'a NftView, (is_liked, is_bookmarked): (bool, bool)) -> Card<'a> {
    Card {
        is_liked,
        is_bookmarked,
        view,
        contract_address: state.chain.contract_address.as_deref().unwrap_or_default(),
        contract_type: "ERC721",
        coin_name: "MATIC",
        sale_coin: "1",
        creator: UserFields { address: Some(&view.creator_address), ..UserFields::of(view.creator.as_ref()) },
        current_owner: UserFields { owner_address: Some(&view.owner_address), ..UserFields::of(view.owner.as_ref()) },
    }
}

/// How every card serialized for nobody starts: [`CardsPage`] finds the flags there.
const NO_FLAGS: &[u8] = br#"{"isLiked":false,"isBookmarked":false"#;

/// A page of NFTs in the spec's envelope, serialized for nobody (no like, no bookmark), with
/// where each card starts: the shared answer the read cache keeps, on which
/// [`CardsPage::for_viewer`] lays one viewer's flags without serializing anything again.
#[derive(Clone)]
pub struct CardsPage {
    bytes: Bytes,
    /// Each card's NFT id and the offset of its first byte in `bytes`.
    cards: Arc<[(String, usize)]>,
}

/// The page fields after `data`, as [`projections::queries::Paged`] serializes them.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PageTail {
    count: usize,
    total_items: i64,
    current_page: u32,
    last_page: bool,
    current_item_count: usize,
}

impl CardsPage {
    /// The envelope `{statuscode, body: {data, count, ...}, message}` of `paged`, written
    /// card by card to note where each starts.
    fn new(state: &AppState, paged: &projections::queries::Paged<NftView>, message: &str) -> Result<Self, ApiError> {
        let json = |e: serde_json::Error| ApiError::Internal(e.into());
        let mut out = Vec::with_capacity(256 + 2_048 * paged.data.len());
        out.extend_from_slice(br#"{"statuscode":200,"body":{"data":["#);
        let mut cards = Vec::with_capacity(paged.data.len());
        for (i, view) in paged.data.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            cards.push((view.id.clone(), out.len()));
            serde_json::to_writer(&mut out, &card(state, view, (false, false))).map_err(json)?;
            debug_assert!(out[cards[i].1..].starts_with(NO_FLAGS));
        }
        out.extend_from_slice(b"],");
        let tail = PageTail {
            count: paged.count,
            total_items: paged.total_items,
            current_page: paged.current_page,
            last_page: paged.last_page,
            current_item_count: paged.current_item_count,
        };
        // `{"count":...}` without its `{`: it closes the body.
        out.extend_from_slice(&serde_json::to_vec(&tail).map_err(json)?[1..]);
        out.extend_from_slice(br#","message":"#);
        serde_json::to_writer(&mut out, message).map_err(json)?;
        out.push(b'}');
        Ok(Self { bytes: out.into(), cards: cards.into() })
    }

    /// An answer without NFT cards (no per-viewer flags to lay on it), to keep in the same
    /// cache: the trending sellers and creators.
    pub(super) fn without_cards(bytes: Bytes) -> Self {
        Self { bytes, cards: Arc::new([]) }
    }

    /// The NFT ids of the page, in order.
    fn ids(&self) -> Vec<&str> {
        self.cards.iter().map(|(id, _)| id.as_str()).collect()
    }

    /// The answer as a viewer with these flags sees it: the shared bytes themselves when none
    /// of the page's NFTs is liked or bookmarked, else a copy with those cards' flags set.
    pub fn for_viewer(&self, flags: &ViewerFlags) -> Bytes {
        let mut out: Option<Vec<u8>> = None;
        let mut copied = 0;
        for (id, at) in self.cards.iter() {
            let (liked, bookmarked) = flags.of(id);
            if !(liked || bookmarked) {
                continue;
            }
            let out = out.get_or_insert_with(|| Vec::with_capacity(self.bytes.len() + 8));
            out.extend_from_slice(&self.bytes[copied..*at]);
            out.extend_from_slice(format!(r#"{{"isLiked":{liked},"isBookmarked":{bookmarked}"#).as_bytes());
            copied = at + NO_FLAGS.len();
        }
        match out {
            None => self.bytes.clone(),
            Some(mut out) => {
                out.extend_from_slice(&self.bytes[copied..]);
                out.into()
            }
        }
    }
}

/// The viewer's flags on these NFTs (none for nobody).
pub(super) async fn flags_of(state: &AppState, viewer: MaybeUser, ids: &[&str]) -> Result<ViewerFlags, ApiError> {
    match viewer.0 {
        Some(user) => social::viewer_flags(&state.read, &user.to_string(), ids).await.map_err(db_error),
        None => Ok(ViewerFlags::default()),
    }
}

/// A page of NFTs in the spec's shape as `viewer` sees it, serialized.
pub(super) async fn page_answer(
    state: &AppState,
    viewer: MaybeUser,
    paged: projections::queries::Paged<NftView>,
    message: &str,
) -> Result<Response, ApiError> {
    let page = CardsPage::new(state, &paged, message)?;
    let flags = flags_of(state, viewer, &page.ids()).await?;
    Ok(ok_from_bytes(page.for_viewer(&flags)))
}

/// Browse: listings filtered by category and sale type, searched and sorted, a page at a time.
///
/// Sign-in is optional: with a valid bearer token each card's `isLiked` and `isBookmarked` are
/// the caller's; without one (or with an invalid one) they are false.
///
/// `formOfSale=AUCTION` lists the auctions still taking bids: one past its end (waiting for its
/// settlement, `auctionEnded` true) is no longer on the list.
#[utoipa::path(
    get,
    path = "/api/nft/explore/",
    tag = "nft",
    params(ExploreQuery),
    security((), ("bearer" = [])),
    responses((status = 200, description = "A page of NFTs", body = Envelope<Paged<NftCard>>), (status = 400, response = BadRequest)),
)]
async fn explore(State(state): State<AppState>, viewer: MaybeUser, params: Params) -> Result<Response, ApiError> {
    let sale = match params.choice(&FORM_OF_SALE)? {
        SaleFilter::Auction => SaleFilter::LiveAuction,
        sale => sale,
    };
    let request = Explore {
        category: params.text(&CATEGORY).filter(|c| *c != "all").map(str::to_owned),
        sale,
        sort_by: params.choice(&EXPLORE_SORT_BY)?,
        ascending: params.choice(&ORDER_BY)?,
        search: params.text(&SEARCH).map(str::to_owned),
        traits: trait_filters(&params)?,
        ..Explore::all(SortBy::Date)
    };
    let page = page(&params, PAGE_SIZE)?;
    let verified_only = params.choice(&VERIFIED_ONLY)?;
    // The answer is the same for everyone until the read tables change: popular pages are
    // answered from the cache, and a signed-in viewer's likes and bookmarks laid on top.
    let answer = shared_answer(&state, format!("explore {request:?} {page:?} verified {verified_only}"), async |version, now| {
        let mut request = request.clone();
        if verified_only {
            request.creators = Some(moderation::verified_wallets(&state.read).await.map_err(db_error)?);
        }
        let paged = nft::explore(&state.read, &request, page, version.position).await.map_err(db_error)?;
        // A list of live auctions changes when any of them ends, on this page or not.
        let live_auctions = request.sale == SaleFilter::LiveAuction || request.sort_by == SortBy::Ending;
        let next_end = live_auctions.then(|| nft::next_auction_end(&state.read, now)).flatten();
        let until = paged.data.iter().filter_map(NftView::changes_at).chain(next_end).min();
        Ok((CardsPage::new(&state, &paged, "NFTs fetched")?, until))
    })
    .await?;
    let flags = flags_of(&state, viewer, &answer.ids()).await?;
    Ok(ok_from_bytes(answer.for_viewer(&flags)))
}

/// The answer to `request` that is the same for everyone: kept in the read cache while the read
/// tables stay at their version (and until the time `make` gives with it, if any), else made by
/// `make` from that version at the clock's `now` and kept for the next asker.
pub(super) async fn shared_answer(
    state: &AppState,
    request: String,
    make: impl AsyncFnOnce(&ReadVersion, i64) -> Result<(CardsPage, Option<i64>), ApiError>,
) -> Result<CardsPage, ApiError> {
    let version = state.read_version();
    let now = chrono::Utc::now().timestamp();
    if let Some(answer) = state.read_cache.get(&version, &request, now) {
        return Ok(answer);
    }
    // Kept for everyone as the answer at `version`: made on the primary, which holds it (a read
    // replica may be behind it).
    let (answer, until) = projections::reads::on_primary(make(&version, now)).await?;
    state.read_cache.put(version, request, answer.clone(), until);
    Ok(answer)
}

/// 451 when moderators hid the target, unless the viewer is one of its owners or on the staff
/// (who see it, and why, on its page).
pub(super) async fn withheld(state: &AppState, viewer: MaybeUser, kind: &str, id: &str) -> Result<(), ApiError> {
    let standing = moderation::standing(&state.read, kind, id).await.map_err(db_error)?;
    if !standing.hidden {
        return Ok(());
    }
    if let Some(user) = viewer.0.map(|u| u.to_string()) {
        let owners = moderation::facts(&state.read, kind, id).await.map_err(db_error)?.unwrap_or_default();
        if owners.contains(&user) || !moderation::roles_of(&state.read, &user).await.map_err(db_error)?.is_empty() {
            return Ok(());
        }
    }
    let reason = standing.hidden_reason.unwrap_or_default();
    Err(ApiError::Unavailable(format!("This {} was hidden by the moderators: {reason}", if kind == "nft" { "NFT" } else { kind })))
}

async fn known(state: &AppState, id: &str) -> Result<(), ApiError> {
    if nft::exists(&state.read, id).await.map_err(db_error)? { Ok(()) } else { Err(ApiError::NotFound(format!("No NFT with id {id}"))) }
}

/// One NFT.
///
/// Sign-in is optional: with a valid bearer token `isLiked` and `isBookmarked` are the caller's;
/// without one (or with an invalid one) they are false.
#[utoipa::path(
    get,
    path = "/api/nft/detail/{nftId}",
    tag = "nft",
    params(NftId),
    security((), ("bearer" = [])),
    responses((status = 200, description = "The NFT", body = Envelope<NftCard>), (status = 404, response = NotFound), (status = 451, response = Unavailable)),
)]
async fn detail(State(state): State<AppState>, viewer: MaybeUser, Path(id): Path<String>) -> Result<Response, ApiError> {
    let mut view =
        nft::detail(&state.read, &id).await.map_err(db_error)?.ok_or_else(|| ApiError::NotFound(format!("No NFT with id {id}")))?;
    withheld(&state, viewer, "nft", &id).await?;
    view.rarity = nft::rarities(&state.read, &id, state.read_version().position).await.map_err(db_error)?.into_iter().next();
    let flags = flags_of(&state, viewer, &[&view.id]).await?;
    Ok(ok(card(&state, &view, flags.of(&view.id)), "NFT fetched"))
}

/// An NFT's open auction (a list of at most one).
#[utoipa::path(
    get,
    path = "/api/nft/nftinauction/{nftId}",
    tag = "nft",
    security(()),
    params(NftId),
    responses((status = 200, description = "The open auction, or none", body = Envelope<Vec<Auction>>), (status = 404, response = NotFound)),
)]
async fn in_auction(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    known(&state, &id).await?;
    Ok(ok(nft::auctions(&state.read, &id).await.map_err(db_error)?, "Auctions fetched"))
}

/// An auction's bids, highest first, a page at a time.
#[utoipa::path(
    get,
    path = "/api/nft/bidhistory/{nftId}/{auctionId}/",
    tag = "nft",
    security(()),
    params(NftId, ("auctionId" = String, Path, description = "The contract's auction id"), BidQuery),
    responses((status = 200, description = "A page of bids", body = Envelope<Paged<Bid>>), (status = 400, response = BadRequest), (status = 404, response = NotFound)),
)]
async fn bid_history(
    State(state): State<AppState>,
    Path((nft_id, auction_id)): Path<(String, String)>,
    params: Params,
) -> Result<Response, ApiError> {
    known(&state, &nft_id).await?;
    let bids = nft::bid_history(&state.read, &nft_id, &auction_id, page(&params, BID_PAGE_SIZE)?).await.map_err(db_error)?;
    let people = people(&state, bids.data.iter().map(|b| b.bidder_address.clone()).collect()).await?;
    let mut body = serde_json::to_value(&bids).map_err(|e| ApiError::Internal(e.into()))?;
    for (row, bid) in body["data"].as_array_mut().into_iter().flatten().zip(&bids.data) {
        row["bidder"] = json!(UserFields::of(people.get(&bid.bidder_address)));
    }
    Ok(ok(body, "Bids fetched"))
}

/// An NFT's history, newest first.
#[utoipa::path(
    get,
    path = "/api/nft/nfthistory/{nftId}",
    tag = "nft",
    security(()),
    params(NftId),
    responses((status = 200, description = "The history", body = Envelope<History>), (status = 404, response = NotFound)),
)]
async fn history(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    known(&state, &id).await?;
    let history = nft::history(&state.read, &id).await.map_err(db_error)?;
    let people = people(&state, history.iter().filter(|h| h.user_id.is_none()).map(|h| h.address.clone()).collect()).await?;
    // Likes name a user, not a wallet.
    let users =
        social::people_by_id(&state.read, &history.iter().filter_map(|h| h.user_id.clone()).collect::<Vec<_>>()).await.map_err(db_error)?;
    let person = |h: &nft::HistoryView| match &h.user_id {
        Some(user) => users.get(user),
        None => people.get(&h.address),
    };
    let data: Vec<Value> =
        history.iter().map(|h| with(serde_json::to_value(h).unwrap_or_default(), json!(UserFields::of(person(h))))).collect();
    Ok(ok(json!({ "data": data }), "History fetched"))
}

/// Every owner an NFT has had, newest first.
#[utoipa::path(
    get,
    path = "/api/nft/ownnerhistory/{nftId}",
    tag = "nft",
    security(()),
    params(NftId),
    responses((status = 200, description = "The owners", body = Envelope<Vec<Owner>>), (status = 404, response = NotFound)),
)]
async fn owners(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    known(&state, &id).await?;
    Ok(ok(nft::owners(&state.read, &id).await.map_err(db_error)?, "Owners fetched"))
}

/// The listings of a sale type by trending score (recent sales and their volume, bids and likes,
/// decayed with time: see docs/architecture.md), then by popularity and mint time.
#[utoipa::path(
    get,
    path = "/api/nft/trendingnfts",
    tag = "nft",
    params(TrendingQuery),
    security((), ("bearer" = [])),
    responses((status = 200, description = "A page of NFTs", body = Envelope<Paged<NftCard>>), (status = 400, response = BadRequest)),
)]
async fn trending(State(state): State<AppState>, viewer: MaybeUser, params: Params) -> Result<Response, ApiError> {
    let (sale, page) = (params.choice(&FORM_OF_SALE)?, page(&params, TRENDING_PAGE_SIZE)?);
    // Shared by everyone like explore's pages, for as long as the read tables stay the same and
    // at most TRENDING_KEPT_SECONDS: the clock moves the window (see `trending_until`).
    let answer = shared_answer(&state, format!("trending {sale:?} {page:?}"), async |version, now| {
        let paged = nft::trending(&state.read, sale, page, now, version.position).await.map_err(db_error)?;
        let ends = paged.data.iter().filter_map(NftView::changes_at).min();
        Ok((CardsPage::new(&state, &paged, "Trending NFTs fetched")?, Some(trending_until(now, ends))))
    })
    .await?;
    let flags = flags_of(&state, viewer, &answer.ids()).await?;
    Ok(ok_from_bytes(answer.for_viewer(&flags)))
}

/// How long a trending answer computed at `now` is kept, in seconds, while the read tables stay
/// the same. The order of a list depends on the clock only through its window (an event older
/// than 30 days drops out; every score decays alike, so no other order changes). The answer is
/// computed from scores at most `SCORES_KEPT_SECONDS` (10 s) old, so it is at most 20 s late in
/// dropping an event from the window, and a shown score (sellers, creators) at most 20 s old (a
/// factor of at least e^(−20 s / 3 days) = 0.99992 of today's).
pub(super) const TRENDING_KEPT_SECONDS: i64 = 10;

/// Until when an answer computed at `now` is kept: [`TRENDING_KEPT_SECONDS`], and no later than
/// the first of its auctions ends (`ends`), when its cards change.
pub(super) fn trending_until(now: i64, ends: Option<i64>) -> i64 {
    ends.map_or(now + TRENDING_KEPT_SECONDS, |ends| ends.min(now + TRENDING_KEPT_SECONDS))
}

/// The landing page's counters.
#[utoipa::path(get, path = "/api/getmarketplacestatistics", tag = "nft", security(()), responses((status = 200, description = "The counters", body = Envelope<Statistics>)))]
async fn statistics(State(state): State<AppState>) -> Result<Response, ApiError> {
    Ok(ok(nft::statistics(&state.read).await.map_err(db_error)?, "Statistics fetched"))
}

/// An NFT id in a path.
#[derive(utoipa::IntoParams)]
#[into_params(names("nftId"), parameter_in = Path)]
#[allow(dead_code, reason = "documents the path parameter; the handlers read it as a String")]
pub(crate) struct NftId(
    /// `{chainId}-{tokenId}`
    #[param(example = "80001-1")]
    String,
);

// The answers' shapes. The handlers build them from the read model's views (in `projections`,
// which knows nothing of OpenAPI) plus the fields `shape`, `person` and `with` add; these
// types only describe them, and tests/openapi validates real answers against them, extra and
// missing fields included.

/// The spec's paged body.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
pub(super) struct Paged<T> {
    /// This page's items.
    data: Vec<T>,
    /// Items on this page.
    count: u64,
    /// Items on all pages.
    total_items: u64,
    /// This page's number.
    current_page: u32,
    /// Whether no page follows.
    last_page: bool,
    /// Same as `count`.
    current_item_count: u64,
}

/// An NFT as lists and the detail page show it.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
pub(crate) struct NftCard {
    /// `{chainId}-{tokenId}`.
    #[schema(rename = "_id")]
    id: String,
    /// Token id.
    nft_token_id: String,
    /// Image URL (`/ipfs/<cid>`).
    file: String,
    /// Title.
    title: String,
    /// Description.
    description: String,
    /// Category id.
    nft_category: String,
    /// Metadata URL.
    metadata_url: String,
    /// Token URI on chain.
    token_uri: String,
    /// Fixed (or buy-now) price in MATIC.
    fixed_price: String,
    /// The same in wei.
    fixed_price_wei: String,
    /// How it is offered.
    form_of_sale: FormOfSale,
    /// Creator's address.
    creator_address: String,
    /// Current owner's address.
    owner_address: String,
    /// Likes.
    total_likes: i64,
    /// Mint time (ISO 8601).
    created_at: String,
    /// Last change (ISO 8601).
    updated_at: String,
    /// When it was last put on sale (ISO 8601; the mint time if never): what explore's `DATE`
    /// order sorts by.
    listed_at: String,
    /// The open auction, if any.
    current_auction: Option<Auction>,
    /// While a moderator holds its sale (a stolen-item hold on the contract): when the hold ends
    /// (ISO 8601). Null when not held, or once the hold has ended. Until then it cannot be listed,
    /// bought, bid on or offered for on this market (the contract refuses); transfers stay free.
    sale_held_until: Option<String>,
    /// Whether the hold came with a note of evidence (a police report), which allows up to 90
    /// days instead of 7; false when not held.
    sale_hold_evidence: bool,
    /// Highest bid in MATIC ("0" without bids).
    highest_bid: String,
    /// The same in wei.
    highest_bid_wei: String,
    /// Royalty rows.
    royalty: Vec<Royalty>,
    /// Properties, as minted.
    properties: Vec<NftProperty>,
    /// The mint transaction.
    transaction_hash: String,
    /// Its rarity rank in a collection it belongs to (null when in none): on a collection's
    /// list, in that collection; elsewhere, in the first of its collections by id.
    rarity: Option<Rarity>,
    /// The marketplace contract.
    contract_address: String,
    /// Always `ERC721`.
    contract_type: ContractType,
    /// Always `MATIC`.
    coin_name: String,
    /// The spec's sale coin code (`"1"`).
    sale_coin: String,
    /// Whether the viewer likes it.
    is_liked: bool,
    /// Whether the viewer bookmarked it.
    is_bookmarked: bool,
    /// The creator, and the user behind the address.
    creator: Creator,
    /// The owner, and the user behind the address.
    current_owner: CurrentOwner,
}

/// An NFT's rarity in a collection, by OpenRarity's method (see docs/read-models.md).
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
pub(crate) struct Rarity {
    /// The collection it is ranked in.
    collection_id: String,
    /// 1 is the rarest; equal scores share a rank (1, 2, 2, 4).
    rank: u32,
    /// The collection's NFTs ranked (its members not burned).
    of: u32,
    /// OpenRarity's score: the information content of its traits over the collection's entropy.
    score: f64,
}

/// How an NFT is offered: at a fixed price, in an auction (`fixedPrice` is then its buy-now
/// price), or not at all.
#[derive(ToSchema)]
#[allow(dead_code, non_camel_case_types, clippy::upper_case_acronyms, reason = "a schema only, its values named as they are sent")]
pub(crate) enum FormOfSale {
    FIXEDPRICE,
    AUCTION,
    NOT_FOR_SALE,
}

/// A bid's status: `BID` while it stands, `ALLOTED` when it won, `REFUNDED` when it was outbid,
/// rejected or cleared.
#[derive(ToSchema)]
#[allow(dead_code, non_camel_case_types, clippy::upper_case_acronyms, reason = "a schema only, its values named as they are sent")]
pub(crate) enum BidStatus {
    BID,
    ALLOTED,
    REFUNDED,
}

/// The token standard.
#[derive(ToSchema)]
#[allow(dead_code, non_camel_case_types, clippy::upper_case_acronyms, reason = "a schema only, its values named as they are sent")]
enum ContractType {
    ERC721,
}

/// What a history event records.
#[derive(ToSchema)]
#[allow(dead_code, non_camel_case_types, clippy::upper_case_acronyms, reason = "a schema only, its values named as they are sent")]
enum TypeOfEvent {
    MINTED,
    PUT_ON_AUCTION,
    PUT_ON_FIXEDSALE,
    REMOVED_FROM_SALE,
    BIDDED_FOR,
    PURCHASED,
    WON_AUCTION,
    BURNED,
    LIKED,
    UNLIKED,
}

/// A property of an NFT, as its creator wrote it.
#[derive(ToSchema)]
#[allow(dead_code, reason = "a schema only")]
struct NftProperty {
    /// Name (an ERC-721 attribute's `trait_type`).
    key: String,
    /// Value.
    value: String,
}

/// An NFT's creator; the user fields are null when no account links the address.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
struct Creator {
    /// The creator's address.
    address: String,
    /// User id.
    user_id: Option<String>,
    /// Username.
    username: Option<String>,
    /// Full name.
    full_name: Option<String>,
    /// Avatar URL (`/ipfs/<cid>`) or "".
    avatar: Option<String>,
    /// Verified by the market's admins (false when no account links the address).
    verified: bool,
}

/// An NFT's owner; the user fields are null when no account links the address.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
struct CurrentOwner {
    /// The owner's address.
    owner_address: String,
    /// User id.
    user_id: Option<String>,
    /// Username.
    username: Option<String>,
    /// Full name.
    full_name: Option<String>,
    /// Avatar URL (`/ipfs/<cid>`) or "".
    avatar: Option<String>,
    /// Verified by the market's admins (false when no account links the address).
    verified: bool,
}

/// The user behind an address; all null when no account links it.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
struct Holder {
    /// User id.
    user_id: Option<String>,
    /// Username.
    username: Option<String>,
    /// Full name.
    full_name: Option<String>,
    /// Avatar URL (`/ipfs/<cid>`) or "".
    avatar: Option<String>,
    /// Verified by the market's admins (false when no account links the address).
    verified: bool,
}

/// A token's open auction.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
struct Auction {
    /// The contract's auction id.
    auction_id: String,
    /// Base price (MATIC).
    auction_start_price: String,
    /// The same in wei.
    auction_start_price_wei: String,
    /// Buy-now price (MATIC).
    auction_buy_now_price: String,
    /// The same in wei.
    auction_buy_now_price_wei: String,
    /// Highest bid (MATIC).
    auction_highest_bid: String,
    /// The same in wei.
    auction_highest_bid_wei: String,
    /// End (ISO 8601).
    auction_end_hours: String,
    /// Whether bidding is over (settled, or past its end).
    auction_ended: bool,
}

/// A royalty row.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
struct Royalty {
    /// Receiver.
    wallet_address: String,
    /// Percent.
    percentage: f64,
    /// The share in basis points, as the contract takes it (100 = 1%).
    bps: u32,
}

/// A bid.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
struct Bid {
    /// Its log position.
    id: i64,
    /// `{chainId}-{tokenId}`.
    nft_id: String,
    /// The auction.
    auction_id: String,
    /// Amount in MATIC.
    bid_amount: String,
    /// The same in wei.
    bid_amount_wei: String,
    /// Bidder address.
    bidder_address: String,
    /// Standing, won or refunded.
    status: BidStatus,
    /// The bid's transaction.
    transaction_hash: String,
    /// When (ISO 8601).
    created_at: String,
    /// The user behind the bidder's address.
    bidder: Holder,
}

/// An NFT's history.
#[derive(ToSchema)]
#[allow(dead_code, reason = "a schema only")]
struct History {
    /// Events, newest first (at most 200).
    data: Vec<HistoryEvent>,
}

/// A history event.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
struct HistoryEvent {
    /// Its log position.
    #[schema(rename = "_id")]
    id: i64,
    /// What happened.
    type_of_event: TypeOfEvent,
    /// Who did it ("" for LIKED and UNLIKED: a user, named below).
    address: String,
    /// The transaction ("" for LIKED and UNLIKED).
    transaction_hash: String,
    /// When (ISO 8601).
    timestamp: String,
    /// User id of the account behind `address` (or who liked), if any.
    user_id: Option<String>,
    /// Its username.
    username: Option<String>,
    /// Its full name.
    full_name: Option<String>,
    /// Its avatar URL.
    avatar: Option<String>,
    /// Whether an admin verified the user.
    verified: bool,
}

/// An owner of a token and since when.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
struct Owner {
    /// Owner address.
    owner_address: String,
    /// The transaction that made them owner.
    transaction_hash: String,
    /// Since (ISO 8601).
    since: String,
}

/// The landing page's counters.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
struct Statistics {
    /// Tokens ever minted.
    total_nft_minted: i64,
    /// Distinct addresses that sold.
    total_seller: i64,
    /// Sales.
    total_nft_sold: i64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::routes::lists::SORT_BY;

    fn check<T>(choice: &Choice<T>) {
        assert!(choice.values.contains(&choice.default), "{}: the default is a documented value", choice.name);
        for value in choice.values {
            assert!((choice.parse)(value).is_some(), "{}: documented {value} is refused", choice.name);
            assert!(choice.allowed.contains(value), "{}: the 400 message leaves out {value}", choice.name);
        }
    }

    #[test]
    fn every_documented_choice_is_accepted_and_named_in_the_400_message() {
        check(&FORM_OF_SALE);
        check(&SORT_BY);
        check(&EXPLORE_SORT_BY);
        check(&ORDER_BY);
    }
}
