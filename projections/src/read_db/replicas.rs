//! Streaming replicas of a PostgreSQL read database, for the queries of requests.
//!
//! A replica's rows lag the primary's by however long its replay takes. What a replica shows is
//! known exactly: the projector's checkpoint is committed with the rows, so the checkpoint in the
//! published generation's schema, read on the replica, is the log position its tables include.
//! A small monitor looks at the primary and at each replica every [`POLL`]:
//!
//! - a read whose request names a position (its own write, or the `Log-Position` its client
//!   sends) goes to a replica that includes it, waits up to `wait` for one, else to the primary;
//! - any other read goes to a replica no staler than `max_lag` (round robin), else the primary.
//!
//! A replica is *stale* by the time since the primary first held a position beyond the
//! replica's. The primary's moves are seen only when it is looked at, so each is dated at the
//! look before the one that saw it (the earliest it can have happened): staleness is never
//! under-estimated. A replica that does not answer, or is on another generation (a replay
//! published a new one its replay has not brought yet), or is too stale, is out of the rotation
//! until it qualifies again.

use std::{
    collections::VecDeque,
    sync::{
        Arc, Mutex, RwLock,
        atomic::{AtomicU64, AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use domain::Position;
use sqlx::AnyPool;
use tokio::sync::watch;

use super::{Current, generation_schema, schema_pool_options};
use crate::{checkpoint::checkpoint_in, reads};

/// How often the monitor looks at the primary and at each replica.
const POLL: Duration = Duration::from_millis(50);
/// A look not answered within this failed: a replica that hangs leaves the rotation.
const LOOK_TIMEOUT: Duration = Duration::from_secs(1);
/// How long a query waits for a replica's connection: past it the query fails, and the HTTP layer
/// asks the primary instead.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(1);

/// Where the replicas are and how stale they may be.
#[derive(Clone, Debug)]
pub struct ReplicaSettings {
    /// `postgres://` URLs of streaming replicas of the read database.
    pub urls: Vec<String>,
    /// How stale a replica may be for reads that name no position.
    pub max_lag: Duration,
    /// How long a read that names a position may wait for a replica to include it.
    pub wait: Duration,
}

/// How one replica stands, as the monitor last saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplicaStatus {
    /// Its host, port and database (no credentials).
    pub replica: String,
    /// Whether reads go to it.
    pub in_rotation: bool,
    /// The log position its tables include.
    pub position: Position,
    /// How stale it is, in milliseconds (past the bound: at least that; `None`: unknown, it has
    /// not answered, or it has been behind since the monitor started).
    pub lag_ms: Option<u64>,
    /// Why its last look failed.
    pub error: Option<String>,
    /// How many times a request's reads went to it since start.
    pub reads: u64,
}

/// The replicas of one read database and what the monitor knows of them.
pub(crate) struct Replicas {
    replicas: Vec<Replica>,
    max_lag: Duration,
    wait: Duration,
    /// The next replica in the round robin.
    next: AtomicUsize,
    primary: Mutex<PrimaryProgress>,
    /// Bumped after each look at a replica: reads waiting for a position check again.
    looked: watch::Sender<u64>,
    /// The primary's published generation and pool (the read database's own).
    current: Arc<RwLock<Current>>,
}

struct Replica {
    /// Its host, port and database, for logs.
    name: String,
    url: String,
    state: RwLock<ReplicaState>,
    /// Requests' reads sent to it.
    reads: AtomicU64,
}

#[derive(Default)]
struct ReplicaState {
    /// A pool on `generation`'s schema.
    pool: Option<AnyPool>,
    generation: String,
    position: Position,
    /// Its last look succeeded.
    answered: bool,
    error: Option<String>,
    /// In the rotation at the last look (to log its comings and goings; `None`: not looked at).
    in_rotation: Option<bool>,
}

/// The positions the primary reached, each with the earliest time it can have reached it.
#[derive(Default)]
struct PrimaryProgress {
    /// Oldest first; `None`: before the monitor started (long ago, as far as it knows).
    reached: VecDeque<(Position, Option<Instant>)>,
    position: Position,
    /// When the last successful look started (the primary may have moved right after).
    looked: Option<Instant>,
}

impl PrimaryProgress {
    /// The primary held `position` at the look started at `started`.
    fn saw(&mut self, position: Position, started: Instant, max_lag: Duration) {
        if position > self.position || self.looked.is_none() {
            // Reached after the previous look's snapshot, so after that look started.
            self.reached.push_back((position, self.looked));
            self.position = position;
        }
        self.looked = Some(started);
        // Once the second position is older than the bound, a replica behind the first is out
        // by either: the first is forgotten (its staleness then reads as the second's, which is
        // past the bound too). This keeps the list short.
        while self.reached.len() > 1 && self.reached[1].1.is_none_or(|at| started.saturating_duration_since(at) > max_lag) {
            self.reached.pop_front();
        }
    }

    /// How stale a replica at `position` is at `now` (past the bound, at least that); `None`:
    /// since before the monitor's first look.
    fn lag(&self, position: Position, now: Instant) -> Option<Duration> {
        let looked = self.looked?;
        let since = match self.reached.iter().find(|(reached, _)| *reached > position) {
            Some((_, at)) => (*at)?,
            // It has all the primary had at the last look; the primary may have moved since.
            None => looked,
        };
        Some(now.saturating_duration_since(since))
    }
}

/// Where a read goes.
enum Choice {
    Replica(usize, AnyPool),
    /// No replica includes the position yet, but one is in the rotation: it may soon.
    Wait,
    Primary,
}

impl Replicas {
    /// Starts watching the replicas of the read database whose generation and pool `current`
    /// holds. An unreachable replica only logs: it joins the rotation once it answers.
    pub(crate) fn start(settings: &ReplicaSettings, current: Arc<RwLock<Current>>) -> Result<Arc<Self>, String> {
        let mut replicas = Vec::with_capacity(settings.urls.len());
        for url in &settings.urls {
            if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
                return Err(format!("{}: not a postgres:// URL", name_of(url)));
            }
            replicas.push(Replica { name: name_of(url), url: url.clone(), state: RwLock::default(), reads: AtomicU64::new(0) });
        }
        let replicas = Arc::new(Self {
            replicas,
            max_lag: settings.max_lag,
            wait: settings.wait,
            next: AtomicUsize::new(0),
            primary: Mutex::default(),
            looked: watch::Sender::new(0),
            current,
        });
        spawn_looks(&replicas, |replicas| Box::pin(async move { replicas.look_at_primary().await }));
        for i in 0..replicas.replicas.len() {
            spawn_looks(&replicas, move |replicas| Box::pin(async move { replicas.look_at_replica(i).await }));
        }
        Ok(replicas)
    }

    /// The generation and pool the current request's next read goes to (`primary` is the
    /// primary's): see the module.
    pub(crate) async fn reader(&self, primary: Current) -> Current {
        // Outside a request (projector, elected work, the stream hub): the primary.
        let Some(request) = reads::current() else { return primary };
        if request.is_on_primary() {
            return primary;
        }
        let deadline = tokio::time::Instant::now() + self.wait;
        let mut looked = self.looked.subscribe();
        loop {
            match self.choose(request.named(), request.replica(), &primary.generation, Instant::now()) {
                Choice::Replica(i, pool) => {
                    request.pin(Some(i));
                    self.replicas[i].reads.fetch_add(1, Ordering::Relaxed);
                    return Current { pool, ..primary };
                }
                Choice::Wait if tokio::time::Instant::now() < deadline => {
                    // Woken by the next look at a replica, or at the deadline.
                    match tokio::time::timeout_at(deadline, looked.changed()).await {
                        Ok(Ok(())) => {}
                        Ok(Err(_)) | Err(_) => return primary,
                    }
                }
                Choice::Wait | Choice::Primary => return primary,
            }
        }
    }

    fn choose(&self, named: Position, pinned: Option<usize>, generation: &str, now: Instant) -> Choice {
        let progress = self.primary.lock().unwrap_or_else(|e| e.into_inner());
        let mut waiting = false;
        let mut qualifies = |i: usize| -> Option<AnyPool> {
            let state = self.replicas[i].state.read().unwrap_or_else(|e| e.into_inner());
            if !self.in_rotation(&state, &progress, generation, now) {
                return None;
            }
            if state.position < named {
                waiting = true;
                return None;
            }
            state.pool.clone()
        };
        if let Some(i) = pinned
            && let Some(pool) = qualifies(i)
        {
            return Choice::Replica(i, pool);
        }
        let count = self.replicas.len();
        let start = self.next.fetch_add(1, Ordering::Relaxed);
        for i in (0..count).map(|k| (start + k) % count) {
            if let Some(pool) = qualifies(i) {
                return Choice::Replica(i, pool);
            }
        }
        if waiting && named > 0 { Choice::Wait } else { Choice::Primary }
    }

    fn in_rotation(&self, state: &ReplicaState, progress: &PrimaryProgress, generation: &str, now: Instant) -> bool {
        state.answered
            && state.pool.is_some()
            && state.generation == generation
            && progress.lag(state.position, now).is_some_and(|lag| lag < self.max_lag)
    }

    async fn look_at_primary(&self) {
        let pool = self.current.read().unwrap_or_else(|e| e.into_inner()).pool.clone();
        let started = Instant::now();
        match tokio::time::timeout(LOOK_TIMEOUT, checkpoint_in(&pool)).await {
            Ok(Ok(position)) => self.primary.lock().unwrap_or_else(|e| e.into_inner()).saw(position, started, self.max_lag),
            // Not looked at: the replicas look staler as time passes, and leave the rotation.
            Ok(Err(err)) => tracing::debug!(%err, "read replicas: the primary's checkpoint could not be read"),
            Err(_) => tracing::debug!("read replicas: the primary's checkpoint did not come in time"),
        }
    }

    async fn look_at_replica(&self, i: usize) {
        let generation = self.current.read().unwrap_or_else(|e| e.into_inner()).generation.clone();
        let replica = &self.replicas[i];
        let kept = {
            let state = replica.state.read().unwrap_or_else(|e| e.into_inner());
            state.pool.clone().filter(|_| state.generation == generation)
        };
        let pool = match kept {
            Some(pool) => pool,
            None => {
                // First look, or a replay published a new generation: a pool on its schema.
                let pool =
                    match schema_pool_options(generation_schema(&generation)).acquire_timeout(ACQUIRE_TIMEOUT).connect_lazy(&replica.url) {
                        Ok(pool) => pool,
                        Err(err) => {
                            self.record(i, &generation, Err(err.to_string()));
                            return;
                        }
                    };
                let mut state = replica.state.write().unwrap_or_else(|e| e.into_inner());
                if let Some(old) = state.pool.replace(pool.clone()) {
                    tokio::spawn(async move { old.close().await });
                }
                state.generation = generation.clone();
                pool
            }
        };
        let looked = match tokio::time::timeout(LOOK_TIMEOUT, checkpoint_in(&pool)).await {
            Ok(Ok(position)) => Ok(position),
            Ok(Err(sqlx::Error::PoolTimedOut)) => Err(self.why_no_connection(i).await),
            Ok(Err(err)) => Err(err.to_string()),
            Err(_) => Err(format!("no answer within {} ms", LOOK_TIMEOUT.as_millis())),
        };
        self.record(i, &generation, looked);
    }

    /// Why replica `i`'s pool had no connection to give: the pool only says it timed out, so the
    /// first failure of a series connects once more to tell the cause (refused, unknown host,
    /// authentication...) in the log.
    async fn why_no_connection(&self, i: usize) -> String {
        let replica = &self.replicas[i];
        let known = replica.state.read().unwrap_or_else(|e| e.into_inner()).error.clone();
        if let Some(known) = known {
            return known;
        }
        match tokio::time::timeout(LOOK_TIMEOUT, <sqlx::AnyConnection as sqlx::Connection>::connect(&replica.url)).await {
            Ok(Err(err)) => format!("cannot connect: {err}"),
            Ok(Ok(_)) => "no connection came within the pool's timeout".into(),
            Err(_) => format!("cannot connect within {} ms", LOOK_TIMEOUT.as_millis()),
        }
    }

    /// Keeps what a look at replica `i` found, logs when it leaves or joins the rotation, and
    /// wakes the reads waiting for a position.
    fn record(&self, i: usize, generation: &str, looked: Result<Position, String>) {
        let replica = &self.replicas[i];
        {
            let progress = self.primary.lock().unwrap_or_else(|e| e.into_inner());
            let mut state = replica.state.write().unwrap_or_else(|e| e.into_inner());
            match looked {
                Ok(position) => {
                    state.position = position;
                    state.answered = true;
                    state.error = None;
                }
                Err(error) => {
                    state.answered = false;
                    state.error = Some(error);
                }
            }
            let now = Instant::now();
            let in_rotation = self.in_rotation(&state, &progress, generation, now);
            if state.in_rotation != Some(in_rotation) {
                state.in_rotation = Some(in_rotation);
                let lag_ms = progress.lag(state.position, now).map(|lag| lag.as_millis() as u64);
                if in_rotation {
                    tracing::info!(replica = %replica.name, position = state.position, ?lag_ms, "read replica in the rotation");
                } else {
                    let why = match &state.error {
                        Some(error) => error.clone(),
                        None if state.generation != generation => format!("not on the published generation {generation}"),
                        None if lag_ms.is_none() => "behind the primary since before the monitor first looked".into(),
                        None => format!("staler than {} ms", self.max_lag.as_millis()),
                    };
                    tracing::warn!(replica = %replica.name, position = state.position, ?lag_ms, %why, "read replica out of the rotation (reads go to the primary meanwhile)");
                }
            }
        }
        self.looked.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// Takes replica `i` out of the rotation until it answers its next look (a query failed on
    /// it).
    pub(crate) fn set_aside(&self, i: usize) {
        if let Some(replica) = self.replicas.get(i) {
            let mut state = replica.state.write().unwrap_or_else(|e| e.into_inner());
            state.answered = false;
            state.error = Some("a query failed on it".into());
        }
    }

    /// How each replica stands.
    pub(crate) fn status(&self) -> Vec<ReplicaStatus> {
        let generation = self.current.read().unwrap_or_else(|e| e.into_inner()).generation.clone();
        let progress = self.primary.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        self.replicas
            .iter()
            .map(|replica| {
                let state = replica.state.read().unwrap_or_else(|e| e.into_inner());
                ReplicaStatus {
                    replica: replica.name.clone(),
                    in_rotation: self.in_rotation(&state, &progress, &generation, now),
                    position: state.position,
                    lag_ms: state.answered.then(|| progress.lag(state.position, now)).flatten().map(|lag| lag.as_millis() as u64),
                    error: state.error.clone(),
                    reads: replica.reads.load(Ordering::Relaxed),
                }
            })
            .collect()
    }
}

type Look = std::pin::Pin<Box<dyn Future<Output = ()> + Send>>;

/// Runs `look` every [`POLL`] while the replicas are in use.
fn spawn_looks(replicas: &Arc<Replicas>, look: impl Fn(Arc<Replicas>) -> Look + Send + 'static) {
    let weak = Arc::downgrade(replicas);
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(POLL);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let Some(replicas) = weak.upgrade() else { return };
            look(replicas).await;
        }
    });
}

