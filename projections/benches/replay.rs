//! Replay throughput: a market history of 1,000,000 events in a SQLite log, then
//! (a) a bare read of the whole log in the projector's batches, and
//! (b) a replay of the whole log into fresh read tables (what `marketplace replay` does);
//! prints events/s of both and their ratio. Goal: replay >= 250,000 events/s on SQLite, at a
//! ratio >= 0.25 to the bare read.
//! Then the live projector, as a server runs it, catching up (c) the whole log on an empty read
//! database (a new server) and (d) the second half of the log on read tables that already hold
//! the first half (a server back after downtime); goal: each within 1.5x of the replay's time
//! for as many events.
//!
//! `cargo bench -p projections --bench replay --features test-utils` (EVENTS=100000 for a
//! quicker run; REMEMBERED_ROWS to change what the read models may keep in memory; REPLAY_ONLY=1
//! to stop after the replay, for a profile of it alone).

use std::time::{Duration, Instant};

use domain::{ExpectedVersion, Metadata, StreamAppend, catalog::CatalogEvent};
use projections::{Projector, ReadDb, test_utils::market_history};

// As the `marketplace` binary, whose `replay` this measures.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Events per read, as the projector reads them.
const BATCH: usize = 20_000;
/// Average events a token adds to the history (mint, listing, description, trades, checkpoints).
const EVENTS_PER_NFT: u64 = 8;

