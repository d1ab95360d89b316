//! Several `marketplace serve` processes on one PostgreSQL database: indexing and projecting
//! each run in exactly one of them, elected with a Postgres advisory lock.
//!
//! Every process tries `pg_try_advisory_lock` on a connection of its own (session level: held
//! while that session lives). The one that gets it starts the indexer and the projector; the
//! others serve reads and commands only, following the projector's checkpoint and the indexer's
//! checkpoints through the database (see `ProjectorHandle::following` and
//! `IndexerHandle::following`), so every process reads its own writes. The holder checks its
//! connection every second: once it fails, the session (and the lock) may be gone, so it stops
//! indexing and projecting at once. When the holder dies its session ends, Postgres releases the
//! lock, and the next process to try (every half second) takes over.
//!
//! Followers learn of progress by notification, not by polling: the holder announces each advance
//! of its projector ([`PROJECTED_CHANNEL`]) and of its indexer ([`INDEXED_CHANNEL`]) with
//! `pg_notify`, after the commit it reports; every process listens and reads the checkpoint at
//! once (exactly what a poll would read, so read-your-writes is the polling design's). They still
//! read every [`FALLBACK_POLL`]: for a replay's newly published generation, and for announcements
//! missed while a listening connection was down (a reconnected listener also reads at once).
//! An idle follower so sends a few statements a second instead of one every few milliseconds.
//!
//! Two holders at once are harmless even in the moment before a holder notices that it lost its
//! connection: the indexer's checkpoint appends expect the chain stream's exact version (a
//! second indexer fails instead of doubling events), and a projector's batch commits only if the
//! checkpoint row is still where the batch starts (locked until the commit).

use std::{future::Future, time::Duration};

use sqlx::{Connection, PgConnection, postgres::PgListener};
use tokio::{sync::watch, task::JoinHandle};

/// The advisory lock's key: "market" in ASCII, one key per database.
pub const LOCK_KEY: i64 = 0x6d61_726b_6574;
/// The channel non-holders notify to have the holder's indexer poll the chain now.
pub const WAKE_CHANNEL: &str = "marketplace_index_now";
/// The channel the holder notifies when its projector has committed a batch.
pub const PROJECTED_CHANNEL: &str = "marketplace_projected";
/// The channel the holder notifies when its indexer has appended blocks' checkpoints.
pub const INDEXED_CHANNEL: &str = "marketplace_indexed";
/// How often every process reads the checkpoints without an announcement.
pub const FALLBACK_POLL: Duration = Duration::from_secs(1);
/// How often a process that does not hold the lock tries again.
const RETRY: Duration = Duration::from_millis(500);
/// How often the holder checks that its session (and so the lock) is alive.
const CHECK: Duration = Duration::from_secs(1);

/// Whether this process holds the lock, for `/metrics` and the logs.
pub type Leading = watch::Receiver<bool>;

