//! One module per resource, each exposing `router()`: its handlers, registered with their
//! OpenAPI operations (see [`openapi`]).

pub mod account;
pub mod activity;
pub mod auth;
pub mod chain;
pub mod collection;
pub mod contact;
pub mod contract;
pub mod dev;
pub mod health;
pub mod insight;
pub mod ipfs;
pub mod keys;
pub mod limits;
pub mod lists;
pub mod metadata;
pub mod metrics;
pub mod misc;
pub mod moderation;
pub mod nft;
pub mod notices;
pub mod openapi;
mod params;
pub mod privacy;
pub mod social;
pub mod stream;
pub mod trade;
pub mod traits;
pub mod trending;
pub mod webhooks;

/// The answer to one of a signed-in viewer's own lists (`request` names the call and its
/// parameters), kept while the read tables stay at their version as [`nft::shared_answer`]
/// keeps the public ones: a viewer's notices or bids change with an event (a bid, a read, a
/// wallet linked, a setting), and otherwise only at the time `make` gives with the answer, if
/// any (an NFT card's running auction ends).
pub(crate) async fn own_answer(
    state: &super::AppState,
    viewer: uuid::Uuid,
    request: &str,
    make: impl AsyncFnOnce() -> Result<(axum::body::Bytes, Option<i64>), super::error::ApiError>,
) -> Result<axum::response::Response, super::error::ApiError> {
    let version = state.read_version();
    let key = format!("{viewer} {request}");
    if let Some(answer) = state.own_answers.get(&version, &key, chrono::Utc::now().timestamp()) {
        return Ok(super::error::ok_from_bytes(answer));
    }
    // Kept as the answer at `version`: made on the primary, which holds it (a replica may lag).
    let (answer, until) = projections::reads::on_primary(make()).await?;
    state.own_answers.put(version, key, answer.clone(), until);
    Ok(super::error::ok_from_bytes(answer))
}
