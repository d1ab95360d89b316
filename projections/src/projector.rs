//! The projector: the log, in order, into the read tables, each batch in one transaction with
//! the checkpoint, so a crash anywhere loses and doubles nothing.

use std::{
    collections::{BTreeSet, HashSet},
    sync::Arc,
    time::Duration,
};

use rusqlite::OptionalExtension;

use domain::{EventStore, Position, RecordedEvent, StoreError, chain::ChainEvent};
use sqlx::{Any, AnyPool, Connection, pool::PoolConnection};
use tokio::{
    sync::{Mutex, Notify, watch},
    task::JoinHandle,
};

use crate::{
    ProjectionError, ReadDb, ReadModel,
    checkpoint::{NAME, checkpoint_in},
    read_model::Remember,
    read_models,
    sql::{self, Conn, Recording, Value},
};

/// Events per read and per transaction while catching up: many, so that each read table gets
/// a few large statements per batch and the transaction's page writes are shared.
const BATCH: usize = 20_000;
/// How often to look at the log when no wake-up arrives (another process appending).
const POLL: Duration = Duration::from_millis(500);

/// The position the read tables of `db`'s current generation include.
async fn checkpoint(db: &ReadDb) -> Result<Position, ProjectionError> {
    Ok(checkpoint_in(&db.pool()).await?)
}

/// Folds the log into the read tables.
pub struct Projector {
    store: Arc<dyn EventStore>,
    db: ReadDb,
    models: Arc<Vec<Box<dyn ReadModel>>>,
    projected: watch::Sender<Position>,
    /// Events per batch (and per transaction).
    batch: usize,
    /// Rows the read models may keep in memory while a fresh generation fills.
    remembered: usize,
    /// The connection it writes with, of the generation named: always the same one, so that
    /// SQLite's page cache stays warm from one batch to the next.
    writer: Mutex<Option<(String, Writer)>>,
}

/// The projector's connection to the read tables.
enum Writer {
    /// Postgres: one of the pool's.
    Any(PoolConnection<Any>),
    /// SQLite: a `rusqlite` connection of its own on the generation's file (see [`Conn`]).
    Sqlite {
        conn: Box<rusqlite::Connection>,
        /// A fresh generation's indexes are still to be built ([`DEFERRED`]): it stopped
        /// [`Writer::Filling`] before the log's end.
        bulk: bool,
    },
    /// SQLite, catching up in the pipeline (a fresh generation with indexes left for later too).
    Filling(Filling),
}

/// A SQLite generation catching up. Its tables are only written meanwhile (the read models keep
/// what they read back in memory: [`ReadModel::remember`]), so each batch's statements are
/// recorded as it is folded, and run on a blocking thread while the next batch is folded:
/// folding and writing overlap.
struct Filling {
    /// The connection, when no batch is being written with it.
    conn: Option<Box<rusqlite::Connection>>,
    /// Another, for the read models' reads of tables that were not empty (see `open`).
    reader: Option<Box<rusqlite::Connection>>,
    /// The batch being written: the position its commit moves the checkpoint to, and the write.
    writing: Option<(Position, JoinHandle<Written>)>,
    /// The last position folded (written, or being written).
    folded: Position,
    /// Every event id retracted so far: `retracted_events`, which is not read meanwhile.
    retracted: HashSet<String>,
    /// The SQL of [`READ_BY_FOLDS`] still deferred, by name: built as soon as a fold needs them.
    unbuilt: Vec<(String, String)>,
    /// A recording written already, emptied, for the next batch: two recordings take turns,
    /// so their buffers are allocated once instead of growing again every batch.
    spare: Option<Recording>,
}

/// A batch's write: the connection and the recording back, and whether it committed.
type Written = (Box<rusqlite::Connection>, Recording, Result<(), ProjectionError>);

impl Filling {
    /// Writes `recording`, which moves the checkpoint to `last`, on a blocking thread.
    fn start(&mut self, recording: Recording, last: Position) {
        let conn = self.conn.take().expect("no write is running");
        let write = tokio::task::spawn_blocking(move || {
            let written = in_transaction(&conn, || Ok(recording.run(&conn)?));
            (conn, recording, written)
        });
        self.writing = Some((last, write));
    }

