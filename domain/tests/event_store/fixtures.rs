//! One fresh store per test, per backend, plus the raw SQL access tampering tests need.

use std::sync::Arc;

use domain::{
    EventStore,
    store::{postgres::PostgresEventStore, sqlite::SqliteEventStore},
    test_utils::TestPostgres,
};

enum Backend {
    Sqlite {
        _dir: tempfile::TempDir,
        path: std::path::PathBuf,
    },
    Postgres(TestPostgres),
    #[cfg(feature = "kurrentdb")]
    Kurrent(crate::kurrent::KurrentLog),
}

/// A store on a database of its own.
pub struct Fixture {
    /// The store under test.
    pub store: Arc<dyn EventStore>,
    backend: Backend,
}

pub async fn sqlite() -> Option<Fixture> {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("events.db");
    let store = SqliteEventStore::open(&path).await.expect("open sqlite store");
    Some(Fixture { store: Arc::new(store), backend: Backend::Sqlite { _dir: dir, path } })
}

pub async fn postgres() -> Option<Fixture> {
    let db = TestPostgres::create().await;
    let store = PostgresEventStore::connect(&db.url).await.expect("open postgres store");
    Some(Fixture { store: Arc::new(store), backend: Backend::Postgres(db) })
}

#[cfg(feature = "kurrentdb")]
pub async fn kurrentdb() -> Option<Fixture> {
    let (store, log) = crate::kurrent::connect().await?;
    Some(Fixture { store, backend: Backend::Kurrent(log) })
}

impl Fixture {
    /// Another store on the same database: its own connections and cached state, as another
    /// process would have.
    pub async fn open_another(&self) -> Arc<dyn EventStore> {
        match &self.backend {
            Backend::Sqlite { path, .. } => Arc::new(SqliteEventStore::open(path).await.expect("reopen")),
            Backend::Postgres(db) => Arc::new(PostgresEventStore::connect(&db.url).await.expect("reconnect")),
            #[cfg(feature = "kurrentdb")]
            Backend::Kurrent(log) => log.open().await,
        }
    }

    /// Runs SQL straight against the database, behind the store's back.
    pub async fn tamper(&self, statements: &[&str]) {
        match &self.backend {
            Backend::Sqlite { path, .. } => {
                let pool = sqlx::SqlitePool::connect_with(domain::store::sqlite::connect_options(path)).await.expect("connect");
                for sql in statements {
                    sqlx::query(sql).execute(&pool).await.expect(sql);
                }
            }
            Backend::Postgres(db) => {
                let pool = sqlx::PgPool::connect(&db.url).await.expect("connect");
                for sql in statements {
                    sqlx::query(sql).execute(&pool).await.expect(sql);
                }
            }
            #[cfg(feature = "kurrentdb")]
            Backend::Kurrent(_) => unreachable!("KurrentDB has no SQL: the tampering tests are not generated for it"),
        }
    }

    /// (writers, appends each) for the concurrency test: the 8 x 2,000 on Postgres;
    /// SQLite has one writer per file, so fewer show the same property.
    pub fn concurrency(&self) -> (usize, usize) {
        match self.backend {
            Backend::Sqlite { .. } => (4, 250),
            Backend::Postgres(_) => (8, 2_000),
            // Each append is a round trip to the server, and the writers race for one log stream.
            #[cfg(feature = "kurrentdb")]
            Backend::Kurrent(_) => (8, 250),
        }
    }
}
