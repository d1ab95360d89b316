//! What the rest of the system holds of a running indexer: progress, metrics, and
//! [`IndexerHandle::sync_to`].

use std::{
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use domain::{EventStore, Position};
use tokio::sync::{Notify, watch};

use crate::{IndexerError, metrics::Metrics};

/// How far the indexer has got.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Every block up to this number is indexed (the deployment block minus one before any).
    pub indexed_through: u64,
    /// The chain's head at the last poll.
    pub chain_head: u64,
    /// The log position of the indexer's last append in this process (0 before any).
    pub position: Position,
    /// Polls begun (a poll reads the head, indexes up to it, or checks the tip is still canonical).
    pub polls_started: u64,
    /// Polls finished.
    pub polls_completed: u64,
    /// Whether [`crate::Indexer::run`] is running.
    pub running: bool,
    /// Why it stopped, once it has.
    pub stopped: Option<String>,
    /// Whether a newHeads subscription is live (new blocks are indexed as they arrive; without
    /// one, at the next poll).
    pub heads_live: bool,
}

/// A snapshot of the indexer's counters, for `/metrics`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IndexerMetrics {
    /// Blocks processed since the process started (with or without logs).
    pub blocks_indexed: u64,
    /// Contract logs processed.
    pub logs_indexed: u64,
    /// Chain events appended (checkpoints and retractions included).
    pub events_appended: u64,
    /// Appends made.
    pub appends: u64,
    /// Time spent in those appends, in microseconds.
    pub append_micros: u64,
    /// Reorgs compensated.
    pub reorgs: u64,
    /// Events named by those compensations.
    pub retracted_events: u64,
    /// Successful `eth_getLogs` calls.
    pub get_logs_calls: u64,
    /// RPC calls retried after an error.
    pub rpc_retries: u64,
    /// Times the `eth_getLogs` range was shrunk after a "too many results" answer.
    pub range_shrinks: u64,
    /// The current `eth_getLogs` range in blocks.
    pub range: u64,
    /// The last block indexed.
    pub last_block: u64,
    /// The chain's head at the last poll.
    pub chain_head: u64,
    /// Blocks the indexer is behind the head.
    pub lag_blocks: u64,
    /// Whether a newHeads subscription is live.
    pub heads_live: bool,
    /// New heads the node pushed over the subscription.
    pub heads_received: u64,
    /// newHeads subscriptions made (the first, then each renewal).
    pub head_subscriptions: u64,
}

impl IndexerMetrics {
    /// The counters in the Prometheus text format, each named `marketplace_indexer_*`.
    pub fn render_prometheus(&self) -> String {
        let rows: [(&str, &str, &str, u64); 17] = [
            ("blocks_indexed_total", "counter", "Blocks processed since start.", self.blocks_indexed),
            ("logs_indexed_total", "counter", "Contract logs processed since start.", self.logs_indexed),
            ("events_appended_total", "counter", "Chain events appended since start.", self.events_appended),
            ("appends_total", "counter", "Appends made since start.", self.appends),
            ("append_microseconds_total", "counter", "Time spent appending since start.", self.append_micros),
            ("reorgs_total", "counter", "Reorgs compensated since start.", self.reorgs),
            ("retracted_events_total", "counter", "Events retracted by reorgs since start.", self.retracted_events),
            ("get_logs_calls_total", "counter", "Successful eth_getLogs calls.", self.get_logs_calls),
            ("rpc_retries_total", "counter", "RPC calls retried after an error.", self.rpc_retries),
            ("range_shrinks_total", "counter", "eth_getLogs ranges shrunk after a too-many-results answer.", self.range_shrinks),
            ("get_logs_range_blocks", "gauge", "Current eth_getLogs range in blocks.", self.range),
            ("last_block", "gauge", "Last block indexed.", self.last_block),
            ("chain_head", "gauge", "Chain head at the last poll.", self.chain_head),
            ("lag_blocks", "gauge", "Blocks between the head and the last block indexed.", self.lag_blocks),
            ("heads_subscribed", "gauge", "1 while a newHeads subscription is live, else 0 (polling only).", u64::from(self.heads_live)),
            ("heads_received_total", "counter", "New heads pushed by the node since start.", self.heads_received),
            (
                "head_subscriptions_total",
                "counter",
                "newHeads subscriptions made since start (renewals included).",
                self.head_subscriptions,
            ),
        ];
        let mut text = String::new();
        for (name, kind, help, value) in rows {
            text.push_str(&format!(
                "# HELP marketplace_indexer_{name} {help}\n# TYPE marketplace_indexer_{name} {kind}\nmarketplace_indexer_{name} {value}\n"
            ));
        }
        text
    }
}

