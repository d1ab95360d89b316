//! The KurrentDB fixture: a fresh log stream per test on the server `KURRENTDB_URL` names
//! (`esdb://localhost:2113?tls=false`); without it the KurrentDB tests skip.

use std::sync::Arc;

use domain::{EventStore, store::kurrent::KurrentEventStore};

/// Where a test's log lives: a stream of its own, so tests share no state.
pub struct KurrentLog {
    url: String,
    log_stream: String,
}

/// A store on a fresh log stream, or `None` (with a notice) when no server is configured.
pub async fn connect() -> Option<(Arc<dyn EventStore>, KurrentLog)> {
    let Ok(url) = std::env::var("KURRENTDB_URL") else {
        eprintln!("skipped: KURRENTDB_URL is not set (e.g. esdb://localhost:2113?tls=false)");
        return None;
    };
    let log = KurrentLog { url, log_stream: format!("marketplace-log-{}", uuid::Uuid::new_v4().simple()) };
    Some((log.open().await, log))
}

impl KurrentLog {
    /// Another store on the same log: its own client and index, as another process would have.
    pub async fn open(&self) -> Arc<dyn EventStore> {
        Arc::new(KurrentEventStore::connect_with_log(&self.url, &self.log_stream).await.expect("connect to KurrentDB"))
    }
}

/// KurrentDB events cannot be edited, but anyone allowed to write the log stream can append to
/// it: an event appended behind the store's back, without a hash that chains, is found.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn verify_finds_an_event_appended_behind_the_stores_back() {
    use domain::{
        ExpectedVersion, Metadata, NewEvent,
        store::verify::{VerifyError, verify},
    };
    use kurrentdb::{AppendToStreamOptions, EventData};

    let Some((store, log)) = connect().await else { return };
    for i in 0..5u32 {
        let event = NewEvent::new("AmountRecorded", 1, &serde_json::json!({ "n": i }), Metadata::default()).unwrap();
        store.append(&format!("t-{}", i % 2), ExpectedVersion::Any, vec![event]).await.unwrap();
    }
    let last = store.read_all(4, 1).await.unwrap().remove(0);

    // A forger who knows the metadata layout but cannot compute a hash that chains.
    let forged = EventData::json("AmountRecorded", &serde_json::json!({ "n": 999 }))
        .unwrap()
        .metadata_as_json(&serde_json::json!({
            "streamId": "t-0",
            "streamVersion": 4,
            "eventId": uuid::Uuid::new_v4(),
            "schemaVersion": 1,
            "metadata": "{}",
            "recordedAtMicros": last.recorded_at.timestamp_micros(),
            "hash": hex::encode(last.hash),
        }))
        .unwrap();
    let raw = KurrentEventStore::connect_with_log(&log.url, &log.log_stream).await.expect("connect");
    raw.client().append_to_stream(raw.log_stream(), &AppendToStreamOptions::default(), forged).await.unwrap();

    match verify(store.as_ref(), 2).await {
        Err(VerifyError::Tampered(t)) => assert_eq!(t.position, 6),
        other => panic!("tampering not found: {other:?}"),
    }
}
