//! The sealed form of a value: `sealed:1:<subject>:<base64url(nonce ‖ ciphertext)>`.
//!
//! XChaCha20-Poly1305 with the subject's key. The nonce is synthetic (the first 24 bytes of an
//! HMAC of the event id, the field and the plaintext under the same key), so sealing the same
//! event twice gives the same bytes: an append retried after a lost answer stays idempotent, and
//! a nonce repeats only with its plaintext. The field's name and the subject are bound in as
//! associated data, so a sealed value cannot be moved to another field or person.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use chacha20poly1305::{
    Key, KeyInit, XChaCha20Poly1305, XNonce,
    aead::{Aead, Payload},
};
use hmac::{Hmac, Mac};
use sha2::Sha256;
use uuid::Uuid;

const PREFIX: &str = "sealed:1:";

/// A data key of one subject (32 random bytes), never stored in clear.
#[derive(Clone)]
pub struct DataKey([u8; 32]);

impl DataKey {
    /// A fresh random key.
    pub fn random() -> Self {
        use chacha20poly1305::aead::{OsRng, rand_core::RngCore};
        let mut bytes = [0u8; 32];
        OsRng.fill_bytes(&mut bytes);
        Self(bytes)
    }

    pub(crate) fn from_bytes(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }

    pub(crate) fn bytes(&self) -> &[u8; 32] {
        &self.0
    }

    fn cipher(&self) -> XChaCha20Poly1305 {
        XChaCha20Poly1305::new(Key::from_slice(&self.0))
    }
}

impl std::fmt::Debug for DataKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DataKey(..)")
    }
}

fn aad(field: &str, subject: Uuid) -> Vec<u8> {
    let mut aad = Vec::with_capacity(field.len() + 17);
    aad.extend_from_slice(field.as_bytes());
    aad.push(0x1f);
    aad.extend_from_slice(subject.as_bytes());
    aad
}

/// Seals `plaintext` (a JSON value's text) of `field` in event `event_id` for `subject`.
pub(crate) fn seal(key: &DataKey, subject: Uuid, event_id: Uuid, field: &str, plaintext: &[u8]) -> String {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key.bytes()).expect("HMAC takes any key length");
    mac.update(event_id.as_bytes());
    mac.update(field.as_bytes());
    mac.update(&[0x1f]);
    mac.update(plaintext);
    let digest = mac.finalize().into_bytes();
    let nonce = XNonce::from_slice(&digest[..24]);
    let sealed = key
        .cipher()
        .encrypt(nonce, Payload { msg: plaintext, aad: &aad(field, subject) })
        .expect("XChaCha20-Poly1305 encrypts any length this small");
    let mut bytes = Vec::with_capacity(24 + sealed.len());
    bytes.extend_from_slice(nonce);
    bytes.extend_from_slice(&sealed);
    format!("{PREFIX}{}:{}", subject.simple(), URL_SAFE_NO_PAD.encode(bytes))
}

/// The subject a sealed value names, if `value` is one.
pub(crate) fn subject_of(value: &str) -> Option<Uuid> {
    let rest = value.strip_prefix(PREFIX)?;
    Uuid::try_parse(rest.get(..32)?).ok()
}

/// Opens a sealed value of `field` with its subject's key; `None` when it does not open (a
/// damaged value or the wrong key: treated as unreadable, as a forgotten key is).
pub(crate) fn open(key: &DataKey, field: &str, value: &str) -> Option<Vec<u8>> {
    let rest = value.strip_prefix(PREFIX)?;
    let subject = Uuid::try_parse(rest.get(..32)?).ok()?;
    let bytes = URL_SAFE_NO_PAD.decode(rest.get(33..)?).ok()?;
    if bytes.len() < 24 {
        return None;
    }
    let (nonce, sealed) = bytes.split_at(24);
    key.cipher().decrypt(XNonce::from_slice(nonce), Payload { msg: sealed, aad: &aad(field, subject) }).ok()
}

/// Wraps a data key with the key-encryption key (random nonce; the subject as associated data).
pub(crate) fn wrap(kek: &DataKey, subject: Uuid, key: &DataKey) -> String {
    use chacha20poly1305::aead::{AeadCore, OsRng};
    let nonce = XChaCha20Poly1305::generate_nonce(&mut OsRng);
    let sealed =
        kek.cipher().encrypt(&nonce, Payload { msg: key.bytes(), aad: subject.as_bytes() }).expect("XChaCha20-Poly1305 encrypts 32 bytes");
    let mut bytes = nonce.to_vec();
    bytes.extend_from_slice(&sealed);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Unwraps a stored data key; `None` when the server secret is not the one that wrapped it.
pub(crate) fn unwrap(kek: &DataKey, subject: Uuid, wrapped: &str) -> Option<DataKey> {
    let bytes = URL_SAFE_NO_PAD.decode(wrapped).ok()?;
    if bytes.len() < 24 {
        return None;
    }
    let (nonce, sealed) = bytes.split_at(24);
    let plain = kek.cipher().decrypt(XNonce::from_slice(nonce), Payload { msg: sealed, aad: subject.as_bytes() }).ok()?;
    Some(DataKey(plain.try_into().ok()?))
}

/// HMAC-SHA256 of `parts` under `key`, hex (blinded claim names).
pub(crate) fn blind(key: &[u8; 32], parts: &[&[u8]]) -> String {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key).expect("HMAC takes any key length");
    for part in parts {
        mac.update(part);
        mac.update(&[0x1f]);
    }
    hex::encode(mac.finalize().into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_value_opens_only_with_its_key_field_and_subject() {
        let (key, other) = (DataKey::random(), DataKey::random());
        let (subject, event) = (Uuid::now_v7(), Uuid::now_v7());
        let sealed = seal(&key, subject, event, "email", b"\"a@example.com\"");
        assert!(!sealed.contains("example"));
        assert_eq!(subject_of(&sealed), Some(subject));
        assert_eq!(open(&key, "email", &sealed).as_deref(), Some(&b"\"a@example.com\""[..]));
        assert_eq!(open(&other, "email", &sealed), None);
        assert_eq!(open(&key, "fullName", &sealed), None, "bound to its field");
        // Deterministic for one event, different for another.
        assert_eq!(seal(&key, subject, event, "email", b"\"a@example.com\""), sealed);
        assert_ne!(seal(&key, subject, Uuid::now_v7(), "email", b"\"a@example.com\""), sealed);
    }

    #[test]
    fn a_wrapped_key_unwraps_only_with_its_kek_and_subject() {
        let (kek, key, subject) = (DataKey::random(), DataKey::random(), Uuid::now_v7());
        let wrapped = wrap(&kek, subject, &key);
        assert_eq!(unwrap(&kek, subject, &wrapped).map(|k| k.0), Some(key.0));
        assert!(unwrap(&DataKey::random(), subject, &wrapped).is_none());
        assert!(unwrap(&kek, Uuid::now_v7(), &wrapped).is_none());
    }
}
