//! Event store throughput against each database's own raw limit, measured in the same run.
//!
//! For SQLite and Postgres: batched appends (100 events a batch), single-event durable appends,
//! and a full sequential read, each as events/s and as a ratio to the bare database doing the
//! same I/O: a bare INSERT of the same bytes in the same batch shape into a table with the same
//! columns and no checks, a bare INSERT+COMMIT per event, a bare SELECT scan. Each raw limit
//! goes through the driver the store itself uses (rusqlite for SQLite, sqlx for Postgres).
//! Appends alternate with their raw loop in rounds (ten for batches, every ten events for single
//! appends), so both see the same disk.
//!
//! `cargo bench -p domain --bench event_store`; `BENCH_EVENTS` sets the log size
//! (default 1,000,000), `BENCH_SINGLE` the single-append count (default 5,000),
//! `BENCH_BACKENDS=sqlite,postgres` which databases.

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use domain::{
    EventStore, ExpectedVersion, Metadata, NewEvent, StreamAppend,
    store::{postgres::PostgresEventStore, sqlite::SqliteEventStore},
    test_utils::TestPostgres,
};
use futures::TryStreamExt;
use sqlx::Row;
use uuid::Uuid;

const BATCH: usize = 100;
const STREAMS_PER_BATCH: usize = 10;
const STREAM_POOL: u64 = 10_000;
const READ_PAGE: usize = 10_000;
/// Appends alternate with their raw loop in rounds, so both meet the same disk and the same
/// neighbours: on a shared machine one fsync can take several times another.
const BATCH_ROUNDS: usize = 10;
/// Single appends alternate with their raw loop every this many events: one durable commit
/// costs a few hundred microseconds and the shared disk's fsync time swings several-fold within
/// a second, so only short rounds let both loops meet the same disk.
const SINGLE_ROUND: usize = 10;

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.replace('_', "").parse().ok()).unwrap_or(default)
}

/// A deterministic xorshift, so every run writes the same data without a rand dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A realistic chain event: ~300 bytes of JSON like the indexer's `BidPlaced`.
fn payload(rng: &mut Rng) -> String {
    format!(
        r#"{{"tokenId":"{}","auctionId":"{}","bidder":"0x{:040x}","amount":"{}","endTime":{},"txHash":"0x{:064x}","blockNumber":{},"logIndex":{},"currency":"MATIC","chainId":80001}}"#,
        rng.next() % 1_000_000,
        rng.next() % 100_000,
        rng.next() as u128 * rng.next() as u128,
        rng.next() % 10_000_000_000_000_000_000,
        1_763_000_000 + rng.next() % 10_000_000,
        rng.next() as u128 * rng.next() as u128,
        rng.next() % 50_000_000,
        rng.next() % 200,
    )
}

fn metadata() -> Metadata {
    Metadata { actor: Some("indexer".into()), correlation_id: Some(Uuid::now_v7()), ..Metadata::default() }
}

fn batch(rng: &mut Rng) -> Vec<StreamAppend> {
    (0..STREAMS_PER_BATCH)
        .map(|j| StreamAppend {
            // Distinct streams within a batch, spread over the whole pool across batches.
            stream_id: format!("nft-80001-{}", rng.next() % (STREAM_POOL / STREAMS_PER_BATCH as u64) * STREAMS_PER_BATCH as u64 + j as u64),
            expected: ExpectedVersion::Any,
            events: (0..BATCH / STREAMS_PER_BATCH)
                .map(|_| NewEvent::new("BidPlaced", 1, &serde_json::Value::Null, metadata()).unwrap())
                .map(|e| NewEvent { payload: payload(rng), ..e })
                .collect(),
        })
        .collect()
}

/// Rows exactly as the store writes them (same columns and sizes), for the raw baselines.
struct RawRow {
    stream_id: String,
    stream_version: i64,
    event_id: Uuid,
    payload: String,
    metadata: String,
    hash: [u8; 32],
}