/// State shared by the indexer and its handles.
#[derive(Debug)]
pub(crate) struct Shared {
    pub wake: Notify,
    /// A following handle's "read the checkpoints now" (the indexing process announced
    /// progress); unused by an indexer of this process.
    pub announced: Notify,
    pub progress: watch::Sender<Progress>,
    pub metrics: Arc<Metrics>,
}

/// A cloneable handle on an [`crate::Indexer`], for the API.
#[derive(Clone)]
pub struct IndexerHandle {
    pub(crate) shared: Arc<Shared>,
    pub(crate) store: Arc<dyn EventStore>,
    pub(crate) timeout: Duration,
}

impl std::fmt::Debug for IndexerHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IndexerHandle").field("progress", &self.progress()).finish()
    }
}

impl IndexerHandle {
    /// "Index up to block `block` now and tell me the log position after it."
    ///
    /// Wakes the follower, waits (at most the configured `sync_timeout`) for a poll that began
    /// after this call and left every block through `block` indexed, and returns the store's head
    /// position then: once the projector has passed it, the block's facts are visible. A poll that
    /// began after the call also re-checks the tip, so a block replaced by a same-height reorg is
    /// seen in its canonical form.
    pub async fn sync_to(&self, block: u64) -> Result<Position, IndexerError> {
        let mut progress = self.shared.progress.subscribe();
        let since = progress.borrow().polls_started;
        self.shared.wake.notify_one();
        // The guard `wait_for` returns must not live across an await (it is not Send): clone.
        let waited = tokio::time::timeout(self.timeout, async {
            progress
                .wait_for(|p| p.stopped.is_some() || (p.polls_completed > since && p.indexed_through >= block))
                .await
                .map(|reached| reached.clone())
        })
        .await;
        let reached = match waited {
            Err(_) => {
                return Err(IndexerError::SyncTimeout {
                    block,
                    indexed_through: self.progress().indexed_through,
                    timeout_ms: self.timeout.as_millis() as u64,
                });
            }
            Ok(Err(_)) => return Err(IndexerError::Stopped("the indexer was dropped".into())),
            Ok(Ok(reached)) => reached,
        };
        if let Some(reason) = reached.stopped {
            return Err(IndexerError::Stopped(reason));
        }
        Ok(self.store.head().await?.0)
    }

    /// A handle on an indexer running in *another process* on the same log (several servers on
    /// one Postgres database, one of them elected to index): [`IndexerHandle::sync_to`] waits
    /// for the log to hold block `n`'s checkpoint. The returned [`IndexerFollower`] reads the
    /// chain stream's last live checkpoint every `poll`, at once when the indexing process
    /// announces progress ([`IndexerHandle::checkpoints_announced`]), and at once when woken (and
    /// then calls `wake_remote`, which should ask the indexing process to poll the chain now).
    pub fn following(
        store: Arc<dyn EventStore>,
        chain_id: u64,
        timeout: Duration,
        poll: Duration,
        wake_remote: Arc<dyn Fn() + Send + Sync>,
    ) -> (Self, IndexerFollower) {
        let shared = Arc::new(Shared {
            wake: Notify::new(),
            announced: Notify::new(),
            progress: watch::channel(Progress { running: true, ..Progress::default() }).0,
            metrics: Arc::default(),
        });
        let follower = IndexerFollower {
            shared: shared.clone(),
            store: store.clone(),
            stream: domain::chain::chain_stream(chain_id),
            poll,
            wake_remote,
        };
        (Self { shared, store, timeout }, follower)
    }

