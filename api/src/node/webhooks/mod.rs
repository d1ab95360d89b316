//! Signed webhooks: each endpoint a person registered gets the stream's changes of its topics
//! and its owner's notices of its kinds, one POST per change, in log order, at least once,
//! signed as Standard Webhooks says ([`signature`]).
//!
//! Only the elected process delivers (the only one, on SQLite). A supervisor follows the stream
//! hub and the `webhook_endpoints` read table and runs one task per endpoint: an endpoint's
//! deliveries are sequential (log order), endpoints are independent (a slow or dead receiver
//! holds only its own task), and at most `WEBHOOK_CONCURRENCY` POSTs are in flight in all.
//!
//! A change is what the stream would send for one log position: the NFTs of the endpoint's
//! topics stamped at it and the owner's notices of the chosen kinds told at it. Its
//! `webhook-id` is `msg_{position}_{endpoint}`, the same on every attempt and every process, so
//! a receiver deduplicates by it. An endpoint behind the live updates (new, retrying, restarted,
//! redelivering) reads its changes from the read tables with [`StreamHub::since`]; as the
//! stream's catch-up, an NFT that changed several times meanwhile is named once, at its latest
//! position (a change says "refetch this NFT"), while notices are kept each.
//!
//! Where each endpoint stands is durable ([`state`]): its position moves only after a 2xx, so a
//! restart or a new elected process resumes from it and loses nothing. The records go through
//! one group writer (a transaction per group of records queued together); an endpoint posts its
//! next change while its previous records await their commit, and checks their answers at the
//! end of the range. A failure (any other
//! status, a refusal, no answer within `WEBHOOK_TIMEOUT_SECS`) is retried with exponential
//! backoff and jitter; an endpoint failing for `WEBHOOK_DISABLE_AFTER_SECS` (24 h) is disabled
//! and its owner e-mailed. "Redeliver from N" moves the position back (and enables it).
//!
//! [`StreamHub::since`]: super::stream::StreamHub::since

pub mod signature;
pub mod state;

use std::{
    collections::{BTreeMap, HashMap, HashSet},
    sync::Arc,
    time::{Duration, Instant, SystemTime, UNIX_EPOCH},
};

use projections::{
    accounts::{WebhookEndpointRow, live_webhook_endpoints},
    queries::notices::NoticeView,
};
use rand::Rng;
use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderValue};
use serde::Serialize;
use tokio::{
    sync::{Notify, Semaphore, broadcast::error::RecvError, watch},
    task::JoinHandle,
};

use self::{
    signature::SecretKey,
    state::{Attempt, DeliveryState, DeliveryStore, Outcome},
};
use super::{
    Node,
    stream::{NftChange, Update},
};
use crate::{config::Config, mail, net::guard};

/// How often an idle endpoint's task reads its state again (a redelivery asked of another
/// process) and the supervisor the endpoints.
const IDLE_READ: Duration = Duration::from_secs(2);
/// How long a task waits after the tables failed it.
const RETRY_READ: Duration = Duration::from_millis(500);

/// The webhook services every process has: the delivery state, the secrets, the guarded poster.
pub struct Webhooks {
    /// Where each endpoint's deliveries stand.
    pub store: DeliveryStore,
    key: SecretKey,
    /// The guarded client deliveries and tests go through.
    pub poster: guard::Poster,
    /// Wakes this process's supervisor (a registration or redelivery here).
    wake: Notify,
    retry_base: Duration,
    retry_max: Duration,
    disable_after: Duration,
    in_flight: Arc<Semaphore>,
}

impl Webhooks {
    /// The services as `config` says (reading or creating the server secret).
    pub fn from_config(config: &Config) -> anyhow::Result<Self> {
        use anyhow::Context as _;
        let master =
            crate::config::master_secret(config.jwt_secret.as_ref(), &config.data_dir.join("jwt-secret")).context("server secret")?;
        let guard = guard::Guard::new(
            config.webhook_allow_http,
            &config.webhook_allowed_hosts,
            Duration::from_secs(config.webhook_timeout_secs.max(1)),
        )
        .with_denied(&config.metadata_denied_ranges);
        Ok(Self {
            store: DeliveryStore::new(&config.rate_limit_database_url()).context("webhook delivery tables")?,
            key: SecretKey::derive(&master),
            poster: guard::Poster::new(guard),
            wake: Notify::new(),
            retry_base: Duration::from_millis(config.webhook_retry_base_ms.max(1)),
            retry_max: Duration::from_millis(config.webhook_retry_max_ms.max(config.webhook_retry_base_ms).max(1)),
            disable_after: Duration::from_secs(config.webhook_disable_after_secs),
            in_flight: Arc::new(Semaphore::new(config.webhook_concurrency.max(1))),
        })
    }

