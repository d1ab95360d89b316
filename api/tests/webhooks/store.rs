//! The delivery tables on SQLite and Postgres: a group of records written together moves each
//! endpoint as its own record says (deliveries in one statement, the rest one by one), refuses a
//! record of an older generation, and logs each attempt under its own number.

use api::node::webhooks::state::{Attempt, DeliveryStore, Outcome};
use domain::test_utils::TestPostgres;

fn attempt(position: u64, status: Option<u16>) -> Attempt {
    Attempt {
        position,
        message_id: format!("msg_{position}"),
        attempt: 1,
        status,
        error: status.is_none().then(|| "refused".to_owned()),
        latency_ms: 3,
        at_ms: 1_700_000_000_000,
    }
}

async fn records_written_together_each_move_their_endpoint(store: DeliveryStore) {
    let endpoints: Vec<String> = (0..40).map(|i| format!("endpoint-{i}")).collect();
    for id in &endpoints {
        store.ensure(id, 10).await.unwrap();
    }
    store.redeliver(&endpoints[39], 5).await.unwrap(); // generation 1, position 4

    // Every endpoint's record at once (as the endpoints' tasks ask), plus a failure and a test event.
    let records = endpoints.iter().enumerate().map(|(i, id)| {
        let store = &store;
        async move {
            match i {
                0 => {
                    store
                        .record(id, 0, &attempt(11, Some(500)), Outcome::Failed { attempts: 1, next_attempt_ms: 42, failing_since_ms: 7 })
                        .await
                }
                1 => store.record(id, 0, &attempt(0, Some(204)), Outcome::Logged).await,
                // Delivered at generation 0, but a redelivery moved it to 1: refused.
                39 => store.record(id, 0, &attempt(11, Some(204)), Outcome::Delivered { acked: 11 }).await,
                _ => store.record(id, 0, &attempt(11 + i as u64, Some(204)), Outcome::Delivered { acked: 11 + i as u64 }).await,
            }
        }
    });
    let moved = futures::future::join_all(records).await.into_iter().collect::<Result<Vec<bool>, _>>().unwrap();
    assert_eq!(moved.iter().filter(|m| **m).count(), 39);
    assert!(!moved[39], "a record of an older generation moves nothing");

    let states = store.load_many(&endpoints).await.unwrap();
    let failed = &states[&endpoints[0]];
    assert_eq!((failed.acked, failed.attempts, failed.next_attempt_ms, failed.failing_since_ms), (10, 1, 42, Some(7)));
    assert_eq!((states[&endpoints[1]].acked, states[&endpoints[1]].log_seq), (10, 1), "a test event moves nothing but the log");
    for (i, id) in endpoints.iter().enumerate().take(39).skip(2) {
        let state = &states[id];
        assert_eq!((state.acked, state.attempts, state.log_seq), (11 + i as u64, 0, 1), "{id}");
        let log = store.attempts(id, 10).await.unwrap();
        assert_eq!(log, [attempt(11 + i as u64, Some(204))], "{id}");
    }
    assert_eq!((states[&endpoints[39]].acked, states[&endpoints[39]].log_seq), (4, 0));
    assert!(store.attempts(&endpoints[39], 10).await.unwrap().is_empty());

    // One endpoint, many attempts: the log keeps the last ones, newest first.
    for n in 0..150u64 {
        assert!(store.record(&endpoints[2], 0, &attempt(100 + n, Some(204)), Outcome::Delivered { acked: 100 + n }).await.unwrap());
    }
    let log = store.attempts(&endpoints[2], 100).await.unwrap();
    assert_eq!((log.len(), log[0].position, log[99].position), (100, 249, 150));
}

#[tokio::test]
async fn delivery_records_written_together_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let store = DeliveryStore::new(&format!("sqlite://{}", dir.path().join("deliveries.db").display())).unwrap();
    records_written_together_each_move_their_endpoint(store).await;
}

#[tokio::test]
async fn delivery_records_written_together_on_postgres() {
    let db = TestPostgres::create().await;
    records_written_together_each_move_their_endpoint(DeliveryStore::new(&db.url).unwrap()).await;
}
