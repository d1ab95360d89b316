//! 10,000 `/api/stream` clients over three `marketplace serve` processes on one PostgreSQL
//! database (the scale-out deployment: one process elected to project, every one serving
//! streams): from a change's commit to its event at every client (p50, p99; goal p99 < 100 ms),
//! every client getting every change exactly once, against a bare broadcast of the same bytes by
//! three processes to as many loopback connections in the same run, and the servers' memory per
//! connected client.
//!
//! `cargo bench -p api --bench stream_processes` (`CLIENTS`, default 10,000; `ROUNDS`, default
//! 50; `GAP_MS` after each change is projected, default 500: on two cores 10,000 deliveries of one
//! change take longer than the one-process bench's 20 ms, so changes that close queue behind each
//! other, the bare broadcast's too; `LIMIT_SECS`, default 600, bounds the whole run).
//! It needs PostgreSQL at 127.0.0.1:5432 with trust auth (`TEST_POSTGRES_URL` to change it), makes
//! its own database and drops it at the end. The client side runs in this process; the servers
//! and the bare broadcasters are child processes, killed when it ends.

mod support;

use std::{
    process::Stdio,
    time::{Duration, Instant},
};

use domain::{EventStore, test_utils::TestPostgres};
use support::stream::{bare_change, bare_serve, connect, resident, settle, tally};
use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader},
    net::TcpListener,
    process::{Child, Command},
    sync::broadcast,
};

/// The server processes.
const PROCESSES: usize = 3;
/// Clients connecting at a time (each batch waited for).
const BATCH: usize = 500;
/// The servers' shared secret (tokens and the log's sealing keys).
const SECRET: &str = "stream-processes-bench-secret-0123456789";
/// Set in a bare broadcaster's environment: the child runs [`bare_child`].
const BARE_CHILD: &str = "STREAM_PROCESSES_BARE_CHILD";

/// Appends the minting of token `token` (a change of the market); its position.
async fn mint(store: &dyn EventStore, token: u64) -> u64 {
    store.append_streams(vec![support::minted(token)]).await.expect("append").last_position
}

/// A free loopback port (bound and released: the server binds it a moment later).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port()
}

/// This process's limit of open files, soft and hard (`/proc/self/limits`).
fn open_files_limit() -> (String, String) {
    let limits = std::fs::read_to_string("/proc/self/limits").unwrap_or_default();
    let line = limits.lines().find(|l| l.starts_with("Max open files")).unwrap_or_default();
    let mut fields = line.trim_start_matches("Max open files").split_whitespace();
    (fields.next().unwrap_or("?").to_owned(), fields.next().unwrap_or("?").to_owned())
}

/// Raises this process's soft limit of open files to the hard one (children inherit it):
/// `prlimit`, as the workspace forbids the unsafe `setrlimit` call. The limits before and after.
fn raise_open_files() -> ((String, String), (String, String)) {
    let before = open_files_limit();
    let status = std::process::Command::new("prlimit")
        .arg("--pid")
        .arg(std::process::id().to_string())
        .arg(format!("--nofile={}:", before.1))
        .status();
    if !matches!(status, Ok(s) if s.success()) {
        eprintln!("warning: could not raise the soft limit of open files with prlimit ({status:?})");
    }
    (before, open_files_limit())
}

/// A bare broadcaster: prints its address, then broadcasts the bare change of each round named
/// by a line on its stdin to every connection, until stdin closes.
fn bare_child() {
    support::server_runtime().block_on(async {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        println!("{}", listener.local_addr().expect("address"));
        let (sender, _) = broadcast::channel(256);
        tokio::spawn(bare_serve(listener, sender.clone()));
        // Stdin is read on a thread of its own (blocking reads).
        let lines = std::thread::spawn(move || {
            for line in std::io::stdin().lines() {
                match line.map(|l| l.trim().parse()) {
                    Ok(Ok(round)) => drop(sender.send(bare_change(round))),
                    Ok(Err(_)) => {}
                    Err(_) => return,
                }
            }
        });
        let _ = tokio::task::spawn_blocking(move || lines.join()).await;
    });
}

