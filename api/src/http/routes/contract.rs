//! `GET /api/contract/abi`: the marketplace contract's ABI, so a third-party client needs nothing
//! from the repository. It is the `abi` of the committed build artifact
//! (`contracts/out/Marketplace.json`, the one the indexer's bindings are generated from),
//! embedded in the binary: it changes only with the server, so it is sent with an `ETag` of its
//! content and cached for a day.

use std::sync::LazyLock;

use axum::{
    body::Bytes,
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use sha2::{Digest, Sha256};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::http::AppState;

/// Where the ABI is served (`/api/config` names it as `contractAbiUrl`).
pub const ABI_PATH: &str = "/api/contract/abi";

/// The build artifact the ABI is read from.
const ARTIFACT: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../contracts/out/Marketplace.json"));

/// The ABI's JSON and its entity tag, read from the artifact once.
static ABI: LazyLock<(Bytes, HeaderValue)> = LazyLock::new(|| {
    let artifact: serde_json::Value = serde_json::from_str(ARTIFACT).expect("contracts/out/Marketplace.json is JSON");
    assert!(artifact["abi"].is_array(), "contracts/out/Marketplace.json has an abi list");
    let abi = serde_json::to_vec(&artifact["abi"]).expect("the ABI serialises");
    let tag = format!("\"{}\"", hex::encode(&Sha256::digest(&abi)[..16]));
    (Bytes::from(abi), HeaderValue::from_str(&tag).expect("hex is a header value"))
});

/// `/api/contract/abi`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(contract_abi))
}

/// The marketplace contract's ABI: the JSON list viem, ethers or alloy take as it is (not in the
/// envelope). Sent with an `ETag`; `If-None-Match` with it answers 304.
#[utoipa::path(
    get,
    path = "/api/contract/abi",
    tag = "chain",
    security(()),
    responses(
        (status = 200, description = "The ABI (a JSON list of functions, events and errors)", content_type = "application/json", body = Vec<Object>,
            headers(("ETag" = String, description = "The ABI's content hash"), ("Cache-Control" = String, description = "public, max-age=86400"))),
        (status = 304, description = "Unchanged since the `If-None-Match` tag"),
    ),
)]
async fn contract_abi(headers: HeaderMap) -> Response {
    let (abi, tag) = &*ABI;
    let cache = [(header::ETAG, tag.clone()), (header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=86400"))];
    let matches = headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|candidate| matches!(candidate.trim(), "*") || candidate.trim().trim_start_matches("W/") == tag);
    if matches {
        return (StatusCode::NOT_MODIFIED, cache).into_response();
    }
    (cache, [(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))], abi.clone()).into_response()
}
