//! An NFT's metadata as read from its token URI (tokens minted without this UI): its state for
//! the NFT page, and "read it again", open to anyone and rate-limited per NFT and per client
//! (see `crate::node::metadata` for the reading itself).

use axum::{
    extract::{Path, State},
    response::Response,
};
use chrono::Utc;
use domain::{Metadata, metadata::MetadataEvent};
use projections::queries::metadata::{self as queries, MetadataStatus};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{
    nft::NftId,
    openapi::{Conflict, NotFound, TooManyRequests},
};
use crate::http::{
    AppState,
    auth::ClientIp,
    error::{ApiError, Envelope, db_error, ok},
};

/// Refreshes of one NFT's metadata a minute, whoever asks.
pub const REFRESH_PER_NFT: u32 = 1;

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(status)).routes(routes!(refresh))
}

/// Where reading a token's metadata stands.
#[derive(ToSchema)]
#[allow(dead_code, non_camel_case_types, clippy::upper_case_acronyms, reason = "a schema only, its values named as they are sent")]
enum MetadataState {
    CREATOR,
    PENDING,
    RETRYING,
    FETCHED,
    FAILED,
}

/// An NFT's metadata state.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MetadataView {
    /// `CREATOR`: described by its creator through this UI (nothing is read); `PENDING`: to be
    /// read (or read again); `RETRYING`: the last attempt failed and another is due at
    /// `nextAttemptAt`; `FETCHED`: read, its title, image and properties shown; `FAILED`: given
    /// up, `reason` says why.
    #[schema(value_type = MetadataState, example = "FAILED")]
    status: String,
    /// Why the last attempt failed (empty otherwise).
    #[schema(example = "metadata: attributes[0].value must be a string, number or boolean")]
    reason: String,
    /// The token URI read (from the chain).
    #[schema(example = "ipfs://bafkreib3…")]
    token_uri: String,
    /// Attempts since the mint or the last refresh.
    attempts: i64,
    /// When the next attempt is due (ISO 8601), while `RETRYING`.
    next_attempt_at: Option<String>,
    /// The last change (ISO 8601), absent before any attempt.
    updated_at: Option<String>,
}

fn iso(seconds: i64) -> Option<String> {
    (seconds > 0)
        .then(|| chrono::DateTime::<Utc>::from_timestamp(seconds, 0).map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)))
        .flatten()
}

impl From<MetadataStatus> for MetadataView {
    fn from(s: MetadataStatus) -> Self {
        Self {
            status: s.status,
            reason: s.reason,
            token_uri: s.token_uri,
            attempts: s.attempts,
            next_attempt_at: s.next_attempt_at.and_then(iso),
            updated_at: iso(s.updated_at),
        }
    }
}

async fn current(state: &AppState, id: &str) -> Result<MetadataStatus, ApiError> {
    queries::status(&state.read, id).await.map_err(db_error)?.ok_or_else(|| ApiError::NotFound(format!("No NFT with id {id}")))
}

/// An NFT's metadata state: whether its token URI was read, is waiting to be, or failed and why.
#[utoipa::path(
    get,
    path = "/api/nft/{nftId}/metadata",
    tag = "nft",
    security(()),
    params(NftId),
    responses((status = 200, description = "The state", body = Envelope<MetadataView>), (status = 404, response = NotFound)),
)]
async fn status(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    Ok(ok(MetadataView::from(current(&state, &id).await?), "Metadata state fetched"))
}

/// Asks for an NFT's metadata to be read again from its token URI (anyone may, signed in or
/// not): the state is `PENDING` from then until the server has read it (within seconds), after
/// which its title, image and properties show the new metadata or the state says why not. At
/// most once a minute per NFT, and `RATE_LIMIT_PER_IP` a minute per client; an NFT its creator
/// described through this UI has nothing to read (409).
#[utoipa::path(
    post,
    path = "/api/nft/{nftId}/metadata/refresh",
    tag = "nft",
    security(()),
    params(NftId),
    responses(
        (status = 200, description = "Asked: the state now (`PENDING`)", body = Envelope<MetadataView>),
        (status = 404, response = NotFound),
        (status = 409, response = Conflict),
        (status = 429, response = TooManyRequests),
    ),
)]
async fn refresh(State(state): State<AppState>, ClientIp(ip): ClientIp, Path(id): Path<String>) -> Result<Response, ApiError> {
    let now = current(&state, &id).await?;
    if now.status == "CREATOR" {
        return Err(ApiError::Conflict("This NFT was described by its creator here: there is no metadata to read again".into()));
    }
    state.accounts.limits.check("metadata-refresh", ip, None).await?;
    state.accounts.limits.check_key(&format!("metadata-refresh|{id}"), REFRESH_PER_NFT).await?;
    let event = MetadataEvent::TokenMetadataRefreshRequested { chain_id: now.chain_id, token_id: now.token_id.clone(), at: Utc::now() };
    let metadata = Metadata { actor: Some(format!("client:{ip}")), ..Metadata::default() };
    let position = event.record(state.store.as_ref(), metadata).await.map_err(|e| ApiError::Internal(e.into()))?;
    state.projected(position).await;
    Ok(ok(MetadataView::from(current(&state, &id).await?), "Metadata refresh requested"))
}
