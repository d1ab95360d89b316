//! API keys for bots: what a key looks like, its hash, the layer that recognises a key on a
//! request (refusing unknown and revoked ones, spending the key's budget and announcing it), and
//! the one map from route to the scope a key needs there ([`required`]), which the extractors
//! in [`super::extract`] apply.
//!
//! A key is `mk_live_` and 40 base62 characters (about 238 random bits). Only its SHA-256 is
//! kept, in the log and in the read model: the key is too long and random to be found from its
//! hash by guessing, so no slow hash (nor a secret pepper) is needed, and a lookup by hash is
//! one indexed read.

use axum::{
    extract::{Request, State},
    http::{HeaderMap, HeaderValue, Method, header},
    middleware::Next,
    response::{IntoResponse, Response},
};
use domain::accounts::ApiKeyScope;
use rand::Rng;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::rate_limit::Budget;
use crate::http::{AppState, error::ApiError};

/// What every key starts with, so that it can be recognised (in a header, or by secret scanners
/// in a repository it leaked into).
pub const KEY_PREFIX: &str = "mk_live_";
/// Random characters after the prefix.
const RANDOM_CHARS: usize = 40;
/// Characters after the prefix that lists show.
const SHOWN_CHARS: usize = 4;
/// The header a key may come in, besides `Authorization: Bearer`.
pub const API_KEY_HEADER: &str = "x-api-key";
/// The name of the one quota policy announced in `RateLimit-Policy` and `RateLimit`.
const POLICY: &str = "default";

const BASE62: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// A new key: the key itself (shown once), its hash and its display prefix.
pub struct NewKey {
    /// `mk_live_...`: handed to the person once, kept nowhere.
    pub key: String,
    /// SHA-256 of the key, hex.
    pub hash: String,
    /// `mk_live_` and the first four random characters.
    pub prefix: String,
}

/// A fresh random key from the operating system's generator.
pub fn generate() -> NewKey {
    let mut rng = rand::rng();
    let random: String = (0..RANDOM_CHARS).map(|_| char::from(BASE62[rng.random_range(0..BASE62.len())])).collect();
    let key = format!("{KEY_PREFIX}{random}");
    NewKey { hash: hash(&key), prefix: key[..KEY_PREFIX.len() + SHOWN_CHARS].to_owned(), key }
}

/// SHA-256 of a key, hex.
pub fn hash(key: &str) -> String {
    hex::encode(Sha256::digest(key.as_bytes()))
}

/// The key a request presents: `X-API-Key: <key>`, or `Authorization: Bearer <key>` when the
/// bearer is a key (access tokens are JWTs, which never start with [`KEY_PREFIX`]).
pub fn presented(headers: &HeaderMap) -> Option<&str> {
    if let Some(value) = headers.get(API_KEY_HEADER) {
        return Some(value.to_str().unwrap_or_default().trim());
    }
    super::extract::bearer_token(headers).filter(|token| token.starts_with(KEY_PREFIX))
}

/// A request made with a valid key: whose it is and what it may do. Put in the request's
/// extensions by [`layer`]; the extractors act on it.
#[derive(Clone, Debug)]
pub struct KeyHolder {
    /// The key's person.
    pub user_id: Uuid,
    /// The key's id.
    pub key_id: String,
    /// What it may do.
    pub scopes: Vec<ApiKeyScope>,
}

/// What a key needs for a route that acts as a person.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// This scope.
    Scope(ApiKeyScope),
    /// Never a key: the account itself (password, e-mail, wallets, profile, keys).
    Account,
}

