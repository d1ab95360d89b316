//! 1,000 concurrent `/api/stream` clients on one server: from a projector commit to the change
//! event's delivery at every client (p50, p99; goal p99 < 100 ms), against a bare broadcast of
//! the same bytes to the same number of loopback connections measured in the same run, and the
//! server's memory per connected client.
//!
//! `cargo bench -p api --bench stream` (CLIENTS=200 ROUNDS=20 for a quicker run).

mod support;

use std::{
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use domain::{
    ExpectedVersion, Metadata, StreamAppend,
    chain::{ChainEvent, Origin},
};
use support::Latencies;
use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader},
    net::{TcpListener, TcpStream},
    sync::broadcast,
};

/// Each client's delivery instants, by event id.
type Deliveries = Arc<Mutex<Vec<(u64, Instant)>>>;

/// The resident memory of this process, in bytes (Linux).
fn resident() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|kb| kb.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// A client: sends `request`, then records the id of each event (the `id:` line) as it arrives.
async fn client(address: std::net::SocketAddr, request: String, deliveries: Deliveries, ready: tokio::sync::mpsc::Sender<()>) {
    let mut socket = TcpStream::connect(address).await.expect("connect");
    socket.set_nodelay(true).unwrap();
    socket.write_all(request.as_bytes()).await.unwrap();
    let mut lines = BufReader::new(socket).lines();
    let mut told = false;
    while let Ok(Some(line)) = lines.next_line().await {
        if let Some(id) = line.strip_prefix("id: ") {
            deliveries.lock().unwrap().push((id.trim().parse().unwrap_or(0), Instant::now()));
            if !told {
                told = true;
                let _ = ready.send(()).await;
            }
        }
    }
}

fn origin(block: u64) -> Origin {
    Origin { block_number: block, block_time: 1_700_000_000 + block as i64, tx_hash: format!("0x{block:064x}"), log_index: 0 }
}

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
    let before = resident();
    let address = support::serve(&server, api::http::app(state.clone(), dir.path()));

    // The stream: every client follows the market; each round lists one token more.
    let (stream_latencies, after) = runtime.block_on(async {
        let request = format!("GET /api/stream?topics=market HTTP/1.1\r\nHost: {address}\r\nAccept: text/event-stream\r\n\r\n");
        let (ready, mut all_ready) = tokio::sync::mpsc::channel(clients);
        let deliveries: Vec<Deliveries> = (0..clients).map(|_| Deliveries::default()).collect();
        for d in &deliveries {
            tokio::spawn(client(address, request.clone(), d.clone(), ready.clone()));
        }
        for _ in 0..clients {
            all_ready.recv().await.expect("every client gets its ready event");
        }
        let after = resident();
        let mut commits = Vec::new();
        for round in 1..=rounds {
            let event = ChainEvent::NftMinted {
                token_id: round.to_string(),
                creator: "0xa1".into(),
                token_uri: "/ipfs/m".into(),
                royalties: vec![],
                origin: origin(round),
            };
            let mut watch = projected.subscribe();
            let append = StreamAppend {
                stream_id: event.stream_id(80001),
                expected: ExpectedVersion::Any,
                events: vec![event.to_new_event(uuid::Uuid::now_v7(), Metadata::default()).unwrap()],
            };
            let at = store.append_streams(vec![append]).await.unwrap().last_position;
            // The commit: the projector's position passing the event (watched as the hub does).
            watch.wait_for(|p| *p >= at).await.unwrap();
            commits.push((*watch.borrow(), Instant::now()));
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        let mut latencies = Vec::new();
        for d in &deliveries {
            let got = d.lock().unwrap();
            for (position, committed) in &commits {
                let delivered = got.iter().find(|(id, _)| id >= position).map(|(_, at)| *at).expect("every change reaches every client");
                latencies.push(delivered.saturating_duration_since(*committed));
            }
        }
        (Latencies::new(latencies), after)
    });

    // The bare broadcast: the same bytes to as many loopback connections, one task each.
    let bare = runtime.block_on(async {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let bare_address = listener.local_addr().unwrap();
        let (sender, _) = broadcast::channel::<(u64, Arc<[u8]>)>(256);
        let accept_sender = sender.clone();
        tokio::spawn(async move {
            loop {
                let (mut socket, _) = listener.accept().await.unwrap();
                socket.set_nodelay(true).unwrap();
                let mut updates = accept_sender.subscribe();
                tokio::spawn(async move {
                    let mut request = [0u8; 512];
                    let _ = tokio::io::AsyncReadExt::read(&mut socket, &mut request).await;
                    socket.write_all(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\nid: 0\n\n").await.unwrap();
                    while let Ok((_, bytes)) = updates.recv().await {
                        if socket.write_all(&bytes).await.is_err() {
                            return;
                        }
                    }
                });
            }
        });
        let request = format!("GET / HTTP/1.1\r\nHost: {bare_address}\r\n\r\n");
        let (ready, mut all_ready) = tokio::sync::mpsc::channel(clients);
        let deliveries: Vec<Deliveries> = (0..clients).map(|_| Deliveries::default()).collect();
        for d in &deliveries {
            tokio::spawn(client(bare_address, request.clone(), d.clone(), ready.clone()));
        }
        for _ in 0..clients {
            all_ready.recv().await.unwrap();
        }
        let mut sent = Vec::new();
        for round in 1..=rounds {
            let data = format!(
                "event: change\ndata: {{\"position\":{round},\"nfts\":[{{\"nftId\":\"80001-{round}\",\"position\":{round}}}],\"notices\":[]}}\nid: {round}\n\n"
            );
            sent.push((round, Instant::now()));
            let _ = sender.send((round, Arc::from(data.into_bytes().into_boxed_slice())));
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        let mut latencies = Vec::new();
        for d in &deliveries {
            let got = d.lock().unwrap();
            for (round, at) in &sent {
                let delivered = got.iter().find(|(id, _)| id == round).map(|(_, t)| *t).expect("every broadcast arrives");
                latencies.push(delivered.saturating_duration_since(*at));
            }
        }
        Latencies::new(latencies)
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
