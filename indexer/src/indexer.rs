//! The indexer: backfill, follow, checkpoints, reorgs.
//!
//! One pass indexes the blocks from the one after the last checkpoint up to `head -
//! confirmations`. A fetcher task reads them in chunks (one `eth_getLogs` each, plus the headers it
//! needs) and hands them through a bounded channel to the writer, so chunk n+1 is fetched while
//! chunk n is written.
//!
//! Blocks within `max_reorg_depth` of the head ("dense" blocks) all get a checkpoint, so each of
//! them has its hash and parent hash on record for reorg detection. Older blocks ("sparse") only
//! need one when they have events, plus the last block of every window of `max_range` blocks
//! (aligned on block numbers). One append holds one window's blocks (split at block boundaries
//! past `MAX_EVENTS_PER_APPEND` events); the last window of a pass is appended when the pass
//! ends. All of these rules depend only on the chain, never on where a previous run stopped or
//! how a range was split, so a restarted indexer writes exactly the log an uninterrupted one
//! would have.

use std::{
    collections::{BTreeMap, BTreeSet},
    future::Future,
    sync::{Arc, atomic::Ordering},
};

use alloy::{
    primitives::B256,
    providers::{DynProvider, Provider, ProviderBuilder},
    rpc::types::Log,
};
use domain::{
    EventStore, ExpectedVersion, StoreError, StreamAppend,
    chain::{ChainEvent, chain_stream},
};
use futures::{StreamExt, TryStreamExt};
use tokio::sync::{Notify, mpsc, watch};

use crate::{
    IndexerConfig, IndexerError, IndexerHandle,
    checkpoint::{LiveCheckpoints, PreparedBlock, block_append, prepare_block, record_metadata, retraction_id},
    handle::{Progress, Shared},
    heads::HeadsTask,
    metrics::Metrics,
    rpc::{BlockHeader, Rpc},
};

/// The first chunk of a pass covers at most 1/SLOW_START of the current range.
const SLOW_START: u64 = 4;
/// Chunks in flight between the fetcher and the writer.
const CHANNEL_CAPACITY: usize = 4;
/// Most events in one append; a window with more is split at block boundaries, greedily from
/// its start, which is again a function of the chain alone.
const MAX_EVENTS_PER_APPEND: usize = 4_000;

/// The last live checkpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Tip {
    number: u64,
    hash: B256,
}

/// What a pass ended with.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    /// Everything up to the target is indexed.
    Done,
    /// A block does not extend what was indexed: find the common ancestor.
    Reorg,
}

/// Blocks fetched together by one `eth_getLogs`.
#[derive(Debug)]
struct Chunk {
    /// Last block covered.
    to: u64,
    /// `to` is the last block of its window.
    closes_window: bool,
    /// The blocks to write: with events, or checkpointed anyway.
    blocks: Vec<PreparedBlock>,
}

/// The chain indexer. Build it with [`Indexer::connect`] (or [`Indexer::with_provider`]), keep an
/// [`Indexer::handle`] for the API, and spawn [`Indexer::run`].
pub struct Indexer {
    config: IndexerConfig,
    store: Arc<dyn EventStore>,
    rpc: Rpc,
    shared: Arc<Shared>,
    stream: String,
    /// Version of the chain stream (the expectation of the next append).
    version: u64,
    /// The last live checkpoint.
    tip: Option<Tip>,
    /// The next block to read.
    next: u64,
}

impl std::fmt::Debug for Indexer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Indexer")
            .field("stream", &self.stream)
            .field("version", &self.version)
            .field("tip", &self.tip)
            .field("next", &self.next)
            .finish()
    }
}

