//! What the read tables' current request asks of them: the log position its reads must include
//! (read-your-writes with read replicas), and the position of its own writes.
//!
//! The HTTP layer scopes each request with [`scope`]; [`crate::ReadDb::reader`] reads it to pick a
//! replica or the primary, so no query needs a parameter for it. Outside a scope (the projector,
//! elected work, operators' commands, the stream hub) every read goes to the primary.

use std::{
    future::Future,
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering},
    },
};

use domain::Position;

tokio::task_local! {
    static REQUEST: Arc<RequestReads>;
}

/// One request's reads and writes.
#[derive(Debug, Default)]
pub struct RequestReads {
    /// The position its reads must include (0: none named).
    after: AtomicU64,
    /// The position of its latest write (0: none).
    wrote: AtomicU64,
    /// Every read goes to the primary.
    primary: AtomicBool,
    /// The replica its reads went to, plus one (0: none yet): later reads stay on it while it
    /// qualifies, so one answer does not mix two replicas' states.
    replica: AtomicUsize,
}

impl RequestReads {
    /// A request whose reads must include `after` (a position the client names), if any.
    pub fn after(after: Option<Position>) -> Arc<Self> {
        Arc::new(Self { after: AtomicU64::new(after.unwrap_or(0)), ..Self::default() })
    }

    /// A request whose reads all go to the primary.
    pub fn on_primary(after: Option<Position>) -> Arc<Self> {
        let reads = Self::after(after);
        reads.primary.store(true, Ordering::Relaxed);
        reads
    }

    /// The position of the request's latest write, if it wrote.
    pub fn wrote(&self) -> Option<Position> {
        Some(self.wrote.load(Ordering::Acquire)).filter(|p| *p > 0)
    }

    /// The replica (by its index in `READ_REPLICA_URLS`) some of its reads went to, if any.
    pub fn replica(&self) -> Option<usize> {
        self.replica.load(Ordering::Acquire).checked_sub(1)
    }

    pub(crate) fn named(&self) -> Position {
        self.after.load(Ordering::Acquire)
    }

    pub(crate) fn is_on_primary(&self) -> bool {
        self.primary.load(Ordering::Relaxed)
    }

    pub(crate) fn pin(&self, replica: Option<usize>) {
        self.replica.store(replica.map_or(0, |r| r + 1), Ordering::Release);
    }
}

/// Runs `work` as one request with `reads`.
pub async fn scope<F: Future>(reads: Arc<RequestReads>, work: F) -> F::Output {
    REQUEST.scope(reads, work).await
}

/// Runs `work` with its reads on the primary (an answer kept for everyone, whatever they named).
pub async fn on_primary<F: Future>(work: F) -> F::Output {
    REQUEST.scope(RequestReads::on_primary(None), work).await
}

/// Runs `work` with reads that include `position` at least (a replica that has it, else the
/// primary): for reads outside a request that must not go back before a known position.
pub async fn after<F: Future>(position: Position, work: F) -> F::Output {
    let named = current().map_or(0, |r| r.named()).max(position);
    REQUEST.scope(RequestReads::after(Some(named)), work).await
}

/// Notes that the current request wrote up to `position`: its answer names it, and its own
/// later reads include it.
pub fn wrote(position: Position) {
    if let Some(reads) = current() {
        reads.wrote.fetch_max(position, Ordering::AcqRel);
        reads.after.fetch_max(position, Ordering::AcqRel);
    }
}

/// The current request's reads, if a request is running.
pub(crate) fn current() -> Option<Arc<RequestReads>> {
    REQUEST.try_with(Arc::clone).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_write_raises_what_the_request_reads_after() {
        let reads = RequestReads::after(Some(5));
        scope(reads.clone(), async {
            wrote(9);
            wrote(7);
        })
        .await;
        assert_eq!(reads.wrote(), Some(9));
        assert_eq!(reads.named(), 9);
        // Outside a request a write notes nothing (and does not panic).
        wrote(3);
        assert!(current().is_none());
    }

    #[tokio::test]
    async fn a_nested_read_after_keeps_the_higher_position() {
        scope(RequestReads::after(Some(10)), async {
            after(4, async { assert_eq!(current().unwrap().named(), 10) }).await;
            after(12, async { assert_eq!(current().unwrap().named(), 12) }).await;
        })
        .await;
    }
}
