//! The embedded default: one SQLite file in WAL mode.
//!
//! The store reaches SQLite through `rusqlite`, in place of the async worker (see `blocking`):
//! an append runs several statements and a read decodes thousands of rows, and sqlx's driver
//! would send each of them through its worker thread's channel. sqlx still runs the migrations,
//! and [`connect_options`] still serves the read models.
//!
//! Every append is one `BEGIN IMMEDIATE` transaction. It holds SQLite's write lock from its
//! first statement, so what it reads (the head row, the streams' versions) cannot change before
//! it commits: it decides from the truth, inserts, moves the head once and commits. A second
//! store or process on the same file waits for the lock (busy timeout) and then reads the
//! first one's commit; nobody writes from a stale view. What the writer's own last commit left
//! (the head, its streams' versions) it reuses while `PRAGMA data_version`, read under the lock,
//! says no other connection has committed since. Reads run on a small pool of their own
//! connections and never block the writer (WAL).

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    sync::{Arc, Mutex as StdMutex},
    time::Duration,
};

use async_trait::async_trait;
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use sqlx::{
    Connection as _, SqlitePool,
    sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous},
};
use tokio::sync::{Mutex, Semaphore, watch};
use uuid::Uuid;

use super::{
    AppendOutcome, EventStore, Position, PreparedRow, RecordedEvent, StoreError, StreamAppend, hash, now_micros, prepare_rows,
    replayed_outcome, signal_appended, validate_batch,
};

const COLUMNS: &str = "position, stream_id, stream_version, event_id, event_type, schema_version, \
                       payload, metadata, recorded_at, hash";
/// A stream's version: the end of its last range (no row: no stream).
const STREAM_VERSION: &str = "SELECT last_version FROM stream_ranges WHERE stream_id = ?1 ORDER BY first_version DESC LIMIT 1";
/// A stream's events from a version on: the ranges from the one holding that version, each
/// joined to its run of positions in the log.
const READ_STREAM: &str = "SELECT e.position, e.stream_id, e.stream_version, e.event_id, e.event_type, \
    e.schema_version, e.payload, e.metadata, e.recorded_at, e.hash \
    FROM stream_ranges r JOIN event_log e \
      ON e.position BETWEEN r.first_position AND r.first_position + r.last_version - r.first_version \
    WHERE r.stream_id = ?1 AND e.stream_version >= ?2 AND r.first_version >= COALESCE( \
      (SELECT MAX(first_version) FROM stream_ranges WHERE stream_id = ?1 AND first_version <= ?2), 0) \
    ORDER BY r.first_version, e.position LIMIT ?3";
/// How long a connection waits for another writer's lock before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);
/// Concurrent reads (and connections kept open for them).
const READERS: usize = 4;
/// Streams whose versions the writer remembers; past it the memory starts over.
const KNOWN_STREAMS: usize = 100_000;
/// Connection settings shared by the read models, tools and the migrations: WAL, and
/// `synchronous = FULL` so a committed append survives a power cut, not only a crash.
/// [`open_connection`] applies the same settings to the store's own connections.
pub fn connect_options(path: &Path) -> SqliteConnectOptions {
    SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Full)
        .busy_timeout(BUSY_TIMEOUT)
}

/// A `rusqlite` connection with the settings of [`connect_options`]: WAL, `synchronous = FULL`
/// (in WAL mode, every commit syncs the WAL before it returns), the same busy timeout.
pub fn open_connection(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    let mode: String = conn.pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(StoreError::Backend(format!("sqlite: cannot switch {} to WAL (still {mode})", path.display())));
    }
    conn.pragma_update(None, "synchronous", "FULL")?;
    // A checkpoint every 40 MB of WAL instead of every 4 MB: a large append (the indexer's,
    // a few MB) then pays for one checkpoint in ten, not one in two, and each checkpoint is
    // two more fsyncs. Readers and recovery have at most 40 MB of WAL to look through.
    conn.pragma_update(None, "wal_autocheckpoint", 10_000)?;
    Ok(conn)
}

/// A read connection: [`open_connection`]'s settings, reading the file through a memory map
/// (pages are copied by no system call: a projector catching up reads the whole log).
fn open_reader(path: &Path) -> Result<Connection, StoreError> {
    let conn = open_connection(path)?;
    conn.pragma_update(None, "mmap_size", 1_i64 << 34)?;
    Ok(conn)
}

