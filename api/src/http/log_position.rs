//! `Log-Position`: read-your-writes across read replicas.
//!
//! Every write's answer names the log position of its events in a `Log-Position` header (the
//! decimal position, as the stream's event ids write it). A request that sends the header back
//! reads tables that include that position: a read replica that has replayed past it, or the
//! primary (see `projections::reads` and `ReadDb::reader`). A request that names none reads
//! a replica no staler than `READ_REPLICA_MAX_LAG_MS`, or the primary. Without replicas every
//! read is the primary's, and the header costs nothing.
//!
//! Writes (any method but GET and HEAD) read the primary: what they decide from must not be a
//! replica's older state. A GET whose answer failed on a replica is asked again of the
//! primary, once: a replica that stops mid-request costs a retry, not an error.

use axum::{
    body::Body,
    extract::{Request, State},
    http::{HeaderName, HeaderValue, Method},
    middleware::Next,
    response::{IntoResponse, Response},
};
use projections::reads::{self, RequestReads};

use crate::http::{AppState, error::ApiError};

/// The header, in answers to writes and in requests that read after them.
pub const LOG_POSITION: HeaderName = HeaderName::from_static("log-position");

/// The middleware: scopes the request's reads, retries a failed GET on the primary, and names
/// the position of the request's writes in its answer.
pub async fn layer(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let named = match request.headers().get(&LOG_POSITION).map(position) {
        None => None,
        Some(Some(position)) => Some(position),
        Some(None) => {
            return ApiError::BadRequest("Log-Position: a log position (a whole number, as a write's answer names it)".into())
                .into_response();
        }
    };
    let read_only = matches!(*request.method(), Method::GET | Method::HEAD);
    let retry = (read_only && state.read.has_replicas()).then(|| copy(&request));
    let reads = if read_only { RequestReads::after(named) } else { RequestReads::on_primary(named) };
    let mut response = reads::scope(reads.clone(), next.clone().run(request)).await;
    if response.status().is_server_error()
        && let Some(replica) = reads.replica()
        && let Some(request) = retry
    {
        tracing::warn!(replica, status = %response.status(), "a read failed on a read replica; asking the primary");
        state.read.set_replica_aside(replica);
        response = reads::scope(RequestReads::on_primary(named), next.run(request)).await;
    }
    if let Some(wrote) = reads.wrote() {
        response.headers_mut().insert(LOG_POSITION, HeaderValue::from(wrote));
    }
    response
}

fn position(value: &HeaderValue) -> Option<domain::Position> {
    value.to_str().ok()?.trim().parse().ok()
}

/// A bodiless request (GET or HEAD) again, to be asked a second time.
fn copy(request: &Request) -> Request {
    let mut copy = Request::new(Body::empty());
    *copy.method_mut() = request.method().clone();
    *copy.uri_mut() = request.uri().clone();
    *copy.version_mut() = request.version();
    *copy.headers_mut() = request.headers().clone();
    *copy.extensions_mut() = request.extensions().clone();
    copy
}
