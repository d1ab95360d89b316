//! The assertions every backend must pass.

use std::{collections::HashSet, time::Duration};

use domain::{
    AppendOutcome, ChainCoordinates, ExpectedVersion, Metadata, NewEvent, StoreError, StreamAppend,
    store::{
        subscribe,
        verify::{VerifyError, verify},
    },
};
use futures::StreamExt;
use uuid::Uuid;

use crate::fixtures::Fixture;

fn event(n: u32) -> NewEvent {
    NewEvent::new("AmountRecorded", 1, &serde_json::json!({ "n": n, "amount": "1.5" }), Metadata::default()).expect("serialize")
}

async fn append_n(f: &Fixture, stream: &str, n: u32) -> AppendOutcome {
    let events = (0..n).map(event).collect();
    f.store.append(stream, ExpectedVersion::Any, events).await.expect("append")
}

async fn position_count(f: &Fixture) -> u64 {
    f.store.read_all(0, usize::MAX).await.expect("read all").len() as u64
}

pub async fn appending_to_a_new_stream_numbers_it_from_one(f: &Fixture) {
    let outcome = f.store.append("user-1", ExpectedVersion::NoStream, vec![event(1), event(2)]).await.unwrap();

    assert_eq!(outcome, AppendOutcome { first_position: 1, last_position: 2, streams: vec![("user-1".into(), 2)] });
    let stored = f.store.read_stream("user-1", 1, 10).await.unwrap();
    assert_eq!(stored.iter().map(|e| e.stream_version).collect::<Vec<_>>(), vec![1, 2]);
    assert_eq!(f.store.head().await.unwrap().0, 2);
}

pub async fn expected_version_any_no_stream_and_exact_are_enforced(f: &Fixture) {
    append_n(f, "nft-1", 2).await;

    let err = f.store.append("nft-1", ExpectedVersion::NoStream, vec![event(3)]).await.unwrap_err();
    assert!(matches!(err, StoreError::WrongExpectedVersion { ref stream_id, actual: 2, .. } if stream_id == "nft-1"), "{err:?}");
    let err = f.store.append("nft-1", ExpectedVersion::Exact(1), vec![event(3)]).await.unwrap_err();
    assert!(matches!(err, StoreError::WrongExpectedVersion { actual: 2, .. }), "{err:?}");
    let err = f.store.append("nft-2", ExpectedVersion::Exact(1), vec![event(3)]).await.unwrap_err();
    assert!(matches!(err, StoreError::WrongExpectedVersion { actual: 0, .. }), "{err:?}");
    assert_eq!(position_count(f).await, 2, "a conflict writes nothing");

    let exact = f.store.append("nft-1", ExpectedVersion::Exact(2), vec![event(3)]).await.unwrap();
    assert_eq!(exact.streams, vec![("nft-1".into(), 3)]);
    let any = f.store.append("nft-1", ExpectedVersion::Any, vec![event(4)]).await.unwrap();
    assert_eq!((any.first_position, any.streams[0].1), (4, 4));
}

pub async fn a_version_conflict_in_one_stream_writes_nothing_in_any(f: &Fixture) {
    append_n(f, "taken", 1).await;
    let head_before = f.store.head().await.unwrap();

    let err = f
        .store
        .append_streams(vec![
            StreamAppend { stream_id: "fresh".into(), expected: ExpectedVersion::NoStream, events: vec![event(1)] },
            StreamAppend { stream_id: "taken".into(), expected: ExpectedVersion::NoStream, events: vec![event(2)] },
        ])
        .await
        .unwrap_err();

    assert!(matches!(err, StoreError::WrongExpectedVersion { ref stream_id, .. } if stream_id == "taken"));
    assert!(f.store.read_stream("fresh", 1, 10).await.unwrap().is_empty());
    assert_eq!(f.store.head().await.unwrap(), head_before);
    // The store still works after a refused append.
    let ok = f.store.append("fresh", ExpectedVersion::NoStream, vec![event(3)]).await.unwrap();
    assert_eq!(ok.first_position, 2);
}

