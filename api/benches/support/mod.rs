//! What the API benchmarks share: the server on its own runtime (as the `marketplace` binary
//! runs it), a bounded HTTP load generator on another, and latency statistics.

#![allow(dead_code)] // each benchmark uses part of it

pub mod stream;

use std::{
    net::SocketAddr,
    time::{Duration, Instant},
};

use futures::StreamExt;

/// The server's runtime: two workers, as many as the machine has cores.
/// The allocator the `marketplace` binary uses, so the server measured is the one shipped.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub fn server_runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("server runtime")
}

/// Serves `app` on a free loopback port of `runtime`, on the listener the binary uses
/// ([`api::http::listener`]: `TCP_NODELAY` on every connection).
pub fn serve(runtime: &tokio::runtime::Runtime, app: axum::Router) -> SocketAddr {
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let address = listener.local_addr().expect("address");
        tokio::spawn(async move {
            axum::serve(api::http::listener(listener), app.into_make_service_with_connect_info::<SocketAddr>()).await.expect("serve");
        });
        address
    })
}

/// A change of the market, as the indexer appends it: token `token` minted, in block `token`.
pub fn minted(token: u64) -> domain::StreamAppend {
    let origin = domain::chain::Origin {
        block_number: token,
        block_time: 1_700_000_000 + token as i64,
        tx_hash: format!("0x{token:064x}"),
        log_index: 0,
    };
    let event = domain::chain::ChainEvent::NftMinted {
        token_id: token.to_string(),
        creator: "0xa1".into(),
        token_uri: "/ipfs/m".into(),
        royalties: vec![],
        origin,
    };
    domain::StreamAppend {
        stream_id: event.stream_id(80001),
        expected: domain::ExpectedVersion::Any,
        events: vec![event.to_new_event(uuid::Uuid::now_v7(), domain::Metadata::default()).expect("an event")],
    }
}

/// A configuration as the binary parses it, over `data_dir`.
pub fn config(data_dir: &std::path::Path) -> api::config::Config {
    config_with(data_dir, &[])
}

/// [`config`] with more arguments (`["--database-url", url]`).
pub fn config_with(data_dir: &std::path::Path, args: &[&str]) -> api::config::Config {
    use clap::{Args, FromArgMatches};
    let command = api::config::Config::augment_args(clap::Command::new("bench"));
    let mut all = vec!["bench", "--data-dir", data_dir.to_str().expect("utf-8 path")];
    all.extend_from_slice(args);
    let matches = command.get_matches_from(all);
    api::config::Config::from_arg_matches(&matches).expect("config")
}

/// Latencies of one phase, sorted.
pub struct Latencies(Vec<Duration>);

impl Latencies {
    pub fn new(mut samples: Vec<Duration>) -> Self {
        samples.sort();
        Self(samples)
    }

    /// The `p`-th percentile (0..=100), in milliseconds.
    pub fn ms(&self, p: f64) -> f64 {
        let index = ((self.0.len() as f64 - 1.0) * p / 100.0).round() as usize;
        self.0[index].as_secs_f64() * 1e3
    }
}

/// What a load phase measured.
pub struct LoadResult {
    pub requests: usize,
    pub per_second: f64,
    pub latencies: Latencies,
}

/// Sends `requests` GETs over keep-alive connections, `concurrency` at a time, cycling through
/// `paths`; every answer must be 200. Bounded in count, and in time by `limit`.
pub async fn load(base: SocketAddr, paths: &[String], requests: usize, concurrency: usize, limit: Duration) -> LoadResult {
    load_as(base, paths, None, requests, concurrency, limit).await
}

/// [`load`] with a bearer token on every request (a signed-in visitor), when given.
pub async fn load_as(
    base: SocketAddr,
    paths: &[String],
    bearer: Option<&str>,
    requests: usize,
    concurrency: usize,
    limit: Duration,
) -> LoadResult {
    let client = reqwest::Client::builder().pool_max_idle_per_host(concurrency).build().expect("client");
    let urls: Vec<String> = paths.iter().map(|p| format!("http://{base}{p}")).collect();
    let started = Instant::now();
    let samples: Vec<Duration> = tokio::time::timeout(
        limit,
        futures::stream::iter(0..requests)
            .map(|i| {
                let (client, url) = (&client, &urls[i % urls.len()]);
                async move {
                    let t = Instant::now();
                    let mut request = client.get(url);
                    if let Some(token) = bearer {
                        request = request.bearer_auth(token);
                    }
                    let response = request.send().await.expect("request");
                    let status = response.status();
                    response.bytes().await.expect("body");
                    assert_eq!(status, 200, "{url}");
                    t.elapsed()
                }
            })
            .buffer_unordered(concurrency)
            .collect(),
    )
    .await
    .expect("the load phase ran over its time limit");
    let elapsed = started.elapsed();
    LoadResult { requests, per_second: requests as f64 / elapsed.as_secs_f64(), latencies: Latencies::new(samples) }
}