impl Indexer {
    /// Connects to `config.rpc_url` over HTTP, checks the chain id and loads the last checkpoint.
    pub async fn connect(config: IndexerConfig, store: Arc<dyn EventStore>) -> Result<Self, IndexerError> {
        config.validate()?;
        let url = config.rpc_url.parse().map_err(|e| IndexerError::Config(format!("rpc_url {:?}: {e}", config.rpc_url)))?;
        let provider = ProviderBuilder::new().connect_http(url).erased();
        Self::with_provider(config, store, provider).await
    }

    /// Like [`Indexer::connect`] with a provider built elsewhere (another transport, layers).
    pub async fn with_provider(config: IndexerConfig, store: Arc<dyn EventStore>, provider: DynProvider) -> Result<Self, IndexerError> {
        config.validate()?;
        let metrics = Arc::new(Metrics::default());
        let rpc = Rpc::new(provider, &config, metrics.clone());
        let actual = rpc.chain_id().await?;
        if actual != config.chain_id {
            return Err(IndexerError::ChainIdMismatch { expected: config.chain_id, actual });
        }
        let stream = chain_stream(config.chain_id);
        let version = store.stream_version(&stream).await?;
        let tip = LiveCheckpoints::new(&*store, &stream, version)
            .next()
            .await?
            .map(|checkpoint| parse_hash(&stream, &checkpoint.hash).map(|hash| Tip { number: checkpoint.number, hash }))
            .transpose()?;
        let next = tip.map_or(config.deployment_block, |tip| tip.number + 1);
        let progress = Progress { indexed_through: next.saturating_sub(1), ..Progress::default() };
        let shared = Arc::new(Shared { wake: Notify::new(), announced: Notify::new(), progress: watch::channel(progress).0, metrics });
        tracing::info!(chain_id = config.chain_id, contract = %config.contract_address, next, "indexer ready");
        Ok(Self { config, store, rpc, shared, stream, version, tip, next })
    }

    /// A handle for the API: `sync_to`, progress, metrics.
    pub fn handle(&self) -> IndexerHandle {
        IndexerHandle { shared: self.shared.clone(), store: self.store.clone(), timeout: self.config.sync_timeout }
    }

    /// Follows the chain until `shutdown` completes (then returns `Ok`) or an error stops it
    /// (a reorg deeper than the limit, a second indexer on the log, a store failure). An RPC that
    /// stays down is logged and tried again after `retry_max_delay`, for as long as it takes.
    /// Stopping anywhere is safe: every append is atomic and the next run resumes after the
    /// last checkpoint.
    pub async fn run(mut self, shutdown: impl Future<Output = ()> + Send) -> Result<(), IndexerError> {
        let _stopped = StopGuard(self.shared.clone());
        self.shared.progress.send_modify(|p| {
            p.running = true;
            p.stopped = None;
        });
        let result = tokio::select! {
            result = self.follow() => result,
            () = shutdown => Ok(()),
        };
        let reason = match &result {
            Ok(()) => "shut down".to_owned(),
            Err(error) => {
                tracing::error!(%error, "indexer stopped");
                error.to_string()
            }
        };
        self.shared.progress.send_modify(|p| {
            p.running = false;
            p.stopped = Some(reason);
        });
        result
    }

    /// One poll: indexes everything up to `head - confirmations` (handling reorgs on the way) and
    /// returns the last block indexed. `run` calls it in a loop; tests and the benchmark call it
    /// directly.
    pub async fn index_to_head(&mut self) -> Result<u64, IndexerError> {
        self.shared.progress.send_modify(|p| p.polls_started += 1);
        // Rereads after a block that did not fit although nothing had to be retracted: a node
        // that keeps doing that is not reorganizing, it is inconsistent.
        let mut rereads = 0;
        loop {
            let head = self.rpc.head().await?;
            self.shared.progress.send_modify(|p| p.chain_head = head);
            let target = head.saturating_sub(self.config.confirmations);
            let outcome = if self.next <= target { self.index_range(target, head).await? } else { self.check_tip().await? };
            match outcome {
                Outcome::Done => break,
                Outcome::Reorg => {
                    if self.handle_reorg().await? {
                        rereads = 0;
                    } else {
                        rereads += 1;
                        if rereads >= self.rpc.max_attempts() {
                            return Err(IndexerError::Unstable { from: self.next, to: target });
                        }
                        self.rpc.pause(rereads).await;
                    }
                }
            }
        }
        let through = self.next.saturating_sub(1);
        self.shared.progress.send_modify(|p| {
            p.indexed_through = through;
            p.polls_completed += 1;
        });
        Ok(through)
    }

