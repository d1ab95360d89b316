//! Running a command on a stream other requests write too.
//!
//! Every command handler loads its aggregate, decides, and appends at the version it loaded.
//! When another request appended in between, the append fails with
//! [`StoreError::WrongExpectedVersion`] and nothing is written: the command is then decided
//! again on the new state (a second tap of a like sees the first and unlikes). That is never an
//! error of the server: [`Retry`] paces the attempts and gives up only at a deadline, when the
//! caller answers a conflict ("try again").

use std::time::Duration;

use tokio::time::Instant;

use crate::StoreError;

/// How long a command keeps deciding again while other requests win the race on its stream.
pub const DEADLINE: Duration = Duration::from_secs(5);

/// The longest pause between two attempts.
const MAX_PAUSE: Duration = Duration::from_millis(50);

/// The pacing of one command's attempts. Each lost race waits a random pause (growing with the
/// attempts, capped) so many racers spread out instead of colliding again in step.
#[derive(Debug)]
pub struct Retry {
    deadline: Instant,
    attempts: u32,
}

impl Default for Retry {
    fn default() -> Self {
        Self::within(DEADLINE)
    }
}

impl Retry {
    /// Attempts for at most `time` from now.
    pub fn within(time: Duration) -> Self {
        Self { deadline: Instant::now() + time, attempts: 0 }
    }

    /// After `err` from an append: whether to decide again (then after a pause). True only for
    /// a lost race ([`StoreError::WrongExpectedVersion`], [`StoreError::Contention`]) before the
    /// deadline; the error is the caller's to return otherwise.
    pub async fn again(&mut self, err: &StoreError) -> bool {
        if !is_race(err) {
            return false;
        }
        self.attempts += 1;
        // Full jitter: anywhere up to 1 ms, 2 ms, 4 ms, ... capped.
        let ceiling = Duration::from_millis(1 << self.attempts.min(6)).min(MAX_PAUSE);
        let pause = ceiling.mul_f64(random_fraction());
        if Instant::now() + pause >= self.deadline {
            return false;
        }
        tokio::time::sleep(pause).await;
        true
    }
}

/// Whether `err` means another writer got there first (nothing was written).
pub fn is_race(err: &StoreError) -> bool {
    matches!(err, StoreError::WrongExpectedVersion { .. } | StoreError::Contention { .. })
}

/// A number in `[0, 1)`; the pause needs no better randomness than a v4 UUID's bits.
fn random_fraction() -> f64 {
    (uuid::Uuid::new_v4().as_u128() as u64 >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ExpectedVersion;

    fn lost_race() -> StoreError {
        StoreError::WrongExpectedVersion { stream_id: "s".into(), expected: ExpectedVersion::Exact(1), actual: 2 }
    }

    #[tokio::test]
    async fn a_lost_race_is_tried_again_until_the_deadline() {
        let mut retry = Retry::within(Duration::from_millis(200));
        let started = Instant::now();
        let mut attempts = 0;
        while retry.again(&lost_race()).await {
            attempts += 1;
        }
        assert!(attempts > 3, "{attempts} attempts");
        // It gave up near its deadline rather than looping on: the margin is for a loaded
        // machine's late wake-ups, not a speed the test asks for.
        assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());
    }

    #[tokio::test]
    async fn other_errors_are_not_retried() {
        let mut retry = Retry::default();
        assert!(!retry.again(&StoreError::InvalidAppend("x".into())).await);
        assert!(retry.again(&StoreError::Contention { attempts: 3 }).await);
    }

    #[test]
    fn the_random_fraction_stays_in_its_range() {
        assert!((0..1_000).map(|_| random_fraction()).all(|f| (0.0..1.0).contains(&f)));
    }
}
