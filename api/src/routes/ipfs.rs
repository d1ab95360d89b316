//! `/ipfs/{cid}`: files from the content-addressed store, as an IPFS gateway serves them.

use axum::{
    extract::{Path, State},
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::openapi::NotFound;
use crate::{AppState, error::ApiError, files};

/// The gateway route.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(file))
}

/// A stored file by its CID (v1), typed by its bytes, cacheable forever.
#[utoipa::path(
    get,
    path = "/ipfs/{cid}",
    tag = "ops",
    params(("cid" = String, Path, description = "The file's CID v1 (the address uploads answer with)")),
    responses(
        (status = 200, description = "The file's bytes; `Content-Type` sniffed from them (PNG, JPEG, GIF, WebP, SVG, JSON, else octet-stream)",
            content(("application/octet-stream"), ("image/*"), ("application/json")),
            headers(("ETag" = String, description = "The CID, quoted"), ("Cache-Control" = String, description = "`public, max-age=31536000, immutable`"))),
        (status = 404, response = NotFound),
    ),
)]
async fn file(State(state): State<AppState>, Path(cid): Path<String>) -> Result<Response, ApiError> {
    let bytes = state
        .files
        .get(&cid)
        .await
        .map_err(|e| ApiError::Internal(e.into()))?
        .ok_or_else(|| ApiError::NotFound(format!("No file with CID {cid}")))?;
    let mut response = bytes.clone().into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(files::sniff(&bytes)));
    // The address is the content's hash: it can be cached forever.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=31536000, immutable"));
    if let Ok(etag) = HeaderValue::from_str(&format!("\"{cid}\"")) {
        headers.insert(header::ETAG, etag);
    }
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    // Uploaded SVGs are served from our origin: no scripts, no requests, no same-origin access.
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox"),
    );
    Ok(response)
}
