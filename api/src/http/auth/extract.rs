//! Extractors of the accounts routes: the signed-in user, the client's address, and a body that
//! may come as JSON or as a form, each refusing in the envelope.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::{
    body::Bytes,
    extract::{ConnectInfo, FromRequest, FromRequestParts, MatchedPath, Request},
    http::{HeaderValue, Method, StatusCode, header, request::Parts},
};
use serde::de::DeserializeOwned;
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{api_keys::KeyHolder, tokens::TokenError};
use crate::http::{AppState, error::ApiError, routes::limits};

/// The user a valid bearer token names, and when the token was issued. Missing, malformed or
/// forged: 401 'Unauthorized'; expired: 410 'Token expired'.
///
/// A request made with an API key (recognised by [`super::api_keys::layer`]) is its person's,
/// as of now, if the key has the scope the route needs ([`super::api_keys::required`]); 403
/// naming the missing scope if not, and on the account's own routes whatever its scopes.
#[derive(Clone, Copy, Debug)]
pub struct AuthUser(pub Uuid, pub i64);

/// The route as the router matched it (`/api/nft/burnnft/{nftId}`), else the request's path.
fn route(parts: &Parts) -> &str {
    parts.extensions.get::<MatchedPath>().map_or(parts.uri.path(), MatchedPath::as_str)
}

/// The person of a request made with an API key, if the key may act on this route.
fn key_holder(parts: &Parts) -> Option<Result<Uuid, ApiError>> {
    let holder = parts.extensions.get::<KeyHolder>()?;
    Some(holder.allow(super::api_keys::required(&parts.method, route(parts))).map(|()| holder.user_id))
}

fn bearer(parts: &Parts) -> Option<&str> {
    bearer_token(&parts.headers)
}

/// The token of `Authorization: Bearer <token>` (an access token or an API key), if any.
pub(super) fn bearer_token(headers: &axum::http::HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim()).filter(|t| !t.is_empty())
}

impl FromRequestParts<AppState> for AuthUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        if let Some(user) = key_holder(parts) {
            // A key has no session to end: its person's password reset does not revoke it.
            return Ok(Self(user?, chrono::Utc::now().timestamp()));
        }
        let token = bearer(parts).ok_or(ApiError::Unauthorized)?;
        match state.accounts.tokens.verify(token) {
            Ok((user, _)) if state.accounts.erased.contains(&user) => Err(ApiError::Unauthorized),
            Ok((user, issued_at)) => Ok(Self(user, issued_at)),
            Err(TokenError::Expired) => Err(ApiError::TokenExpired),
            Err(TokenError::Invalid) => Err(ApiError::Unauthorized),
        }
    }
}

/// The signed-in user if the request carries a valid token; never refuses. With an API key, its
/// person if the key has the route's scope, else nobody (the public answer).
#[derive(Clone, Copy, Debug)]
pub struct MaybeUser(pub Option<Uuid>);

impl FromRequestParts<AppState> for MaybeUser {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        if let Some(user) = key_holder(parts) {
            return Ok(Self(user.ok()));
        }
        Ok(Self(
            bearer(parts)
                .and_then(|t| state.accounts.tokens.verify(t).ok())
                .map(|(user, _)| user)
                .filter(|u| !state.accounts.erased.contains(u)),
        ))
    }
}

/// The client's address, for rate limits: the socket's peer. `X-Forwarded-For` is ignored
/// unless `TRUST_FORWARDED_FOR` is set; then its rightmost entry, the one our own proxy appended,
/// is used ([`forwarded_client`]): a client can put anything in that header, but only before
/// what the proxy appends.
#[derive(Clone, Copy, Debug)]
pub struct ClientIp(pub IpAddr);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
        // In-process callers (tests through `oneshot`) have no socket.
        let peer = peer.unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
        if state.config.trust_forwarded_for {
            match forwarded_client(&parts.headers) {
                Forwarded::Client(ip) => return Ok(Self(ip)),
                Forwarded::Absent => {}
                Forwarded::Unreadable(entry) => {
                    tracing::warn!(%peer, entry, "the last X-Forwarded-For entry is no address: the socket's peer is used");
                }
            }
        }
        Ok(Self(peer))
    }
}

/// What the `X-Forwarded-For` header says of the client.
#[derive(Debug, PartialEq, Eq)]
pub enum Forwarded {
    /// No such header.
    Absent,
    /// The rightmost entry's address.
    Client(IpAddr),
    /// The rightmost entry (shown as written, at most 64 characters) is no address: the header
    /// is not trusted at all, since any earlier entry may be the client's own writing.
    Unreadable(String),
}

/// The client address the trusted proxy appended: the rightmost entry of the last
/// `X-Forwarded-For` header, as `ip`, `ip:port`, `[v6]` or `[v6]:port` (proxies write each).
/// Never an earlier entry: those are whatever the client sent.
pub fn forwarded_client(headers: &axum::http::HeaderMap) -> Forwarded {
    let Some(last) = headers.get_all("x-forwarded-for").iter().next_back() else { return Forwarded::Absent };
    let Ok(value) = last.to_str() else {
        return Forwarded::Unreadable(String::from_utf8_lossy(last.as_bytes()).chars().take(64).collect());
    };
    let entry = value.rsplit(',').next().unwrap_or_default().trim();
    match forwarded_address(entry) {
        Some(ip) => Forwarded::Client(ip),
        None => Forwarded::Unreadable(entry.chars().take(64).collect()),
    }
}

