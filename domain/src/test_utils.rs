//! Fresh databases for tests: each test gets its own, and it is dropped afterwards.

use sqlx::{Connection, PgConnection};

/// The server tests create their databases on (trust auth on this machine).
pub fn postgres_admin_url() -> String {
    std::env::var("TEST_POSTGRES_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into())
}

/// A Postgres database made for one test and dropped (with its connections) when this is dropped.
pub struct TestPostgres {
    /// Connection URL of the new database.
    pub url: String,
    name: String,
}

impl TestPostgres {
    /// Creates an empty database with a unique name.
    pub async fn create() -> Self {
        let admin = postgres_admin_url();
        let name = format!("mkt_test_{}", uuid::Uuid::new_v4().simple());
        let mut conn = PgConnection::connect(&admin).await.expect("connect to the test Postgres server");
        sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut conn).await.expect("create a test database");
        let base = admin.rsplit_once('/').map(|(base, _)| base).unwrap_or(&admin);
        Self { url: format!("{base}/{name}"), name }
    }
}

impl Drop for TestPostgres {
    fn drop(&mut self) {
        // Drop runs outside async context: a short-lived runtime on its own thread does the work.
        let name = self.name.clone();
        let admin = postgres_admin_url();
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            runtime.block_on(async {
                let mut conn = PgConnection::connect(&admin).await?;
                sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut conn).await?;
                Ok::<_, sqlx::Error>(())
            })?;
            Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
        })
        .join();
        if !matches!(dropped, Ok(Ok(()))) {
            eprintln!("warning: could not drop test database {}", self.name);
        }
    }
}
