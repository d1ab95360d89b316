//! `/api/webhooks`: the caller's webhook endpoints (see [`crate::node::webhooks`]). An endpoint
//! is registered with a URL, the stream's topics and notice kinds; its signing secret is in the
//! registration's answer only. Listed with where its deliveries stand, changed, deleted, its
//! delivery log read, redelivered from a position, and sent a test event. A session or an API
//! key with the `webhooks` scope ([`crate::http::auth::api_keys::required`]) manages them.

use axum::{
    extract::{Path, State},
    response::Response,
};
use chrono::{DateTime, SecondsFormat, Utc};
use domain::accounts::{MAX_WEBHOOK_TOPICS, MAX_WEBHOOK_URL, MAX_WEBHOOKS, UserCommand, decide, webhook_url};
use projections::accounts::{WebhookEndpointRow, webhook_endpoints_of};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use uuid::Uuid;

use super::openapi::{BadRequest, Forbidden, NotFound, SignedIn};
use crate::{
    http::{
        AppState,
        auth::{AuthUser, Payload, execute, load_signed_in},
        error::{ApiError, Envelope, Null, db_error, ok},
    },
    node::webhooks::{
        signature,
        state::{Attempt, DeliveryState, LOG_KEPT},
    },
};

/// The `/api/webhooks` routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_endpoints, register_endpoint))
        .routes(routes!(update_endpoint, delete_endpoint))
        .routes(routes!(deliveries))
        .routes(routes!(redeliver))
        .routes(routes!(send_test))
}

// The schema's limits below are the domain's rules, checked before the handler runs.
const _: () = assert!(MAX_WEBHOOK_URL == 2_048 && MAX_WEBHOOK_TOPICS == 20 && MAX_WEBHOOKS == 10);

/// Where an endpoint's deliveries stand.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum EndpointState {
    /// Delivered to as changes come.
    Active,
    /// The last delivery failed; it is retried with backoff.
    Retrying,
    /// Failed for 24 h: nothing is delivered until a redelivery enables it.
    Disabled,
}

/// One attempt of the delivery log.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct DeliveryAttempt {
    /// The change's log position (0 for a test event).
    position: u64,
    /// The `webhook-id` sent.
    message_id: String,
    /// 1 for the first attempt of this change.
    attempt: u32,
    /// The receiver's HTTP status, or null when it did not answer.
    status: Option<u16>,
    /// Why it did not answer (refused by the address rule, unreachable, timed out), or null.
    error: Option<String>,
    /// How long the attempt took, in milliseconds.
    latency_ms: i64,
    /// When (ISO 8601, milliseconds).
    at: String,
    /// Whether the receiver acknowledged it (2xx).
    ok: bool,
}

fn iso_ms(ms: i64) -> String {
    DateTime::<Utc>::from_timestamp_millis(ms).unwrap_or_default().to_rfc3339_opts(SecondsFormat::Millis, true)
}

fn iso_seconds(seconds: i64) -> String {
    DateTime::<Utc>::from_timestamp(seconds, 0).unwrap_or_default().to_rfc3339_opts(SecondsFormat::Secs, true)
}

impl From<Attempt> for DeliveryAttempt {
    fn from(a: Attempt) -> Self {
        let ok = a.ok();
        Self {
            position: a.position,
            message_id: a.message_id,
            attempt: a.attempt,
            status: a.status,
            error: a.error,
            latency_ms: a.latency_ms,
            at: iso_ms(a.at_ms),
            ok,
        }
    }
}

/// A webhook endpoint as its owner sees it: never its secret, which was shown once.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct WebhookEndpoint {
    /// The endpoint's id (a UUID).
    endpoint_id: String,
    /// Where deliveries are posted.
    url: String,
    /// The stream's topics it gets (`market`, `nft:{nftId}`, `collection:{collectionId}`).
    topics: Vec<String>,
    /// The notice kinds of its owner it gets.
    #[schema(value_type = Vec<super::notices::NoticeKind>)]
    notice_kinds: Vec<String>,
    /// Where its deliveries stand.
    state: EndpointState,
    /// Every change up to this log position was delivered (or was not for this endpoint).
    acknowledged_position: u64,
    /// Failed attempts since the last success.
    failures: u32,
    /// When the next retry is due (ISO 8601), while retrying.
    next_attempt_at: Option<String>,
    /// When it was disabled (ISO 8601), if it is.
    disabled_at: Option<String>,
    /// The last attempt, if any.
    last_delivery: Option<DeliveryAttempt>,
    /// When it was registered (ISO 8601).
    created_at: String,
}