impl From<rusqlite::Error> for StoreError {
    fn from(err: rusqlite::Error) -> Self {
        StoreError::Backend(format!("sqlite: {err}"))
    }
}

/// The store's read connections: at most [`READERS`] in use at once, kept open between reads.
struct Readers {
    path: PathBuf,
    permits: Semaphore,
    idle: StdMutex<Vec<Connection>>,
}

/// The store's write connection and what it knows of the file as of its own last commit.
struct Writer {
    conn: Connection,
    known: Option<Known>,
}

/// The head and stream versions the writer's last commit left, valid while the file's
/// `data_version` is the one seen then: SQLite changes it whenever another connection (another
/// store, a process, a tool) commits to the file, and never for this connection's own commits.
/// Checked under the write lock, it tells the append whether it may skip reading them again.
struct Known {
    data_version: i64,
    head: (Position, [u8; 32]),
    versions: HashMap<String, u64>,
}

/// The SQLite event store.
pub struct SqliteEventStore {
    writer: Arc<Mutex<Writer>>,
    readers: Arc<Readers>,
    /// sqlx pool on the same file for tools, connected on first use.
    pool: SqlitePool,
    appended: watch::Sender<Position>,
}

impl SqliteEventStore {
    /// Opens (creating if needed) the log at `path` and runs its migrations.
    pub async fn open(path: &Path) -> Result<Self, StoreError> {
        let options = connect_options(path);
        let mut migrator = sqlx::SqliteConnection::connect_with(&options).await?;
        sqlx::migrate!("./migrations/sqlite").run(&mut migrator).await?;
        migrator.close().await?;

        let path = path.to_owned();
        let writer_path = path.clone();
        let (writer, head) = blocking(move || {
            let writer = open_connection(&writer_path)?;
            let head = read_head(&writer)?;
            Ok::<_, StoreError>((writer, head))
        })
        .await??;
        Ok(Self {
            writer: Arc::new(Mutex::new(Writer { conn: writer, known: None })),
            readers: Arc::new(Readers { path, permits: Semaphore::new(READERS), idle: StdMutex::new(Vec::new()) }),
            pool: SqlitePoolOptions::new().max_connections(2).connect_lazy_with(options),
            appended: watch::channel(head.0).0,
        })
    }

    /// Opens the log given a `sqlite://` URL or a plain path.
    pub async fn open_url(url: &str) -> Result<Self, StoreError> {
        let path = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")).unwrap_or(url);
        Self::open(Path::new(path)).await
    }

    /// A sqlx pool on the log's file, for tools that inspect it directly.
    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// Runs `read` on a read connection (see [`blocking`]).
    async fn read<T: Send + 'static>(
        &self,
        read: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let _permit = self.readers.permits.acquire().await.expect("the semaphore is never closed");
        let readers = self.readers.clone();
        blocking(move || {
            let idle = readers.idle.lock().expect("not poisoned").pop();
            let conn = match idle {
                Some(conn) => conn,
                None => open_reader(&readers.path)?,
            };
            let result = read(&conn);
            readers.idle.lock().expect("not poisoned").push(conn);
            result
        })
        .await?
    }
}

/// Runs SQLite work without stalling the runtime. On a multi-threaded runtime it runs in place:
/// tokio hands this worker's other tasks to another thread, and the append's own path has no
/// thread handoff (which costs a durable single-event append several percent). Elsewhere it
/// runs on a blocking thread.
async fn blocking<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T, StoreError> {
    if tokio::runtime::Handle::current().runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread {
        Ok(tokio::task::block_in_place(work))
    } else {
        tokio::task::spawn_blocking(work).await.map_err(|err| StoreError::Backend(format!("sqlite task failed: {err}")))
    }
}

/// One append, start to commit, under SQLite's write lock. What the writer knows is kept only
/// when the append commits; any failure forgets it (it is read again from the file next time).
fn append_locked(writer: &mut Writer, writes: &[StreamAppend]) -> Result<AppendOutcome, StoreError> {
    let mut known = writer.known.take();
    let outcome = append_in_tx(&mut writer.conn, &mut known, writes);
    if outcome.is_ok() {
        writer.known = known;
    }
    outcome
}

