//! Replay throughput: a market history of 1,000,000 events in a SQLite log, then
//! (a) a bare read of the whole log in the projector's batches, and
//! (b) a replay of the whole log into fresh read tables (what `marketplace replay` does);
//! prints events/s of both and their ratio. Goal: replay >= 100,000 events/s on SQLite.
//!
//! `cargo bench -p projections --bench replay --features test-utils` (EVENTS=100000 for a
//! quicker run).

use std::time::{Duration, Instant};

use domain::{ExpectedVersion, Metadata, StreamAppend, catalog::CatalogEvent};
use projections::{Projector, ReadDb, test_utils::market_history};

/// Events per read, as the projector reads them.
const BATCH: usize = 20_000;
/// Average events a token adds to the history (mint, listing, description, trades, checkpoints).
const EVENTS_PER_NFT: u64 = 8;

#[tokio::main]
async fn main() {
    let target: u64 = std::env::var("EVENTS").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000_000);
    let dir = tempfile::tempdir().unwrap();
    let store = domain::store::open(&format!("sqlite://{}", dir.path().join("events.db").display())).await.unwrap();

    // The log: the default categories, then blocks until the target is reached.
    let started = Instant::now();
    let categories = domain::catalog::DEFAULT_CATEGORIES
        .iter()
        .map(|(id, name)| CatalogEvent::CategoryAdded { id: (*id).into(), name: (*name).into() }.to_new_event(Metadata::default()).unwrap())
        .collect();
    store
        .append_streams(vec![StreamAppend { stream_id: "categories".into(), expected: ExpectedVersion::Any, events: categories }])
        .await
        .unwrap();
    let mut head = 0;
    for writes in market_history(target / EVENTS_PER_NFT + 1) {
        head = store.append_streams(writes).await.unwrap().last_position;
        if head >= target {
            break;
        }
    }
    let bytes: u64 = std::fs::read_dir(dir.path()).unwrap().map(|f| f.unwrap().metadata().unwrap().len()).sum();
    println!("log of {head} events written in {:.1} s ({} MB on disk)", started.elapsed().as_secs_f64(), bytes >> 20);

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
    let db = ReadDb::open(&format!("sqlite://{}", dir.path().join("read.db").display())).await.unwrap();
    let projector = Projector::new(store.clone(), db.clone()).await.unwrap();
    let t = Instant::now();
    let reached =
        tokio::time::timeout(Duration::from_secs(1_800), projector.catch_up()).await.expect("replay took over 30 minutes").unwrap();
    let replay = t.elapsed();
    assert_eq!(reached, head);
    let nfts: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM nfts").fetch_one(&db.pool()).await.unwrap();
    let checksum = db.checksum().await.unwrap();

    let rate = |d: Duration| head as f64 / d.as_secs_f64();
    println!("---");
    println!("replay of {head} events ({nfts} NFTs) into SQLite:");
    println!("  bare log read : {:>10.0} events/s ({:.2} s)", rate(bare), bare.as_secs_f64());
    println!("  replay        : {:>10.0} events/s ({:.2} s; goal >= 100,000 on SQLite)", rate(replay), replay.as_secs_f64());
    println!("  ratio         : {:>10.2}", bare.as_secs_f64() / replay.as_secs_f64());
    println!("  checksum      : {checksum}");
}
