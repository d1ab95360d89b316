//! The `marketplace` binary as an operator runs it.

use std::process::Command;

use domain::{ExpectedVersion, Metadata, NewEvent, test_utils::TestPostgres};

/// Writes `n` events across two streams through the real store.
async fn write_events(url: &str, n: u32) {
    let store = domain::store::open(url).await.expect("open store");
    for i in 0..n {
        let event =
            NewEvent::new("PriceChanged", 1, &serde_json::json!({ "tokenId": i, "price": "1000" }), Metadata::default()).expect("event");
        store.append(&format!("nft-{}", i % 2), ExpectedVersion::Any, vec![event]).await.expect("append");
    }
}

/// Runs `marketplace verify` and returns (exit code, stdout).
fn verify(url: &str) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_marketplace")).args(["--database-url", url, "verify"]).output().expect("run marketplace");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

async fn tamper_sqlite(path: &std::path::Path, statements: &[&str]) {
    let pool = sqlx::SqlitePool::connect_with(domain::store::sqlite::connect_options(path)).await.expect("connect");
    for sql in statements {
        sqlx::query(sql).execute(&pool).await.expect(sql);
    }
}

#[tokio::test]
async fn verify_reports_an_intact_log() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("events.db").display());
    write_events(&url, 6).await;

    let (code, out) = verify(&url);

    assert_eq!(code, 0, "{out}");
    assert!(out.contains("event log OK: 6 events in 2 streams, last position 6"), "{out}");
}

#[tokio::test]
async fn verify_names_the_first_bad_position_for_each_kind_of_tampering() {
    let cases: [(&str, &[&str], u64); 4] = [
        ("edited", &[r#"UPDATE event_log SET payload = '{"tokenId":3,"price":"1"}' WHERE position = 4"#], 4),
        ("deleted", &["DELETE FROM event_log WHERE position = 2"], 2),
        (
            "reordered",
            &[
                "UPDATE event_log SET position = -1 WHERE position = 3",
                "UPDATE event_log SET position = 3 WHERE position = 4",
                "UPDATE event_log SET position = 4 WHERE position = -1",
            ],
            3,
        ),
        ("cut tail", &["DELETE FROM event_log WHERE position = 6"], 6),
    ];
    for (kind, statements, position) in cases {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("events.db");
        let url = format!("sqlite://{}", path.display());
        write_events(&url, 6).await;
        tamper_sqlite(&path, statements).await;

        let (code, out) = verify(&url);

        assert_eq!(code, 2, "{kind}: {out}");
        assert!(out.contains(&format!("TAMPERED: first bad position {position}:")), "{kind}: {out}");
    }
}

#[tokio::test]
async fn verify_finds_tampering_on_postgres_too() {
    let db = TestPostgres::create().await;
    write_events(&db.url, 6).await;
    let pool = sqlx::PgPool::connect(&db.url).await.unwrap();
    sqlx::query(r#"UPDATE event_log SET metadata = '{"actor":"mallory"}' WHERE position = 5"#).execute(&pool).await.unwrap();
    pool.close().await;

    let (code, out) = verify(&db.url);

    assert_eq!(code, 2, "{out}");
    assert!(out.contains("first bad position 5"), "{out}");
}