    /// Waits for the running write, if any: the position its commit reached.
    async fn finish(&mut self) -> Result<Option<Position>, ProjectionError> {
        let Some((last, write)) = self.writing.take() else {
            return Ok(None);
        };
        let (conn, mut recording, written) = write.await.map_err(|failed| match failed.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            Err(_) => ProjectionError::Stopped,
        })?;
        self.conn = Some(conn);
        recording.clear();
        self.spare = Some(recording);
        written.map(|()| Some(last))
    }
}

/// Where the ids of retracted events are looked up.
enum Retracted<'a> {
    /// In `retracted_events`.
    Table,
    /// In memory, while a generation fills (see [`Filling`]).
    Memory(&'a mut HashSet<String>),
}

/// Rows the read models may keep in memory while a fresh generation fills (see
/// [`ReadModel::remember`]): a few hundred bytes each (about 90 MB for the 120,480 tokens of a
/// 1,000,000-event market history), so 1.5 GB at most; a larger log carries on reading its
/// rows back from the tables once past it.
const REMEMBERED_ROWS: usize = 4_000_000;

/// Indexes only queries use (none of the projector's own statements reads through them). While
/// the projector fills a fresh, unpublished SQLite generation from position 0, they are dropped
/// and then built once, sorted, when it has caught up ([`Projector::catch_up`], or the first
/// time [`Projector::run`] finds nothing to apply): cheaper than keeping each of them in step
/// with every batch's random inserts. Nobody queries a generation before it is published, and
/// its SQL is kept in `projector_deferred_indexes`, so an interrupted fill still gets them back
/// (the next writer opened on it builds what is left).
const DEFERRED: [&str; 17] = [
    "nfts_sale_price",
    "nfts_sale_minted",
    "nfts_owner",
    "nfts_creator",
    "bids_bidder",
    "sales_seller",
    "nft_changes_position",
    "nft_details_category",
    "user_wallets_user",
    "like_history_nft",
    // The activity feed's.
    "nft_history_kind",
    READ_BY_FOLDS[0],
    READ_BY_FOLDS[1],
    "nft_history_address",
    "nft_history_counterpart",
    "notices_recipient",
    "nft_metadata_due",
];

