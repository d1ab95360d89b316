//! Sign-In-with-Ethereum (EIP-4361) messages: parsed, checked against what we expect, and the
//! EIP-191 `personal_sign` signature recovered to the address that must have signed it. A smart
//! account's signature (ERC-1271), or one of an account not deployed yet (ERC-6492), recovers to
//! no key: the chain is asked about it ([`crate::chain::signatures`]).

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

/// The optional fields after `Issued At`, in the only order the grammar allows.
const OPTIONAL: [&str; 4] = ["Expiration Time: ", "Not Before: ", "Request ID: ", "Resources:"];

fn time(field: &str, value: &str) -> Result<DateTime<Utc>, String> {
    DateTime::parse_from_rfc3339(value).map(|t| t.with_timezone(&Utc)).map_err(|_| format!("message: {field} is not an RFC 3339 time"))
}

/// At most 40 characters of `line`, for an error that shows what was found.
fn shown(line: &str) -> String {
    let mut short: String = line.chars().take(40).collect();
    if short.len() < line.len() {
        short.push('…');
    }
    short
}

/// The lines of a message, numbered from 1 for the errors.
struct Lines<'a> {
    lines: Vec<&'a str>,
    at: usize,
}

impl<'a> Lines<'a> {
    fn peek(&self) -> Option<&'a str> {
        self.lines.get(self.at).copied()
    }

    fn next(&mut self, what: &str) -> Result<&'a str, String> {
        let line = self.lines.get(self.at).copied().ok_or_else(|| format!("message: ends before {what} (line {})", self.at + 1))?;
        self.at += 1;
        Ok(line)
    }

    fn blank(&mut self, after: &str) -> Result<(), String> {
        let n = self.at + 1;
        match self.next(&format!("the blank line after {after}"))? {
            "" => Ok(()),
            other => Err(format!("message: line {n} must be blank (after {after}), found `{}`", shown(other))),
        }
    }

    /// The value of the field `tag` (`URI: `), which must be the next line.
    fn field(&mut self, tag: &str) -> Result<&'a str, String> {
        let n = self.at + 1;
        let name = tag.trim_end_matches([':', ' ']);
        let line = self.next(&format!("`{name}`"))?;
        line.strip_prefix(tag).ok_or_else(|| format!("message: line {n} must be `{tag}…`, found `{}`", shown(line)))
    }
}

