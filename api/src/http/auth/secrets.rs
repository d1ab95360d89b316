//! The server secret and what is derived from it: the access-token key and the key that hashes
//! verification codes, reset tokens; and the random values handed to users.

use hmac::{Hmac, Mac};
use rand::Rng;
use sha2::Sha256;
use uuid::Uuid;

/// The master secret (moved beside the configuration, so the elected work derives its keys
/// from it as the HTTP surface does).
pub use crate::config::master_secret;

fn hmac(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key length");
    for part in parts {
        mac.update(part);
        mac.update(b"\x1f");
    }
    mac.finalize().into_bytes().into()
}

/// Keys derived from the master secret, one per use, so no key serves two purposes.
#[derive(Clone)]
pub struct Keys {
    /// HS256 key for access tokens.
    pub token: Vec<u8>,
    code: [u8; 32],
}

impl Keys {
    /// Derives the keys from the master secret.
    pub fn derive(master: &[u8]) -> Self {
        Self { token: hmac(master, &[b"access-token"]).to_vec(), code: hmac(master, &[b"verification-code"]) }
    }

    /// The stored form of a code or token: HMAC-SHA256 over its purpose, owner and value (hex).
    pub fn digest(&self, purpose: &str, user_id: Uuid, value: &str) -> String {
        hex::encode(hmac(&self.code, &[purpose.as_bytes(), user_id.as_bytes(), value.as_bytes()]))
    }
}

/// A uniformly random 6-digit code.
pub fn new_code() -> String {
    format!("{:06}", rand::rng().random_range(0..1_000_000u32))
}

/// 32 random bytes as hex: reset tokens.
pub fn new_token() -> String {
    hex::encode(rand::rng().random::<[u8; 32]>())
}

/// 16 random bytes as hex (alphanumeric, as EIP-4361 wants): wallet nonces.
pub fn new_nonce() -> String {
    hex::encode(rand::rng().random::<[u8; 16]>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Secret;

    #[test]
    fn a_generated_secret_is_kept_private_and_reused() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("data/jwt-secret");
        let first = master_secret(None, &file).unwrap();
        assert_eq!(first.len(), 64);
        assert_eq!(master_secret(None, &file).unwrap(), first);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600);
        }
        let configured: Secret = "from-env".parse().unwrap();
        assert_eq!(master_secret(Some(&configured), &file).unwrap(), b"from-env");
        assert_eq!(format!("{configured:?} {configured}"), "*** ***");
    }

    #[test]
    fn digests_depend_on_purpose_user_and_value() {
        let keys = Keys::derive(b"master");
        let user = Uuid::from_u128(1);
        let base = keys.digest("ACCOUNT", user, "123456");
        assert_eq!(base.len(), 64);
        assert_eq!(base, keys.digest("ACCOUNT", user, "123456"));
        assert_ne!(base, keys.digest("EMAIL_CHANGE", user, "123456"));
        assert_ne!(base, keys.digest("ACCOUNT", Uuid::from_u128(2), "123456"));
        assert_ne!(base, Keys::derive(b"other").digest("ACCOUNT", user, "123456"));
        assert!(new_code().chars().all(|c| c.is_ascii_digit()) && new_code().len() == 6);
    }
}
