//! Metadata of tokens minted elsewhere: the elected process reads each new token's URI and
//! records what it found (`domain::metadata`), so a token minted by a script gets its title,
//! image and attributes like one minted through the UI.
//!
//! - `ipfs://<cid>` is read through the file store (the local folder, or the Kubo node when
//!   configured), `https://` (and `http://` if the operator allows it) through the guarded
//!   client ([`guard`]): size and time capped, private and denied addresses refused.
//! - The document must be ERC-721 metadata ([`domain::metadata::parse`]).
//! - Its image never reaches the browser unchecked: an `ipfs://` image must be in the file store
//!   and be an image by content; an `https://` image is fetched through the same guard (at most
//!   `METADATA_MAX_IMAGE_BYTES`), must *decode* (PNG, JPEG, GIF, WebP of at most
//!   `METADATA_MAX_PIXELS` pixels, or an SVG without scripts or external references: a file that
//!   only starts like an image is refused) and is stored as a foreign image, within the
//!   operator's quota (`METADATA_FILES_QUOTA_BYTES`), so the page shows `/ipfs/<cid>` from this
//!   server. The same bytes fetched again write nothing (the store is content addressed). Any
//!   other image (`data:`, `javascript:`…) is refused.
//! - A failure that may pass (a timeout, a server error, a file not in the store yet, a full
//!   quota) is retried [`MAX_ATTEMPTS`] times with a growing delay ([`retry_delay`]); a refusal
//!   (invalid JSON, wrong types, a private address, too large, undecodable) is final at once.
//!   Either way the reason is recorded and shown on the NFT's page, where anyone may ask for a
//!   new attempt.
//! - Each token is read in its own task and its outcome appended as soon as it is known; a whole
//!   token (metadata, then image) has twice `METADATA_TIMEOUT_SECS`. At most
//!   `METADATA_CONCURRENCY` tokens are read at once, and at most `METADATA_PER_HOST` of them
//!   from one host, so a host that never answers holds a few slots, never the fetcher.
//! - Foreign images no record uses any more are removed by the elected process
//!   ([`collect_unused_images`]).
//!
//! Tokens whose creator described them through this UI are never fetched: their creator's
//! details win.

use std::{
    collections::{HashMap, HashSet, VecDeque},
    time::{Duration, Instant},
};

use axum::body::Bytes;
use chrono::{DateTime, Utc};
use domain::{
    Metadata, Position,
    metadata::{Erc721, MetadataEvent},
};
use projections::queries::metadata::{self as queries, Due};
use sqlx::Row as _;
use tokio::{
    sync::{mpsc, oneshot},
    task::{Id, JoinSet},
};

use super::Node;
use crate::{files, net::guard};

/// How often the fetcher looks for due tokens.
pub const POLL: Duration = Duration::from_secs(1);
/// Attempts before a failure that may pass is given up.
pub const MAX_ATTEMPTS: u32 = 5;
/// Tokens taken per look, and the most outcomes appended in one write.
const BATCH: i64 = 256;
/// How often the elected process collects unused foreign images.
const COLLECT_EVERY: Duration = Duration::from_secs(10 * 60);
/// How long a foreign image is kept after it was last stored even if no record names it: its
/// record is appended right after it is stored (within a token's time limit, seconds) and the
/// read tables follow within moments, so an hour leaves a record on its way ample time.
pub const COLLECT_GRACE: Duration = Duration::from_secs(60 * 60);

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
    state: Node,
    guard: guard::Guard,
}

/// An outcome to append, and where to say what came of it (the position, `None` if unchanged).
type ToWrite = (MetadataEvent, oneshot::Sender<Result<Option<Position>, String>>);

/// Tokens being read, each in its own task, and those due waiting for a slot.
struct Running {
    /// Where the tasks send their outcomes ([`Fetcher::write_as_they_come`]).
    writer: mpsc::UnboundedSender<ToWrite>,
    tasks: JoinSet<()>,
    /// Each task's token (`nft_id`) and host.
    names: HashMap<Id, (String, Option<String>)>,
    tokens: HashSet<String>,
    hosts: HashMap<String, usize>,
    waiting: VecDeque<Due>,
}