/// A URL's host, port and database, without credentials or parameters.
fn name_of(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let rest = rest.rsplit_once('@').map_or(rest, |(_, rest)| rest);
    rest.split('?').next().unwrap_or(rest).to_owned()
}

#[cfg(test)]
mod tests {
    use sqlx::any::AnyPoolOptions;

    use super::*;

    const BOUND: Duration = Duration::from_millis(1000);

    #[test]
    fn staleness_counts_from_the_look_before_the_primary_moved() {
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        let mut primary = PrimaryProgress::default();
        primary.saw(10, at(0), BOUND);
        // Behind what the primary held when first seen: how long ago is unknown.
        assert_eq!(primary.lag(9, at(10)), None);
        // Level with it: only the time since the last look.
        assert_eq!(primary.lag(10, at(30)), Some(Duration::from_millis(30)));
        primary.saw(10, at(50), BOUND);
        primary.saw(12, at(100), BOUND);
        // 12 was reached after the look at 50 started, at the earliest.
        assert_eq!(primary.lag(10, at(400)), Some(Duration::from_millis(350)));
        assert_eq!(primary.lag(11, at(400)), Some(Duration::from_millis(350)));
        assert_eq!(primary.lag(12, at(400)), Some(Duration::from_millis(300)));
    }

    #[test]
    fn old_positions_are_forgotten_without_making_a_replica_look_fresh() {
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        let mut primary = PrimaryProgress::default();
        for (i, ms) in (0..100).map(|i| (i, i * 50)) {
            primary.saw(i + 1, at(ms), BOUND);
        }
        assert!(primary.reached.len() <= 2 + (BOUND.as_millis() / 50) as usize, "{}", primary.reached.len());
        let now = at(99 * 50);
        // A replica long behind stays out; one a few looks behind is a few looks stale.
        assert!(primary.lag(3, now).is_none_or(|lag| lag > BOUND));
        assert_eq!(primary.lag(98, now), Some(Duration::from_millis(100)));
    }

