//! The projector: the log, in order, into the read tables, each batch in one transaction with
//! the checkpoint, so a crash anywhere loses and doubles nothing.

use std::{sync::Arc, time::Duration};

use domain::{EventStore, Position, RecordedEvent, chain::ChainEvent};
use sqlx::AnyConnection;
use tokio::sync::watch;

use crate::{ProjectionError, ReadDb, ReadModel, read_models};

/// The checkpoint row's name.
const NAME: &str = "read_models";
/// Events per transaction while catching up.
const BATCH: usize = 1_000;
/// How often to look at the log when no wake-up arrives (another process appending).
const POLL: Duration = Duration::from_millis(500);

/// The position the read tables of `db`'s current generation include.
async fn checkpoint(db: &ReadDb) -> Result<Position, ProjectionError> {
    let position: Option<i64> = sqlx::query_scalar("SELECT position FROM projector_checkpoint WHERE name = $1")
        .bind(NAME)
        .fetch_optional(&db.pool())
        .await?;
    Ok(position.unwrap_or(0) as Position)
}

/// Folds the log into the read tables.
pub struct Projector {
    store: Arc<dyn EventStore>,
    db: ReadDb,
    models: Vec<Box<dyn ReadModel>>,
    projected: watch::Sender<Position>,
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

impl Projector {
    /// A projector resuming from the read database's checkpoint.
    pub async fn new(store: Arc<dyn EventStore>, db: ReadDb) -> Result<Self, ProjectionError> {
        let projected = watch::channel(checkpoint(&db).await?).0;
        Ok(Self { store, db, models: read_models(), projected })
    }

    /// A handle for waiting on progress.
    pub fn handle(&self) -> ProjectorHandle {
        ProjectorHandle { projected: self.projected.subscribe() }
    }

    /// Applies everything appended so far; returns the position reached.
    pub async fn catch_up(&self) -> Result<Position, ProjectionError> {
        while self.step().await? {}
        Ok(*self.projected.borrow())
    }

    /// Follows the log forever.
    pub async fn run(self) -> Result<(), ProjectionError> {
        let mut woken = self.store.appended();
        loop {
            woken.borrow_and_update();
            if !self.step().await? {
                tokio::select! {
                    _ = woken.changed() => {}
                    _ = tokio::time::sleep(POLL) => {}
                }
            }
        }
    }

    /// Applies one batch; false when there was nothing to apply.
    async fn step(&self) -> Result<bool, ProjectionError> {
        if self.db.refresh().await? {
            // A replay published a rebuilt generation: carry on from where it stopped.
            let position = checkpoint(&self.db).await?;
            self.projected.send_replace(position);
        }
        let after = *self.projected.borrow();
        let events = self.store.read_all(after, BATCH).await?;
        let Some(last) = events.last().map(|e| e.position) else { return Ok(false) };
        let mut tx = self.db.pool().begin().await?;
        for event in &events {
            self.apply(&mut tx, event).await?;
        }
        sqlx::query(
            "INSERT INTO projector_checkpoint (name, position) VALUES ($1, $2) \
             ON CONFLICT (name) DO UPDATE SET position = excluded.position",
        )
        .bind(NAME)
        .bind(last as i64)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        self.projected.send_replace(last);
        Ok(true)
    }

    async fn apply(&self, conn: &mut AnyConnection, event: &RecordedEvent) -> Result<(), ProjectionError> {
        for model in self.models.iter().filter(|m| m.handles(&event.event_type)) {
            model.apply(conn, event).await?;
        }
        if event.event_type == "BlocksRetracted" {
            let ChainEvent::BlocksRetracted { event_ids, streams, .. } = event.payload()? else {
                return Err(ProjectionError::Malformed {
                    position: event.position,
                    event_type: event.event_type.clone(),
                    reason: "not a BlocksRetracted payload".into(),
                });
            };
            for id in &event_ids {
                sqlx::query("INSERT INTO retracted_events (event_id) VALUES ($1) ON CONFLICT DO NOTHING")
                    .bind(id.to_string())
                    .execute(&mut *conn)
                    .await?;
            }
            for stream in &streams {
                self.refold(conn, stream, event.position).await?;
            }
        }
        Ok(())
    }

    /// Rebuilds one stream's rows from its events before `until`, skipping retracted ones.
    async fn refold(&self, conn: &mut AnyConnection, stream: &str, until: Position) -> Result<(), ProjectionError> {
        for model in &self.models {
            model.forget_stream(conn, stream).await?;
        }
        let mut from = 1;
        loop {
            let events = self.store.read_stream(stream, from, BATCH).await?;
            let Some(last) = events.last() else { break };
            from = last.stream_version + 1;
            for event in events.iter().filter(|e| e.position < until) {
                let retracted: Option<String> = sqlx::query_scalar("SELECT event_id FROM retracted_events WHERE event_id = $1")
                    .bind(event.event_id.to_string())
                    .fetch_optional(&mut *conn)
                    .await?;
                if retracted.is_none() {
                    for model in self.models.iter().filter(|m| m.handles(&event.event_type)) {
                        model.apply(conn, event).await?;
                    }
                }
            }
        }
        Ok(())
    }
}