    async fn follow(&mut self) -> Result<(), IndexerError> {
        // Aborted when following ends, however it ends.
        let _heads = self.config.ws_url.clone().map(|url| {
            let follow = crate::heads::follow(url, self.shared.clone(), self.config.retry_initial_delay, self.config.retry_max_delay);
            HeadsTask(tokio::spawn(follow), self.shared.clone())
        });
        loop {
            match self.index_to_head().await {
                Ok(_) => {}
                Err(error) if error.is_transient() => {
                    // Each call was already retried with backoff; keep following, slowly.
                    tracing::warn!(%error, "indexing failed; trying again");
                    self.shared.progress.send_modify(|p| p.polls_completed = p.polls_started);
                    tokio::time::sleep(self.config.retry_max_delay).await;
                }
                Err(error) => return Err(error),
            }
            // A live subscription wakes the follower on every block; the poll is then a safety
            // net and can be sparse. (A dropped subscription wakes it, so the fallback interval
            // applies again at once.)
            let interval = if self.shared.progress.borrow().heads_live {
                self.config.poll_interval.max(self.config.subscribed_poll_interval)
            } else {
                self.config.poll_interval
            };
            tokio::select! {
                () = tokio::time::sleep(interval) => {}
                () = self.shared.wake.notified() => {}
            }
        }
    }

    /// Nothing new to index: is the last checkpoint still on the chain? (A reorg to the same
    /// height, or a chain that got shorter, shows no new block.)
    async fn check_tip(&self) -> Result<Outcome, IndexerError> {
        let Some(tip) = self.tip else { return Ok(Outcome::Done) };
        match self.rpc.header(tip.number).await? {
            Some(header) if header.hash == tip.hash => Ok(Outcome::Done),
            _ => Ok(Outcome::Reorg),
        }
    }

    /// Indexes `self.next..=target` through the fetcher -> writer pipeline.
    async fn index_range(&mut self, target: u64, head: u64) -> Result<Outcome, IndexerError> {
        let dense_start = head.saturating_sub(self.config.max_reorg_depth) + 1;
        let (sender, mut chunks) = mpsc::channel(CHANNEL_CAPACITY);
        let fetcher = Fetcher {
            rpc: self.rpc.clone(),
            chain_id: self.config.chain_id,
            window: self.config.max_range,
            concurrency: self.config.header_concurrency,
            batch_size: self.config.header_batch_size,
        };
        let _fetching = AbortOnDrop(tokio::spawn(fetcher.run(self.next, target, dense_start, sender)));

        let mut writer = Writer { pending: Vec::new(), pending_events: 0, through: None, last_seen: self.tip.map(|t| (t.number, t.hash)) };
        while let Some(chunk) = chunks.recv().await {
            let chunk = chunk?;
            for block in chunk.blocks {
                if !writer.extends(&block) {
                    return Ok(Outcome::Reorg);
                }
                if writer.pending_events + block.events.len() > MAX_EVENTS_PER_APPEND && !writer.pending.is_empty() {
                    self.flush(&mut writer, None).await?;
                }
                writer.pending_events += block.events.len();
                writer.pending.push(block);
            }
            if chunk.closes_window {
                self.flush(&mut writer, Some(chunk.to)).await?;
            } else {
                writer.through = Some(chunk.to);
            }
        }
        let through = writer.through;
        self.flush(&mut writer, through).await?;
        Ok(Outcome::Done)
    }

