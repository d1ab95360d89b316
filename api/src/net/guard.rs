//! The one client for URLs that strangers chose (token URIs and the images they name).
//!
//! A token URI is written by whoever minted the token, so fetching it on the server could make
//! the server reach what only it can reach: itself, the private network, the cloud's metadata
//! service. Every fetch therefore:
//!
//! - takes `https://` only (`http://` when the operator allows it: `METADATA_ALLOW_HTTP`);
//! - resolves the host itself and refuses it if *any* address is loopback, private (RFC 1918,
//!   CGNAT, ULA), link-local, unspecified, multicast, broadcast, reserved, documentation or
//!   benchmarking space, or a cloud metadata service (169.254.169.254, fd00:ec2::254); IPv4
//!   inside IPv6 (mapped, NAT64, 6to4) is judged as the IPv4 it carries;
//! - connects to exactly the addresses it checked (the client is pinned to them: a DNS answer
//!   that changes between the check and the connection, "DNS rebinding", is never asked for);
//! - follows redirects itself, at most [`MAX_REDIRECTS`], each under the same rule;
//! - caps the body (counted as it streams, whatever `Content-Length` says) and the whole
//!   exchange's time, redirects included; sends no cookies and uses no proxy.
//!
//! Hosts the operator lists (`METADATA_ALLOWED_HOSTS`, `host` or `host:port`) skip the address
//! rule: an IPFS gateway on the private network, or a test's server on loopback. The entry
//! matches the URL's host as written, so allowing `127.0.0.1:8080` allows neither
//! `localhost:8080` nor `127.0.0.1:8081`.
//!
//! The rule cannot know the server's own public addresses: the operator lists those (and any
//! other) in `METADATA_DENIED_RANGES` ([`IpRange`]), refused like private ones, even for allowed
//! hosts.
//!
//! A refusal's reason is shown to anyone (on the NFT's page), so it never says what a *name*
//! resolved to: "vm resolves to 10.0.0.4" would let whoever mints map the internal names. It
//! says "resolves to a private or reserved address"; the address goes to the server's log only.
//! An address written in the URL itself is named (its writer knows it already).

use std::{
    net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr},
    str::FromStr,
    time::Duration,
};

use reqwest::{StatusCode, Url, header, redirect};

/// Redirects followed before giving up.
pub const MAX_REDIRECTS: usize = 3;

/// Why a fetch failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    /// The URL is no URL, or of a scheme not fetched.
    #[error("{0}")]
    BadUrl(String),
    /// The address rule refused the host (see the module).
    #[error("refused: {0}")]
    Refused(String),
    /// More redirects than [`MAX_REDIRECTS`].
    #[error("more than {MAX_REDIRECTS} redirects")]
    TooManyRedirects,
    /// The body is over the limit.
    #[error("larger than {0} bytes")]
    TooLarge(usize),
    /// The whole exchange took longer than the limit.
    #[error("no complete answer within {0} s")]
    Timeout(u64),
    /// The server answered with an error status.
    #[error("the server answered HTTP {0}")]
    Status(u16),
    /// The host could not be resolved or reached.
    #[error("unreachable: {0}")]
    Unreachable(String),
}

impl FetchError {
    /// Whether trying again later may succeed (a server down or slow, a name not resolving
    /// yet), as opposed to a refusal that stays one.
    pub fn is_transient(&self) -> bool {
        match self {
            Self::Timeout(_) | Self::Unreachable(_) => true,
            Self::Status(status) => *status == 429 || *status == 408 || *status >= 500 || *status == 404,
            Self::BadUrl(_) | Self::Refused(_) | Self::TooManyRedirects | Self::TooLarge(_) => false,
        }
    }
}

/// The guarded client's settings.
#[derive(Debug, Clone)]
pub struct Guard {
    /// `http://` too (else `https://` only).
    pub allow_http: bool,
    /// Hosts exempt from the address rule: `(host, port)`, any port when `None`.
    pub allowed: Vec<(String, Option<u16>)>,
    /// The whole exchange's time limit.
    pub timeout: Duration,
    /// Addresses refused as well as the non-public ones, even for allowed hosts.
    pub denied: Vec<IpRange>,
}

impl Guard {
    /// The settings from the configuration's values: `allowed` as `host`, `host:port` or
    /// `[v6]:port`.
    pub fn new(allow_http: bool, allowed: &[String], timeout: Duration) -> Self {
        let allowed =
            allowed.iter().map(|entry| entry.trim().to_ascii_lowercase()).filter(|e| !e.is_empty()).map(|e| split_host(&e)).collect();
        Self { allow_http, allowed, timeout, denied: Vec::new() }
    }

