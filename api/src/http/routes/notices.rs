//! The caller's notifications: the list, the unread count, marking read (one, or all up to the
//! newest shown), and which kinds they get. Notices are a read model of the chain's facts
//! (`projections/src/notices.rs`); reads and settings are events of the `notices-{userId}`
//! stream (`domain/src/notices.rs`), so unread counts agree across tabs and survive reloads.

use axum::{extract::State, response::Response};
use chrono::Utc;
use domain::{
    Metadata,
    notices::{self, NoticeError, NoticeEvent},
};
use projections::queries::{Page, notices as queries};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{
    lists::PAGE,
    nft::Paged,
    openapi::{BadRequest, SignedIn},
    params::{Choice, Number, Params, query_params},
};
use crate::http::{
    AppState,
    auth::{AuthUser, Payload, load_signed_in},
    error::{ApiError, Envelope, db_error, ok, ok_bytes},
};

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(unread))
        .routes(routes!(read_one))
        .routes(routes!(read_all))
        .routes(routes!(settings, change_settings))
}

const LIMIT: Number = Number { name: "limit", default: 20, min: 1, max: 100, description: "Notices per page" };
const UNREAD: Choice<bool> = Choice {
    name: "unread",
    default: "false",
    values: &["false", "true"],
    allowed: "false, true",
    parse: |v| match v {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    },
    description: "Only the unread notices",
};

query_params!(
    /// The notifications list's query.
    NoticesQuery: PAGE, LIMIT, UNREAD
);

/// A notice (as the list and the stream carry it).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code, reason = "documents projections::queries::notices::NoticeView")]
pub(super) struct Notice {
    /// The log position of the fact it tells (what marking it read names).
    position: i64,
    /// What happened.
    #[schema(inline)]
    kind: NoticeKind,
    /// The NFT (`{chain}-{token}`); empty for a moderation notice about a collection or a user.
    nft_id: String,
    /// Its title, when known.
    nft_title: Option<String>,
    /// Its file's CID, when known.
    nft_file: Option<String>,
    /// The amount in MATIC ("0" when none).
    amount: String,
    /// The same in wei.
    amount_wei: String,
    /// OUTBID: the bid that topped it, in MATIC (the new top bid); absent for other kinds.
    top_amount: Option<String>,
    /// The same in wei.
    top_amount_wei: Option<String>,
    /// The other wallet (the new top bidder, the buyer, the owner...).
    counterpart_address: Option<String>,
    /// The user linked to it, if any.
    counterpart_user_id: Option<String>,
    /// That user's name.
    counterpart_username: Option<String>,
    /// The transaction.
    transaction_hash: String,
    /// When (block time, ISO 8601).
    created_at: String,
    /// Whether the caller has read it.
    read: bool,
    /// A moderation notice's target (HIDDEN, RESTORED, REPORT_DECIDED).
    #[schema(inline)]
    target_kind: Option<NoticeTarget>,
    /// Its id.
    target_id: Option<String>,
    /// Its title (an NFT's or a collection's) or a user's name, when known.
    target_title: Option<String>,
    /// The moderator's reason.
    reason: Option<String>,
    /// REPORT_DECIDED: what was decided.
    #[schema(inline)]
    decision: Option<ReportDecision>,
}

/// What a moderation notice is about.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code, reason = "documents the notices read model's target_kind")]
pub(super) enum NoticeTarget {
    /// An NFT (`nftId` names it too).
    Nft,
    /// A collection.
    Collection,
    /// A user.
    User,
}

/// What a moderator decided on a report.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[allow(dead_code, reason = "documents the notices read model's decision")]
pub(super) enum ReportDecision {
    /// The target was hidden.
    Hide,
    /// The target, hidden, was restored.
    Restore,
    /// The report was dismissed.
    Dismiss,
}

/// The kinds of notice.
#[derive(Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[allow(dead_code, reason = "documents domain::notices::KINDS")]
pub(super) enum NoticeKind {
    /// A bid of yours was topped (and refunded).
    Outbid,
    /// A bid reached your NFT.
    BidReceived,
    /// Your NFT sold.
    Sold,
    /// You bought an NFT.
    Bought,
    /// Your top bid won the auction.
    BidAccepted,
    /// The owner rejected your bid (refunded).
    BidRejected,
    /// An auction you bid in ends within the hour.
    AuctionEnding,
    /// An auction you were in or ran ended: its time is up, it was stopped or bought out (your
    /// bid refunded), or it closed without a sale.
    AuctionEnded,
    /// An offer reached your NFT.
    OfferReceived,
    /// The owner accepted your offer: the NFT is yours.
    OfferAccepted,
    /// The owner rejected your offer (refunded).
    OfferRejected,
    /// A moderator held your NFT's sale on this market (reported stolen), or renewed the hold.
    SaleHeld,
    /// The hold on your NFT's sale was released before its end.
    SaleReleased,
    /// A moderator hid your NFT or collection (with their reason).
    Hidden,
    /// A moderator restored your hidden NFT or collection.
    Restored,
    /// A report of yours was decided (hidden, restored or dismissed, with the reason).
    ReportDecided,
    /// Your appeal of a hiding was turned down: it stays hidden (with the reason).
    AppealDeclined,
}

/// The unread count after a call.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct Unread {
    /// Unread notices (of the kinds not muted).
    unread: i64,
}