/// One `X-Forwarded-For` entry's address: `ip`, `ip:port`, `[v6]`, `[v6]:port`.
fn forwarded_address(entry: &str) -> Option<IpAddr> {
    if let Ok(ip) = entry.parse::<IpAddr>() {
        return Some(ip);
    }
    if let Ok(socket) = entry.parse::<SocketAddr>() {
        return Some(socket.ip());
    }
    let v6 = entry.strip_prefix('[')?.strip_suffix(']')?;
    v6.parse::<std::net::Ipv6Addr>().ok().map(IpAddr::V6)
}

/// A request body as JSON, or as `application/x-www-form-urlencoded` when it says so. Bad
/// bodies are 400 in the envelope, naming the field serde stumbled on; so is text longer than
/// its field's documented `maxLength` in `T`'s schema ([`limits`]).
pub struct Payload<T>(pub T);

impl<T: DeserializeOwned + ToSchema + Send + 'static, S: Send + Sync> FromRequest<S> for Payload<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let form = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
        if form {
            let bytes = body(req, state).await?;
            let axum::Form(fields) = axum::Form::<Vec<(String, String)>>::from_request(form_request(&bytes), state).await?;
            limits::check::<T>(&Value::Object(fields.into_iter().map(|(name, text)| (name, Value::String(text))).collect()))?;
            let axum::Form(value) = axum::Form::<T>::from_request(form_request(&bytes), state).await?;
            return Ok(Self(value));
        }
        let bytes = body(req, state).await?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Err(ApiError::BadRequest("Request body is empty; expected a JSON object".into()));
        }
        // Malformed JSON is left to the typed parse below, whose message is the one answered.
        if let Ok(value) = serde_json::from_slice::<Value>(&bytes) {
            limits::check::<T>(&value)?;
        }
        let axum::Json(value) = axum::Json::<T>::from_bytes(&bytes)?;
        Ok(Self(value))
    }
}

async fn body<S: Send + Sync>(req: Request, state: &S) -> Result<Bytes, ApiError> {
    Bytes::from_request(req, state).await.map_err(|e| match e.status() {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::PayloadTooLarge("Request body is too large".into()),
        _ => ApiError::BadRequest(format!("Invalid request body: {}", e.body_text())),
    })
}

/// A form body read already, to be parsed (again).
fn form_request(bytes: &Bytes) -> Request {
    let mut request = Request::new(axum::body::Body::from(bytes.clone()));
    *request.method_mut() = Method::POST;
    request.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/x-www-form-urlencoded"));
    request
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderMap;

    use super::*;

    fn forwarded(values: &[&str]) -> Forwarded {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append("x-forwarded-for", HeaderValue::from_str(value).unwrap());
        }
        forwarded_client(&headers)
    }

    fn client(ip: &str) -> Forwarded {
        Forwarded::Client(ip.parse().unwrap())
    }

    #[test]
    fn the_rightmost_entry_is_the_client_as_ip() {
        assert_eq!(forwarded(&["203.0.113.9"]), client("203.0.113.9"));
        assert_eq!(forwarded(&["6.6.6.6, 203.0.113.9"]), client("203.0.113.9"));
        assert_eq!(forwarded(&["2001:db8::7"]), client("2001:db8::7"));
    }

    #[test]
    fn the_rightmost_entry_is_the_client_as_ip_and_port() {
        assert_eq!(forwarded(&["6.6.6.6, 203.0.113.9:51234"]), client("203.0.113.9"));
    }

    #[test]
    fn the_rightmost_entry_is_the_client_as_bracketed_v6() {
        assert_eq!(forwarded(&["6.6.6.6,[2001:db8::7]"]), client("2001:db8::7"));
    }

    #[test]
    fn the_rightmost_entry_is_the_client_as_bracketed_v6_and_port() {
        assert_eq!(forwarded(&["6.6.6.6, [2001:db8::7]:443"]), client("2001:db8::7"));
    }

    #[test]
    fn the_last_header_holds_the_rightmost_entry() {
        assert_eq!(forwarded(&["6.6.6.6", "203.0.113.9:80"]), client("203.0.113.9"));
    }

    #[test]
    fn an_unreadable_rightmost_entry_never_falls_back_to_what_the_client_wrote() {
        for value in ["6.6.6.6, unknown", "6.6.6.6, ", "6.6.6.6,", "6.6.6.6, 203.0.113.9:port", "6.6.6.6, [2001:db8::7", "6.6.6.6, 1.2.3"] {
            assert!(matches!(forwarded(&[value]), Forwarded::Unreadable(_)), "{value}: {:?}", forwarded(&[value]));
        }
        assert!(matches!(forwarded(&["6.6.6.6", "garbage"]), Forwarded::Unreadable(_)));
        assert_eq!(forwarded(&[]), Forwarded::Absent);
    }
}
