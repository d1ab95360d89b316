//! A Kubo RPC on loopback, faithful where the client depends on it: POST only, options in the
//! query string, the file as multipart, the CID computed from the received bytes and import
//! options, newline-delimited JSON answers, `{"Message", "Code", "Type"}` errors with status 500,
//! 403 for a wrong `Authorization` (Kubo's `API.Authorizations`), and `cat` honouring `length`.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use api::files::cid::cid_v1;
use axum::{
    Json, Router,
    extract::{Multipart, Query, State},
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Response},
    routing::post,
};
use serde_json::json;

/// What the node holds and what it was asked.
#[derive(Default)]
pub struct KuboState {
    /// Pinned files by CID.
    pub files: HashMap<String, Vec<u8>>,
    /// The query of each `add`.
    pub adds: Vec<HashMap<String, String>>,
    /// The query of each `cat`.
    pub cats: Vec<HashMap<String, String>>,
    /// The `Authorization` header of every call.
    pub authorizations: Vec<Option<String>>,
    /// The `Authorization` the node requires, if any.
    pub required_authorization: Option<String>,
    /// Answer `add` with this CID (and keep the file under it): a node importing with other
    /// settings, or the CID the real Kubo printed.
    pub answer_cid: Option<String>,
    /// Answer `cat` with these bytes whatever the CID: a corrupted or lying node.
    pub cat_instead: Option<Vec<u8>>,
}

pub type Shared = Arc<Mutex<KuboState>>;

/// Starts the node; returns its base URL and its state.
pub async fn start() -> (String, Shared) {
    let state = Shared::default();
    let router = Router::new().route("/api/v0/add", post(add)).route("/api/v0/cat", post(cat)).with_state(state.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (url, state)
}

fn kubo_error(message: String) -> Response {
    (StatusCode::INTERNAL_SERVER_ERROR, Json(json!({ "Message": message, "Code": 0, "Type": "error" }))).into_response()
}

/// Records the call; `Some(403)` when the credentials are wrong.
fn authorize(state: &mut KuboState, headers: &HeaderMap) -> Option<Response> {
    let given = headers.get(header::AUTHORIZATION).map(|v| v.to_str().unwrap().to_owned());
    state.authorizations.push(given.clone());
    match &state.required_authorization {
        Some(required) if given.as_ref() != Some(required) => Some((StatusCode::FORBIDDEN, "403 - Forbidden").into_response()),
        _ => None,
    }
}

async fn add(
    State(state): State<Shared>,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
    mut multipart: Multipart,
) -> Response {
    let mut bytes = None;
    while let Some(field) = multipart.next_field().await.unwrap() {
        bytes = Some(field.bytes().await.unwrap().to_vec());
    }
    let mut state = state.lock().unwrap();
    if let Some(refused) = authorize(&mut state, &headers) {
        return refused;
    }
    state.adds.push(query.clone());
    let Some(bytes) = bytes else { return kubo_error("file argument 'path' is required".into()) };
    let cid = match state.answer_cid.clone() {
        Some(cid) => cid,
        None => import(&bytes, &query),
    };
    let size = bytes.len();
    state.files.insert(cid.clone(), bytes);
    let line = json!({ "Name": "file", "Hash": cid, "Size": size.to_string() });
    ([(header::CONTENT_TYPE, "application/json"), (header::HeaderName::from_static("x-chunked-output"), "1")], format!("{line}\n"))
        .into_response()
}

/// The CID Kubo gives `bytes` under `query`'s import options: ours when every option that
/// shapes the DAG is the one `cid_v1` implements; another one otherwise (Kubo's defaults before
/// CIDv1 differ: CIDv0, dag-pb leaves).
fn import(bytes: &[u8], query: &HashMap<String, String>) -> String {
    let option = |name: &str, default: &str| query.get(name).cloned().unwrap_or_else(|| default.to_owned());
    let cid_version = option("cid-version", "0");
    let same_dag = cid_version == "1"
        && option("raw-leaves", "true") == "true"
        && option("chunker", "size-262144") == "size-262144"
        && option("hash", "sha2-256") == "sha2-256"
        && option("trickle", "false") == "false"
        && option("max-file-links", "174") == "174"
        && option("inline", "false") == "false";
    if same_dag {
        cid_v1(bytes)
    } else {
        // A stand-in for the different DAG those options build: a different, valid-looking CID.
        cid_v1(&[b"other import settings:".as_slice(), bytes].concat())
    }
}

async fn cat(State(state): State<Shared>, headers: HeaderMap, Query(query): Query<HashMap<String, String>>) -> Response {
    let mut state = state.lock().unwrap();
    if let Some(refused) = authorize(&mut state, &headers) {
        return refused;
    }
    state.cats.push(query.clone());
    let cid = query.get("arg").cloned().unwrap_or_default();
    let bytes = match (&state.cat_instead, state.files.get(&cid)) {
        (Some(instead), _) => instead.clone(),
        (None, Some(bytes)) => bytes.clone(),
        (None, None) => {
            return kubo_error(format!("block was not found locally (offline): ipld: could not find {cid}"));
        }
    };
    let length = query.get("length").map_or(bytes.len(), |l| l.parse::<usize>().unwrap().min(bytes.len()));
    ([(header::CONTENT_TYPE, "text/plain")], bytes[..length].to_vec()).into_response()
}
