//! `/metrics`: Prometheus text exposition of the event log, the projector, the indexer and HTTP.

use std::{
    fmt::Write,
    sync::atomic::{AtomicU64, Ordering},
};

use axum::{
    extract::{Request, State},
    http::{HeaderValue, header},
    middleware::Next,
    response::{IntoResponse, Response},
};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::http::{AppState, error::ApiError};

/// HTTP responses by status class (1xx..5xx), counted by [`count_responses`].
static RESPONSES: [AtomicU64; 5] = [const { AtomicU64::new(0) }; 5];

/// Stream clients dropped for falling behind the broadcast ([`stream_dropped`]).
static STREAM_DROPPED: AtomicU64 = AtomicU64::new(0);

/// Counts a stream client dropped for falling behind.
pub fn stream_dropped() {
    STREAM_DROPPED.fetch_add(1, Ordering::Relaxed);
}

/// `/metrics`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(metrics))
}

/// Middleware counting every response by status class.
pub async fn count_responses(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let class = (response.status().as_u16() / 100).clamp(1, 5) as usize - 1;
    RESPONSES[class].fetch_add(1, Ordering::Relaxed);
    response
}

fn metric(out: &mut String, name: &str, kind: &str, help: &str, value: u64) {
    let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}");
}

/// Prometheus metrics.
///
/// The event log, the projector, the indexer (when a chain is configured) and HTTP responses by
/// status class.
#[utoipa::path(
    get,
    path = "/metrics",
    tag = "ops",
    security(()),
    responses((status = 200, description = "Prometheus text exposition format 0.0.4", content_type = "text/plain; version=0.0.4", body = String)),
)]
async fn metrics(State(state): State<AppState>) -> Result<Response, ApiError> {
    let (head, _) = state.store.head().await?;
    let projected = state.projector.position();
    let mut out = String::new();
    metric(&mut out, "marketplace_event_log_position", "gauge", "Position of the last event in the log.", head);
    metric(&mut out, "marketplace_projector_position", "gauge", "Last log position folded into the read tables.", projected);
    metric(
        &mut out,
        "marketplace_projector_lag_events",
        "gauge",
        "Events appended but not yet in the read tables.",
        head.saturating_sub(projected),
    );
    if let Some(indexer) = &state.indexer {
        let m = indexer.metrics();
        for (name, kind, help, value) in [
            ("indexer_last_block", "gauge", "Last block indexed.", m.last_block),
            ("indexer_chain_head", "gauge", "The chain's head at the last poll.", m.chain_head),
            ("indexer_lag_blocks", "gauge", "Blocks the indexer is behind the head.", m.lag_blocks),
            ("indexer_blocks_total", "counter", "Blocks processed since start.", m.blocks_indexed),
            ("indexer_logs_total", "counter", "Contract logs processed since start.", m.logs_indexed),
            ("indexer_events_total", "counter", "Chain events appended since start.", m.events_appended),
            ("indexer_reorgs_total", "counter", "Reorgs compensated since start.", m.reorgs),
            ("indexer_rpc_retries_total", "counter", "RPC calls retried after an error.", m.rpc_retries),
            ("indexer_get_logs_range_blocks", "gauge", "The current eth_getLogs range.", m.range),
            (
                "indexer_heads_subscribed",
                "gauge",
                "1 while the newHeads subscription is live, 0 when following by polling alone.",
                u64::from(m.heads_live),
            ),
            ("indexer_heads_received_total", "counter", "New heads the node pushed since start.", m.heads_received),
        ] {
            metric(&mut out, &format!("marketplace_{name}"), kind, help, value);
        }
    }
    let replicas = state.read.replica_status();
    if !replicas.is_empty() {
        let _ = writeln!(
            out,
            "# HELP marketplace_read_replica_in_rotation 1 while requests' reads may go to this read replica.\n\
             # TYPE marketplace_read_replica_in_rotation gauge"
        );
        for r in &replicas {
            let _ = writeln!(out, "marketplace_read_replica_in_rotation{{replica=\"{}\"}} {}", r.replica, u8::from(r.in_rotation));
        }
        let _ = writeln!(
            out,
            "# HELP marketplace_read_replica_lag_ms How long since the primary first held a position the read replica lacks (absent: unknown).\n\
             # TYPE marketplace_read_replica_lag_ms gauge"
        );
        let _ = writeln!(
            out,
            "# HELP marketplace_read_replica_reads_total Requests' reads sent to the read replica.\n\
             # TYPE marketplace_read_replica_reads_total counter"
        );
        for r in &replicas {
            let _ = writeln!(out, "marketplace_read_replica_reads_total{{replica=\"{}\"}} {}", r.replica, r.reads);
        }
        for r in &replicas {
            if let Some(lag) = r.lag_ms {
                let _ = writeln!(out, "marketplace_read_replica_lag_ms{{replica=\"{}\"}} {lag}", r.replica);
            }
        }
    }
    metric(&mut out, "marketplace_stream_clients", "gauge", "Clients connected to /api/stream.", state.stream.clients() as u64);
    let dropped = STREAM_DROPPED.load(Ordering::Relaxed);
    metric(&mut out, "marketplace_stream_dropped_total", "counter", "Stream clients dropped for falling behind.", dropped);
    if let Some(leading) = &state.leading {
        let held = u64::from(*leading.borrow());
        metric(&mut out, "marketplace_leader", "gauge", "1 when this process holds the election's lock: it indexes and projects.", held);
    }
    if let Some(reconcile) = &state.reconcile {
        let (differences, runs, failures) = reconcile.snapshot();
        let _ = writeln!(
            out,
            "# HELP marketplace_reconcile_differences Differences between the chain and the read models the last reconciliation found (-1: none finished yet).\n\
             # TYPE marketplace_reconcile_differences gauge\nmarketplace_reconcile_differences {differences}"
        );
        metric(&mut out, "marketplace_reconcile_runs_total", "counter", "Reconciliations finished.", runs as u64);
        metric(
            &mut out,
            "marketplace_reconcile_failures_total",
            "counter",
            "Reconciliations that failed (RPC or database).",
            failures as u64,
        );
    }
    let _ = writeln!(out, "# HELP marketplace_http_responses_total HTTP responses by status class.");
    let _ = writeln!(out, "# TYPE marketplace_http_responses_total counter");
    for (i, count) in RESPONSES.iter().enumerate() {
        let _ = writeln!(out, "marketplace_http_responses_total{{class=\"{}xx\"}} {}", i + 1, count.load(Ordering::Relaxed));
    }
    let mut response = out.into_response();
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; version=0.0.4"));
    Ok(response)
}