    /// The signing secret of an endpoint with this salt.
    pub fn secret(&self, salt: &str) -> Vec<u8> {
        self.key.secret(salt)
    }

    /// Tells this process's deliveries to look again now (an endpoint registered, changed or
    /// redelivered here); other processes notice within [`IDLE_READ`].
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// The wait before attempt `failures + 1`: the base doubled per failure, capped, with up
    /// to a fifth more at random so that receivers coming back are not hit all at once.
    pub fn backoff(&self, failures: u32) -> Duration {
        let doubled = self.retry_base.saturating_mul(1u32.checked_shl(failures.saturating_sub(1).min(30)).unwrap_or(u32::MAX));
        let capped = doubled.min(self.retry_max);
        capped.mul_f64(1.0 + rand::rng().random_range(0.0..0.2))
    }

    /// POSTs `body` as message `id` to `endpoint`, signed; the attempt as the log keeps it.
    pub async fn post(&self, endpoint: &WebhookEndpointRow, id: &str, position: u64, attempt: u32, body: &[u8]) -> Attempt {
        let _permit = self.in_flight.acquire().await;
        let timestamp = unix_ms() / 1000;
        let signature = signature::sign(&self.secret(&endpoint.secret_salt), id, timestamp, body);
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        for (name, value) in [("webhook-id", id.to_owned()), ("webhook-timestamp", timestamp.to_string()), ("webhook-signature", signature)]
        {
            if let Ok(value) = HeaderValue::from_str(&value) {
                headers.insert(name, value);
            }
        }
        let at_ms = unix_ms();
        let started = Instant::now();
        let result = self.poster.post(&endpoint.url, headers, body.to_vec()).await;
        let latency_ms = started.elapsed().as_millis() as i64;
        let (status, error) = match result {
            Ok(status) => (Some(status), None),
            Err(err) => (None, Some(err.to_string())),
        };
        Attempt { position, message_id: id.to_owned(), attempt, status, error, latency_ms, at_ms }
    }

    /// Sends a test event to `endpoint` now and logs it (its state does not move; an endpoint
    /// without one starts at `head`).
    pub async fn send_test(&self, endpoint: &WebhookEndpointRow, head: u64) -> Result<Attempt, sqlx::Error> {
        let id = format!("msg_test_{}", uuid::Uuid::now_v7().simple());
        let body = serde_json::json!({ "position": 0, "nfts": [], "notices": [], "test": true }).to_string();
        let attempt = self.post(endpoint, &id, 0, 1, body.as_bytes()).await;
        self.store.ensure(&endpoint.endpoint_id, head).await?;
        self.store.record(&endpoint.endpoint_id, 0, &attempt, Outcome::Logged).await?;
        Ok(attempt)
    }
}

/// The `webhook-id` of the change at `position` for `endpoint_id`.
pub fn message_id(position: u64, endpoint_id: &str) -> String {
    format!("msg_{position}_{}", endpoint_id.replace('-', ""))
}

/// Milliseconds since the Unix epoch.
pub fn unix_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or_default()
}

/// One delivery's body: the stream's `change` for one position, as the endpoint asked for it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Change<'u> {
    position: u64,
    nfts: Vec<&'u NftChange>,
    notices: Vec<&'u NoticeView>,
}

/// What an endpoint asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Wants {
    market: bool,
    nfts: HashSet<String>,
    collections: HashSet<String>,
    owner: String,
    kinds: HashSet<String>,
}

impl Wants {
    fn of(endpoint: &WebhookEndpointRow) -> Self {
        let mut wants = Self {
            market: false,
            nfts: HashSet::new(),
            collections: HashSet::new(),
            owner: endpoint.user_id.clone(),
            kinds: endpoint.notice_kinds.iter().cloned().collect(),
        };
        for topic in &endpoint.topics {
            match topic.split_once(':') {
                None if topic == "market" => wants.market = true,
                Some(("nft", id)) => drop(wants.nfts.insert(id.to_owned())),
                Some(("collection", id)) => drop(wants.collections.insert(id.to_owned())),
                _ => {}
            }
        }
        wants
    }

    /// The changes of `update` after `after` this endpoint wants, by position, as bodies.
    fn changes(&self, update: &Update, after: u64) -> Vec<(u64, Vec<u8>)> {
        let mut by_position: BTreeMap<u64, Change<'_>> = BTreeMap::new();
        let entry = |map: &mut BTreeMap<u64, Change<'_>>, position| {
            map.entry(position).or_insert_with(|| Change { position, nfts: Vec::new(), notices: Vec::new() }).position
        };
        for change in update.nfts.iter().filter(|c| c.position > after) {
            if self.market || self.nfts.contains(&change.nft_id) || change.collections.iter().any(|id| self.collections.contains(id)) {
                entry(&mut by_position, change.position);
                if let Some(c) = by_position.get_mut(&change.position) {
                    c.nfts.push(change);
                }
            }
        }
        for (to, notice) in &update.notices {
            let position = notice.position as u64;
            if position > after && *to == self.owner && self.kinds.contains(&notice.kind) {
                entry(&mut by_position, position);
                if let Some(c) = by_position.get_mut(&position) {
                    c.notices.push(notice);
                }
            }
        }
        by_position.into_iter().filter_map(|(position, change)| serde_json::to_vec(&change).ok().map(|body| (position, body))).collect()
    }
}