pub async fn a_retried_append_returns_the_first_outcome_even_after_reopening(f: &Fixture) {
    append_n(f, "before", 3).await;
    let batch = vec![
        StreamAppend { stream_id: "order-1".into(), expected: ExpectedVersion::NoStream, events: vec![event(1), event(2)] },
        StreamAppend { stream_id: "order-2".into(), expected: ExpectedVersion::NoStream, events: vec![event(3)] },
    ];
    let first = f.store.append_streams(batch.clone()).await.unwrap();
    append_n(f, "after", 2).await;

    let retried = f.store.append_streams(batch.clone()).await.unwrap();
    let reopened = f.open_another().await.append_streams(batch).await.unwrap();

    assert_eq!(first, AppendOutcome { first_position: 4, last_position: 6, streams: vec![("order-1".into(), 2), ("order-2".into(), 1)] });
    assert_eq!(retried, first);
    assert_eq!(reopened, first);
    assert_eq!(position_count(f).await, 8, "the retries stored nothing");
}

pub async fn reusing_an_event_id_for_other_content_is_an_error(f: &Fixture) {
    let original = event(1);
    f.store.append("s", ExpectedVersion::Any, vec![original.clone()]).await.unwrap();

    let mut changed = event(2);
    changed.event_id = original.event_id;
    let err = f.store.append("s", ExpectedVersion::Any, vec![changed]).await.unwrap_err();
    assert!(matches!(err, StoreError::DuplicateEventId { event_id } if event_id == original.event_id));

    let err = f.store.append("other", ExpectedVersion::Any, vec![original.clone()]).await.unwrap_err();
    assert!(matches!(err, StoreError::DuplicateEventId { .. }), "same event in another stream: {err:?}");

    let err = f.store.append("s", ExpectedVersion::Any, vec![original.clone(), event(3)]).await.unwrap_err();
    assert!(matches!(err, StoreError::DuplicateEventId { event_id } if event_id == original.event_id), "partial retry");
    assert_eq!(position_count(f).await, 1);
}

pub async fn malformed_appends_are_rejected(f: &Fixture) {
    let err = f.store.append("s", ExpectedVersion::Any, vec![]).await.unwrap_err();
    assert!(matches!(err, StoreError::InvalidAppend(_)));
    let twice = event(1);
    let err = f.store.append("s", ExpectedVersion::Any, vec![twice.clone(), twice]).await.unwrap_err();
    assert!(matches!(err, StoreError::InvalidAppend(_)));
    let err = f
        .store
        .append_streams(vec![
            StreamAppend { stream_id: "s".into(), expected: ExpectedVersion::Any, events: vec![event(1)] },
            StreamAppend { stream_id: "s".into(), expected: ExpectedVersion::Any, events: vec![event(2)] },
        ])
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::InvalidAppend(_)));
    assert_eq!(position_count(f).await, 0);
}

pub async fn streams_and_the_whole_log_read_back_in_order(f: &Fixture) {
    for i in 0..10 {
        append_n(f, &format!("stream-{}", i % 3), 1).await;
    }

    let stream_0 = f.store.read_stream("stream-0", 1, 100).await.unwrap();
    assert_eq!(stream_0.iter().map(|e| e.position).collect::<Vec<_>>(), vec![1, 4, 7, 10]);
    assert_eq!(stream_0.iter().map(|e| e.stream_version).collect::<Vec<_>>(), vec![1, 2, 3, 4]);
    let from_3 = f.store.read_stream("stream-0", 3, 100).await.unwrap();
    assert_eq!(from_3.iter().map(|e| e.stream_version).collect::<Vec<_>>(), vec![3, 4]);

    let page = f.store.read_all(4, 3).await.unwrap();
    assert_eq!(page.iter().map(|e| e.position).collect::<Vec<_>>(), vec![5, 6, 7]);
    assert!(f.store.read_all(10, 5).await.unwrap().is_empty());
    assert!(f.store.read_stream("nobody", 1, 5).await.unwrap().is_empty());
    assert_eq!(f.store.stream_version("stream-0").await.unwrap(), 4);
    assert_eq!(f.store.stream_version("nobody").await.unwrap(), 0);
}

