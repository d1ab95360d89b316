//! A person's own data and the end of their account (issue 28):
//! `GET /api/account/export` (and by e-mailed link), `GET /api/account/deletion` (what an erasure
//! takes and leaves), `POST /api/account/delete`.
//!
//! Deleting an account appends its erasure to the person's stream and then forgets their key
//! (`domain::privacy`): every personal field the log holds of them becomes unreadable, while no
//! byte of the log changes and `verify` still passes. What stays is public chain data under the
//! wallet address.

use axum::{
    extract::{Query, State},
    http::{HeaderMap, HeaderValue, header},
    response::{IntoResponse, Response},
};
use chrono::{Duration, Utc};
use domain::{
    EventStore,
    accounts::{AccountError, User, UserCommand, decide, validate},
};
use projections::queries::privacy::{self as queries, OpenOnChain};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};
use uuid::Uuid;

use super::{
    account::{signed_by, siwe_domains},
    openapi::{BadRequest, SignedIn, TooManyRequests},
};
use crate::{
    http::{
        AppState,
        auth::{AuthUser, ClientIp, Payload, execute, load_signed_in, password, siwe},
        error::{ApiError, Envelope, accepted, ok},
    },
    mail,
};

/// Exports one person may take a minute (the document reads every table of theirs).
const EXPORTS_PER_MINUTE: u32 = 2;
/// How long an e-mailed download link works.
const EXPORT_LINK_TTL: Duration = Duration::hours(24);
/// The purpose an export link's signature is made for.
const EXPORT_LINK: &str = "export-link";
/// Fields of the person's own events that are secrets' hashes, never exported.
const SECRET_FIELDS: [&str; 6] = ["passwordHash", "codeHash", "tokenHash", "keyHash", "secretSalt", "nonce"];

/// The routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(export_data))
        .routes(routes!(email_export_link))
        .routes(routes!(download_export))
        .routes(routes!(deletion))
        .routes(routes!(delete_account))
}

/// What deleting the account takes and leaves.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct Deletion {
    /// `EMAIL` or `GOOGLE`.
    auth_provider: String,
    /// Whether the account has a password (confirm with it); without one, confirm with a
    /// signature of a linked wallet.
    has_password: bool,
    /// The linked wallets (unlinked by the deletion; what they hold on chain stays theirs).
    wallets: Vec<String>,
    /// What the wallets still have open on chain: only the wallet can cancel it, on chain.
    #[schema(value_type = Vec<Object>)]
    open_on_chain: Vec<OpenOnChain>,
}

/// What deleting the signed-in person's account would take and leave, and how to confirm it.
#[utoipa::path(
    get,
    path = "/api/account/deletion",
    tag = "account",
    security(("bearer" = [])),
    responses((status = 200, description = "What goes and what stays", body = Envelope<Deletion>), SignedIn),
)]
async fn deletion(State(state): State<AppState>, me: AuthUser) -> Result<Response, ApiError> {
    let user = load_signed_in(&state, me).await?;
    let wallets: Vec<String> = user.wallets.iter().map(|w| w.address.clone()).collect();
    let open_on_chain = queries::open_on_chain(&state.read, &wallets).await.map_err(|e| ApiError::Internal(e.into()))?;
    let auth_provider = user.provider.map_or("EMAIL", |p| p.as_str()).to_owned();
    Ok(ok(Deletion { auth_provider, has_password: user.password_hash.is_some(), wallets, open_on_chain }, "Account deletion"))
}

/// A wallet's Sign-In with Ethereum signature, confirming a deletion.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct WalletConfirmation {
    /// A wallet linked to the account.
    #[schema(max_length = 42)]
    address: String,
    /// The SIWE message with a nonce from `/api/account/walletnonce`.
    #[schema(max_length = 2000)]
    message: String,
    /// Its signature (0x hex).
    #[schema(max_length = 16_386)]
    signature: String,
}

/// The confirmation of a deletion: the password, or (an account without one) a wallet's signature.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct DeleteAccountRequest {
    /// The account's password.
    #[schema(format = Password, max_length = 128)]
    password: Option<String>,
    /// A linked wallet's signature, for accounts without a password.
    wallet: Option<WalletConfirmation>,
}

/// How many keys the deletion forgot.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct Deleted {
    /// The person's own key and those of their contact messages and pending codes.
    forgotten_keys: u64,
}

