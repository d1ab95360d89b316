//! Offers and the cart (issue 20): an NFT's offers, my offers and the offers on what I own, and
//! the record calls after making, cancelling, accepting or rejecting an offer and after a cart's
//! purchase. They are checked against the receipt and recorded exactly as the other record calls
//! are (see the parent module); the offers themselves are the chain's, folded by the projector.

use std::collections::HashMap;

use axum::{
    extract::{Path, State},
    response::Response,
};
use domain::{chain::ChainEvent, trade::Claim};
use projections::queries::{
    Page, nft,
    offers::{self, OfferState, OfferView, Scope},
    wei_to_matic,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{Fields, LIMIT, NumberText, PAGE, Verified, amount, card, commit, flags_of, internal, record_on_token, token_id, verify};
use crate::http::{
    AppState,
    auth::{AuthUser, MaybeUser, load_signed_in},
    error::{ApiError, Envelope, ok},
    routes::{
        nft::{NftCard, Paged},
        openapi::{BadRequest, NotFound, SignedIn},
        params::{Choice, Params, query_params},
    },
};

/// The offer routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(nft_offers))
        .routes(routes!(my_offers))
        .routes(routes!(received_offers))
        .routes(routes!(record_make_offer))
        .routes(routes!(record_cancel_offer))
        .routes(routes!(record_accept_offer))
        .routes(routes!(record_reject_offer))
        .routes(routes!(record_cart_purchase))
}

fn state_of(value: &str) -> Option<Option<OfferState>> {
    if value.eq_ignore_ascii_case("ALL") { Some(None) } else { OfferState::parse(value).map(Some) }
}

const STATE: Choice<Option<OfferState>> = Choice {
    name: "state",
    default: "ALL",
    values: &["ALL", "ACTIVE", "ACCEPTED", "REJECTED", "CANCELLED", "EXPIRED"],
    allowed: "ALL, ACTIVE, ACCEPTED, REJECTED, CANCELLED, EXPIRED",
    parse: state_of,
    description: "Only offers in this state (EXPIRED: active but past its expiry)",
};

query_params!(
    /// An offer list's query.
    OffersQuery: STATE, PAGE, LIMIT
);

fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

async fn list(state: &AppState, scope: Scope<'_>, params: &Params) -> Result<projections::queries::Paged<OfferView>, ApiError> {
    let page = Page { page: params.number(&PAGE)?, limit: params.number(&LIMIT)? };
    let filter = params.choice(&STATE)?;
    offers::offers(&state.read, scope, filter, now(), page).await.map_err(internal)
}

/// The offers on an NFT, newest first, burned NFTs' included (their open offers can only be
/// withdrawn: `nftBurned`, `withdrawable`).
#[utoipa::path(
    get,
    path = "/api/nft/{nftId}/offers",
    tag = "trade",
    security(()),
    params(("nftId" = String, Path, description = "The NFT (`{chainId}-{tokenId}`)"), OffersQuery),
    responses(
        (status = 200, description = "A page of offers", body = Envelope<Paged<OfferItem>>),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
    ),
)]
async fn nft_offers(State(state): State<AppState>, Path(id): Path<String>, params: Params) -> Result<Response, ApiError> {
    let nft_id = format!("{}-{}", state.chain.chain_id, token_id(&state, "nftId", &id)?);
    if !nft::exists(&state.read, &nft_id).await.map_err(internal)? {
        return Err(ApiError::NotFound(format!("No NFT with id {nft_id}")));
    }
    let page = list(&state, Scope::Nft(&nft_id), &params).await?;
    Ok(ok(page, "Offers fetched"))
}

/// The offers the caller made from any of their linked wallets, newest first.
#[utoipa::path(
    get,
    path = "/api/myoffers",
    tag = "trade",
    params(OffersQuery),
    security(("bearer" = [])),
    responses((status = 200, description = "A page of offers", body = Envelope<Paged<OfferItem>>), (status = 400, response = BadRequest), SignedIn),
)]
async fn my_offers(State(state): State<AppState>, me: AuthUser, params: Params) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let page = list(&state, Scope::MadeBy(&me.0.to_string()), &params).await?;
    Ok(ok(page, "Offers fetched"))
}

/// The offers made to the caller as an NFT's owner (their own offers aside), newest first: the
/// open ones on the NFTs they own now, and the closed ones made to them while they owned the
/// NFT (accepted, rejected or withdrawn), which stay after the NFT changes hands.
#[utoipa::path(
    get,
    path = "/api/myoffers/received",
    tag = "trade",
    params(OffersQuery),
    security(("bearer" = [])),
    responses((status = 200, description = "A page of offers", body = Envelope<Paged<OfferItem>>), (status = 400, response = BadRequest), SignedIn),
)]
async fn received_offers(State(state): State<AppState>, me: AuthUser, params: Params) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let page = list(&state, Scope::ReceivedBy(&me.0.to_string()), &params).await?;
    Ok(ok(page, "Offers fetched"))
}

