//! The projector: the log, in order, into the read tables, each batch in one transaction with
//! the checkpoint, so a crash anywhere loses and doubles nothing.

use std::{
    collections::{BTreeSet, HashSet},
    sync::Arc,
    time::Duration,
};

use domain::{EventStore, Position, RecordedEvent, StoreError, chain::ChainEvent};
use sqlx::{Any, AnyConnection, AnyPool, Connection, Row, pool::PoolConnection};
use tokio::{
    sync::{Mutex, watch},
    task::JoinHandle,
};

use crate::{
    ProjectionError, ReadDb, ReadModel, read_models,
    sql::{self, Value},
};

/// The checkpoint row's name.
const NAME: &str = "read_models";
/// Events per read and per transaction while catching up: many, so that each read table gets
/// a few large statements per batch and the transaction's page writes are shared.
const BATCH: usize = 20_000;
/// How often to look at the log when no wake-up arrives (another process appending).
const POLL: Duration = Duration::from_millis(500);

/// The position the read tables of `db`'s current generation include.
async fn checkpoint(db: &ReadDb) -> Result<Position, ProjectionError> {
    Ok(checkpoint_in(&db.pool()).await?)
}

/// The position the read tables behind `pool` include.
pub(crate) async fn checkpoint_in(pool: &AnyPool) -> Result<Position, sqlx::Error> {
    let position: Option<i64> =
        sqlx::query_scalar("SELECT position FROM projector_checkpoint WHERE name = $1").bind(NAME).fetch_optional(pool).await?;
    Ok(position.unwrap_or(0) as Position)
}

/// Folds the log into the read tables.
pub struct Projector {
    store: Arc<dyn EventStore>,
    db: ReadDb,
    models: Vec<Box<dyn ReadModel>>,
    projected: watch::Sender<Position>,
    /// Events per batch (and per transaction).
    batch: usize,
    /// The connection it writes with, of the generation named: always the same one, so that
    /// SQLite's page cache stays warm from one batch to the next.
    writer: Mutex<Option<(String, PoolConnection<Any>)>>,
}

/// What the API holds to wait until its writes are visible in the read tables.
#[derive(Clone)]
pub struct ProjectorHandle {
    projected: watch::Receiver<Position>,
}

impl ProjectorHandle {
    /// The last position applied.
    pub fn position(&self) -> Position {
        *self.projected.borrow()
    }

    /// Waits (bounded) until the read tables include `position`: read-your-writes.
    pub async fn wait_for(&self, position: Position, timeout: Duration) -> Result<(), ProjectionError> {
        let mut projected = self.projected.clone();
        tokio::time::timeout(timeout, projected.wait_for(|&p| p >= position))
            .await
            .map_err(|_| ProjectionError::Timeout(position))?
            .map_err(|_| ProjectionError::Timeout(position))?;
        Ok(())
    }
}

/// The next batch's read, started while the current one is folded (catching up: the read and
/// the writes overlap).
struct ReadAhead {
    after: Position,
    read: JoinHandle<Result<Vec<RecordedEvent>, StoreError>>,
}

impl Projector {
    /// A projector resuming from the read database's checkpoint.
    pub async fn new(store: Arc<dyn EventStore>, db: ReadDb) -> Result<Self, ProjectionError> {
        let projected = watch::channel(checkpoint(&db).await?).0;
        Ok(Self { store, db, models: read_models(), projected, batch: BATCH, writer: Mutex::new(None) })
    }

    /// The same with `events` per batch instead of the default (at least 1): the read tables
    /// come out the same, only the number of transactions differs.
    pub fn with_batch_size(mut self, events: usize) -> Self {
        self.batch = events.max(1);
        self
    }

    /// A handle for waiting on progress.
    pub fn handle(&self) -> ProjectorHandle {
        ProjectorHandle { projected: self.projected.subscribe() }
    }

    /// Applies everything appended so far; returns the position reached.
    pub async fn catch_up(&self) -> Result<Position, ProjectionError> {
        let mut ahead = None;
        while self.step(&mut ahead).await? {}
        Ok(*self.projected.borrow())
    }

    /// Follows the log forever.
    pub async fn run(self) -> Result<(), ProjectionError> {
        let mut woken = self.store.appended();
        let mut ahead = None;
        loop {
            woken.borrow_and_update();
            if !self.step(&mut ahead).await? {
                tokio::select! {
                    _ = woken.changed() => {}
                    _ = tokio::time::sleep(POLL) => {}
                }
            }
        }
    }

    /// Applies one batch; false when there was nothing to apply.
    async fn step(&self, ahead: &mut Option<ReadAhead>) -> Result<bool, ProjectionError> {
        if self.db.refresh().await? {
            // A replay published a rebuilt generation: carry on from where it stopped.
            let position = checkpoint(&self.db).await?;
            self.projected.send_replace(position);
        }
        let after = *self.projected.borrow();
        let events = self.read(after, ahead.take()).await?;
        let Some(last) = events.last().map(|e| e.position) else {
            return Ok(false);
        };
        if events.len() == self.batch {
            // Catching up: read the next batch while this one is written.
            let store = self.store.clone();
            let batch = self.batch;
            *ahead = Some(ReadAhead { after: last, read: tokio::spawn(async move { store.read_all(last, batch).await }) });
        }
        let mut writer = self.writer.lock().await;
        let generation = self.db.generation();
        let conn = match &mut *writer {
            Some((current, conn)) if *current == generation => conn,
            writer => &mut writer.insert((generation, self.db.pool().acquire().await?)).1,
        };
        if let Err(failed) = self.write(conn, &events, last).await {
            // Nothing was kept; the next step starts over on a fresh connection.
            *writer = None;
            return Err(failed);
        }
        self.db.checkpoint_in_background();
        self.projected.send_replace(last);
        Ok(true)
    }

