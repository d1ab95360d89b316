//! Where each endpoint's deliveries stand, durable: the position it acknowledged, its retries,
//! whether it is disabled, and the log of its last attempts. Not facts of the log (a row per
//! delivery attempt would flood it, and a replay must not move them), so kept in their own
//! tables beside the rate limits (`rate-limits.db` on SQLite, the shared database on Postgres),
//! where every process reads them and the elected one writes deliveries.
//!
//! Every change that moves an endpoint's position names the generation it read: a "redeliver
//! from N" (any process) bumps it, so a delivery in flight meanwhile cannot move the position
//! back past the redelivery's start.

use std::{collections::HashMap, sync::Mutex};

use sqlx::{AnyPool, Row, any::AnyPoolOptions};
use tokio::sync::{OnceCell, mpsc, oneshot};

/// Attempts kept per endpoint in its delivery log.
pub const LOG_KEPT: i64 = 100;

/// One endpoint's delivery state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeliveryState {
    /// Every change up to this log position was delivered (or wanted nothing).
    pub acked: u64,
    /// Failed attempts since the last success.
    pub attempts: u32,
    /// Not before this (Unix ms): the backoff after a failure.
    pub next_attempt_ms: i64,
    /// The first failure since the last success (Unix ms).
    pub failing_since_ms: Option<i64>,
    /// When it was disabled (Unix ms); `None` while it is delivered to.
    pub disabled_at_ms: Option<i64>,
    /// Bumped by every redelivery.
    pub generation: i64,
    /// Attempts ever logged (the last one's number in the log).
    pub log_seq: i64,
}

/// One attempt of the delivery log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// The change's log position (0 for a test event).
    pub position: u64,
    /// Its `webhook-id`.
    pub message_id: String,
    /// 1 for the first attempt of this change.
    pub attempt: u32,
    /// The receiver's HTTP status, if it answered.
    pub status: Option<u16>,
    /// Why there was no answer (refused, unreachable, timeout).
    pub error: Option<String>,
    /// How long it took, in ms.
    pub latency_ms: i64,
    /// When (Unix ms).
    pub at_ms: i64,
}

impl Attempt {
    /// Whether the receiver acknowledged it (2xx).
    pub fn ok(&self) -> bool {
        self.status.is_some_and(|s| (200..300).contains(&s))
    }
}

/// What an attempt does to the state.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// Acknowledged: the position moves to `acked`, the failures are forgotten.
    Delivered {
        /// The new position.
        acked: u64,
    },
    /// Failed: retry at `next_attempt_ms`.
    Failed {
        /// Failures since the last success.
        attempts: u32,
        /// Not before then (Unix ms).
        next_attempt_ms: i64,
        /// The first failure since the last success.
        failing_since_ms: i64,
    },
    /// Failed for too long: disabled at `at_ms` until a redelivery.
    Disabled {
        /// Failures since the last success.
        attempts: u32,
        /// The first failure since the last success.
        failing_since_ms: i64,
        /// When.
        at_ms: i64,
    },
    /// Logged only (a test event): the state does not move.
    Logged,
}

/// The delivery tables.
pub struct DeliveryStore {
    pool: AnyPool,
    postgres: bool,
    created: OnceCell<()>,
    /// The group writer of [`Self::record`], started on first use.
    recorder: Mutex<Option<mpsc::UnboundedSender<Record>>>,
}

/// One record asked of the group writer, and where its answer goes.
struct Record {
    endpoint_id: String,
    generation: i64,
    attempt: Attempt,
    outcome: Outcome,
    answer: oneshot::Sender<Result<bool, sqlx::Error>>,
}

/// Records written in one transaction at most (a group waits for no one: it is what had queued
/// up while the previous one was written).
const GROUP_MAX: usize = 512;

/// Writes the records as they come, each group of those queued together in one transaction;
/// ends when the store is dropped.
async fn write_groups(pool: AnyPool, mut records: mpsc::UnboundedReceiver<Record>) {
    let mut group = Vec::with_capacity(GROUP_MAX);
    while records.recv_many(&mut group, GROUP_MAX).await > 0 {
        let written: Result<Vec<bool>, sqlx::Error> = async {
            let mut tx = pool.begin().await?;
            let moved = write_group(&mut tx, &group).await?;
            tx.commit().await?;
            Ok(moved)
        }
        .await;
        match written {
            Ok(moved) => {
                for (record, moved) in group.drain(..).zip(moved) {
                    let _ = record.answer.send(Ok(moved));
                }
            }
            Err(err) => {
                // The group is not written: each endpoint reads its state again and retries.
                let message = err.to_string();
                for record in group.drain(..) {
                    let _ = record.answer.send(Err(sqlx::Error::Protocol(format!("recording a delivery: {message}"))));
                }
            }
        }
    }
}

