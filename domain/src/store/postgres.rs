//! PostgreSQL: production and scale-out (several API processes on one database).
//!
//! An append is one call of the `event_log_append` function (see the migration): one round trip
//! that locks the head row, checks idempotency, the head and the stream versions this process
//! assumed, and inserts everything. Positions and hashes are computed here, in the one place
//! the SQLite backend and `verify` share, from a cached head; when another process moved the
//! head, the function says so and the append is prepared again.

use std::time::Duration;

use async_trait::async_trait;
use sqlx::{
    PgPool, Row,
    postgres::{PgListener, PgPoolOptions, PgRow},
};
use tokio::{
    sync::{Mutex, watch},
    task::JoinHandle,
};
use uuid::Uuid;

use super::{
    AppendOutcome, EventStore, KnownVersions, Position, RecordedEvent, StoreError, StreamAppend, hash, now_micros, prepare_rows,
    replayed_outcome, signal_appended, validate_batch,
};

const SELECT: &str = "SELECT position, stream_id, stream_version, event_id, event_type, schema_version, \
                      payload::text, metadata::text, recorded_at, hash FROM event_log";
/// A writer that keeps losing the race for the head gives up after this many attempts.
const MAX_ATTEMPTS: u32 = 1_000;
/// Lock-free attempts before an append that keeps finding the head moved takes the lock.
const FAST_RETRIES: u32 = 1;

/// The PostgreSQL event store.
pub struct PostgresEventStore {
    pool: PgPool,
    /// The head as last seen by this process; the lock also queues this process's appends.
    head: Mutex<Option<(Position, [u8; 32])>>,
    known_versions: KnownVersions,
    appended: watch::Sender<Position>,
    /// Follows other processes' appends; started by the first [`EventStore::appended`] call, so
    /// a process that only writes (the indexer, a benchmark) is not woken by every append.
    listener: std::sync::OnceLock<JoinHandle<()>>,
    runtime: tokio::runtime::Handle,
}

impl PostgresEventStore {
    /// Connects to `url` and runs the migrations.
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        let pool = PgPoolOptions::new().max_connections(8).connect(url).await?;
        Self::with_pool(pool).await
    }

    /// Uses an existing pool (migrations are run on it).
    pub async fn with_pool(pool: PgPool) -> Result<Self, StoreError> {
        sqlx::migrate!("./migrations/postgres").run(&pool).await?;
        let head: i64 = sqlx::query_scalar("SELECT position FROM event_log_head WHERE id = 1").fetch_one(&pool).await?;
        let appended = watch::channel(head as u64).0;
        Ok(Self {
            pool,
            head: Mutex::new(None),
            known_versions: Default::default(),
            appended,
            listener: std::sync::OnceLock::new(),
            runtime: tokio::runtime::Handle::current(),
        })
    }

    /// The pool, for tools that inspect the log directly (verify, tests).
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    async fn load_head(&self) -> Result<(Position, [u8; 32]), StoreError> {
        let row = sqlx::query("SELECT position, hash FROM event_log_head WHERE id = 1").fetch_one(&self.pool).await?;
        let position = row.try_get::<i64, _>(0)? as u64;
        Ok((position, hash::from_slice(position, row.try_get::<&[u8], _>(1)?)?))
    }

    async fn events_by_id(&self, ids: &[Uuid]) -> Result<Vec<RecordedEvent>, StoreError> {
        sqlx::query(&format!("{SELECT} WHERE event_id = ANY($1)")).bind(ids).fetch_all(&self.pool).await?.iter().map(decode).collect()
    }
}

impl Drop for PostgresEventStore {
    fn drop(&mut self) {
        if let Some(listener) = self.listener.get() {
            listener.abort();
        }
    }
}

