//! Token buckets for the calls worth guessing at: per client address and per account, kept in
//! the database so that they hold across every process serving the API.
//!
//! On PostgreSQL the buckets are rows of `public.rate_limits` in the read database (which every
//! process of a scale-out shares); on SQLite the same table in a file of its own beside the read
//! database (one process). Each check is one atomic upsert that refills the bucket for the time
//! passed, takes a token if there is one, and says whether it did. The per-code attempt limit in
//! the domain is what really bounds guessing; these slow it down and keep mail from being sent
//! in bulk.

use std::{
    collections::HashMap,
    net::IpAddr,
    sync::{
        Mutex,
        atomic::{AtomicU64, Ordering},
    },
    time::{SystemTime, UNIX_EPOCH},
};

use sqlx::{AnyPool, any::AnyPoolOptions};
use tokio::sync::OnceCell;

use crate::http::error::ApiError;

/// The refill period of every bucket, in milliseconds.
const WINDOW_MS: i64 = 60_000;
/// Every this many checks, buckets idle for a whole window (full again) are deleted.
const SWEEP_EVERY: u64 = 1_000;
/// An API key's last use is written at most this often (per key and process).
const LAST_USE_EVERY_MS: i64 = 60_000;

/// What is left of a bucket after a request: the figures of the `RateLimit` headers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Requests a window allows (the policy's quota).
    pub limit: u32,
    /// Whether this request was let through.
    pub allowed: bool,
    /// Requests left now.
    pub remaining: u32,
    /// Seconds until the bucket is full again.
    pub reset_seconds: u64,
    /// Seconds until the next request would be let through (0 when one would be now).
    pub retry_after_seconds: u64,
}

impl Budget {
    fn of(limit: u32, allowed: bool, tokens: f64) -> Self {
        let per_token_ms = WINDOW_MS as f64 / f64::from(limit.max(1));
        let seconds = |ms: f64| (ms.max(0.0) / 1000.0).ceil() as u64;
        Self {
            limit,
            allowed,
            remaining: tokens.max(0.0).floor() as u32,
            reset_seconds: seconds((f64::from(limit) - tokens) * per_token_ms),
            retry_after_seconds: if tokens >= 1.0 { 0 } else { seconds((1.0 - tokens) * per_token_ms).max(1) },
        }
    }
}

/// Buckets of `per_ip` and `per_account` requests a minute, per action.
pub struct RateLimits {
    per_ip: u32,
    per_account: u32,
    pool: AnyPool,
    postgres: bool,
    created: OnceCell<()>,
    checks: AtomicU64,
    /// When this process last wrote each API key's last use (Unix ms).
    written_uses: Mutex<HashMap<String, i64>>,
}