// ------------------------------------------------------------------------------ record calls

/// An offer record's body.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct OfferRequest {
    /// The NFT (`{chainId}-{tokenId}`).
    #[schema(max_length = 100)]
    nftid: String,
    /// The transaction.
    #[schema(max_length = 66)]
    transaction_hash: String,
    /// Making an offer: the amount in MATIC; when sent it must be the amount offered on chain.
    #[schema(value_type = Option<String>, max_length = 40)]
    amount: Option<NumberText>,
    /// Accepting or rejecting: the offerer's wallet; when sent it must be the offer's on chain.
    #[schema(max_length = 42)]
    offerer: Option<String>,
}

/// What an offer record answers: the offer as it is now, and the NFT.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OfferAnswer<'a> {
    offer: Option<&'a OfferView>,
    nft_data: Option<crate::http::routes::nft::Card<'a>>,
}

/// What an offer record answers: the offer as it is now, and its NFT.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
struct OfferRecorded {
    /// The offer as it is now (null if its block is not indexed yet).
    offer: Option<OfferItem>,
    /// The NFT as cards show it (null once burned).
    nft_data: Option<NftCard>,
}

/// The offerer a recorded transaction concerns on the token: the offer fact's.
fn offerer_in(verified: &Verified) -> Option<&str> {
    verified.tx.events.iter().find_map(|e| match e {
        ChainEvent::OfferMade { token_id, offerer, .. }
        | ChainEvent::OfferCancelled { token_id, offerer, .. }
        | ChainEvent::OfferRejected { token_id, offerer, .. }
        | ChainEvent::OfferAccepted { token_id, offerer, .. }
            if *token_id == verified.token_id =>
        {
            Some(offerer.as_str())
        }
        _ => None,
    })
}

/// Answers the offer `verified` concerns and its NFT.
async fn offer_answer(state: &AppState, me: AuthUser, verified: &Verified, message: &str) -> Result<Response, ApiError> {
    let offerer = offerer_in(verified).unwrap_or_default();
    // An NFT's offers from one offerer are few: its newest page holds the latest.
    let page = Page { page: 1, limit: 100 };
    let offers = offers::offers(&state.read, Scope::Nft(&verified.nft_id), None, now(), page).await.map_err(internal)?;
    let offer = offers.data.iter().find(|o| o.offerer_address.eq_ignore_ascii_case(offerer));
    let view = nft::detail(&state.read, &verified.nft_id).await.map_err(internal)?;
    let flags = flags_of(state, MaybeUser(Some(me.0)), &[verified.nft_id.as_str()]).await?;
    let nft_data = view.as_ref().map(|view| card(state, view, flags.of(&verified.nft_id)));
    Ok(ok(OfferAnswer { offer, nft_data }, message))
}

fn offerer_field(request: &OfferRequest) -> Result<Option<String>, ApiError> {
    let Some(offerer) = request.offerer.as_deref().map(str::trim).filter(|o| !o.is_empty()) else { return Ok(None) };
    let valid = offerer.len() == 42 && offerer.starts_with("0x") && offerer[2..].chars().all(|c| c.is_ascii_hexdigit());
    if !valid {
        return Err(ApiError::BadRequest("offerer: must be a wallet address (0x and 40 hex digits)".into()));
    }
    Ok(Some(offerer.to_ascii_lowercase()))
}

/// Records an offer made (or replaced) from one of the caller's wallets; answers the offer.
#[utoipa::path(
    post,
    path = "/api/nft/offer/make",
    tag = "trade",
    request_body(content((OfferRequest = "application/json"), (OfferRequest = "application/x-www-form-urlencoded"))),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The offer and its NFT", body = Envelope<OfferRecorded>),
        (status = 400, response = BadRequest),
        SignedIn,
    ),
)]
async fn record_make_offer(
    State(state): State<AppState>,
    me: AuthUser,
    Fields(request): Fields<OfferRequest>,
) -> Result<Response, ApiError> {
    let amount = request.amount.as_ref().map(|a| amount("amount", a)).transpose()?;
    let verified =
        record_on_token(&state, me, ("nftid", &request.nftid), &request.transaction_hash, |token_id| Claim::MakeOffer { token_id, amount })
            .await?;
    offer_answer(&state, me, &verified, "Offer made").await
}