/// The deferred indexes the folds themselves read through, by token: `nft_history`'s (the NFT
/// model reads it once its memory is let go) and `owner_history`'s (closing an offer looks up
/// the owner then), and a reorg's refold deletes through both. Filling, they are built as soon
/// as one is needed: when the fill stops before the log's end ([`Projector::stop_filling`]),
/// before the first retraction's refold, or before the first offer's statements
/// ([`sql::build_fold_indexes`]).
const READ_BY_FOLDS: [&str; 2] = ["nft_history_nft", "owner_history_nft"];

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

    /// The position, to be told of each change (the elected process announces them).
    pub fn subscribe(&self) -> watch::Receiver<Position> {
        self.projected.clone()
    }

    /// A handle that follows the checkpoint *through the database*: for a process that does not
    /// run the projector itself (another process on the same Postgres database does), so that
    /// its commands still read their own writes. The returned task reads the checkpoint when
    /// woken ([`ProjectorFollower::wake`]: the projecting process announced progress) and every
    /// `poll` otherwise (and switches `db` to a newly published generation, as the projector
    /// would) for as long as it runs; [`ProjectorFollower::feed`] lets a local projector's
    /// progress in at once.
    pub fn following(db: ReadDb, start: Position, poll: Duration) -> (Self, ProjectorFollower) {
        let (sender, projected) = watch::channel(start);
        let sender = Arc::new(sender);
        (Self { projected }, ProjectorFollower { db, poll, sender, wake: Notify::new() })
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

/// The task behind [`ProjectorHandle::following`].
pub struct ProjectorFollower {
    db: ReadDb,
    poll: Duration,
    sender: Arc<watch::Sender<Position>>,
    wake: Notify,
}

impl ProjectorFollower {
    /// Passes `projector`'s progress on as it happens (on the process running it), until the
    /// projector is dropped.
    pub fn feed(&self, projector: ProjectorHandle) -> JoinHandle<()> {
        let sender = self.sender.clone();
        let mut projected = projector.projected;
        tokio::spawn(async move {
            loop {
                let position = *projected.borrow_and_update();
                sender.send_if_modified(|p| std::mem::replace(p, (*p).max(position)) < position);
                if projected.changed().await.is_err() {
                    return;
                }
            }
        })
    }

    /// Has [`ProjectorFollower::run`] read the checkpoint now (wake-ups while it reads make one
    /// more read after it, never none).
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// Reads the checkpoint when woken and every `poll`, forever (errors are logged and retried).
    pub async fn run(&self) {
        loop {
            let polled = async {
                self.db.refresh().await?;
                self.db.position().await
            };
            match polled.await {
                // A replay's generation may start behind the last one: follow it down too.
                Ok(position) => {
                    self.sender.send_if_modified(|p| std::mem::replace(p, position) != position);
                }
                Err(error) => tracing::warn!(%error, "reading the projector's checkpoint"),
            }
            tokio::select! {
                () = self.wake.notified() => {}
                () = tokio::time::sleep(self.poll) => {}
            }
        }
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
        Ok(Self {
            store,
            db,
            models: Arc::new(read_models()),
            projected,
            batch: BATCH,
            remembered: REMEMBERED_ROWS,
            writer: Mutex::new(None),
        })
    }

    /// The same with `events` per batch instead of the default (at least 1): the read tables
    /// come out the same, only the number of transactions differs.
    pub fn with_batch_size(mut self, events: usize) -> Self {
        self.batch = events.max(1);
        self
    }

    /// The same with at most `rows` rows kept in memory while a fresh generation fills,
    /// instead of the default (see [`ReadModel::remember`]): the read tables come out the same.
    pub fn with_remembered_rows(mut self, rows: usize) -> Self {
        self.remembered = rows;
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
        self.caught_up().await?;
        Ok(*self.projected.borrow())
    }

    /// Follows the log forever.
    pub async fn run(self) -> Result<(), ProjectionError> {
        let mut woken = self.store.appended();
        let mut ahead = None;
        loop {
            woken.borrow_and_update();
            if !self.step(&mut ahead).await? {
                self.caught_up().await?;
                tokio::select! {
                    _ = woken.changed() => {}
                    _ = tokio::time::sleep(POLL) => {}
                }
            }
        }
    }

    /// Applies one batch; false when there was nothing to apply.
    async fn step(&self, ahead: &mut Option<ReadAhead>) -> Result<bool, ProjectionError> {
        let mut writer = self.writer.lock().await;
        if self.db.refresh().await? {
            // A replay published a rebuilt generation: carry on from where it stopped.
            self.close(&mut writer).await;
            let position = checkpoint(&self.db).await?;
            self.projected.send_replace(position);
        }
        let after = match &*writer {
            Some((_, Writer::Filling(filling))) => filling.folded,
            _ => *self.projected.borrow(),
        };
        let events = self.read(after, ahead.take()).await?;
        let Some(last) = events.last().map(|e| e.position) else {
            return Ok(false);
        };
        if events.len() == self.batch {
            // Catching up: read the next batch, and have the read models decode it, while this
            // one is written.
            let (store, models) = (self.store.clone(), self.models.clone());
            let batch = self.batch;
            *ahead = Some(ReadAhead {
                after: last,
                read: tokio::spawn(async move {
                    let events = store.read_all(last, batch).await?;
                    blocking(|| {
                        for model in models.iter() {
                            let handled: Vec<&RecordedEvent> = events.iter().filter(|e| model.handles(&e.event_type)).collect();
                            if !handled.is_empty() {
                                model.prefetch(&handled);
                            }
                        }
                    });
                    Ok(events)
                }),
            });
        }
        let current = self.db.current();
        if !matches!(&*writer, Some((generation, _)) if *generation == current.generation) {
            self.close(&mut writer).await;
            let opened = self.open(&current.generation, &current.pool, after).await?;
            *writer = Some((current.generation, opened));
        }
        let Some((_, conn)) = &mut *writer else { unreachable!("opened above") };
        let written = match conn {
            Writer::Filling(filling) => self.fill(filling, &events, last).await,
            conn => self.write(conn, &events, after, last).await.map(|()| self.committed(Some(last))),
        };
        if let Err(failed) = written {
            // Nothing of this batch was kept; the next step starts over on a fresh connection.
            self.close(&mut writer).await;
            return Err(failed);
        }
        if self.models.iter().any(|model| model.outgrew_memory()) {
            // Filling, a read model let its memory go: the rest is folded reading the tables.
            self.stop_filling(&mut writer).await?;
        }
        Ok(true)
    }

    /// A writer on `generation`, whose tables hold the log up to `after`.
    async fn open(&self, generation: &str, pool: &AnyPool, after: Position) -> Result<Writer, ProjectionError> {
        let Some(file) = self.db.sqlite_file(generation) else {
            return Ok(Writer::Any(pool.acquire().await?));
        };
        let conn = Box::new(open_sqlite(&file)?);
        // A generation still to be published, filled from the start.
        let fresh = after == 0 && !self.db.is_published(generation).await?;
        blocking(|| {
            if fresh {
                // Its tables grow from nothing: a larger page cache keeps more of their
                // b-trees at hand (256 MiB instead of 64). Nobody reads it before it is
                // published, and a fill cut short by a crash is discarded and replayed: its
                // commits need not wait for the disk.
                conn.execute_batch("PRAGMA cache_size = -262144; PRAGMA synchronous = OFF")?;
                defer_indexes(&conn)
            } else {
                build_deferred_indexes(&conn, None)
            }
        })?;
        // It fills in the pipeline: the read models keep what they write (see
        // `ReadModel::remember`). A published generation keeps its indexes and its commits'
        // durability: its readers see each batch as it commits. Tables that already hold rows (a
        // server back after downtime) are read, for what is not in memory yet, through a second
        // connection, and the ids retracted so far are read once.
        let (reader, retracted) = if after == 0 {
            (None, HashSet::new())
        } else {
            let reader = Box::new(open_sqlite(&file)?);
            let retracted = blocking(|| {
                reader.prepare("SELECT event_id FROM retracted_events")?.query_map([], |row| row.get(0))?.collect::<Result<_, _>>()
            })?;
            (Some(reader), retracted)
        };
        for model in self.models.iter() {
            model.remember(Some(Remember { rows: self.remembered, empty: after == 0 }));
        }
        let unbuilt = blocking(|| deferred_sql(&conn, &READ_BY_FOLDS))?;
        Ok(Writer::Filling(Filling { conn: Some(conn), reader, writing: None, folded: after, retracted, unbuilt, spare: None }))
    }

    /// A batch's commit moved the checkpoint to `last` (if any): readers may see it.
    fn committed(&self, last: Option<Position>) {
        if let Some(last) = last {
            self.db.checkpoint_in_background();
            self.projected.send_replace(last);
        }
    }

    /// Lets the writer go (after a failure, or when the generation moves), once a write it has
    /// running has ended: what that write committed counts.
    async fn close(&self, writer: &mut Option<(String, Writer)>) {
        if let Some((_, Writer::Filling(filling))) = writer
            && let Ok(last) = filling.finish().await
        {
            self.committed(last);
        }
        self.forget_remembered();
        *writer = None;
    }

    /// Ends filling, if it is: waits for the running write, lets the read models' memory go
    /// and carries on writing in place, reading the tables (indexes still deferred).
    async fn stop_filling(&self, writer: &mut Option<(String, Writer)>) -> Result<(), ProjectionError> {
        let Some((_, Writer::Filling(filling))) = writer else {
            return Ok(());
        };
        match filling.finish().await {
            Ok(last) => self.committed(last),
            Err(failed) => {
                self.close(writer).await;
                return Err(failed);
            }
        }
        let conn = filling.conn.take().expect("no write is running");
        // Its commits wait for the disk again (see `open`); the folds read through their indexes.
        let reading = || {
            conn.execute_batch("PRAGMA synchronous = NORMAL")?;
            build_deferred_indexes(&conn, Some(&READ_BY_FOLDS))
        };
        if let Err(failed) = blocking(reading) {
            self.close(writer).await;
            return Err(failed);
        }
        self.forget_remembered();
        if let Some((_, writer)) = writer {
            *writer = Writer::Sqlite { conn, bulk: true };
        }
        Ok(())
    }

    fn forget_remembered(&self) {
        for model in self.models.iter() {
            model.remember(None);
        }
    }

    /// [`Projector::write`] while filling: folds `events` into a recording and, once the
    /// previous batch's write has ended, starts writing it.
    async fn fill(&self, filling: &mut Filling, events: &[RecordedEvent], last: Position) -> Result<(), ProjectionError> {
        let mut recording = filling.spare.take().unwrap_or_default();
        let folded = async {
            let mut conn = Conn::Record { recording: &mut recording, reader: filling.reader.as_deref_mut(), unbuilt: &mut filling.unbuilt };
            self.fold(&mut conn, events, &mut Retracted::Memory(&mut filling.retracted)).await?;
            crate::nft::write_changed(&mut conn).await?;
            save_checkpoint(&mut conn, last).await
        }
        .await;
        let committed = filling.finish().await?;
        self.committed(committed);
        folded?;
        filling.start(recording, last);
        filling.folded = last;
        Ok(())
    }

    /// Folds `events` into the read tables and moves the checkpoint from `after` to `last`, in
    /// one transaction.
    async fn write(&self, writer: &mut Writer, events: &[RecordedEvent], after: Position, last: Position) -> Result<(), ProjectionError> {
        match writer {
            Writer::Any(conn) => {
                let mut tx = conn.begin().await?;
                // Postgres may be shared by several processes: only the elected one projects,
                // but one that lost its election may not know yet. The checkpoint row, locked
                // until the commit, must still be where this batch starts, or nothing is written.
                let found: Option<i64> = sqlx::query_scalar("SELECT position FROM projector_checkpoint WHERE name = $1 FOR UPDATE")
                    .bind(NAME)
                    .fetch_optional(&mut *tx)
                    .await?;
                if found.unwrap_or(0) as Position != after {
                    return Err(ProjectionError::Superseded { expected: after, found: found.unwrap_or(0) as Position });
                }
                let mut conn = Conn::Any(&mut tx);
                self.fold(&mut conn, events, &mut Retracted::Table).await?;
                save_checkpoint(&mut conn, last).await?;
                tx.commit().await?;
                Ok(())
            }
            Writer::Sqlite { conn, .. } => {
                // rusqlite blocks: on a multi-threaded runtime, this worker hands its other
                // tasks over while it writes (as the event store does).
                let write = self.write_sqlite(conn, events, last);
                if multi_threaded() {
                    tokio::task::block_in_place(|| tokio::runtime::Handle::current().block_on(write))
                } else {
                    write.await
                }
            }
            Writer::Filling(_) => unreachable!("a filling writer folds with `fill`"),
        }
    }

    /// Once the log is read to its end: stops filling and builds the indexes a fresh
    /// generation was filled without.
    async fn caught_up(&self) -> Result<(), ProjectionError> {
        let mut writer = self.writer.lock().await;
        self.stop_filling(&mut writer).await?;
        if let Some((_, Writer::Sqlite { conn, bulk })) = &mut *writer
            && *bulk
        {
            if let Err(failed) = blocking(|| build_deferred_indexes(conn, None)) {
                self.close(&mut writer).await;
                return Err(failed);
            }
            *bulk = false;
        }
        Ok(())
    }

    /// [`Projector::write`] on SQLite.
    async fn write_sqlite(&self, conn: &mut rusqlite::Connection, events: &[RecordedEvent], last: Position) -> Result<(), ProjectionError> {
        conn.execute_batch("BEGIN IMMEDIATE")?;
        let written = async {
            let mut conn = Conn::Sqlite(&mut *conn);
            self.fold(&mut conn, events, &mut Retracted::Table).await?;
            save_checkpoint(&mut conn, last).await
        }
        .await;
        end_transaction(conn, written)
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
    async fn fold(&self, conn: &mut Conn<'_>, events: &[RecordedEvent], retracted: &mut Retracted<'_>) -> Result<(), ProjectionError> {
        let mut rest = events;
        while !rest.is_empty() {
            let retraction = rest.iter().position(|e| e.event_type == "BlocksRetracted");
            let run = retraction.map_or(rest.len(), |i| i + 1);
            self.apply(conn, &rest[..run].iter().collect::<Vec<_>>()).await?;
            if retraction.is_some() {
                self.retract(conn, &rest[run - 1], retracted).await?;
            }
            rest = &rest[run..];
        }
        Ok(())
    }

    /// Gives each read model the events it handles.
    async fn apply(&self, conn: &mut Conn<'_>, events: &[&RecordedEvent]) -> Result<(), ProjectionError> {
        for model in self.models.iter() {
            let handled: Vec<&RecordedEvent> = events.iter().copied().filter(|e| model.handles(&e.event_type)).collect();
            if !handled.is_empty() {
                model.apply(conn, &handled).await?;
            }
        }
        Ok(())
    }

    /// Records the retracted event ids and refolds the streams they were in.
    async fn retract(&self, conn: &mut Conn<'_>, event: &RecordedEvent, retracted: &mut Retracted<'_>) -> Result<(), ProjectionError> {
        let Ok(ChainEvent::BlocksRetracted { event_ids, streams, .. }) = event.payload() else {
            return Err(ProjectionError::malformed(event, "not a BlocksRetracted payload"));
        };
        let ids: BTreeSet<String> = event_ids.iter().map(ToString::to_string).collect();
        let rows: Vec<Vec<Value<'_>>> = ids.iter().map(|id| vec![id.into()]).collect();
        sql::insert(conn, "retracted_events", &["event_id"], "ON CONFLICT DO NOTHING", &rows).await?;
        if let Retracted::Memory(known) = retracted {
            // The refold deletes by token: recorded before it, the indexes are built first.
            sql::build_fold_indexes(conn).await?;
            known.extend(ids.iter().cloned());
        }
        for stream in &streams {
            self.refold(conn, stream, event.position, retracted).await?;
        }
        Ok(())
    }

    /// Rebuilds one stream's rows from its events before `until`, skipping retracted ones.
    async fn refold(&self, conn: &mut Conn<'_>, stream: &str, until: Position, retracted: &Retracted<'_>) -> Result<(), ProjectionError> {
        for model in self.models.iter() {
            model.forget_stream(conn, stream, until as i64).await?;
        }
        let mut from = 1;
        loop {
            let events = self.store.read_stream(stream, from, self.batch).await?;
            let Some(last) = events.last() else { break };
            from = last.stream_version + 1;
            let events: Vec<&RecordedEvent> = events.iter().filter(|e| e.position < until).collect();
            let ids: Vec<String> = events.iter().map(|e| e.event_id.to_string()).collect();
            let found: HashSet<String>;
            let retracted_ids = match retracted {
                Retracted::Memory(known) => &**known,
                Retracted::Table => {
                    let keys: Vec<Value<'_>> = ids.iter().map(Value::from).collect();
                    found = sql::select_in(conn, "SELECT event_id FROM retracted_events WHERE event_id IN ()", &keys)
                        .await?
                        .iter()
                        .map(|row| row.try_get::<String>(0))
                        .collect::<Result<_, _>>()?;
                    &found
                }
            };
            let kept: Vec<&RecordedEvent> =
                events.into_iter().zip(&ids).filter(|(_, id)| !retracted_ids.contains(*id)).map(|(event, _)| event).collect();
            self.apply(conn, &kept).await?;
        }
        Ok(())
    }
}

/// Commits the transaction `written` ran in, or rolls it back if it failed.
fn end_transaction(conn: &rusqlite::Connection, written: Result<(), ProjectionError>) -> Result<(), ProjectionError> {
    match written {
        Ok(()) => Ok(conn.execute_batch("COMMIT")?),
        Err(failed) => {
            // The connection is dropped after a failure anyway, which also rolls back.
            let _ = conn.execute_batch("ROLLBACK");
            Err(failed)
        }
    }
}

/// Runs `work` in one transaction on `conn`.
fn in_transaction(conn: &rusqlite::Connection, work: impl FnOnce() -> Result<(), ProjectionError>) -> Result<(), ProjectionError> {
    conn.execute_batch("BEGIN IMMEDIATE")?;
    end_transaction(conn, work())
}

/// Moves the checkpoint to `last` (inside the batch's transaction).
async fn save_checkpoint(conn: &mut Conn<'_>, last: Position) -> Result<(), ProjectionError> {
    sql::execute(
        conn,
        "INSERT INTO projector_checkpoint (name, position) VALUES ($1, $2) \
         ON CONFLICT (name) DO UPDATE SET position = excluded.position",
        &[NAME.into(), (last as i64).into()],
    )
    .await
}

/// The projector's own connection to a SQLite generation's file (created and migrated by the
/// pool already, in WAL mode). Its settings are the pool's (see `read_db::connect`); it keeps every
/// statement it runs prepared.
fn open_sqlite(file: &std::path::Path) -> Result<rusqlite::Connection, ProjectionError> {
    let conn = rusqlite::Connection::open(file)?;
    conn.busy_timeout(Duration::from_secs(10))?;
    conn.execute_batch(
        "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536; \
         PRAGMA temp_store = MEMORY; PRAGMA wal_autocheckpoint = 65536;",
    )?;
    conn.set_prepared_statement_cache_capacity(256);
    Ok(conn)
}

fn multi_threaded() -> bool {
    tokio::runtime::Handle::current().runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread
}

/// Runs blocking SQLite work: in place of this task, letting the runtime's other workers take
/// its other tasks, where there are other workers.
fn blocking<T>(work: impl FnOnce() -> T) -> T {
    if multi_threaded() { tokio::task::block_in_place(work) } else { work() }
}

/// Drops the [`DEFERRED`] indexes, keeping their SQL to build them again, in one transaction.
fn defer_indexes(conn: &rusqlite::Connection) -> Result<(), ProjectionError> {
    let tx = conn.unchecked_transaction()?;
    tx.execute_batch("CREATE TABLE IF NOT EXISTS projector_deferred_indexes (name TEXT PRIMARY KEY, sql TEXT NOT NULL)")?;
    for name in DEFERRED {
        let sql: Option<String> =
            tx.query_row("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?1", [name], |row| row.get(0)).optional()?;
        if let Some(sql) = sql {
            tx.execute("INSERT OR REPLACE INTO projector_deferred_indexes (name, sql) VALUES (?1, ?2)", [name, &sql])?;
            tx.execute_batch(&format!("DROP INDEX \"{name}\""))?;
        }
    }
    tx.commit()?;
    Ok(())
}

/// Builds the indexes [`defer_indexes`] dropped (if any; `only` those if named), in one
/// transaction.
fn build_deferred_indexes(conn: &rusqlite::Connection, only: Option<&[&str]>) -> Result<(), ProjectionError> {
    if !has_deferred(conn)? {
        return Ok(());
    }
    // Each build sorts a whole table: let SQLite's sorter use helper threads for it.
    conn.execute_batch("PRAGMA threads = 4")?;
    let tx = conn.unchecked_transaction()?;
    let indexes: Vec<(String, String)> = tx
        .prepare("SELECT name, sql FROM projector_deferred_indexes ORDER BY name")?
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (name, sql) in indexes.into_iter().filter(|(name, _)| only.is_none_or(|names| names.contains(&name.as_str()))) {
        tx.execute_batch(&sql)?;
        tx.execute(crate::sql::DEFERRED_BUILT, [&name])?;
    }
    tx.commit()?;
    Ok(())
}

/// The names and SQL of those of `names` still to be built.
fn deferred_sql(conn: &rusqlite::Connection, names: &[&str]) -> Result<Vec<(String, String)>, ProjectionError> {
    if !has_deferred(conn)? {
        return Ok(Vec::new());
    }
    let mut found = Vec::new();
    for name in names {
        let sql: Option<String> =
            conn.query_row("SELECT sql FROM projector_deferred_indexes WHERE name = ?1", [name], |row| row.get(0)).optional()?;
        found.extend(sql.map(|sql| ((*name).to_owned(), sql)));
    }
    Ok(found)
}

fn has_deferred(conn: &rusqlite::Connection) -> Result<bool, ProjectionError> {
    Ok(conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'projector_deferred_indexes')",
        [],
        |row| row.get(0),
    )?)
}
