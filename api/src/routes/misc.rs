//! Reference data: categories and the coins prices are in.

use axum::{Router, extract::State, response::Response, routing::get};
use serde_json::json;

use crate::{
    AppState,
    error::{ApiError, ok},
};

/// `/api/misc/category` and `/api/misc/coin`.
pub fn router() -> Router<AppState> {
    Router::new().route("/api/misc/category", get(categories)).route("/api/misc/coin", get(coins))
}

async fn categories(State(state): State<AppState>) -> Result<Response, ApiError> {
    let categories = projections::queries::nft::categories(&state.read).await.map_err(|e| ApiError::Internal(e.into()))?;
    Ok(ok(categories, "Categories fetched"))
}

/// Prices are in the chain's native coin; the spec's sale coin code is 1.
async fn coins() -> Response {
    ok(json!([{ "id": 1, "name": "MATIC", "symbol": "MATIC", "decimals": 18 }]), "Coins fetched")
}
