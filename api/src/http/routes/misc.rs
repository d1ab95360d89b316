//! Reference data (categories, the coins prices are in) and client error reports.

use axum::{
    extract::{DefaultBodyLimit, State},
    response::Response,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{
    router::{OpenApiRouter, UtoipaMethodRouterExt},
    routes,
};

use super::openapi::{BadRequest, PayloadTooLarge};
use crate::http::{
    AppState,
    auth::Payload,
    error::{ApiError, Envelope, Null, ok},
};

/// The largest client error report accepted.
const MAX_REPORT_BYTES: usize = 16 * 1024;

/// `/api/misc/category`, `/api/misc/coin` and `/api/misc/clienterror`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(categories))
        .routes(routes!(coins))
        .routes(routes!(client_error).layer(DefaultBodyLimit::max(MAX_REPORT_BYTES)))
}

/// An error the UI could not handle (see `ui/src/lib/error-reporting.ts`).
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ClientError {
    /// The error's message (required, not blank; logged up to 1,000 characters).
    #[schema(max_length = 1000)]
    message: String,
    /// Its stack trace.
    #[serde(default)]
    #[schema(max_length = 8000)]
    stack: Option<String>,
    /// The page it happened on.
    #[serde(default)]
    #[schema(max_length = 2000)]
    url: Option<String>,
    /// The browser.
    #[serde(default)]
    #[schema(max_length = 300)]
    user_agent: Option<String>,
}

fn clip(text: &str, max: usize) -> &str {
    match text.char_indices().nth(max) {
        Some((end, _)) => &text[..end],
        None => text,
    }
}

/// Logs a client error beside the server's own (never anything else: no event, no storage).
#[utoipa::path(
    post,
    path = "/api/misc/clienterror",
    tag = "misc",
    security(()),
    request_body(content = ClientError, description = "At most 16 KiB", content_type = "application/json"),
    responses(
        (status = 200, description = "Logged", body = Envelope<Null>),
        (status = 400, response = BadRequest),
        (status = 413, response = PayloadTooLarge),
    ),
)]
async fn client_error(Payload(report): Payload<ClientError>) -> Result<Response, ApiError> {
    if report.message.trim().is_empty() {
        return Err(ApiError::BadRequest("message: Required".into()));
    }
    tracing::warn!(
        target: "client_error",
        message = clip(&report.message, 1_000),
        url = clip(report.url.as_deref().unwrap_or(""), 300),
        user_agent = clip(report.user_agent.as_deref().unwrap_or(""), 300),
        stack = clip(report.stack.as_deref().unwrap_or(""), 8_000),
        "client error"
    );
    Ok(ok(Null, "Reported"))
}

/// A category, as `projections::queries::nft::CategoryView` serialises.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only; tests/openapi checks real answers against it")]
struct Category {
    /// Id (what `nftCategory` filters take).
    id: String,
    /// Display name.
    category_name: String,
}

/// Every NFT category, in the order they were added.
#[utoipa::path(get, path = "/api/misc/category", tag = "misc", security(()), responses((status = 200, description = "The categories", body = Envelope<Vec<Category>>)))]
async fn categories(State(state): State<AppState>) -> Result<Response, ApiError> {
    let categories = projections::queries::nft::categories(&state.read).await.map_err(|e| ApiError::Internal(e.into()))?;
    Ok(ok(categories, "Categories fetched"))
}

/// A coin prices can be in.
#[derive(Serialize, ToSchema)]
struct Coin {
    /// The spec's sale coin code.
    id: u32,
    /// Name.
    name: &'static str,
    /// Ticker.
    symbol: &'static str,
    /// Decimals of its smallest unit.
    decimals: u8,
}

/// The coins prices are in: the chain's native coin only (the spec's sale coin code 1).
#[utoipa::path(get, path = "/api/misc/coin", tag = "misc", security(()), responses((status = 200, description = "The coins", body = Envelope<Vec<Coin>>)))]
async fn coins() -> Response {
    ok([Coin { id: 1, name: "MATIC", symbol: "MATIC", decimals: 18 }], "Coins fetched")
}