impl RateLimits {
    /// Limits per minute (0 turns a limit off), kept in the database at `url`: a `postgres://`
    /// URL, or a SQLite file. Connects on first use.
    pub fn new(url: &str, per_ip: u32, per_account: u32) -> Result<Self, sqlx::Error> {
        sqlx::any::install_default_drivers();
        let postgres = url.starts_with("postgres://") || url.starts_with("postgresql://");
        let url = if postgres { url.to_owned() } else { format!("{}?mode=rwc", url.split('?').next().unwrap_or(url)) };
        let pool = AnyPoolOptions::new()
            .max_connections(4)
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if !postgres {
                        sqlx::Executor::execute(&mut *conn, "PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000;").await?;
                    }
                    Ok(())
                })
            })
            .connect_lazy(&url)?;
        Ok(Self {
            per_ip,
            per_account,
            pool,
            postgres,
            created: OnceCell::new(),
            checks: AtomicU64::new(0),
            written_uses: Mutex::default(),
        })
    }

    async fn table(&self) -> Result<(), sqlx::Error> {
        let schema = if self.postgres { "public." } else { "" };
        let real = if self.postgres { "DOUBLE PRECISION" } else { "REAL" };
        let sql = format!(
            "CREATE TABLE IF NOT EXISTS {schema}rate_limits (key TEXT PRIMARY KEY, tokens {real} NOT NULL, \
             updated_ms BIGINT NOT NULL, allowed BIGINT NOT NULL)"
        );
        // When each API key was last used: not a fact of the log (a write per request would
        // flood it), so kept here, beside the budgets every process shares, and not in the
        // read tables, which a replay must rebuild exactly.
        let uses = format!("CREATE TABLE IF NOT EXISTS {schema}api_key_uses (key_id TEXT PRIMARY KEY, used_ms BIGINT NOT NULL)");
        self.created
            .get_or_try_init(|| async {
                sqlx::query(&sql).execute(&self.pool).await?;
                sqlx::query(&uses).execute(&self.pool).await.map(drop)
            })
            .await
            .map(drop)
    }

    /// Takes a token from `key`'s bucket of `capacity` at `now_ms`; false when it is empty.
    async fn take(&self, key: &str, capacity: u32, now_ms: i64) -> Result<bool, sqlx::Error> {
        if capacity == 0 {
            return Ok(true);
        }
        Ok(self.take_counted(key, capacity, now_ms).await?.0)
    }

    /// The same, with the tokens left after it.
    async fn take_counted(&self, key: &str, capacity: u32, now_ms: i64) -> Result<(bool, f64), sqlx::Error> {
        self.table().await?;
        let (schema, least, greatest, cap) =
            if self.postgres { ("public.", "LEAST", "GREATEST", "CAST($2 AS DOUBLE PRECISION)") } else { ("", "MIN", "MAX", "$2") };
        let refilled = format!("{least}({cap}, rate_limits.tokens + {greatest}(0, $3 - rate_limits.updated_ms) * {cap} / {WINDOW_MS}.0)");
        let sql = format!(
            "INSERT INTO {schema}rate_limits AS rate_limits (key, tokens, updated_ms, allowed) VALUES ($1, {cap} - 1, $3, 1) \
             ON CONFLICT (key) DO UPDATE SET \
             allowed = CASE WHEN {refilled} >= 1 THEN 1 ELSE 0 END, \
             tokens = {refilled} - CASE WHEN {refilled} >= 1 THEN 1 ELSE 0 END, \
             updated_ms = {greatest}(rate_limits.updated_ms, $3) \
             RETURNING allowed, tokens"
        );
        let sql = if self.postgres { sql } else { sql.replace('$', "?") };
        let (allowed, tokens): (i64, f64) =
            sqlx::query_as(&sql).bind(key).bind(f64::from(capacity)).bind(now_ms).fetch_one(&self.pool).await?;
        if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            let sweep = format!("DELETE FROM {schema}rate_limits WHERE updated_ms < $1");
            let sweep = if self.postgres { sweep } else { sweep.replace('$', "?") };
            sqlx::query(&sweep).bind(now_ms - WINDOW_MS).execute(&self.pool).await?;
        }
        Ok((allowed == 1, tokens))
    }

    /// Takes one request of `action` from the client's bucket and, if given, the account's
    /// (an e-mail or user id, case-insensitive); 429 when either is empty.
    pub async fn check(&self, action: &str, ip: IpAddr, account: Option<&str>) -> Result<(), ApiError> {
        self.check_at(action, ip, account, now_ms()).await
    }

    /// Takes one request from `key`'s own bucket of `per_minute` (a resource's limit, whoever
    /// asks: one NFT's metadata refreshes); 429 when it is empty.
    pub async fn check_key(&self, key: &str, per_minute: u32) -> Result<(), ApiError> {
        if self.take(&format!("key|{key}"), per_minute, now_ms()).await.map_err(internal)? {
            Ok(())
        } else {
            Err(ApiError::TooManyRequests)
        }
    }

    /// Takes one request from an API key's bucket of `per_minute`; `None` when the limit is off
    /// (0). The budget says whether it was let through and what is left.
    pub async fn check_api_key(&self, key_id: &str, per_minute: u32) -> Result<Option<Budget>, ApiError> {
        self.check_api_key_at(key_id, per_minute, now_ms()).await
    }

    async fn check_api_key_at(&self, key_id: &str, per_minute: u32, now: i64) -> Result<Option<Budget>, ApiError> {
        if per_minute == 0 {
            return Ok(None);
        }
        let (allowed, tokens) = self.take_counted(&format!("apikey|{key_id}"), per_minute, now).await.map_err(internal)?;
        Ok(Some(Budget::of(per_minute, allowed, tokens)))
    }

    /// Notes that an API key was used now: written at most once a minute per key by this
    /// process (and never moved back by another one).
    pub async fn note_api_key_use(&self, key_id: &str) -> Result<(), ApiError> {
        let now = now_ms();
        {
            let mut written = self.written_uses.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if written.get(key_id).is_some_and(|&at| now - at < LAST_USE_EVERY_MS) {
                return Ok(());
            }
            if written.len() > 100_000 {
                written.retain(|_, at| now - *at < LAST_USE_EVERY_MS);
            }
            written.insert(key_id.to_owned(), now);
        }
        self.table().await.map_err(internal)?;
        let (schema, greatest) = if self.postgres { ("public.", "GREATEST") } else { ("", "MAX") };
        let sql = format!(
            "INSERT INTO {schema}api_key_uses AS u (key_id, used_ms) VALUES ($1, $2) \
             ON CONFLICT (key_id) DO UPDATE SET used_ms = {greatest}(u.used_ms, excluded.used_ms)"
        );
        let sql = if self.postgres { sql } else { sql.replace('$', "?") };
        sqlx::query(&sql).bind(key_id).bind(now).execute(&self.pool).await.map_err(internal)?;
        Ok(())
    }

    /// When each of `key_ids` was last used (Unix ms), for those ever used.
    pub async fn api_key_uses(&self, key_ids: &[String]) -> Result<HashMap<String, i64>, ApiError> {
        if key_ids.is_empty() {
            return Ok(HashMap::new());
        }
        self.table().await.map_err(internal)?;
        let schema = if self.postgres { "public." } else { "" };
        let marks: Vec<String> = (1..=key_ids.len()).map(|i| if self.postgres { format!("${i}") } else { "?".into() }).collect();
        let sql = format!("SELECT key_id, used_ms FROM {schema}api_key_uses WHERE key_id IN ({})", marks.join(", "));
        let mut query = sqlx::query_as::<_, (String, i64)>(&sql);
        for id in key_ids {
            query = query.bind(id);
        }
        Ok(query.fetch_all(&self.pool).await.map_err(internal)?.into_iter().collect())
    }

    async fn check_at(&self, action: &str, ip: IpAddr, account: Option<&str>, now: i64) -> Result<(), ApiError> {
        let ip_ok = self.take(&format!("{action}|ip|{ip}"), self.per_ip, now).await.map_err(internal)?;
        let account_ok = match account {
            Some(account) => {
                self.take(&format!("{action}|acct|{}", account.trim().to_lowercase()), self.per_account, now).await.map_err(internal)?
            }
            None => true,
        };
        if ip_ok && account_ok { Ok(()) } else { Err(ApiError::TooManyRequests) }
    }
}

