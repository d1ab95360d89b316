//! The read database: SQLite (a file of its own beside the log) or PostgreSQL, in
//! *generations*.
//!
//! A replay builds every read table from the log into a new generation (a new SQLite file, or a
//! new Postgres schema) while the server keeps answering from the current one, then publishes
//! it by moving a pointer (a small file beside the SQLite database; a row in Postgres). Every
//! [`ReadDb`] notices the move on its next [`ReadDb::refresh`] and switches its pool: the
//! projector carries on from the new generation's checkpoint, queries read the new tables.
//!
//! On Postgres, the queries of requests may read streaming replicas instead ([`ReadDb::reader`],
//! [`replicas`]); everything else reads and writes the primary ([`ReadDb::pool`]).

mod readers;
pub mod replicas;

use std::{
    path::{Path, PathBuf},
    sync::{
        Arc, RwLock,
        atomic::{AtomicBool, Ordering},
    },
};

use sha2::{Digest, Sha256};
use sqlx::{
    AnyPool, Executor, Row,
    any::{AnyPoolOptions, install_default_drivers},
};

pub(crate) use self::readers::SqliteReaders;
use self::replicas::{ReplicaSettings, ReplicaStatus, Replicas};
use crate::{ProjectionError, queries::browse::BrowseIndex};

/// Where the generations live.
#[derive(Clone, Debug)]
enum Base {
    /// `read.db`: generations are files beside it, the pointer is `read.db.current`.
    Sqlite(PathBuf),
    /// A database: generations are schemas, the pointer is `public.read_generation`.
    Postgres {
        /// Its URL.
        url: String,
        /// A small pool in the default schema, for the pointer and creating schemas.
        admin: AnyPool,
    },
}

/// A generation as queries read it.
#[derive(Clone)]
pub(crate) struct Current {
    pub(crate) pool: AnyPool,
    pub(crate) generation: String,
    /// SQLite: read-only connections on the generation's file, for the hot queries.
    pub(crate) sqlite: Option<Arc<SqliteReaders>>,
}

impl Current {
    fn new(base: &Base, pool: AnyPool, generation: String) -> Self {
        let sqlite = match base {
            Base::Sqlite(path) => Some(Arc::new(SqliteReaders::new(generation_file(path, &generation)))),
            Base::Postgres { .. } => None,
        };
        Self { pool, generation, sqlite }
    }
}

/// A pool on the current generation of the read database, with its tables migrated. The SQL
/// written here uses `$1` placeholders, which both SQLite and Postgres accept.
#[derive(Clone)]
pub struct ReadDb {
    base: Base,
    current: Arc<RwLock<Current>>,
    /// A WAL checkpoint is running in the background (SQLite).
    checkpointing: Arc<AtomicBool>,
    /// Opened with [`ReadDb::open`]: follows the published generation. A generation opened by
    /// name (a replay building one) stays where it is.
    follows: bool,
    /// The in-memory index browsing is answered from (rebuilt when the generation moves).
    browse: Arc<BrowseIndex>,
    /// Every collection's statistics, kept while the read tables stay the same (`queries::insight`).
    insight: Arc<tokio::sync::Mutex<Option<crate::queries::insight::KeptStats>>>,
    /// Every collection's grid row, kept while the read tables stay the same (`queries::collections`).
    collection_grid: Arc<tokio::sync::Mutex<Option<crate::queries::collections::KeptGrid>>>,
    /// Postgres: streaming replicas the queries of requests may read instead.
    replicas: Option<Arc<Replicas>>,
}

/// The generation a fresh database starts with (the base file itself; schema `read_initial`).
const FIRST: &str = "initial";

impl ReadDb {
    /// Opens the published generation of `url` (`sqlite://path` or `postgres://...`).
    pub async fn open(url: &str) -> Result<Self, ProjectionError> {
        let base = parse(url).await?;
        let generation = published(&base).await?;
        let db = Self { follows: true, ..Self::open_generation_of(base, generation).await? };
        db.ensure_views().await?;
        Ok(db)
    }