    /// Writes the pending blocks as one append; everything through `through` (or the last
    /// pending block) is then indexed.
    async fn flush(&mut self, writer: &mut Writer, through: Option<u64>) -> Result<(), IndexerError> {
        let blocks = std::mem::take(&mut writer.pending);
        writer.pending_events = 0;
        writer.through = None;
        match through.or(blocks.last().map(|b| b.header.number)) {
            Some(through) if !blocks.is_empty() => self.write(blocks, through).await,
            Some(through) => {
                self.advance(through);
                Ok(())
            }
            None => Ok(()),
        }
    }

    /// One atomic append of consecutive blocks' events and checkpoints.
    async fn write(&mut self, blocks: Vec<PreparedBlock>, through: u64) -> Result<(), IndexerError> {
        let first = blocks.first().expect("a write has blocks").header.number;
        let last = blocks.last().expect("a write has blocks").header;
        let logs: u64 = blocks.iter().map(|b| b.logs as u64).sum();
        let writes = block_append(self.config.chain_id, &self.stream, self.version, blocks)?;
        let events: usize = writes.iter().map(|w| w.events.len()).sum();
        let outcome = self.append(writes).await?;
        self.tip = Some(Tip { number: last.number, hash: last.hash });
        let m = &self.shared.metrics;
        m.logs_indexed.fetch_add(logs, Ordering::Relaxed);
        m.events_appended.fetch_add(events as u64, Ordering::Relaxed);
        m.appends.fetch_add(1, Ordering::Relaxed);
        self.shared.progress.send_modify(|p| p.position = outcome);
        tracing::debug!(from = first, to = last.number, through, events, "blocks indexed");
        self.advance(through);
        Ok(())
    }

    /// Appends, keeping the chain stream's version; a conflict on it means a second indexer.
    async fn append(&mut self, writes: Vec<StreamAppend>) -> Result<u64, IndexerError> {
        let expected = self.version;
        let started = std::time::Instant::now();
        let appended = self.store.append_streams(writes).await;
        self.shared.metrics.append_micros.fetch_add(started.elapsed().as_micros() as u64, Ordering::Relaxed);
        match appended {
            Ok(outcome) => {
                if let Some((_, version)) = outcome.streams.iter().find(|(stream, _)| *stream == self.stream) {
                    self.version = *version;
                }
                Ok(outcome.last_position)
            }
            Err(StoreError::WrongExpectedVersion { stream_id, actual, .. }) if stream_id == self.stream => {
                Err(IndexerError::ConcurrentIndexer { stream: stream_id, expected, actual })
            }
            Err(error) => Err(error.into()),
        }
    }

    /// Everything through `through` is indexed.
    fn advance(&mut self, through: u64) {
        if through + 1 > self.next {
            self.shared.metrics.blocks_indexed.fetch_add(through + 1 - self.next, Ordering::Relaxed);
            self.next = through + 1;
        }
        self.shared.progress.send_modify(|p| p.indexed_through = through);
    }

