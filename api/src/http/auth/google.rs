//! Google sign-in: an ID token's RS256 signature checked against the keys of a JWKS URL (cached
//! by key id, fetched again when a token names a key we do not have), then its audience (our
//! client id), issuer, expiry and verified e-mail.

use std::{
    collections::HashMap,
    time::{Duration, Instant},
};

use jsonwebtoken::{Algorithm, DecodingKey, Validation, errors::ErrorKind, jwk::JwkSet};
use serde::{Deserialize, Deserializer};
use tokio::sync::{Mutex, RwLock};

/// The issuers Google uses.
pub const ISSUERS: [&str; 2] = ["accounts.google.com", "https://accounts.google.com"];
/// Unknown key ids refetch the key set at most this often.
const REFETCH_AFTER: Duration = Duration::from_secs(30);
/// Clock skew tolerated on `exp`/`iat`.
const LEEWAY_SECS: u64 = 60;

/// What a verified ID token says about the person.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoogleIdentity {
    /// Google's stable id.
    pub subject: String,
    /// The (verified) e-mail.
    pub email: String,
    /// The display name, if given.
    pub name: Option<String>,
}

fn flexible_bool<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum B {
        Bool(bool),
        Text(String),
    }
    Ok(match Option::<B>::deserialize(d)? {
        Some(B::Bool(b)) => b,
        Some(B::Text(t)) => t == "true",
        None => false,
    })
}

#[derive(Deserialize)]
struct IdClaims {
    sub: String,
    email: Option<String>,
    #[serde(default, deserialize_with = "flexible_bool")]
    email_verified: bool,
    name: Option<String>,
}

/// Checks Google ID tokens.
pub struct GoogleVerifier {
    client_id: Option<String>,
    jwks_url: String,
    http: reqwest::Client,
    keys: RwLock<HashMap<String, DecodingKey>>,
    fetched: Mutex<Option<Instant>>,
}

impl GoogleVerifier {
    /// A verifier for tokens issued to `client_id` (`None`: sign-in not configured).
    pub fn new(client_id: Option<String>, jwks_url: String) -> Self {
        let http = reqwest::Client::builder().timeout(Duration::from_secs(10)).build().unwrap_or_default();
        Self {
            client_id: client_id.filter(|c| !c.trim().is_empty()),
            jwks_url,
            http,
            keys: RwLock::new(HashMap::new()),
            fetched: Mutex::new(None),
        }
    }

    /// Whether a client id is configured.
    pub fn configured(&self) -> bool {
        self.client_id.is_some()
    }

    async fn refetch(&self) -> Result<(), String> {
        let mut fetched = self.fetched.lock().await;
        if fetched.is_some_and(|at| at.elapsed() < REFETCH_AFTER) {
            return Ok(());
        }
        *fetched = Some(Instant::now());
        let set: JwkSet = self
            .http
            .get(&self.jwks_url)
            .send()
            .await
            .and_then(reqwest::Response::error_for_status)
            .map_err(|e| {
                tracing::warn!(error = %e, url = %self.jwks_url, "fetching Google's keys failed");
                "Google's signing keys could not be fetched".to_owned()
            })?
            .json()
            .await
            .map_err(|_| "Google's signing keys could not be read".to_owned())?;
        let keys = set.keys.iter().filter_map(|jwk| Some((jwk.common.key_id.clone()?, DecodingKey::from_jwk(jwk).ok()?))).collect();
        *self.keys.write().await = keys;
        Ok(())
    }

    async fn key(&self, kid: &str) -> Result<DecodingKey, String> {
        if let Some(key) = self.keys.read().await.get(kid) {
            return Ok(key.clone());
        }
        self.refetch().await?;
        self.keys.read().await.get(kid).cloned().ok_or_else(|| "Invalid Google token: unknown signing key".to_owned())
    }

    /// The identity in `id_token`, or the message to answer 400 with.
    pub async fn verify(&self, id_token: &str) -> Result<GoogleIdentity, String> {
        let client_id = self.client_id.as_deref().ok_or("Google sign-in is not configured")?;
        let header = jsonwebtoken::decode_header(id_token).map_err(|_| "Invalid Google token: malformed")?;
        if header.alg != Algorithm::RS256 {
            return Err("Invalid Google token: unexpected algorithm".into());
        }
        let kid = header.kid.ok_or("Invalid Google token: no key id")?;
        let key = self.key(&kid).await?;
        let mut validation = Validation::new(Algorithm::RS256);
        validation.leeway = LEEWAY_SECS;
        validation.set_audience(&[client_id]);
        validation.set_issuer(&ISSUERS);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        let claims = jsonwebtoken::decode::<IdClaims>(id_token, &key, &validation)
            .map_err(|e| {
                let reason = match e.kind() {
                    ErrorKind::ExpiredSignature => "expired",
                    ErrorKind::InvalidAudience => "wrong audience",
                    ErrorKind::InvalidIssuer => "wrong issuer",
                    ErrorKind::InvalidSignature => "bad signature",
                    ErrorKind::ImmatureSignature => "not valid yet",
                    ErrorKind::MissingRequiredClaim(_) => "missing claims",
                    _ => "malformed",
                };
                format!("Invalid Google token: {reason}")
            })?
            .claims;
        let email = claims.email.filter(|e| !e.trim().is_empty()).ok_or("Invalid Google token: no email")?;
        if !claims.email_verified {
            return Err("Your Google email address is not verified".into());
        }
        Ok(GoogleIdentity { subject: claims.sub, email, name: claims.name.filter(|n| !n.trim().is_empty()) })
    }
}