    /// Opens (creating and migrating) a generation of `url` that need not be published yet.
    pub async fn open_generation(url: &str, generation: &str) -> Result<Self, ProjectionError> {
        let valid = !generation.is_empty() && generation.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            return Err(ProjectionError::Generation(format!("{generation:?}: use letters, digits and _")));
        }
        Self::open_generation_of(parse(url).await?, generation.to_owned()).await
    }

    async fn open_generation_of(base: Base, generation: String) -> Result<Self, ProjectionError> {
        let pool = connect(&base, &generation).await?;
        Ok(Self {
            current: Arc::new(RwLock::new(Current::new(&base, pool, generation))),
            base,
            checkpointing: Arc::new(AtomicBool::new(false)),
            follows: false,
            browse: Arc::default(),
            insight: Arc::default(),
            collection_grid: Arc::default(),
            replicas: None,
        })
    }

    /// The same database, its requests' queries also served by these streaming replicas
    /// (nothing changes without URLs). Refused on SQLite: replicas are PostgreSQL's. A replica
    /// that cannot be reached only logs, and stays out of the rotation until it answers.
    pub fn with_replicas(self, settings: &ReplicaSettings) -> Result<Self, ProjectionError> {
        if settings.urls.is_empty() {
            return Ok(self);
        }
        if self.is_sqlite() {
            return Err(ProjectionError::Replicas(
                "READ_REPLICA_URLS needs a PostgreSQL read database (READ_DATABASE_URL); this one is SQLite".into(),
            ));
        }
        let replicas = Replicas::start(settings, self.current.clone()).map_err(ProjectionError::Replicas)?;
        Ok(Self { replicas: Some(replicas), ..self })
    }

    /// Whether requests' queries may read replicas.
    pub fn has_replicas(&self) -> bool {
        self.replicas.is_some()
    }

    /// How each read replica stands (empty without replicas).
    pub fn replica_status(&self) -> Vec<ReplicaStatus> {
        self.replicas.as_ref().map(|r| r.status()).unwrap_or_default()
    }

    /// Takes read replica `index` out of the rotation until its next look finds it answering: a
    /// query failed on it.
    pub fn set_replica_aside(&self, index: usize) {
        if let Some(replicas) = &self.replicas {
            replicas.set_aside(index);
        }
    }

    /// Whether this is SQLite.
    pub fn is_sqlite(&self) -> bool {
        matches!(self.base, Base::Sqlite(_))
    }

    /// The pool of the current generation, for queries.
    pub fn pool(&self) -> AnyPool {
        self.current.read().expect("not poisoned").pool.clone()
    }

    /// The current generation's name.
    pub fn generation(&self) -> String {
        self.current.read().expect("not poisoned").generation.clone()
    }

    /// The current generation: its name, pool and SQLite read connections, read together.
    pub(crate) fn current(&self) -> Current {
        self.current.read().expect("not poisoned").clone()
    }

    /// The pool the current request's next query reads: a replica that includes the position
    /// the request named (its own writes, or the client's `Log-Position`), or one no staler than
    /// the bound when it named none, else the primary; always the primary outside a request
    /// ([`crate::reads`]) and without replicas.
    pub async fn reader(&self) -> AnyPool {
        self.reading().await.pool
    }

    /// [`Self::current`] with the pool [`Self::reader`] picks.
    pub(crate) async fn reading(&self) -> Current {
        match &self.replicas {
            Some(replicas) => replicas.reader(self.current()).await,
            None => self.current(),
        }
    }

    /// The log position the current generation's read tables include (the projector's
    /// checkpoint, committed with the rows).
    pub async fn position(&self) -> Result<domain::Position, ProjectionError> {
        Ok(crate::checkpoint::checkpoint_in(&self.pool()).await?)
    }

    /// Whether `generation` is the published one (readers use it).
    pub(crate) async fn is_published(&self, generation: &str) -> Result<bool, ProjectionError> {
        Ok(published(&self.base).await? == generation)
    }

    /// The file of `generation` when this is SQLite.
    pub(crate) fn sqlite_file(&self, generation: &str) -> Option<PathBuf> {
        match &self.base {
            Base::Sqlite(path) => Some(generation_file(path, generation)),
            Base::Postgres { .. } => None,
        }
    }

    pub(crate) fn insight(&self) -> &tokio::sync::Mutex<Option<crate::queries::insight::KeptStats>> {
        &self.insight
    }

    pub(crate) fn collection_grid(&self) -> &tokio::sync::Mutex<Option<crate::queries::collections::KeptGrid>> {
        &self.collection_grid
    }

    pub(crate) fn browse(&self) -> &BrowseIndex {
        &self.browse
    }

    /// Switches to the published generation if it moved; true when it did.
    pub async fn refresh(&self) -> Result<bool, ProjectionError> {
        if !self.follows {
            return Ok(false);
        }
        let published = published(&self.base).await?;
        if published == self.generation() {
            return Ok(false);
        }
        let pool = connect(&self.base, &published).await?;
        tracing::info!(generation = %published, "switching to a rebuilt generation of the read models");
        *self.current.write().expect("not poisoned") = Current::new(&self.base, pool, published);
        Ok(true)
    }

    /// SQLite: copies the write-ahead log into the database file on a connection of its own, in
    /// the background, at most one at a time, so that the projector's commits do not wait for
    /// it. Postgres: nothing to do.
    pub fn checkpoint_in_background(&self) {
        if !self.is_sqlite() || self.checkpointing.swap(true, Ordering::AcqRel) {
            return;
        }
        let (pool, checkpointing) = (self.pool(), self.checkpointing.clone());
        tokio::spawn(async move {
            if let Err(error) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)").execute(&pool).await {
                tracing::warn!(%error, "checkpointing the read database's write-ahead log");
            }
            checkpointing.store(false, Ordering::Release);
        });
    }

    /// Makes this generation the one every reader uses.
    pub async fn publish(&self) -> Result<(), ProjectionError> {
        let generation = self.generation();
        match &self.base {
            Base::Sqlite(path) => {
                let pointer = pointer_file(path);
                let tmp = pointer.with_extension("current.tmp");
                std::fs::write(&tmp, &generation).map_err(sqlx::Error::Io)?;
                std::fs::rename(&tmp, &pointer).map_err(sqlx::Error::Io)?;
            }
            Base::Postgres { admin, .. } => {
                // The pointer and the analysts' views move in one transaction: a query on
                // `analytics` sees one generation, never a mix.
                let mut tx = admin.begin().await?;
                sqlx::query("SELECT pg_advisory_xact_lock($1)").bind(ANALYTICS_LOCK).execute(&mut *tx).await?;
                sqlx::query(
                    "INSERT INTO public.read_generation (id, generation) VALUES (1, $1) \
                     ON CONFLICT (id) DO UPDATE SET generation = excluded.generation",
                )
                .bind(&generation)
                .execute(&mut *tx)
                .await?;
                switch_views(&mut tx, &generation).await?;
                tx.commit().await?;
            }
        }
        Ok(())
    }

    /// Postgres: makes sure the `analytics` views show the published generation (a database
    /// whose first generation was never published by a replay, or one from before the views).
    async fn ensure_views(&self) -> Result<(), ProjectionError> {
        let Base::Postgres { admin, .. } = &self.base else {
            return Ok(());
        };
        let shown: Option<String> = sqlx::query_scalar(
            "SELECT CAST(obj_description(c.oid, 'pg_class') AS TEXT) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
             WHERE n.nspname = 'analytics' AND c.relname = 'nfts'",
        )
        .fetch_optional(admin)
        .await?
        .flatten();
        if shown.as_deref() == Some(self.generation().as_str()) {
            return Ok(());
        }
        let mut tx = admin.begin().await?;
        sqlx::query("SELECT pg_advisory_xact_lock($1)").bind(ANALYTICS_LOCK).execute(&mut *tx).await?;
        let generation: Option<String> =
            sqlx::query_scalar("SELECT generation FROM public.read_generation WHERE id = 1").fetch_optional(&mut *tx).await?;
        switch_views(&mut tx, &generation.unwrap_or_else(|| FIRST.into())).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Postgres: creates the read-only role analysts are given (`marketplace_analyst`: may read
    /// the `analytics` views and nothing else), if it does not exist, and grants it the views.
    pub async fn create_analyst_role(&self) -> Result<(), ProjectionError> {
        let Base::Postgres { admin, .. } = &self.base else {
            return Err(ProjectionError::Generation("the analysts' role is a PostgreSQL feature".into()));
        };
        self.ensure_views().await?;
        let mut tx = admin.begin().await?;
        sqlx::query("SELECT pg_advisory_xact_lock($1)").bind(ANALYTICS_LOCK).execute(&mut *tx).await?;
        let exists: bool =
            sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1)").bind(ANALYST_ROLE).fetch_one(&mut *tx).await?;
        if !exists {
            sqlx::query(&format!("CREATE ROLE {ANALYST_ROLE} NOLOGIN")).execute(&mut *tx).await?;
        }
        grant_views(&mut tx).await?;
        tx.commit().await?;
        Ok(())
    }

    /// SQLite: the file of the current generation (what analysts open).
    pub fn current_file(&self) -> Option<PathBuf> {
        self.sqlite_file(&self.generation())
    }

    /// A SHA-256 over every row of every read table (the projector's own `projector_*` tables
    /// aside), tables by name, rows in a total order: equal read states give equal
    /// checksums, so a replay can be compared with the live state.
    pub async fn checksum(&self) -> Result<String, ProjectionError> {
        self.digest(&[], &[]).await
    }

    /// The same over what the tables *say*, leaving out the log positions rows are keyed by and
    /// the reorg bookkeeping: two logs that record the same facts at different positions (one
    /// with a reorg retracted and re-indexed, one indexed fresh from the canonical chain) give
    /// equal content checksums.
    pub async fn content_checksum(&self) -> Result<String, ProjectionError> {
        self.digest(&["position"], &["retracted_events"]).await
    }

    async fn digest(&self, skip_columns: &[&str], skip_tables: &[&str]) -> Result<String, ProjectionError> {
        let pool = self.pool();
        let tables: Vec<String> = if self.is_sqlite() {
            sqlx::query_scalar(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
                 AND name NOT LIKE '_sqlx%' AND name NOT LIKE 'projector_%' ORDER BY name",
            )
            .fetch_all(&pool)
            .await?
        } else {
            sqlx::query_scalar(
                "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema() \
                 AND table_type = 'BASE TABLE' AND table_name NOT LIKE '_sqlx%' AND table_name <> 'projector_checkpoint' \
                 ORDER BY table_name",
            )
            .fetch_all(&pool)
            .await?
        };
        let mut hash = Sha256::new();
        for table in tables.into_iter().filter(|t| !skip_tables.contains(&t.as_str())) {
            let columns: Vec<String> = if self.is_sqlite() {
                sqlx::query_scalar("SELECT name FROM pragma_table_info($1) ORDER BY cid").bind(&table).fetch_all(&pool).await?
            } else {
                sqlx::query_scalar(
                    "SELECT column_name::text FROM information_schema.columns WHERE table_schema = current_schema() \
                     AND table_name = $1 ORDER BY ordinal_position",
                )
                .bind(&table)
                .fetch_all(&pool)
                .await?
            };
            let columns: Vec<String> = columns.into_iter().filter(|c| !skip_columns.contains(&c.as_str())).collect();
            let texts: Vec<String> = columns.iter().map(|c| format!("CAST(\"{c}\" AS TEXT)")).collect();
            let order: Vec<String> = (1..=texts.len()).map(|i| i.to_string()).collect();
            let sql = format!("SELECT {} FROM \"{table}\" ORDER BY {}", texts.join(", "), order.join(", "));
            hash.update(table.as_bytes());
            hash.update([0]);
            for row in sqlx::query(&sql).fetch_all(&pool).await? {
                for i in 0..columns.len() {
                    match row.try_get::<Option<String>, _>(i)? {
                        Some(value) => {
                            hash.update([1]);
                            hash.update((value.len() as u64).to_be_bytes());
                            hash.update(value.as_bytes());
                        }
                        None => hash.update([2]),
                    }
                }
            }
        }
        Ok(hex::encode(hash.finalize()))
    }
}