fn raw_rows(rng: &mut Rng, n: usize) -> Vec<RawRow> {
    (0..n)
        .map(|i| RawRow {
            stream_id: format!("nft-80001-{}", rng.next() % STREAM_POOL),
            stream_version: i as i64,
            event_id: Uuid::now_v7(),
            payload: payload(rng),
            metadata: serde_json::to_string(&metadata()).unwrap(),
            hash: {
                let mut h = [0u8; 32];
                h[..8].copy_from_slice(&rng.next().to_be_bytes());
                h
            },
        })
        .collect()
}

struct Figure {
    what: &'static str,
    ours: f64,
    raw: f64,
    goal: Option<f64>,
    ratio_goal: f64,
}

fn rate(n: usize, elapsed: Duration) -> f64 {
    n as f64 / elapsed.as_secs_f64()
}

/// The three figures of a backend (events/s beside its raw limit), with its absolute goals for
/// batched appends and the full read; single appends have only the ratio goal.
fn store_figures(batched: [f64; 2], single: [f64; 2], read: [f64; 2], batched_goal: f64, read_goal: f64) -> [Figure; 3] {
    [
        Figure { what: "batched append (100/batch)", ours: batched[0], raw: batched[1], goal: Some(batched_goal), ratio_goal: 0.5 },
        Figure { what: "single durable append", ours: single[0], raw: single[1], goal: None, ratio_goal: 0.8 },
        Figure { what: "full sequential read", ours: read[0], raw: read[1], goal: Some(read_goal), ratio_goal: 0.5 },
    ]
}

fn report(backend: &str, events: usize, figures: &[Figure]) {
    println!("\n{backend}: {events} events of ~300-byte payload");
    println!("  {:<28} {:>14} {:>14} {:>7}  goals", "", "events/s", "raw limit/s", "ratio");
    for f in figures {
        let ratio = f.ours / f.raw;
        let goal = f.goal.map(|g| format!(">= {g:.0}/s, ")).unwrap_or_default();
        let met = f.goal.is_none_or(|g| f.ours >= g) && ratio >= f.ratio_goal;
        println!(
            "  {:<28} {:>14.0} {:>14.0} {:>7.2}  {goal}ratio >= {} {}",
            f.what,
            f.ours,
            f.raw,
            ratio,
            f.ratio_goal,
            if met { "ok" } else { "MISSED" }
        );
    }
}

/// The batches the store appends, `events / BATCH` of them.
fn batches(events: usize) -> Vec<Vec<StreamAppend>> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    (0..events / BATCH).map(|_| batch(&mut rng)).collect()
}

async fn append_batches(store: &dyn EventStore, batches: Vec<Vec<StreamAppend>>) -> Duration {
    let start = Instant::now();
    for b in batches {
        store.append_streams(b).await.expect("append batch");
    }
    start.elapsed()
}

/// `batches` split into the rounds of [`BATCH_ROUNDS`].
fn rounds(batches: Vec<Vec<StreamAppend>>) -> Vec<Vec<Vec<StreamAppend>>> {
    let per_round = batches.len().div_ceil(BATCH_ROUNDS).max(1);
    let mut batches = batches.into_iter();
    std::iter::from_fn(|| Some(batches.by_ref().take(per_round).collect::<Vec<_>>()).filter(|r| !r.is_empty())).collect()
}

/// The single-event appends, taken round by round (see [`SINGLE_ROUND`]).
struct Singles {
    events: std::vec::IntoIter<NewEvent>,
    appended: usize,
}

impl Singles {
    fn new(n: usize) -> Self {
        let mut rng = Rng(7);
        let events: Vec<_> =
            (0..n).map(|_| NewEvent { payload: payload(&mut rng), ..NewEvent::new("BidPlaced", 1, &(), metadata()).unwrap() }).collect();
        Self { events: events.into_iter(), appended: 0 }
    }