    /// These settings, refusing `denied` too (`METADATA_DENIED_RANGES`).
    pub fn with_denied(mut self, denied: &[IpRange]) -> Self {
        self.denied = denied.to_vec();
        self
    }

    /// Whether `host` (as the URL writes it; IPv6 in brackets) on `port` is exempt.
    fn exempt(&self, host: &str, port: u16) -> bool {
        self.allowed.iter().any(|(h, p)| h == host && p.is_none_or(|p| p == port))
    }

    /// The body at `url`, at most `max` bytes, under the module's rules.
    pub async fn get(&self, url: &str, accept: &str, max: usize) -> Result<Vec<u8>, FetchError> {
        let seconds = self.timeout.as_secs().max(1);
        tokio::time::timeout(self.timeout, self.follow(url, accept, max)).await.unwrap_or(Err(FetchError::Timeout(seconds)))
    }

    async fn follow(&self, url: &str, accept: &str, max: usize) -> Result<Vec<u8>, FetchError> {
        let mut url = Url::parse(url).map_err(|e| FetchError::BadUrl(format!("not a URL: {e}")))?;
        for _ in 0..=MAX_REDIRECTS {
            let client = self.client_for(&url).await?;
            let response = client
                .get(url.clone())
                .header(header::ACCEPT, accept)
                .send()
                .await
                .map_err(|e| FetchError::Unreachable(e.without_url().to_string()))?;
            let status = response.status();
            if status.is_redirection() && status != StatusCode::NOT_MODIFIED {
                let location = response
                    .headers()
                    .get(header::LOCATION)
                    .and_then(|l| l.to_str().ok())
                    .ok_or_else(|| FetchError::BadUrl(format!("a redirect ({status}) without a location")))?;
                url = url.join(location).map_err(|e| FetchError::BadUrl(format!("a redirect to no URL: {e}")))?;
                continue;
            }
            if !status.is_success() {
                return Err(FetchError::Status(status.as_u16()));
            }
            if response.content_length().is_some_and(|length| length > max as u64) {
                return Err(FetchError::TooLarge(max));
            }
            return read_capped(response, max).await;
        }
        Err(FetchError::TooManyRedirects)
    }

    /// A client that can only reach `url`'s host at the addresses checked now.
    async fn client_for(&self, url: &Url) -> Result<reqwest::Client, FetchError> {
        let (host, addrs) = self.checked(url).await?;
        self.build(&host, addrs.as_deref(), "nft-marketplace-metadata")
    }

    /// `url`'s host (lower case) and, for a name, the addresses it resolves to now, each
    /// checked under the rule (an address literal is checked as written: `None`).
    pub async fn checked(&self, url: &Url) -> Result<(String, Option<Vec<SocketAddr>>), FetchError> {
        match url.scheme() {
            "https" => {}
            "http" if self.allow_http => {}
            "http" => return Err(FetchError::BadUrl("http:// is not allowed (only https://; the operator may allow http)".into())),
            other => return Err(FetchError::BadUrl(format!("{other}: URLs are not allowed"))),
        }
        let host = url.host_str().ok_or_else(|| FetchError::BadUrl("a URL without a host".into()))?.to_ascii_lowercase();
        let port = url.port_or_known_default().ok_or_else(|| FetchError::BadUrl("a URL without a port".into()))?;
        let exempt = self.exempt(&host, port);
        // The URL parser writes IPv4 in dotted form whatever the input (`0x7f.1`, `2130706433`)
        // and IPv6 in brackets: an address literal is one of these two.
        let literal = match host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
            Some(v6) => v6.parse::<Ipv6Addr>().ok().map(IpAddr::V6),
            None => host.parse::<Ipv4Addr>().ok().map(IpAddr::V4),
        };
        match literal {
            Some(ip) => {
                self.check(ip, &host, exempt, true)?;
                Ok((host, None))
            }
            None => {
                let mut addrs: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), port))
                    .await
                    .map_err(|e| FetchError::Unreachable(format!("{host} does not resolve: {e}")))?
                    .collect();
                if addrs.is_empty() {
                    return Err(FetchError::Unreachable(format!("{host} has no address")));
                }
                for addr in &addrs {
                    self.check(addr.ip(), &host, exempt, false)?;
                }
                addrs.sort();
                Ok((host, Some(addrs)))
            }
        }
    }

    /// A client that follows no redirect, uses no proxy and, for a name, connects only to
    /// `addrs` (pinned: a DNS answer that changes after the check is never asked for).
    fn build(&self, host: &str, addrs: Option<&[SocketAddr]>, agent: &str) -> Result<reqwest::Client, FetchError> {
        let builder = reqwest::Client::builder()
            .redirect(redirect::Policy::none())
            .no_proxy()
            .connect_timeout(self.timeout)
            .user_agent(format!("{agent}/{}", env!("CARGO_PKG_VERSION")));
        let builder = match addrs {
            Some(addrs) => builder.resolve_to_addrs(host, addrs),
            None => builder,
        };
        builder.build().map_err(|e| FetchError::Unreachable(e.to_string()))
    }

    /// Refuses `ip`, an address of `host` (written in the URL when `literal`, else what the
    /// name resolved to), if the operator denies it, or unless it is public or `host` exempt.
    fn check(&self, ip: IpAddr, host: &str, exempt: bool, literal: bool) -> Result<(), FetchError> {
        let why = if self.denied.iter().any(|range| range.contains(ip)) {
            "an address this server does not fetch from"
        } else {
            match forbidden(ip) {
                Some(why) if !exempt => why,
                _ => return Ok(()),
            }
        };
        if literal {
            return Err(FetchError::Refused(format!("{ip} is {why}")));
        }
        // The address stays here: the reason is public (see the module).
        tracing::warn!(host, address = %ip, why, "guard: refused a host that resolves to a non-public or denied address");
        Err(FetchError::Refused(format!("{host} resolves to a private or reserved address")))
    }
}