impl Running {
    /// Nothing running yet; the writer of `fetcher`'s outcomes started.
    fn new(fetcher: &Fetcher) -> Self {
        let (writer, outcomes) = mpsc::unbounded_channel();
        tokio::spawn(fetcher.clone().write_as_they_come(outcomes));
        Self {
            writer,
            tasks: JoinSet::new(),
            names: HashMap::new(),
            tokens: HashSet::new(),
            hosts: HashMap::new(),
            waiting: VecDeque::new(),
        }
    }

    /// Forgets the task `id` ended; its token.
    fn finish(&mut self, id: Id) -> Option<String> {
        let (token, host) = self.names.remove(&id)?;
        self.tokens.remove(&token);
        if let Some(host) = host
            && let Some(count) = self.hosts.get_mut(&host)
        {
            *count -= 1;
            if *count == 0 {
                self.hosts.remove(&host);
            }
        }
        Some(token)
    }

    /// Waits for the next task to end: its token.
    async fn next_done(&mut self) -> Option<String> {
        match self.tasks.join_next_with_id().await? {
            Ok((id, ())) => self.finish(id),
            Err(err) => {
                tracing::warn!(%err, "a metadata read ended abnormally");
                self.finish(err.id())
            }
        }
    }
}

impl Fetcher {
    /// The fetcher of `state`'s configuration.
    pub fn new(state: Node) -> Self {
        let config = &state.config;
        let guard = guard::Guard::new(
            config.metadata_allow_http,
            &config.metadata_allowed_hosts,
            Duration::from_secs(config.metadata_timeout_secs.max(1)),
        )
        .with_denied(&config.metadata_denied_ranges);
        Self { state, guard }
    }

