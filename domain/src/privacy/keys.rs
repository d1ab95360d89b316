//! The key store: one data key per subject, outside the log, wrapped by a key only the server
//! derives (from its secret), so a copy of the database alone opens nothing.
//!
//! A forgotten key leaves its row with no key in it (a tombstone): nothing can be sealed for that
//! subject again, so an erased person's stream cannot quietly grow a new key. On SQLite the store
//! is its own file (`keys.db` beside the log, backed up apart from it) with `secure_delete` on, so
//! a forgotten key's bytes are overwritten in the file; on Postgres it is the `subject_keys`
//! table, which the analysts' role is never granted.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use chrono::{DateTime, Utc};
use sqlx::{
    PgPool, Row, SqlitePool,
    postgres::PgPoolOptions,
    sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous},
};
use uuid::Uuid;

use super::seal::{self, DataKey};
use crate::StoreError;

/// A key to make if its subject has none yet.
#[derive(Clone, Debug)]
pub(crate) struct NewKey {
    pub subject: Uuid,
    /// Whose it is: the person's user id, or a contact message's blinded sender address.
    pub owner: String,
    /// When retention forgets it (Unix seconds), if ever.
    pub expires_at: Option<i64>,
}

#[derive(Clone)]
enum Cached {
    Key(Arc<DataKey>, Option<i64>),
    Forgotten,
}

enum Db {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// `$body` with `$pool` bound to the store's pool, whichever backend it is: the statements are
/// the same on both, only the pool's type differs.
macro_rules! on_pool {
    ($db:expr, |$pool:ident| $body:expr) => {
        match $db {
            Db::Sqlite($pool) => $body,
            Db::Postgres($pool) => $body,
        }
    };
}

const SCHEMA: [&str; 4] = [
    "CREATE TABLE IF NOT EXISTS subject_keys (
        subject      TEXT PRIMARY KEY,   -- uuid (simple form)
        owner        TEXT NOT NULL,      -- user id, or a blinded e-mail address
        wrapped      TEXT,               -- the data key wrapped by the server's key; NULL once forgotten
        expires_at   BIGINT,             -- retention: forgotten after this (Unix seconds)
        forgotten_at BIGINT
    )",
    "CREATE INDEX IF NOT EXISTS subject_keys_owner ON subject_keys (owner)",
    "CREATE INDEX IF NOT EXISTS subject_keys_expiry ON subject_keys (expires_at) WHERE wrapped IS NOT NULL",
    // One row: the log this store belongs to was sealed from its first event.
    "CREATE TABLE IF NOT EXISTS privacy_log (id BIGINT PRIMARY KEY, sealed_since BIGINT NOT NULL)",
];

/// The subjects' keys and a cache of them.
pub struct KeyStore {
    db: Db,
    kek: DataKey,
    cache: Mutex<HashMap<Uuid, Cached>>,
}