    /// The chain no longer extends the last checkpoint: walk the live checkpoints back to the
    /// newest one still on the chain, and retract everything above it with one `BlocksRetracted`.
    /// Returns whether anything was retracted.
    async fn handle_reorg(&mut self) -> Result<bool, IndexerError> {
        let Some(old_tip) = self.tip else {
            self.next = self.config.deployment_block;
            return Ok(false);
        };
        let limit = self.config.max_reorg_depth;
        let mut checkpoints = LiveCheckpoints::new(&*self.store, &self.stream, self.version);
        let mut retracted = Vec::new();
        let mut ancestor = None;
        while let Some(checkpoint) = checkpoints.next().await? {
            let stored = parse_hash(&self.stream, &checkpoint.hash)?;
            let canonical = self.rpc.header(checkpoint.number).await?;
            if canonical.is_some_and(|header| header.hash == stored) {
                ancestor = Some(Tip { number: checkpoint.number, hash: stored });
                break;
            }
            let depth = old_tip.number - checkpoint.number + 1;
            if depth > limit {
                return Err(IndexerError::ReorgTooDeep { depth, limit });
            }
            retracted.push(checkpoint);
        }
        if retracted.is_empty() {
            // The tip is canonical: the chain changed while a range was read. Read it again.
            tracing::info!(tip = old_tip.number, "the chain moved while reading; reading again");
            self.next = old_tip.number + 1;
            return Ok(false);
        }
        let ancestor_number = ancestor.map_or(self.config.deployment_block.saturating_sub(1), |a| a.number);
        let depth = old_tip.number - ancestor_number;
        if depth > limit {
            return Err(IndexerError::ReorgTooDeep { depth, limit });
        }

        retracted.reverse();
        let mut event_ids = Vec::new();
        let mut streams: BTreeSet<String> = BTreeSet::new();
        for checkpoint in &retracted {
            event_ids.extend(checkpoint.event_ids.iter().copied());
            streams.extend(checkpoint.streams.iter().cloned());
        }
        let (from_block, to_block) = (ancestor_number + 1, old_tip.number);
        let retraction = ChainEvent::BlocksRetracted { from_block, to_block, event_ids, streams: streams.into_iter().collect() };
        let id = retraction_id(self.config.chain_id, old_tip.hash, from_block, to_block);
        let event = retraction.to_new_event(id, record_metadata())?;
        let retracted_events = retracted.iter().map(|c| c.event_ids.len() as u64).sum::<u64>();
        let position = self
            .append(vec![StreamAppend {
                stream_id: self.stream.clone(),
                expected: ExpectedVersion::Exact(self.version),
                events: vec![event],
            }])
            .await?;
        tracing::warn!(from_block, to_block, depth, retracted_events, "reorg: blocks retracted");

        self.tip = ancestor;
        self.next = from_block;
        let m = &self.shared.metrics;
        m.reorgs.fetch_add(1, Ordering::Relaxed);
        m.retracted_events.fetch_add(retracted_events, Ordering::Relaxed);
        m.events_appended.fetch_add(1, Ordering::Relaxed);
        m.appends.fetch_add(1, Ordering::Relaxed);
        self.shared.progress.send_modify(|p| {
            p.position = position;
            p.indexed_through = ancestor_number;
        });
        Ok(true)
    }
}

/// The writer's side of one pass.
struct Writer {
    /// Blocks waiting for their window to close.
    pending: Vec<PreparedBlock>,
    pending_events: usize,
    /// The block the pending ones are covered through, when their window is still open.
    through: Option<u64>,
    /// The last block accepted (pending or written): the next one must extend it.
    last_seen: Option<(u64, B256)>,
}

impl Writer {
    /// Whether `block` extends the last block accepted (when they are adjacent; non-adjacent
    /// sparse blocks cannot be compared). Accepts it if so.
    fn extends(&mut self, block: &PreparedBlock) -> bool {
        if let Some((number, hash)) = self.last_seen
            && block.header.number == number + 1
            && block.header.parent_hash != hash
        {
            tracing::info!(block = block.header.number, "parent hash differs from the last block indexed");
            return false;
        }
        self.last_seen = Some((block.header.number, block.header.hash));
        true
    }
}

/// Reads chunks ahead of the writer.
struct Fetcher {
    rpc: Rpc,
    chain_id: u64,
    window: u64,
    concurrency: usize,
    batch_size: usize,
}