fn internal(error: sqlx::Error) -> ApiError {
    ApiError::Internal(anyhow::Error::new(error).context("rate limits"))
}

fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn buckets_empty_per_address_and_per_account_and_refill() {
        let dir = tempfile::tempdir().unwrap();
        let limits = RateLimits::new(&format!("sqlite://{}", dir.path().join("limits.db").display()), 3, 2).unwrap();
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        let other: IpAddr = "10.0.0.2".parse().unwrap();
        let now = now_ms();
        assert!(limits.check_at("login", ip, Some("a@x.io"), now).await.is_ok());
        assert!(limits.check_at("login", ip, Some("A@x.io"), now).await.is_ok());
        assert!(limits.check_at("login", other, Some("a@x.io"), now).await.is_err(), "the account's bucket is empty");
        assert!(limits.check_at("login", ip, Some("b@x.io"), now).await.is_ok());
        assert!(limits.check_at("login", ip, Some("c@x.io"), now).await.is_err(), "the address's bucket is empty");
        assert!(limits.check_at("register", ip, None, now).await.is_ok(), "actions have their own buckets");
        assert!(limits.take(&format!("login|ip|{ip}"), 3, now + WINDOW_MS).await.unwrap(), "a window later it is full again");
    }

    #[tokio::test]
    async fn an_api_keys_budget_counts_down_and_says_when_to_come_back() {
        let dir = tempfile::tempdir().unwrap();
        let limits = RateLimits::new(&format!("sqlite://{}", dir.path().join("limits.db").display()), 0, 0).unwrap();
        let now = now_ms();
        let first = limits.check_api_key_at("k1", 3, now).await.unwrap().unwrap();
        assert_eq!((first.allowed, first.remaining, first.reset_seconds, first.retry_after_seconds), (true, 2, 20, 0));
        limits.check_api_key_at("k1", 3, now).await.unwrap();
        let last = limits.check_api_key_at("k1", 3, now).await.unwrap().unwrap();
        assert_eq!((last.allowed, last.remaining, last.reset_seconds), (true, 0, 60));
        let refused = limits.check_api_key_at("k1", 3, now).await.unwrap().unwrap();
        assert_eq!((refused.allowed, refused.remaining, refused.retry_after_seconds), (false, 0, 20));
        assert!(limits.check_api_key_at("k2", 3, now).await.unwrap().unwrap().allowed, "each key has its own bucket");
        assert_eq!(limits.check_api_key_at("k1", 0, now).await.unwrap(), None, "0 turns the limit off");
    }

    #[tokio::test]
    async fn an_api_keys_last_use_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let limits = RateLimits::new(&format!("sqlite://{}", dir.path().join("limits.db").display()), 0, 0).unwrap();
        assert!(limits.api_key_uses(&["k1".into()]).await.unwrap().is_empty());
        limits.note_api_key_use("k1").await.unwrap();
        let uses = limits.api_key_uses(&["k1".into(), "k2".into()]).await.unwrap();
        assert!(uses["k1"] > 0 && !uses.contains_key("k2"), "{uses:?}");
    }

    #[tokio::test]
    async fn two_processes_on_one_database_share_the_buckets() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("limits.db").display());
        let (one, two) = (RateLimits::new(&url, 2, 0).unwrap(), RateLimits::new(&url, 2, 0).unwrap());
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        let now = now_ms();
        assert!(one.check_at("login", ip, None, now).await.is_ok());
        assert!(two.check_at("login", ip, None, now).await.is_ok());
        assert!(one.check_at("login", ip, None, now).await.is_err(), "the second took the last token");
        assert!(two.check_at("login", ip, None, now + WINDOW_MS / 2).await.is_ok(), "half a window refills one of two");
    }
}
