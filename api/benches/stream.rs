//! 1,000 concurrent `/api/stream` clients on one server: from a projector commit to the change
//! event's delivery at every client (p50, p99; goal p99 < 100 ms), against a bare broadcast of
//! the same bytes to the same number of loopback connections measured in the same run, and the
//! server's memory per connected client.
//!
//! `cargo bench -p api --bench stream` (CLIENTS=200 ROUNDS=20 for a quicker run).

mod support;

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use support::stream::{bare_change, bare_serve, connect, resident, settle, tally};
use tokio::{net::TcpListener, sync::broadcast};

fn main() {
    let clients: usize = std::env::var("CLIENTS").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000);
    let rounds: u64 = std::env::var("ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(50);
    let server = support::server_runtime();
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let config = support::config(dir.path());

    let (state, projected) = server.block_on(async {
        let store = api::log::open(&config).await.unwrap();
        let read = projections::ReadDb::open(&config.read_database_url()).await.unwrap();
        let projector = projections::Projector::new(store.clone(), read.clone()).await.unwrap();
        let handle = projector.handle();
        tokio::spawn(projector.run());
        let state = api::http::AppState::new(config.clone(), store, read, handle.clone()).unwrap();
        (state, handle)
    });
    let store = state.store.clone();
    let before = resident("self");
    let address = support::serve(&server, api::http::app(state.clone(), dir.path()));

    // The stream: every client follows the market; each round lists one token more.
    let (stream_latencies, after) = runtime.block_on(async {
        let request = format!("GET /api/stream?topics=market HTTP/1.1\r\nHost: {address}\r\nAccept: text/event-stream\r\n\r\n");
        let (_clients, deliveries) = connect(clients, clients, Duration::from_secs(60), |_| address, |_| request.clone()).await;
        let after = resident("self");
        let mut commits = Vec::new();
        for round in 1..=rounds {
            let mut watch = projected.subscribe();
            let at = store.append_streams(vec![support::minted(round)]).await.unwrap().last_position;
            // The commit: the projector's position passing the event (watched as the hub does).
            watch.wait_for(|p| *p >= at).await.unwrap();
            commits.push((round, Instant::now()));
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        settle(&deliveries, rounds, Duration::from_secs(30)).await;
        (tally(&deliveries, &commits), after)
    });

    // The bare broadcast: the same bytes to as many loopback connections, one task each.
    let bare = runtime.block_on(async {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let bare_address = listener.local_addr().unwrap();
        let (sender, _) = broadcast::channel::<Arc<[u8]>>(256);
        tokio::spawn(bare_serve(listener, sender.clone()));
        let request = format!("GET / HTTP/1.1\r\nHost: {bare_address}\r\n\r\n");
        let (_clients, deliveries) = connect(clients, clients, Duration::from_secs(60), |_| bare_address, |_| request.clone()).await;
        let mut sent = Vec::new();
        for round in 1..=rounds {
            sent.push((round, Instant::now()));
            let _ = sender.send(bare_change(round));
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        settle(&deliveries, rounds, Duration::from_secs(30)).await;
        tally(&deliveries, &sent)
    });

    println!("---");
    println!("{clients} stream clients on one server, {rounds} changes (one new token each, projected as it is appended):");
    println!(
        "  stream : p50 {:>7.2} ms  p99 {:>7.2} ms  (projector commit to the change event at every client; goal p99 < 100 ms)",
        stream_latencies.ms(50.0),
        stream_latencies.ms(99.0)
    );
    println!(
        "  bare   : p50 {:>7.2} ms  p99 {:>7.2} ms  (the same bytes broadcast to {clients} loopback connections)",
        bare.ms(50.0),
        bare.ms(99.0)
    );
    println!("  ratio bare / stream at p99: {:.2}", bare.ms(99.0) / stream_latencies.ms(99.0));
    println!(
        "  memory : {:.1} KiB per client (resident growth with {clients} connected, both ends in this process: an upper bound)",
        after.saturating_sub(before) as f64 / 1024.0 / clients as f64
    );
    drop(state);
}
