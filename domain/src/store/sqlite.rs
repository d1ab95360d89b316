//! The embedded default: one SQLite file in WAL mode.
//!
//! All appends of a process go through one dedicated connection (SQLite has one writer per file
//! anyway); reads use a pool of their own and never block the writer.
//!
//! An append first bets on what this process last saw: it prepares positions, versions and
//! hashes from the cached head and sends them as one multi-row INSERT, atomic on its own. The
//! triggers of migration 0002 refuse it if the bet was wrong (another process appended, a stream
//! moved), and so does a reused event id. Only then does the append take the careful path: a
//! `BEGIN IMMEDIATE` transaction that reads the truth and decides.

use std::{path::Path, time::Duration};

use async_trait::async_trait;
use sqlx::{
    Connection, Row, SqliteConnection, SqlitePool,
    sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteRow, SqliteSynchronous},
};
use tokio::sync::{Mutex, watch};
use uuid::Uuid;

use super::{
    signal_appended, AppendOutcome, EventStore, KnownVersions, Position, PreparedRow, RecordedEvent, StoreError, StreamAppend, hash,
    now_micros, prepare_rows, replayed_outcome, validate_batch,
};

const COLUMNS: &str = "position, stream_id, stream_version, event_id, event_type, schema_version, \
                       payload, metadata, recorded_at, hash";
/// Rows per INSERT statement: 10 bound values each, well under SQLite's 32,766 variables.
const ROWS_PER_INSERT: usize = 500;

/// Connection settings shared by the store, the read models and the benchmarks: WAL, and
/// `synchronous = FULL` so a committed append survives a power cut, not only a crash.
pub fn connect_options(path: &Path) -> SqliteConnectOptions {
    SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Full)
        .busy_timeout(Duration::from_secs(10))
}

/// The writing connection and the head it last saw.
struct Writer {
    conn: SqliteConnection,
    head: Option<(Position, [u8; 32])>,
}

/// The SQLite event store.
pub struct SqliteEventStore {
    writer: Mutex<Writer>,
    known_versions: KnownVersions,
    readers: SqlitePool,
    appended: watch::Sender<Position>,
}

impl SqliteEventStore {
    /// Opens (creating if needed) the log at `path` and runs its migrations.
    pub async fn open(path: &Path) -> Result<Self, StoreError> {
        let options = connect_options(path);
        let mut writer = SqliteConnection::connect_with(&options).await?;
        sqlx::migrate!("./migrations/sqlite").run(&mut writer).await?;
        let readers = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await?;
        let head = read_head(&mut writer).await?;
        Ok(Self {
            writer: Mutex::new(Writer { conn: writer, head: Some(head) }),
            known_versions: KnownVersions::default(),
            readers,
            appended: watch::channel(head.0).0,
        })
    }

    /// Opens the log given a `sqlite://` URL or a plain path.
    pub async fn open_url(url: &str) -> Result<Self, StoreError> {
        let path = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")).unwrap_or(url);
        Self::open(Path::new(path)).await
    }

    /// The read pool, for tools that inspect the log directly (verify, tests).
    pub fn pool(&self) -> &SqlitePool {
        &self.readers
    }

