//! Likes, bookmarks and the per-user NFT lists: the like and bookmark toggles, the profile tabs
//! (created and owned, one's own and anyone's), their totals, and the favourites (bookmarks).

use axum::{
    extract::{Path, State},
    response::Response,
};
use chrono::Utc;
use domain::{
    Metadata,
    social::{self, SocialCommand, SocialCommandError, SocialError},
};
use projections::queries::{
    nft::{Explore, SaleFilter, SortBy},
    profiles::{self, ProfileCounts, Tab},
    social as social_queries,
};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use uuid::Uuid;

use super::{
    lists::{ORDER_BY, PAGE, PAGE_SIZE, SEARCH, SORT_BY, TRAIT, limit, page, trait_filters},
    nft::{NftCard, NftId, Paged, page_answer},
    openapi::{BadRequest, Conflict, NotFound, SignedIn},
    params::{Choice, Params, query_params},
};
use crate::http::{
    AppState,
    auth::{AuthUser, MaybeUser, load_signed_in},
    error::{ApiError, Envelope, db_error, ok},
};

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(like))
        .routes(routes!(bookmark))
        .routes(routes!(my_created))
        .routes(routes!(my_owned))
        .routes(routes!(user_created))
        .routes(routes!(user_owned))
        .routes(routes!(bookmarked))
        .routes(routes!(profile_counts))
}

/// The profile tabs' sale filter: every sale type unless asked.
const PROFILE_SALE: Choice<SaleFilter> = Choice {
    name: "formOfSale",
    default: "ALL",
    values: &["ALL", "FIXEDPRICE", "AUCTION", "NOT_FOR_SALE"],
    allowed: "ALL, FIXEDPRICE, AUCTION, NOT_FOR_SALE",
    parse: SaleFilter::parse,
    description: "Sale type to list (the Owned, In Auction and In Sale tabs are ALL, AUCTION and FIXEDPRICE)",
};

/// The favourites' sale filter: the page's two tabs are FIXEDPRICE (`nft-bookmark`) and
/// AUCTION (`auction-bookmark`).
const BOOKMARK_SALE: Choice<SaleFilter> = Choice {
    name: "formOfSale",
    default: "FIXEDPRICE",
    values: &["FIXEDPRICE", "AUCTION", "ALL"],
    allowed: "FIXEDPRICE, AUCTION, ALL",
    parse: |v| SaleFilter::parse(v).filter(|s| *s != SaleFilter::NotForSale),
    description: "Sale type of the bookmarks to list",
};

query_params!(
    /// A profile tab's query.
    ProfileQuery: PAGE, limit(PAGE_SIZE), PROFILE_SALE, SORT_BY, ORDER_BY, SEARCH, TRAIT
);
query_params!(
    /// The favourites' query.
    BookmarkQuery: PAGE, limit(PAGE_SIZE), BOOKMARK_SALE, SORT_BY, ORDER_BY, SEARCH, TRAIT
);

/// The list request a query asks for, with `sale` as its sale filter.
fn list_request(params: &Params, sale: &Choice<SaleFilter>) -> Result<Explore, ApiError> {
    Ok(Explore {
        sale: params.choice(sale)?,
        sort_by: params.choice(&SORT_BY)?,
        ascending: params.choice(&ORDER_BY)?,
        search: params.text(&SEARCH).map(str::to_owned),
        traits: trait_filters(params)?,
        ..Explore::all(SortBy::Date)
    })
}

impl From<SocialCommandError> for ApiError {
    fn from(err: SocialCommandError) -> Self {
        match err {
            SocialCommandError::Rejected(SocialError::UnknownNft(id)) => ApiError::NotFound(format!("No NFT with id {id}")),
            SocialCommandError::Store(err) => err.into(),
        }
    }
}

/// Runs a toggle for a signed-in user (whose session still holds) on an NFT, given whether the
/// read side knows it, and waits until the read models show it.
async fn toggle(
    state: &AppState,
    me: AuthUser,
    nft_id: &str,
    command: impl FnOnce(bool) -> SocialCommand,
) -> Result<social::Social, ApiError> {
    load_signed_in(state, me).await?;
    let nft_known = social_queries::likeable(&state.read, nft_id).await.map_err(db_error)?;
    let metadata = Metadata { actor: Some(me.0.to_string()), correlation_id: Some(Uuid::now_v7()), ..Metadata::default() };
    let executed = social::execute(state.store.as_ref(), command(nft_known), &metadata).await?;
    state.projected(executed.position).await;
    Ok(executed.state)
}