    /// Replicas at these positions (no monitor), the primary seen at `primary` at `seen`.
    fn replicas_at(positions: &[Position], primary: Position, seen: Instant) -> Replicas {
        sqlx::any::install_default_drivers();
        // Lazy pools: nothing connects until queried, and nothing is queried here.
        let pool = || AnyPoolOptions::new().connect_lazy("postgres://nowhere.invalid/market").unwrap();
        let replicas = positions
            .iter()
            .map(|&position| Replica {
                name: "r".into(),
                url: String::new(),
                state: RwLock::new(ReplicaState {
                    pool: Some(pool()),
                    generation: "g1".into(),
                    position,
                    answered: true,
                    ..ReplicaState::default()
                }),
                reads: AtomicU64::new(0),
            })
            .collect();
        let mut progress = PrimaryProgress::default();
        progress.saw(primary, seen, BOUND);
        Replicas {
            replicas,
            max_lag: BOUND,
            wait: Duration::from_millis(250),
            next: AtomicUsize::new(0),
            primary: Mutex::new(progress),
            looked: watch::Sender::new(0),
            current: Arc::new(RwLock::new(Current { pool: pool(), generation: "g1".into(), sqlite: None })),
        }
    }

    fn chosen(replicas: &Replicas, named: Position, pinned: Option<usize>, now: Instant) -> Option<Option<usize>> {
        match replicas.choose(named, pinned, "g1", now) {
            Choice::Replica(i, _) => Some(Some(i)),
            Choice::Primary => Some(None),
            Choice::Wait => None,
        }
    }

