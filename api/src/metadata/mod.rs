//! Metadata of tokens minted elsewhere: the elected process reads each new token's URI and
//! records what it found (`domain::metadata`), so a token minted by a script gets its title,
//! image and attributes like one minted through the UI.
//!
//! - `ipfs://<cid>` is read through the file store (the local folder, or the Kubo node when
//!   configured), `https://` (and `http://` if the operator allows it) through the guarded
//!   client ([`guard`]): size and time capped, private addresses refused.
//! - The document must be ERC-721 metadata ([`domain::metadata::parse`]).
//! - Its image never reaches the browser unchecked: an `ipfs://` image must be in the file store
//!   and be an image by content; an `https://` image is fetched through the same guard, checked
//!   by content as uploads are (PNG, JPEG, GIF, WebP, or an SVG without scripts or external
//!   references) and stored, so the page shows `/ipfs/<cid>` from this server. Any other image
//!   (`data:`, `javascript:`…) is refused.
//! - A failure that may pass (a timeout, a server error, a file not in the store yet) is retried
//!   [`MAX_ATTEMPTS`] times with a growing delay ([`retry_delay`]); a refusal (invalid JSON,
//!   wrong types, a private address, too large) is final at once. Either way the reason is
//!   recorded and shown on the NFT's page, where anyone may ask for a new attempt.
//!
//! Tokens whose creator described them through this UI are never fetched: their creator's
//! details win.

pub mod guard;

use std::{
    collections::HashMap,
    time::{Duration, Instant},
};

use chrono::{DateTime, Utc};
use domain::{
    Metadata, Position,
    metadata::{Erc721, MetadataEvent},
};
use futures::StreamExt as _;
use projections::queries::metadata::{self as queries, Due};

use crate::{AppState, files};

/// How often the fetcher looks for due tokens.
pub const POLL: Duration = Duration::from_secs(1);
/// Attempts before a failure that may pass is given up.
pub const MAX_ATTEMPTS: u32 = 5;
/// Tokens taken per look.
const BATCH: i64 = 256;

/// The delay before attempt `attempt + 1` after attempt `attempt` failed: 30 s, 2 min, 8 min,
/// 32 min.
pub fn retry_delay(attempt: u32) -> Duration {
    Duration::from_secs(30 * 4u64.pow(attempt.saturating_sub(1).min(8)))
}

/// Why reading a token's metadata failed, and whether trying again may help.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// For people: what failed and why.
    pub reason: String,
    /// Whether a later attempt may succeed.
    pub transient: bool,
}

impl Failure {
    fn final_(reason: impl Into<String>) -> Self {
        Self { reason: reason.into(), transient: false }
    }

    fn fetch(what: &str, err: &guard::FetchError) -> Self {
        Self { reason: format!("{what}: {err}"), transient: err.is_transient() }
    }
}

/// The fetcher: its settings, from the configuration.
#[derive(Clone)]
pub struct Fetcher {
    state: AppState,
    guard: guard::Guard,
}

impl Fetcher {
    /// The fetcher of `state`'s configuration.
    pub fn new(state: AppState) -> Self {
        let config = &state.config;
        let guard = guard::Guard::new(
            config.metadata_allow_http,
            &config.metadata_allowed_hosts,
            Duration::from_secs(config.metadata_timeout_secs.max(1)),
        );
        Self { state, guard }
    }

    /// The metadata at `token_uri`, its image checked and in the file store.
    pub async fn read(&self, token_uri: &str) -> Result<Erc721, Failure> {
        let token_uri = token_uri.trim();
        if token_uri.is_empty() {
            return Err(Failure::final_("the token has no URI"));
        }
        let max = self.state.config.metadata_max_bytes;
        let bytes = if let Some(cid) = ipfs_cid(token_uri) {
            self.read_stored("metadata", &cid?, max).await?
        } else if is_web(token_uri) {
            self.guard.get(token_uri, "application/json", max).await.map_err(|e| Failure::fetch("metadata", &e))?
        } else {
            return Err(Failure::final_(format!("metadata: {} URIs are not read (ipfs:// or https:// only)", scheme(token_uri))));
        };
        let mut metadata = domain::metadata::parse(&bytes).map_err(|problem| Failure::final_(format!("metadata: {problem}")))?;
        metadata.image = self.image(&metadata.image).await?;
        Ok(metadata)
    }