/// A group's statements in `tx`, whether each record moved its state. The hot path, deliveries
/// acknowledged by distinct endpoints, is one multi-row `UPDATE ... FROM (VALUES ...)` per
/// chunk; the rest (failures, test events, a second record of one endpoint) one statement each.
/// Then the attempts of the records that moved, logged in multi-row inserts, and the logs pruned
/// now and then (each keeps at least [`LOG_KEPT`] attempts).
async fn write_group(tx: &mut sqlx::Transaction<'_, sqlx::Any>, group: &[Record]) -> Result<Vec<bool>, sqlx::Error> {
    let mut delivered: HashMap<&str, usize> = HashMap::new();
    let mut single = Vec::new();
    for (i, record) in group.iter().enumerate() {
        let bulk = matches!(record.outcome, Outcome::Delivered { .. }) && !delivered.contains_key(record.endpoint_id.as_str());
        if bulk {
            delivered.insert(&record.endpoint_id, i);
        } else {
            single.push(i);
        }
    }
    let mut seqs: Vec<Option<i64>> = vec![None; group.len()];
    let bulk: Vec<usize> = delivered.into_values().collect();
    for chunk in bulk.chunks(BULK_ROWS) {
        let rows: Vec<String> = (0..chunk.len()).map(|i| format!("(${}, ${}, ${})", 3 * i + 1, 3 * i + 2, 3 * i + 3)).collect();
        let sql = format!(
            "UPDATE webhook_deliveries SET acked = v.column3, attempts = 0, next_attempt_ms = 0, failing_since_ms = NULL, \
             log_seq = webhook_deliveries.log_seq + 1 FROM (VALUES {}) AS v \
             WHERE webhook_deliveries.endpoint_id = v.column1 AND webhook_deliveries.generation = v.column2 \
             RETURNING webhook_deliveries.endpoint_id, webhook_deliveries.log_seq",
            rows.join(", ")
        );
        let mut query = sqlx::query(&sql);
        for &i in chunk {
            let Outcome::Delivered { acked } = group[i].outcome else { unreachable!("only deliveries are bulk") };
            query = query.bind(group[i].endpoint_id.as_str()).bind(group[i].generation).bind(acked as i64);
        }
        let moved: HashMap<String, i64> = query
            .fetch_all(&mut **tx)
            .await?
            .iter()
            .map(|row| Ok((row.try_get(0)?, row.try_get(1)?)))
            .collect::<Result<_, sqlx::Error>>()?;
        for &i in chunk {
            seqs[i] = moved.get(&group[i].endpoint_id).copied();
        }
    }
    for i in single {
        seqs[i] = step(tx, &group[i]).await?;
    }
    let logged: Vec<(&Record, i64)> = group.iter().zip(&seqs).filter_map(|(r, seq)| seq.map(|seq| (r, seq))).collect();
    for chunk in logged.chunks(BULK_ROWS) {
        let rows: Vec<String> =
            (0..chunk.len()).map(|i| format!("({})", (1..=9).map(|c| format!("${}", 9 * i + c)).collect::<Vec<_>>().join(", "))).collect();
        let sql = format!(
            "INSERT INTO webhook_attempts (endpoint_id, seq, position, message_id, attempt, status, error, latency_ms, at_ms) VALUES {}",
            rows.join(", ")
        );
        let mut query = sqlx::query(&sql);
        for (record, seq) in chunk {
            let attempt = &record.attempt;
            query = query
                .bind(record.endpoint_id.as_str())
                .bind(*seq)
                .bind(attempt.position as i64)
                .bind(attempt.message_id.as_str())
                .bind(i64::from(attempt.attempt))
                .bind(attempt.status.map(i64::from))
                .bind(attempt.error.as_deref())
                .bind(attempt.latency_ms)
                .bind(attempt.at_ms);
        }
        query.execute(&mut **tx).await?;
    }
    for (record, seq) in logged.iter().filter(|(_, seq)| seq % PRUNE_EVERY == 0) {
        sqlx::query("DELETE FROM webhook_attempts WHERE endpoint_id = $1 AND seq <= $2")
            .bind(record.endpoint_id.as_str())
            .bind(seq - LOG_KEPT)
            .execute(&mut **tx)
            .await?;
    }
    Ok(seqs.iter().map(Option::is_some).collect())
}

