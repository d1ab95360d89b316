//! Password hashing with argon2id (the crate's defaults: 19 MiB, 2 passes, 1 lane, as OWASP
//! recommends), always off the async workers.

use std::sync::OnceLock;

use argon2::{
    Argon2,
    password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString, rand_core::OsRng},
};

use crate::http::error::ApiError;

/// Hashes a password into a PHC string.
pub async fn hash(password: String) -> Result<String, ApiError> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default().hash_password(password.as_bytes(), &salt).map(|h| h.to_string())
    })
    .await
    .map_err(|e| ApiError::Internal(e.into()))?
    .map_err(|e| ApiError::Internal(anyhow::anyhow!("hashing a password: {e}")))
}

/// A hash of nothing anyone knows, checked when there is no account, so that "no such e-mail"
/// takes as long as "wrong password".
fn decoy() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default().hash_password(b"decoy password nobody has", &salt).map(|h| h.to_string()).unwrap_or_default()
    })
}

/// Whether `password` matches `stored`; with no stored hash, spends the same time and says no.
pub async fn verify(password: String, stored: Option<String>) -> bool {
    tokio::task::spawn_blocking(move || {
        let known = stored.is_some();
        let stored = stored.unwrap_or_else(|| decoy().to_owned());
        let Ok(parsed) = PasswordHash::new(&stored) else { return false };
        Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok() && known
    })
    .await
    .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    #[tokio::test]
    async fn hashes_verify_only_their_password() {
        let hash = super::hash("correct horse".into()).await.unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(super::verify("correct horse".into(), Some(hash.clone())).await);
        assert!(!super::verify("wrong horse".into(), Some(hash)).await);
        assert!(!super::verify("decoy password nobody has".into(), None).await);
    }
}