/// A `marketplace serve` process on `port`, sharing `database`; killed when dropped.
fn server(port: u16, database: &str, data: &std::path::Path, logs: &std::path::Path) -> Child {
    let log = std::fs::File::create(logs.join(format!("server-{port}.log"))).expect("a log file");
    Command::new(env!("CARGO_BIN_EXE_marketplace"))
        .arg("serve")
        .env("DATABASE_URL", database)
        .env("LISTEN_ADDR", format!("127.0.0.1:{port}"))
        .env("DATA_DIR", data.join(port.to_string()))
        .env("JWT_SECRET", SECRET)
        .env("RECONCILE_INTERVAL_SECS", "0")
        .env("METADATA_FETCH", "false")
        .env("RATE_LIMIT_PER_IP", "0")
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log)
        .kill_on_drop(true)
        .spawn()
        .expect("start marketplace serve")
}

/// A gauge of the server on `port`'s `/metrics`.
async fn gauge(http: &reqwest::Client, port: u16, name: &str) -> Option<u64> {
    let text = http.get(format!("http://127.0.0.1:{port}/metrics")).send().await.ok()?.text().await.ok()?;
    text.lines().find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}

/// Waits (up to `limit`) until `check` holds, polling every 100 ms; panics with `what` otherwise.
async fn wait_until<F: std::future::Future<Output = bool>>(limit: Duration, what: &str, mut check: impl FnMut() -> F) {
    let started = Instant::now();
    while !check().await {
        assert!(started.elapsed() < limit, "{what} (waited {limit:?})");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The three processes' resident memory, in bytes.
fn residents(children: &[Child]) -> Vec<u64> {
    children.iter().map(|c| resident(&c.id().expect("a running child").to_string())).collect()
}

/// The CPU time process `pid` (`"self"` for this one) has used, all threads, in seconds (Linux:
/// `utime` and `stime` of `/proc/<pid>/stat`, in ticks of 1/100 s).
fn cpu_seconds(pid: &str) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let fields: Vec<&str> = stat.rsplit_once(')').map_or("", |(_, rest)| rest).split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0);
    (ticks(11) + ticks(12)) as f64 / 100.0
}

/// The CPU time `children` have used, in seconds.
fn cpu_of(children: &[Child]) -> f64 {
    children.iter().map(|c| cpu_seconds(&c.id().expect("a running child").to_string())).sum()
}

fn percentiles(latencies: &support::Latencies) -> String {
    format!("p50 {:>7.2} ms  p99 {:>7.2} ms", latencies.ms(50.0), latencies.ms(99.0))
}

fn main() {
    if std::env::var_os(BARE_CHILD).is_some() {
        return bare_child();
    }
    let (before, after) = raise_open_files();
    let clients = support::env("CLIENTS", 10_000);
    let rounds = support::env("ROUNDS", 50) as u64;
    let gap = Duration::from_millis(support::env("GAP_MS", 500) as u64);
    let limit = Duration::from_secs(support::env("LIMIT_SECS", 600) as u64);
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    // Made first, dropped last (after the servers are killed), on failure too.
    let database = runtime.block_on(TestPostgres::create());
    let logs = tempfile::Builder::new().prefix("stream-processes-").tempdir().unwrap().keep();
    println!(
        "open files: soft limit {} -> {} (hard {}), inherited by the servers; servers' logs in {} (kept if the run fails)",
        before.0,
        after.0,
        after.1,
        logs.display()
    );
    runtime.block_on(async {
        tokio::time::timeout(limit, run(&database.url, &logs, clients, rounds, gap)).await.expect("the benchmark ran over LIMIT_SECS");
    });
    let _ = std::fs::remove_dir_all(&logs);
}