    #[tokio::test]
    async fn reads_go_to_a_replica_that_has_what_they_name_or_wait_or_go_to_the_primary() {
        let seen = Instant::now();
        let soon = seen + Duration::from_millis(10);
        // Replica 0 has all the primary had, replica 1 was behind it when the monitor started.
        let replicas = replicas_at(&[10, 8], 10, seen);
        assert_eq!(chosen(&replicas, 10, None, soon), Some(Some(0)));
        assert_eq!(chosen(&replicas, 0, None, soon), Some(Some(0)), "replica 1's staleness is unknown: out");
        // A position no replica has yet, while one is in the rotation: wait for it.
        assert_eq!(chosen(&replicas, 11, None, soon), None);
        // Past the bound, the primary's last look is too old to vouch for replica 0.
        assert_eq!(chosen(&replicas, 0, None, seen + BOUND), Some(None));

        // Both fresh: round robin, and a request stays on the replica it started on.
        let replicas = replicas_at(&[10, 10], 10, seen);
        let first = chosen(&replicas, 0, None, soon).unwrap().unwrap();
        assert_ne!(chosen(&replicas, 0, None, soon).unwrap().unwrap(), first);
        assert_eq!(chosen(&replicas, 0, Some(1), soon), Some(Some(1)));
        assert_eq!(chosen(&replicas, 0, Some(0), soon), Some(Some(0)));

        // One that failed its look, or reads another generation, is out: the other serves.
        replicas.set_aside(0);
        assert_eq!(chosen(&replicas, 10, Some(0), soon), Some(Some(1)));
        replicas.replicas[1].state.write().unwrap().generation = "g0".into();
        assert_eq!(chosen(&replicas, 10, None, soon), Some(None), "none left: the primary, without waiting");
    }

    #[test]
    fn names_never_show_credentials() {
        assert_eq!(name_of("postgres://reader:secret@db-2:5432/market?sslmode=require"), "db-2:5432/market");
        assert_eq!(name_of("postgres://db-3/market"), "db-3/market");
    }
}