    /// The time a whole token may take: its metadata, then its image.
    fn token_timeout(&self) -> Duration {
        2 * Duration::from_secs(self.state.config.metadata_timeout_secs.max(1))
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
        let config = &self.state.config;
        if let Some(cid) = ipfs_cid(image) {
            let cid = cid?;
            let bytes = self.read_stored("image", &cid, config.max_nft_file_bytes).await?;
            check_image(&bytes)?;
            return Ok(format!("/ipfs/{cid}"));
        }
        if !is_web(image) {
            return Err(Failure::final_(format!("image: {} URLs are not shown (ipfs:// or https:// only)", scheme(image))));
        }
        let bytes = self.guard.get(image, "image/*", config.metadata_max_image_bytes).await.map_err(|e| Failure::fetch("image", &e))?;
        let bytes = Bytes::from(bytes);
        self.state
            .renditions
            .check_decodes(bytes.clone(), config.metadata_max_pixels)
            .await
            .map_err(|problem| Failure::final_(format!("image: {problem}")))?;
        let (stored, written) =
            self.state.files.put_foreign(bytes.clone(), config.metadata_files_quota_bytes).await.map_err(|err| match err {
                files::FileError::QuotaFull => Failure { reason: format!("image: {err}"), transient: true },
                err => Failure { reason: format!("image: could not be stored: {err}"), transient: true },
            })?;
        if written {
            self.state.renditions.make_ahead(&stored.cid, bytes);
        }
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

    /// What reading `due`'s URI at `now` came to, as the event to append. The whole token is
    /// bounded by [`Self::token_timeout`].
    pub async fn outcome(&self, due: &Due, now: DateTime<Utc>) -> MetadataEvent {
        let attempt = u32::try_from(due.attempts).unwrap_or(u32::MAX - 1).saturating_add(1);
        let (chain_id, token_id, token_uri) = (due.chain_id, due.token_id.clone(), due.token_uri.clone());
        let limit = self.token_timeout();
        let read = tokio::time::timeout(limit, self.read(&due.token_uri)).await.unwrap_or_else(|_| {
            Err(Failure { reason: format!("no complete metadata and image within {} s", limit.as_secs()), transient: true })
        });
        match read {
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

    /// Whether `event` is what its token's last event says already (a read the read tables had
    /// not seen recorded yet, behind a lagging projection or a new leader): nothing new to say.
    async fn unchanged(&self, event: &MetadataEvent) -> Result<bool, domain::StoreError> {
        let store = self.state.store.as_ref();
        let stream = event.stream_id();
        let version = store.stream_version(&stream).await?;
        if version == 0 {
            return Ok(false);
        }
        let last = store.read_stream(&stream, version, 1).await?;
        Ok(last.first().is_some_and(|last| last.payload::<MetadataEvent>().is_ok_and(|last| same_outcome(&last, event))))
    }

    /// Appends `event` unless [`Self::unchanged`]: the position, if appended.
    async fn record(&self, event: &MetadataEvent) -> Result<Option<Position>, domain::StoreError> {
        if self.unchanged(event).await? {
            return Ok(None);
        }
        event.record(self.state.store.as_ref(), actor()).await.map(Some)
    }

    /// Appends the outcomes as they come: each as soon as the write before it is done, with
    /// those that finished meanwhile (up to [`BATCH`]) in the same write. A result never waits
    /// for another token's read, and a burst of fast reads costs few writes.
    async fn write_as_they_come(self, mut outcomes: mpsc::UnboundedReceiver<ToWrite>) {
        while let Some(first) = outcomes.recv().await {
            let mut group = vec![first];
            while group.len() < BATCH as usize
                && let Ok(next) = outcomes.try_recv()
            {
                group.push(next);
            }
            let (mut appends, mut replies) = (Vec::new(), Vec::new());
            for (event, reply) in group {
                match self.unchanged(&event).await.and_then(|same| if same { Ok(None) } else { event.to_append(actor()).map(Some) }) {
                    Ok(Some(append)) => {
                        appends.push(append);
                        replies.push(reply);
                    }
                    Ok(None) => drop(reply.send(Ok(None))),
                    Err(err) => drop(reply.send(Err(err.to_string()))),
                }
            }
            if appends.is_empty() {
                continue;
            }
            let written = self.state.store.append_streams(appends).await.map(|o| Some(o.last_position)).map_err(|e| e.to_string());
            for reply in replies {
                let _ = reply.send(written.clone());
            }
        }
    }

    /// Reads `due`'s URI at `now` and appends what came of it, unless it is what the token's
    /// last event says already: the position of the append, if any.
    pub async fn attempt(&self, due: &Due, now: DateTime<Utc>) -> Result<Option<Position>, domain::StoreError> {
        let event = self.outcome(due, now).await;
        self.record(&event).await
    }

    /// The due tokens, new ones only once `METADATA_DELAY_SECS` passed since `seen` first met
    /// them.
    async fn ready(&self, seen: &mut HashMap<String, Instant>) -> anyhow::Result<Vec<Due>> {
        let delay = Duration::from_secs(self.state.config.metadata_delay_secs);
        let due = queries::due(&self.state.read, Utc::now().timestamp(), BATCH).await?;
        Ok(due
            .into_iter()
            .filter(|d| !d.fresh || delay.is_zero() || seen.entry(d.nft_id.clone()).or_insert_with(Instant::now).elapsed() >= delay)
            .collect())
    }

    /// Starts reading the waiting tokens the limits let start, in order: a token whose host has
    /// its `METADATA_PER_HOST` reads going waits, and the next one starts instead.
    fn start(&self, running: &mut Running) {
        let total = self.state.config.metadata_concurrency.max(1);
        let per_host = self.state.config.metadata_per_host.max(1);
        let mut next = 0;
        while running.tasks.len() < total && next < running.waiting.len() {
            let host = host_of(&running.waiting[next].token_uri);
            if host.as_ref().is_some_and(|host| running.hosts.get(host).copied().unwrap_or(0) >= per_host) {
                next += 1;
                continue;
            }
            let Some(due) = running.waiting.remove(next) else { break };
            if !running.tokens.insert(due.nft_id.clone()) {
                continue;
            }
            if let Some(host) = &host {
                *running.hosts.entry(host.clone()).or_default() += 1;
            }
            let (fetcher, writer) = (self.clone(), running.writer.clone());
            let token = due.nft_id.clone();
            let task = running.tasks.spawn(async move { fetcher.read_and_record(due, writer).await });
            running.names.insert(task.id(), (token, host));
        }
    }

    /// One token: read, its outcome appended as soon as it is known, and the read tables
    /// waited for (the token stays "being read" until they no longer show it due).
    async fn read_and_record(&self, due: Due, writer: mpsc::UnboundedSender<ToWrite>) {
        let event = self.outcome(&due, Utc::now()).await;
        let (reply, written) = oneshot::channel();
        let written = match writer.send((event, reply)) {
            Ok(()) => written.await.unwrap_or_else(|_| Err("the writer stopped".into())),
            Err(_) => Err("the writer stopped".into()),
        };
        match written {
            Ok(Some(position)) => self.state.projected(position).await,
            Ok(None) => {
                if let Ok((head, _)) = self.state.store.head().await {
                    self.state.projected(head).await;
                }
            }
            Err(err) => tracing::warn!(%err, token = %due.nft_id, "could not record a token's metadata"),
        }
    }

    /// Reads every token due now, each outcome appended as it comes, and returns once all are
    /// recorded: the number of tokens read.
    pub async fn run_once(&self, seen: &mut HashMap<String, Instant>) -> anyhow::Result<usize> {
        let mut running = Running::new(self);
        running.waiting = self.ready(seen).await?.into();
        let count = running.waiting.len();
        self.start(&mut running);
        while !running.tasks.is_empty() {
            if let Some(token) = running.next_done().await {
                seen.remove(&token);
            }
            self.start(&mut running);
        }
        Ok(count)
    }

    /// Reads due tokens for as long as the process runs: looks every [`POLL`] (while this
    /// process leads) and starts what the limits allow as soon as a slot frees.
    pub async fn run(self) {
        let mut running = Running::new(&self);
        let mut seen = HashMap::new();
        let mut poll = tokio::time::interval(POLL);
        poll.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                Some(token) = running.next_done(), if !running.tasks.is_empty() => {
                    seen.remove(&token);
                }
                _ = poll.tick() => {
                    let leading = self.state.leading.as_ref().is_none_or(|leading| *leading.borrow());
                    running.waiting.clear();
                    if leading {
                        match self.ready(&mut seen).await {
                            Ok(ready) => running.waiting = ready.into_iter().filter(|d| !running.tokens.contains(&d.nft_id)).collect(),
                            Err(err) => tracing::warn!(%err, "the metadata fetcher could not look"),
                        }
                    }
                }
            }
            self.start(&mut running);
        }
    }
}

/// Whether `new` says what `last` said: the same attempt with the same result.
fn same_outcome(last: &MetadataEvent, new: &MetadataEvent) -> bool {
    use MetadataEvent::{TokenMetadataFailed as Failed, TokenMetadataFetched as Fetched};
    match (last, new) {
        (
            Fetched { token_uri, title, description, image, properties, attempt, .. },
            Fetched { token_uri: u, title: t, description: d, image: i, properties: p, attempt: a, .. },
        ) => (token_uri, title, description, image, properties, attempt) == (u, t, d, i, p, a),
        (Failed { token_uri, reason, attempt, retry_at, .. }, Failed { token_uri: u, reason: r, attempt: a, retry_at: next, .. }) => {
            (token_uri, reason, attempt, retry_at.is_some()) == (u, r, a, next.is_some())
        }
        _ => false,
    }
}

/// Who the fetcher's events name as their cause.
fn actor() -> Metadata {
    Metadata { actor: Some("metadata".into()), ..Metadata::default() }
}

/// Starts the fetcher for as long as the process runs (when `METADATA_FETCH` is on), and the
/// collector of unused foreign images; on a Postgres deployment only the elected process
/// reads and collects.
pub fn spawn(state: Node) {
    let collector = state.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(COLLECT_EVERY).await;
            if collector.leading.as_ref().is_none_or(|leading| *leading.borrow()) {
                match collect_unused_images(&collector, COLLECT_GRACE).await {
                    Ok(done) if done.files > 0 => {
                        tracing::info!(files = done.files, bytes = done.bytes, "removed foreign images no record uses");
                    }
                    Ok(_) => {}
                    Err(err) => tracing::warn!(%err, "could not collect unused foreign images"),
                }
            }
        }
    });
    if state.config.metadata_fetch {
        tokio::spawn(Fetcher::new(state).run());
    }
}

