//! `/api/account/keys`: the signed-in user's API keys for bots. A key is made with a name and
//! scopes and shown once; only its hash is kept. Keys are listed with their last use and
//! revoked at once. Only a person signed in with a password (an access token) manages keys:
//! a key is refused here whatever its scopes ([`crate::http::auth::api_keys::required`]).

use axum::{
    extract::{Path, State},
    response::Response,
};
use chrono::{DateTime, SecondsFormat, Utc};
use domain::accounts::{MAX_API_KEY_NAME, UserCommand, decide};
use projections::accounts::{ApiKeyRow, api_keys_of};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use uuid::Uuid;

use super::openapi::{BadRequest, Conflict, Forbidden, NotFound, SignedIn};
use crate::http::{
    AppState,
    auth::{AuthUser, Payload, api_keys, execute, load_signed_in},
    error::{ApiError, Envelope, db_error, ok},
};

/// The `/api/account/keys` routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_keys, create_key)).routes(routes!(revoke_key))
}

/// What an API key may do (besides reading public data, which any key may).
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
#[allow(dead_code, reason = "a schema only: the values domain::accounts::ApiKeyScope writes")]
enum ApiKeyScope {
    /// The person's own data: profile, bids, offers, bookmarks, collections.
    Read,
    /// The record calls (mint, purchase, bids, offers, cart, sale changes, burn), collections,
    /// likes, bookmarks.
    Trades,
    /// Notifications and their settings, and the stream's personal topics.
    Notifications,
    /// Webhook endpoints (the routes come later).
    Webhooks,
}

/// An API key as its owner sees it: never the key itself, which was shown once.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ApiKey {
    /// The key's id (a UUID): what revoking names.
    key_id: String,
    /// The name given.
    name: String,
    /// What it may do.
    #[schema(value_type = Vec<ApiKeyScope>)]
    scopes: Vec<String>,
    /// The key's first characters (`mk_live_` and four more), to tell keys apart.
    prefix: String,
    /// When it was made (ISO 8601).
    created_at: String,
    /// When it was last used (ISO 8601, to the minute), or null if never.
    last_used_at: Option<String>,
}

fn iso_seconds(seconds: i64) -> String {
    DateTime::<Utc>::from_timestamp(seconds, 0).unwrap_or_default().to_rfc3339_opts(SecondsFormat::Secs, true)
}

fn key_body(row: ApiKeyRow, last_used_ms: Option<i64>) -> ApiKey {
    ApiKey {
        key_id: row.key_id,
        name: row.name,
        scopes: row.scopes,
        prefix: row.prefix,
        created_at: iso_seconds(row.created_at),
        last_used_at: last_used_ms.map(|ms| iso_seconds(ms.div_euclid(1000))),
    }
}

/// The signed-in user's API keys that still work, newest first.
#[utoipa::path(
    get,
    path = "/api/account/keys",
    tag = "account",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The keys that work, newest first", body = Envelope<Vec<ApiKey>>),
        (status = 403, response = Forbidden),
        SignedIn,
    ),
)]
async fn list_keys(State(state): State<AppState>, me: AuthUser) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let rows = api_keys_of(&state.read, &me.0.to_string()).await.map_err(db_error)?;
    let ids: Vec<String> = rows.iter().map(|row| row.key_id.clone()).collect();
    let uses = state.accounts.limits.api_key_uses(&ids).await?;
    let keys: Vec<ApiKey> = rows
        .into_iter()
        .map(|row| {
            let used = uses.get(&row.key_id).copied();
            key_body(row, used)
        })
        .collect();
    Ok(ok(keys, "API keys fetched"))
}

// The schema's `max_length` below is the domain's rule, checked before the handler runs.
const _: () = assert!(MAX_API_KEY_NAME == 64);

/// A key to make.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CreateKeyRequest {
    /// What the key is for (1 to 64 characters).
    #[schema(min_length = 1, max_length = 64)]
    name: String,
    /// What it may do: at least one.
    #[schema(value_type = Vec<ApiKeyScope>, min_items = 1)]
    scopes: Vec<String>,
}

/// A key just made: the only answer that ever holds the key.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct CreatedKey {
    /// The key (`mk_live_` and 40 letters and digits): shown this once, kept nowhere.
    key: String,
    /// The key's id (a UUID): what revoking names.
    key_id: String,
    /// The name given.
    name: String,
    /// What it may do.
    #[schema(value_type = Vec<ApiKeyScope>)]
    scopes: Vec<String>,
    /// The key's first characters (`mk_live_` and four more).
    prefix: String,
    /// When it was made (ISO 8601).
    created_at: String,
    /// Always null: not used yet.
    last_used_at: Option<String>,
}

/// Makes an API key for the signed-in user. The answer holds the key, once: only its hash is
/// kept.
#[utoipa::path(
    post,
    path = "/api/account/keys",
    tag = "account",
    request_body(content((CreateKeyRequest = "application/json"))),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The key, shown this once", body = Envelope<CreatedKey>),
        (status = 400, response = BadRequest),
        (status = 403, response = Forbidden),
        (status = 409, response = Conflict),
        SignedIn,
    ),
)]
async fn create_key(State(state): State<AppState>, me: AuthUser, Payload(req): Payload<CreateKeyRequest>) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let new = api_keys::generate();
    let key_id = Uuid::now_v7();
    let command =
        UserCommand::CreateApiKey { key_id, name: req.name, scopes: req.scopes, key_hash: new.hash, prefix: new.prefix, now: Utc::now() };
    execute(&state, me.0, |u| decide(u, command.clone())).await?;
    let rows = api_keys_of(&state.read, &me.0.to_string()).await.map_err(db_error)?;
    let row = rows
        .into_iter()
        .find(|row| row.key_id == key_id.to_string())
        .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("the new API key is not in the read model")))?;
    let listed = key_body(row, None);
    let created = CreatedKey {
        key: new.key,
        key_id: listed.key_id,
        name: listed.name,
        scopes: listed.scopes,
        prefix: listed.prefix,
        created_at: listed.created_at,
        last_used_at: listed.last_used_at,
    };
    Ok(ok(created, "API key created: copy it now, it will not be shown again"))
}

/// Revokes one of the signed-in user's API keys: it is refused from the next request on.
#[utoipa::path(
    delete,
    path = "/api/account/keys/{keyId}",
    tag = "account",
    params(("keyId" = String, Path, description = "The key's id")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Revoked (or revoked already)", body = Envelope<crate::http::error::Null>),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        SignedIn,
    ),
)]
async fn revoke_key(State(state): State<AppState>, me: AuthUser, Path(key_id): Path<String>) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let key_id: Uuid = key_id.trim().parse().map_err(|_| ApiError::NotFound("API key not found".into()))?;
    let command = UserCommand::RevokeApiKey { key_id, now: Utc::now() };
    execute(&state, me.0, |u| decide(u, command.clone())).await?;
    Ok(ok(crate::http::error::Null, "API key revoked"))
}
