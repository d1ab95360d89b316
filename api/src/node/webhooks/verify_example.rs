// Verifies a Standard Webhooks delivery (crates: hmac 0.12, sha2 0.10, base64 0.22).
use base64::{Engine as _, engine::general_purpose::STANDARD};
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// Checks a delivery's signature and age. `header` reads a request header by name, `body` is
/// the raw body as received (before any JSON parsing), `now` is Unix seconds.
pub fn verify(secret: &str, header: impl Fn(&str) -> Option<String>, body: &[u8], now: i64) -> Result<(), &'static str> {
    let id = header("webhook-id").ok_or("no webhook-id")?;
    let timestamp = header("webhook-timestamp").ok_or("no webhook-timestamp")?;
    let signatures = header("webhook-signature").ok_or("no webhook-signature")?;
    let sent: i64 = timestamp.parse().map_err(|_| "bad webhook-timestamp")?;
    if (now - sent).abs() > 5 * 60 {
        return Err("too old or in the future: a replay?");
    }
    let key = STANDARD.decode(secret.strip_prefix("whsec_").unwrap_or(secret)).map_err(|_| "bad secret")?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).map_err(|_| "bad secret")?;
    mac.update(format!("{id}.{timestamp}.").as_bytes());
    mac.update(body);
    // Several space-separated signatures may come (while a secret is rotated): one must match.
    for signature in signatures.split(' ') {
        if let Some(Ok(bytes)) = signature.strip_prefix("v1,").map(|s| STANDARD.decode(s)) {
            // verify_slice compares in constant time.
            if mac.clone().verify_slice(&bytes).is_ok() {
                return Ok(());
            }
        }
    }
    Err("no signature matches")
}