    /// Folds `events` into the read tables and moves the checkpoint to `last`, in one transaction.
    async fn write(&self, conn: &mut AnyConnection, events: &[RecordedEvent], last: Position) -> Result<(), ProjectionError> {
        let mut tx = conn.begin().await?;
        self.fold(&mut tx, events).await?;
        sqlx::query(
            "INSERT INTO projector_checkpoint (name, position) VALUES ($1, $2) \
             ON CONFLICT (name) DO UPDATE SET position = excluded.position",
        )
        .bind(NAME)
        .bind(last as i64)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The events after `after`: the read ahead if it is of that position and found any.
    async fn read(&self, after: Position, ahead: Option<ReadAhead>) -> Result<Vec<RecordedEvent>, ProjectionError> {
        if let Some(ahead) = ahead {
            if ahead.after != after {
                ahead.read.abort();
            } else {
                let events = match ahead.read.await {
                    Ok(events) => events?,
                    Err(failed) if failed.is_panic() => std::panic::resume_unwind(failed.into_panic()),
                    Err(_) => Vec::new(),
                };
                // An empty read may predate an append whose wake-up was taken since: read again.
                if !events.is_empty() {
                    return Ok(events);
                }
            }
        }
        Ok(self.store.read_all(after, self.batch).await?)
    }

    /// Folds events in log order: the read models take them a run at a time, up to and
    /// including each retraction, which is then undone where it stands in the log.
    async fn fold(&self, conn: &mut AnyConnection, events: &[RecordedEvent]) -> Result<(), ProjectionError> {
        let mut rest = events;
        while !rest.is_empty() {
            let retraction = rest.iter().position(|e| e.event_type == "BlocksRetracted");
            let run = retraction.map_or(rest.len(), |i| i + 1);
            self.apply(conn, &rest[..run].iter().collect::<Vec<_>>()).await?;
            if retraction.is_some() {
                self.retract(conn, &rest[run - 1]).await?;
            }
            rest = &rest[run..];
        }
        Ok(())
    }

    /// Gives each read model the events it handles.
    async fn apply(&self, conn: &mut AnyConnection, events: &[&RecordedEvent]) -> Result<(), ProjectionError> {
        for model in &self.models {
            let handled: Vec<&RecordedEvent> = events.iter().copied().filter(|e| model.handles(&e.event_type)).collect();
            if !handled.is_empty() {
                model.apply(conn, &handled).await?;
            }
        }
        Ok(())
    }

    /// Records the retracted event ids and refolds the streams they were in.
    async fn retract(&self, conn: &mut AnyConnection, event: &RecordedEvent) -> Result<(), ProjectionError> {
        let Ok(ChainEvent::BlocksRetracted { event_ids, streams, .. }) = event.payload() else {
            return Err(ProjectionError::Malformed {
                position: event.position,
                event_type: event.event_type.clone(),
                reason: "not a BlocksRetracted payload".into(),
            });
        };
        let ids: BTreeSet<String> = event_ids.iter().map(ToString::to_string).collect();
        let rows: Vec<Vec<Value<'_>>> = ids.iter().map(|id| vec![id.into()]).collect();
        sql::insert(conn, "retracted_events", &["event_id"], "ON CONFLICT DO NOTHING", &rows).await?;
        for stream in &streams {
            self.refold(conn, stream, event.position).await?;
        }
        Ok(())
    }

    /// Rebuilds one stream's rows from its events before `until`, skipping retracted ones.
    async fn refold(&self, conn: &mut AnyConnection, stream: &str, until: Position) -> Result<(), ProjectionError> {
        for model in &self.models {
            model.forget_stream(conn, stream, until as i64).await?;
        }
        let mut from = 1;
        loop {
            let events = self.store.read_stream(stream, from, self.batch).await?;
            let Some(last) = events.last() else { break };
            from = last.stream_version + 1;
            let events: Vec<&RecordedEvent> = events.iter().filter(|e| e.position < until).collect();
            let ids: Vec<String> = events.iter().map(|e| e.event_id.to_string()).collect();
            let keys: Vec<Value<'_>> = ids.iter().map(Value::from).collect();
            let retracted: HashSet<String> = sql::select_in(conn, "SELECT event_id FROM retracted_events WHERE event_id IN ()", &keys)
                .await?
                .iter()
                .map(|row| row.try_get(0))
                .collect::<Result<_, _>>()?;
            let kept: Vec<&RecordedEvent> = events.into_iter().filter(|e| !retracted.contains(&e.event_id.to_string())).collect();
            self.apply(conn, &kept).await?;
        }
        Ok(())
    }
}