    /// Appends the next `n` events one by one; the time they took.
    async fn append(&mut self, store: &dyn EventStore, n: usize) -> Duration {
        let events: Vec<_> = self.events.by_ref().take(n).collect();
        let start = Instant::now();
        for e in events {
            let stream = format!("single-{}", self.appended % 100);
            store.append(&stream, ExpectedVersion::Any, vec![e]).await.expect("append");
            self.appended += 1;
        }
        start.elapsed()
    }
}

async fn read_everything(store: &dyn EventStore) -> (usize, Duration) {
    let start = Instant::now();
    let mut after = 0;
    let mut n = 0;
    loop {
        let page = store.read_all(after, READ_PAGE).await.expect("read");
        let Some(last) = page.last() else { break };
        after = last.position;
        n += page.len();
    }
    (n, start.elapsed())
}

// ---------- SQLite ----------

/// A row as the raw scan decodes it: owned text, borrowed blobs (as the store's decoder gets them).
type SqliteRawRow<'a> = (i64, String, i64, &'a [u8], String, i64, String, String, i64, &'a [u8]);

const SQLITE_RAW_TABLE: &str = "CREATE TABLE raw (position INTEGER PRIMARY KEY, stream_id TEXT NOT NULL, \
    stream_version INTEGER NOT NULL, event_id BLOB NOT NULL, event_type TEXT NOT NULL, schema_version INTEGER NOT NULL, \
    payload TEXT NOT NULL, metadata TEXT NOT NULL, recorded_at INTEGER NOT NULL, hash BLOB NOT NULL)";

fn sqlite_raw_insert(statement: &mut rusqlite::CachedStatement<'_>, position: usize, r: &RawRow) {
    statement
        .execute(rusqlite::params![
            position as i64,
            r.stream_id,
            r.stream_version,
            &r.event_id.as_bytes()[..],
            "BidPlaced",
            1i64,
            r.payload,
            r.metadata,
            0i64,
            &r.hash[..]
        ])
        .expect("raw insert");
}

const SQLITE_RAW_INSERT: &str = "INSERT INTO raw (position, stream_id, stream_version, event_id, event_type, \
    schema_version, payload, metadata, recorded_at, hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";

/// Raw batches: one transaction per batch, SQLite's fastest bulk form inside (one prepared
/// single-row INSERT run per row).
fn sqlite_raw_batches(raw: &mut rusqlite::Connection, rows: &[RawRow], before: usize) -> Duration {
    let start = Instant::now();
    for (i, chunk) in rows.chunks(BATCH).enumerate() {
        let tx = raw.transaction().unwrap();
        {
            let mut statement = tx.prepare_cached(SQLITE_RAW_INSERT).unwrap();
            for (j, r) in chunk.iter().enumerate() {
                sqlite_raw_insert(&mut statement, before + i * BATCH + j + 1, r);
            }
        }
        tx.commit().unwrap();
    }
    start.elapsed()
}

/// Raw single rows, each its own durable (autocommit) transaction.
fn sqlite_raw_singles(raw: &rusqlite::Connection, rows: &[RawRow], first: usize) -> Duration {
    let start = Instant::now();
    for (i, r) in rows.iter().enumerate() {
        sqlite_raw_insert(&mut raw.prepare_cached(SQLITE_RAW_INSERT).unwrap(), first + i, r);
    }
    start.elapsed()
}

/// A raw scan of every row, decoding each column.
fn sqlite_raw_read(raw: &rusqlite::Connection) -> (usize, Duration) {
    let start = Instant::now();
    let mut read = 0usize;
    let mut statement = raw.prepare("SELECT * FROM raw ORDER BY position").unwrap();
    let mut cursor = statement.query([]).unwrap();
    while let Some(row) = cursor.next().unwrap() {
        let _: SqliteRawRow<'_> = (
            row.get(0).unwrap(),
            row.get(1).unwrap(),
            row.get(2).unwrap(),
            row.get_ref(3).unwrap().as_blob().unwrap(),
            row.get(4).unwrap(),
            row.get(5).unwrap(),
            row.get(6).unwrap(),
            row.get(7).unwrap(),
            row.get(8).unwrap(),
            row.get_ref(9).unwrap().as_blob().unwrap(),
        );
        read += 1;
    }
    (read, start.elapsed())
}