/// Starts delivering, for as long as the process runs; only while it is elected.
pub fn spawn(node: Node) -> JoinHandle<()> {
    tokio::spawn(supervise(node))
}

async fn supervise(node: Node) {
    let (_, mut updates) = node.stream.subscribe();
    let (latest_tx, latest) = watch::channel::<Option<Arc<Update>>>(None);
    let mut running: HashMap<String, (WebhookEndpointRow, JoinHandle<()>)> = HashMap::new();
    let (kick_tx, kick) = watch::channel(0u64);
    loop {
        tokio::select! {
            update = updates.recv() => match update {
                Ok(update) => { latest_tx.send_replace(Some(update)); }
                Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return,
            },
            () = node.webhooks.wake.notified() => { kick_tx.send_modify(|k| *k += 1); }
            () = tokio::time::sleep(IDLE_READ) => {}
        }
        if !node.is_leading() {
            for (_, (_, task)) in running.drain() {
                task.abort();
            }
            continue;
        }
        let endpoints = match live_webhook_endpoints(&node.read).await {
            Ok(endpoints) => endpoints,
            Err(err) => {
                tracing::warn!(%err, "webhooks: reading the endpoints");
                continue;
            }
        };
        let live: HashSet<&str> = endpoints.iter().map(|e| e.endpoint_id.as_str()).collect();
        running.retain(|id, (_, task)| {
            let keep = live.contains(id.as_str()) && !task.is_finished();
            if !keep {
                task.abort();
            }
            keep
        });
        for endpoint in endpoints {
            if running.get(&endpoint.endpoint_id).is_some_and(|(known, _)| *known == endpoint) {
                continue;
            }
            if let Some((_, task)) = running.remove(&endpoint.endpoint_id) {
                task.abort();
            }
            let task = tokio::spawn(run_endpoint(node.clone(), endpoint.clone(), latest.clone(), kick.clone()));
            running.insert(endpoint.endpoint_id.clone(), (endpoint, task));
        }
    }
}