/// The guarded poster of webhook deliveries: every POST passes the address rule again (a name
/// may resolve elsewhere since the endpoint was registered), follows no redirect (a 3xx is a
/// failed delivery), and is bounded by the guard's time limit. Clients are kept per host and
/// checked addresses, so a receiver's connections are reused while its name resolves the same.
pub struct Poster {
    guard: Guard,
    clients: std::sync::Mutex<std::collections::HashMap<ClientKey, reqwest::Client>>,
}

/// A kept client's host and the addresses it was checked for.
type ClientKey = (String, Option<Vec<SocketAddr>>);

/// Clients kept at most (one per receiving host); past it the cache starts over.
const KEPT_CLIENTS: usize = 1_024;

impl Poster {
    /// A poster under `guard`'s rule.
    pub fn new(guard: Guard) -> Self {
        Self { guard, clients: std::sync::Mutex::default() }
    }

    /// Whether `url` may be posted to now: the scheme and the address rule (the host is
    /// resolved). What registration checks.
    pub async fn check(&self, url: &str) -> Result<(), FetchError> {
        let url = Url::parse(url).map_err(|e| FetchError::BadUrl(format!("not a URL: {e}")))?;
        self.guard.checked(&url).await.map(drop)
    }

    /// POSTs `body` with `headers` to `url`; the answer's status (any, 3xx included: never
    /// followed). Errors are the rule's refusals, the network's and the time limit.
    pub async fn post(&self, url: &str, headers: reqwest::header::HeaderMap, body: Vec<u8>) -> Result<u16, FetchError> {
        let seconds = self.guard.timeout.as_secs().max(1);
        let exchange = async {
            let url = Url::parse(url).map_err(|e| FetchError::BadUrl(format!("not a URL: {e}")))?;
            let key = self.guard.checked(&url).await?;
            let kept = self.clients.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(&key).cloned();
            let client = match kept {
                Some(client) => client,
                None => {
                    let client = self.guard.build(&key.0, key.1.as_deref(), "nft-marketplace-webhooks")?;
                    let mut clients = self.clients.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    if clients.len() >= KEPT_CLIENTS {
                        clients.clear();
                    }
                    clients.insert(key, client.clone());
                    client
                }
            };
            let response = client
                .post(url)
                .headers(headers)
                .body(body)
                .send()
                .await
                .map_err(|e| FetchError::Unreachable(e.without_url().to_string()))?;
            // The body is not read beyond what the connection needs: a receiver's answer is its
            // status only.
            Ok(response.status().as_u16())
        };
        tokio::time::timeout(self.guard.timeout, exchange).await.unwrap_or(Err(FetchError::Timeout(seconds)))
    }
}