/// Removes the foreign images (stored by the fetcher) that no NFT's details, profile or
/// collection names and that were last stored more than `grace` ago
/// ([`files::FileStore::collect_foreign`]). Uploads are never candidates: an upload not yet
/// minted is named by nothing, and must stay.
pub async fn collect_unused_images(state: &Node, grace: Duration) -> anyhow::Result<files::Collected> {
    // Taken first: a file stored after it is not a candidate, whatever the tables say.
    let stored_before = Utc::now().timestamp() - i64::try_from(grace.as_secs()).unwrap_or(i64::MAX);
    // The tables must show every record written so far: a file named only by a record not
    // projected yet would look unused.
    let (head, _) = state.store.head().await?;
    state.projector.wait_for(head, Duration::from_secs(30)).await?;
    let in_use = files_in_use(&state.read).await?;
    Ok(state.files.collect_foreign(&in_use, stored_before, &state.renditions).await?)
}

/// Every CID the read tables name: NFTs' images and metadata, avatars, covers, collections.
async fn files_in_use(read: &projections::ReadDb) -> anyhow::Result<HashSet<String>> {
    let rows = sqlx::query(
        "SELECT file FROM nft_details UNION SELECT metadata_url FROM nft_details \
         UNION SELECT avatar FROM users WHERE avatar IS NOT NULL UNION SELECT cover_image FROM users WHERE cover_image IS NOT NULL \
         UNION SELECT image FROM collections",
    )
    .fetch_all(&read.pool())
    .await?;
    let mut in_use = HashSet::new();
    for row in rows {
        let named: Option<String> = row.try_get(0)?;
        if let Some(cid) = named.as_deref().and_then(cid_named) {
            in_use.insert(cid.to_owned());
        }
    }
    Ok(in_use)
}