    /// The image as this server serves it (`/ipfs/<cid>`), checked by content; empty stays empty.
    async fn image(&self, image: &str) -> Result<String, Failure> {
        if image.is_empty() {
            return Ok(String::new());
        }
        let max = self.state.config.max_nft_file_bytes;
        if let Some(cid) = ipfs_cid(image) {
            let cid = cid?;
            let bytes = self.read_stored("image", &cid, max).await?;
            check_image(&bytes)?;
            return Ok(format!("/ipfs/{cid}"));
        }
        if !is_web(image) {
            return Err(Failure::final_(format!("image: {} URLs are not shown (ipfs:// or https:// only)", scheme(image))));
        }
        let bytes = self.guard.get(image, "image/*", max).await.map_err(|e| Failure::fetch("image", &e))?;
        check_image(&bytes)?;
        let stored = files::store_upload(&self.state.files, &self.state.renditions, bytes)
            .await
            .map_err(|e| Failure { reason: format!("image: could not be stored: {e}"), transient: true })?;
        Ok(stored.url())
    }

    /// The file `cid` from the store, at most `max` bytes.
    async fn read_stored(&self, what: &str, cid: &str, max: usize) -> Result<Vec<u8>, Failure> {
        match self.state.files.get(cid).await {
            Ok(Some(bytes)) if bytes.len() > max => Err(Failure::final_(format!("{what}: larger than {max} bytes"))),
            Ok(Some(bytes)) => Ok(bytes),
            Ok(None) => Err(Failure { reason: format!("{what}: ipfs://{cid} is not in the file store"), transient: true }),
            Err(err) => Err(Failure { reason: format!("{what}: the file store failed: {err}"), transient: true }),
        }
    }

    /// What reading `due`'s URI at `now` came to, as the event to append.
    pub async fn outcome(&self, due: &Due, now: DateTime<Utc>) -> MetadataEvent {
        let attempt = u32::try_from(due.attempts).unwrap_or(u32::MAX - 1).saturating_add(1);
        let (chain_id, token_id, token_uri) = (due.chain_id, due.token_id.clone(), due.token_uri.clone());
        match self.read(&due.token_uri).await {
            Ok(Erc721 { name, description, image, properties }) => MetadataEvent::TokenMetadataFetched {
                chain_id,
                token_id,
                token_uri,
                title: name,
                description,
                image,
                properties,
                attempt,
                at: now,
            },
            Err(Failure { reason, transient }) => {
                let retry = transient && attempt < MAX_ATTEMPTS;
                let reason = if transient && !retry { format!("{reason} (gave up after {attempt} attempts)") } else { reason };
                let retry_at = retry.then(|| now + retry_delay(attempt));
                MetadataEvent::TokenMetadataFailed { chain_id, token_id, token_uri, reason, attempt, retry_at, at: now }
            }
        }
    }

    /// Reads `due`'s URI at `now` and appends what came of it: the position.
    pub async fn attempt(&self, due: &Due, now: DateTime<Utc>) -> Result<Position, domain::StoreError> {
        self.outcome(due, now).await.record(self.state.store.as_ref(), actor()).await
    }

    /// One look: every due token read, `concurrency` at a time, and what came of them appended
    /// in one write; new tokens only once `METADATA_DELAY_SECS` passed since `seen` first met
    /// them. The number of tokens read.
    pub async fn run_once(&self, seen: &mut HashMap<String, Instant>) -> anyhow::Result<usize> {
        let now = Utc::now();
        let delay = Duration::from_secs(self.state.config.metadata_delay_secs);
        let due = queries::due(&self.state.read, now.timestamp(), BATCH).await?;
        let ready: Vec<Due> = due
            .into_iter()
            .filter(|d| !d.fresh || delay.is_zero() || seen.entry(d.nft_id.clone()).or_insert_with(Instant::now).elapsed() >= delay)
            .collect();
        if ready.is_empty() {
            return Ok(0);
        }
        let concurrency = self.state.config.metadata_concurrency.max(1);
        let outcomes = ready.iter().cloned().map(|due| {
            let fetcher = self.clone();
            async move { fetcher.outcome(&due, now).await }
        });
        let events: Vec<MetadataEvent> = futures::stream::iter(outcomes).buffer_unordered(concurrency).collect().await;
        let appends = events.iter().map(|event| event.to_append(actor())).collect::<Result<Vec<_>, _>>()?;
        let position = self.state.store.append_streams(appends).await?.last_position;
        for d in &ready {
            seen.remove(&d.nft_id);
        }
        // The next look must not meet these as still due.
        self.state.projected(position).await;
        Ok(ready.len())
    }
}