/// Wakes this process's subscribers when any process appends (`pg_notify` in the function).
async fn follow_notifications(pool: PgPool, appended: watch::Sender<Position>) {
    loop {
        let mut listener = match PgListener::connect_with(&pool).await {
            Ok(listener) => listener,
            Err(err) => {
                tracing::warn!(%err, "cannot listen for appends; retrying");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        if let Err(err) = listener.listen("event_log").await {
            tracing::warn!(%err, "cannot listen for appends; retrying");
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        }
        loop {
            match listener.recv().await {
                Ok(note) => {
                    if let Ok(position) = note.payload().parse::<u64>() {
                        signal_appended(&appended, position);
                    }
                }
                Err(err) => {
                    tracing::warn!(%err, "lost the append notifications; reconnecting");
                    break;
                }
            }
        }
    }
}

fn decode(row: &PgRow) -> Result<RecordedEvent, StoreError> {
    let position = row.try_get::<i64, _>(0)? as u64;
    Ok(RecordedEvent {
        position,
        stream_id: row.try_get(1)?,
        stream_version: row.try_get::<i64, _>(2)? as u64,
        event_id: row.try_get(3)?,
        event_type: row.try_get(4)?,
        schema_version: row.try_get::<i32, _>(5)? as u32,
        payload: row.try_get(6)?,
        metadata: row.try_get(7)?,
        recorded_at: row.try_get(8)?,
        hash: hash::from_slice(position, row.try_get::<&[u8], _>(9)?)?,
    })
}

/// What `event_log_append` said.
enum Answer {
    Appended(AppendOutcome, (Position, [u8; 32])),
    Duplicate,
    Stale((Position, [u8; 32])),
    /// Streams that are not at the assumed version, with their actual versions.
    Versions(Vec<(String, u64)>),
}

/// One call of `event_log_append` with positions, versions and hashes prepared from `head`.
async fn call_append(
    conn: &mut sqlx::PgConnection,
    writes: &[StreamAppend],
    assumed: &[u64],
    head: (Position, [u8; 32]),
) -> Result<Answer, StoreError> {
    let (rows, outcome) = prepare_rows(writes, assumed, head, now_micros())?;
    let n = rows.len();
    let mut positions = Vec::with_capacity(n);
    let mut stream_ids = Vec::with_capacity(n);
    let mut versions = Vec::with_capacity(n);
    let mut event_ids = Vec::with_capacity(n);
    let mut types = Vec::with_capacity(n);
    let mut schemas = Vec::with_capacity(n);
    let mut payloads = Vec::with_capacity(n);
    let mut metadata = Vec::with_capacity(n);
    let mut recorded = Vec::with_capacity(n);
    let mut hashes = Vec::with_capacity(n);
    for row in &rows {
        positions.push(row.position as i64);
        stream_ids.push(row.stream_id);
        versions.push(row.stream_version as i64);
        event_ids.push(row.event.event_id);
        types.push(row.event.event_type.as_str());
        schemas.push(row.event.schema_version as i32);
        payloads.push(row.event.payload.as_str());
        metadata.push(row.metadata.as_str());
        recorded.push(row.recorded_at);
        hashes.push(row.hash.to_vec());
    }
    let streams: Vec<&str> = writes.iter().map(|w| w.stream_id.as_str()).collect();
    let assumed: Vec<i64> = assumed.iter().map(|&v| v as i64).collect();
    let answer = sqlx::query(
        "SELECT outcome, head_position, head_hash FROM event_log_append(\
         $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
    )
    .bind(head.0 as i64)
    .bind(&head.1[..])
    .bind(&streams)
    .bind(&assumed)
    .bind(&positions)
    .bind(&stream_ids)
    .bind(&versions)
    .bind(&event_ids)
    .bind(&types)
    .bind(&schemas)
    .bind(&payloads)
    .bind(&metadata)
    .bind(&recorded)
    .bind(&hashes)
    .fetch_one(&mut *conn)
    .await;

    let row = match answer {
        Ok(row) => row,
        Err(sqlx::Error::Database(db)) => {
            return match db.code().as_deref() {
                Some("MK002") => Ok(Answer::Duplicate),
                Some("23505") if db.constraint() == Some("event_log_event_id_key") => Ok(Answer::Duplicate),
                Some("MK001") => serde_json::from_str::<Vec<(String, u64)>>(db.message())
                    .map(Answer::Versions)
                    .map_err(|e| StoreError::Backend(format!("unreadable version report: {e}"))),
                _ => Err(sqlx::Error::Database(db).into()),
            };
        }
        Err(err) => return Err(err.into()),
    };
    let position = row.try_get::<i64, _>(1)? as u64;
    let hash = hash::from_slice(position, row.try_get::<&[u8], _>(2)?)?;
    match row.try_get::<&str, _>(0)? {
        "ok" => Ok(Answer::Appended(outcome, (position, hash))),
        "stale" => Ok(Answer::Stale((position, hash))),
        other => Err(StoreError::Backend(format!("event_log_append answered {other}"))),
    }
}

/// Takes the actual versions the function reported: fine for `Any` streams (prepare again),
/// a conflict for the others.
fn adopt_versions(writes: &[StreamAppend], assumed: &mut [u64], actual: Vec<(String, u64)>) -> Result<(), StoreError> {
    for (stream, version) in actual {
        let i = writes
            .iter()
            .position(|w| w.stream_id == stream)
            .ok_or_else(|| StoreError::Backend(format!("event_log_append named unknown stream {stream}")))?;
        if writes[i].expected.required().is_some() {
            return Err(StoreError::WrongExpectedVersion { stream_id: stream, expected: writes[i].expected, actual: version });
        }
        assumed[i] = version;
    }
    Ok(())
}

#[async_trait]
impl EventStore for PostgresEventStore {
    async fn append_streams(&self, writes: Vec<StreamAppend>) -> Result<AppendOutcome, StoreError> {
        validate_batch(&writes)?;
        let mut cached = self.head.lock().await;
        let mut assumed = self.known_versions.assume(&writes);

        // Fast path: one round trip, betting that the cached head is still current.
        let mut conn = self.pool.acquire().await?;
        let mut head = match *cached {
            Some(head) => head,
            None => self.load_head().await?,
        };
        let mut tx: Option<sqlx::Transaction<'static, sqlx::Postgres>> = None;
        let mut stale = 0;
        for _ in 0..MAX_ATTEMPTS {
            let conn: &mut sqlx::PgConnection = match tx.as_mut() {
                Some(tx) => tx,
                None => &mut conn,
            };
            match call_append(conn, &writes, &assumed, head).await? {
                Answer::Appended(outcome, new_head) => {
                    if let Some(tx) = tx.take() {
                        sqlx::Transaction::commit(tx).await?;
                    }
                    *cached = Some(new_head);
                    self.known_versions.record(&outcome);
                    signal_appended(&self.appended, new_head.0);
                    return Ok(outcome);
                }
                Answer::Duplicate => {
                    drop(tx);
                    let ids: Vec<Uuid> = writes.iter().flat_map(|w| w.events.iter().map(|e| e.event_id)).collect();
                    let stored = self.events_by_id(&ids).await?;
                    return replayed_outcome(&writes, &stored);
                }
                Answer::Stale(current) if tx.is_none() && stale < FAST_RETRIES => {
                    // A stale attempt locked and wrote nothing: try again from the head it saw.
                    stale += 1;
                    head = current;
                    *cached = Some(head);
                }
                Answer::Stale(_) if tx.is_none() => {
                    // Still losing the race: take the head lock in a transaction, so the next
                    // attempt cannot be stale (no writer starves).
                    let mut locked = self.pool.begin().await?;
                    let row =
                        sqlx::query("SELECT position, hash FROM event_log_head WHERE id = 1 FOR UPDATE").fetch_one(&mut *locked).await?;
                    let position = row.try_get::<i64, _>(0)? as u64;
                    head = (position, hash::from_slice(position, row.try_get::<&[u8], _>(1)?)?);
                    *cached = Some(head);
                    // Under the lock nothing moves: learn the true versions of `Any` streams so
                    // the locked attempt cannot fail on them (a failure would abort the
                    // transaction).
                    let streams: Vec<&str> = writes.iter().map(|w| w.stream_id.as_str()).collect();
                    let actual: Vec<(String, i64)> =
                        sqlx::query_as("SELECT stream_id, max(stream_version) FROM event_log WHERE stream_id = ANY($1) GROUP BY stream_id")
                            .bind(&streams)
                            .fetch_all(&mut *locked)
                            .await?;
                    for (i, write) in writes.iter().enumerate() {
                        if write.expected.required().is_none() {
                            assumed[i] = actual.iter().find(|(s, _)| *s == write.stream_id).map_or(0, |(_, v)| *v as u64);
                        }
                    }
                    tx = Some(locked);
                }
                Answer::Stale(current) => head = current,
                Answer::Versions(actual) => adopt_versions(&writes, &mut assumed, actual)?,
            }
        }
        Err(StoreError::Contention { attempts: MAX_ATTEMPTS })
    }

    async fn read_stream(&self, stream_id: &str, from_version: u64, limit: usize) -> Result<Vec<RecordedEvent>, StoreError> {
        sqlx::query(&format!("{SELECT} WHERE stream_id = $1 AND stream_version >= $2 ORDER BY stream_version LIMIT $3"))
            .bind(stream_id)
            .bind(from_version as i64)
            .bind(limit.min(i64::MAX as usize) as i64)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(decode)
            .collect()
    }

    async fn read_all(&self, after: Position, limit: usize) -> Result<Vec<RecordedEvent>, StoreError> {
        sqlx::query(&format!("{SELECT} WHERE position > $1 ORDER BY position LIMIT $2"))
            .bind(after as i64)
            .bind(limit.min(i64::MAX as usize) as i64)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(decode)
            .collect()
    }

    async fn head(&self) -> Result<(Position, [u8; 32]), StoreError> {
        self.load_head().await
    }

    async fn stream_version(&self, stream_id: &str) -> Result<u64, StoreError> {
        let version: Option<i64> = sqlx::query_scalar("SELECT MAX(stream_version) FROM event_log WHERE stream_id = $1")
            .bind(stream_id)
            .fetch_one(&self.pool)
            .await?;
        Ok(version.unwrap_or(0) as u64)
    }

    fn appended(&self) -> watch::Receiver<Position> {
        self.listener.get_or_init(|| self.runtime.spawn(follow_notifications(self.pool.clone(), self.appended.clone())));
        self.appended.subscribe()
    }
}