/// Records the caller's cancelled offer (refunded); answers the offer.
#[utoipa::path(
    post,
    path = "/api/nft/offer/cancel",
    tag = "trade",
    request_body(content((OfferRequest = "application/json"), (OfferRequest = "application/x-www-form-urlencoded"))),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The offer and its NFT", body = Envelope<OfferRecorded>),
        (status = 400, response = BadRequest),
        SignedIn,
    ),
)]
async fn record_cancel_offer(
    State(state): State<AppState>,
    me: AuthUser,
    Fields(request): Fields<OfferRequest>,
) -> Result<Response, ApiError> {
    let verified =
        record_on_token(&state, me, ("nftid", &request.nftid), &request.transaction_hash, |token_id| Claim::CancelOffer { token_id })
            .await?;
    offer_answer(&state, me, &verified, "Offer cancelled").await
}

/// Records an offer the caller accepted as the NFT's owner (the NFT went to the offerer);
/// answers the offer and the NFT.
#[utoipa::path(
    post,
    path = "/api/nft/offer/accept",
    tag = "trade",
    request_body(content((OfferRequest = "application/json"), (OfferRequest = "application/x-www-form-urlencoded"))),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The offer and its NFT", body = Envelope<OfferRecorded>),
        (status = 400, response = BadRequest),
        SignedIn,
    ),
)]
async fn record_accept_offer(
    State(state): State<AppState>,
    me: AuthUser,
    Fields(request): Fields<OfferRequest>,
) -> Result<Response, ApiError> {
    let offerer = offerer_field(&request)?;
    let claim = |token_id| Claim::AcceptOffer { token_id, offerer };
    let verified = record_on_token(&state, me, ("nftid", &request.nftid), &request.transaction_hash, claim).await?;
    offer_answer(&state, me, &verified, "Offer accepted").await
}

/// Records an offer the caller rejected as the NFT's owner (refunded); answers the offer.
#[utoipa::path(
    post,
    path = "/api/nft/offer/reject",
    tag = "trade",
    request_body(content((OfferRequest = "application/json"), (OfferRequest = "application/x-www-form-urlencoded"))),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The offer and its NFT", body = Envelope<OfferRecorded>),
        (status = 400, response = BadRequest),
        SignedIn,
    ),
)]
async fn record_reject_offer(
    State(state): State<AppState>,
    me: AuthUser,
    Fields(request): Fields<OfferRequest>,
) -> Result<Response, ApiError> {
    let offerer = offerer_field(&request)?;
    let claim = |token_id| Claim::RejectOffer { token_id, offerer };
    let verified = record_on_token(&state, me, ("nftid", &request.nftid), &request.transaction_hash, claim).await?;
    offer_answer(&state, me, &verified, "Offer rejected").await
}

/// A cart record's body.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct CartRequest {
    /// The `buyTokens` transaction.
    #[schema(max_length = 66)]
    transaction_hash: String,
}

/// An item of a recorded cart.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CartLine<'a> {
    nft_id: String,
    price: String,
    price_wei: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    seen_price: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seen_price_wei: Option<&'a str>,
    nft_data: Option<crate::http::routes::nft::Card<'a>>,
}

/// What a cart record answers.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CartAnswer<'a> {
    bought: Vec<CartLine<'a>>,
    skipped: Vec<CartLine<'a>>,
    spent: String,
    spent_wei: &'a str,
    refunded: String,
    refunded_wei: &'a str,
}