async fn bench_sqlite(events: usize, singles: usize) {
    let dir = tempfile::tempdir_in(std::env::var("BENCH_DIR").unwrap_or_else(|_| ".".into())).unwrap();
    let mut rng = Rng(42);

    // Raw limit: the same rows, same batch shape, the driver and connection settings the store
    // uses, no checks.
    let mut raw = domain::store::sqlite::open_connection(&dir.path().join("raw.db")).unwrap();
    raw.execute(SQLITE_RAW_TABLE, []).unwrap();
    let rows = raw_rows(&mut rng, events);
    let store = SqliteEventStore::open(&dir.path().join("events.db")).await.unwrap();

    let (mut raw_batched, mut batched) = (Duration::ZERO, Duration::ZERO);
    let mut first = 0;
    for round in rounds(batches(events)) {
        let n = round.len() * BATCH;
        raw_batched += sqlite_raw_batches(&mut raw, &rows[first..first + n], first);
        batched += append_batches(&store, round).await;
        first += n;
    }
    let (raw_batched, batched) = (rate(events, raw_batched), rate(events, batched));

    let (mut raw_single, mut single) = (Duration::ZERO, Duration::ZERO);
    let mut ours = Singles::new(singles);
    for (round, chunk) in rows[..singles].chunks(SINGLE_ROUND).enumerate() {
        raw_single += sqlite_raw_singles(&raw, chunk, events + round * SINGLE_ROUND + 1);
        single += ours.append(&store, chunk.len()).await;
    }
    drop(rows);

    let (n, elapsed) = sqlite_raw_read(&raw);
    let raw_read = rate(n, elapsed);
    let (n, elapsed) = read_everything(&store).await;
    let full_read = rate(n, elapsed);

    report(
        "SQLite (WAL, synchronous=FULL)",
        events,
        &store_figures(
            [batched, raw_batched],
            [rate(singles, single), rate(singles, raw_single)],
            [full_read, raw_read],
            100_000.0,
            500_000.0,
        ),
    );
}

// ---------- Postgres ----------

/// A row as the raw scan decodes it.
type PgRawRow<'a> = (i64, String, i64, Uuid, String, i32, String, String, chrono::DateTime<chrono::Utc>, &'a [u8]);

async fn pg_raw_insert(pool: &sqlx::PgPool, rows: &[RawRow], first: i64) {
    let positions: Vec<i64> = (0..rows.len() as i64).map(|i| first + i).collect();
    sqlx::query(
        "INSERT INTO raw (position, stream_id, stream_version, event_id, event_type, schema_version, payload, metadata, recorded_at, hash) \
         SELECT p, s, v, e, 'BidPlaced', 1, pl::json, m::json, now(), h FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::uuid[], $5::text[], $6::text[], $7::bytea[]) AS t(p, s, v, e, pl, m, h)",
    )
    .bind(&positions)
    .bind(rows.iter().map(|r| r.stream_id.as_str()).collect::<Vec<_>>())
    .bind(rows.iter().map(|r| r.stream_version).collect::<Vec<_>>())
    .bind(rows.iter().map(|r| r.event_id).collect::<Vec<_>>())
    .bind(rows.iter().map(|r| r.payload.as_str()).collect::<Vec<_>>())
    .bind(rows.iter().map(|r| r.metadata.as_str()).collect::<Vec<_>>())
    .bind(rows.iter().map(|r| r.hash.to_vec()).collect::<Vec<_>>())
    .execute(pool)
    .await
    .expect("raw insert");
}