/// The state of a like (of an NFT or a collection) after a toggle.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct LikeState {
    /// Whether the caller likes it now.
    pub(super) is_liked: bool,
    /// Its likes now.
    pub(super) total_likes: i64,
}

/// Likes the NFT, or takes the like back if the caller likes it already.
#[utoipa::path(
    put,
    path = "/api/nft/like/{nftId}",
    tag = "nft",
    params(NftId),
    security(("bearer" = [])),
    responses((status = 200, description = "The like's new state", body = Envelope<LikeState>), SignedIn, (status = 404, response = NotFound), (status = 409, response = Conflict)),
)]
async fn like(State(state): State<AppState>, me: AuthUser, Path(id): Path<String>) -> Result<Response, ApiError> {
    let command = |nft_known| SocialCommand::ToggleLike { user_id: me.0, nft_id: id.clone(), nft_known, now: Utc::now() };
    let after = toggle(&state, me, &id, command).await?;
    let is_liked = after.liked.contains(&id);
    // The caller's own like as this toggle left it, not as the read tables show it: another
    // toggle of theirs may have reached them since.
    let others = social_queries::likes_by_others(&state.read, &id, &me.0.to_string()).await.map_err(db_error)?;
    let total_likes = others + i64::from(is_liked);
    Ok(ok(LikeState { is_liked, total_likes }, if is_liked { "NFT liked" } else { "NFT unliked" }))
}

/// The state of a bookmark after a toggle.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct BookmarkState {
    /// Whether the caller has the NFT bookmarked now.
    is_bookmarked: bool,
}

/// Bookmarks the NFT, or removes the caller's bookmark if it is there.
#[utoipa::path(
    put,
    path = "/api/nft/bookmark/{nftId}",
    tag = "nft",
    params(NftId),
    security(("bearer" = [])),
    responses((status = 200, description = "The bookmark's new state", body = Envelope<BookmarkState>), SignedIn, (status = 404, response = NotFound), (status = 409, response = Conflict)),
)]
async fn bookmark(State(state): State<AppState>, me: AuthUser, Path(id): Path<String>) -> Result<Response, ApiError> {
    let command = |nft_known| SocialCommand::ToggleBookmark { user_id: me.0, nft_id: id.clone(), nft_known, now: Utc::now() };
    let after = toggle(&state, me, &id, command).await?;
    let is_bookmarked = after.bookmarked.contains(&id);
    Ok(ok(BookmarkState { is_bookmarked }, if is_bookmarked { "NFT bookmarked" } else { "Bookmark removed" }))
}

/// A page of one of a user's tabs, as `viewer` sees it.
async fn tab(state: &AppState, viewer: MaybeUser, user_id: &str, tab: Tab, params: &Params) -> Result<Response, ApiError> {
    let request = list_request(params, &PROFILE_SALE)?;
    let page = page(params, PAGE_SIZE)?;
    let own = viewer.0.is_some_and(|v| v.to_string() == user_id);
    let paged = profiles::user_nfts(&state.read, user_id, tab, request, page, state.read_version().position, own)
        .await
        .map_err(db_error)?
        .ok_or_else(|| ApiError::NotFound("User not found".into()))?;
    page_answer(state, viewer, paged, "NFTs fetched").await
}

/// The caller's created NFTs (minted by any of their wallets).
#[utoipa::path(
    get,
    path = "/api/nft/mycreatednft",
    tag = "nft",
    params(ProfileQuery),
    security(("bearer" = [])),
    responses((status = 200, description = "A page of NFTs", body = Envelope<Paged<NftCard>>), (status = 400, response = BadRequest), SignedIn),
)]
async fn my_created(State(state): State<AppState>, me: AuthUser, params: Params) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    tab(&state, MaybeUser(Some(me.0)), &me.0.to_string(), Tab::Created, &params).await
}