/// Runs the election for as long as `stopped` is false: whenever this process holds the lock,
/// `start` has started the work (tasks that run until aborted); they are aborted when the lock
/// may be lost, and the process tries again. A task that ends by itself (an indexer stopped by
/// a deep reorg) gives the lock up, so that another process may try.
pub fn spawn<F, Fut>(url: String, mut start: F, mut stopped: watch::Receiver<bool>) -> (Leading, JoinHandle<()>)
where
    F: FnMut() -> Fut + Send + 'static,
    Fut: Future<Output = anyhow::Result<Vec<JoinHandle<()>>>> + Send,
{
    let (leading, watch) = watch::channel(false);
    let task = tokio::spawn(async move {
        while !*stopped.borrow() {
            let mut conn = match PgConnection::connect(&url).await {
                Ok(conn) => conn,
                Err(error) => {
                    tracing::warn!(%error, "election: connecting to the database");
                    tokio::time::sleep(RETRY).await;
                    continue;
                }
            };
            // Wait for the lock (or for the connection to fail).
            let held = loop {
                match sqlx::query_scalar::<_, bool>("SELECT pg_try_advisory_lock($1)").bind(LOCK_KEY).fetch_one(&mut conn).await {
                    Ok(true) => break true,
                    Ok(false) => {
                        tokio::select! {
                            () = tokio::time::sleep(RETRY) => {}
                            _ = stopped.wait_for(|s| *s) => break false,
                        }
                    }
                    Err(error) => {
                        tracing::warn!(%error, "election: asking for the lock");
                        break false;
                    }
                }
            };
            if !held {
                continue;
            }
            let tasks = match start().await {
                Ok(tasks) => tasks,
                Err(error) => {
                    tracing::error!(error = %format!("{error:#}"), "elected, but starting the indexer and projector failed; giving the lock up");
                    drop(conn);
                    tokio::time::sleep(RETRY * 4).await;
                    continue;
                }
            };
            leading.send_replace(true);
            tracing::info!("elected: this process indexes the chain and projects the log");
            loop {
                tokio::select! {
                    () = tokio::time::sleep(CHECK) => {}
                    _ = stopped.wait_for(|s| *s) => break,
                }
                let alive = tokio::time::timeout(CHECK * 2, sqlx::query("SELECT 1").execute(&mut conn)).await;
                if !matches!(alive, Ok(Ok(_))) {
                    tracing::warn!("election: the lock's connection failed; no longer indexing or projecting");
                    break;
                }
                if tasks.iter().any(JoinHandle::is_finished) {
                    tracing::warn!("election: the indexer or projector stopped; giving the lock up");
                    break;
                }
            }
            for task in &tasks {
                task.abort();
            }
            for task in tasks {
                let _ = task.await;
            }
            leading.send_replace(false);
            // Closing the session releases the lock (if it was not lost already).
            drop(conn);
            tokio::time::sleep(RETRY).await;
        }
    });
    (watch, task)
}

/// Listens on `channels` and calls `notified` with each notification's channel, and with
/// `None` each time the listening connection is (re)established, as notifications may have been
/// missed meanwhile; until aborted.
pub fn listen(url: String, channels: &'static [&'static str], notified: impl Fn(Option<&str>) + Send + Sync + 'static) -> JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            let listened = async {
                let mut listener = PgListener::connect(&url).await?;
                listener.listen_all(channels.iter().copied()).await?;
                notified(None);
                loop {
                    // None: the connection was lost (the next call reconnects and listens again).
                    match listener.try_recv().await? {
                        Some(notification) => notified(Some(notification.channel())),
                        None => notified(None),
                    }
                }
                #[allow(unreachable_code)]
                Ok::<(), sqlx::Error>(())
            };
            if let Err(error) = listened.await {
                tracing::warn!(%error, channels = ?channels, "listening for notifications");
            }
            tokio::time::sleep(RETRY).await;
        }
    })
}

/// On the holder: announces each advance of `projector` on [`PROJECTED_CHANNEL`] and of
/// `indexer` on [`INDEXED_CHANNEL`] (advances during a notification make one more, never none);
/// until aborted.
pub fn announce(
    url: &str,
    projector: projections::ProjectorHandle,
    indexer: Option<indexer::IndexerHandle>,
) -> anyhow::Result<Vec<JoinHandle<()>>> {
    let pool = sqlx::postgres::PgPoolOptions::new().max_connections(2).connect_lazy(url)?;
    let notify = |pool: sqlx::PgPool, channel: &'static str| async move {
        if let Err(error) = sqlx::query("SELECT pg_notify($1, '')").bind(channel).execute(&pool).await {
            tracing::warn!(%error, channel, "announcing progress");
        }
    };
    let mut tasks = Vec::new();
    let mut projected = projector.subscribe();
    tasks.push(tokio::spawn({
        let pool = pool.clone();
        async move {
            while projected.changed().await.is_ok() {
                notify(pool.clone(), PROJECTED_CHANNEL).await;
            }
        }
    }));
    if let Some(indexer) = indexer {
        let mut progress = indexer.subscribe();
        tasks.push(tokio::spawn(async move {
            let mut announced = progress.borrow_and_update().indexed_through;
            while progress.changed().await.is_ok() {
                // Progress also counts polls; only a new block is news.
                let through = progress.borrow_and_update().indexed_through;
                if through != announced {
                    announced = through;
                    notify(pool.clone(), INDEXED_CHANNEL).await;
                }
            }
        }));
    }
    Ok(tasks)
}