/// Deletes the signed-in person's account: wallets unlinked, API keys revoked, webhooks deleted,
/// the erasure appended, then the person's key forgotten. Their NFTs, sales, bids, offers and
/// transfers stay on chain under the wallet address.
#[utoipa::path(
    post,
    path = "/api/account/delete",
    tag = "account",
    security(("bearer" = [])),
    request_body(content((DeleteAccountRequest = "application/json"))),
    responses(
        (status = 200, description = "Deleted: every session ends", body = Envelope<Deleted>),
        (status = 400, response = BadRequest),
        SignedIn,
        (status = 429, response = TooManyRequests),
    ),
)]
async fn delete_account(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    me: AuthUser,
    headers: HeaderMap,
    Payload(req): Payload<DeleteAccountRequest>,
) -> Result<Response, ApiError> {
    let user = load_signed_in(&state, me).await?;
    state.accounts.limits.check("delete-account", ip, Some(&me.0.to_string())).await?;
    let confirmed = match (req.password, req.wallet) {
        (Some(password), _) if user.password_hash.is_some() => {
            if password.is_empty() {
                return Err(ApiError::BadRequest("password: Required".into()));
            }
            password::verify(password, user.password_hash.clone()).await
        }
        (_, Some(wallet)) => wallet_confirms(&state, &headers, &user, &wallet).await?,
        _ if user.password_hash.is_some() => return Err(ApiError::BadRequest("password: Required".into())),
        _ => return Err(ApiError::BadRequest("wallet: Required (a signature of a linked wallet)".into())),
    };
    if !confirmed {
        return Err(AccountError::InvalidCredentials.into());
    }
    let profile = projections::accounts::own_profile(&state.read, &me.0.to_string()).await.map_err(|e| ApiError::Internal(e.into()))?;
    let now = Utc::now();
    execute(&state, me.0, |u| decide(u, UserCommand::Erase { confirmed, now })).await?;
    // The erasure is written: from here on the key must go, even if this request is dropped.
    let (privacy, email, user_id) = (state.privacy.clone(), user.email.clone(), me.0);
    let forgotten =
        tokio::spawn(async move { privacy.forget_person(user_id, &email).await }).await.map_err(|e| ApiError::Internal(e.into()))??;
    state.accounts.erased.insert(me.0);
    if let Some(profile) = profile {
        drop_personal_files(&state, &me.0.to_string(), [profile.avatar, profile.cover_image].into_iter().flatten().collect()).await;
    }
    state.send_mail(mail::account_deleted(&user.email)).await;
    Ok(ok(Deleted { forgotten_keys: forgotten }, "Account deleted"))
}

/// Whether `wallet` is one of the person's and signed a SIWE message with their pending nonce.
async fn wallet_confirms(state: &AppState, headers: &HeaderMap, user: &User, wallet: &WalletConfirmation) -> Result<bool, ApiError> {
    let address = validate::wallet_address(&wallet.address)?;
    if !user.wallets.iter().any(|w| w.address == address) {
        return Err(AccountError::WalletNotLinked.into());
    }
    let now = Utc::now();
    let domains = siwe_domains(state, headers);
    let expected = siwe::Expected { domains: &domains, address: &address, chain_id: state.config.chain_id, now };
    let message = siwe::check(&wallet.message, &expected).map_err(ApiError::BadRequest)?;
    match &user.wallet_nonce {
        Some((nonce, expires)) if *nonce == message.nonce && *expires > now => {}
        _ => return Err(AccountError::InvalidNonce.into()),
    }
    signed_by(state, &address, &wallet.message, &wallet.signature).await?;
    Ok(true)
}

/// Removes the person's avatar and cover from the file store unless someone else uses them.
async fn drop_personal_files(state: &AppState, user_id: &str, cids: Vec<String>) {
    if cids.is_empty() {
        return;
    }
    let used = match queries::files_in_use(&state.read, &cids, user_id).await {
        Ok(used) => used,
        Err(err) => {
            tracing::warn!(%err, "could not tell whether an erased person's files are used elsewhere; kept");
            return;
        }
    };
    for cid in cids.iter().filter(|cid| !used.contains(*cid)) {
        if let Err(err) = state.files.remove(cid, &state.renditions).await {
            tracing::warn!(%err, cid, "could not remove an erased person's file");
        }
    }
}

/// The person's data as one JSON document: the read models' rows of theirs, the events of
/// their own stream (opened, secrets' hashes left out) and their contact messages.
pub async fn personal_document(state: &AppState, user_id: Uuid) -> Result<Value, ApiError> {
    let id = user_id.to_string();
    let profile = projections::accounts::own_profile(&state.read, &id).await.map_err(|e| ApiError::Internal(e.into()))?;
    let (email, wallets): (String, Vec<String>) =
        profile.map(|p| (p.email, p.wallets.into_iter().map(|w| w.address).collect())).unwrap_or_default();
    let mut document = Map::new();
    document.insert("format".into(), json!("marketplace-personal-data/1"));
    document.insert("exportedAt".into(), json!(Utc::now().to_rfc3339()));
    document.insert("userId".into(), json!(id));
    document.extend(queries::personal_data(&state.read, &id, &wallets).await.map_err(|e| ApiError::Internal(e.into()))?);

    let mut history = Vec::new();
    for event in read_stream(state.store.as_ref(), &domain::accounts::user_stream(user_id)).await? {
        let mut payload: Value = serde_json::from_str(&event.payload).map_err(|e| ApiError::Internal(e.into()))?;
        if let Some(fields) = payload.as_object_mut() {
            for secret in SECRET_FIELDS {
                fields.remove(secret);
            }
        }
        history.push(json!({ "position": event.position, "recordedAt": event.recorded_at.to_rfc3339(), "event": payload }));
    }
    document.insert("accountHistory".into(), Value::Array(history));

    let email = state.privacy.blinded_address(&email);
    let mut messages = Vec::new();
    let keys = state.privacy.keys();
    for owner in [user_id.simple().to_string(), email] {
        for subject in keys.owned_by(&owner).await? {
            for event in read_stream(state.store.as_ref(), &format!("contact-{subject}")).await? {
                messages.push(serde_json::from_str::<Value>(&event.payload).map_err(|e| ApiError::Internal(e.into()))?);
            }
        }
    }
    document.insert("contactMessages".into(), Value::Array(messages));
    Ok(Value::Object(document))
}