/// Serializes changes to the `analytics` schema between processes.
const ANALYTICS_LOCK: i64 = 0x616e_616c_7974;
/// The analysts' read-only role.
pub const ANALYST_ROLE: &str = "marketplace_analyst";

/// Replaces the `analytics` views with views on `generation`'s tables (inside the caller's
/// transaction: Postgres DDL is transactional, so readers see the switch at the commit). The
/// comment on each view names its generation.
async fn switch_views(tx: &mut sqlx::Transaction<'_, sqlx::Any>, generation: &str) -> Result<(), ProjectionError> {
    let schema = generation_schema(generation);
    sqlx::query("CREATE SCHEMA IF NOT EXISTS analytics").execute(&mut **tx).await?;
    let views: Vec<String> =
        sqlx::query_scalar("SELECT CAST(table_name AS TEXT) FROM information_schema.views WHERE table_schema = 'analytics'")
            .fetch_all(&mut **tx)
            .await?;
    for view in views {
        sqlx::query(&format!("DROP VIEW analytics.\"{view}\"")).execute(&mut **tx).await?;
    }
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT CAST(table_name AS TEXT) FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' \
         AND table_name NOT LIKE '\\_sqlx%' AND table_name NOT LIKE 'projector\\_%' ORDER BY table_name",
    )
    .bind(&schema)
    .fetch_all(&mut **tx)
    .await?;
    for table in tables {
        sqlx::query(&format!("CREATE VIEW analytics.\"{table}\" AS SELECT * FROM \"{schema}\".\"{table}\"")).execute(&mut **tx).await?;
        sqlx::query(&format!("COMMENT ON VIEW analytics.\"{table}\" IS '{generation}'")).execute(&mut **tx).await?;
    }
    let role: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1)").bind(ANALYST_ROLE).fetch_one(&mut **tx).await?;
    if role {
        grant_views(tx).await?;
    }
    Ok(())
}