impl Fetcher {
    async fn run(self, mut next: u64, target: u64, dense_start: u64, chunks: mpsc::Sender<Result<Chunk, IndexerError>>) {
        let mut streak = 0;
        // Slow start: the writer idles until the first chunk arrives, so make it a small one.
        // (Chunks never decide what is appended together; windows do.)
        let mut first = Some(self.rpc.range().div_ceil(SLOW_START));
        while next <= target {
            let window_end = (next / self.window + 1) * self.window - 1;
            let dense = next >= dense_start;
            let mut to = target.min(window_end);
            if !dense {
                to = to.min(dense_start - 1);
            }
            if let Some(first) = first.take() {
                to = to.min(next + first - 1);
            }
            let chunk = self.fetch(next, to, dense, window_end, &mut streak).await;
            let stop = chunk.is_err();
            if let Ok(chunk) = &chunk {
                next = chunk.to + 1;
            }
            if chunks.send(chunk).await.is_err() || stop {
                return;
            }
        }
    }

    /// One `eth_getLogs` from `from` (up to `to`, or less if the range shrinks) and the headers
    /// of the blocks to write, checked to fit together.
    async fn fetch(&self, from: u64, to: u64, dense: bool, window_end: u64, streak: &mut u32) -> Result<Chunk, IndexerError> {
        let mut attempt = 1;
        loop {
            let (end, logs) = self.rpc.logs(from, to, streak).await?;
            let closes_window = end == window_end;
            let mut by_block: BTreeMap<u64, Vec<Log>> = BTreeMap::new();
            let mut consistent = true;
            for log in logs {
                match log.block_number {
                    Some(number) if !log.removed && (from..=end).contains(&number) => {
                        by_block.entry(number).or_default().push(log);
                    }
                    _ => consistent = false,
                }
            }
            let mut numbers: BTreeSet<u64> = by_block.keys().copied().collect();
            if dense {
                numbers.extend(from..=end);
            } else if closes_window {
                numbers.insert(end);
            }
            let numbers: Vec<u64> = numbers.into_iter().collect();
            let groups: Vec<Vec<u64>> = numbers.chunks(self.batch_size * 2).map(<[u64]>::to_vec).collect();
            let (rpc, batch_size) = (&self.rpc, self.batch_size);
            let headers: Vec<Option<BlockHeader>> = futures::stream::iter(groups)
                .map(|group| async move { rpc.headers(&group, batch_size).await })
                .buffered(self.concurrency)
                .try_concat()
                .await?;

            let mut blocks = Vec::with_capacity(headers.len());
            let mut previous: Option<BlockHeader> = None;
            for header in headers {
                let Some(header) = header else {
                    consistent = false;
                    break;
                };
                let mut logs = by_block.remove(&header.number).unwrap_or_default();
                logs.sort_by_key(|log| log.log_index);
                let fits = logs.iter().all(|log| log.block_hash == Some(header.hash))
                    && previous.is_none_or(|p| p.number + 1 != header.number || p.hash == header.parent_hash);
                if !fits {
                    consistent = false;
                    break;
                }
                previous = Some(header);
                blocks.push(prepare_block(self.chain_id, header, &logs)?);
            }
            if consistent {
                return Ok(Chunk { to: end, closes_window, blocks });
            }
            if attempt >= self.rpc.max_attempts() {
                return Err(IndexerError::Unstable { from, to: end });
            }
            tracing::info!(from, to = end, attempt, "logs and headers disagree (the chain is moving); reading again");
            self.rpc.pause(attempt).await;
            attempt += 1;
        }
    }
}

fn parse_hash(stream: &str, value: &str) -> Result<B256, IndexerError> {
    value.parse().map_err(|e| IndexerError::CorruptCheckpoint {
        stream: stream.to_owned(),
        version: 0,
        reason: format!("bad block hash {value:?}: {e}"),
    })
}

/// Aborts the fetcher when a pass ends, however it ends.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Marks the indexer stopped if `run`'s task is dropped (aborted) rather than returning.
struct StopGuard(Arc<Shared>);

impl Drop for StopGuard {
    fn drop(&mut self) {
        self.0.progress.send_if_modified(|p| {
            if p.stopped.is_some() {
                return false;
            }
            p.running = false;
            p.stopped = Some("the indexer task was dropped".into());
            true
        });
    }
}