/// Rows per multi-row statement. Small: SQLite finds each `$n` by walking the statement's list
/// of parameter names, so binding costs grow with the square of their number (a chunk of 500
/// rows, 4,500 parameters, spent more time binding than writing); the full chunks share one
/// prepared statement.
const BULK_ROWS: usize = 32;

/// One record's state change in `tx`, if the state is still at its generation: the attempt's new
/// number in the endpoint's log, or `None`.
async fn step(tx: &mut sqlx::Transaction<'_, sqlx::Any>, record: &Record) -> Result<Option<i64>, sqlx::Error> {
    let Record { endpoint_id, generation, outcome, .. } = record;
    let query = match outcome {
        Outcome::Delivered { acked } => sqlx::query_scalar::<_, i64>(
            "UPDATE webhook_deliveries SET acked = $3, attempts = 0, next_attempt_ms = 0, failing_since_ms = NULL, \
             log_seq = log_seq + 1 WHERE endpoint_id = $1 AND generation = $2 RETURNING log_seq",
        )
        .bind(endpoint_id)
        .bind(generation)
        .bind(*acked as i64),
        Outcome::Failed { attempts, next_attempt_ms, failing_since_ms } => sqlx::query_scalar(
            "UPDATE webhook_deliveries SET attempts = $3, next_attempt_ms = $4, failing_since_ms = $5, \
             log_seq = log_seq + 1 WHERE endpoint_id = $1 AND generation = $2 RETURNING log_seq",
        )
        .bind(endpoint_id)
        .bind(generation)
        .bind(i64::from(*attempts))
        .bind(*next_attempt_ms)
        .bind(*failing_since_ms),
        Outcome::Disabled { attempts, failing_since_ms, at_ms } => sqlx::query_scalar(
            "UPDATE webhook_deliveries SET attempts = $3, failing_since_ms = $4, disabled_at_ms = $5, \
             log_seq = log_seq + 1 WHERE endpoint_id = $1 AND generation = $2 RETURNING log_seq",
        )
        .bind(endpoint_id)
        .bind(generation)
        .bind(i64::from(*attempts))
        .bind(*failing_since_ms)
        .bind(*at_ms),
        Outcome::Logged => {
            sqlx::query_scalar("UPDATE webhook_deliveries SET log_seq = log_seq + 1 WHERE endpoint_id = $1 RETURNING log_seq")
                .bind(endpoint_id)
        }
    };
    query.fetch_optional(&mut **tx).await
}

/// The log is pruned every this many attempts of an endpoint (so it holds at most
/// `LOG_KEPT + PRUNE_EVERY - 1` of them).
const PRUNE_EVERY: i64 = 20;

const COLUMNS: &str = "acked, attempts, next_attempt_ms, failing_since_ms, disabled_at_ms, generation, log_seq";

fn state_of(row: &sqlx::any::AnyRow) -> Result<DeliveryState, sqlx::Error> {
    Ok(DeliveryState {
        acked: row.try_get::<i64, _>("acked")? as u64,
        attempts: row.try_get::<i64, _>("attempts")? as u32,
        next_attempt_ms: row.try_get("next_attempt_ms")?,
        failing_since_ms: row.try_get("failing_since_ms")?,
        disabled_at_ms: row.try_get("disabled_at_ms")?,
        generation: row.try_get("generation")?,
        log_seq: row.try_get("log_seq")?,
    })
}

