//! The RPC calls the indexer makes, with retries and the adaptive `eth_getLogs` range.

use std::{
    future::Future,
    sync::{Arc, atomic::Ordering},
    time::Duration,
};

use alloy::{
    eips::BlockNumberOrTag,
    primitives::{Address, B256},
    providers::{DynProvider, Provider},
    rpc::types::{Filter, Log},
    transports::TransportError,
};

use crate::{IndexerConfig, IndexerError, metrics::Metrics};

/// What the indexer keeps of a block header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BlockHeader {
    pub number: u64,
    pub hash: B256,
    pub parent_hash: B256,
    pub time: u64,
}

impl From<&alloy::rpc::types::Header> for BlockHeader {
    fn from(header: &alloy::rpc::types::Header) -> Self {
        Self { number: header.number, hash: header.hash, parent_hash: header.parent_hash, time: header.timestamp }
    }
}

/// Failed header batches in a row after which the indexer stops trying batches.
const BATCH_FAILURES_TOLERATED: u32 = 3;

/// Substrings of the errors providers answer when an `eth_getLogs` result or range is too large
/// (geth, Erigon, Nethermind, Infura, Alchemy, QuickNode, Ankr, BlastAPI, public endpoints...).
/// Lower case; matched against the whole error text, so HTTP error bodies count too.
const TOO_LARGE: &[&str] = &[
    "query returned more than",
    "too many results",
    "too many logs",
    "response size exceeded",
    "response size should not",
    "response is too big",
    "response too large",
    "payload too large",
    "exceed maximum block range",
    "exceeds max block range",
    "exceeds the range",
    "block range is too wide",
    "block range too large",
    "block range is too large",
    "range too large",
    "range is too large",
    "max results",
    "query timeout exceeded",
    "logs over more than",
    "try with this block range",
    "this block range should work",
];

/// Whether an `eth_getLogs` error says the range should shrink.
pub(crate) fn is_range_too_large(message: &str) -> bool {
    let message = message.to_ascii_lowercase();
    TOO_LARGE.iter().any(|needle| message.contains(needle))
}

/// The range a provider suggests in its error ("... Try with this block range [0x1, 0x2f].").
pub(crate) fn suggested_range(message: &str) -> Option<(u64, u64)> {
    let open = message.find('[')?;
    let close = open + message[open..].find(']')?;
    let (from, to) = message[open + 1..close].split_once(',')?;
    let parse = |s: &str| {
        let s = s.trim().trim_matches('"');
        let hex = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"))?;
        u64::from_str_radix(hex, 16).ok()
    };
    let (from, to) = (parse(from)?, parse(to)?);
    (from <= to).then_some((from, to))
}

/// The longest wait a node's `Retry-After` is honoured for: past it the node is waited for this
/// long, then asked again (a misconfigured node cannot stall the indexer for hours).
const MAX_SERVER_DELAY: Duration = Duration::from_secs(300);

/// The waits between attempts of one call: capped exponential backoff with "equal jitter"
/// (each wait a random point in the upper half of the step, so indexers that failed together
/// do not retry together), or the node's own `Retry-After` when it gave one.
#[derive(Clone, Debug)]
pub(crate) struct Backoff {
    step: Duration,
    max: Duration,
}

impl Backoff {
    pub fn new(initial: Duration, max: Duration) -> Self {
        Self { step: initial.min(max), max }
    }

    /// The wait before the next attempt, `random` in `[0, 1)`: from half the current step to
    /// the step itself, at least what the node asked for (`Retry-After`, capped at
    /// [`MAX_SERVER_DELAY`]). The step then doubles, up to the maximum.
    pub fn next(&mut self, server: Option<Duration>, random: f64) -> Duration {
        let half = self.step / 2;
        let jittered = half + (self.step - half).mul_f64(random.clamp(0.0, 1.0));
        self.step = (self.step * 2).min(self.max);
        match server {
            Some(asked) => jittered.max(asked.min(MAX_SERVER_DELAY)),
            None => jittered,
        }
    }

    /// [`Backoff::next`] with a random draw.
    pub fn next_random(&mut self, server: Option<Duration>) -> Duration {
        self.next(server, fastrand::f64())
    }
}

/// How long the node asked to be left alone: the `Retry-After` of a 429 (too many requests) or
/// 503 (unavailable) answer, in seconds as alloy's HTTP transport reads it.
pub(crate) fn server_delay(error: &TransportError) -> Option<Duration> {
    let alloy::transports::RpcError::Transport(kind) = error else { return None };
    let status = kind.as_http_error()?.status;
    if status == 429 || status == 503 { kind.retry_after() } else { None }
}