async fn grant_views(tx: &mut sqlx::Transaction<'_, sqlx::Any>) -> Result<(), ProjectionError> {
    sqlx::query(&format!("GRANT USAGE ON SCHEMA analytics TO {ANALYST_ROLE}")).execute(&mut **tx).await?;
    sqlx::query(&format!("GRANT SELECT ON ALL TABLES IN SCHEMA analytics TO {ANALYST_ROLE}")).execute(&mut **tx).await?;
    Ok(())
}

/// Runs a `CREATE ... IF NOT EXISTS` holding a lock: two processes starting at once on one
/// database would otherwise both find nothing and both create (one failing on the catalog's
/// unique index).
async fn create_under_lock(admin: &AnyPool, sql: &str) -> Result<(), ProjectionError> {
    let mut tx = admin.begin().await?;
    sqlx::query("SELECT pg_advisory_xact_lock($1)").bind(ANALYTICS_LOCK).execute(&mut *tx).await?;
    sqlx::query(sql).execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(())
}

async fn parse(url: &str) -> Result<Base, ProjectionError> {
    install_default_drivers();
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        let admin = AnyPoolOptions::new().max_connections(2).connect(url).await?;
        create_under_lock(&admin, "CREATE TABLE IF NOT EXISTS public.read_generation (id INTEGER PRIMARY KEY, generation TEXT NOT NULL)")
            .await?;
        return Ok(Base::Postgres { url: url.to_owned(), admin });
    }
    let path = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")).unwrap_or(url);
    let path = path.split('?').next().unwrap_or(path);
    if let Some(dir) = Path::new(path).parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(sqlx::Error::Io)?;
    }
    Ok(Base::Sqlite(PathBuf::from(path)))
}