/// `authority` of RFC 3986 (`host[:port]`, userinfo allowed): what the grammar's `domain` is.
fn authority(value: &str) -> bool {
    !value.is_empty() && value.chars().all(|c| c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=:@[]%".contains(c))
}

/// An RFC 3986 URI: a scheme, a colon, then no space or control character.
fn uri(value: &str) -> bool {
    let Some((scheme, rest)) = value.split_once(':') else { return false };
    let scheme_ok = scheme.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && scheme.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    scheme_ok && rest.chars().all(|c| c.is_ascii_graphic())
}

/// Parses the text the wallet signed by EIP-4361's grammar, exactly: the preamble (an optional
/// scheme, the domain), the EIP-55 address, a blank line, an optional one-line statement of
/// the grammar's characters followed by a blank line, then `URI`, `Version` (`1`), `Chain ID`,
/// `Nonce` (8 or more letters and digits) and `Issued At`, then any of `Expiration Time`,
/// `Not Before`, `Request ID` and `Resources` (with its `- URI` lines) in that order, each once;
/// lines end with LF only, and nothing follows the last field (no final line break). Without a
/// statement the URI may follow the address's blank line directly (as viem, siwe and ethers
/// write it) or after a second blank line (the grammar read literally). Anything else is
/// refused, naming the line: a wallet's strict parser would not show it as a sign-in request,
/// so its domain check would be skipped.
pub fn parse(message: &str) -> Result<SiweMessage, String> {
    if message.contains('\r') {
        return Err("message: lines must end with LF only (the message holds a carriage return)".into());
    }
    let mut lines = Lines { lines: message.split('\n').collect(), at: 0 };
    let first = lines.next("the first line")?;
    let authority_part = first.strip_suffix(PREAMBLE).ok_or_else(|| {
        format!("message: not a Sign-In with Ethereum message: line 1 must be `<domain>{PREAMBLE}`, found `{}`", shown(first))
    })?;
    let domain = match authority_part.split_once("://") {
        Some((scheme, domain)) if uri(&format!("{scheme}:x")) => domain,
        Some(_) => return Err("message: line 1's scheme is not valid".into()),
        None => authority_part,
    };
    if !authority(domain) {
        return Err(format!("message: line 1's domain `{}` is not a host[:port]", shown(domain)));
    }
    let address = lines.next("the address")?;
    if !(address.len() == 42 && address.starts_with("0x") && address[2..].chars().all(|c| c.is_ascii_hexdigit())) {
        return Err(format!("message: line 2 must be the address (0x and 40 hex digits), found `{}`", shown(address)));
    }
    Address::parse_checksummed(address, None).map_err(|_| "message: line 2's address is not in EIP-55 checksum case")?;
    lines.blank("the address")?;
    let statement = match lines.peek() {
        Some(line) if line.starts_with("URI: ") => None,
        Some("") => {
            lines.next("the URI")?;
            None
        }
        Some(line) => {
            let n = lines.at + 1;
            if let Some(c) = line.chars().find(|c| !(c.is_ascii_alphanumeric() || " -._~:/?#[]@!$&'()*+,;=".contains(*c))) {
                return Err(format!("message: line {n}: the statement may not hold {c:?} (one line of EIP-4361's characters)"));
            }
            lines.next("the statement")?;
            lines.blank("the statement")?;
            Some(line.to_owned())
        }
        None => return Err("message: ends after the address".into()),
    };
    let uri_value = lines.field("URI: ")?;
    if !uri(uri_value) {
        return Err(format!("message: URI `{}` is not a URI", shown(uri_value)));
    }
    let version = lines.field("Version: ")?;
    if version != "1" {
        return Err("message: Version must be 1".into());
    }
    let chain = lines.field("Chain ID: ")?;
    let chain_id = chain
        .parse::<u64>()
        .ok()
        .filter(|_| chain.chars().all(|c| c.is_ascii_digit()))
        .ok_or("message: Chain ID is not a decimal number")?;
    let nonce = lines.field("Nonce: ")?;
    if nonce.len() < 8 || !nonce.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err("message: Nonce must be at least 8 letters or digits".into());
    }
    let issued_at = time("Issued At", lines.field("Issued At: ")?)?;
    let (mut expiration_time, mut not_before) = (None, None);
    let mut next_optional = 0;
    while let Some(line) = lines.peek() {
        let n = lines.at + 1;
        let Some(index) = OPTIONAL.iter().position(|tag| line.starts_with(tag)) else {
            return Err(format!("message: line {n} is not a Sign-In with Ethereum field: `{}`", shown(line)));
        };
        if index < next_optional {
            let name = OPTIONAL[index].trim_end_matches([':', ' ']);
            return Err(format!("message: line {n}: `{name}` is repeated or out of order (the order is {})", optional_order()));
        }
        next_optional = index + 1;
        let value = lines.field(OPTIONAL[index])?;
        match index {
            0 => expiration_time = Some(time("Expiration Time", value)?),
            1 => not_before = Some(time("Not Before", value)?),
            2 if !value.chars().all(|c| c.is_ascii_graphic()) => return Err("message: Request ID may not hold spaces".into()),
            2 => {}
            _ => {
                if !value.is_empty() {
                    return Err(format!("message: line {n} must be `Resources:` alone"));
                }
                while let Some(resource) = lines.peek() {
                    let n = lines.at + 1;
                    if !resource.strip_prefix("- ").is_some_and(uri) {
                        return Err(format!("message: line {n} must be a resource (`- ` and a URI), found `{}`", shown(resource)));
                    }
                    lines.next("a resource")?;
                }
            }
        }
    }
    Ok(SiweMessage {
        domain: domain.to_owned(),
        address: address.to_owned(),
        statement,
        uri: uri_value.to_owned(),
        version: version.to_owned(),
        chain_id,
        nonce: nonce.to_owned(),
        issued_at,
        expiration_time,
        not_before,
    })
}

