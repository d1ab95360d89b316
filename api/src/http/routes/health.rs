//! Liveness: answers when the server runs and its event log can be read.

use axum::{extract::State, response::Response};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::http::{
    AppState,
    error::{ApiError, Envelope, ok},
};

/// `/healthz`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(health))
}

/// A live server's status.
#[derive(ToSchema)]
#[allow(dead_code, non_camel_case_types, clippy::upper_case_acronyms, reason = "a schema only, its values named as they are sent")]
enum HealthStatus {
    ok,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct Health {
    /// Always `ok`.
    #[schema(value_type = HealthStatus, example = "ok")]
    status: &'static str,
    /// Position of the last event in the log.
    log_position: u64,
}

/// Liveness: the server runs and can read its event log.
#[utoipa::path(get, path = "/healthz", tag = "ops", security(()), responses((status = 200, description = "Up", body = Envelope<Health>)))]
async fn health(State(state): State<AppState>) -> Result<Response, ApiError> {
    let (log_position, _) = state.store.head().await?;
    Ok(ok(Health { status: "ok", log_position }, "ok"))
}