async fn bench_postgres(events: usize, singles: usize) {
    let db = TestPostgres::create().await;
    let pool = sqlx::PgPool::connect(&db.url).await.unwrap();
    let mut rng = Rng(42);

    // Raw limit: same columns (json payload as the log stores it), no uniqueness checks.
    sqlx::query(
        "CREATE TABLE raw (position BIGINT PRIMARY KEY, stream_id TEXT NOT NULL, stream_version BIGINT NOT NULL, \
         event_id UUID NOT NULL, event_type TEXT NOT NULL, schema_version INTEGER NOT NULL, payload JSON NOT NULL, \
         metadata JSON NOT NULL, recorded_at TIMESTAMPTZ NOT NULL, hash BYTEA NOT NULL)",
    )
    .execute(&pool)
    .await
    .unwrap();
    let rows = raw_rows(&mut rng, events);
    let store: Arc<dyn EventStore> = Arc::new(PostgresEventStore::with_pool(pool.clone()).await.unwrap());

    let (mut raw_batched, mut batched) = (Duration::ZERO, Duration::ZERO);
    let mut first = 0;
    for round in rounds(batches(events)) {
        let n = round.len() * BATCH;
        let start = Instant::now();
        for (i, raw) in rows[first..first + n].chunks(BATCH).enumerate() {
            pg_raw_insert(&pool, raw, (first + i * BATCH + 1) as i64).await;
        }
        raw_batched += start.elapsed();
        batched += append_batches(store.as_ref(), round).await;
        first += n;
    }
    let (raw_batched, batched) = (rate(events, raw_batched), rate(events, batched));

    let (mut raw_single, mut single) = (Duration::ZERO, Duration::ZERO);
    let mut ours = Singles::new(singles);
    for (round, chunk) in rows[..singles].chunks(SINGLE_ROUND).enumerate() {
        let start = Instant::now();
        for (i, row) in chunk.iter().enumerate() {
            pg_raw_insert(&pool, std::slice::from_ref(row), (events + round * SINGLE_ROUND + i + 1) as i64).await;
        }
        raw_single += start.elapsed();
        single += ours.append(store.as_ref(), chunk.len()).await;
    }
    drop(rows);

    let start = Instant::now();
    let mut read = 0usize;
    {
        let mut stream = sqlx::query(
            "SELECT position, stream_id, stream_version, event_id, event_type, schema_version, payload::text, metadata::text, recorded_at, hash FROM raw ORDER BY position",
        )
        .fetch(&pool);
        while let Some(row) = stream.try_next().await.unwrap() {
            let _: PgRawRow<'_> =
                (row.get(0), row.get(1), row.get(2), row.get(3), row.get(4), row.get(5), row.get(6), row.get(7), row.get(8), row.get(9));
            read += 1;
        }
    }
    let raw_read = rate(read, start.elapsed());
    let (n, elapsed) = read_everything(store.as_ref()).await;
    let full_read = rate(n, elapsed);
    drop(store);
    pool.close().await;

    report(
        "PostgreSQL (fsync on, synchronous_commit on)",
        events,
        &store_figures(
            [batched, raw_batched],
            [rate(singles, single), rate(singles, raw_single)],
            [full_read, raw_read],
            30_000.0,
            200_000.0,
        ),
    );
}

#[tokio::main]
async fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` passes nothing we need.
    let events = env_usize("BENCH_EVENTS", 1_000_000) / BATCH * BATCH;
    let singles = env_usize("BENCH_SINGLE", 5_000).min(events);
    let backends = std::env::var("BENCH_BACKENDS").unwrap_or_else(|_| "sqlite,postgres".into());
    println!("event store benchmark: {events} events, {singles} single appends, batches of {BATCH} over {STREAMS_PER_BATCH} streams");
    if backends.contains("sqlite") {
        bench_sqlite(events, singles).await;
    }
    if backends.contains("postgres") {
        bench_postgres(events, singles).await;
    }
}