/// An address or a CIDR range (`203.0.113.7`, `198.51.100.0/24`, `2001:db8::/32`), as
/// `METADATA_DENIED_RANGES` lists them. IPv4 carried in IPv6 (mapped, NAT64, 6to4) is matched
/// as that IPv4 too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IpRange {
    network: IpAddr,
    prefix: u8,
}

impl IpRange {
    /// Whether `ip` (or the IPv4 it carries) is in the range.
    pub fn contains(&self, ip: IpAddr) -> bool {
        let carried = match ip {
            IpAddr::V6(v6) => embedded_v4(v6).map(IpAddr::V4),
            IpAddr::V4(_) => None,
        };
        [Some(ip), carried].into_iter().flatten().any(|ip| match (self.network, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => prefix_matches(&net.octets(), &ip.octets(), self.prefix),
            (IpAddr::V6(net), IpAddr::V6(ip)) => prefix_matches(&net.octets(), &ip.octets(), self.prefix),
            _ => false,
        })
    }
}

fn prefix_matches(net: &[u8], ip: &[u8], prefix: u8) -> bool {
    let (whole, rest) = (usize::from(prefix / 8), prefix % 8);
    net[..whole] == ip[..whole] && (rest == 0 || (net[whole] ^ ip[whole]) & (0xffu8 << (8 - rest)) == 0)
}

impl FromStr for IpRange {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        let (address, prefix) = match text.split_once('/') {
            Some((address, prefix)) => (address, Some(prefix)),
            None => (text, None),
        };
        let network: IpAddr =
            address.trim_matches(['[', ']']).parse().map_err(|_| format!("{text:?} is not an IP address or CIDR range"))?;
        let bits = if network.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => bits,
            Some(p) => p.parse::<u8>().ok().filter(|p| *p <= bits).ok_or_else(|| format!("{text:?}: the prefix must be 0 to {bits}"))?,
        };
        Ok(Self { network, prefix })
    }
}

impl std::fmt::Display for IpRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.network, self.prefix)
    }
}

/// `host[:port]` (IPv6 in brackets) into its parts.
fn split_host(entry: &str) -> (String, Option<u16>) {
    if let Some((host, port)) = entry.rsplit_once(':')
        && (host.starts_with('[') && host.ends_with(']') || !host.contains(':'))
        && let Ok(port) = port.parse()
    {
        return (host.to_owned(), Some(port));
    }
    (entry.to_owned(), None)
}

/// Why `ip` is not fetched from, or `None` for a public address.
pub fn forbidden(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(ip) => forbidden_v4(ip),
        IpAddr::V6(ip) => forbidden_v6(ip),
    }
}

fn forbidden_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    Some(match (a, b, c) {
        _ if ip == Ipv4Addr::new(169, 254, 169, 254) => "a cloud metadata service address",
        (0, ..) => "an unspecified (\"this network\") address",
        (127, ..) => "a loopback address",
        (10, ..) | (192, 168, _) => "a private address",
        (172, b, _) if (16..32).contains(&b) => "a private address",
        (100, b, _) if (64..128).contains(&b) => "a shared (CGNAT) address",
        (169, 254, _) => "a link-local address",
        (192, 0, 0) => "an IETF protocol address",
        (192, 0, 2) | (198, 51, 100) | (203, 0, 113) => "a documentation address",
        (198, 18 | 19, _) => "a benchmarking address",
        (224..=239, ..) => "a multicast address",
        (240..=255, ..) => "a reserved or broadcast address",
        _ => return None,
    })
}

/// The IPv4 address an IPv6 one reaches: mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::/96),
/// 6to4 (2002:AABB:CCDD::/48).
fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let segments = ip.segments();
    let v4 = |high: u16, low: u16| Ipv4Addr::new((high >> 8) as u8, high as u8, (low >> 8) as u8, low as u8);
    if let Some(v4) = ip.to_ipv4_mapped() {
        Some(v4)
    } else if segments[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        Some(v4(segments[6], segments[7]))
    } else if segments[0] == 0x2002 {
        Some(v4(segments[1], segments[2]))
    } else {
        None
    }
}