    /// The careful path, inside `BEGIN IMMEDIATE`: read the truth, then decide.
    async fn append_locked(
        conn: &mut SqliteConnection,
        writes: &[StreamAppend],
    ) -> Result<AppendOutcome, StoreError> {
        let ids: Vec<Uuid> = writes.iter().flat_map(|w| w.events.iter().map(|e| e.event_id)).collect();
        let stored = events_by_id(conn, &ids).await?;
        if !stored.is_empty() {
            return replayed_outcome(writes, &stored);
        }

        let marks = vec!["?"; writes.len()].join(",");
        let sql = format!(
            "SELECT stream_id, MAX(stream_version) FROM event_log WHERE stream_id IN ({marks}) GROUP BY stream_id"
        );
        let mut query = sqlx::query(&sql);
        for write in writes {
            query = query.bind(&write.stream_id);
        }
        let current: std::collections::HashMap<String, i64> = query
            .fetch_all(&mut *conn)
            .await?
            .iter()
            .map(|row| Ok((row.try_get(0)?, row.try_get(1)?)))
            .collect::<Result<_, sqlx::Error>>()?;
        let mut versions = Vec::with_capacity(writes.len());
        for write in writes {
            let actual = current.get(&write.stream_id).copied().unwrap_or(0) as u64;
            if write.expected.required().is_some_and(|required| required != actual) {
                return Err(StoreError::WrongExpectedVersion {
                    stream_id: write.stream_id.clone(),
                    expected: write.expected,
                    actual,
                });
            }
            versions.push(actual);
        }

        let head = read_head(conn).await?;
        let (rows, outcome) = prepare_rows(writes, &versions, head, now_micros())?;
        for chunk in rows.chunks(ROWS_PER_INSERT) {
            insert_rows(conn, chunk).await?;
        }
        Ok(outcome)
    }
}

impl SqliteEventStore {
    /// Records a successful append: version cache, wake-up signal.
    fn note_appended(&self, outcome: AppendOutcome) -> AppendOutcome {
        self.known_versions.record(&outcome);
        signal_appended(&self.appended, outcome.last_position);
        outcome
    }
}

/// Whether the fast path's INSERT was refused because its bet was wrong (rather than failing).
fn refused_by_guard(err: &StoreError) -> bool {
    match err {
        StoreError::Database(sqlx::Error::Database(db)) => {
            db.is_unique_violation() || db.message().starts_with("event_log:")
        }
        _ => false,
    }
}

async fn read_head(conn: &mut SqliteConnection) -> Result<(Position, [u8; 32]), StoreError> {
    let row = sqlx::query("SELECT position, hash FROM event_log_head WHERE id = 1")
        .fetch_one(&mut *conn)
        .await?;
    let position = row.try_get::<i64, _>(0)? as u64;
    Ok((position, hash::from_slice(position, row.try_get::<&[u8], _>(1)?)?))
}