/// A registered endpoint with its secret: the only answer that holds it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct CreatedEndpoint {
    /// The signing secret (`whsec_` and base64), shown this once: verify each delivery's
    /// `webhook-signature` with it.
    secret: String,
    /// The endpoint's id (a UUID).
    endpoint_id: String,
    /// Where deliveries are posted.
    url: String,
    /// The stream's topics it gets.
    topics: Vec<String>,
    /// The notice kinds of its owner it gets.
    #[schema(value_type = Vec<super::notices::NoticeKind>)]
    notice_kinds: Vec<String>,
    /// `ACTIVE`: nothing delivered yet.
    state: EndpointState,
    /// The log position it starts after.
    acknowledged_position: u64,
    /// 0.
    failures: u32,
    /// Null.
    next_attempt_at: Option<String>,
    /// Null.
    disabled_at: Option<String>,
    /// Null: nothing delivered yet.
    last_delivery: Option<DeliveryAttempt>,
    /// When it was registered (ISO 8601).
    created_at: String,
}

fn endpoint_body(row: WebhookEndpointRow, state: Option<DeliveryState>, last: Option<Attempt>) -> WebhookEndpoint {
    let state = state.unwrap_or_default();
    let phase = if state.disabled_at_ms.is_some() {
        EndpointState::Disabled
    } else if state.attempts > 0 {
        EndpointState::Retrying
    } else {
        EndpointState::Active
    };
    WebhookEndpoint {
        endpoint_id: row.endpoint_id,
        url: row.url,
        topics: row.topics,
        notice_kinds: row.notice_kinds,
        state: phase,
        acknowledged_position: state.acked,
        failures: state.attempts,
        next_attempt_at: (state.attempts > 0 && state.disabled_at_ms.is_none() && state.next_attempt_ms > 0)
            .then(|| iso_ms(state.next_attempt_ms)),
        disabled_at: state.disabled_at_ms.map(iso_ms),
        last_delivery: last.map(Into::into),
        created_at: iso_seconds(row.created_at),
    }
}

/// The caller's endpoint `id`, or 404 (someone else's is as unknown as a missing one).
async fn owned(state: &AppState, me: AuthUser, id: &str) -> Result<WebhookEndpointRow, ApiError> {
    let rows = webhook_endpoints_of(&state.read, &me.0.to_string()).await.map_err(db_error)?;
    rows.into_iter().find(|row| row.endpoint_id == id.trim()).ok_or_else(|| ApiError::NotFound("Webhook endpoint not found".into()))
}

/// An endpoint's id as the commands name it.
fn endpoint_uuid(row: &WebhookEndpointRow) -> Result<Uuid, ApiError> {
    row.endpoint_id.parse().map_err(|_| ApiError::NotFound("Webhook endpoint not found".into()))
}

async fn with_state(state: &AppState, row: WebhookEndpointRow) -> Result<WebhookEndpoint, ApiError> {
    let store = &state.webhooks.store;
    let delivery = store.load(&row.endpoint_id).await.map_err(db_error)?;
    let last = store.attempts(&row.endpoint_id, 1).await.map_err(db_error)?.into_iter().next();
    Ok(endpoint_body(row, delivery, last))
}

/// The caller's webhook endpoints, oldest first, with where their deliveries stand.
#[utoipa::path(
    get,
    path = "/api/webhooks",
    tag = "webhooks",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The endpoints", body = Envelope<Vec<WebhookEndpoint>>),
        (status = 403, response = Forbidden),
        SignedIn,
    ),
)]
async fn list_endpoints(State(state): State<AppState>, me: AuthUser) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let rows = webhook_endpoints_of(&state.read, &me.0.to_string()).await.map_err(db_error)?;
    let ids: Vec<String> = rows.iter().map(|row| row.endpoint_id.clone()).collect();
    let mut states = state.webhooks.store.load_many(&ids).await.map_err(db_error)?;
    let mut endpoints = Vec::with_capacity(rows.len());
    for row in rows {
        let last = state.webhooks.store.attempts(&row.endpoint_id, 1).await.map_err(db_error)?.into_iter().next();
        let delivery = states.remove(&row.endpoint_id);
        endpoints.push(endpoint_body(row, delivery, last));
    }
    Ok(ok(endpoints, "Webhook endpoints fetched"))
}