/// The provider with the indexer's retry policy.
#[derive(Clone)]
pub(crate) struct Rpc {
    provider: DynProvider,
    address: Address,
    initial_delay: Duration,
    max_delay: Duration,
    max_attempts: u32,
    metrics: Arc<Metrics>,
    max_range: u64,
}

impl Rpc {
    pub fn new(provider: DynProvider, config: &IndexerConfig, metrics: Arc<Metrics>) -> Self {
        // The current range lives in the metrics, shared by every fetch, so what was learned
        // about the provider's limit survives from one pass to the next.
        metrics.range.store(config.max_range, Ordering::Relaxed);
        Self {
            provider,
            address: config.contract_address,
            initial_delay: config.retry_initial_delay,
            max_delay: config.retry_max_delay,
            max_attempts: config.max_attempts,
            metrics,
            max_range: config.max_range,
        }
    }

    /// The current adaptive range.
    pub fn range(&self) -> u64 {
        self.metrics.range.load(Ordering::Relaxed)
    }

    /// Calls `call` until it succeeds, sleeping between attempts as [`Backoff`] says.
    async fn retry<T, F, Fut>(&self, method: &'static str, mut call: F) -> Result<T, IndexerError>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, TransportError>>,
    {
        let mut backoff = Backoff::new(self.initial_delay, self.max_delay);
        let mut attempt = 1;
        loop {
            match call().await {
                Ok(value) => return Ok(value),
                Err(error) if attempt >= self.max_attempts => {
                    return Err(IndexerError::Rpc { method, attempts: attempt, message: error.to_string() });
                }
                Err(error) => {
                    let delay = backoff.next_random(server_delay(&error));
                    tracing::warn!(method, attempt, %error, retry_in_ms = delay.as_millis() as u64, "RPC call failed");
                    self.metrics.rpc_retries.fetch_add(1, Ordering::Relaxed);
                    tokio::time::sleep(delay).await;
                    attempt += 1;
                }
            }
        }
    }

    pub async fn chain_id(&self) -> Result<u64, IndexerError> {
        self.retry("eth_chainId", || async { self.provider.get_chain_id().await }).await
    }

    pub async fn head(&self) -> Result<u64, IndexerError> {
        self.retry("eth_blockNumber", || async { self.provider.get_block_number().await }).await
    }

    /// The headers of blocks `numbers`, in order, `None` past the chain's end: one JSON-RPC batch
    /// per `batch_size` blocks (fewer round trips and far less work for the node than one call
    /// each), or plain calls when `batch_size` is 1.
    pub async fn headers(&self, numbers: &[u64], batch_size: usize) -> Result<Vec<Option<BlockHeader>>, IndexerError> {
        if batch_size <= 1 || numbers.len() <= 1 {
            let mut headers = Vec::with_capacity(numbers.len());
            for &number in numbers {
                headers.push(self.header(number).await?);
            }
            return Ok(headers);
        }
        let mut headers = Vec::with_capacity(numbers.len());
        for group in numbers.chunks(batch_size) {
            if self.metrics.batch_failures.load(Ordering::Relaxed) < BATCH_FAILURES_TOLERATED {
                match self.header_batch(group).await {
                    Ok(fetched) => {
                        self.metrics.batch_failures.store(0, Ordering::Relaxed);
                        headers.extend(fetched);
                        continue;
                    }
                    Err(error) => {
                        let failures = self.metrics.batch_failures.fetch_add(1, Ordering::Relaxed) + 1;
                        if failures == BATCH_FAILURES_TOLERATED {
                            tracing::warn!(%error, "JSON-RPC batches keep failing; asking for headers one by one from now on");
                        } else {
                            tracing::debug!(%error, "header batch failed; asking one by one");
                        }
                    }
                }
            }
            for &number in group {
                headers.push(self.header(number).await?);
            }
        }
        Ok(headers)
    }

    /// One JSON-RPC batch of `eth_getBlockByNumber` calls, not retried: a failure falls back to
    /// single calls (some providers refuse batches, or cap their size).
    async fn header_batch(&self, numbers: &[u64]) -> Result<Vec<Option<BlockHeader>>, TransportError> {
        let mut batch = alloy::rpc::client::BatchRequest::new(self.provider.client());
        let waiters = numbers
            .iter()
            .map(|&number| {
                batch.add_call::<_, Option<alloy::rpc::types::Block>>("eth_getBlockByNumber", &(BlockNumberOrTag::Number(number), false))
            })
            .collect::<Result<Vec<_>, _>>()?;
        batch.send().await?;
        let mut headers = Vec::with_capacity(waiters.len());
        for waiter in waiters {
            headers.push(waiter.await?.map(|block| BlockHeader::from(&block.header)));
        }
        Ok(headers)
    }

    /// The header of block `number`, `None` when the chain is shorter.
    pub async fn header(&self, number: u64) -> Result<Option<BlockHeader>, IndexerError> {
        let block = self
            .retry("eth_getBlockByNumber", || async { self.provider.get_block_by_number(BlockNumberOrTag::Number(number)).await })
            .await?;
        Ok(block.map(|block| BlockHeader::from(&block.header)))
    }

    /// The contract's logs from block `from` on, in one call of at most the current adaptive
    /// range and never past `to`. Returns the last block actually covered with the logs.
    ///
    /// A "too many results" answer shrinks the range (to the provider's suggestion if it makes
    /// one, else by half) and asks again at once; other errors are retried with backoff. Four
    /// successes in a row double the range again, up to `max_range`.
    pub async fn logs(&self, from: u64, to: u64, streak: &mut u32) -> Result<(u64, Vec<Log>), IndexerError> {
        let mut backoff = Backoff::new(self.initial_delay, self.max_delay);
        let mut attempt = 1;
        loop {
            let range = self.range().max(1);
            let end = to.min(from.saturating_add(range - 1));
            let filter = Filter::new().address(self.address).from_block(from).to_block(end);
            match self.provider.get_logs(&filter).await {
                Ok(logs) => {
                    self.metrics.rpc_calls.fetch_add(1, Ordering::Relaxed);
                    *streak += 1;
                    if *streak >= 4 && range < self.max_range {
                        let grown = (range * 2).min(self.max_range);
                        self.metrics.range.store(grown, Ordering::Relaxed);
                        tracing::debug!(range = grown, "eth_getLogs range grown");
                        *streak = 0;
                    }
                    return Ok((end, logs));
                }
                Err(error) if end > from && is_range_too_large(&error.to_string()) => {
                    let message = error.to_string();
                    let shrunk = match suggested_range(&message) {
                        Some((start, stop)) if start == from && stop < end => stop - start + 1,
                        // Half of the `end - from + 1` blocks just asked for.
                        _ => (end - from).div_ceil(2),
                    }
                    .max(1);
                    tracing::info!(from, to = end, range = shrunk, %error, "eth_getLogs range too large, shrinking");
                    self.metrics.range.store(shrunk, Ordering::Relaxed);
                    self.metrics.range_shrinks.fetch_add(1, Ordering::Relaxed);
                    *streak = 0;
                }
                Err(error) if attempt >= self.max_attempts => {
                    return Err(IndexerError::Rpc { method: "eth_getLogs", attempts: attempt, message: error.to_string() });
                }
                Err(error) => {
                    let delay = backoff.next_random(server_delay(&error));
                    tracing::warn!(from, to = end, attempt, %error, retry_in_ms = delay.as_millis() as u64, "eth_getLogs failed");
                    self.metrics.rpc_retries.fetch_add(1, Ordering::Relaxed);
                    tokio::time::sleep(delay).await;
                    attempt += 1;
                }
            }
        }
    }

    /// Sleeps before a retry after inconsistent answers: the `attempt`-th step of the backoff,
    /// jittered.
    pub async fn pause(&self, attempt: u32) {
        let step = self.initial_delay.saturating_mul(1 << attempt.min(16)).min(self.max_delay);
        let delay = Backoff::new(step, self.max_delay).next_random(None);
        tokio::time::sleep(delay).await;
    }

    pub fn max_attempts(&self) -> u32 {
        self.max_attempts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_common_too_large_messages_are_recognized() {
        for message in [
            "server returned an error response: error code -32005: query returned more than 10000 results",
            "Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range",
            "eth_getLogs block range is too large, max is 3000",
            "exceed maximum block range: 5000",
            "query exceeds max results 20000, retry with the range 1-200",
        ] {
            assert!(is_range_too_large(message), "{message}");
        }
        assert!(!is_range_too_large("connection refused"));
        assert!(!is_range_too_large("header not found"));
    }

    #[test]
    fn the_backoff_doubles_up_to_its_cap_with_jitter_in_the_upper_half_of_each_step() {
        let ms = Duration::from_millis;
        // The extremes of the jitter: half the step, the whole step.
        let mut low = Backoff::new(ms(100), ms(1_000));
        let lows: Vec<Duration> = (0..6).map(|_| low.next(None, 0.0)).collect();
        assert_eq!(lows, [ms(50), ms(100), ms(200), ms(400), ms(500), ms(500)]);
        let mut high = Backoff::new(ms(100), ms(1_000));
        let highs: Vec<Duration> = (0..6).map(|_| high.next(None, 1.0)).collect();
        assert_eq!(highs, [ms(100), ms(200), ms(400), ms(800), ms(1_000), ms(1_000)]);
        // Random draws stay within each step's upper half and differ from one backoff to another.
        let firsts: Vec<Duration> = (0..200)
            .map(|_| {
                let mut backoff = Backoff::new(ms(100), ms(1_000));
                let first = backoff.next_random(None);
                let third = {
                    backoff.next_random(None);
                    backoff.next_random(None)
                };
                assert!((ms(200)..=ms(400)).contains(&third), "{third:?}");
                first
            })
            .collect();
        assert!(firsts.iter().all(|d| (ms(50)..=ms(100)).contains(d)));
        let distinct: std::collections::HashSet<_> = firsts.iter().collect();
        assert!(distinct.len() > 50, "jittered: {} distinct waits of 200", distinct.len());
    }

    #[test]
    fn a_retry_after_is_a_floor_capped_at_five_minutes() {
        let ms = Duration::from_millis;
        let mut backoff = Backoff::new(ms(100), ms(1_000));
        assert_eq!(backoff.next(Some(Duration::from_secs(3)), 0.5), Duration::from_secs(3), "longer than the step: honoured");
        assert_eq!(backoff.next(Some(ms(10)), 1.0), ms(200), "shorter: the backoff's own");
        assert_eq!(backoff.next(Some(Duration::from_secs(3_600)), 0.0), MAX_SERVER_DELAY);
    }

    #[test]
    fn retry_after_is_read_from_429_and_503_answers_only() {
        use alloy::transports::TransportErrorKind;
        let answer = |status, retry_after| TransportErrorKind::http_error_with_retry_after(status, "busy".into(), retry_after);
        let seconds = Some(Duration::from_secs(7));
        assert_eq!(server_delay(&answer(429, seconds)), seconds);
        assert_eq!(server_delay(&answer(503, seconds)), seconds);
        assert_eq!(server_delay(&answer(500, seconds)), None, "a 500's Retry-After is not a rate limit");
        assert_eq!(server_delay(&answer(429, None)), None);
        assert_eq!(server_delay(&TransportErrorKind::custom_str("connection refused")), None);
    }

    /// A node on loopback that answers its first call 429 with `Retry-After: 1`, then serves.
    #[tokio::test]
    async fn a_node_asking_to_retry_after_a_second_is_waited_for() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move {
            for answer in 0.. {
                let Ok((mut socket, _)) = listener.accept().await else { return };
                let mut request = vec![0; 65_536];
                let _ = socket.read(&mut request).await;
                let response = if answer == 0 {
                    "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 1\r\nContent-Length: 4\r\nConnection: close\r\n\r\nbusy".to_owned()
                } else {
                    let body = r#"{"jsonrpc":"2.0","id":0,"result":"0x13881"}"#;
                    format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                        body.len()
                    )
                };
                let _ = socket.write_all(response.as_bytes()).await;
            }
        });
        let provider = alloy::providers::ProviderBuilder::new().connect_http(url.parse().unwrap()).erased();
        let config = IndexerConfig { retry_initial_delay: Duration::from_millis(10), ..IndexerConfig::new(&url, 80001, Address::ZERO, 0) };
        let rpc = Rpc::new(provider, &config, Arc::default());
        let started = std::time::Instant::now();
        assert_eq!(rpc.chain_id().await.unwrap(), 80001);
        assert!(started.elapsed() >= Duration::from_secs(1), "waited {:?}, not the node's second", started.elapsed());
    }

    #[test]
    fn a_suggested_range_is_parsed() {
        let message = "query returned more than 10000 results. Try with this block range [0x10, 0x2F].";
        assert_eq!(suggested_range(message), Some((16, 47)));
        assert_eq!(suggested_range("no range here"), None);
        assert_eq!(suggested_range("[0x30, 0x10]"), None);
    }
}