fn forbidden_v6(ip: Ipv6Addr) -> Option<&'static str> {
    let segments = ip.segments();
    // IPv4 carried in IPv6 reaches that IPv4 address.
    if let Some(v4) = embedded_v4(ip) {
        return forbidden_v4(v4);
    }
    Some(match segments[0] {
        _ if ip == Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254) => "a cloud metadata service address",
        _ if ip.is_loopback() => "a loopback address",
        _ if ip.is_unspecified() => "an unspecified address",
        // The deprecated IPv4-compatible form (::a.b.c.d).
        0 if segments[..6] == [0; 6] => "an IPv4-compatible address",
        s if s & 0xfe00 == 0xfc00 => "a private (unique local) address",
        s if s & 0xffc0 == 0xfe80 => "a link-local address",
        s if s & 0xffc0 == 0xfec0 => "a site-local address",
        s if s & 0xff00 == 0xff00 => "a multicast address",
        0x2001 if segments[1] == 0x0db8 => "a documentation address",
        0x3fff if segments[1] & 0xf000 == 0 => "a documentation address",
        0x0100 if segments[1..4] == [0; 3] => "a discard-only address",
        _ => return None,
    })
}

/// The body, refused once it passes `max` bytes (without reading further).
async fn read_capped(mut response: reqwest::Response, max: usize) -> Result<Vec<u8>, FetchError> {
    let mut bytes = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| FetchError::Unreachable(e.without_url().to_string()))? {
        if bytes.len() + chunk.len() > max {
            return Err(FetchError::TooLarge(max));
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn why(ip: &str) -> Option<&'static str> {
        forbidden(ip.parse().unwrap())
    }

    #[test]
    fn every_non_public_range_is_refused() {
        for ip in [
            "127.0.0.1",
            "127.255.0.9",
            "10.0.0.1",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "100.64.0.1",
            "169.254.169.254",
            "169.254.1.1",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "192.0.2.1",
            "198.51.100.7",
            "203.0.113.9",
            "198.18.0.1",
            "::1",
            "::",
            "fd00:ec2::254",
            "fc00::1",
            "fe80::1",
            "ff02::1",
            "2001:db8::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "64:ff9b::a9fe:a9fe",
            "2002:7f00:1::1",
            "::127.0.0.1",
        ] {
            assert!(why(ip).is_some(), "{ip} must be refused");
        }
        assert_eq!(why("169.254.169.254"), Some("a cloud metadata service address"));
        assert_eq!(why("fd00:ec2::254"), Some("a cloud metadata service address"));
    }

    #[test]
    fn public_addresses_pass() {
        for ip in ["1.1.1.1", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700::1111", "2a00:1450::1", "::ffff:8.8.8.8"] {
            assert_eq!(why(ip), None, "{ip} is public");
        }
    }

    #[test]
    fn allowed_hosts_match_the_host_as_written_and_the_port_when_given() {
        let guard = Guard::new(true, &["127.0.0.1:8080".into(), "Gateway.local".into(), "[::1]:9000".into()], Duration::from_secs(1));
        assert!(guard.exempt("127.0.0.1", 8080));
        assert!(!guard.exempt("127.0.0.1", 8081));
        assert!(!guard.exempt("localhost", 8080));
        assert!(guard.exempt("gateway.local", 443));
        assert!(guard.exempt("[::1]", 9000));
        assert!(!guard.exempt("[::1]", 9001));
    }

    #[test]
    fn denied_ranges_match_addresses_and_prefixes() {
        let range = |text: &str| text.parse::<IpRange>().unwrap();
        let ip = |text: &str| text.parse::<IpAddr>().unwrap();
        assert!(range("203.0.113.7").contains(ip("203.0.113.7")));
        assert!(!range("203.0.113.7").contains(ip("203.0.113.8")));
        assert!(range("198.51.100.0/24").contains(ip("198.51.100.255")));
        assert!(!range("198.51.100.0/24").contains(ip("198.51.101.0")));
        assert!(range("8.8.0.0/13").contains(ip("8.15.255.255")));
        assert!(!range("8.8.0.0/13").contains(ip("8.16.0.0")));
        assert!(range("2001:db8::/32").contains(ip("2001:db8:ffff::1")));
        assert!(range("[2606:4700::1111]").contains(ip("2606:4700::1111")));
        // IPv4 inside IPv6 is the IPv4 it carries.
        assert!(range("8.8.8.8").contains(ip("::ffff:8.8.8.8")));
        assert!(range("8.8.8.0/24").contains(ip("64:ff9b::808:808")));
        assert!(range("0.0.0.0/0").contains(ip("1.2.3.4")));
        assert!(!range("0.0.0.0/0").contains(ip("2606:4700::1")));
        for bad in ["", "vm", "10.0.0.0/33", "::/129", "10.0.0.0/x", "10.0.0.300"] {
            assert!(bad.parse::<IpRange>().is_err(), "{bad:?} must be refused");
        }
    }
}
