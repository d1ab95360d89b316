//! Liveness: answers when the server runs and its event log can be read.

use axum::{Router, extract::State, response::Response, routing::get};
use serde::Serialize;

use crate::{AppState, error::{ApiError, ok}};

/// `/healthz`.
pub fn router() -> Router<AppState> {
    Router::new().route("/healthz", get(health))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Health {
    status: &'static str,
    log_position: u64,
}

async fn health(State(state): State<AppState>) -> Result<Response, ApiError> {
    let (log_position, _) = state.store.head().await?;
    Ok(ok(Health { status: "ok", log_position }, "ok"))
}
