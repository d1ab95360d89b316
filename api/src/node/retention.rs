//! Retention: verification codes, reset tokens and contact messages are kept readable only as
//! long as they serve (codes until they expire, messages for `CONTACT_RETENTION`), then erased
//! the way an account is: their keys are forgotten and the log keeps only ciphertext. The
//! elected process does it (any process may: forgetting twice is harmless).

use std::time::Duration;

use super::Node;

/// How often expired keys are looked for: a code lives 15 minutes to an hour.
const EVERY: Duration = Duration::from_secs(600);

/// Starts forgetting expired keys, now and every [`EVERY`].
pub fn spawn(node: Node) {
    tokio::spawn(async move {
        loop {
            if node.is_leading() {
                match node.privacy.keys().forget_expired(chrono::Utc::now()).await {
                    Ok(0) => {}
                    Ok(forgotten) => tracing::info!(forgotten, "retention: keys past their retention forgotten"),
                    Err(err) => tracing::warn!(%err, "retention: could not forget expired keys"),
                }
            }
            tokio::time::sleep(EVERY).await;
        }
    });
}