/// The one map from route (method and path template, as the router matched it) to what an API
/// key needs there. Only routes that act as a person ask: public data is served to any key,
/// as to anyone.
///
/// * Managing the account is never a key's business: everything under `/api/auth/`, the keys
///   themselves, wallet links and profile edits.
/// * Notifications (and the stream, whose personal topics are notices) need `notifications`.
/// * Other reads of the person's own data need `read`.
/// * Every other write on the person's behalf acts in the market and needs `trades`.
pub fn required(method: &Method, path: &str) -> Access {
    let account = path.starts_with("/api/auth/")
        || path == "/api/account/keys"
        || path.starts_with("/api/account/keys/")
        || matches!(path, "/api/account/walletnonce" | "/api/account/connectwallet" | "/api/account/disconnectwallet")
        || (path == "/api/account/myprofile" && method != Method::GET)
        // A person's whole data and the end of their account are theirs alone.
        || matches!(path, "/api/account/deletion" | "/api/account/delete" | "/api/account/export" | "/api/account/export/email")
        // A person moderates and manages the staff, never a bot.
        || path.starts_with("/api/moderation/")
        || path.starts_with("/api/staff");
    if account {
        return Access::Account;
    }
    if path == "/api/notifications" || path.starts_with("/api/notifications/") || path == "/api/stream" {
        return Access::Scope(ApiKeyScope::Notifications);
    }
    if path == "/api/webhooks" || path.starts_with("/api/webhooks/") {
        return Access::Scope(ApiKeyScope::Webhooks);
    }
    if method == Method::GET || method == Method::HEAD {
        return Access::Scope(ApiKeyScope::Read);
    }
    Access::Scope(ApiKeyScope::Trades)
}

impl KeyHolder {
    /// Whether the key may do what `access` names; 403 naming what it lacks if not.
    pub fn allow(&self, access: Access) -> Result<(), ApiError> {
        match access {
            Access::Account => Err(ApiError::Forbidden(
                "API keys cannot manage the account (password, e-mail, wallets, profile, API keys); sign in instead".into(),
            )),
            Access::Scope(scope) if self.scopes.contains(&scope) => Ok(()),
            Access::Scope(scope) => Err(ApiError::Forbidden(format!("This API key lacks the scope \"{}\"", scope.as_str()))),
        }
    }
}

/// Recognises an API key on a request. A request without one passes untouched. An unknown or
/// revoked key is 401 (on any route: a bot must learn its key is dead); a key past its budget
/// is 429 with `Retry-After`. Otherwise the request goes on as its person's ([`KeyHolder`])
/// and the answer carries the budget in `RateLimit-Policy` and `RateLimit`
/// (draft-ietf-httpapi-ratelimit-headers).
pub async fn layer(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let Some(key) = presented(request.headers()) else { return next.run(request).await };
    let holder = match holder(&state, key).await {
        Ok(holder) => holder,
        Err(err) => return err.into_response(),
    };
    let budget = match state.accounts.limits.check_api_key(&holder.key_id, state.config.api_key_rate_limit).await {
        Ok(budget) => budget,
        Err(err) => return err.into_response(),
    };
    if let Some(budget) = budget.filter(|b| !b.allowed) {
        let mut response = ApiError::TooManyRequests.into_response();
        announce(response.headers_mut(), budget);
        response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(budget.retry_after_seconds));
        return response;
    }
    if let Err(err) = state.accounts.limits.note_api_key_use(&holder.key_id).await {
        // The last use is a courtesy to the key's owner: never a reason to refuse the request.
        tracing::warn!(error = %err, "could not note an API key's use");
    }
    request.extensions_mut().insert(holder);
    let mut response = next.run(request).await;
    if let Some(budget) = budget {
        announce(response.headers_mut(), budget);
    }
    response
}

/// The key's holder, or 401 for a key that is unknown or revoked.
async fn holder(state: &AppState, key: &str) -> Result<KeyHolder, ApiError> {
    if !key.starts_with(KEY_PREFIX) || key.len() > KEY_PREFIX.len() + 2 * RANDOM_CHARS {
        return Err(ApiError::Unauthorized);
    }
    let row = projections::accounts::api_key_by_hash(&state.read, &hash(key)).await.map_err(|e| ApiError::Internal(e.into()))?;
    let row = row.filter(|row| row.revoked_at.is_none()).ok_or(ApiError::Unauthorized)?;
    let user_id = row.user_id.parse().map_err(|_| ApiError::Unauthorized)?;
    Ok(KeyHolder { user_id, key_id: row.key_id, scopes: row.scopes.iter().filter_map(|s| ApiKeyScope::parse(s)).collect() })
}

