//! Standard Webhooks signatures (<https://www.standardwebhooks.com>): each delivery carries
//! `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature`, which is `v1,`
//! and the base64 of HMAC-SHA256 over `{id}.{timestamp}.{body}` under the endpoint's secret.
//!
//! The secret is shown to its owner once, as `whsec_` and the base64 of its 32 bytes. The server
//! must sign with it, so it cannot keep only a hash; it keeps nothing at all: the log holds a
//! random salt, and the secret is HMAC-SHA256 of that salt under a key derived from the server
//! secret (`JWT_SECRET` or `<DATA_DIR>/jwt-secret`). The log alone (a backup, an export) signs
//! nothing, and a secret is rebuilt by the process that holds the server secret whenever it
//! signs. Changing the server secret therefore changes every endpoint's secret (as it ends every
//! session): integrators then re-register.

use base64::{Engine as _, engine::general_purpose::STANDARD};
use hmac::{Hmac, Mac};
use rand::Rng;
use sha2::Sha256;

/// What a shown secret starts with.
pub const SECRET_PREFIX: &str = "whsec_";
/// Random bytes in a salt (the Standard Webhooks secret is 24 to 64 bytes; ours are 32, derived).
const SALT_BYTES: usize = 24;

fn hmac(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key length");
    for part in parts {
        mac.update(part);
    }
    mac.finalize().into_bytes().into()
}

/// The key endpoints' secrets are derived with: from the server secret, for this use only.
#[derive(Clone)]
pub struct SecretKey([u8; 32]);

impl std::fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretKey(***)")
    }
}

impl SecretKey {
    /// Derives the key from the server's master secret.
    pub fn derive(master: &[u8]) -> Self {
        Self(hmac(master, &[b"webhook-secret\x1f"]))
    }

    /// The signing secret of the endpoint whose salt is `salt`.
    pub fn secret(&self, salt: &str) -> Vec<u8> {
        hmac(&self.0, &[salt.as_bytes()]).to_vec()
    }
}

/// A fresh salt: base64 of 24 random bytes from the operating system's generator.
pub fn new_salt() -> String {
    STANDARD.encode(rand::rng().random::<[u8; SALT_BYTES]>())
}

/// A secret as its owner is shown it: `whsec_` and base64.
pub fn shown(secret: &[u8]) -> String {
    format!("{SECRET_PREFIX}{}", STANDARD.encode(secret))
}

/// The bytes of a shown secret (`whsec_` optional), if it is base64.
pub fn secret_bytes(shown: &str) -> Option<Vec<u8>> {
    STANDARD.decode(shown.strip_prefix(SECRET_PREFIX).unwrap_or(shown)).ok()
}

/// `webhook-signature`'s value for a delivery: `v1,` and base64(HMAC-SHA256(secret,
/// "{id}.{timestamp}.{body}")).
pub fn sign(secret: &[u8], id: &str, timestamp: i64, body: &[u8]) -> String {
    let mac = hmac(secret, &[id.as_bytes(), b".", timestamp.to_string().as_bytes(), b".", body]);
    format!("v1,{}", STANDARD.encode(mac))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Standard Webhooks specification's own example.
    const SPEC_SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const SPEC_ID: &str = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    const SPEC_TIMESTAMP: i64 = 1_614_265_330;
    const SPEC_BODY: &str = r#"{"test": 2432232314}"#;
    const SPEC_SIGNATURE: &str = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    #[test]
    fn the_signature_matches_the_specifications_test_vector() {
        let secret = secret_bytes(SPEC_SECRET).unwrap();
        assert_eq!(sign(&secret, SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY.as_bytes()), SPEC_SIGNATURE);
        // Any change to what is signed changes the signature.
        assert_ne!(sign(&secret, SPEC_ID, SPEC_TIMESTAMP + 1, SPEC_BODY.as_bytes()), SPEC_SIGNATURE);
        assert_ne!(sign(&secret, "msg_other", SPEC_TIMESTAMP, SPEC_BODY.as_bytes()), SPEC_SIGNATURE);
    }

    #[test]
    fn the_documented_rust_verifier_accepts_our_signatures_and_refuses_others() {
        // The verifier docs/integrating.md shows, compiled here as it is printed there.
        let example = include_str!("verify_example.rs");
        let guide = include_str!("../../../../docs/integrating.md");
        assert!(guide.contains(example.trim()), "docs/integrating.md must show verify_example.rs as it is");

        let secret = secret_bytes(SPEC_SECRET).unwrap();
        let now = SPEC_TIMESTAMP + 10;
        let headers = |sig: &str| {
            [("webhook-id", SPEC_ID.to_owned()), ("webhook-timestamp", SPEC_TIMESTAMP.to_string()), ("webhook-signature", sig.to_owned())]
        };
        let get = |h: &[(&str, String); 3], name: &str| h.iter().find(|(n, _)| *n == name).map(|(_, v)| v.clone());
        let ours = sign(&secret, SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY.as_bytes());
        let h = headers(&format!("v1,bm90IGl0 {ours}"));
        assert!(verify_example::verify(SPEC_SECRET, |n| get(&h, n), SPEC_BODY.as_bytes(), now).is_ok());
        let h = headers(&ours);
        assert!(verify_example::verify(SPEC_SECRET, |n| get(&h, n), b"{\"test\": 1}", now).is_err());
        assert!(verify_example::verify(SPEC_SECRET, |n| get(&h, n), SPEC_BODY.as_bytes(), now + 600).is_err(), "too old");
        assert!(verify_example::verify("whsec_b3RoZXI=", |n| get(&h, n), SPEC_BODY.as_bytes(), now).is_err());
    }

    #[test]
    fn secrets_are_derived_per_salt_and_per_server_secret() {
        let key = SecretKey::derive(b"master");
        let salt = new_salt();
        assert_eq!(STANDARD.decode(&salt).unwrap().len(), SALT_BYTES);
        assert_eq!(key.secret(&salt), key.secret(&salt));
        assert_eq!(key.secret(&salt).len(), 32);
        assert_ne!(key.secret(&salt), key.secret(&new_salt()));
        assert_ne!(key.secret(&salt), SecretKey::derive(b"other").secret(&salt));
        let shown = shown(&key.secret(&salt));
        assert!(shown.starts_with("whsec_"));
        assert_eq!(secret_bytes(&shown).unwrap(), key.secret(&salt));
        assert_eq!(format!("{key:?}"), "SecretKey(***)");
    }
}

#[cfg(test)]
#[path = "verify_example.rs"]
mod verify_example;