pub async fn metadata_and_payload_come_back_byte_for_byte(f: &Fixture) {
    let metadata = Metadata {
        actor: Some("user-42".into()),
        correlation_id: Some(Uuid::now_v7()),
        causation_id: Some(Uuid::now_v7()),
        chain: Some(ChainCoordinates {
            chain_id: 80001,
            block_number: 12,
            block_hash: format!("0x{}", "ab".repeat(32)),
            tx_hash: format!("0x{}", "cd".repeat(32)),
            log_index: 3,
        }),
    };
    // Odd but valid JSON text: spacing and key order must survive (the hash covers the bytes).
    let payload = r#"{ "z": 1,  "a": "é\u00e9", "n": 1.50 }"#.to_owned();
    let new = NewEvent { payload: payload.clone(), ..event(0) };
    let new = NewEvent { metadata: metadata.clone(), ..new };
    f.store.append("m", ExpectedVersion::NoStream, vec![new.clone()]).await.unwrap();

    let stored = &f.store.read_all(0, 1).await.unwrap()[0];
    assert_eq!(stored.payload, payload);
    assert_eq!(stored.metadata().unwrap(), metadata);
    assert_eq!((stored.event_id, stored.event_type.as_str(), stored.schema_version), (new.event_id, "AmountRecorded", 1));
    let age = chrono::Utc::now() - stored.recorded_at;
    assert!(age >= chrono::TimeDelta::zero() && age < chrono::TimeDelta::seconds(60), "recorded_at {age}");
}

