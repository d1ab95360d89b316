//! What an idle follower costs (scale-out on Postgres): two `marketplace serve` processes on one
//! database with a chain, nothing happening. Measures, over `WINDOW_SECS` (default 60) each:
//! (a) the elected process alone: its CPU time and the database's transactions per second;
//! (b) the same with a follower beside it: the follower's CPU time, and the database's rate
//!     minus (a) (what the follower sends: every statement outside a transaction is one).
//! CPU is given as seconds per minute and as a share of one core (the physical limit). The
//! transaction counts come from `pg_stat_database`, which backends flush about once a second
//! while busy (10 s when idle): a few percent of a 60 s window.
//! Then (c) read-your-writes: `REGISTRATIONS` (default 20) registrations, one at a time, through
//! the follower and through the elected process (each answered once the read tables every
//! process reads hold it): their latencies, and the follower's over the elected one's.
//!
//! `cargo bench -p api --bench followers` (WINDOW_SECS=20 for a quicker run; MARKETPLACE_BIN to
//! measure another build of the binary). Its servers listen on 127.0.0.1:18240 and 18241.

use std::{
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use alloy::primitives::U256;
use domain::test_utils::TestPostgres;
use indexer::test_utils::{TestChain, mint_call};

const PORTS: [u16; 2] = [18240, 18241];

/// A `marketplace serve` process.
struct Server(Child);

impl Server {
    fn start(port: u16, db: &str, chain: &TestChain, dir: &std::path::Path) -> Self {
        let binary = std::env::var("MARKETPLACE_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_marketplace").to_owned());
        let child = Command::new(binary)
            .arg("serve")
            .env("DATABASE_URL", db)
            .env("RPC_URL", &chain.url)
            .env("CONTRACT_ADDRESS", chain.market.to_string())
            .env("DEPLOYMENT_BLOCK", chain.deployment_block.to_string())
            .env("LISTEN_ADDR", format!("127.0.0.1:{port}"))
            .env("DATA_DIR", dir.join(port.to_string()))
            .env("JWT_SECRET", "followers-bench-secret-0123456789abcdef")
            .env("RECONCILE_INTERVAL_SECS", "0")
            .env("RATE_LIMIT_PER_IP", "0")
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .expect("start marketplace serve");
        Self(child)
    }

    /// User plus system CPU seconds so far (from /proc).
    fn cpu_seconds(&self) -> f64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.0.id())).expect("the process is running");
        // The fields after the command's closing parenthesis; utime and stime are the 14th and 15th.
        let fields: Vec<&str> = stat.rsplit_once(')').expect("a stat line").1.split_whitespace().collect();
        let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
        ticks / clock_ticks()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn clock_ticks() -> f64 {
    let out = Command::new("getconf").arg("CLK_TCK").output().expect("getconf");
    String::from_utf8_lossy(&out.stdout).trim().parse().expect("CLK_TCK")
}

