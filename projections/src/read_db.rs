//! The read database: SQLite (a file of its own beside the log) or PostgreSQL.

use sqlx::{
    AnyPool, Executor,
    any::{AnyPoolOptions, install_default_drivers},
};

use crate::ProjectionError;

/// A pool on the read database, with its tables migrated. The SQL written here uses `$1`
/// placeholders, which both SQLite and Postgres accept.
#[derive(Clone)]
pub struct ReadDb {
    pool: AnyPool,
    sqlite: bool,
}

impl ReadDb {
    /// Opens `url` (`sqlite://path` or `postgres://...`) and migrates it.
    pub async fn open(url: &str) -> Result<Self, ProjectionError> {
        install_default_drivers();
        let sqlite = url.starts_with("sqlite:");
        if sqlite {
            let path = url.trim_start_matches("sqlite://").trim_start_matches("sqlite:");
            let path = path.split('?').next().unwrap_or(path);
            if let Some(dir) = std::path::Path::new(path).parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(sqlx::Error::Io)?;
            }
        }
        let url = if sqlite && !url.contains('?') { format!("{url}?mode=rwc") } else { url.to_owned() };
        let pool = AnyPoolOptions::new()
            .max_connections(if sqlite { 4 } else { 8 })
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if sqlite {
                        // Read models are rebuilt from the log, so NORMAL durability is enough.
                        conn.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 10000;")
                            .await?;
                    }
                    Ok(())
                })
            })
            .connect(&url)
            .await?;
        if sqlite {
            sqlx::migrate!("./migrations/sqlite").run(&pool).await?;
        } else {
            sqlx::migrate!("./migrations/postgres").run(&pool).await?;
        }
        Ok(Self { pool, sqlite })
    }

    /// Whether this is SQLite (full-text search differs: FTS5 there, tsvector on Postgres).
    pub fn is_sqlite(&self) -> bool {
        self.sqlite
    }

    /// The pool, for queries.
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }
}