/// Marks one notice read.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ReadOne {
    /// The notice's position.
    position: u64,
}

/// Marks every notice up to a position read.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ReadAll {
    /// The newest notice shown: it and every older one are read.
    up_to: u64,
}

/// Which kinds the caller is told of, and which by e-mail too.
#[derive(Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct Settings {
    /// Kinds not shown at all.
    #[schema(inline, max_items = 17)]
    muted: Vec<NoticeKind>,
    /// Kinds also sent by e-mail (at most one e-mail per kind and NFT every ten minutes).
    #[schema(inline, max_items = 17)]
    email: Vec<NoticeKind>,
}

fn kind_name(kind: &NoticeKind) -> String {
    serde_json::to_value(kind).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

impl From<NoticeError> for ApiError {
    fn from(err: NoticeError) -> Self {
        ApiError::BadRequest(err.to_string())
    }
}

/// Appends `event` for the caller and answers their unread count once the read models show it.
async fn record(state: &AppState, me: AuthUser, event: NoticeEvent, message: &str) -> Result<Response, ApiError> {
    let metadata = Metadata { actor: Some(me.0.to_string()), ..Metadata::default() };
    let position = notices::record(state.store.as_ref(), &event, metadata).await?;
    state.projected(position).await;
    let unread = queries::unread(&state.read, &me.0.to_string()).await.map_err(db_error)?;
    Ok(ok(Unread { unread }, message))
}

/// The caller's notifications, newest first.
#[utoipa::path(
    get,
    path = "/api/notifications",
    tag = "notifications",
    params(NoticesQuery),
    security(("bearer" = [])),
    responses((status = 200, description = "A page of notices", body = Envelope<Paged<Notice>>), (status = 400, response = BadRequest), SignedIn),
)]
async fn list(State(state): State<AppState>, me: AuthUser, params: Params) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let page = Page { page: params.number(&PAGE)?, limit: params.number(&LIMIT)? };
    let unread_only = params.choice(&UNREAD)?;
    super::own_answer(&state, me.0, &format!("notices {page:?} unread {unread_only}"), async || {
        let paged = queries::notices(&state.read, &me.0.to_string(), unread_only, page).await.map_err(db_error)?;
        Ok((ok_bytes(paged, "Notifications fetched")?, None))
    })
    .await
}

/// The caller's unread count.
#[utoipa::path(
    get,
    path = "/api/notifications/unread",
    tag = "notifications",
    security(("bearer" = [])),
    responses((status = 200, description = "The unread count", body = Envelope<Unread>), SignedIn),
)]
async fn unread(State(state): State<AppState>, me: AuthUser) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    super::own_answer(&state, me.0, "unread notices", async || {
        let unread = queries::unread(&state.read, &me.0.to_string()).await.map_err(db_error)?;
        Ok((ok_bytes(Unread { unread }, "Unread count fetched")?, None))
    })
    .await
}

/// Marks one notice read.
#[utoipa::path(
    post,
    path = "/api/notifications/read",
    tag = "notifications",
    request_body = ReadOne,
    security(("bearer" = [])),
    responses((status = 200, description = "Read; the unread count", body = Envelope<Unread>), (status = 400, response = BadRequest), SignedIn),
)]
async fn read_one(State(state): State<AppState>, me: AuthUser, Payload(req): Payload<ReadOne>) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let event = NoticeEvent::NoticeRead { user_id: me.0, position: req.position, at: Utc::now() };
    record(&state, me, event, "Notification read").await
}

/// Marks every notice up to a position read (the newest the caller was shown: one that
/// arrived since stays unread).
#[utoipa::path(
    post,
    path = "/api/notifications/readall",
    tag = "notifications",
    request_body = ReadAll,
    security(("bearer" = [])),
    responses((status = 200, description = "Read; the unread count", body = Envelope<Unread>), (status = 400, response = BadRequest), SignedIn),
)]
async fn read_all(State(state): State<AppState>, me: AuthUser, Payload(req): Payload<ReadAll>) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let event = NoticeEvent::NoticesReadUpTo { user_id: me.0, position: req.up_to, at: Utc::now() };
    record(&state, me, event, "Notifications read").await
}

/// The caller's notification settings.
#[utoipa::path(
    get,
    path = "/api/notifications/settings",
    tag = "notifications",
    security(("bearer" = [])),
    responses((status = 200, description = "The settings", body = Envelope<Settings>), SignedIn),
)]
async fn settings(State(state): State<AppState>, me: AuthUser) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let settings = queries::settings(&state.read, &me.0.to_string()).await.map_err(db_error)?;
    Ok(ok(settings, "Settings fetched"))
}

/// Changes which kinds the caller is told of, and which by e-mail too.
#[utoipa::path(
    put,
    path = "/api/notifications/settings",
    tag = "notifications",
    request_body = Settings,
    security(("bearer" = [])),
    responses((status = 200, description = "Saved; the unread count (muted kinds do not count)", body = Envelope<Unread>), (status = 400, response = BadRequest), SignedIn),
)]
async fn change_settings(State(state): State<AppState>, me: AuthUser, Payload(req): Payload<Settings>) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let muted: Vec<String> = req.muted.iter().map(kind_name).collect();
    let email: Vec<String> = req.email.iter().map(kind_name).collect();
    let event = notices::settings(me.0, &muted, &email, Utc::now())?;
    record(&state, me, event, "Settings saved").await
}