fn pointer_file(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_owned();
    name.push(".current");
    path.with_file_name(name)
}

/// The file of a SQLite generation: the base file for the first, `read-<generation>.db` after.
fn generation_file(path: &Path, generation: &str) -> PathBuf {
    if generation == FIRST {
        return path.to_owned();
    }
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    path.with_file_name(format!("{stem}-{generation}.db"))
}

/// The Postgres schema of a generation: `read_<generation>`. Never `public`, where the event
/// log (and its own migration table) may live in the same database.
fn generation_schema(generation: &str) -> String {
    format!("read_{generation}")
}

async fn published(base: &Base) -> Result<String, ProjectionError> {
    match base {
        Base::Sqlite(path) => match std::fs::read_to_string(pointer_file(path)) {
            Ok(generation) => Ok(generation.trim().to_owned()),
            Err(_) => Ok(FIRST.into()),
        },
        Base::Postgres { admin, .. } => {
            let generation: Option<String> =
                sqlx::query_scalar("SELECT generation FROM public.read_generation WHERE id = 1").fetch_optional(admin).await?;
            Ok(generation.unwrap_or_else(|| FIRST.into()))
        }
    }
}

async fn connect_in_schema(url: &str, schema: String) -> Result<AnyPool, ProjectionError> {
    Ok(schema_pool_options(schema).connect(url).await?)
}