async fn wait_until(what: &str, mut ready: impl AsyncFnMut() -> bool) {
    let started = Instant::now();
    while !ready().await {
        assert!(started.elapsed() < Duration::from_secs(120), "{what} within two minutes");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn metric(http: &reqwest::Client, port: u16, name: &str) -> Option<f64> {
    let text = http.get(format!("http://127.0.0.1:{port}/metrics")).send().await.ok()?.text().await.ok()?;
    text.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}

/// The database's committed and rolled-back transactions so far.
async fn transactions(admin: &sqlx::PgPool, db: &str) -> f64 {
    sqlx::query_scalar::<_, i64>("SELECT CAST(xact_commit + xact_rollback AS BIGINT) FROM pg_stat_database WHERE datname = $1")
        .bind(db)
        .fetch_one(admin)
        .await
        .unwrap() as f64
}

/// CPU seconds of each server and the database's transactions per second over `window`.
async fn measure(admin: &sqlx::PgPool, db: &str, servers: &[&Server], window: Duration) -> (Vec<f64>, f64) {
    let (cpu, xacts, t) = (servers.iter().map(|s| s.cpu_seconds()).collect::<Vec<_>>(), transactions(admin, db).await, Instant::now());
    tokio::time::sleep(window).await;
    let elapsed = t.elapsed().as_secs_f64();
    let rate = (transactions(admin, db).await - xacts) / elapsed;
    (servers.iter().zip(cpu).map(|(s, before)| (s.cpu_seconds() - before) / elapsed).collect(), rate)
}

#[tokio::main]
async fn main() {
    let window = Duration::from_secs(std::env::var("WINDOW_SECS").ok().and_then(|v| v.parse().ok()).unwrap_or(60));
    let db = TestPostgres::create().await;
    let db_name = db.url.rsplit('/').next().unwrap().split('?').next().unwrap().to_owned();
    let admin = sqlx::PgPool::connect(&domain::test_utils::postgres_admin_url()).await.unwrap();
    let chain = TestChain::start().await;
    chain.transact(chain.accounts[1], mint_call("ipfs://idle", 1, &[], 0, U256::ZERO, U256::from(1_000u64)), U256::ZERO).await;
    let dir = tempfile::tempdir().unwrap();
    let http = reqwest::Client::new();

    let leader = Server::start(PORTS[0], &db.url, &chain, dir.path());
    wait_until("the first process elected", async || metric(&http, PORTS[0], "marketplace_leader").await == Some(1.0)).await;
    wait_until("the mint indexed", async || metric(&http, PORTS[0], "marketplace_indexer_last_block").await.unwrap_or(0.0) > 0.0).await;
    tokio::time::sleep(Duration::from_secs(5)).await;
    let (cpu, alone) = measure(&admin, &db_name, &[&leader], window).await;
    let leader_alone = cpu[0];

    let follower = Server::start(PORTS[1], &db.url, &chain, dir.path());
    wait_until("the follower answering", async || metric(&http, PORTS[1], "marketplace_leader").await == Some(0.0)).await;
    tokio::time::sleep(Duration::from_secs(5)).await;
    let (cpu, both) = measure(&admin, &db_name, &[&leader, &follower], window).await;

    println!("---");
    println!("idle processes on one Postgres database, a chain configured, {} s windows:", window.as_secs());
    println!(
        "  elected, alone      : {:>6.2} CPU s/min ({:>5.2}% of one core); database {:>7.1} transactions/s",
        leader_alone * 60.0,
        leader_alone * 100.0,
        alone
    );
    println!("  elected, beside one : {:>6.2} CPU s/min ({:>5.2}% of one core)", cpu[0] * 60.0, cpu[0] * 100.0);
    println!(
        "  idle follower       : {:>6.2} CPU s/min ({:>5.2}% of one core); sends {:>7.1} transactions/s (database {:.1} - {:.1})",
        cpu[1] * 60.0,
        cpu[1] * 100.0,
        both - alone,
        both,
        alone
    );

    let registrations: usize = std::env::var("REGISTRATIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(20);
    let mut latencies = Vec::new();
    for (name, port) in [("follower", PORTS[1]), ("elected", PORTS[0])] {
        let mut samples = Vec::with_capacity(registrations);
        for n in 0..registrations {
            let body = serde_json::json!({
                "email": format!("{name}{n}@example.com"), "username": format!("{name}{n}"), "fullName": format!("User {n}"),
                "password": "correct horse battery", "confirmPassword": "correct horse battery",
            });
            let t = Instant::now();
            let answer = http.post(format!("http://127.0.0.1:{port}/api/auth/register")).json(&body).send().await.unwrap();
            samples.push(t.elapsed());
            assert!(answer.status().is_success(), "registration through the {name}: {}", answer.text().await.unwrap_or_default());
        }
        samples.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        println!(
            "  registration via the {name:<8}: p50 {:>6.1} ms, max {:>6.1} ms ({registrations}, one at a time, answered once readable)",
            ms(samples[samples.len() / 2]),
            ms(samples[samples.len() - 1])
        );
        latencies.push(samples[samples.len() / 2]);
    }
    println!("  follower's p50 over the elected one's: {:.2}", latencies[0].as_secs_f64() / latencies[1].as_secs_f64());
    drop(follower);
    drop(leader);
    admin.close().await;
}