async fn run(database: &str, logs: &std::path::Path, clients: usize, rounds: u64, gap: Duration) {
    let http = reqwest::Client::builder().timeout(Duration::from_secs(10)).build().unwrap();
    let data = tempfile::tempdir().unwrap();
    let ports: Vec<u16> = (0..PROCESSES).map(|_| free_port()).collect();
    let servers: Vec<Child> = ports.iter().map(|&port| server(port, database, data.path(), logs)).collect();
    for &port in &ports {
        let url = format!("http://127.0.0.1:{port}/healthz");
        wait_until(Duration::from_secs(120), &format!("the server on {port} answers /healthz"), || async {
            matches!(http.get(&url).send().await, Ok(answer) if answer.status().is_success())
        })
        .await;
    }
    wait_until(Duration::from_secs(60), "exactly one server is elected", || async {
        let mut leaders = 0;
        for &port in &ports {
            leaders += gauge(&http, port, "marketplace_leader").await.unwrap_or(0);
        }
        leaders == 1
    })
    .await;
    let mut leaders = Vec::new();
    for &port in &ports {
        leaders.push(gauge(&http, port, "marketplace_leader").await == Some(1));
    }

    // This process appends to the log and watches the projector's checkpoint, on the same database.
    let config = support::config_with(&data.path().join("bench"), &["--database-url", database, "--jwt-secret", SECRET]);
    let store = api::log::open(&config).await.expect("the log");
    let read = projections::ReadDb::open(&config.read_database_url()).await.expect("the read database");

    // A first change (token 0, before any client), so that the memory measured before the
    // clients connect is that of servers that have streamed a change.
    let warm_up = mint(store.as_ref(), 0).await;
    wait_until(Duration::from_secs(10), "the first change is projected", || async { read.position().await.is_ok_and(|p| p >= warm_up) })
        .await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let mut subscribers = Vec::new();
    for &port in &ports {
        subscribers.push(gauge(&http, port, "marketplace_stream_clients").await.unwrap_or(0));
    }

    // The stream: client i follows the market on server i % 3; each round lists one token more.
    let resident_before = residents(&servers);
    let addresses: Vec<std::net::SocketAddr> = ports.iter().map(|port| ([127, 0, 0, 1], *port).into()).collect();
    let request = |i: usize| {
        format!("GET /api/stream?topics=market HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n", addresses[i % PROCESSES])
    };
    let (tasks, deliveries) = connect(clients, BATCH, Duration::from_secs(60), |i| addresses[i % PROCESSES], request).await;
    let resident_after = residents(&servers);
    // The hub's subscribers beyond those before: the clients each server counts.
    let mut connected = Vec::new();
    for (&port, before) in ports.iter().zip(&subscribers) {
        connected.push(gauge(&http, port, "marketplace_stream_clients").await.unwrap_or(0).saturating_sub(*before));
    }
    let cpu_before = (cpu_of(&servers), cpu_seconds("self"));
    let (mut appended, mut projected, mut starts) = (Vec::new(), Vec::new(), Vec::new());
    for round in 1..=rounds {
        starts.push(Instant::now());
        let at = mint(store.as_ref(), round).await;
        // The append's commit: its transaction returned.
        let committed = Instant::now();
        appended.push((round, committed));
        // The elected projector's commit: its checkpoint (committed with the rows) passing the
        // event, read back to back; the commit came after the last read that did not see it
        // started, which is the instant kept (the figures from it are upper bounds).
        let mut unseen = committed;
        loop {
            let asked = Instant::now();
            if read.position().await.expect("the checkpoint") >= at {
                break;
            }
            assert!(asked.duration_since(committed) < Duration::from_secs(10), "round {round}: not projected within 10 s");
            unseen = asked;
        }
        projected.push((round, unseen));
        tokio::time::sleep(gap).await;
    }
    let stream_time = starts[0].elapsed();
    settle(&deliveries, rounds, Duration::from_secs(60)).await;
    let stream_cpu = (cpu_of(&servers) - cpu_before.0, cpu_seconds("self") - cpu_before.1);
    let from_append = tally(&deliveries, &appended);
    let from_projector = tally(&deliveries, &projected);
    let by_process: Vec<String> = (0..PROCESSES)
        .map(|k| {
            let own: Vec<_> = deliveries.iter().skip(k).step_by(PROCESSES).cloned().collect();
            format!("{:.2} ms{}", tally(&own, &projected).ms(99.0), if leaders[k] { " (elected)" } else { "" })
        })
        .collect();
    for task in &tasks {
        task.abort();
    }
    drop(deliveries);

    // The bare broadcast: three processes, each writing the same bytes to its third of the
    // connections, told of each change by a line on its stdin; the stream's rounds' pace.
    let mut bare: Vec<Child> = (0..PROCESSES)
        .map(|_| {
            Command::new(std::env::current_exe().expect("this benchmark's path"))
                .env(BARE_CHILD, "1")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .kill_on_drop(true)
                .spawn()
                .expect("start a bare broadcaster")
        })
        .collect();
    let mut bare_addresses: Vec<std::net::SocketAddr> = Vec::new();
    for child in &mut bare {
        let mut line = String::new();
        let stdout = child.stdout.as_mut().expect("piped stdout");
        tokio::time::timeout(Duration::from_secs(30), BufReader::new(stdout).read_line(&mut line))
            .await
            .expect("a bare broadcaster tells its address")
            .expect("its stdout");
        bare_addresses.push(line.trim().parse().expect("an address"));
    }
    let bare_request = |i: usize| format!("GET / HTTP/1.1\r\nHost: {}\r\n\r\n", bare_addresses[i % PROCESSES]);
    let (bare_tasks, bare_deliveries) =
        connect(clients, BATCH, Duration::from_secs(60), |i| bare_addresses[i % PROCESSES], bare_request).await;
    let cpu_before = (cpu_of(&bare), cpu_seconds("self"));
    let mut sent = Vec::new();
    for round in 1..=rounds {
        let start = Instant::now();
        sent.push((round, start));
        for child in &mut bare {
            child.stdin.as_mut().expect("piped stdin").write_all(format!("{round}\n").as_bytes()).await.expect("tell a broadcaster");
        }
        let pace = match starts.get(round as usize) {
            Some(next) => next.duration_since(starts[round as usize - 1]),
            None => gap,
        };
        tokio::time::sleep_until((start + pace).into()).await;
    }
    settle(&bare_deliveries, rounds, Duration::from_secs(60)).await;
    let bare_cpu = (cpu_of(&bare) - cpu_before.0, cpu_seconds("self") - cpu_before.1);
    let bare_latencies = tally(&bare_deliveries, &sent);
    for task in &bare_tasks {
        task.abort();
    }

    let growth: u64 = resident_after.iter().zip(&resident_before).map(|(a, b)| a.saturating_sub(*b)).sum();
    let mib = |bytes: &[u64]| bytes.iter().map(|b| format!("{:.0}", *b as f64 / 1048576.0)).collect::<Vec<_>>().join("/");
    let goal = |l: &support::Latencies| if l.ms(99.0) < 100.0 { "met" } else { "missed" };
    println!("---");
    println!(
        "{clients} stream clients over {PROCESSES} `marketplace serve` processes on one Postgres database ({} connected), \
         {rounds} changes (one new token each, appended by this process, projected by the elected process), one every {:.0} ms:",
        connected.iter().map(u64::to_string).collect::<Vec<_>>().join("/"),
        stream_time.as_secs_f64() * 1e3 / rounds as f64,
    );
    println!(
        "  stream from the append's commit   : {}  (the log append's transaction returning here, to the change event at every client; goal p99 < 100 ms: {})",
        percentiles(&from_append),
        goal(&from_append)
    );
    println!(
        "  stream from the projector's commit: {}  (the elected projector's checkpoint passing the change, read back to back; goal p99 < 100 ms: {})",
        percentiles(&from_projector),
        goal(&from_projector)
    );
    println!("  stream p99 from the projector's commit, by process: {}", by_process.join(", "));
    println!(
        "  bare                              : {}  (the same bytes broadcast by {PROCESSES} processes to {clients} loopback connections, at the stream's pace)",
        percentiles(&bare_latencies)
    );
    println!("  ratio bare / stream at p99 (from the projector's commit): {:.2}", bare_latencies.ms(99.0) / from_projector.ms(99.0));
    let per_delivery = |seconds: f64| seconds * 1e6 / (clients as f64 * rounds as f64);
    println!(
        "  CPU per change and client: servers {:.1} us, bare broadcasters {:.1} us; the clients here {:.1} us (stream) and {:.1} us (bare)",
        per_delivery(stream_cpu.0),
        per_delivery(bare_cpu.0),
        per_delivery(stream_cpu.1),
        per_delivery(bare_cpu.1),
    );
    println!("  delivery: every client got every change exactly once, event ids increasing");
    println!(
        "  memory : {:.1} KiB per client (the servers' resident growth with {clients} connected; resident {} -> {} MiB)",
        growth as f64 / 1024.0 / clients as f64,
        mib(&resident_before),
        mib(&resident_after),
    );
    drop(bare);
    drop(servers);
}
