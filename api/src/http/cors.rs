//! Cross-origin access (CORS). The site's own pages need none: they are same-origin.
//!
//! - Public reads, a GET or HEAD without a bearer token (lists, details, `/api/config`,
//!   `/ipfs/{cid}`), are open to any origin, without credentials: `Access-Control-Allow-Origin: *`
//!   (not the UI's own `/assets/`).
//!   A preflight asking for `Authorization` is refused, so another site's page cannot call the
//!   API as its visitor.
//! - Everything else (writes, `/rpc`, calls with the user's token) only from the origins an
//!   operator lists in `ALLOWED_ORIGINS`, which get their origin back with credentials allowed.
//!   A preflight from any other origin is refused with a 403 in the envelope. Their scripts may
//!   read a write's `Log-Position` (`Access-Control-Expose-Headers`), to send it on later reads.

use std::sync::Arc;

use axum::{
    extract::{Request, State},
    http::{HeaderMap, HeaderValue, Method, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};

use crate::http::error::ApiError;

/// The origins allowed everything, as configured.
#[derive(Clone, Debug, Default)]
pub struct Cors {
    listed: Arc<[HeaderValue]>,
}

/// What listed origins may send.
const LISTED_METHODS: &str = "GET, HEAD, POST, PUT, PATCH, DELETE";
/// How long a browser may keep a preflight's answer.
const MAX_AGE: &str = "600";

impl Cors {
    /// The policy for `ALLOWED_ORIGINS` (`scheme://host[:port]`, a trailing slash ignored).
    pub fn new(origins: &[String]) -> Self {
        let listed = origins
            .iter()
            .map(|o| o.trim().trim_end_matches('/'))
            .filter(|o| !o.is_empty())
            .filter_map(|o| match HeaderValue::from_str(o) {
                Ok(value) if o.contains("://") => Some(value),
                _ => {
                    tracing::warn!(origin = o, "ALLOWED_ORIGINS: not an origin (scheme://host[:port]); ignored");
                    None
                }
            })
            .collect();
        Self { listed }
    }

    fn lists(&self, origin: &HeaderValue) -> bool {
        self.listed.iter().any(|o| o.as_bytes().eq_ignore_ascii_case(origin.as_bytes()))
    }
}

/// The middleware: answers preflights, and marks answers other origins may read.
pub async fn cors(State(cors): State<Cors>, request: Request, next: Next) -> Response {
    let origin = request.headers().get(header::ORIGIN).cloned();
    let listed = origin.as_ref().is_some_and(|o| cors.lists(o));
    let varies = !cors.listed.is_empty();
    if request.method() == Method::OPTIONS
        && let Some(origin) = &origin
        && let Some(wanted) = request.headers().get(header::ACCESS_CONTROL_REQUEST_METHOD)
    {
        return preflight(origin, listed, wanted, request.headers(), varies);
    }
    // The UI's own scripts and styles (`/assets/`) are for its pages, which are same-origin: not
    // marking them saves each of a first visit's ~30 scripts the header.
    let public_read = matches!(*request.method(), Method::GET | Method::HEAD)
        && !request.headers().contains_key(header::AUTHORIZATION)
        && !request.uri().path().starts_with("/assets/");
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    match origin {
        Some(origin) if listed => {
            headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
            headers.insert(header::ACCESS_CONTROL_ALLOW_CREDENTIALS, HeaderValue::from_static("true"));
            // A write's answer names its log position, for the reads after it (read replicas).
            headers.insert(header::ACCESS_CONTROL_EXPOSE_HEADERS, HeaderValue::from_static("log-position"));
        }
        // Whatever the origin (or none): a shared cache may hand this answer to any page.
        _ if public_read => {
            headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
        }
        _ => {}
    }
    if varies {
        headers.append(header::VARY, HeaderValue::from_static("origin"));
    }
    response
}

/// A preflight (`OPTIONS` with `Access-Control-Request-Method`): allowed for listed origins, and
/// for a GET or HEAD without `Authorization` from anyone; else a 403.
fn preflight(origin: &HeaderValue, listed: bool, wanted: &HeaderValue, headers: &HeaderMap, varies: bool) -> Response {
    let asked_headers = headers.get(header::ACCESS_CONTROL_REQUEST_HEADERS).cloned();
    let asks_credentials = asked_headers
        .as_ref()
        .and_then(|h| h.to_str().ok())
        .is_some_and(|h| h.split(',').any(|name| name.trim().eq_ignore_ascii_case(header::AUTHORIZATION.as_str())));
    let read = matches!(wanted.as_bytes(), b"GET" | b"HEAD");
    let mut response = if listed || (read && !asks_credentials) {
        let mut response = StatusCode::NO_CONTENT.into_response();
        let out = response.headers_mut();
        if listed {
            out.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin.clone());
            out.insert(header::ACCESS_CONTROL_ALLOW_CREDENTIALS, HeaderValue::from_static("true"));
            out.insert(header::ACCESS_CONTROL_ALLOW_METHODS, HeaderValue::from_static(LISTED_METHODS));
        } else {
            out.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
            out.insert(header::ACCESS_CONTROL_ALLOW_METHODS, HeaderValue::from_static("GET, HEAD"));
        }
        if let Some(asked) = asked_headers {
            out.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, asked);
        }
        out.insert(header::ACCESS_CONTROL_MAX_AGE, HeaderValue::from_static(MAX_AGE));
        response
    } else {
        let what = if read { "calls with the user's token" } else { "this method" };
        let origin = String::from_utf8_lossy(origin.as_bytes());
        ApiError::Forbidden(format!(
            "Origin {origin} may not send {what} to this API: only public reads are open to other sites (an operator may list origins in ALLOWED_ORIGINS)"
        ))
        .into_response()
    };
    if varies {
        response.headers_mut().append(header::VARY, HeaderValue::from_static("origin"));
    }
    response
}
