//! New heads over WebSocket: blocks are indexed as they are mined, a dropped subscription falls
//! back to polling and is renewed, and a node without WebSocket is followed by polling.

use std::{
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use alloy::primitives::U256;
use domain::chain::ChainEvent;
use indexer::{
    IndexerHandle, Progress,
    test_utils::{TestChain, mint_call, read_log, sqlite_store},
    ws_url_for,
};
use tokio::{
    net::{TcpListener, TcpStream},
    task::{AbortHandle, JoinHandle},
};

use crate::{
    helpers::{init_tracing, origin, spawn},
    proxy::Proxy,
};

/// Waits at most `within` for progress to satisfy `condition`.
async fn reached(handle: &IndexerHandle, within: Duration, condition: impl FnMut(&Progress) -> bool) -> bool {
    let mut progress = handle.subscribe();
    tokio::time::timeout(within, async { progress.wait_for(condition).await.is_ok() }).await.unwrap_or(false)
}

/// Waits at most `within` for block `block` to be indexed.
async fn indexed(handle: &IndexerHandle, block: u64, within: Duration) -> bool {
    reached(handle, within, |p| p.indexed_through >= block).await
}

#[tokio::test]
async fn a_block_is_indexed_as_it_is_mined_through_the_subscription() {
    init_tracing();
    // Arrange: a follower that would poll by itself only every minute, subscribed to new heads
    // on anvil's own port.
    let chain = TestChain::start().await;
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite_store(&dir, "events.db").await;
    let mut config = chain.indexer_config();
    assert_eq!(config.ws_url, ws_url_for(&chain.url));
    config.poll_interval = Duration::from_secs(60);
    let running = spawn(config, store.clone()).await;
    let (head, _) = chain.latest().await;
    assert!(indexed(&running.handle, head, Duration::from_secs(10)).await, "the first poll indexes the chain");
    assert!(reached(&running.handle, Duration::from_secs(10), |p| p.heads_live).await, "the subscription goes live");

    // Act: mint, without asking the indexer for anything.
    let receipt = chain.transact(chain.accounts[1], mint_call("ipfs://pushed", 1, &[], 0, U256::ZERO, U256::from(5)), U256::ZERO).await;
    let block = receipt.block_number.unwrap();
    let mined = Instant::now();

    // Assert: indexed well within a second, through the pushed head.
    assert!(indexed(&running.handle, block, Duration::from_secs(1)).await, "block {block} not indexed within a second of being mined");
    tracing::info!(ms = mined.elapsed().as_millis() as u64, "indexed after");
    let log = read_log(&*store).await;
    assert!(
        log.iter().any(|e| matches!(e.payload::<ChainEvent>().ok().as_ref().and_then(origin), Some(o) if o.block_number == block)),
        "the mint is in the log"
    );
    let metrics = running.handle.metrics();
    assert!(metrics.heads_live);
    assert!(metrics.heads_received >= 1);
    assert_eq!(metrics.head_subscriptions, 1);
    assert!(metrics.render_prometheus().contains("marketplace_indexer_heads_subscribed 1\n"));
    let handle = running.handle.clone();
    running.stop().await.unwrap();
    assert!(!handle.progress().heads_live, "a stopped indexer has no subscription");
}

#[tokio::test]
async fn a_dropped_subscription_falls_back_to_polling_and_is_renewed() {
    init_tracing();
    // Arrange: the subscription goes through a relay that can be cut; HTTP goes straight to
    // anvil. While the subscription is live the poll is a minute apart, so a block indexed at
    // once was pushed; without it the follower polls every 100 ms.
    let chain = TestChain::start().await;
    let relay = Relay::start(&chain.url).await;
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite_store(&dir, "events.db").await;
    let mut config = chain.indexer_config();
    config.ws_url = Some(relay.url.clone());
    config.poll_interval = Duration::from_millis(100);
    config.subscribed_poll_interval = Duration::from_secs(60);
    let running = spawn(config, store).await;
    let handle = &running.handle;
    assert!(reached(handle, Duration::from_secs(10), |p| p.heads_live).await, "the subscription goes live");
    chain.mine().await;
    let (head, _) = chain.latest().await;
    assert!(indexed(handle, head, Duration::from_secs(1)).await, "a pushed head is indexed at once");

    // Act 1: cut the subscription's connection (and refuse new ones).
    relay.cut();

    // Assert 1: it is seen down, and blocks are still indexed, by polling.
    assert!(reached(handle, Duration::from_secs(5), |p| !p.heads_live).await, "the dropped subscription is noticed");
    chain.mine().await;
    assert!(indexed(handle, head + 1, Duration::from_secs(2)).await, "polling indexes while the subscription is down");
    assert!(!handle.progress().heads_live);
    assert_eq!(handle.metrics().head_subscriptions, 1);

    // Act 2: the connection is possible again.
    relay.restore();

    // Assert 2: the subscription is renewed and pushes heads again.
    assert!(reached(handle, Duration::from_secs(5), |p| p.heads_live).await, "the subscription is renewed");
    assert_eq!(handle.metrics().head_subscriptions, 2);
    let received = handle.metrics().heads_received;
    chain.mine().await;
    assert!(indexed(handle, head + 2, Duration::from_secs(1)).await, "a pushed head is indexed at once after the renewal");
    assert!(handle.metrics().heads_received > received);
    running.stop().await.unwrap();
}

#[tokio::test]
async fn a_node_without_websocket_is_followed_by_polling() {
    init_tracing();
    // Arrange: an HTTP-only JSON-RPC endpoint (a WebSocket handshake gets a plain JSON answer),
    // with the WebSocket URL derived from it as by default.
    let chain = TestChain::start().await;
    let proxy = Proxy::start(&chain.url, usize::MAX, Duration::ZERO).await;
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite_store(&dir, "events.db").await;
    let mut config = chain.indexer_config();
    config.rpc_url = proxy.url.clone();
    config.ws_url = ws_url_for(&proxy.url);
    config.poll_interval = Duration::from_millis(100);
    let running = spawn(config, store).await;

    // Act: blocks come.
    chain.mine().await;
    let (head, _) = chain.latest().await;
    let first = indexed(&running.handle, head, Duration::from_secs(5)).await;
    chain.mine().await;
    let second = indexed(&running.handle, head + 1, Duration::from_secs(2)).await;

    // Assert: indexed by polling, never subscribed.
    assert!(first && second, "polling follows the chain");
    let metrics = running.handle.metrics();
    assert!(!metrics.heads_live);
    assert_eq!((metrics.head_subscriptions, metrics.heads_received), (0, 0));
    assert!(running.handle.progress().polls_completed >= 2);
    running.stop().await.unwrap();
}

/// A TCP relay to anvil's port whose connections can be cut: `cut` closes them all and closes
/// every new one at once until `restore`.
struct Relay {
    url: String,
    cut: Arc<AtomicBool>,
    connections: Arc<Mutex<Vec<AbortHandle>>>,
    task: JoinHandle<()>,
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.task.abort();
        self.cut();
    }
}

impl Relay {
    async fn start(upstream_http: &str) -> Self {
        let upstream = upstream_http.trim_start_matches("http://").to_owned();
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("ws://{}", listener.local_addr().unwrap());
        let cut = Arc::new(AtomicBool::new(false));
        let connections: Arc<Mutex<Vec<AbortHandle>>> = Arc::default();
        let task = tokio::spawn({
            let (cut, connections) = (cut.clone(), connections.clone());
            async move {
                while let Ok((mut client, _)) = listener.accept().await {
                    if cut.load(Ordering::SeqCst) {
                        continue; // dropped: closed at once
                    }
                    let upstream = upstream.clone();
                    let relay = tokio::spawn(async move {
                        if let Ok(mut node) = TcpStream::connect(&upstream).await {
                            let _ = tokio::io::copy_bidirectional(&mut client, &mut node).await;
                        }
                    });
                    connections.lock().unwrap().push(relay.abort_handle());
                }
            }
        });
        Self { url, cut, connections, task }
    }

    fn cut(&self) {
        self.cut.store(true, Ordering::SeqCst);
        for connection in self.connections.lock().unwrap().drain(..) {
            connection.abort();
        }
    }

    fn restore(&self) {
        self.cut.store(false, Ordering::SeqCst);
    }
}