pub async fn concurrent_writers_never_show_a_reader_a_gap_or_a_step_back(f: &Fixture) {
    let (writers, appends) = f.concurrency();
    let total = (writers * appends) as u64;

    let reader_store = f.open_another().await;
    let reader = tokio::spawn(async move {
        let mut last = 0u64;
        let mut seen = HashSet::new();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(300);
        while last < total {
            assert!(tokio::time::Instant::now() < deadline, "reader stuck at {last}");
            let page = reader_store.read_all(last, 500).await.expect("read");
            if page.len() < 500 {
                // Follow closely without spinning a core the writers need.
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
            for e in page {
                assert_eq!(e.position, last + 1, "a gap or a step back after {last}");
                assert!(seen.insert(e.event_id), "event {} seen twice", e.event_id);
                last = e.position;
            }
        }
        seen.len() as u64
    });

    let mut tasks = Vec::new();
    for w in 0..writers {
        let store = f.open_another().await;
        tasks.push(tokio::spawn(async move {
            for i in 0..appends {
                // Mostly its own stream with an exact version; every tenth to a stream all share.
                if i % 10 == 9 {
                    store.append("shared", ExpectedVersion::Any, vec![event(i as u32)]).await.expect("append shared");
                } else {
                    let own = (i - i / 10) as u64;
                    store.append(&format!("writer-{w}"), ExpectedVersion::Exact(own), vec![event(i as u32)]).await.expect("append own");
                }
            }
        }));
    }
    for task in tasks {
        task.await.expect("writer");
    }

    assert_eq!(reader.await.expect("reader"), total, "every event seen exactly once");
    let report = verify(f.store.as_ref(), 1_000).await.expect("the chain holds under concurrency");
    assert_eq!(report.events, total);
    assert_eq!(report.streams, writers as u64 + 1);
}

/// Two stores on one log (two processes, say) taking turns: each must decide from the other's
/// appends, never from what it remembers of its own last one.
pub async fn stores_taking_turns_on_one_log_decide_from_each_others_appends(f: &Fixture) {
    let other = f.open_another().await;
    for i in 0..6u32 {
        let (store, name) = if i % 2 == 0 { (&f.store, "first") } else { (&other, "second") };
        let outcome = store
            .append("shared", ExpectedVersion::Exact(u64::from(i)), vec![event(i)])
            .await
            .unwrap_or_else(|err| panic!("{name} store, append {i}: {err}"));
        assert_eq!(outcome.first_position, 2 * u64::from(i) + 1);
        assert_eq!(outcome.streams, vec![("shared".to_string(), u64::from(i) + 1)]);
        // Unknown-version appends land after the other store's too.
        let any = store.append("any", ExpectedVersion::Any, vec![event(100 + i)]).await.unwrap();
        assert_eq!(any.streams, vec![("any".to_string(), u64::from(i) + 1)]);
    }
    // The second store appended last: the first one's own last append is two behind.
    let stale = f.store.append("shared", ExpectedVersion::Exact(5), vec![event(200)]).await;
    assert!(matches!(stale, Err(StoreError::WrongExpectedVersion { actual: 6, .. })), "{stale:?}");
    let report = verify(f.store.as_ref(), 100).await.expect("the chain holds");
    assert_eq!(report.events, 12);
    assert_eq!(other.head().await.unwrap(), f.store.head().await.unwrap());
}

pub async fn a_catch_up_subscription_turns_live_without_missing_events(f: &Fixture) {
    for _ in 0..30 {
        append_n(f, "early", 10).await;
    }
    let writer_store = f.open_another().await;
    let writer = tokio::spawn(async move {
        for i in 0..300 {
            writer_store.append("during", ExpectedVersion::Any, vec![event(i)]).await.expect("append");
            if i % 50 == 0 {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        }
    });

    let mut subscription = Box::pin(subscribe(f.store.clone(), 0));
    let mut positions = Vec::new();
    while positions.len() < 600 {
        let next = tokio::time::timeout(Duration::from_secs(30), subscription.next()).await;
        positions.push(next.expect("the subscription stalled").expect("never ends").expect("read").position);
    }
    writer.await.unwrap();
    assert_eq!(positions, (1..=600).collect::<Vec<_>>());

    // Live: an append after catching up arrives promptly (woken, not only polled).
    append_n(f, "later", 1).await;
    let live = tokio::time::timeout(Duration::from_secs(5), subscription.next()).await.expect("live event");
    assert_eq!(live.unwrap().unwrap().position, 601);
}

async fn five_events(f: &Fixture) {
    for i in 0..5 {
        append_n(f, &format!("t-{}", i % 2), 1).await;
    }
}

async fn tampered_at(f: &Fixture) -> u64 {
    match verify(f.store.as_ref(), 2).await {
        Err(VerifyError::Tampered(t)) => t.position,
        other => panic!("tampering not found: {other:?}"),
    }
}

pub async fn verify_accepts_an_intact_log(f: &Fixture) {
    five_events(f).await;
    let report = verify(f.store.as_ref(), 2).await.unwrap();
    assert_eq!((report.events, report.streams, report.last_position), (5, 2, 5));
    assert_eq!(report.last_hash, hex::encode(f.store.head().await.unwrap().1));
}

pub async fn verify_finds_an_edited_row(f: &Fixture) {
    five_events(f).await;
    f.tamper(&[r#"UPDATE event_log SET payload = '{"n":0,"amount":"999"}' WHERE position = 3"#]).await;
    assert_eq!(tampered_at(f).await, 3);
}

pub async fn verify_finds_a_deleted_row(f: &Fixture) {
    five_events(f).await;
    f.tamper(&["DELETE FROM event_log WHERE position = 3"]).await;
    assert_eq!(tampered_at(f).await, 3);
}

pub async fn verify_finds_reordered_rows(f: &Fixture) {
    five_events(f).await;
    f.tamper(&[
        "UPDATE event_log SET position = -1 WHERE position = 2",
        "UPDATE event_log SET position = 2 WHERE position = 3",
        "UPDATE event_log SET position = 3 WHERE position = -1",
    ])
    .await;
    assert_eq!(tampered_at(f).await, 2);
}

pub async fn verify_finds_a_cut_tail(f: &Fixture) {
    five_events(f).await;
    f.tamper(&["DELETE FROM event_log WHERE position = 5"]).await;
    assert_eq!(tampered_at(f).await, 5);
}
