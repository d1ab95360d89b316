//! Webhook deliveries to 100 endpoints on one local receiver (each endpoint follows the market):
//!
//! - throughput: a burst of changes appended at once, deliveries per second until every endpoint
//!   acknowledged the last, beside a bare loop of HTTP POSTs in the same run (the same receiver,
//!   a client with the deliveries' settings, one sequential task per endpoint, as many in flight
//!   at once as `WEBHOOK_CONCURRENCY`), and the ratio (goal >= 0.5);
//! - latency: changes appended one at a time; from the projector's commit of each to its
//!   delivery at each endpoint's receiver (p50, p99; goal p99 < 100 ms).
//!
//! - a receiver down: one more endpoint whose receiver answers 503 for `DOWN_SECS` (600: ten
//!   minutes) while a change a second is appended, then 204 again; with the production backoff,
//!   whether it gets every change afterwards, each id once after dedupe, and how long after it
//!   came back it had caught up (`DOWN_SECS=0` skips it).
//!
//! `cargo bench -p api --bench webhooks` (ENDPOINTS=100 BURST=100 ROUNDS=30 DOWN_SECS=600;
//! bounded: every wait gives up after a minute, the catch-up after three outages).

mod support;

use std::{
    collections::HashMap,
    net::SocketAddr,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use axum::{Router, body::Bytes, extract::State, http::HeaderMap, http::StatusCode, routing::post};
use support::Latencies;
use tokio::sync::Semaphore;

/// Every wait of the benchmark gives up after this.
const LIMIT: Duration = Duration::from_secs(60);

/// What the receiver got: (endpoint, position, when) per POST.
type Got = Arc<Mutex<Vec<(String, u64, Instant)>>>;

async fn receive(State(got): State<Got>, headers: HeaderMap, _body: Bytes) -> StatusCode {
    // `msg_{position}_{endpoint}` (deliveries) or anything else (the bare loop: not recorded).
    let id = headers.get("webhook-id").and_then(|v| v.to_str().ok()).unwrap_or_default();
    let mut parts = id.splitn(3, '_');
    if let (Some("msg"), Some(position), Some(endpoint)) = (parts.next(), parts.next(), parts.next())
        && let Ok(position) = position.parse()
    {
        got.lock().unwrap().push((endpoint.to_owned(), position, Instant::now()));
    }
    StatusCode::NO_CONTENT
}

/// The receiver of the outage: 503 while `down` (counted), else as [`receive`].
async fn receive_unless_down(
    State((got, down, refused)): State<(Got, Arc<AtomicBool>, Arc<AtomicUsize>)>,
    headers: HeaderMap,
    body: Bytes,
) -> StatusCode {
    if down.load(Ordering::SeqCst) {
        refused.fetch_add(1, Ordering::SeqCst);
        return StatusCode::SERVICE_UNAVAILABLE;
    }
    receive(State(got), headers, body).await
}

/// Registers an endpoint following the market at `url` through the API; its id.
async fn register(client: &reqwest::Client, address: SocketAddr, token: &str, url: &str) -> String {
    let answer: serde_json::Value = client
        .post(format!("http://{address}/api/webhooks"))
        .bearer_auth(token)
        .json(&serde_json::json!({ "url": url, "topics": ["market"] }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    answer["body"]["endpointId"].as_str().unwrap_or_else(|| panic!("registered: {answer}")).to_owned()
}

/// A configuration as the binary parses it, with `extra` flags.
fn config(data_dir: &std::path::Path, extra: &[&str]) -> api::config::Config {
    use clap::{Args, FromArgMatches};
    let command = api::config::Config::augment_args(clap::Command::new("bench"));
    let mut args = vec!["bench", "--data-dir", data_dir.to_str().expect("utf-8 path")];
    args.extend_from_slice(extra);
    api::config::Config::from_arg_matches(&command.get_matches_from(args)).expect("config")
}

fn main() {
    let endpoints: usize = std::env::var("ENDPOINTS").ok().and_then(|v| v.parse().ok()).unwrap_or(100);
    let burst: u64 = std::env::var("BURST").ok().and_then(|v| v.parse().ok()).unwrap_or(100);
    let rounds: u64 = std::env::var("ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(30);
    let server = support::server_runtime();
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();

    // The receiver, on the load runtime.
    let got = Got::default();
    let (down, refused) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicUsize::new(0)));
    let receiver: SocketAddr = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let app = Router::new()
            .route("/hook/{n}", post(receive))
            .with_state(got.clone())
            .merge(Router::new().route("/down/{n}", post(receive_unless_down)).with_state((got.clone(), down.clone(), refused.clone())));
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        address
    });

    let dir = tempfile::tempdir().unwrap();
    let host = receiver.to_string();
    let config = config(dir.path(), &["--webhook-allow-http", "--webhook-allowed-hosts", &host]);
    let concurrency = config.webhook_concurrency;
    let timeout = Duration::from_secs(config.webhook_timeout_secs);
    let state = server.block_on(async {
        let store = api::log::open(&config).await.unwrap();
        let read = projections::ReadDb::open(&config.read_database_url()).await.unwrap();
        let projector = projections::Projector::new(store.clone(), read.clone()).await.unwrap();
        let handle = projector.handle();
        tokio::spawn(projector.run());
        api::http::AppState::new(config.clone(), store, read, handle).unwrap()
    });
    let address = support::serve(&server, api::http::app(state.clone(), dir.path()));
    let node = state.node.clone();
    // Spawned on the server's runtime (it needs one to spawn on).
    let worker = {
        let _runtime = server.enter();
        api::node::webhooks::spawn(node)
    };

    // 100 endpoints of 10 people (at most 10 each), registered through the API.
    let ids: Vec<String> = runtime.block_on(async {
        let client = reqwest::Client::new();
        let mut ids = Vec::new();
        for person in 0..endpoints.div_ceil(10) {
            let id = uuid::Uuid::now_v7();
            projections::test_utils::register_user(
                state.store.as_ref(),
                id,
                &format!("p{person}"),
                &format!("0xb{person:x}"),
                chrono::Utc::now(),
            )
            .await;
            let (head, _) = state.store.head().await.unwrap();
            state.projector.wait_for(head, LIMIT).await.unwrap();
            let token = state.accounts.tokens.issue(id).unwrap();
            for _ in 0..10.min(endpoints - ids.len()) {
                let n = ids.len();
                ids.push(register(&client, address, &token, &format!("http://{receiver}/hook/{n}")).await);
            }
        }
        ids
    });
    let simple: Vec<String> = ids.iter().map(|id| id.replace('-', "")).collect();
    std::thread::sleep(Duration::from_secs(3)); // every endpoint's task started and idle

    // Throughput: a burst of changes, until every endpoint acknowledged the log's head.
    let (delivered, burst_elapsed) = runtime.block_on(async {
        got.lock().unwrap().clear();
        // One append of `burst` new tokens (one commit: the log's own cost is not the deliveries').
        let started = Instant::now();
        state.store.append_streams((1..=burst).map(support::minted).collect()).await.unwrap();
        let (head, _) = state.store.head().await.unwrap();
        state.projector.wait_for(head, LIMIT).await.unwrap();
        println!("the burst appended and projected in {:.1} ms", started.elapsed().as_secs_f64() * 1e3);
        loop {
            let states = state.webhooks.store.load_many(&ids).await.unwrap();
            if ids.iter().all(|id| states.get(id).is_some_and(|s| s.acked >= head)) {
                break;
            }
            assert!(started.elapsed() < LIMIT, "every endpoint acknowledged the burst within {LIMIT:?}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let got = got.lock().unwrap();
        let last = got.iter().map(|(_, _, at)| *at).max().unwrap();
        (got.len(), last.duration_since(started))
    });

    // The bare loop: as many POSTs to the same receiver, one sequential task per endpoint, as
    // many in flight at once as the deliveries may, a client with their settings.
    let bare_elapsed = runtime.block_on(async {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .connect_timeout(timeout)
            .user_agent("bench")
            .build()
            .unwrap();
        let per_endpoint = delivered.div_ceil(endpoints);
        let in_flight = Arc::new(Semaphore::new(concurrency.max(1)));
        let body = br#"{"position":1,"nfts":[{"nftId":"80001-1","position":1,"collections":[]}],"notices":[]}"#;
        let started = Instant::now();
        let tasks: Vec<_> = (0..endpoints)
            .map(|n| {
                let (client, in_flight) = (client.clone(), in_flight.clone());
                tokio::spawn(async move {
                    for _ in 0..per_endpoint {
                        let _permit = in_flight.acquire().await.unwrap();
                        let status = client
                            .post(format!("http://{receiver}/hook/{n}"))
                            .header("content-type", "application/json")
                            .header("webhook-id", "bare")
                            .body(body.to_vec())
                            .timeout(timeout)
                            .send()
                            .await
                            .unwrap()
                            .status();
                        assert!(status.is_success());
                    }
                })
            })
            .collect();
        for task in tasks {
            task.await.unwrap();
        }
        (started.elapsed(), per_endpoint * endpoints)
    });

    // Latency: one change at a time, from the projector's commit to each endpoint's delivery.
    let latencies = runtime.block_on(async {
        got.lock().unwrap().clear();
        let mut commits = Vec::new();
        let mut before = state.store.head().await.unwrap().0;
        for round in 1..=rounds {
            let mut watch = state.projector.subscribe();
            let at = state.store.append_streams(vec![support::minted(burst + round)]).await.unwrap().last_position;
            watch.wait_for(|p| *p >= at).await.unwrap();
            let committed = (before, *watch.borrow(), Instant::now());
            before = committed.1;
            commits.push(committed);
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let started = Instant::now();
        loop {
            let count = got.lock().unwrap().len();
            if count >= endpoints * rounds as usize || started.elapsed() > LIMIT {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let got = got.lock().unwrap();
        let mut by_endpoint: HashMap<&str, Vec<(u64, Instant)>> = HashMap::new();
        for (endpoint, position, at) in got.iter() {
            by_endpoint.entry(endpoint.as_str()).or_default().push((*position, *at));
        }
        let mut latencies = Vec::new();
        for endpoint in &simple {
            let seen = by_endpoint.get(endpoint.as_str()).map(Vec::as_slice).unwrap_or_default();
            for (after, up_to, committed) in &commits {
                let (_, at) = seen
                    .iter()
                    .find(|(position, _)| position > after && position <= up_to)
                    .unwrap_or_else(|| panic!("endpoint {endpoint} got the change in ({after}, {up_to}]"));
                latencies.push(at.saturating_duration_since(*committed));
            }
        }
        Latencies::new(latencies)
    });

    // A receiver down for `DOWN_SECS` (ten minutes) while a change a second keeps coming, then up
    // again: every change reaches it afterwards, each id once after dedupe, with the production
    // backoff (5 s doubling, up to an hour, jittered).
    let down_secs = support::env("DOWN_SECS", 600) as u64;
    let outage = (down_secs > 0).then(|| {
        runtime.block_on(async {
            down.store(true, Ordering::SeqCst);
            got.lock().unwrap().clear();
            // Its own person (the others have as many endpoints as a person may).
            let owner = uuid::Uuid::now_v7();
            projections::test_utils::register_user(state.store.as_ref(), owner, "outage", "0xd0", chrono::Utc::now()).await;
            let (head, _) = state.store.head().await.unwrap();
            state.projector.wait_for(head, LIMIT).await.unwrap();
            let token = state.accounts.tokens.issue(owner).unwrap();
            let endpoint = register(&reqwest::Client::new(), address, &token, &format!("http://{receiver}/down/0")).await;
            let started = Instant::now();
            let mut positions = Vec::new();
            let mut token_id = 1_000_000;
            while started.elapsed() < Duration::from_secs(down_secs) {
                token_id += 1;
                positions.push(state.store.append_streams(vec![support::minted(token_id)]).await.unwrap().last_position);
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            down.store(false, Ordering::SeqCst);
            let up = Instant::now();
            let head = *positions.last().unwrap();
            loop {
                let acked = state.webhooks.store.load_many(std::slice::from_ref(&endpoint)).await.unwrap()[&endpoint].acked;
                if acked >= head {
                    break;
                }
                assert!(up.elapsed() < Duration::from_secs(3 * down_secs.max(60)), "caught up within three outages");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            let caught_up = up.elapsed();
            let refused = refused.load(Ordering::SeqCst);
            let simple = endpoint.replace('-', "");
            let got = got.lock().unwrap();
            let mine: Vec<u64> = got.iter().filter(|(e, _, _)| *e == simple).map(|(_, p, _)| *p).collect();
            let mut seen = std::collections::HashSet::new();
            let deduped: Vec<u64> = mine.iter().copied().filter(|p| seen.insert(*p)).collect();
            let wanted: Vec<u64> = positions.to_vec();
            let delivered_all = deduped == wanted;
            (positions.len(), refused, caught_up, mine.len() - deduped.len(), delivered_all)
        })
    });

    let (bare_elapsed, bare_posts) = bare_elapsed;
    let webhooks_rate = delivered as f64 / burst_elapsed.as_secs_f64();
    let bare_rate = bare_posts as f64 / bare_elapsed.as_secs_f64();
    println!("---");
    println!("{endpoints} webhook endpoints (topic market) on one local receiver, at most {concurrency} POSTs in flight:");
    println!(
        "  webhooks : {delivered:>6} deliveries in {:>7.1} ms = {webhooks_rate:>8.0}/s  (a burst of {burst} changes appended at once, until every endpoint acknowledged the last)",
        burst_elapsed.as_secs_f64() * 1e3
    );
    println!(
        "  bare     : {bare_posts:>6} POSTs      in {:>7.1} ms = {bare_rate:>8.0}/s  (the same receiver and client settings, one sequential task per endpoint)",
        bare_elapsed.as_secs_f64() * 1e3
    );
    println!("  ratio webhooks / bare: {:.2} (goal >= 0.5)", webhooks_rate / bare_rate);
    println!(
        "  latency  : p50 {:>7.2} ms  p99 {:>7.2} ms  ({rounds} changes one at a time, projector commit to the delivery at each endpoint; goal p99 < 100 ms)",
        latencies.ms(50.0),
        latencies.ms(99.0)
    );
    if let Some((changes, refused, caught_up, duplicates, delivered_all)) = outage {
        println!(
            "  outage   : a receiver down {down_secs} s while {changes} changes came ({refused} attempts refused meanwhile); after it came back: \
             every change, in order, each id once after dedupe: {delivered_all}; caught up in {:.1} s; {duplicates} repeated ids",
            caught_up.as_secs_f64()
        );
    }
    worker.abort();
    drop(state);
}