/// The CID a stored reference names: `<cid>`, `/ipfs/<cid>`, `ipfs://<cid>`, with or without
/// a query.
fn cid_named(text: &str) -> Option<&str> {
    let text = text.trim();
    let rest = match text.rsplit_once("/ipfs/") {
        Some((_, rest)) => rest,
        None => text.strip_prefix("ipfs://").unwrap_or(text),
    };
    let cid = rest.split(['/', '?', '#']).next()?;
    files::cid::is_cid_v1(cid).then_some(cid)
}

/// The host (`host:port`) a web URI is read from, for the per-host limit; `None` for others
/// (`ipfs://` is the file store, and anything else fails at once).
fn host_of(uri: &str) -> Option<String> {
    if !is_web(uri.trim()) {
        return None;
    }
    let url = reqwest::Url::parse(uri.trim()).ok()?;
    Some(format!("{}:{}", url.host_str()?.to_ascii_lowercase(), url.port_or_known_default()?))
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

    #[test]
    fn references_name_their_cid_and_hosts_their_port() {
        let cid = files::cid::cid_v1(b"x");
        for named in
            [cid.clone(), format!("/ipfs/{cid}"), format!("ipfs://{cid}"), format!("/ipfs/{cid}?w=480"), format!("ipfs://ipfs/{cid}")]
        {
            assert_eq!(cid_named(&named), Some(cid.as_str()), "{named}");
        }
        assert_eq!(cid_named(""), None);
        assert_eq!(cid_named("/ipfs/bafy"), None);
        assert_eq!(host_of("https://Example.com/1.json").as_deref(), Some("example.com:443"));
        assert_eq!(host_of("http://127.0.0.1:9000/1.json").as_deref(), Some("127.0.0.1:9000"));
        assert_eq!(host_of(&format!("ipfs://{cid}")), None);
    }
}