/// A Postgres pool's options whose connections read and write `schema`.
fn schema_pool_options(schema: String) -> AnyPoolOptions {
    AnyPoolOptions::new().max_connections(8).after_connect(move |conn, _| {
        let set = format!("SET search_path TO \"{schema}\"");
        Box::pin(async move {
            conn.execute(set.as_str()).await?;
            Ok(())
        })
    })
}

async fn connect(base: &Base, generation: &str) -> Result<AnyPool, ProjectionError> {
    let pool = match base {
        Base::Sqlite(path) => {
            let url = format!("sqlite://{}?mode=rwc", generation_file(path, generation).display());
            AnyPoolOptions::new()
                // Four for queries and checkpoints, one the projector keeps.
                .max_connections(5)
                .after_connect(|conn, _| {
                    Box::pin(async move {
                        // Read models are rebuilt from the log, so NORMAL durability is enough (a
                        // commit, rows and checkpoint together, may be lost in a power cut, never
                        // half-kept). A large page cache and statement journals in memory keep a
                        // replay's big transactions fast; the projector has the WAL checkpointed
                        // in the background (`checkpoint_in_background`), a commit does it only
                        // past 256 MiB.
                        conn.execute(
                            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 10000; \
                             PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY; PRAGMA wal_autocheckpoint = 65536;",
                        )
                        .await?;
                        Ok(())
                    })
                })
                .connect(&url)
                .await?
        }
        Base::Postgres { url, admin } => {
            let schema = generation_schema(generation);
            create_under_lock(admin, &format!("CREATE SCHEMA IF NOT EXISTS \"{schema}\"")).await?;
            connect_in_schema(url, schema).await?
        }
    };
    if matches!(base, Base::Sqlite(_)) {
        sqlx::migrate!("./migrations/sqlite").run(&pool).await?;
    } else {
        sqlx::migrate!("./migrations/postgres").run(&pool).await?;
    }
    Ok(pool)
}