/// Delivers to one endpoint until aborted.
async fn run_endpoint(
    node: Node,
    endpoint: WebhookEndpointRow,
    mut latest: watch::Receiver<Option<Arc<Update>>>,
    mut kick: watch::Receiver<u64>,
) {
    let hooks = &node.webhooks;
    let id = endpoint.endpoint_id.clone();
    let wants = Wants::of(&endpoint);
    let mut state: Option<DeliveryState> = None;
    let mut read_at = Instant::now();
    loop {
        // The durable state: read at start, after a kick or a lost race, and now and then while
        // idle (a redelivery asked of another process).
        if state.is_none() || read_at.elapsed() >= IDLE_READ {
            let loaded = async {
                hooks.store.ensure(&id, node.stream.published()).await?;
                hooks.store.load(&id).await
            };
            match loaded.await {
                Ok(Some(loaded)) => state = Some(loaded),
                Ok(None) => return,
                Err(err) => {
                    tracing::warn!(%err, endpoint = %id, "webhooks: reading the delivery state");
                    tokio::time::sleep(RETRY_READ).await;
                    continue;
                }
            }
            read_at = Instant::now();
        }
        let Some(current) = state.clone() else { continue };
        let head = node.stream.published();
        let wait = if current.disabled_at_ms.is_some() {
            Some(IDLE_READ)
        } else if current.next_attempt_ms > unix_ms() {
            Some(Duration::from_millis((current.next_attempt_ms - unix_ms()) as u64).min(IDLE_READ))
        } else if current.acked >= head {
            Some(IDLE_READ)
        } else {
            None
        };
        if let Some(wait) = wait {
            tokio::select! {
                _ = latest.changed() => {}
                _ = kick.changed() => state = None,
                () = tokio::time::sleep(wait) => {}
            }
            continue;
        }
        // The live update when it starts where this endpoint is, else the tables.
        let shared = latest.borrow_and_update().clone().filter(|u| u.after == current.acked);
        let update = match shared {
            Some(update) => update,
            None => match node.stream.since(current.acked, head).await {
                Ok(update) => Arc::new(update),
                Err(err) => {
                    tracing::warn!(%err, endpoint = %id, "webhooks: reading the changes");
                    tokio::time::sleep(RETRY_READ).await;
                    continue;
                }
            },
        };
        let up_to = update.up_to;
        let mut now_state = current.clone();
        let mut all_done = true;
        let mut disabled = false;
        // Records sent to the group writer whose commit is not awaited yet: the next change is
        // posted meanwhile (their order is kept; a crash only delivers them again).
        let mut pending = Vec::new();
        for (position, body) in wants.changes(&update, current.acked) {
            let attempt = hooks.post(&endpoint, &message_id(position, &id), position, now_state.attempts + 1, &body).await;
            let outcome = if attempt.ok() {
                Outcome::Delivered { acked: position }
            } else {
                let failing_since_ms = now_state.failing_since_ms.unwrap_or(attempt.at_ms);
                let attempts = now_state.attempts + 1;
                if unix_ms() - failing_since_ms >= hooks.disable_after.as_millis() as i64 {
                    Outcome::Disabled { attempts, failing_since_ms, at_ms: unix_ms() }
                } else {
                    Outcome::Failed { attempts, next_attempt_ms: unix_ms() + hooks.backoff(attempts).as_millis() as i64, failing_since_ms }
                }
            };
            match hooks.store.send(&id, now_state.generation, &attempt, outcome.clone()).await {
                Ok(answer) => pending.push(answer),
                Err(err) => {
                    tracing::warn!(%err, endpoint = %id, "webhooks: recording a delivery");
                    all_done = false;
                    state = None;
                    break;
                }
            }
            match outcome {
                Outcome::Delivered { acked } => {
                    now_state.acked = acked;
                    now_state.attempts = 0;
                    now_state.failing_since_ms = None;
                    now_state.next_attempt_ms = 0;
                    continue;
                }
                Outcome::Failed { attempts, next_attempt_ms, failing_since_ms } => {
                    tracing::debug!(endpoint = %id, position, attempts, status = ?attempt.status, "webhooks: a delivery failed; retrying later");
                    now_state.attempts = attempts;
                    now_state.next_attempt_ms = next_attempt_ms;
                    now_state.failing_since_ms = Some(failing_since_ms);
                }
                Outcome::Disabled { attempts, failing_since_ms, at_ms } => {
                    tracing::warn!(endpoint = %id, attempts, "webhooks: an endpoint failed for too long and is disabled");
                    now_state.attempts = attempts;
                    now_state.failing_since_ms = Some(failing_since_ms);
                    now_state.disabled_at_ms = Some(at_ms);
                    disabled = true;
                }
                Outcome::Logged => {}
            }
            all_done = false;
            break;
        }
        // Every record of the range committed, or the state is read again.
        let mut unrecorded = state.is_none();
        for answer in pending {
            match answer.await {
                Ok(true) => {}
                // Redelivered meanwhile: start again from the new position.
                Ok(false) => state = None,
                Err(err) => {
                    tracing::warn!(%err, endpoint = %id, "webhooks: recording a delivery");
                    state = None;
                    unrecorded = true;
                }
            }
        }
        if state.is_none() {
            if unrecorded {
                tokio::time::sleep(RETRY_READ).await;
            }
            continue;
        }
        if disabled {
            tell_disabled(&node, &endpoint).await;
        }
        if all_done && now_state.acked < up_to {
            // Whatever else the range held was not for this endpoint.
            match hooks.store.advance(&id, now_state.generation, up_to).await {
                Ok(_) => now_state.acked = up_to,
                Err(err) => tracing::warn!(%err, endpoint = %id, "webhooks: moving the position"),
            }
        }
        if state.is_some() {
            state = Some(now_state);
        }
    }
}

/// E-mails an endpoint's owner that it was disabled (a failure only logs).
async fn tell_disabled(node: &Node, endpoint: &WebhookEndpointRow) {
    let email: Result<Option<String>, sqlx::Error> =
        sqlx::query_scalar("SELECT email FROM users WHERE user_id = $1").bind(&endpoint.user_id).fetch_optional(&node.read.pool()).await;
    match email {
        Ok(Some(to)) => {
            let hours = node.webhooks.disable_after.as_secs_f64() / 3600.0;
            let sentence = format!(
                "Your webhook endpoint {} failed every delivery for {hours:.0} h and was disabled. Fix it, then redeliver from the \
                 position it stopped at in Settings, Webhooks: nothing since is lost.",
                endpoint.url
            );
            let link = format!("{}/profile/webhooks", node.config.site_url());
            node.send_mail(mail::notice(&to, "A webhook endpoint was disabled", &sentence, &link)).await;
        }
        Ok(None) => {}
        Err(err) => tracing::warn!(%err, "webhooks: reading a disabled endpoint's owner"),
    }
}