fn optional_order() -> String {
    OPTIONAL.iter().map(|tag| tag.trim_end_matches([':', ' '])).collect::<Vec<_>>().join(", ")
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

/// The answer for a signature that is not the address's.
pub const NOT_SIGNED: &str = "Invalid signature: not signed by walletAddress";

/// The longest signature taken, in bytes: a smart account's, wrapped with the call that deploys
/// it (ERC-6492), is a few hundred bytes to a few kilobytes.
pub const MAX_SIGNATURE_BYTES: usize = 8_192;

/// A signature's bytes, from 0x hex.
pub fn signature_bytes(signature: &str) -> Result<Vec<u8>, String> {
    let bytes = alloy::hex::decode(signature.trim()).map_err(|_| "signature: not 0x hex")?;
    if bytes.is_empty() || bytes.len() > MAX_SIGNATURE_BYTES {
        return Err(format!("signature: 1 to {MAX_SIGNATURE_BYTES} bytes"));
    }
    Ok(bytes)
}

/// Whether `signature` is the `personal_sign` of `message` by the key of `address`.
pub fn signed_by_key(message: &str, signature: &[u8], address: Address) -> bool {
    Signature::try_from(signature).ok().and_then(|s| s.recover_address_from_msg(message.as_bytes()).ok()) == Some(address)
}

/// The EIP-191 hash of `message`: what a smart account is asked whether it signed.
pub fn message_hash(message: &str) -> alloy::primitives::B256 {
    alloy::primitives::eip191_hash_message(message.as_bytes())
}

/// Checks `message` against `expected`, its signature aside. Returns the parsed message.
pub fn check(message: &str, expected: &Expected<'_>) -> Result<SiweMessage, String> {
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
    Ok(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the route does for a key's account: `message` checked against `expected`, then
    /// `signature` (65 bytes, hex) as the address's key's `personal_sign` of it.
    fn verify(message: &str, signature: &str, expected: &Expected<'_>) -> Result<SiweMessage, String> {
        let parsed = check(message, expected)?;
        let bytes = signature_bytes(signature)?;
        if bytes.len() != 65 {
            return Err("signature: not a 65-byte hex signature".into());
        }
        let claimed = Address::from_str(expected.address.trim()).map_err(|_| "walletAddress: not a valid 0x address")?;
        if !signed_by_key(message, &bytes, claimed) {
            return Err(NOT_SIGNED.into());
        }
        Ok(parsed)
    }

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

    /// A message as viem writes it, for the parser alone.
    fn canonical() -> String {
        message(&Address::from_private_key(&key()).to_checksum(None), "abcdef0123456789")
    }

    #[test]
    fn the_canonical_forms_parse() {
        let text = canonical();
        assert_eq!(parse(&text).unwrap().statement.as_deref(), Some("Link this wallet to your marketplace account."));
        // No statement: the URI right after the address's blank line (viem), or after two (the grammar read literally).
        let bare = text.replace("Link this wallet to your marketplace account.\n\n", "");
        assert_eq!(parse(&bare).unwrap().statement, None);
        let literal = text.replace("Link this wallet to your marketplace account.\n", "");
        assert_eq!(parse(&literal).unwrap().statement, None);
        // Every optional field, in order, and a scheme before the domain.
        let full = format!(
            "https://{text}\nExpiration Time: 2026-01-02T00:00:00Z\nNot Before: 2026-01-01T00:00:00Z\nRequest ID: r-1\n\
             Resources:\n- ipfs://bafy\n- https://example.com/terms"
        );
        let parsed = parse(&full).unwrap();
        assert_eq!(parsed.domain, "localhost:5173");
        assert!(parsed.expiration_time.is_some() && parsed.not_before.is_some());
    }

    /// `parse` refuses `text`, saying something that contains `why`.
    fn refused(text: &str, why: &str) {
        let err = parse(text).expect_err(&format!("accepted: {text:?}"));
        assert!(err.starts_with("message: ") && err.contains(why), "{text:?}: {err}");
    }

    #[test]
    fn carriage_returns_are_refused() {
        refused(&canonical().replace('\n', "\r\n"), "LF only");
        refused(&format!("{}\r", canonical()), "LF only");
    }

    #[test]
    fn fields_out_of_order_are_refused() {
        let text = canonical();
        let swapped = text.replace("Version: 1\nChain ID: 80001", "Chain ID: 80001\nVersion: 1");
        refused(&swapped, "line 7 must be `Version: …`");
        let late = format!("{text}\nNot Before: 2026-01-01T00:00:00Z\nExpiration Time: 2026-01-02T00:00:00Z");
        refused(&late, "out of order");
    }

    #[test]
    fn repeated_fields_are_refused() {
        let text = canonical();
        refused(
            &text.replace("Nonce: abcdef0123456789", "Nonce: abcdef0123456789\nNonce: 0000000000000000"),
            "line 10 must be `Issued At: …`",
        );
        let twice = format!("{text}\nExpiration Time: 2026-01-02T00:00:00Z\nExpiration Time: 2027-01-02T00:00:00Z");
        refused(&twice, "repeated");
        refused(&format!("{text}\nRequest ID: a\nRequest ID: b"), "repeated");
    }

    #[test]
    fn unknown_lines_are_refused() {
        let text = canonical();
        refused(&format!("{text}\nChain: 1"), "is not a Sign-In with Ethereum field");
        refused(&text.replace("URI: ", "Note: hi\nURI: "), "must be `URI: …`");
        refused(&format!("{text}\nResources:\nhttps://example.com"), "must be a resource");
    }

    #[test]
    fn missing_blank_lines_and_extra_ones_are_refused() {
        let text = canonical();
        refused(&text.replacen("\n\nLink", "\nLink", 1), "line 3 must be blank");
        refused(&text.replace("account.\n\nURI", "account.\nURI"), "line 5 must be blank");
        refused(&text.replace("account.\n\nURI", "account.\n\n\nURI"), "line 6 must be `URI: …`");
        refused(&format!("{text}\n"), "is not a Sign-In with Ethereum field");
    }

    #[test]
    fn a_statement_on_two_lines_or_with_other_characters_is_refused() {
        let text = canonical();
        refused(&text.replace("your marketplace account.", "your marketplace\naccount."), "line 5 must be blank");
        refused(&text.replace("your marketplace account.", "your \"marketplace\" account."), "may not hold '\"'");
    }

    #[test]
    fn malformed_values_are_refused() {
        let text = canonical();
        let address = Address::from_private_key(&key()).to_checksum(None);
        refused(&text.replace(&address, &address.to_lowercase()), "EIP-55");
        refused(&text.replace(&address, &address[..41]), "line 2 must be the address");
        refused(&text.replace("Version: 1", "Version: 2"), "Version must be 1");
        refused(&text.replace("Chain ID: 80001", "Chain ID: 0x13881"), "Chain ID");
        refused(&text.replace("Chain ID: 80001", "Chain ID: +80001"), "Chain ID");
        refused(&text.replace("Nonce: abcdef0123456789", "Nonce: short"), "Nonce");
        refused(&text.replace("URI: http://localhost:5173", "URI: not a uri"), "is not a URI");
        refused(&text.replace("localhost:5173 wants", "evil site wants"), "domain");
        refused(&text.replace("Issued At: 2026-01-01T00:00:00.000Z", "Issued At: yesterday"), "RFC 3339");
        refused("hello", "not a Sign-In with Ethereum message");
    }
}
