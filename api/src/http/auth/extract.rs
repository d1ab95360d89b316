//! Extractors of the accounts routes: the signed-in user, the client's address, and a body that
//! may come as JSON or as a form, each refusing in the envelope.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::{
    body::Bytes,
    extract::{ConnectInfo, FromRequest, FromRequestParts, Request},
    http::{HeaderValue, Method, StatusCode, header, request::Parts},
};
use serde::de::DeserializeOwned;
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use super::tokens::TokenError;
use crate::http::{AppState, error::ApiError, routes::limits};

/// The user a valid bearer token names, and when the token was issued. Missing, malformed or
/// forged: 401 'Unauthorized'; expired: 410 'Token expired'.
#[derive(Clone, Copy, Debug)]
pub struct AuthUser(pub Uuid, pub i64);

fn bearer(parts: &Parts) -> Option<&str> {
    let value = parts.headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim()).filter(|t| !t.is_empty())
}

impl FromRequestParts<AppState> for AuthUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let token = bearer(parts).ok_or(ApiError::Unauthorized)?;
        match state.accounts.tokens.verify(token) {
            Ok((user, issued_at)) => Ok(Self(user, issued_at)),
            Err(TokenError::Expired) => Err(ApiError::TokenExpired),
            Err(TokenError::Invalid) => Err(ApiError::Unauthorized),
        }
    }
}

/// The signed-in user if the request carries a valid token; never refuses.
#[derive(Clone, Copy, Debug)]
pub struct MaybeUser(pub Option<Uuid>);

impl FromRequestParts<AppState> for MaybeUser {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        Ok(Self(bearer(parts).and_then(|t| state.accounts.tokens.verify(t).ok()).map(|(user, _)| user)))
    }
}

/// The client's address, for rate limits: the socket's peer. `X-Forwarded-For` is ignored
/// unless `TRUST_FORWARDED_FOR` is set (then its last entry, the one our own proxy appended,
/// is used): a client can put anything in that header.
#[derive(Clone, Copy, Debug)]
pub struct ClientIp(pub IpAddr);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        if state.config.trust_forwarded_for {
            let forwarded = parts
                .headers
                .get_all("x-forwarded-for")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .filter_map(|ip| ip.trim().parse::<IpAddr>().ok())
                .next_back();
            if let Some(ip) = forwarded {
                return Ok(Self(ip));
            }
        }
        let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
        // In-process callers (tests through `oneshot`) have no socket.
        Ok(Self(peer.unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST))))
    }
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
