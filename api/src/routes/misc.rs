//! Reference data (categories, the coins prices are in) and client error reports.

use axum::{
    Json, Router,
    extract::{DefaultBodyLimit, State},
    response::Response,
    routing::{get, post},
};
use serde::Deserialize;
use serde_json::json;

use crate::{
    AppState,
    error::{ApiError, ok},
};

/// The largest client error report accepted.
const MAX_REPORT_BYTES: usize = 16 * 1024;

/// `/api/misc/category`, `/api/misc/coin` and `/api/misc/clienterror`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/misc/category", get(categories))
        .route("/api/misc/coin", get(coins))
        .route("/api/misc/clienterror", post(client_error).layer(DefaultBodyLimit::max(MAX_REPORT_BYTES)))
}

/// An error the UI could not handle (see `ui/src/lib/error-reporting.ts`).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ClientError {
    message: String,
    #[serde(default)]
    stack: Option<String>,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    user_agent: Option<String>,
}

fn clip(text: &str, max: usize) -> &str {
    match text.char_indices().nth(max) {
        Some((end, _)) => &text[..end],
        None => text,
    }
}

/// Logs a client error beside the server's own (never anything else: no event, no storage).
async fn client_error(payload: Result<Json<ClientError>, axum::extract::rejection::JsonRejection>) -> Result<Response, ApiError> {
    let Json(report) = payload?;
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
    Ok(ok(serde_json::Value::Null, "Reported"))
}

async fn categories(State(state): State<AppState>) -> Result<Response, ApiError> {
    let categories = projections::queries::nft::categories(&state.read).await.map_err(|e| ApiError::Internal(e.into()))?;
    Ok(ok(categories, "Categories fetched"))
}

/// Prices are in the chain's native coin; the spec's sale coin code is 1.
async fn coins() -> Response {
    ok(json!([{ "id": 1, "name": "MATIC", "symbol": "MATIC", "decimals": 18 }]), "Coins fetched")
}