fn announce(headers: &mut HeaderMap, budget: Budget) {
    let policy = format!("\"{POLICY}\";q={};w={}", budget.limit, 60);
    let now = format!("\"{POLICY}\";r={};t={}", budget.remaining, budget.reset_seconds);
    for (name, value) in [("ratelimit-policy", policy), ("ratelimit", now)] {
        if let Ok(value) = HeaderValue::from_str(&value) {
            headers.insert(name, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_prefixed_random_base62_and_only_its_hash_is_kept() {
        let (one, two) = (generate(), generate());
        assert_ne!(one.key, two.key);
        assert!(one.key.starts_with(KEY_PREFIX) && one.key.len() == KEY_PREFIX.len() + RANDOM_CHARS, "{}", one.key);
        assert!(one.key[KEY_PREFIX.len()..].bytes().all(|b| b.is_ascii_alphanumeric()));
        assert_eq!(one.hash, hash(&one.key));
        assert_eq!(one.hash.len(), 64);
        assert!(one.key.starts_with(&one.prefix) && one.prefix.len() == KEY_PREFIX.len() + SHOWN_CHARS);
    }

    #[test]
    fn a_key_comes_in_x_api_key_or_as_a_bearer_but_an_access_token_is_no_key() {
        let headers = |name: &str, value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap(), HeaderValue::from_str(value).unwrap());
            headers
        };
        assert_eq!(presented(&headers("x-api-key", " mk_live_abc ")), Some("mk_live_abc"));
        assert_eq!(presented(&headers("authorization", "Bearer mk_live_abc")), Some("mk_live_abc"));
        assert_eq!(presented(&headers("authorization", "bearer mk_live_abc")), Some("mk_live_abc"));
        assert_eq!(presented(&headers("authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.e30.x")), None);
        assert_eq!(presented(&HeaderMap::new()), None);
    }

    #[test]
    fn the_route_map_keeps_the_account_from_keys_and_asks_a_scope_everywhere_else() {
        use ApiKeyScope::*;
        let cases = [
            (Method::PUT, "/api/auth/change-account-password", Access::Account),
            (Method::PUT, "/api/auth/changeemail", Access::Account),
            (Method::PUT, "/api/auth/verifyemailchange", Access::Account),
            (Method::GET, "/api/account/keys", Access::Account),
            (Method::POST, "/api/account/keys", Access::Account),
            (Method::DELETE, "/api/account/keys/{keyId}", Access::Account),
            (Method::PUT, "/api/account/connectwallet", Access::Account),
            (Method::PUT, "/api/account/myprofile", Access::Account),
            (Method::GET, "/api/account/myprofile", Access::Scope(Read)),
            (Method::GET, "/api/nft/mybids", Access::Scope(Read)),
            (Method::GET, "/api/notifications", Access::Scope(Notifications)),
            (Method::POST, "/api/notifications/readall", Access::Scope(Notifications)),
            (Method::GET, "/api/stream", Access::Scope(Notifications)),
            (Method::POST, "/api/nft/fixedsale/purchase", Access::Scope(Trades)),
            (Method::POST, "/api/nft/auction/placebid", Access::Scope(Trades)),
            (Method::POST, "/api/nft/offer/make", Access::Scope(Trades)),
            (Method::POST, "/api/nft/cart/purchase", Access::Scope(Trades)),
            (Method::DELETE, "/api/nft/burnnft/{nftId}", Access::Scope(Trades)),
            (Method::PUT, "/api/nft/like/{nftId}", Access::Scope(Trades)),
        ];
        for (method, path, access) in cases {
            assert_eq!(required(&method, path), access, "{method} {path}");
        }
    }

    #[test]
    fn a_missing_scope_is_named_in_the_refusal() {
        let holder = KeyHolder { user_id: Uuid::nil(), key_id: "k".into(), scopes: vec![ApiKeyScope::Read] };
        assert!(holder.allow(Access::Scope(ApiKeyScope::Read)).is_ok());
        let refused = holder.allow(Access::Scope(ApiKeyScope::Trades)).unwrap_err();
        assert_eq!(refused.status_code(), axum::http::StatusCode::FORBIDDEN);
        assert!(refused.to_string().contains("\"trades\""), "{refused}");
        assert!(holder.allow(Access::Account).is_err());
    }
}