/// Who the fetcher's events name as their cause.
fn actor() -> Metadata {
    Metadata { actor: Some("metadata".into()), ..Metadata::default() }
}

/// Starts the fetcher for as long as the process runs (when `METADATA_FETCH` is on); on a
/// Postgres deployment only the elected process reads.
pub fn spawn(state: AppState) {
    if !state.config.metadata_fetch {
        return;
    }
    tokio::spawn(async move {
        let fetcher = Fetcher::new(state.clone());
        let mut seen = HashMap::new();
        loop {
            if state.leading.as_ref().is_none_or(|leading| *leading.borrow())
                && let Err(err) = fetcher.run_once(&mut seen).await
            {
                tracing::warn!(%err, "the metadata fetcher could not look");
            }
            tokio::time::sleep(POLL).await;
        }
    });
}

/// The CID of an `ipfs://<cid>` (or `ipfs://ipfs/<cid>`) URI; `None` for other schemes.
fn ipfs_cid(uri: &str) -> Option<Result<String, Failure>> {
    let rest = uri.strip_prefix("ipfs://")?;
    let rest = rest.strip_prefix("ipfs/").unwrap_or(rest);
    Some(if rest.is_empty() || rest.contains(['/', '?', '#']) {
        Err(Failure::final_(format!("{uri}: only a file's own CID is read, not a path inside a directory")))
    } else if !files::cid::is_cid_v1(rest) {
        Err(Failure::final_(format!("{uri}: not a CIDv1 the file store could hold")))
    } else {
        Ok(rest.to_owned())
    })
}

fn is_web(uri: &str) -> bool {
    let lower = uri.get(..8).unwrap_or(uri).to_ascii_lowercase();
    lower.starts_with("https://") || lower.starts_with("http://")
}

/// The scheme of `uri`, for messages.
fn scheme(uri: &str) -> String {
    match uri.split_once(':') {
        Some((scheme, _)) if !scheme.is_empty() && scheme.len() <= 20 => format!("{}:", scheme.to_ascii_lowercase()),
        _ => "relative".into(),
    }
}

/// The upload rule: an image by content, an SVG only without scripts or external references.
fn check_image(bytes: &[u8]) -> Result<(), Failure> {
    match files::image_type(bytes) {
        None => Err(Failure::final_("image: not an image by its content (PNG, JPEG, GIF, WebP or SVG)")),
        Some("image/svg+xml") => match files::svg::problem(bytes) {
            Some(problem) => Err(Failure::final_(format!("image: this SVG is not shown: {problem}"))),
            None => Ok(()),
        },
        Some(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_back_off_fourfold() {
        let delays: Vec<u64> = (1..MAX_ATTEMPTS).map(|a| retry_delay(a).as_secs()).collect();
        assert_eq!(delays, [30, 120, 480, 1920]);
    }

    #[test]
    fn ipfs_uris_name_one_file() {
        let cid = files::cid::cid_v1(b"x");
        assert_eq!(ipfs_cid(&format!("ipfs://{cid}")), Some(Ok(cid.clone())));
        assert_eq!(ipfs_cid(&format!("ipfs://ipfs/{cid}")), Some(Ok(cid.clone())));
        assert!(matches!(ipfs_cid(&format!("ipfs://{cid}/1.json")), Some(Err(Failure { transient: false, .. }))));
        assert!(matches!(ipfs_cid("ipfs://QmNotV1"), Some(Err(_))));
        assert_eq!(ipfs_cid("https://example.com/1.json"), None);
        assert_eq!(scheme("data:application/json;base64,e30="), "data:");
        assert_eq!(scheme("/ipfs/x"), "relative");
    }
}
