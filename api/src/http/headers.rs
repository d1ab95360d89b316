//! The security headers every answer carries (API, UI files, index pages, errors): a content
//! security policy for the app, `nosniff`, a referrer policy, a permissions policy, and HSTS
//! when the site is reached over https (scripts and style sheets: `nosniff` and HSTS only). The policy is made once, at start, from the settings
//! (`PUBLIC_RPC_URL`, `CSP_CONNECT_SRC`, `GOOGLE_CLIENT_ID`) and the built `index.html` (the
//! hashes of any inline script in it). An answer that sets its own policy (an uploaded file's
//! sandbox, `/ipfs/{cid}`) keeps it. Why each directive is what it is: docs/security.md.

use std::{path::Path, sync::Arc};

use axum::{
    extract::{Request, State},
    http::{HeaderName, HeaderValue, header},
    middleware::Next,
    response::Response,
};
use base64::Engine as _;
use sha2::{Digest, Sha256};

use crate::config::Config;

/// Where Google's sign-in button comes from (its script, its frame, its styles and its calls),
/// as Google documents for a content security policy; only when Google sign-in is configured.
const GOOGLE_GSI: &str = "https://accounts.google.com/gsi/";

/// What the Coinbase Wallet SDK calls (it is always offered): its relay to the phone app and its
/// RPC. Its smart wallet opens keys.coinbase.com in a pop-up, which the policy does not govern.
const COINBASE_CONNECT: [&str; 3] = ["https://www.walletlink.org", "wss://www.walletlink.org", "https://rpc.wallet.coinbase.com"];

/// What WalletConnect's provider and its QR dialog reach once a project id is set: the relay, its
/// RPC, its telemetry and the wallet list (`connect-src`), the list's icons (`img-src`) and fonts
/// (`font-src`), and the frame in which WalletConnect vouches for this site's origin to the wallet.
const WALLETCONNECT_CONNECT: [&str; 6] = [
    "wss://relay.walletconnect.org",
    "wss://relay.walletconnect.com",
    "https://rpc.walletconnect.org",
    "https://rpc.walletconnect.com",
    "https://pulse.walletconnect.org",
    "https://api.web3modal.org",
];
const WALLETCONNECT_IMG: &str = "https://api.web3modal.org";
const WALLETCONNECT_FONT: &str = "https://fonts.reown.com";
const WALLETCONNECT_FRAME: [&str; 2] = ["https://verify.walletconnect.org", "https://verify.walletconnect.com"];

/// Camera, microphone and geolocation are never used by the page, nor by anything it frames.
const PERMISSIONS_POLICY: &str = "camera=(), microphone=(), geolocation=(), payment=(), usb=()";

/// HSTS for a site the operator says is reached over https: a year, this host only (the
/// operator's other subdomains are not ours to decide for).
const HSTS: &str = "max-age=31536000";

/// The headers, made once.
#[derive(Clone)]
pub struct SecurityHeaders(Arc<Headers>);

struct Headers {
    policy: HeaderValue,
    hsts: bool,
}

impl SecurityHeaders {
    /// The headers for `config`, with the hashes of the inline scripts of `ui_dir/index.html`
    /// (none when no UI is built there).
    pub fn new(config: &Config, ui_dir: &Path) -> Self {
        let index = std::fs::read_to_string(ui_dir.join("index.html")).unwrap_or_default();
        let policy = content_security_policy(config, &inline_script_hashes(&index));
        let policy = HeaderValue::from_str(&policy).expect("the policy's sources are checked when the settings are read");
        let hsts = config.public_url.as_deref().is_some_and(|url| url.get(..8).is_some_and(|s| s.eq_ignore_ascii_case("https://")));
        Self(Arc::new(Headers { policy, hsts }))
    }

    /// The content security policy this server sends.
    pub fn policy(&self) -> &str {
        self.0.policy.to_str().unwrap_or_default()
    }
}

/// The policy's text. Scripts only from the site (and the hashed inline ones); styles from the
/// site and inline (`'unsafe-inline'` for styles only: Chakra's emotion writes `<style>`
/// elements at run time, see docs/security.md); connections to the site, the chain's RPC when
/// it is elsewhere, the wallets' services the page offers, and the operator's `CSP_CONNECT_SRC`;
/// images from the site, `data:` and `blob:` (previews of a file being uploaded); nothing may
/// frame the page, embed plugins, change the base URL or post a form elsewhere.
pub fn content_security_policy(config: &Config, script_hashes: &[String]) -> String {
    let google = config.google_client_id.as_deref().is_some_and(|id| !id.is_empty());
    let walletconnect = !config.walletconnect_project_id.is_empty();
    let mut script = vec!["'self'".to_owned()];
    script.extend(script_hashes.iter().map(|hash| format!("'sha256-{hash}'")));
    let mut style = vec!["'self'", "'unsafe-inline'"];
    let mut img = vec!["'self'", "data:", "blob:"];
    let mut font = vec!["'self'", "data:"];
    let mut connect = vec!["'self'".to_owned()];
    connect.extend(origin_of(&config.public_rpc_url));
    connect.extend(COINBASE_CONNECT.map(str::to_owned));
    let mut frame = vec!["'self'"];
    if walletconnect {
        connect.extend(WALLETCONNECT_CONNECT.map(str::to_owned));
        img.push(WALLETCONNECT_IMG);
        font.push(WALLETCONNECT_FONT);
        frame.extend(WALLETCONNECT_FRAME);
    }
    if google {
        script.push(GOOGLE_GSI.to_owned());
        style.push(GOOGLE_GSI);
        connect.push(GOOGLE_GSI.to_owned());
        frame.push(GOOGLE_GSI);
    }
    connect.extend(config.csp_connect_src.iter().cloned());
    let mut seen = std::collections::HashSet::new();
    connect.retain(|source| seen.insert(source.clone()));
    [
        "default-src 'self'".to_owned(),
        format!("script-src {}", script.join(" ")),
        format!("style-src {}", style.join(" ")),
        format!("img-src {}", img.join(" ")),
        format!("font-src {}", font.join(" ")),
        format!("connect-src {}", connect.join(" ")),
        format!("frame-src {}", frame.join(" ")),
        "worker-src 'self' blob:".to_owned(),
        "object-src 'none'".to_owned(),
        "base-uri 'self'".to_owned(),
        "form-action 'self'".to_owned(),
        "frame-ancestors 'none'".to_owned(),
    ]
    .join("; ")
}