/// The caller's owned NFTs (held by any of their wallets): the Owned (`ALL`), In Auction
/// (`AUCTION`) and In Sale (`FIXEDPRICE`) tabs.
#[utoipa::path(
    get,
    path = "/api/nft/mynftartwork",
    tag = "nft",
    params(ProfileQuery),
    security(("bearer" = [])),
    responses((status = 200, description = "A page of NFTs", body = Envelope<Paged<NftCard>>), (status = 400, response = BadRequest), SignedIn),
)]
async fn my_owned(State(state): State<AppState>, me: AuthUser, params: Params) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    tab(&state, MaybeUser(Some(me.0)), &me.0.to_string(), Tab::Owned, &params).await
}

/// A user id in a path.
#[derive(utoipa::IntoParams)]
#[into_params(names("userId"), parameter_in = Path)]
#[allow(dead_code, reason = "documents the path parameter; the handlers read it as a String")]
struct UserId(
    /// The user's id (a UUID).
    String,
);

/// Anyone's created NFTs; the viewer's likes and bookmarks when signed in.
#[utoipa::path(
    get,
    path = "/api/nft/usercreatednft/{userId}",
    tag = "nft",
    security((), ("bearer" = [])),
    params(UserId, ProfileQuery),
    responses((status = 200, description = "A page of NFTs", body = Envelope<Paged<NftCard>>), (status = 400, response = BadRequest), (status = 404, response = NotFound)),
)]
async fn user_created(
    State(state): State<AppState>,
    viewer: MaybeUser,
    Path(user): Path<String>,
    params: Params,
) -> Result<Response, ApiError> {
    tab(&state, viewer, &user, Tab::Created, &params).await
}

/// Anyone's owned NFTs; the viewer's likes and bookmarks when signed in.
#[utoipa::path(
    get,
    path = "/api/nft/usersnftartwork/{userId}",
    tag = "nft",
    security((), ("bearer" = [])),
    params(UserId, ProfileQuery),
    responses((status = 200, description = "A page of NFTs", body = Envelope<Paged<NftCard>>), (status = 400, response = BadRequest), (status = 404, response = NotFound)),
)]
async fn user_owned(
    State(state): State<AppState>,
    viewer: MaybeUser,
    Path(user): Path<String>,
    params: Params,
) -> Result<Response, ApiError> {
    tab(&state, viewer, &user, Tab::Owned, &params).await
}

/// The caller's bookmarks (the favourites page), filtered and sorted as browsing is.
#[utoipa::path(
    get,
    path = "/api/nft/browsebookmarked",
    tag = "nft",
    params(BookmarkQuery),
    security(("bearer" = [])),
    responses((status = 200, description = "A page of NFTs", body = Envelope<Paged<NftCard>>), (status = 400, response = BadRequest), SignedIn),
)]
async fn bookmarked(State(state): State<AppState>, me: AuthUser, params: Params) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let request = list_request(&params, &BOOKMARK_SALE)?;
    let page = page(&params, PAGE_SIZE)?;
    let paged =
        social_queries::bookmarked(&state.read, &me.0.to_string(), request, page, state.read_version().position).await.map_err(db_error)?;
    page_answer(&state, MaybeUser(Some(me.0)), paged, "Bookmarks fetched").await
}

/// The totals of a profile's NFT tabs.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only: the handler answers `ProfileCounts`")]
struct TabCounts {
    /// Created (every sale type).
    created: u64,
    /// Owned (every sale type).
    owned: u64,
    /// Owned, in auction.
    in_auction: u64,
    /// Owned, for sale at a fixed price.
    in_sale: u64,
}

/// The totals of a profile's Created, Owned, In Auction and In Sale tabs, in one call.
///
/// Not in the spec: the original app showed each tab's total from that tab's own list call,
/// so a profile header cost four list calls (four pages of rows read and sent) before a tab
/// was opened. The totals are bitmap counts in the browse index: one cheap call instead.
#[utoipa::path(
    get,
    path = "/api/nft/profilecounts/{userId}",
    tag = "nft",
    security(()),
    params(UserId),
    responses((status = 200, description = "The tabs' totals", body = Envelope<TabCounts>), (status = 404, response = NotFound)),
)]
async fn profile_counts(State(state): State<AppState>, Path(user): Path<String>) -> Result<Response, ApiError> {
    let counts: ProfileCounts = profiles::counts(&state.read, &user, state.read_version().position)
        .await
        .map_err(db_error)?
        .ok_or_else(|| ApiError::NotFound("User not found".into()))?;
    Ok(ok(counts, "Counts fetched"))
}