    /// Asks the follower to poll now instead of at its next interval.
    pub fn wake(&self) {
        self.shared.wake.notify_one();
    }

    /// A following handle: the indexing process announced progress, so read the log's
    /// checkpoints now (without asking it to index, as [`IndexerHandle::wake`] does). Wake-ups
    /// during a read make one more read after it, never none.
    pub fn checkpoints_announced(&self) {
        self.shared.announced.notify_one();
    }

    /// How far the indexer has got.
    pub fn progress(&self) -> Progress {
        self.shared.progress.borrow().clone()
    }

    /// Waits for the next change of progress (for tests and status pages).
    pub fn subscribe(&self) -> watch::Receiver<Progress> {
        self.shared.progress.subscribe()
    }

    /// A snapshot of the counters.
    pub fn metrics(&self) -> IndexerMetrics {
        let m = &self.shared.metrics;
        let progress = self.progress();
        let load = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        IndexerMetrics {
            blocks_indexed: load(&m.blocks_indexed),
            logs_indexed: load(&m.logs_indexed),
            events_appended: load(&m.events_appended),
            appends: load(&m.appends),
            append_micros: load(&m.append_micros),
            reorgs: load(&m.reorgs),
            retracted_events: load(&m.retracted_events),
            get_logs_calls: load(&m.rpc_calls),
            rpc_retries: load(&m.rpc_retries),
            range_shrinks: load(&m.range_shrinks),
            range: load(&m.range),
            last_block: progress.indexed_through,
            chain_head: progress.chain_head,
            lag_blocks: progress.chain_head.saturating_sub(progress.indexed_through),
            heads_live: progress.heads_live,
            heads_received: load(&m.heads_received),
            head_subscriptions: load(&m.head_subscriptions),
        }
    }
}

/// The task behind [`IndexerHandle::following`].
pub struct IndexerFollower {
    shared: Arc<Shared>,
    store: Arc<dyn EventStore>,
    stream: String,
    poll: Duration,
    wake_remote: Arc<dyn Fn() + Send + Sync>,
}

impl IndexerFollower {
    /// Follows the log's checkpoints forever (read errors are logged and retried).
    pub async fn run(self) {
        loop {
            tokio::select! {
                () = self.shared.wake.notified() => (self.wake_remote)(),
                () = self.shared.announced.notified() => {}
                () = tokio::time::sleep(self.poll) => {}
            }
            self.shared.progress.send_modify(|p| p.polls_started += 1);
            let version = self.store.stream_version(&self.stream).await;
            let last = match version {
                Ok(version) => crate::checkpoint::LiveCheckpoints::new(self.store.as_ref(), &self.stream, version).next().await,
                Err(error) => Err(error.into()),
            };
            match last {
                Ok(last) => self.shared.progress.send_modify(|p| {
                    p.indexed_through = last.map_or(p.indexed_through, |c| c.number);
                    p.chain_head = p.chain_head.max(p.indexed_through);
                    p.polls_completed += 1;
                }),
                Err(error) => tracing::warn!(%error, "reading the indexer's checkpoints"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_render_as_prometheus_text() {
        let metrics = IndexerMetrics { last_block: 42, lag_blocks: 3, heads_live: true, ..IndexerMetrics::default() };
        let text = metrics.render_prometheus();
        assert!(text.contains("# TYPE marketplace_indexer_last_block gauge\nmarketplace_indexer_last_block 42\n"));
        assert!(text.contains("marketplace_indexer_lag_blocks 3\n"));
        assert!(text.contains("marketplace_indexer_heads_subscribed 1\n"));
        assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 17);
    }
}