async fn insert_rows(conn: &mut SqliteConnection, rows: &[PreparedRow<'_>]) -> Result<(), StoreError> {
    let mut sql = format!("INSERT INTO event_log ({COLUMNS}) VALUES ");
    for i in 0..rows.len() {
        sql.push_str(if i == 0 { "(?,?,?,?,?,?,?,?,?,?)" } else { ",(?,?,?,?,?,?,?,?,?,?)" });
    }
    let mut query = sqlx::query(&sql);
    for row in rows {
        query = query
            .bind(row.position as i64)
            .bind(row.stream_id)
            .bind(row.stream_version as i64)
            .bind(&row.event.event_id.as_bytes()[..])
            .bind(&row.event.event_type)
            .bind(row.event.schema_version as i64)
            .bind(&row.event.payload)
            .bind(&row.metadata)
            .bind(row.recorded_at.timestamp_micros())
            .bind(&row.hash[..]);
    }
    query.execute(&mut *conn).await?;
    Ok(())
}

async fn events_by_id(conn: &mut SqliteConnection, ids: &[Uuid]) -> Result<Vec<RecordedEvent>, StoreError> {
    let mut found = Vec::new();
    for chunk in ids.chunks(ROWS_PER_INSERT) {
        let marks = vec!["?"; chunk.len()].join(",");
        let sql = format!("SELECT {COLUMNS} FROM event_log WHERE event_id IN ({marks})");
        let mut query = sqlx::query(&sql);
        for id in chunk {
            query = query.bind(&id.as_bytes()[..]);
        }
        for row in query.fetch_all(&mut *conn).await? {
            found.push(decode(&row)?);
        }
    }
    Ok(found)
}

fn decode(row: &SqliteRow) -> Result<RecordedEvent, StoreError> {
    let position = row.try_get::<i64, _>(0)? as u64;
    let corrupt = |reason: String| StoreError::Corrupt { position, reason };
    let event_id = Uuid::from_slice(row.try_get::<&[u8], _>(3)?).map_err(|e| corrupt(e.to_string()))?;
    let micros: i64 = row.try_get(8)?;
    Ok(RecordedEvent {
        position,
        stream_id: row.try_get(1)?,
        stream_version: row.try_get::<i64, _>(2)? as u64,
        event_id,
        event_type: row.try_get(4)?,
        schema_version: row.try_get::<i64, _>(5)? as u32,
        payload: row.try_get(6)?,
        metadata: row.try_get(7)?,
        recorded_at: chrono::DateTime::from_timestamp_micros(micros)
            .ok_or_else(|| corrupt(format!("bad timestamp {micros}")))?,
        hash: hash::from_slice(position, row.try_get::<&[u8], _>(9)?)?,
    })
}

#[async_trait]
impl EventStore for SqliteEventStore {
    async fn append_streams(&self, writes: Vec<StreamAppend>) -> Result<AppendOutcome, StoreError> {
        validate_batch(&writes)?;
        let mut writer = self.writer.lock().await;
        let Writer { conn, head } = &mut *writer;

        if let Some(cached) = *head {
            let assumed = self.known_versions.assume(&writes);
            let (rows, outcome) = prepare_rows(&writes, &assumed, cached, now_micros())?;
            if rows.len() <= ROWS_PER_INSERT {
                match insert_rows(conn, &rows).await {
                    Ok(()) => {
                        let last = rows.last().expect("validated: at least one event");
                        *head = Some((last.position, last.hash));
                        return Ok(self.note_appended(outcome));
                    }
                    Err(err) if refused_by_guard(&err) => {}
                    Err(err) => return Err(err),
                }
            }
        }

        *head = None;
        sqlx::query("BEGIN IMMEDIATE").execute(&mut *conn).await?;
        match Self::append_locked(conn, &writes).await {
            Ok(outcome) => {
                // A retried append wrote nothing: committing it is harmless.
                sqlx::query("COMMIT").execute(&mut *conn).await?;
                *head = Some(read_head(conn).await?);
                Ok(self.note_appended(outcome))
            }
            Err(err) => {
                sqlx::query("ROLLBACK").execute(&mut *conn).await?;
                Err(err)
            }
        }
    }

    async fn read_stream(
        &self,
        stream_id: &str,
        from_version: u64,
        limit: usize,
    ) -> Result<Vec<RecordedEvent>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM event_log WHERE stream_id = ? AND stream_version >= ? \
             ORDER BY stream_version LIMIT ?"
        );
        sqlx::query(&sql)
            .bind(stream_id)
            .bind(from_version as i64)
            .bind(limit.min(i64::MAX as usize) as i64)
            .fetch_all(&self.readers)
            .await?
            .iter()
            .map(decode)
            .collect()
    }

    async fn read_all(&self, after: Position, limit: usize) -> Result<Vec<RecordedEvent>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM event_log WHERE position > ? ORDER BY position LIMIT ?");
        sqlx::query(&sql)
            .bind(after as i64)
            .bind(limit.min(i64::MAX as usize) as i64)
            .fetch_all(&self.readers)
            .await?
            .iter()
            .map(decode)
            .collect()
    }

    async fn head(&self) -> Result<(Position, [u8; 32]), StoreError> {
        let mut conn = self.readers.acquire().await?;
        read_head(&mut conn).await
    }

    async fn stream_version(&self, stream_id: &str) -> Result<u64, StoreError> {
        let version: Option<i64> =
            sqlx::query_scalar("SELECT MAX(stream_version) FROM event_log WHERE stream_id = ?")
                .bind(stream_id)
                .fetch_one(&self.readers)
                .await?;
        Ok(version.unwrap_or(0) as u64)
    }

    fn appended(&self) -> watch::Receiver<Position> {
        self.appended.subscribe()
    }
}