/// An endpoint to register, or what it becomes.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct EndpointRequest {
    /// Where to post deliveries: `https://` (`http://` only where the operator allows it), a
    /// public address, no redirects followed.
    #[schema(min_length = 1, max_length = 2048)]
    url: String,
    /// The stream's topics: `market`, `nft:{nftId}`, `collection:{collectionId}` (at most 20).
    #[serde(default)]
    #[schema(value_type = Vec<Topic>, max_items = 20)]
    topics: Vec<String>,
    /// The notice kinds of yours to get. At least one topic or kind.
    #[serde(default)]
    #[schema(value_type = Vec<super::notices::NoticeKind>)]
    notice_kinds: Vec<String>,
}

/// A stream topic: `market`, `nft:{nftId}` or `collection:{collectionId}`.
#[derive(ToSchema)]
#[schema(max_length = 211, example = "market")]
#[allow(dead_code, reason = "a schema only")]
struct Topic(String);

/// Refuses a URL the guard would not post to (scheme, private or denied addresses).
async fn guarded(state: &AppState, url: &str) -> Result<String, ApiError> {
    let url = webhook_url(url)?;
    state.webhooks.poster.check(&url).await.map_err(|err| ApiError::BadRequest(format!("url: {err}")))?;
    Ok(url)
}

/// Registers a webhook endpoint. The answer holds its signing secret, once. Deliveries start
/// with the changes after the registration.
#[utoipa::path(
    post,
    path = "/api/webhooks",
    tag = "webhooks",
    request_body(content((EndpointRequest = "application/json"))),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The endpoint and its secret, shown this once", body = Envelope<CreatedEndpoint>),
        (status = 400, response = BadRequest),
        (status = 403, response = Forbidden),
        SignedIn,
    ),
)]
async fn register_endpoint(
    State(state): State<AppState>,
    me: AuthUser,
    Payload(req): Payload<EndpointRequest>,
) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let url = guarded(&state, &req.url).await?;
    let endpoint_id = Uuid::now_v7();
    let salt = signature::new_salt();
    let command = UserCommand::RegisterWebhook {
        endpoint_id,
        url,
        topics: req.topics,
        notice_kinds: req.notice_kinds,
        secret_salt: salt.clone(),
        now: Utc::now(),
    };
    let executed = execute(&state, me.0, |u| decide(u, command.clone())).await?;
    let id = endpoint_id.to_string();
    // Only changes after the registration are delivered.
    state.webhooks.store.ensure(&id, executed.position.unwrap_or_default()).await.map_err(db_error)?;
    state.webhooks.wake();
    let row = owned(&state, me, &id).await?;
    let endpoint = with_state(&state, row).await?;
    let secret = signature::shown(&state.webhooks.secret(&salt));
    let WebhookEndpoint {
        endpoint_id,
        url,
        topics,
        notice_kinds,
        state,
        acknowledged_position,
        failures,
        next_attempt_at,
        disabled_at,
        last_delivery,
        created_at,
    } = endpoint;
    let created = CreatedEndpoint {
        secret,
        endpoint_id,
        url,
        topics,
        notice_kinds,
        state,
        acknowledged_position,
        failures,
        next_attempt_at,
        disabled_at,
        last_delivery,
        created_at,
    };
    Ok(ok(created, "Webhook endpoint registered: copy its secret now, it will not be shown again"))
}

/// Changes an endpoint's URL, topics and notice kinds (its secret and position stay).
#[utoipa::path(
    put,
    path = "/api/webhooks/{endpointId}",
    tag = "webhooks",
    params(("endpointId" = String, Path, description = "The endpoint's id")),
    request_body(content((EndpointRequest = "application/json"))),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The endpoint as it is now", body = Envelope<WebhookEndpoint>),
        (status = 400, response = BadRequest),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        SignedIn,
    ),
)]
async fn update_endpoint(
    State(state): State<AppState>,
    me: AuthUser,
    Path(endpoint_id): Path<String>,
    Payload(req): Payload<EndpointRequest>,
) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let row = owned(&state, me, &endpoint_id).await?;
    let url = guarded(&state, &req.url).await?;
    let id = endpoint_uuid(&row)?;
    let command = UserCommand::UpdateWebhook { endpoint_id: id, url, topics: req.topics, notice_kinds: req.notice_kinds, now: Utc::now() };
    execute(&state, me.0, |u| decide(u, command.clone())).await?;
    state.webhooks.wake();
    let row = owned(&state, me, &endpoint_id).await?;
    Ok(ok(with_state(&state, row).await?, "Webhook endpoint updated"))
}