async fn read_stream(store: &dyn EventStore, stream: &str) -> Result<Vec<domain::RecordedEvent>, ApiError> {
    let mut events = Vec::new();
    loop {
        let page = store.read_stream(stream, events.len() as u64 + 1, 1_000).await?;
        let done = page.len() < 1_000;
        events.extend(page);
        if done {
            return Ok(events);
        }
    }
}

/// The document as a download.
fn attachment(document: &Value) -> Response {
    let mut response = axum::Json(document).into_response();
    response.headers_mut().insert(header::CONTENT_DISPOSITION, HeaderValue::from_static("attachment; filename=\"marketplace-data.json\""));
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-store"));
    response
}

/// Downloads the signed-in person's data: profile, wallets, likes, bookmarks, collections, bids,
/// offers, notifications and their settings, API keys and webhooks (no secrets), reports, the
/// account's own history and the person's contact messages, as one JSON document.
#[utoipa::path(
    get,
    path = "/api/account/export",
    tag = "account",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The JSON document (an attachment)", body = Object),
        SignedIn,
        (status = 429, response = TooManyRequests),
    ),
)]
async fn export_data(State(state): State<AppState>, me: AuthUser) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    state.accounts.limits.check_key(&format!("export|{}", me.0), EXPORTS_PER_MINUTE).await?;
    Ok(attachment(&personal_document(&state, me.0).await?))
}

/// Mails the signed-in person a link that downloads their data (valid 24 hours).
#[utoipa::path(
    post,
    path = "/api/account/export/email",
    tag = "account",
    security(("bearer" = [])),
    responses(
        (status = 202, description = "Sent to the account's address", body = Envelope<Object>),
        SignedIn,
        (status = 429, response = TooManyRequests),
    ),
)]
async fn email_export_link(State(state): State<AppState>, me: AuthUser) -> Result<Response, ApiError> {
    let user = load_signed_in(&state, me).await?;
    state.accounts.limits.check_key(&format!("export-mail|{}", me.0), EXPORTS_PER_MINUTE).await?;
    let expires = (Utc::now() + EXPORT_LINK_TTL).timestamp();
    let signature = state.accounts.keys.digest(EXPORT_LINK, me.0, &expires.to_string());
    let link = format!("{}/api/account/export/download?token={}.{expires}.{signature}", state.config.site_url(), me.0);
    state.send_mail(mail::export_link(&user.email, &link)).await;
    Ok(accepted(json!({}), "A link to your data was sent to your e-mail address"))
}

/// The e-mailed link's token.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct DownloadQuery {
    /// `{userId}.{expires}.{signature}` from the link.
    #[param(max_length = 200)]
    token: String,
}

/// Downloads a person's data with the link mailed to them (no sign-in needed; the link is
/// signed by the server and expires in 24 hours).
#[utoipa::path(
    get,
    path = "/api/account/export/download",
    tag = "account",
    security(()),
    params(DownloadQuery),
    responses(
        (status = 200, description = "The JSON document (an attachment)", body = Object),
        (status = 400, response = BadRequest),
        (status = 429, response = TooManyRequests),
    ),
)]
async fn download_export(State(state): State<AppState>, Query(query): Query<DownloadQuery>) -> Result<Response, ApiError> {
    let invalid = || ApiError::BadRequest("token: the link is invalid or has expired".into());
    let mut parts = query.token.splitn(3, '.');
    let (Some(user), Some(expires), Some(signature)) = (parts.next(), parts.next(), parts.next()) else { return Err(invalid()) };
    let user_id = Uuid::try_parse(user).map_err(|_| invalid())?;
    let expires_at: i64 = expires.parse().map_err(|_| invalid())?;
    let expected = state.accounts.keys.digest(EXPORT_LINK, user_id, expires);
    let genuine: bool = subtle_eq(expected.as_bytes(), signature.as_bytes());
    if !genuine || expires_at < Utc::now().timestamp() || state.accounts.erased.contains(&user_id) {
        return Err(invalid());
    }
    state.accounts.limits.check_key(&format!("export|{user_id}"), EXPORTS_PER_MINUTE).await?;
    Ok(attachment(&personal_document(&state, user_id).await?))
}

/// Compares in time independent of where the first difference is.
fn subtle_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