/// `scheme://host[:port]` of an absolute http(s) or ws(s) URL; `None` for a path on this site
/// (`/rpc`) or anything else.
fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    if !["http", "https", "ws", "wss"].iter().any(|s| s.eq_ignore_ascii_case(scheme)) {
        return None;
    }
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
    let valid = !host.is_empty() && host.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'));
    valid.then(|| format!("{}://{host}", scheme.to_ascii_lowercase()))
}

/// The base64 SHA-256 of every inline `<script>` (one without `src`) in `html`, as the
/// policy's `'sha256-…'` sources name them.
pub fn inline_script_hashes(html: &str) -> Vec<String> {
    let lower = html.to_ascii_lowercase();
    let mut hashes = Vec::new();
    let mut at = 0;
    while let Some(start) = lower[at..].find("<script").map(|i| at + i) {
        let Some(open_end) = lower[start..].find('>').map(|i| start + i + 1) else { break };
        let Some(close) = lower[open_end..].find("</script").map(|i| open_end + i) else { break };
        let tag = &lower[start..open_end];
        let has_src = tag.split(|c: char| c.is_whitespace()).any(|attr| attr.starts_with("src="));
        if !has_src {
            let digest = Sha256::digest(&html.as_bytes()[open_end..close]);
            hashes.push(base64::engine::general_purpose::STANDARD.encode(digest));
        }
        at = close;
    }
    hashes
}

/// Whether an answer is a script or a style sheet: never shown as a page (a browser displays
/// either as text), so the headers that govern a page (its policy, framing, referrer and
/// permissions) would govern nothing there; each of the ~30 scripts of a first visit would carry
/// half a kilobyte of them (the page has no workers, which would take a policy from their script).
fn never_a_page(response: &Response) -> bool {
    let kind = response.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
    let kind = kind.split(';').next().unwrap_or_default().trim();
    ["text/javascript", "application/javascript", "text/css"].iter().any(|k| kind.eq_ignore_ascii_case(k))
}

/// The middleware: the headers on every answer, an answer's own policy kept; a script or style
/// sheet gets only `nosniff` (and HSTS).
pub async fn security_headers(State(headers): State<SecurityHeaders>, request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let page_headers = !never_a_page(&response);
    let out = response.headers_mut();
    out.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    if headers.0.hsts {
        out.insert(header::STRICT_TRANSPORT_SECURITY, HeaderValue::from_static(HSTS));
    }
    if !page_headers {
        return response;
    }
    if !out.contains_key(header::CONTENT_SECURITY_POLICY) {
        out.insert(header::CONTENT_SECURITY_POLICY, headers.0.policy.clone());
    }
    out.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    out.insert(header::REFERRER_POLICY, HeaderValue::from_static("strict-origin-when-cross-origin"));
    out.insert(HeaderName::from_static("permissions-policy"), HeaderValue::from_static(PERMISSIONS_POLICY));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_scripts_are_hashed_and_scripts_with_a_source_are_not() {
        let html = "<html><head><script type=\"module\" src=\"/assets/index.js\"></script>\
                    <SCRIPT>window.a=1</SCRIPT><style>p{}</style></head></html>";
        // printf 'window.a=1' | openssl dgst -sha256 -binary | base64
        assert_eq!(inline_script_hashes(html), ["WpNQcWxgTJamkluTtRGYllok20MyGquJpWh9YXWGA4E="]);
        assert!(inline_script_hashes("<script src=\"/a.js\"></script>").is_empty());
        assert!(inline_script_hashes("<p>no scripts</p>").is_empty());
    }

    #[test]
    fn an_rpc_elsewhere_is_named_by_its_origin_and_a_path_here_is_not() {
        assert_eq!(origin_of("https://polygon-amoy.g.alchemy.com/v2/key").as_deref(), Some("https://polygon-amoy.g.alchemy.com"));
        assert_eq!(origin_of("HTTP://127.0.0.1:8545").as_deref(), Some("http://127.0.0.1:8545"));
        assert_eq!(origin_of("/rpc"), None);
        assert_eq!(origin_of("javascript://x"), None);
        assert_eq!(origin_of("https://a b;c"), None);
    }
}
