//! Sign-In-with-Ethereum (EIP-4361) messages: parsed, checked against what we expect, and the
//! EIP-191 `personal_sign` signature recovered to the address that must have signed it.

use std::str::FromStr;

use alloy::primitives::{Address, Signature};
use chrono::{DateTime, Duration, Utc};

/// The fields of a SIWE message we check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiweMessage {
    /// The site asking (`host[:port]`).
    pub domain: String,
    /// The account that signs.
    pub address: String,
    /// Human-readable statement, if any.
    pub statement: Option<String>,
    /// The URI of the site.
    pub uri: String,
    /// Must be `1`.
    pub version: String,
    /// EIP-155 chain id.
    pub chain_id: u64,
    /// Our nonce.
    pub nonce: String,
    /// When the wallet made it.
    pub issued_at: DateTime<Utc>,
    /// Optional end of validity.
    pub expiration_time: Option<DateTime<Utc>>,
    /// Optional start of validity.
    pub not_before: Option<DateTime<Utc>>,
}

const PREAMBLE: &str = " wants you to sign in with your Ethereum account:";

fn time(field: &str, value: &str) -> Result<DateTime<Utc>, String> {
    DateTime::parse_from_rfc3339(value).map(|t| t.with_timezone(&Utc)).map_err(|_| format!("message: {field} is not an RFC 3339 time"))
}

/// Parses the text the wallet signed.
pub fn parse(message: &str) -> Result<SiweMessage, String> {
    let text = message.replace("\r\n", "\n");
    let mut lines = text.lines();
    let domain = lines
        .next()
        .and_then(|l| l.strip_suffix(PREAMBLE))
        .filter(|d| !d.is_empty())
        .ok_or("message: not a Sign-In with Ethereum message")?
        .to_owned();
    let address = lines.next().map(str::trim).filter(|a| !a.is_empty()).ok_or("message: no address")?.to_owned();
    let mut statement = Vec::new();
    let (mut uri, mut version, mut chain_id, mut nonce, mut issued_at) = (None, None, None, None, None);
    let (mut expiration_time, mut not_before) = (None, None);
    for line in lines {
        if let Some(v) = line.strip_prefix("URI: ") {
            uri = Some(v.to_owned());
        } else if let Some(v) = line.strip_prefix("Version: ") {
            version = Some(v.to_owned());
        } else if let Some(v) = line.strip_prefix("Chain ID: ") {
            chain_id = Some(v.trim().parse::<u64>().map_err(|_| "message: Chain ID is not a number")?);
        } else if let Some(v) = line.strip_prefix("Nonce: ") {
            nonce = Some(v.to_owned());
        } else if let Some(v) = line.strip_prefix("Issued At: ") {
            issued_at = Some(time("Issued At", v)?);
        } else if let Some(v) = line.strip_prefix("Expiration Time: ") {
            expiration_time = Some(time("Expiration Time", v)?);
        } else if let Some(v) = line.strip_prefix("Not Before: ") {
            not_before = Some(time("Not Before", v)?);
        } else if uri.is_none() && !line.trim().is_empty() {
            statement.push(line);
        }
    }
    Ok(SiweMessage {
        domain,
        address,
        statement: (!statement.is_empty()).then(|| statement.join("\n")),
        uri: uri.ok_or("message: no URI")?,
        version: version.ok_or("message: no Version")?,
        chain_id: chain_id.ok_or("message: no Chain ID")?,
        nonce: nonce.ok_or("message: no Nonce")?,
        issued_at: issued_at.ok_or("message: no Issued At")?,
        expiration_time,
        not_before,
    })
}

/// What the message must say.
pub struct Expected<'a> {
    /// Domains we accept.
    pub domains: &'a [String],
    /// The address the caller says it links.
    pub address: &'a str,
    /// Our chain.
    pub chain_id: u64,
    /// The clock.
    pub now: DateTime<Utc>,
}

/// Tolerated clock skew between the wallet and us.
const SKEW: Duration = Duration::minutes(5);

