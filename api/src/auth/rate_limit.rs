//! In-memory token buckets for the calls worth guessing at: per client address and per account.
//!
//! Each API process keeps its own buckets (a restart or a second instance starts afresh); the
//! per-code attempt limit in the domain is what really bounds guessing, these slow it down and
//! keep mail from being sent in bulk.

use std::{
    collections::HashMap,
    net::IpAddr,
    sync::Mutex,
    time::{Duration, Instant},
};

use crate::error::ApiError;

/// The refill period of every bucket.
const WINDOW: Duration = Duration::from_secs(60);
/// Past this many buckets, full ones are dropped.
const MAX_BUCKETS: usize = 100_000;

struct Bucket {
    tokens: f64,
    updated: Instant,
}

/// Buckets of `per_ip` and `per_account` requests a minute, per action.
pub struct RateLimits {
    per_ip: u32,
    per_account: u32,
    buckets: Mutex<HashMap<String, Bucket>>,
}

impl RateLimits {
    /// Limits per minute; 0 turns a limit off.
    pub fn new(per_ip: u32, per_account: u32) -> Self {
        Self { per_ip, per_account, buckets: Mutex::new(HashMap::new()) }
    }

    fn take(&self, key: String, capacity: u32, now: Instant) -> bool {
        if capacity == 0 {
            return true;
        }
        let capacity = f64::from(capacity);
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > MAX_BUCKETS {
            buckets.retain(|_, b| now.duration_since(b.updated) < WINDOW);
        }
        let bucket = buckets.entry(key).or_insert(Bucket { tokens: capacity, updated: now });
        let refill = now.duration_since(bucket.updated).as_secs_f64() / WINDOW.as_secs_f64() * capacity;
        bucket.tokens = (bucket.tokens + refill).min(capacity);
        bucket.updated = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Takes one request of `action` from the client's bucket and, if given, the account's
    /// (an e-mail or user id, case-insensitive); 429 when either is empty.
    pub fn check(&self, action: &str, ip: IpAddr, account: Option<&str>) -> Result<(), ApiError> {
        let now = Instant::now();
        let ip_ok = self.take(format!("{action}|ip|{ip}"), self.per_ip, now);
        let account_ok = match account {
            Some(account) => self.take(format!("{action}|acct|{}", account.trim().to_lowercase()), self.per_account, now),
            None => true,
        };
        if ip_ok && account_ok { Ok(()) } else { Err(ApiError::TooManyRequests) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_empty_per_address_and_per_account_and_refill() {
        let limits = RateLimits::new(3, 2);
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        let other: IpAddr = "10.0.0.2".parse().unwrap();
        assert!(limits.check("login", ip, Some("a@x.io")).is_ok());
        assert!(limits.check("login", ip, Some("A@x.io")).is_ok());
        assert!(limits.check("login", other, Some("a@x.io")).is_err(), "the account's bucket is empty");
        assert!(limits.check("login", ip, Some("b@x.io")).is_ok());
        assert!(limits.check("login", ip, Some("c@x.io")).is_err(), "the address's bucket is empty");
        assert!(limits.check("register", ip, None).is_ok(), "actions have their own buckets");
        let later = Instant::now() + WINDOW;
        assert!(limits.take(format!("login|ip|{ip}"), 3, later));
    }
}
