//! An IPFS Pinning Services API on loopback under `/psa` (as hosted services mount it): bearer
//! token, `GET /pins` filtered by `cid` and `status` (comma-separated lists), `POST /pins`
//! answering 202 with a `PinStatus`, and `Failure` bodies (`{"error": {"reason", "details"}}`).

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use axum::{
    Json, Router,
    extract::{Query, State},
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Response},
    routing::get,
};
use serde_json::{Value, json};

/// The pins the service keeps, and what it was asked.
#[derive(Default)]
pub struct PinningState {
    /// The token it accepts.
    pub token: String,
    /// Pin requests accepted: the request body and the pin's status.
    pub pins: Vec<(Value, &'static str)>,
    /// `(method, Authorization)` of every call.
    pub calls: Vec<(String, Option<String>)>,
}

pub type Shared = Arc<Mutex<PinningState>>;

/// Starts the service accepting `token`; returns its base URL (with `/psa`) and its state.
pub async fn start(token: &str) -> (String, Shared) {
    let state = Shared::new(Mutex::new(PinningState { token: token.to_owned(), ..Default::default() }));
    let router = Router::new().nest("/psa", Router::new().route("/pins", get(list).post(add))).with_state(state.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/psa", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (url, state)
}

fn failure(status: StatusCode, reason: &str, details: &str) -> Response {
    (status, Json(json!({ "error": { "reason": reason, "details": details } }))).into_response()
}

fn authorize(state: &mut PinningState, method: &str, headers: &HeaderMap) -> Option<Response> {
    let given = headers.get(header::AUTHORIZATION).map(|v| v.to_str().unwrap().to_owned());
    state.calls.push((method.to_owned(), given.clone()));
    (given != Some(format!("Bearer {}", state.token)))
        .then(|| failure(StatusCode::UNAUTHORIZED, "UNAUTHORIZED", "The access token is invalid or expired"))
}

fn pin_status(index: usize, pin: &Value, status: &str) -> Value {
    json!({
        "requestid": format!("request-{index}"),
        "status": status,
        "created": "2025-01-01T00:00:00Z",
        "pin": pin,
        "delegates": ["/ip4/203.0.113.7/tcp/4001/p2p/12D3KooWDelegateDelegateDelegateDelegateDelegate"],
        "info": {},
    })
}

async fn list(State(state): State<Shared>, headers: HeaderMap, Query(query): Query<HashMap<String, String>>) -> Response {
    let mut state = state.lock().unwrap();
    if let Some(refused) = authorize(&mut state, "GET", &headers) {
        return refused;
    }
    let split = |name: &str, default: &str| -> Vec<String> {
        query.get(name).map_or(default, String::as_str).split(',').map(str::to_owned).collect()
    };
    let (cids, statuses) = (split("cid", ""), split("status", "pinned"));
    let results: Vec<Value> = state
        .pins
        .iter()
        .enumerate()
        .filter(|(_, (pin, status))| {
            (!query.contains_key("cid") || cids.iter().any(|c| pin["cid"] == *c)) && statuses.iter().any(|s| s == status)
        })
        .map(|(i, (pin, status))| pin_status(i, pin, status))
        .collect();
    Json(json!({ "count": results.len(), "results": results })).into_response()
}

async fn add(State(state): State<Shared>, headers: HeaderMap, Json(pin): Json<Value>) -> Response {
    let mut state = state.lock().unwrap();
    if let Some(refused) = authorize(&mut state, "POST", &headers) {
        return refused;
    }
    if !pin["cid"].is_string() {
        return failure(StatusCode::BAD_REQUEST, "BAD_REQUEST", "cid is required");
    }
    state.pins.push((pin.clone(), "queued"));
    (StatusCode::ACCEPTED, Json(pin_status(state.pins.len() - 1, &pin, "queued"))).into_response()
}
