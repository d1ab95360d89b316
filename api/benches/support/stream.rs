//! What the stream benchmarks share: the clients (raw loopback connections reading server-sent
//! events), the bare broadcast they are measured against, the count of what each client got, and
//! resident memory.

use std::{
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader},
    net::{TcpListener, TcpStream},
    sync::{broadcast, mpsc},
};

use super::Latencies;

/// One event as a client received it.
pub struct Received {
    /// Its `id:` (a log position).
    pub id: u64,
    /// The tokens its data names (`"nftId":"{chain}-{token}"`).
    pub tokens: Vec<u64>,
    /// When its last line (the blank one) arrived.
    pub at: Instant,
}

/// Each client's events, in the order they arrived.
pub type Deliveries = Arc<Mutex<Vec<Received>>>;

/// The resident memory of process `pid` (`"self"` for this one), in bytes (Linux).
pub fn resident(pid: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|kb| kb.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// The tokens `data` names.
fn tokens(data: &str) -> Vec<u64> {
    data.split("\"nftId\":\"").skip(1).filter_map(|rest| rest.split('"').next()?.rsplit_once('-')?.1.parse().ok()).collect()
}

/// A client: sends `request`, then records each event (one with an `id:`) as it ends; tells
/// `ready` once, at the first.
pub async fn client(address: std::net::SocketAddr, request: String, deliveries: Deliveries, ready: mpsc::Sender<()>) {
    let mut socket = TcpStream::connect(address).await.expect("connect");
    socket.set_nodelay(true).unwrap();
    socket.write_all(request.as_bytes()).await.unwrap();
    let mut lines = BufReader::new(socket).lines();
    let mut told = false;
    let (mut id, mut named) = (None, Vec::new());
    while let Ok(Some(line)) = lines.next_line().await {
        if let Some(value) = line.strip_prefix("id: ") {
            id = value.trim().parse().ok();
        } else if let Some(data) = line.strip_prefix("data: ") {
            named = tokens(data);
        } else if line.is_empty()
            && let Some(id) = id.take()
        {
            deliveries.lock().unwrap().push(Received { id, tokens: std::mem::take(&mut named), at: Instant::now() });
            if !told {
                told = true;
                let _ = ready.send(()).await;
            }
        }
    }
}

/// Connects `clients` clients with `request(i)` to `address(i)`, at most `batch` connecting at a
/// time, each batch waited for (its first events) up to `limit`. Their tasks and deliveries.
pub async fn connect(
    clients: usize,
    batch: usize,
    limit: Duration,
    address: impl Fn(usize) -> std::net::SocketAddr,
    request: impl Fn(usize) -> String,
) -> (Vec<tokio::task::JoinHandle<()>>, Vec<Deliveries>) {
    let (ready, mut all_ready) = mpsc::channel(clients.max(1));
    let deliveries: Vec<Deliveries> = (0..clients).map(|_| Deliveries::default()).collect();
    let mut tasks = Vec::with_capacity(clients);
    for start in (0..clients).step_by(batch.max(1)) {
        let end = (start + batch.max(1)).min(clients);
        for (i, d) in deliveries.iter().enumerate().take(end).skip(start) {
            tasks.push(tokio::spawn(client(address(i), request(i), d.clone(), ready.clone())));
        }
        for _ in start..end {
            tokio::time::timeout(limit, all_ready.recv())
                .await
                .unwrap_or_else(|_| panic!("clients {start}..{end} did not all get their first event within {limit:?}"))
                .expect("every client gets its first event");
        }
    }
    (tasks, deliveries)
}

/// Waits (up to `limit`) until every client got an event naming `last` (events arrive in order:
/// the ones before it came before it, or never).
pub async fn settle(deliveries: &[Deliveries], last: u64, limit: Duration) {
    let started = Instant::now();
    while started.elapsed() < limit {
        if deliveries.iter().all(|d| d.lock().unwrap().iter().rev().any(|r| r.tokens.contains(&last))) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// For every client and `(token, from)`: the time from `from` to the arrival of the event naming
/// `token`. Panics (with what went wrong) unless every client got each token in exactly one event
/// and the events' ids increase.
pub fn tally(deliveries: &[Deliveries], sent: &[(u64, Instant)]) -> Latencies {
    let (mut missing, mut doubled, mut disordered, mut examples) = (0usize, 0usize, 0usize, Vec::new());
    let mut latencies = Vec::with_capacity(deliveries.len() * sent.len());
    for (client, d) in deliveries.iter().enumerate() {
        let got = d.lock().unwrap();
        if got.windows(2).any(|w| w[1].id <= w[0].id) {
            disordered += 1;
            if examples.len() < 5 {
                examples.push(format!("client {client}: ids {:?}", got.iter().map(|r| r.id).collect::<Vec<_>>()));
            }
        }
        for (token, from) in sent {
            let naming: Vec<&Received> = got.iter().filter(|r| r.tokens.contains(token)).collect();
            match naming.as_slice() {
                [one] => latencies.push(one.at.saturating_duration_since(*from)),
                [] => missing += 1,
                more => {
                    doubled += 1;
                    if examples.len() < 5 {
                        examples.push(format!(
                            "client {client}: token {token} in {} events (ids {:?})",
                            more.len(),
                            more.iter().map(|r| r.id).collect::<Vec<_>>()
                        ));
                    }
                }
            }
        }
    }
    assert!(
        missing == 0 && doubled == 0 && disordered == 0,
        "not every change reached every client exactly once, in order: {missing} (client, change) pairs missing, {doubled} doubled, \
         {disordered} clients with ids out of order; {examples:?}"
    );
    Latencies::new(latencies)
}

/// The bare broadcast's event for `round`: the bytes of a server's `change` of one new token.
pub fn bare_change(round: u64) -> Arc<[u8]> {
    let data = format!(
        "event: change\ndata: {{\"position\":{round},\"nfts\":[{{\"nftId\":\"80001-{round}\",\"position\":{round}}}],\"notices\":[]}}\nid: {round}\n\n"
    );
    Arc::from(data.into_bytes().into_boxed_slice())
}

/// The bare broadcast's server: each connection, once it sent its request, gets a first event
/// (id 0) and then every message of `sender`, written by one task per connection.
pub async fn bare_serve(listener: TcpListener, sender: broadcast::Sender<Arc<[u8]>>) {
    loop {
        let Ok((mut socket, _)) = listener.accept().await else { continue };
        socket.set_nodelay(true).unwrap();
        let mut updates = sender.subscribe();
        tokio::spawn(async move {
            let mut request = [0u8; 512];
            let _ = tokio::io::AsyncReadExt::read(&mut socket, &mut request).await;
            if socket.write_all(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\nid: 0\n\n").await.is_err() {
                return;
            }
            while let Ok(bytes) = updates.recv().await {
                if socket.write_all(&bytes).await.is_err() {
                    return;
                }
            }
        });
    }
}