impl DeliveryStore {
    /// The tables in the database at `url` (a `postgres://` URL or a SQLite file), created on
    /// first use.
    pub fn new(url: &str) -> Result<Self, sqlx::Error> {
        sqlx::any::install_default_drivers();
        let postgres = url.starts_with("postgres://") || url.starts_with("postgresql://");
        let url = if postgres { url.to_owned() } else { format!("{}?mode=rwc", url.split('?').next().unwrap_or(url)) };
        let pool = AnyPoolOptions::new()
            .max_connections(4)
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if !postgres {
                        // NORMAL in WAL mode: a power cut may lose the last acknowledgements,
                        // which only makes those deliveries come again (at least once).
                        sqlx::Executor::execute(
                            &mut *conn,
                            "PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL;",
                        )
                        .await?;
                    }
                    Ok(())
                })
            })
            .connect_lazy(&url)?;
        Ok(Self { pool, postgres, created: OnceCell::new(), recorder: Mutex::default() })
    }

    async fn tables(&self) -> Result<(), sqlx::Error> {
        let schema = if self.postgres { "public." } else { "" };
        let state = format!(
            "CREATE TABLE IF NOT EXISTS {schema}webhook_deliveries (endpoint_id TEXT PRIMARY KEY, acked BIGINT NOT NULL, \
             attempts BIGINT NOT NULL, next_attempt_ms BIGINT NOT NULL, failing_since_ms BIGINT, disabled_at_ms BIGINT, \
             generation BIGINT NOT NULL, log_seq BIGINT NOT NULL)"
        );
        let log = format!(
            "CREATE TABLE IF NOT EXISTS {schema}webhook_attempts (endpoint_id TEXT NOT NULL, seq BIGINT NOT NULL, \
             position BIGINT NOT NULL, message_id TEXT NOT NULL, attempt BIGINT NOT NULL, status BIGINT, error TEXT, \
             latency_ms BIGINT NOT NULL, at_ms BIGINT NOT NULL, PRIMARY KEY (endpoint_id, seq))"
        );
        self.created
            .get_or_try_init(|| async {
                sqlx::query(&state).execute(&self.pool).await?;
                sqlx::query(&log).execute(&self.pool).await.map(drop)
            })
            .await
            .map(drop)
    }

    /// Starts an endpoint's state at `acked` unless it has one (a registration: only changes
    /// after it are delivered).
    pub async fn ensure(&self, endpoint_id: &str, acked: u64) -> Result<(), sqlx::Error> {
        self.tables().await?;
        sqlx::query(
            "INSERT INTO webhook_deliveries (endpoint_id, acked, attempts, next_attempt_ms, failing_since_ms, disabled_at_ms, \
             generation, log_seq) VALUES ($1, $2, 0, 0, NULL, NULL, 0, 0) ON CONFLICT (endpoint_id) DO NOTHING",
        )
        .bind(endpoint_id)
        .bind(acked as i64)
        .execute(&self.pool)
        .await
        .map(drop)
    }

    /// An endpoint's state, if it has one.
    pub async fn load(&self, endpoint_id: &str) -> Result<Option<DeliveryState>, sqlx::Error> {
        self.tables().await?;
        let sql = format!("SELECT {COLUMNS} FROM webhook_deliveries WHERE endpoint_id = $1");
        let row = sqlx::query(&sql).bind(endpoint_id).fetch_optional(&self.pool).await?;
        row.as_ref().map(state_of).transpose()
    }

    /// The states of `endpoint_ids` that have one.
    pub async fn load_many(&self, endpoint_ids: &[String]) -> Result<HashMap<String, DeliveryState>, sqlx::Error> {
        self.tables().await?;
        let mut states = HashMap::new();
        for chunk in endpoint_ids.chunks(500) {
            let marks: Vec<String> = (1..=chunk.len()).map(|i| format!("${i}")).collect();
            let sql = format!("SELECT endpoint_id, {COLUMNS} FROM webhook_deliveries WHERE endpoint_id IN ({})", marks.join(", "));
            let mut query = sqlx::query(&sql);
            for id in chunk {
                query = query.bind(id);
            }
            for row in query.fetch_all(&self.pool).await? {
                states.insert(row.try_get("endpoint_id")?, state_of(&row)?);
            }
        }
        Ok(states)
    }

    /// Logs `attempt` and applies `outcome`, if the state is still at `generation`; false when
    /// a redelivery moved it meanwhile (nothing written).
    ///
    /// Records asked for at the same time (every endpoint's task delivers at once) are written
    /// together, in one transaction (a group commit): a burst to many endpoints costs a commit
    /// per group, not per delivery. Each answer waits for its group's commit.
    pub async fn record(&self, endpoint_id: &str, generation: i64, attempt: &Attempt, outcome: Outcome) -> Result<bool, sqlx::Error> {
        self.send(endpoint_id, generation, attempt, outcome).await?.await
    }

    /// [`Self::record`] without waiting for it: the record goes to the group writer now, and
    /// the answer comes when its group is committed. Records of one endpoint are written in the
    /// order they are sent, so a deliverer may post the next change before the answer (at least
    /// once: a crash meanwhile only delivers those changes again).
    pub async fn send(
        &self,
        endpoint_id: &str,
        generation: i64,
        attempt: &Attempt,
        outcome: Outcome,
    ) -> Result<impl Future<Output = Result<bool, sqlx::Error>> + use<>, sqlx::Error> {
        self.tables().await?;
        let (answer, answered) = oneshot::channel();
        let record = Record { endpoint_id: endpoint_id.to_owned(), generation, attempt: attempt.clone(), outcome, answer };
        let recorder = {
            let mut recorder = self.recorder.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            // Started on first use, and again if the runtime it ran on ended (a test's).
            if recorder.as_ref().is_none_or(mpsc::UnboundedSender::is_closed) {
                let (sender, records) = mpsc::unbounded_channel();
                tokio::spawn(write_groups(self.pool.clone(), records));
                *recorder = Some(sender);
            }
            recorder.clone().expect("started above")
        };
        recorder.send(record).map_err(|_| sqlx::Error::WorkerCrashed)?;
        // No answer: the writer ended with its runtime, and the caller reads its state again.
        Ok(async move { answered.await.unwrap_or(Err(sqlx::Error::WorkerCrashed)) })
    }

    /// Moves the position to `acked` without a delivery (changes that the endpoint does not
    /// want), if the state is still at `generation` and behind it.
    pub async fn advance(&self, endpoint_id: &str, generation: i64, acked: u64) -> Result<bool, sqlx::Error> {
        self.tables().await?;
        let done = sqlx::query("UPDATE webhook_deliveries SET acked = $3 WHERE endpoint_id = $1 AND generation = $2 AND acked < $3")
            .bind(endpoint_id)
            .bind(generation)
            .bind(acked as i64)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// "Redeliver from position `from`": every change at `from` or later is delivered again,
    /// in order; a disabled endpoint is enabled, its failures forgotten.
    pub async fn redeliver(&self, endpoint_id: &str, from: u64) -> Result<(), sqlx::Error> {
        self.tables().await?;
        sqlx::query(
            "UPDATE webhook_deliveries SET acked = $2, attempts = 0, next_attempt_ms = 0, failing_since_ms = NULL, \
             disabled_at_ms = NULL, generation = generation + 1 WHERE endpoint_id = $1",
        )
        .bind(endpoint_id)
        .bind(from.saturating_sub(1) as i64)
        .execute(&self.pool)
        .await
        .map(drop)
    }

    /// The endpoint's last attempts, newest first.
    pub async fn attempts(&self, endpoint_id: &str, limit: i64) -> Result<Vec<Attempt>, sqlx::Error> {
        self.tables().await?;
        let rows = sqlx::query(
            "SELECT position, message_id, attempt, status, error, latency_ms, at_ms FROM webhook_attempts \
             WHERE endpoint_id = $1 ORDER BY seq DESC LIMIT $2",
        )
        .bind(endpoint_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(Attempt {
                    position: row.try_get::<i64, _>("position")? as u64,
                    message_id: row.try_get("message_id")?,
                    attempt: row.try_get::<i64, _>("attempt")? as u32,
                    status: row.try_get::<Option<i64>, _>("status")?.map(|s| s as u16),
                    error: row.try_get("error")?,
                    latency_ms: row.try_get("latency_ms")?,
                    at_ms: row.try_get("at_ms")?,
                })
            })
            .collect()
    }

    /// Forgets a deleted endpoint's state and log.
    pub async fn forget(&self, endpoint_id: &str) -> Result<(), sqlx::Error> {
        self.tables().await?;
        sqlx::query("DELETE FROM webhook_attempts WHERE endpoint_id = $1").bind(endpoint_id).execute(&self.pool).await?;
        sqlx::query("DELETE FROM webhook_deliveries WHERE endpoint_id = $1").bind(endpoint_id).execute(&self.pool).await.map(drop)
    }
}
