//! New heads pushed by the node: `eth_subscribe("newHeads")` over WebSocket wakes the follower
//! the moment a block arrives instead of at its next poll. Polling goes on beside it: it is the
//! safety net of a live subscription and what follows the chain while a dropped one is renewed
//! (or for good, on a node without WebSocket).

use std::{
    sync::{Arc, atomic::Ordering},
    time::Duration,
};

use alloy::providers::{Provider, ProviderBuilder, WsConnect};
use futures::StreamExt;

use crate::handle::Shared;

/// How long connecting or subscribing may take before the attempt counts as failed (a host that
/// swallows packets would otherwise hold the subscription down for good).
const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(10);

/// The WebSocket URL of a node's HTTP JSON-RPC URL (`http` -> `ws`, `https` -> `wss`): where
/// anvil, geth, reth and most hosted providers serve both. `None` for any other scheme.
pub fn ws_url_for(rpc_url: &str) -> Option<String> {
    let (scheme, rest) = rpc_url.split_once("://")?;
    match scheme.to_ascii_lowercase().as_str() {
        "http" => Some(format!("ws://{rest}")),
        "https" => Some(format!("wss://{rest}")),
        _ => None,
    }
}

/// Subscribes to new heads at `url` and wakes the follower on each, forever: a failed or dropped
/// subscription is renewed after a backoff from `initial_delay` doubling up to `max_delay`.
/// `Progress::heads_live` says whether a subscription is live.
pub(crate) async fn follow(url: String, shared: Arc<Shared>, initial_delay: Duration, max_delay: Duration) {
    let mut delay = initial_delay;
    // Whether the last attempt failed: repeated failures (a node without WebSocket) log quietly.
    let mut failing = false;
    loop {
        match subscribe(&url, &shared).await {
            Ok(()) => {
                delay = initial_delay;
                failing = false;
                tracing::warn!("the newHeads subscription dropped; polling until it is renewed");
            }
            Err(error) if failing => tracing::debug!(%error, "newHeads subscription failed again"),
            Err(error) => {
                failing = true;
                tracing::warn!(%error, "no newHeads subscription; following the chain by polling and trying again");
            }
        }
        tokio::time::sleep(delay).await;
        delay = (delay * 2).min(max_delay);
    }
}

/// One subscription, from connecting until it ends (`Ok`), or the reason it could not start.
async fn subscribe(url: &str, shared: &Shared) -> Result<(), String> {
    // alloy's own reconnection is left at one immediate attempt: past that the subscription
    // ends, so it is renewed here, where `heads_live` can say so.
    let connect = WsConnect::new(url).with_max_retries(1);
    let provider = tokio::time::timeout(ATTEMPT_TIMEOUT, ProviderBuilder::new().disable_recommended_fillers().connect_ws(connect))
        .await
        .map_err(|_| "connecting timed out".to_owned())?
        .map_err(|e| e.to_string())?;
    // The notification's content is not needed (a pass reads the head itself), so any JSON
    // counts: no chain's header format can make it be skipped.
    let subscription = tokio::time::timeout(ATTEMPT_TIMEOUT, provider.subscribe::<_, serde_json::Value>(("newHeads",)))
        .await
        .map_err(|_| "eth_subscribe timed out".to_owned())?
        .map_err(|e| e.to_string())?;
    let metrics = &shared.metrics;
    metrics.head_subscriptions.fetch_add(1, Ordering::Relaxed);
    shared.progress.send_modify(|p| p.heads_live = true);
    tracing::info!("following new heads over WebSocket");
    // Heads may have come while no subscription was live: catch up now, not at the next poll.
    shared.wake.notify_one();
    let mut heads = subscription.into_stream();
    while heads.next().await.is_some() {
        metrics.heads_received.fetch_add(1, Ordering::Relaxed);
        shared.wake.notify_one();
    }
    shared.progress.send_modify(|p| p.heads_live = false);
    // The follower may be in a poll interval lengthened for a live subscription: poll now, and
    // at the fallback interval from then on.
    shared.wake.notify_one();
    Ok(())
}

/// Marks the subscription down when its task ends, however it ends (the indexer stopping aborts
/// it mid-subscription).
pub(crate) struct HeadsTask(pub tokio::task::JoinHandle<()>, pub Arc<Shared>);

impl Drop for HeadsTask {
    fn drop(&mut self) {
        self.0.abort();
        self.1.progress.send_if_modified(|p| std::mem::replace(&mut p.heads_live, false));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ws_url_follows_the_rpc_url() {
        assert_eq!(ws_url_for("http://127.0.0.1:8545").as_deref(), Some("ws://127.0.0.1:8545"));
        assert_eq!(ws_url_for("https://eth.example.com/v2/key").as_deref(), Some("wss://eth.example.com/v2/key"));
        assert_eq!(ws_url_for("HTTPS://node.example").as_deref(), Some("wss://node.example"));
        assert_eq!(ws_url_for("/tmp/geth.ipc"), None);
        assert_eq!(ws_url_for("ws://already"), None);
    }
}