/// Deletes an endpoint: nothing more is delivered to it; its delivery log is forgotten.
#[utoipa::path(
    delete,
    path = "/api/webhooks/{endpointId}",
    tag = "webhooks",
    params(("endpointId" = String, Path, description = "The endpoint's id")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Deleted", body = Envelope<Null>),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        SignedIn,
    ),
)]
async fn delete_endpoint(State(state): State<AppState>, me: AuthUser, Path(endpoint_id): Path<String>) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let row = owned(&state, me, &endpoint_id).await?;
    let id = endpoint_uuid(&row)?;
    let command = UserCommand::DeleteWebhook { endpoint_id: id, now: Utc::now() };
    execute(&state, me.0, |u| decide(u, command.clone())).await?;
    state.webhooks.wake();
    state.webhooks.store.forget(&row.endpoint_id).await.map_err(db_error)?;
    Ok(ok(Null, "Webhook endpoint deleted"))
}

/// An endpoint's last attempts (at most 100), newest first.
#[utoipa::path(
    get,
    path = "/api/webhooks/{endpointId}/deliveries",
    tag = "webhooks",
    params(("endpointId" = String, Path, description = "The endpoint's id")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The delivery log, newest first", body = Envelope<Vec<DeliveryAttempt>>),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        SignedIn,
    ),
)]
async fn deliveries(State(state): State<AppState>, me: AuthUser, Path(endpoint_id): Path<String>) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let row = owned(&state, me, &endpoint_id).await?;
    let attempts = state.webhooks.store.attempts(&row.endpoint_id, LOG_KEPT).await.map_err(db_error)?;
    Ok(ok(attempts.into_iter().map(DeliveryAttempt::from).collect::<Vec<_>>(), "Delivery log fetched"))
}

/// Where to redeliver from.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RedeliverRequest {
    /// The first log position to deliver again (1 or more): every change at it or later comes
    /// again, in order, with the same `webhook-id`s.
    #[schema(minimum = 1)]
    from_position: u64,
}

/// Redelivers every change from a position on; enables a disabled endpoint.
#[utoipa::path(
    post,
    path = "/api/webhooks/{endpointId}/redeliver",
    tag = "webhooks",
    params(("endpointId" = String, Path, description = "The endpoint's id")),
    request_body(content((RedeliverRequest = "application/json"))),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The endpoint, moved back", body = Envelope<WebhookEndpoint>),
        (status = 400, response = BadRequest),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        SignedIn,
    ),
)]
async fn redeliver(
    State(state): State<AppState>,
    me: AuthUser,
    Path(endpoint_id): Path<String>,
    Payload(req): Payload<RedeliverRequest>,
) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let row = owned(&state, me, &endpoint_id).await?;
    let head = state.stream.published();
    if req.from_position == 0 || req.from_position > head + 1 {
        return Err(ApiError::BadRequest(format!("fromPosition: from 1 to {} (the log's next position)", head + 1)));
    }
    state.webhooks.store.ensure(&row.endpoint_id, head).await.map_err(db_error)?;
    state.webhooks.store.redeliver(&row.endpoint_id, req.from_position).await.map_err(db_error)?;
    state.webhooks.wake();
    Ok(ok(with_state(&state, row).await?, "Redelivering"))
}

/// Sends a test event now (`{"position": 0, "nfts": [], "notices": [], "test": true}`, signed
/// like any delivery, its id `msg_test_...`) and answers how it went; logged, not retried.
#[utoipa::path(
    post,
    path = "/api/webhooks/{endpointId}/test",
    tag = "webhooks",
    params(("endpointId" = String, Path, description = "The endpoint's id")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The attempt (see `ok`, `status` and `error`)", body = Envelope<DeliveryAttempt>),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        SignedIn,
    ),
)]
async fn send_test(State(state): State<AppState>, me: AuthUser, Path(endpoint_id): Path<String>) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let row = owned(&state, me, &endpoint_id).await?;
    let attempt = state.webhooks.send_test(&row, state.stream.published()).await.map_err(db_error)?;
    Ok(ok(DeliveryAttempt::from(attempt), "Test event sent"))
}