fn append_in_tx(conn: &mut Connection, known: &mut Option<Known>, writes: &[StreamAppend]) -> Result<AppendOutcome, StoreError> {
    // Dropping `tx` without committing rolls back: every early return writes nothing.
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;

    // Under the write lock: has anyone else committed since this writer's last commit?
    let data_version: i64 = tx.prepare_cached("PRAGMA data_version")?.query_row([], |row| row.get(0))?;
    if known.as_ref().is_none_or(|k| k.data_version != data_version) {
        *known = Some(Known { data_version, head: read_head(&tx)?, versions: HashMap::new() });
    }
    let known = known.as_mut().expect("just filled");

    let mut versions = Vec::with_capacity(writes.len());
    {
        let mut version_of = tx.prepare_cached(STREAM_VERSION)?;
        for write in writes {
            let actual = match known.versions.get(&write.stream_id) {
                Some(&version) => version,
                None => {
                    let stored = version_of.query_row([&write.stream_id], |row| row.get::<_, i64>(0)).optional()?;
                    stored.unwrap_or(0) as u64
                }
            };
            if write.expected.required().is_some_and(|required| required != actual) {
                // A retried append finds its streams moved on by its own first run.
                let stored = events_by_id(&tx, writes)?;
                if !stored.is_empty() {
                    return replayed_outcome(writes, &stored);
                }
                return Err(StoreError::WrongExpectedVersion { stream_id: write.stream_id.clone(), expected: write.expected, actual });
            }
            versions.push(actual);
        }
    }

    let (rows, outcome) = prepare_rows(writes, &versions, known.head, now_micros())?;
    if let Err(err) = insert_rows(&tx, &rows) {
        // The unique index on event_id refused a stored id: a retry (answer as the first
        // time) or a reuse for other content (an error).
        let stored = events_by_id(&tx, writes)?;
        return if stored.is_empty() { Err(err.into()) } else { replayed_outcome(writes, &stored) };
    }
    let mut range =
        tx.prepare_cached("INSERT INTO stream_ranges (stream_id, first_version, last_version, first_position) VALUES (?1, ?2, ?3, ?4)")?;
    // Rows come stream by stream, in the order of `writes`.
    let mut offset = 0;
    for write in writes.iter().filter(|w| !w.events.is_empty()) {
        let first = &rows[offset];
        offset += write.events.len();
        range.execute(params![
            write.stream_id,
            first.stream_version as i64,
            rows[offset - 1].stream_version as i64,
            first.position as i64
        ])?;
    }
    drop(range);
    let last = rows.last().expect("validated: at least one event");
    tx.prepare_cached("UPDATE event_log_head SET position = ?1, hash = ?2 WHERE id = 1")?
        .execute(params![last.position as i64, &last.hash[..]])?;
    tx.commit()?;

    known.head = (last.position, last.hash);
    if known.versions.len() + outcome.streams.len() > KNOWN_STREAMS {
        known.versions.clear();
    }
    for (stream, version) in &outcome.streams {
        known.versions.insert(stream.clone(), *version);
    }
    Ok(outcome)
}