#[tokio::main]
async fn main() {
    let target: u64 = std::env::var("EVENTS").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000_000);
    let dir = tempfile::tempdir().unwrap();
    // BENCH_LOG=path keeps the log there and reuses it on the next run (of the same EVENTS).
    let log = std::env::var_os("BENCH_LOG").map(std::path::PathBuf::from).unwrap_or_else(|| dir.path().join("events.db"));
    let reuse = log.exists();
    let store = domain::store::open(&format!("sqlite://{}", log.display())).await.unwrap();

    // A server that was down: its read tables hold the first half of the log (written first).
    let half = ReadDb::open(&format!("sqlite://{}", dir.path().join("read-half.db").display())).await.unwrap();
    let head = if reuse {
        let head = store.head().await.unwrap().0;
        println!("log of {head} events reused from {}: the downtime case (d) needs a new log and is skipped", log.display());
        head
    } else {
        write_categories(store.as_ref()).await;
        let mut blocks = market_history(target / EVENTS_PER_NFT + 1);
        append_until(store.as_ref(), &mut blocks, target / 2).await;
        Projector::new(store.clone(), half.clone()).await.unwrap().catch_up().await.unwrap();
        append_until(store.as_ref(), &mut blocks, target).await;
        let head = store.head().await.unwrap().0;
        let bytes: u64 = std::fs::read_dir(log.parent().unwrap()).unwrap().map(|f| f.unwrap().metadata().unwrap().len()).sum();
        println!("log of {head} events written ({} MB on disk)", bytes >> 20);
        head
    };

    // (a) The bare read, as the projector reads: batches after the last position.
    let t = Instant::now();
    let mut after = 0;
    let mut read = 0;
    loop {
        let events = store.read_all(after, BATCH).await.unwrap();
        let Some(last) = events.last() else { break };
        after = last.position;
        read += events.len();
    }
    let bare = t.elapsed();
    assert_eq!(read as u64, head);

    // (b) The replay into fresh read tables.
    // As `marketplace replay` does: a new generation, published once it has caught up.
    let db = ReadDb::open_generation(&format!("sqlite://{}", dir.path().join("read.db").display()), "replay").await.unwrap();
    let mut projector = Projector::new(store.clone(), db.clone()).await.unwrap();
    // REMEMBERED_ROWS=0 shows the replay when the read models cannot keep their rows in memory.
    if let Some(rows) = std::env::var("REMEMBERED_ROWS").ok().and_then(|v| v.parse().ok()) {
        projector = projector.with_remembered_rows(rows);
    }
    let cpu_before = cpu_seconds();
    let t = Instant::now();
    let reached =
        tokio::time::timeout(Duration::from_secs(1_800), projector.catch_up()).await.expect("replay took over 30 minutes").unwrap();
    db.publish().await.unwrap();
    let replay = t.elapsed();
    let cpu = cpu_seconds() - cpu_before;
    assert_eq!(reached, head);
    if std::env::var_os("REPLAY_ONLY").is_some() {
        // For profiling the replay alone: no checksum, no live catch-up.
        let rate = head as f64 / replay.as_secs_f64();
        println!(
            "bare read {:.0} events/s, replay {rate:.0} events/s, ratio {:.2}, CPU {cpu:.2} s",
            head as f64 / bare.as_secs_f64(),
            bare.as_secs_f64() / replay.as_secs_f64()
        );
        return;
    }
    let nfts: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM nfts").fetch_one(&db.pool()).await.unwrap();
    let checksum = db.checksum().await.unwrap();

    // (c) A new server's live projector on an empty read database.
    let live = ReadDb::open(&format!("sqlite://{}", dir.path().join("read-live.db").display())).await.unwrap();
    let live_projector = Projector::new(store.clone(), live.clone()).await.unwrap();
    let t = Instant::now();
    assert_eq!(live_projector.catch_up().await.unwrap(), head);
    let fresh = t.elapsed();
    assert_eq!(live.checksum().await.unwrap(), checksum, "the live tables equal the replay's");

    // (d) The server back after downtime: the rest of the log onto the first half's tables.
    let resumed = if reuse {
        None
    } else {
        let from = half.position().await.unwrap();
        let t = Instant::now();
        // A new process: its projector opens the tables where the last one left them.
        assert_eq!(Projector::new(store.clone(), half.clone()).await.unwrap().catch_up().await.unwrap(), head);
        let took = t.elapsed();
        assert_eq!(half.checksum().await.unwrap(), checksum, "the resumed tables equal the replay's");
        Some((head - from, took))
    };

    let rate = |d: Duration| head as f64 / d.as_secs_f64();
    println!("---");
    println!("replay of {head} events ({nfts} NFTs) into SQLite:");
    println!("  bare log read : {:>10.0} events/s ({:.2} s)", rate(bare), bare.as_secs_f64());
    println!("  replay        : {:>10.0} events/s ({:.2} s; goal >= 250,000 on SQLite)", rate(replay), replay.as_secs_f64());
    println!("  ratio         : {:>10.2} (goal >= 0.25)", bare.as_secs_f64() / replay.as_secs_f64());
    println!("  replay's CPU  : {cpu:>10.2} s (user + system, every thread of the process)");
    println!("  checksum      : {checksum}");
    let replay_rate = rate(replay);
    println!(
        "  live, new server     : {:>10.0} events/s ({:.2} s; {:.2}x the replay's time, goal <= 1.5x)",
        rate(fresh),
        fresh.as_secs_f64(),
        fresh.as_secs_f64() / replay.as_secs_f64()
    );
    if let Some((events, took)) = resumed {
        let same_events_by_replay = events as f64 / replay_rate;
        println!(
            "  live, back from down : {:>10.0} events/s ({events} events onto tables holding the first {}, {:.2} s; {:.2}x a replay's time for as many, goal <= 1.5x)",
            events as f64 / took.as_secs_f64(),
            head - events,
            took.as_secs_f64(),
            took.as_secs_f64() / same_events_by_replay
        );
    }
}

/// Appends the history's next blocks until the log holds `target` events.
async fn append_until(store: &dyn domain::EventStore, blocks: &mut impl Iterator<Item = Vec<StreamAppend>>, target: u64) {
    for writes in blocks {
        if store.append_streams(writes).await.unwrap().last_position >= target {
            break;
        }
    }
}

/// The log's first events: the default categories.
async fn write_categories(store: &dyn domain::EventStore) {
    let categories = domain::catalog::DEFAULT_CATEGORIES
        .iter()
        .map(|(id, name)| CatalogEvent::CategoryAdded { id: (*id).into(), name: (*name).into() }.to_new_event(Metadata::default()).unwrap())
        .collect();
    store
        .append_streams(vec![StreamAppend { stream_id: "categories".into(), expected: ExpectedVersion::Any, events: categories }])
        .await
        .unwrap();
}

/// User + system CPU time of this process so far (Linux; 0 elsewhere).
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // After the command name (in parentheses): state is field 3, utime 14, stime 15.
    let fields: Vec<&str> = stat.rsplit_once(')').map_or("", |(_, rest)| rest).split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}