impl KeyStore {
    /// Opens the key store a URL names (`sqlite://…/keys.db` or `postgres://…`), creating its
    /// tables; `kek` wraps the data keys.
    pub async fn open(url: &str, kek: [u8; 32]) -> Result<Self, StoreError> {
        let db = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let pool = PgPoolOptions::new().max_connections(2).connect(url).await?;
            // Processes starting together on one database would race to create the tables:
            // one at a time, under a transaction-scoped advisory lock.
            let mut tx = pool.begin().await?;
            sqlx::query("SELECT pg_advisory_xact_lock(7262693501)").execute(&mut *tx).await?;
            for statement in SCHEMA {
                sqlx::query(statement).execute(&mut *tx).await?;
            }
            tx.commit().await?;
            Db::Postgres(pool)
        } else {
            let path = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")).unwrap_or(url);
            if let Some(dir) = std::path::Path::new(path).parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|e| StoreError::Backend(format!("cannot create {}: {e}", dir.display())))?;
            }
            let options = SqliteConnectOptions::new()
                .filename(path)
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Full)
                .pragma("secure_delete", "ON")
                .busy_timeout(std::time::Duration::from_secs(10));
            let pool = SqlitePoolOptions::new().max_connections(4).connect_with(options).await?;
            for statement in SCHEMA {
                sqlx::query(statement).execute(&pool).await?;
            }
            Db::Sqlite(pool)
        };
        Ok(Self { db, kek: DataKey::from_bytes(kek), cache: Mutex::new(HashMap::new()) })
    }

    /// The position from which the log is sealed (`None`: this store has never been tied to a
    /// log), and ties it at `position` when it was not.
    pub(crate) async fn sealed_since(&self, tie_at: Option<u64>) -> Result<Option<u64>, StoreError> {
        let read = "SELECT sealed_since FROM privacy_log WHERE id = 1";
        let current: Option<i64> = on_pool!(&self.db, |pool| sqlx::query_scalar(read).fetch_optional(pool).await?);
        if current.is_some() || tie_at.is_none() {
            return Ok(current.map(|p| p as u64));
        }
        let tie = "INSERT INTO privacy_log (id, sealed_since) VALUES (1, $1) ON CONFLICT (id) DO NOTHING";
        let at = tie_at.unwrap_or(0) as i64;
        // (Each backend answers its own result type: the count is what both share.)
        on_pool!(&self.db, |pool| sqlx::query(tie).bind(at).execute(pool).await?.rows_affected());
        Box::pin(self.sealed_since(None)).await
    }

    /// The keys of `subjects` (`None` for a forgotten, unknown or, as of `now`, expired one), from
    /// the cache or in one query.
    pub(crate) async fn keys(&self, subjects: &[Uuid], now: i64) -> Result<HashMap<Uuid, Option<Arc<DataKey>>>, StoreError> {
        let mut found = HashMap::with_capacity(subjects.len());
        let mut missing = Vec::new();
        {
            let cache = self.cache.lock().expect("key cache lock");
            for subject in subjects {
                match cache.get(subject) {
                    Some(Cached::Key(key, expires)) if expires.is_none_or(|e| e > now) => {
                        found.insert(*subject, Some(key.clone()));
                    }
                    Some(_) => {
                        found.insert(*subject, None);
                    }
                    None => missing.push(*subject),
                }
            }
        }
        if missing.is_empty() {
            return Ok(found);
        }
        missing.sort_unstable();
        missing.dedup();
        let rows = self.load(&missing).await?;
        let mut cache = self.cache.lock().expect("key cache lock");
        for subject in missing {
            let entry = match rows.get(&subject) {
                Some((Some(wrapped), expires)) => match seal::unwrap(&self.kek, subject, wrapped) {
                    Some(key) => Cached::Key(Arc::new(key), *expires),
                    None => {
                        tracing::error!(%subject, "a subject key does not unwrap: is this the server secret that made it?");
                        Cached::Forgotten
                    }
                },
                // Forgotten, or never made (a value sealed elsewhere): unreadable either way.
                _ => Cached::Forgotten,
            };
            let key = match &entry {
                Cached::Key(key, expires) if expires.is_none_or(|e| e > now) => Some(key.clone()),
                _ => None,
            };
            // An unknown subject is not cached: its key may be being made by another process.
            if rows.contains_key(&subject) {
                cache.insert(subject, entry);
            }
            found.insert(subject, key);
        }
        Ok(found)
    }

    async fn load(&self, subjects: &[Uuid]) -> Result<HashMap<Uuid, (Option<String>, Option<i64>)>, StoreError> {
        let mut rows = HashMap::with_capacity(subjects.len());
        for chunk in subjects.chunks(500) {
            let ids: Vec<String> = chunk.iter().map(|s| s.simple().to_string()).collect();
            let list = (1..=ids.len()).map(|i| format!("${i}")).collect::<Vec<_>>().join(",");
            let sql = format!("SELECT subject, wrapped, expires_at FROM subject_keys WHERE subject IN ({list})");
            let fetched: Vec<(String, Option<String>, Option<i64>)> = on_pool!(&self.db, |pool| {
                let mut query = sqlx::query(&sql);
                for id in &ids {
                    query = query.bind(id);
                }
                query.fetch_all(pool).await?.iter().map(|r| (r.get(0), r.get(1), r.get(2))).collect()
            });
            for (subject, wrapped, expires) in fetched {
                if let Ok(subject) = Uuid::try_parse(&subject) {
                    rows.insert(subject, (wrapped, expires));
                }
            }
        }
        Ok(rows)
    }

    /// The keys to seal with: made (and stored durably) for subjects that have none yet; an
    /// error for a subject whose key was forgotten, since nothing may be sealed for it again.
    pub(crate) async fn keys_for_sealing(&self, wanted: &[NewKey]) -> Result<HashMap<Uuid, Arc<DataKey>>, StoreError> {
        let subjects: Vec<Uuid> = wanted.iter().map(|w| w.subject).collect();
        // Sealing takes a key past its retention too (an event recorded late); reading does not.
        let now = i64::MIN;
        let mut found = self.keys(&subjects, now).await?;
        let absent: Vec<&NewKey> = wanted.iter().filter(|w| found.get(&w.subject).is_some_and(Option::is_none)).collect();
        if !absent.is_empty() {
            let rows = self.load(&absent.iter().map(|w| w.subject).collect::<Vec<_>>()).await?;
            for want in absent {
                if let Some((None, _)) = rows.get(&want.subject) {
                    return Err(StoreError::Backend(format!("subject {} was erased: nothing more is sealed for it", want.subject)));
                }
                let key = DataKey::random();
                let insert = "INSERT INTO subject_keys (subject, owner, wrapped, expires_at) VALUES ($1, $2, $3, $4) \
                              ON CONFLICT (subject) DO NOTHING";
                let wrapped = seal::wrap(&self.kek, want.subject, &key);
                let subject = want.subject.simple().to_string();
                on_pool!(&self.db, |pool| {
                    sqlx::query(insert)
                        .bind(&subject)
                        .bind(&want.owner)
                        .bind(&wrapped)
                        .bind(want.expires_at)
                        .execute(pool)
                        .await?
                        .rows_affected()
                });
                self.cache.lock().expect("key cache lock").remove(&want.subject);
                // Another process may have made it first: read back the one that was kept.
                let kept = self.keys(&[want.subject], now).await?;
                found.insert(want.subject, kept.get(&want.subject).cloned().flatten());
            }
        }
        found
            .into_iter()
            .map(|(subject, key)| key.map(|k| (subject, k)).ok_or_else(|| StoreError::Backend(format!("no key for subject {subject}"))))
            .collect()
    }

    /// Forgets the keys of `subjects` and every key `owners` own; returns how many.
    pub async fn forget(&self, subjects: &[Uuid], owners: &[String]) -> Result<u64, StoreError> {
        let now = Utc::now().timestamp();
        let mut forgotten = 0;
        let sql_subject = "UPDATE subject_keys SET wrapped = NULL, forgotten_at = $2 WHERE subject = $1 AND wrapped IS NOT NULL";
        let sql_owner = "UPDATE subject_keys SET wrapped = NULL, forgotten_at = $2 WHERE owner = $1 AND wrapped IS NOT NULL";
        let targets = subjects.iter().map(|s| (sql_subject, s.simple().to_string())).chain(owners.iter().map(|o| (sql_owner, o.clone())));
        for (sql, value) in targets {
            forgotten += on_pool!(&self.db, |pool| sqlx::query(sql).bind(&value).bind(now).execute(pool).await?.rows_affected());
        }
        // Whole cache: owned keys are not indexed by owner in memory, and erasures are rare.
        self.cache.lock().expect("key cache lock").clear();
        Ok(forgotten)
    }

    /// Forgets every key past its retention; returns how many.
    pub async fn forget_expired(&self, now: DateTime<Utc>) -> Result<u64, StoreError> {
        let sql = "UPDATE subject_keys SET wrapped = NULL, forgotten_at = $1 \
                   WHERE expires_at IS NOT NULL AND expires_at <= $1 AND wrapped IS NOT NULL";
        let done = on_pool!(&self.db, |pool| sqlx::query(sql).bind(now.timestamp()).execute(pool).await?.rows_affected());
        if done > 0 {
            self.cache.lock().expect("key cache lock").clear();
        }
        Ok(done)
    }

    /// The live subjects `owner` owns that are not the owner itself (a person's contact
    /// messages and pending codes), oldest first.
    pub async fn owned_by(&self, owner: &str) -> Result<Vec<Uuid>, StoreError> {
        let sql = "SELECT subject FROM subject_keys WHERE owner = $1 AND subject <> $1 AND wrapped IS NOT NULL ORDER BY subject";
        let owner_simple = Uuid::try_parse(owner).map(|u| u.simple().to_string()).unwrap_or_else(|_| owner.to_owned());
        let rows: Vec<String> = on_pool!(&self.db, |pool| sqlx::query_scalar(sql).bind(&owner_simple).fetch_all(pool).await?);
        Ok(rows.iter().filter_map(|s| Uuid::try_parse(s).ok()).collect())
    }

    /// Drops the cache (another process forgot keys: its erasure event says so).
    pub(crate) fn evict_all(&self) {
        self.cache.lock().expect("key cache lock").clear();
    }

    /// Closes the store's connections (the migration renames its file afterwards).
    pub async fn close(&self) {
        on_pool!(&self.db, |pool| pool.close().await)
    }

    /// How many keys are held and how many were forgotten (operations, tests).
    pub async fn counts(&self) -> Result<(u64, u64), StoreError> {
        let sql = "SELECT COUNT(wrapped), COUNT(*) - COUNT(wrapped) FROM subject_keys";
        let (held, gone): (i64, i64) = on_pool!(&self.db, |pool| sqlx::query_as(sql).fetch_one(pool).await?);
        Ok((held as u64, gone as u64))
    }
}