/// Checks `message` against `expected` and that `signature` (65 bytes, hex) is the address's
/// `personal_sign` of it. Returns the parsed message (its nonce is checked by the domain).
pub fn verify(message: &str, signature: &str, expected: &Expected<'_>) -> Result<SiweMessage, String> {
    let parsed = parse(message)?;
    if !expected.domains.iter().any(|d| d.eq_ignore_ascii_case(&parsed.domain)) {
        return Err(format!("message: domain {} is not this site", parsed.domain));
    }
    let claimed = Address::from_str(expected.address.trim()).map_err(|_| "walletAddress: not a valid 0x address")?;
    let in_message = Address::from_str(&parsed.address).map_err(|_| "message: address is not a valid 0x address")?;
    if claimed != in_message {
        return Err("message: address is not walletAddress".into());
    }
    if parsed.version != "1" {
        return Err("message: Version must be 1".into());
    }
    if parsed.chain_id != expected.chain_id {
        return Err(format!("message: Chain ID must be {}", expected.chain_id));
    }
    if parsed.nonce.len() < 8 || !parsed.nonce.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err("message: Nonce must be at least 8 letters or digits".into());
    }
    if parsed.issued_at > expected.now + SKEW {
        return Err("message: Issued At is in the future".into());
    }
    if parsed.expiration_time.is_some_and(|t| t <= expected.now) {
        return Err("message: expired".into());
    }
    if parsed.not_before.is_some_and(|t| t > expected.now + SKEW) {
        return Err("message: not valid yet".into());
    }
    let signature = Signature::from_str(signature.trim()).map_err(|_| "signature: not a 65-byte hex signature")?;
    let signer = signature.recover_address_from_msg(message.as_bytes()).map_err(|_| "Invalid signature")?;
    if signer != claimed {
        return Err("Invalid signature: not signed by walletAddress".into());
    }
    Ok(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use k256::ecdsa::SigningKey;

    fn key() -> SigningKey {
        SigningKey::from_slice(&[7u8; 32]).unwrap()
    }

    fn sign(key: &SigningKey, message: &str) -> String {
        let hash = alloy::primitives::eip191_hash_message(message);
        let (sig, recid) = key.sign_prehash_recoverable(hash.as_slice()).unwrap();
        Signature::from_signature_and_parity(sig, recid.is_y_odd()).to_string()
    }

    fn message(address: &str, nonce: &str) -> String {
        // As viem's createSiweMessage writes it.
        format!(
            "localhost:5173 wants you to sign in with your Ethereum account:\n{address}\n\nLink this wallet to your marketplace account.\n\n\
             URI: http://localhost:5173\nVersion: 1\nChain ID: 80001\nNonce: {nonce}\nIssued At: 2026-01-01T00:00:00.000Z"
        )
    }

    fn expected<'a>(domains: &'a [String], address: &'a str) -> Expected<'a> {
        Expected { domains, address, chain_id: 80001, now: time("t", "2026-01-01T00:01:00Z").unwrap() }
    }

    #[test]
    fn a_viem_message_parses_and_its_signature_recovers() {
        let address = Address::from_private_key(&key()).to_checksum(None);
        let text = message(&address, "abcdef0123456789");
        let domains = vec!["localhost:5173".to_owned()];
        let parsed = verify(&text, &sign(&key(), &text), &expected(&domains, &address.to_lowercase())).unwrap();
        assert_eq!(parsed.nonce, "abcdef0123456789");
        assert_eq!(parsed.statement.as_deref(), Some("Link this wallet to your marketplace account."));
        assert_eq!(parsed.uri, "http://localhost:5173");
    }

    #[test]
    fn wrong_signer_domain_chain_or_address_are_refused() {
        let address = Address::from_private_key(&key()).to_checksum(None);
        let text = message(&address, "abcdef0123456789");
        let domains = vec!["localhost:5173".to_owned()];
        let other = SigningKey::from_slice(&[9u8; 32]).unwrap();
        assert!(verify(&text, &sign(&other, &text), &expected(&domains, &address)).unwrap_err().starts_with("Invalid signature"));
        let elsewhere = vec!["evil.example".to_owned()];
        assert!(verify(&text, &sign(&key(), &text), &expected(&elsewhere, &address)).unwrap_err().contains("domain"));
        let on_mainnet = text.replace("Chain ID: 80001", "Chain ID: 1");
        assert!(verify(&on_mainnet, &sign(&key(), &on_mainnet), &expected(&domains, &address)).unwrap_err().contains("Chain ID"));
        let someone = Address::from_private_key(&other).to_checksum(None);
        assert!(verify(&text, &sign(&key(), &text), &expected(&domains, &someone)).unwrap_err().contains("walletAddress"));
        assert!(verify(&text, "0x1234", &expected(&domains, &address)).unwrap_err().starts_with("signature"));
        assert!(parse("hello").is_err());
    }
}