fn insert_rows(conn: &Connection, rows: &[PreparedRow<'_>]) -> rusqlite::Result<()> {
    // One prepared single-row INSERT run per row: SQLite's cheapest way to insert many rows.
    let mut insert = conn.prepare_cached(&format!("INSERT INTO event_log ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"))?;
    for row in rows {
        insert.execute(params![
            row.position as i64,
            row.stream_id,
            row.stream_version as i64,
            &row.event.event_id.as_bytes()[..],
            row.event.event_type,
            row.event.schema_version,
            row.event.payload,
            row.metadata,
            row.recorded_at.timestamp_micros(),
            &row.hash[..],
        ])?;
    }
    Ok(())
}

fn read_head(conn: &Connection) -> Result<(Position, [u8; 32]), StoreError> {
    let (position, hash) = conn
        .prepare_cached("SELECT position, hash FROM event_log_head WHERE id = 1")?
        .query_row([], |row| Ok((row.get::<_, i64>(0)? as u64, row.get::<_, Vec<u8>>(1)?)))?;
    Ok((position, hash::from_slice(position, &hash)?))
}

/// The stored events among the batch's ids.
fn events_by_id(conn: &Connection, writes: &[StreamAppend]) -> Result<Vec<RecordedEvent>, StoreError> {
    let mut by_id = conn.prepare_cached(&format!("SELECT {COLUMNS} FROM event_log WHERE event_id = ?1"))?;
    let mut found = Vec::new();
    for event in writes.iter().flat_map(|w| &w.events) {
        let mut rows = by_id.query([&event.event_id.as_bytes()[..]])?;
        if let Some(stored) = rows.next()? {
            found.push(decode(stored)?);
        }
    }
    Ok(found)
}

/// Runs a `SELECT {COLUMNS}` query and decodes every row.
fn select(conn: &Connection, sql: &str, params: impl rusqlite::Params) -> Result<Vec<RecordedEvent>, StoreError> {
    let mut statement = conn.prepare_cached(sql)?;
    let mut rows = statement.query(params)?;
    let mut events = Vec::new();
    while let Some(row) = rows.next()? {
        events.push(decode(row)?);
    }
    Ok(events)
}

fn decode(row: &rusqlite::Row<'_>) -> Result<RecordedEvent, StoreError> {
    let position = row.get::<_, i64>(0)? as u64;
    let corrupt = |reason: String| StoreError::Corrupt { position, reason };
    let event_id = row.get_ref(3)?.as_blob().map_err(|e| corrupt(e.to_string()))?;
    let event_id = Uuid::from_slice(event_id).map_err(|e| corrupt(e.to_string()))?;
    let micros: i64 = row.get(8)?;
    Ok(RecordedEvent {
        position,
        stream_id: row.get(1)?,
        stream_version: row.get::<_, i64>(2)? as u64,
        event_id,
        event_type: row.get(4)?,
        schema_version: row.get(5)?,
        payload: row.get(6)?,
        metadata: row.get(7)?,
        recorded_at: chrono::DateTime::from_timestamp_micros(micros).ok_or_else(|| corrupt(format!("bad timestamp {micros}")))?,
        hash: hash::from_slice(position, row.get_ref(9)?.as_blob().map_err(|e| corrupt(e.to_string()))?)?,
    })
}

/// SQL's signed integers for a limit (`usize::MAX` means no limit).
fn sql_limit(limit: usize) -> i64 {
    limit.min(i64::MAX as usize) as i64
}

#[async_trait]
impl EventStore for SqliteEventStore {
    async fn append_streams(&self, writes: Vec<StreamAppend>) -> Result<AppendOutcome, StoreError> {
        validate_batch(&writes)?;
        // Queue on the async lock, so waiting appends hold no blocking thread.
        let mut writer = self.writer.clone().lock_owned().await;
        let outcome = blocking(move || append_locked(&mut writer, &writes)).await??;
        signal_appended(&self.appended, outcome.last_position);
        Ok(outcome)
    }

    async fn read_stream(&self, stream_id: &str, from_version: u64, limit: usize) -> Result<Vec<RecordedEvent>, StoreError> {
        let stream_id = stream_id.to_owned();
        self.read(move |conn| select(conn, READ_STREAM, params![stream_id, from_version as i64, sql_limit(limit)])).await
    }

    async fn read_all(&self, after: Position, limit: usize) -> Result<Vec<RecordedEvent>, StoreError> {
        self.read(move |conn| {
            select(
                conn,
                &format!("SELECT {COLUMNS} FROM event_log WHERE position > ?1 ORDER BY position LIMIT ?2"),
                params![after as i64, sql_limit(limit)],
            )
        })
        .await
    }

    async fn head(&self) -> Result<(Position, [u8; 32]), StoreError> {
        self.read(read_head).await
    }

    async fn stream_version(&self, stream_id: &str) -> Result<u64, StoreError> {
        let stream_id = stream_id.to_owned();
        self.read(move |conn| {
            let version = conn.prepare_cached(STREAM_VERSION)?.query_row([stream_id], |row| row.get::<_, i64>(0)).optional()?;
            Ok(version.unwrap_or(0) as u64)
        })
        .await
    }

    fn appended(&self) -> watch::Receiver<Position> {
        self.appended.subscribe()
    }
}
