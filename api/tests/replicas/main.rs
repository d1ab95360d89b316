//! Read replicas: a PostgreSQL primary and a streaming replica of it (made here with `initdb`
//! and `pg_basebackup -R`: the machine's own server allows no replication connections), the
//! server's read database on the primary with the replica in `READ_REPLICA_URLS`.
//!
//! - Read-your-writes: after each write the API offers without a chain, a read naming the
//!   answer's `Log-Position` shows it, also while the replica's replay is paused (the read
//!   waits, then reads the primary); once the replica replays again it serves such reads.
//! - Reads that name no position never show a replica staler than `READ_REPLICA_MAX_LAG_MS`.
//! - A replica stopped and started again under reads: no request fails; it leaves the rotation
//!   and comes back.
//! - A replay's new generation is read on the replica too, once it has it.
//! - An unreachable replica at start only logs; replicas with a SQLite read database are refused.
//!
//! Needs the PostgreSQL server binaries (`pg_config --bindir`: initdb, pg_ctl, pg_basebackup);
//! as root they run as the `postgres` user.

#[path = "../accounts/helpers.rs"]
#[allow(dead_code)]
mod helpers;
#[path = "../support/mod.rs"]
mod support;

use std::{
    path::{Path, PathBuf},
    process::Command,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use axum::{
    body::Body,
    http::{HeaderMap, Request, StatusCode, header},
};
use domain::{
    ExpectedVersion, Metadata, StreamAppend,
    chain::{ChainEvent, Origin, SaleType},
};
use helpers::{Form, TestApp, png};
use serde_json::{Value, json};
use tower::ServiceExt;

/// The staleness bound the server runs with here.
const MAX_LAG: Duration = Duration::from_millis(1000);

/// A primary cluster and a streaming replica of it, in a temporary folder; both stopped and
/// removed when dropped (a failed test too).
struct Clusters {
    root: tempfile::TempDir,
    bin: PathBuf,
    /// Run the server's tools as `postgres` (this process is root, which PostgreSQL refuses).
    as_postgres: bool,
    primary_port: u16,
    replica_port: u16,
}

impl Clusters {
    fn start() -> Self {
        let bin = server_binaries();
        let root = tempfile::tempdir().unwrap();
        let as_postgres = is_root();
        if as_postgres {
            let chowned = Command::new("chown").args(["postgres:postgres"]).arg(root.path()).status().unwrap();
            assert!(chowned.success(), "chown of the clusters' folder to postgres");
        }
        let clusters = Self { root, bin, as_postgres, primary_port: free_port(), replica_port: free_port() };
        let (primary, replica) = (clusters.dir("primary"), clusters.dir("replica"));
        clusters.run("initdb", &["-D", &primary, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"]);
        let socket_dir = clusters.root.path().display().to_string();
        append(
            &format!("{primary}/postgresql.conf"),
            &format!(
                "port = {}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{socket_dir}'\nwal_level = replica\n\
                 max_wal_senders = 4\nfsync = off\nmax_connections = 100\n",
                clusters.primary_port
            ),
        );
        append(&format!("{primary}/pg_hba.conf"), "host replication all 127.0.0.1/32 trust\n");
        clusters.run("pg_ctl", &["-D", &primary, "-l", &format!("{primary}.log"), "-w", "start"]);
        let port = clusters.primary_port.to_string();
        clusters.run("pg_basebackup", &["-h", "127.0.0.1", "-p", &port, "-U", "postgres", "-D", &replica, "-R", "-X", "stream"]);
        // Later lines win: the replica listens on its own port. Replay waits for no query.
        append(
            &format!("{replica}/postgresql.conf"),
            &format!("port = {}\nhot_standby = on\nhot_standby_feedback = on\n", clusters.replica_port),
        );
        clusters.start_replica();
        clusters
    }

    fn dir(&self, name: &str) -> String {
        self.root.path().join(name).display().to_string()
    }

    fn primary_url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.primary_port)
    }

    fn replica_url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.replica_port)
    }

    fn start_replica(&self) {
        let replica = self.dir("replica");
        self.run("pg_ctl", &["-D", &replica, "-l", &format!("{replica}.log"), "-w", "start"]);
    }

    fn stop_replica(&self) {
        self.run("pg_ctl", &["-D", &self.dir("replica"), "-m", "fast", "-w", "stop"]);
    }

    /// Runs one of the server's tools, as `postgres` when this is root; panics with its output
    /// when it fails.
    fn run(&self, tool: &str, args: &[&str]) {
        let output = self.command(tool, args).output().unwrap_or_else(|e| panic!("running {tool}: {e}"));
        assert!(
            output.status.success(),
            "{tool} {args:?} failed: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }

    fn command(&self, tool: &str, args: &[&str]) -> Command {
        let mut command = if self.as_postgres {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(self.bin.join(tool));
            command
        } else {
            Command::new(self.bin.join(tool))
        };
        // Somewhere the postgres user may enter.
        command.args(args).current_dir(self.root.path());
        command
    }

    /// One SQL statement on the replica.
    async fn on_replica(&self, sql: &str) {
        let pool = sqlx::postgres::PgPoolOptions::new().max_connections(1).connect(&self.replica_url()).await.unwrap();
        sqlx::query(sql).execute(&pool).await.unwrap_or_else(|e| panic!("{sql} on the replica: {e}"));
        pool.close().await;
    }
}

impl Drop for Clusters {
    fn drop(&mut self) {
        for name in ["replica", "primary"] {
            let _ = self.command("pg_ctl", &["-D", &self.dir(name), "-m", "immediate", "-w", "stop"]).output();
        }
    }
}

/// The PostgreSQL server's binaries: a clear failure when they are missing, never a pass.
fn server_binaries() -> PathBuf {
    let bindir = Command::new("pg_config")
        .arg("--bindir")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
        .unwrap_or_else(|| PathBuf::from("/usr/lib/postgresql/15/bin"));
    for tool in ["initdb", "pg_ctl", "pg_basebackup"] {
        assert!(
            bindir.join(tool).exists(),
            "the read replica tests need the PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup): {} has no {tool}; \
             install the server package (e.g. postgresql-15)",
            bindir.display()
        );
    }
    bindir
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0").unwrap_or(false)
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn append(file: &str, text: &str) {
    use std::io::Write as _;
    std::fs::OpenOptions::new().append(true).open(Path::new(file)).unwrap().write_all(text.as_bytes()).unwrap();
}

/// An answer: status, headers and JSON body.
struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    json: Value,
}

impl Answer {
    #[track_caller]
    fn ok(self) -> Self {
        assert_eq!(self.status, StatusCode::OK, "{}", self.json);
        self
    }

    /// The `Log-Position` a write's answer names.
    #[track_caller]
    fn position(&self) -> u64 {
        let value = self.headers.get("log-position").unwrap_or_else(|| panic!("a write's answer names its log position: {}", self.json));
        value.to_str().unwrap().parse().unwrap()
    }

    fn body(&self) -> &Value {
        &self.json["body"]
    }
}

/// Sends `method uri` as `token`, with `body` (content type, bytes), naming `after` in
/// `Log-Position`.
async fn call(app: &TestApp, method: &str, uri: &str, token: Option<&str>, body: Option<(String, Vec<u8>)>, after: Option<u64>) -> Answer {
    let mut request = Request::builder().method(method).uri(uri);
    if let Some(token) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    if let Some(after) = after {
        request = request.header("Log-Position", after.to_string());
    }
    let request = match body {
        Some((content_type, bytes)) => request.header(header::CONTENT_TYPE, content_type).body(Body::from(bytes)),
        None => request.body(Body::empty()),
    };
    let response = app.router.clone().oneshot(request.unwrap()).await.unwrap();
    let (status, headers) = (response.status(), response.headers().clone());
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
    Answer { status, headers, json: serde_json::from_slice(&bytes).unwrap_or(Value::Null) }
}

fn json_body(value: Value) -> Option<(String, Vec<u8>)> {
    Some(("application/json".into(), value.to_string().into_bytes()))
}

/// The server, its read database on the clusters' primary and the replica configured.
async fn server(clusters: &Clusters) -> TestApp {
    let (primary, replica) = (clusters.primary_url(), clusters.replica_url());
    let max_lag = MAX_LAG.as_millis().to_string();
    TestApp::with_args(&[
        "--contract-address",
        "0xc0ffee",
        "--read-database-url",
        &primary,
        "--read-replica-urls",
        &replica,
        "--read-replica-max-lag-ms",
        &max_lag,
        "--read-replica-wait-ms",
        "250",
    ])
    .await
}

/// Waits until the replica is in the rotation (or out of it).
async fn until_in_rotation(app: &TestApp, wanted: bool) {
    let started = Instant::now();
    loop {
        let status = app.state.read.replica_status();
        if status[0].in_rotation == wanted {
            return;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "the replica's rotation never became {wanted}: {status:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits until the replica's tables include `position`.
async fn until_replica_at(app: &TestApp, position: u64) {
    let started = Instant::now();
    while app.state.read.replica_status()[0].position < position || !app.state.read.replica_status()[0].in_rotation {
        assert!(started.elapsed() < Duration::from_secs(60), "the replica never reached {position}: {:?}", app.state.read.replica_status());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Reads the replica served so far.
fn replica_reads(app: &TestApp) -> u64 {
    app.state.read.replica_status()[0].reads
}

/// An NFT minted and put on fixed-price sale (bookmarks list those by default), appended as the
/// indexer would.
async fn mint(app: &TestApp, token: &str) {
    let origin = |block: u64| Origin { block_number: block, block_time: 1_700_000_000, tx_hash: format!("0x{block:064x}"), log_index: 0 };
    let minted = ChainEvent::NftMinted {
        token_id: token.into(),
        creator: "0xa1".into(),
        token_uri: "/ipfs/m".into(),
        royalties: vec![],
        origin: origin(1),
    };
    let listed = ChainEvent::SaleUpdated {
        token_id: token.into(),
        sale_type: SaleType::FixedPrice,
        price: "1000".into(),
        base_price: "0".into(),
        end_time: 0,
        auction_id: "0".into(),
        origin: origin(2),
    };
    for event in [minted, listed] {
        let new_event = event.to_new_event(uuid::Uuid::now_v7(), Metadata::default()).unwrap();
        let append =
            StreamAppend { stream_id: event.stream_id(support::CHAIN_ID), expected: ExpectedVersion::Any, events: vec![new_event] };
        app.state.store.append_streams(vec![append]).await.unwrap();
    }
    let head = app.state.store.head().await.unwrap().0;
    app.state.projector.wait_for(head, Duration::from_secs(10)).await.unwrap();
}

fn profile_form(full_name: &str) -> Option<(String, Vec<u8>)> {
    Some(Form::new().text("fullName", full_name).finish())
}

/// Every write the API offers without a chain, each followed by a read naming its answer's
/// position, which must show it.
async fn writes_are_read_back(app: &TestApp, token: &str, user_id: &str, round: usize) {
    let nft = "80001-1";
    let renamed = format!("Reader round {round}");
    let wrote = call(app, "PUT", "/api/account/myprofile", Some(token), profile_form(&renamed), None).await.ok().position();
    let read = call(app, "GET", &format!("/api/account/getuserprofile/{user_id}"), None, None, Some(wrote)).await.ok();
    assert_eq!(read.body()["fullName"], json!(renamed), "profile, round {round}");

    let liked = call(app, "PUT", &format!("/api/nft/like/{nft}"), Some(token), None, None).await.ok();
    let now_liked = liked.body()["isLiked"].as_bool().unwrap();
    let read = call(app, "GET", &format!("/api/nft/detail/{nft}"), Some(token), None, Some(liked.position())).await.ok();
    assert_eq!(read.body()["isLiked"], json!(now_liked), "like, round {round}: {}", read.json);

    let marked = call(app, "PUT", &format!("/api/nft/bookmark/{nft}"), Some(token), None, None).await.ok();
    let now_marked = marked.body()["isBookmarked"].as_bool().unwrap();
    let read = call(app, "GET", "/api/nft/browsebookmarked", Some(token), None, Some(marked.position())).await.ok();
    let listed = read.body()["data"].as_array().unwrap().iter().any(|n| n["_id"] == json!(nft));
    assert_eq!(listed, now_marked, "bookmark, round {round}: {}", read.json);

    let title = format!("Shelf {round}");
    let form = Form::new().text("title", &title).file("image", "a.png", "image/png", &png(100)).finish();
    let made = call(app, "POST", "/api/collection", Some(token), Some(form), None).await.ok();
    let id = made.body()["_id"].as_str().or(made.body()["collectionId"].as_str()).unwrap_or_else(|| panic!("{}", made.json)).to_owned();
    let read = call(app, "GET", &format!("/api/collection/browsebyid/{id}"), Some(token), None, Some(made.position())).await.ok();
    assert_eq!(read.body()["title"], json!(title), "collection made, round {round}: {}", read.json);
    let retitled = format!("Shelf {round}, renamed");
    let edited = call(app, "PUT", &format!("/api/collection/{id}"), Some(token), Some(Form::new().text("title", &retitled).finish()), None)
        .await
        .ok();
    let read = call(app, "GET", &format!("/api/collection/browsebyid/{id}"), Some(token), None, Some(edited.position())).await.ok();
    assert_eq!(read.body()["title"], json!(retitled), "collection edited, round {round}: {}", read.json);

    let muted = if round.is_multiple_of(2) { json!(["OUTBID"]) } else { json!(["SOLD"]) };
    let settings = json!({ "muted": muted, "email": [] });
    let saved = call(app, "PUT", "/api/notifications/settings", Some(token), json_body(settings), None).await.ok();
    let read = call(app, "GET", "/api/notifications/settings", Some(token), None, Some(saved.position())).await.ok();
    assert_eq!(read.body()["muted"], muted, "notice settings, round {round}");

    let key =
        call(app, "POST", "/api/account/keys", Some(token), json_body(json!({ "name": format!("bot {round}"), "scopes": ["read"] })), None)
            .await
            .ok();
    let key_id = key.body()["keyId"].clone();
    let read = call(app, "GET", "/api/account/keys", Some(token), None, Some(key.position())).await.ok();
    assert!(read.body().as_array().unwrap().iter().any(|k| k["keyId"] == key_id), "api key, round {round}: {}", read.json);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn replicas_serve_reads_without_losing_a_write_or_a_request() {
    // The replicas' comings and goings, and the reads asked again of the primary, shown on failure.
    let _ = tracing_subscriber::fmt().with_max_level(tracing::Level::INFO).with_test_writer().try_init();
    let clusters = Clusters::start();
    let app = server(&clusters).await;
    let token = app.signed_up("reader@example.com", "reader").await;
    let user_id = app.my_profile(&token).await["userId"].as_str().unwrap().to_owned();
    mint(&app, "1").await;
    until_in_rotation(&app, true).await;

    // (a) Read-your-writes with the replica replaying: named reads go to it once it has them.
    let before = replica_reads(&app);
    writes_are_read_back(&app, &token, &user_id, 0).await;
    assert!(replica_reads(&app) > before, "a replica that keeps up serves reads: {:?}", app.state.read.replica_status());

    // ... and with its replay paused: the reads wait, then read the primary.
    clusters.on_replica("SELECT pg_wal_replay_pause()").await;
    for round in 1..=2 {
        writes_are_read_back(&app, &token, &user_id, round).await;
    }
    until_in_rotation(&app, false).await;

    // (c) A read naming no position never shows a replica staler than the bound: the replica,
    // caught up, stops replaying just before a write; every read started more than the bound
    // after the write was answered shows it (earlier ones may read the replica).
    let mut stale_reads = 0;
    for version in 0..3 {
        clusters.on_replica("SELECT pg_wal_replay_resume()").await;
        let head = app.state.projector.position();
        until_replica_at(&app, head).await;
        clusters.on_replica("SELECT pg_wal_replay_pause()").await;
        let name = format!("Unnamed {version}");
        call(&app, "PUT", "/api/account/myprofile", Some(&token), profile_form(&name), None).await.ok();
        let answered = Instant::now();
        while answered.elapsed() < MAX_LAG + Duration::from_millis(300) {
            let started = Instant::now();
            let read = call(&app, "GET", &format!("/api/account/getuserprofile/{user_id}"), None, None, None).await.ok();
            let shown = read.body()["fullName"].clone();
            if started.duration_since(answered) > MAX_LAG {
                assert_eq!(shown, json!(name), "read {:?} after the write", started.duration_since(answered));
            } else if shown != json!(name) {
                stale_reads += 1;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }
    println!("{stale_reads} reads within the bound showed the paused replica's older state");
    clusters.on_replica("SELECT pg_wal_replay_resume()").await;
    until_in_rotation(&app, true).await;

    // (b) The replica stops and starts again under reads and writes: no request fails.
    let stop = Arc::new(AtomicBool::new(false));
    let failures = Arc::new(Mutex::new(Vec::<String>::new()));
    let reads = Arc::new(AtomicUsize::new(0));
    // The last write answered: its version and position.
    let written = Arc::new(Mutex::new((0_u64, 0_u64)));
    let app = Arc::new(app);
    let mut load = Vec::new();
    {
        let (app, stop, failures, written, token) = (app.clone(), stop.clone(), failures.clone(), written.clone(), token.clone());
        load.push(tokio::spawn(async move {
            let mut version = 0;
            while !stop.load(Ordering::Relaxed) {
                version += 1;
                let answer =
                    call(&app, "PUT", "/api/account/myprofile", Some(&token), profile_form(&format!("Load {version}")), None).await;
                if answer.status != StatusCode::OK {
                    failures.lock().unwrap().push(format!("write: {} {}", answer.status, answer.json));
                    continue;
                }
                *written.lock().unwrap() = (version, answer.position());
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }));
    }
    for reader in 0..4 {
        let (app, stop, failures, written, reads, user_id) =
            (app.clone(), stop.clone(), failures.clone(), written.clone(), reads.clone(), user_id.clone());
        load.push(tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let (version, position) = *written.lock().unwrap();
                // Half the readers name the last write's position, half name none.
                let named = (reader % 2 == 0 && position > 0).then_some(position);
                let answer = call(&app, "GET", &format!("/api/account/getuserprofile/{user_id}"), None, None, named).await;
                reads.fetch_add(1, Ordering::Relaxed);
                if answer.status != StatusCode::OK {
                    failures.lock().unwrap().push(format!("read: {} {}", answer.status, answer.json));
                    continue;
                }
                let shown: u64 =
                    answer.body()["fullName"].as_str().unwrap_or("").strip_prefix("Load ").and_then(|v| v.parse().ok()).unwrap_or(0);
                if named.is_some() && shown < version {
                    failures.lock().unwrap().push(format!("a read naming write {version} showed {shown}"));
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    tokio::task::block_in_place(|| clusters.stop_replica());
    until_in_rotation(&app, false).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    tokio::task::block_in_place(|| clusters.start_replica());
    until_in_rotation(&app, true).await;
    let back = replica_reads(&app);
    tokio::time::sleep(Duration::from_millis(700)).await;
    stop.store(true, Ordering::Relaxed);
    for task in load {
        task.await.unwrap();
    }
    let failures = failures.lock().unwrap().clone();
    assert!(failures.is_empty(), "{} of {} reads failed or went back: {failures:?}", failures.len(), reads.load(Ordering::Relaxed));
    assert!(replica_reads(&app) > back, "the replica serves reads again: {:?}", app.state.read.replica_status());

    // (d) A replay publishes a new generation: the replica is read in its schema, once it has it.
    let old = app.state.read.generation();
    api::ops::replay((*app.state.config).clone()).await.unwrap();
    assert!(app.state.read.refresh().await.unwrap(), "the replay published a new generation");
    assert_ne!(app.state.read.generation(), old);
    until_replica_at(&app, app.state.projector.position()).await;
    let before = replica_reads(&app);
    writes_are_read_back(&app, &token, &user_id, 3).await;
    assert!(replica_reads(&app) > before, "the replica serves the new generation: {:?}", app.state.read.replica_status());
}

#[tokio::test]
async fn an_unreachable_replica_stays_out_and_the_server_still_answers() {
    let db = domain::test_utils::TestPostgres::create().await;
    // A port nothing listens on.
    let nowhere = format!("postgres://postgres@127.0.0.1:{}/postgres", free_port());
    let app = TestApp::with_args(&["--read-database-url", &db.url, "--read-replica-urls", &nowhere]).await;
    let token = app.signed_up("alone@example.com", "alone").await;
    let wrote = call(&app, "PUT", "/api/account/myprofile", Some(&token), profile_form("Still Here"), None).await.ok().position();
    let me = app.my_profile(&token).await;
    let read = call(&app, "GET", &format!("/api/account/getuserprofile/{}", me["userId"].as_str().unwrap()), None, None, Some(wrote)).await;
    assert_eq!(read.ok().body()["fullName"], "Still Here");
    // Its first look fails once the connection's timeout has passed; it never joins.
    let started = Instant::now();
    let status = loop {
        let status = app.state.read.replica_status();
        assert!(!status[0].in_rotation, "{status:?}");
        // (Bounded well past the connection's timeout: a loaded machine took over 10 s once.)
        if status[0].error.is_some() || started.elapsed() > Duration::from_secs(30) {
            break status;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    // The cause, as the log tells it (the pool alone would only say it timed out).
    assert!(status[0].error.as_deref().is_some_and(|e| e.starts_with("cannot connect")), "{status:?}");
    assert_eq!(status[0].replica, nowhere.trim_start_matches("postgres://postgres@"));
}

#[tokio::test]
async fn replicas_need_a_postgres_read_database_and_a_position_is_a_number() {
    let dir = tempfile::tempdir().unwrap();
    let read = projections::ReadDb::open(&format!("sqlite://{}", dir.path().join("read.db").display())).await.unwrap();
    let settings = projections::ReplicaSettings {
        urls: vec!["postgres://127.0.0.1:1/market".into()],
        max_lag: Duration::from_secs(1),
        wait: Duration::from_millis(250),
    };
    let refused = read.with_replicas(&settings).err().expect("refused on SQLite").to_string();
    assert!(refused.contains("READ_REPLICA_URLS needs a PostgreSQL read database"), "{refused}");

    let app = TestApp::new().await;
    assert_eq!(call(&app, "GET", "/api/config", None, None, Some(7)).await.status, StatusCode::OK);
    let request = Request::get("/api/config").header("Log-Position", "soon").body(Body::empty()).unwrap();
    assert_eq!(app.router.clone().oneshot(request).await.unwrap().status(), StatusCode::BAD_REQUEST);
}
