//! Several `marketplace serve` processes on one PostgreSQL database with a real chain: one is
//! elected to index and project, every one serves reads and commands and reads its own writes,
//! the holder is killed (SIGKILL) and another takes over; no event is lost or doubled.
//!
//! `SCALE_OUT_KILLS` (default 1) kills the holder that many times, restarting it each time, and
//! prints the seconds from each death to the next indexed block (the failover figure in
//! docs/benchmarks.md: `SCALE_OUT_KILLS=10 cargo test -p api --test scale_out -- --nocapture`).

use std::{
    collections::{BTreeMap, BTreeSet},
    process::{Child, Command, Stdio},
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use alloy::primitives::U256;
use domain::{EventStore, test_utils::TestPostgres};
use indexer::test_utils::{TestChain, mint_call};
use serde_json::{Value, json};

/// This suite's loopback ports (18170-18179 belong to it).
const PORTS: [u16; 3] = [18170, 18171, 18172];

struct Server {
    port: u16,
    child: Option<Child>,
}

impl Server {
    fn start(port: u16, db: &str, chain: &TestChain, dir: &std::path::Path) -> Self {
        let child = Command::new(env!("CARGO_BIN_EXE_marketplace"))
            .arg("serve")
            .env("DATABASE_URL", db)
            .env("RPC_URL", &chain.url)
            .env("CONTRACT_ADDRESS", chain.market.to_string())
            .env("DEPLOYMENT_BLOCK", chain.deployment_block.to_string())
            .env("LISTEN_ADDR", format!("127.0.0.1:{port}"))
            .env("DATA_DIR", dir.join(port.to_string()))
            .env("JWT_SECRET", "scale-out-test-secret-0123456789abcdef")
            .env("INDEXER_POLL_MS", "50")
            .env("RECONCILE_INTERVAL_SECS", "0")
            .env("RATE_LIMIT_PER_IP", "0")
            .env("RATE_LIMIT_PER_ACCOUNT", "2")
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .expect("start marketplace serve");
        Self { port, child: Some(child) }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            // SIGKILL: no shutdown code runs, the lock's session just disappears.
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

async fn wait_healthy(http: &reqwest::Client, server: &Server) {
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(120) {
        if let Ok(answer) = http.get(server.url("/healthz")).send().await
            && answer.status().is_success()
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("server on {} did not start", server.port);
}

/// A gauge of a server's `/metrics`.
async fn gauge(http: &reqwest::Client, server: &Server, name: &str) -> Option<i64> {
    let text = http.get(server.url("/metrics")).send().await.ok()?.text().await.ok()?;
    text.lines().find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
}

/// The index of the one server holding the lock among `(port, running)` (waits until exactly
/// one does).
async fn holder_of(http: &reqwest::Client, servers: &[(u16, bool)]) -> usize {
    let started = Instant::now();
    loop {
        let mut holders = Vec::new();
        for (i, &(port, running)) in servers.iter().enumerate() {
            let probe = Server { port, child: None };
            if running && gauge(http, &probe, "marketplace_leader").await == Some(1) {
                holders.push(i);
            }
        }
        if holders.len() == 1 {
            return holders[0];
        }
        assert!(started.elapsed() < Duration::from_secs(60), "holders: {holders:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Registers a user on `server` and reads the profile back from the same server at once:
/// the user id when the registration was answered with success.
async fn register_and_read_back(http: &reqwest::Client, server_url: &str, n: usize) -> Option<String> {
    let body = json!({
        "email": format!("user{n}@example.com"), "username": format!("user{n}"), "fullName": format!("User {n}"),
        "password": "correct horse battery", "confirmPassword": "correct horse battery",
    });
    let answer = http.post(format!("{server_url}/api/auth/register")).json(&body).send().await.ok()?;
    if !answer.status().is_success() {
        return None;
    }
    let answer: Value = answer.json().await.ok()?;
    let user = answer["body"]["userId"].as_str().expect("a user id").to_owned();
    // A process killed between the two answers nothing (the test kills the holder): no read to check.
    let profile = http.get(format!("{server_url}/api/account/getuserprofile/{user}")).send().await.ok()?;
    assert_eq!(profile.status(), 200, "read-your-writes on {server_url}: the new user {user} must be visible at once");
    Some(user)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn three_processes_share_the_work_and_survive_the_holders_death() {
    let kills: usize = std::env::var("SCALE_OUT_KILLS").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    let db = TestPostgres::create().await;
    let chain = Arc::new(TestChain::start().await);
    let dir = tempfile::tempdir().unwrap();
    let http = reqwest::Client::builder().timeout(Duration::from_secs(30)).build().unwrap();
    let servers: Vec<Server> = PORTS.iter().map(|&port| Server::start(port, &db.url, &chain, dir.path())).collect();
    for server in &servers {
        wait_healthy(&http, server).await;
    }
    let servers = Arc::new(Mutex::new(servers));
    let alive = |servers: &Arc<Mutex<Vec<Server>>>| -> Vec<String> {
        servers.lock().unwrap().iter().filter(|s| s.child.is_some()).map(|s| s.url("")).collect()
    };

    // Load through every process: registrations (each read back at once where it was made) and
    // chain transactions, while the holder is killed.
    let registered = Arc::new(Mutex::new(Vec::new()));
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    // One registering task per process (a dead process's task uses the next one alive).
    let load: Vec<_> = (0..PORTS.len())
        .map(|task| {
            let (http, servers, registered, stop) = (http.clone(), servers.clone(), registered.clone(), stop.clone());
            tokio::spawn(async move {
                let mut n = task;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let urls = alive(&servers);
                    let url = &urls[n % urls.len()];
                    if let Some(user) = register_and_read_back(&http, url, n).await {
                        registered.lock().unwrap().push(user);
                    }
                    n += PORTS.len();
                }
            })
        })
        .collect();
    let minter = {
        let (chain, stop) = (chain.clone(), stop.clone());
        tokio::spawn(async move {
            let mut minted = 0u64;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                chain.transact(chain.accounts[1], mint_call("ipfs://load", 1, &[], 0, U256::ZERO, U256::from(1_000)), U256::ZERO).await;
                minted += 1;
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            minted
        })
    };

    let mut failovers = Vec::new();
    for _ in 0..kills {
        tokio::time::sleep(Duration::from_secs(3)).await;
        // `holder_of` only reads the ports: the load tasks take the lock a moment at a time.
        let ports: Vec<(u16, bool)> = servers.lock().unwrap().iter().map(|s| (s.port, s.child.is_some())).collect();
        let index = holder_of(&http, &ports).await;
        let port = PORTS[index];
        let killed = Instant::now();
        servers.lock().unwrap()[index].kill();
        // The next block: a transaction mined right after the death.
        let receipt =
            chain.transact(chain.accounts[2], mint_call("ipfs://after-kill", 0, &[], 0, U256::ZERO, U256::ZERO), U256::ZERO).await;
        let block = receipt.block_number.expect("mined") as i64;
        let survivor = (index + 1) % PORTS.len();
        loop {
            let indexed = {
                let survivor_url = servers.lock().unwrap()[survivor].url("");
                let text = http.get(format!("{survivor_url}/metrics")).send().await.ok();
                match text {
                    Some(answer) => answer.text().await.unwrap_or_default(),
                    None => String::new(),
                }
            };
            let last = indexed.lines().find_map(|l| l.strip_prefix("marketplace_indexer_last_block ")?.parse::<i64>().ok());
            if last.is_some_and(|last| last >= block) {
                break;
            }
            assert!(killed.elapsed() < Duration::from_secs(60), "no process took over indexing");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        failovers.push(killed.elapsed().as_secs_f64());
        println!(
            "failover {}: block {block} indexed {:.2} s after the holder (port {port}) died",
            failovers.len(),
            failovers.last().unwrap()
        );
        // The dead process comes back (as an operator's supervisor would restart it).
        let restarted = Server::start(port, &db.url, &chain, dir.path());
        wait_healthy(&http, &restarted).await;
        servers.lock().unwrap()[index] = restarted;
    }
    tokio::time::sleep(Duration::from_secs(4)).await;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for task in load {
        task.await.unwrap();
    }
    let minted_by_load = minter.await.unwrap();
    if kills > 1 {
        let mut sorted = failovers.clone();
        sorted.sort_by(f64::total_cmp);
        println!(
            "failover over {kills} kills: min {:.2} s, median {:.2} s, max {:.2} s",
            sorted[0],
            sorted[sorted.len() / 2],
            sorted[sorted.len() - 1]
        );
    }

    // Every registration answered with success is in the log once, and visible on every process.
    let registered = registered.lock().unwrap().clone();
    assert!(registered.len() >= 3, "the load made registrations: {}", registered.len());
    let store = domain::store::open(&db.url).await.unwrap();
    let log = read_log(store.as_ref()).await;
    let mut registrations: BTreeMap<String, usize> = BTreeMap::new();
    for event in log.iter().filter(|e| e.event_type == "UserRegistered") {
        *registrations.entry(event.stream_id.trim_start_matches("user-").to_owned()).or_default() += 1;
    }
    for user in &registered {
        assert_eq!(registrations.get(user), Some(&1), "user {user} registered exactly once in the log");
    }
    let urls = alive(&servers);
    let last_user = registered.last().unwrap();
    for url in &urls {
        let profile = http.get(format!("{url}/api/account/getuserprofile/{last_user}")).send().await.unwrap();
        assert_eq!(profile.status(), 200, "{url} shows the last user");
    }

    // Every token the chain minted is in the log exactly once (none lost, none doubled).
    let last_token: U256 = chain.contract().lastTokenId().call().await.unwrap();
    let last_token = last_token.to::<u64>();
    assert_eq!(last_token, minted_by_load + kills as u64);
    let minted: Vec<&str> = log.iter().filter(|e| e.event_type == "NftMinted").map(|e| e.stream_id.as_str()).collect();
    let distinct: BTreeSet<&str> = minted.iter().copied().collect();
    assert_eq!(minted.len(), distinct.len(), "no mint indexed twice");
    // The last mint may still be on its way into the log: wait for the indexer to catch up.
    let started = Instant::now();
    loop {
        let log = read_log(store.as_ref()).await;
        let minted = log.iter().filter(|e| e.event_type == "NftMinted").count() as u64;
        if minted == last_token {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "{minted} of {last_token} mints indexed");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // Rate limits hold across processes: the account's two attempts are spent on two processes,
    // the third process refuses the third.
    let login = json!({"email": "nobody@example.com", "password": "wrong password"});
    for (i, url) in urls.iter().enumerate() {
        let answer = http.post(format!("{url}/api/auth/login")).json(&login).send().await.unwrap();
        if i < 2 {
            assert_ne!(answer.status(), 429, "attempt {i} on {url}");
        } else {
            assert_eq!(answer.status(), 429, "the third attempt, on a third process, is over the account's limit");
        }
    }

    // The log's hash chain holds.
    let verify = Command::new(env!("CARGO_BIN_EXE_marketplace")).args(["--database-url", &db.url, "verify"]).output().unwrap();
    assert!(verify.status.success(), "{}", String::from_utf8_lossy(&verify.stdout));
    for server in servers.lock().unwrap().iter_mut() {
        server.kill();
    }
}

async fn read_log(store: &dyn EventStore) -> Vec<domain::RecordedEvent> {
    let mut events = Vec::new();
    loop {
        let after = events.last().map_or(0, |e: &domain::RecordedEvent| e.position);
        let page = store.read_all(after, 5_000).await.unwrap();
        if page.is_empty() {
            return events;
        }
        events.extend(page);
    }
}