/// A benchmark's setting from the environment (`REQUESTS`, `CONCURRENCY`, ...), or `default`.
pub fn env(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// One workload's line: its rate, latencies and ratio to `/healthz` in the same run.
pub fn print_row(name: &str, result: &LoadResult, healthz: &LoadResult) {
    println!(
        "  {name:<28}: {:>6} requests {:>8.0} req/s  p50 {:>7.2} ms  p99 {:>7.2} ms  ratio to /healthz {:.3}",
        result.requests,
        result.per_second,
        result.latencies.ms(50.0),
        result.latencies.ms(99.0),
        result.per_second / healthz.per_second,
    );
}

/// Where a benchmark keeps its market: `BENCH_DATA_DIR` (kept, so the next run reuses it) or a
/// temporary directory, removed with the guard returned.
pub fn data_dir() -> (tempfile::TempDir, std::path::PathBuf) {
    let temporary = tempfile::tempdir().expect("a temporary directory");
    let dir = std::env::var("BENCH_DATA_DIR").map(std::path::PathBuf::from).unwrap_or_else(|_| temporary.path().to_owned());
    (temporary, dir)
}

/// Whether the log already holds a market (a kept `BENCH_DATA_DIR`, or a Postgres database
/// `DATABASE_URL` names, written by an earlier run), which the benchmark then reuses.
pub async fn holds_market(store: &dyn domain::EventStore) -> bool {
    store.head().await.expect("the log's head").0 > 0
}

/// Events per append when a market is written: one transaction per many blocks, so a market of
/// millions of events is written at the store's batched rate, not its durable-commit rate.
const MARKET_APPEND_EVENTS: usize = 5_000;

/// Appends what a fresh market holds (its categories), then the synthetic history of `nfts`
/// tokens minted and traded, many blocks per append ([`projections::test_utils::joined`]).
pub async fn write_market(store: &dyn domain::EventStore, nfts: u64) {
    use projections::test_utils::{joined, market_history};
    api::node::bootstrap::seed_categories(store).await.expect("categories");
    let started = Instant::now();
    let mut events = 0;
    for writes in joined(market_history(nfts), MARKET_APPEND_EVENTS) {
        events += writes.iter().map(|w| w.events.len()).sum::<usize>();
        store.append_streams(writes).await.expect("the market history");
    }
    let seconds = started.elapsed().as_secs_f64();
    println!("the market's {events} events appended in {seconds:.1} s ({:.0} events/s)", events as f64 / seconds);
}

/// The synthetic history's creators (`test_utils`: token `t` is created by `address(1 + t % 97)`).
pub const CREATORS: u64 = 97;

/// The user of creator `k` (1..=[`CREATORS`]), whose wallet is `address(k)`.
pub fn creator_user(k: u64) -> uuid::Uuid {
    uuid::Uuid::from_u128(0xc0_0000 + u128::from(k))
}

/// The id of the `c`-th collection of [`collections`].
pub fn collection_id(c: u64) -> uuid::Uuid {
    uuid::Uuid::from_u128(0xc011_0000_0000 + u128::from(c))
}

/// Registers the creators, then `count` collections: the `i`-th of creator `k` holds `members`
/// of the tokens `k` created (those up to `nfts`). How many memberships were written.
pub async fn collections(store: &dyn domain::EventStore, count: u64, members: u64, nfts: u64) -> usize {
    use domain::collections::{CollectionEvent, collection_stream};
    use projections::test_utils::{CHAIN_ID, address, register_user};
    let at = chrono::Utc::now();
    for k in 1..=CREATORS {
        register_user(store, creator_user(k), &format!("creator{k}"), &address(k), at).await;
    }
    let mut written = 0;
    for c in 0..count {
        let k = 1 + c % CREATORS;
        let i = c / CREATORS;
        let id = collection_id(c);
        let mut events = vec![CollectionEvent::CollectionCreated {
            collection_id: id,
            creator_user_id: creator_user(k),
            title: format!("Collection {c}"),
            image: "bafyimage".into(),
            at,
        }];
        for m in 0..members {
            let token = (k - 1) + CREATORS * (i * members + m);
            if (1..=nfts).contains(&token) {
                events.push(CollectionEvent::NftAddedToCollection { nft_id: format!("{CHAIN_ID}-{token}"), at });
                written += 1;
            }
        }
        let events = events.iter().map(|e| e.to_new_event(domain::Metadata::default()).unwrap()).collect();
        store.append(&collection_stream(id), domain::ExpectedVersion::NoStream, events).await.unwrap();
    }
    written
}