/// Records a cart bought from one of the caller's wallets; answers what was bought (each NFT
/// now the caller's) and what was skipped (sold or repriced meanwhile; its money went back).
#[utoipa::path(
    post,
    path = "/api/nft/cart/purchase",
    tag = "trade",
    request_body(content((CartRequest = "application/json"), (CartRequest = "application/x-www-form-urlencoded"))),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The items bought and skipped", body = Envelope<CartRecorded>),
        (status = 400, response = BadRequest),
        SignedIn,
    ),
)]
async fn record_cart_purchase(
    State(state): State<AppState>,
    me: AuthUser,
    Fields(request): Fields<CartRequest>,
) -> Result<Response, ApiError> {
    let verified = verify(&state, me, &request.transaction_hash, &Claim::CartPurchase).await?;
    commit(&state, &verified, vec![]).await?;
    let chain = state.chain.chain_id;
    let buyer = verified.tx.from.to_ascii_lowercase();
    let (mut bought, mut skipped, mut totals) = (Vec::new(), Vec::new(), ("0", "0"));
    for event in &verified.tx.events {
        match event {
            ChainEvent::NftSold { token_id, buyer: to, price, .. } if to.eq_ignore_ascii_case(&buyer) => {
                bought.push((format!("{chain}-{token_id}"), price.as_str(), None));
            }
            ChainEvent::CartItemSkipped { token_id, seen_price, price, .. } => {
                skipped.push((format!("{chain}-{token_id}"), price.as_str(), Some(seen_price.as_str())));
            }
            ChainEvent::CartPurchased { spent, refunded, .. } => totals = (spent, refunded),
            _ => {}
        }
    }
    let mut views = HashMap::new();
    for (nft_id, _, _) in bought.iter().chain(&skipped) {
        if let Some(view) = nft::detail(&state.read, nft_id).await.map_err(internal)? {
            views.insert(nft_id.clone(), view);
        }
    }
    let ids: Vec<&str> = views.keys().map(String::as_str).collect();
    let flags = flags_of(&state, MaybeUser(Some(me.0)), &ids).await?;
    let nft_data = |nft_id: &str| views.get(nft_id).map(|view| card(&state, view, flags.of(nft_id)));
    let mut lines = [Vec::new(), Vec::new()];
    for (items, lines) in [&bought, &skipped].into_iter().zip(&mut lines) {
        for (nft_id, price, seen) in items {
            lines.push(CartLine {
                nft_data: nft_data(nft_id),
                nft_id: nft_id.clone(),
                price: wei_to_matic(price),
                price_wei: price,
                seen_price: seen.map(wei_to_matic),
                seen_price_wei: *seen,
            });
        }
    }
    let [bought_lines, skipped_lines] = lines;
    let body = CartAnswer {
        bought: bought_lines,
        skipped: skipped_lines,
        spent: wei_to_matic(totals.0),
        spent_wei: totals.0,
        refunded: wei_to_matic(totals.1),
        refunded_wei: totals.1,
    };
    let message = if skipped.is_empty() { "Cart purchased" } else { "Cart purchased; some items were no longer available" };
    Ok(ok(body, message))
}

// ---------------------------------------------------------------------------------- schemas

/// One offer.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
struct OfferItem {
    /// Its id.
    id: i64,
    /// The NFT (`{chainId}-{tokenId}`).
    nft_id: String,
    /// The offerer's wallet.
    offerer_address: String,
    /// The user that wallet is linked to, if any.
    offerer_user_id: Option<String>,
    /// That user's name.
    offerer_username: Option<String>,
    /// Amount in MATIC.
    amount: String,
    /// Amount in wei (what `acceptOfferFrom` must name).
    amount_wei: String,
    /// When it stops being acceptable (ISO 8601).
    expires_at: String,
    /// The same in Unix seconds.
    expires_at_unix: i64,
    /// The service fee its sale pays (basis points).
    fee_bps: i64,
    /// `ACTIVE`, `ACCEPTED`, `REJECTED`, `CANCELLED` or `EXPIRED` (active, past its expiry).
    state: OfferStateName,
    /// How many times its offerer replaced it.
    replaced: i64,
    /// Whether the NFT was burned (its open offers can only be withdrawn).
    nft_burned: bool,
    /// Whether the owner can accept it now.
    acceptable: bool,
    /// Whether its offerer can still cancel it for a refund (active or expired).
    withdrawable: bool,
    /// Who accepted it.
    seller: Option<String>,
    /// The transaction of its latest change.
    transaction_hash: String,
    /// When it was made (ISO 8601).
    created_at: String,
    /// When it last changed (ISO 8601).
    updated_at: String,
    /// When it was accepted, rejected or cancelled (ISO 8601).
    closed_at: Option<String>,
}

/// An offer's state.
#[derive(ToSchema)]
#[allow(dead_code, non_camel_case_types, clippy::upper_case_acronyms, reason = "a schema only, its values named as they are sent")]
enum OfferStateName {
    ACTIVE,
    ACCEPTED,
    REJECTED,
    CANCELLED,
    EXPIRED,
}

/// A recorded cart.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
struct CartRecorded {
    /// The NFTs bought, each now the caller's.
    bought: Vec<CartItem>,
    /// The NFTs skipped (sold or repriced meanwhile), their money returned.
    skipped: Vec<CartItem>,
    /// What the bought items cost, in MATIC.
    spent: String,
    /// The same in wei.
    spent_wei: String,
    /// What went back to the buyer, in MATIC.
    refunded: String,
    /// The same in wei.
    refunded_wei: String,
}

/// An item of a recorded cart.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
struct CartItem {
    /// The NFT (`{chainId}-{tokenId}`).
    nft_id: String,
    /// Bought: the price paid; skipped: its asking price then ("0": not for sale), in MATIC.
    price: String,
    /// The same in wei.
    price_wei: String,
    /// Skipped: the price the buyer saw, in MATIC.
    seen_price: Option<String>,
    /// The same in wei.
    seen_price_wei: Option<String>,
    /// The NFT as cards show it (null once burned).
    nft_data: Option<NftCard>,
}
