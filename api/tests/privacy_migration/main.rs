//! `marketplace migrate-privacy` and `forget-erased` as an operator runs them: a log written
//! the old way (personal fields in clear) copied into a sealed log, on SQLite (the embedded
//! default: copied, verified, swapped in, read models rebuilt) and on Postgres (`--to` another
//! database); the erasures of a log replayed on a key store restored from an older backup.

use std::{path::Path, process::Command, sync::Arc};

use chrono::{TimeZone, Utc};
use domain::{
    EventStore, ExpectedVersion, Metadata, RecordedEvent,
    accounts::{ContactEvent, UserCommand, WalletProvider, decide, repo},
    log::LogEvent,
    privacy::{PrivacyKeys, PrivateStore},
    test_utils::TestPostgres,
};
use serde_json::Value;
use uuid::Uuid;

const SECRET: &str = "privacy-migration-test-secret";

/// What personal data the old log holds in clear (and the new one must not).
struct Person {
    id: Uuid,
    email: String,
    username: String,
    full_name: String,
    bio: String,
}

fn people() -> Vec<Person> {
    ["ada", "grace", "edsger", "barbara"]
        .iter()
        .enumerate()
        .map(|(i, name)| Person {
            id: Uuid::from_u128(0x1000 + i as u128),
            email: format!("{name}.secret@example.org"),
            username: format!("{name}_handle"),
            full_name: format!("{} Fullname{i}", name.to_uppercase()),
            bio: format!("the private bio of {name}"),
        })
        .collect()
}

async fn run_user(store: &dyn EventStore, user: Uuid, command: UserCommand) {
    let metadata = Metadata { actor: Some(user.to_string()), ..Metadata::default() };
    repo::execute(store, user, &metadata, |state| decide(state, command.clone())).await.expect("user command");
}

/// An old-style log: the plain store, as the previous release wrote it.
async fn old_style_log(url: &str) -> Arc<dyn EventStore> {
    let store = domain::store::open(url).await.unwrap();
    let categories = domain::catalog::DEFAULT_CATEGORIES
        .iter()
        .map(|(id, name)| {
            domain::catalog::CatalogEvent::CategoryAdded { id: (*id).into(), name: (*name).into() }
                .to_new_event(Metadata::default())
                .unwrap()
        })
        .collect();
    store.append("categories", ExpectedVersion::Any, categories).await.unwrap();
    let now = Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap();
    let mut blocks = projections::test_utils::market_history(60);
    for (i, person) in people().iter().enumerate() {
        run_user(
            store.as_ref(),
            person.id,
            UserCommand::Register {
                user_id: person.id,
                email: person.email.clone(),
                username: person.username.clone(),
                full_name: person.full_name.clone(),
                password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".into(),
                code_hash: format!("{i:064x}"),
                now,
            },
        )
        .await;
        run_user(store.as_ref(), person.id, UserCommand::IssueWalletNonce { nonce: format!("nonce{i}"), now }).await;
        run_user(
            store.as_ref(),
            person.id,
            UserCommand::LinkWallet {
                provider: WalletProvider::Metamask,
                address: projections::test_utils::address(1 + i as u64),
                nonce: format!("nonce{i}"),
                now,
            },
        )
        .await;
        // Market events between the accounts' own.
        for writes in blocks.by_ref().take(3) {
            store.append_streams(writes).await.unwrap();
        }
        run_user(
            store.as_ref(),
            person.id,
            UserCommand::UpdateProfile {
                full_name: None,
                username: None,
                bio: Some(person.bio.clone()),
                mobile_number: Some(format!("+4420700900{i}")),
                avatar: Some(format!("bafkreiavatar{i}")),
                cover_image: None,
            },
        )
        .await;
        let message = Uuid::from_u128(0x2000 + i as u128);
        let contact = ContactEvent::ContactMessageReceived {
            message_id: message,
            name: person.full_name.clone(),
            email: person.email.clone(),
            subject: "a question".into(),
            message: format!("please call {} about my order", person.full_name),
            user_id: (i % 2 == 0).then_some(person.id),
            at: now,
        };
        store
            .append(&contact.stream_id(), ExpectedVersion::NoStream, vec![contact.to_new_event(Metadata::default()).unwrap()])
            .await
            .unwrap();
    }
    for writes in blocks {
        store.append_streams(writes).await.unwrap();
    }
    store
}

async fn read_everything(store: &dyn EventStore) -> Vec<RecordedEvent> {
    let mut all = Vec::new();
    loop {
        let page = store.read_all(all.last().map_or(0, |e: &RecordedEvent| e.position), 1_000).await.unwrap();
        if page.is_empty() {
            return all;
        }
        all.extend(page);
    }
}

/// The read models folded from `store` into a fresh SQLite read database: their content
/// checksum (positions left out: the new log's are one further on).
async fn replayed_content(store: Arc<dyn EventStore>, dir: &Path, name: &str) -> String {
    let db = projections::ReadDb::open(&format!("sqlite://{}", dir.join(format!("{name}.db")).display())).await.unwrap();
    let projector = projections::Projector::new(store, db.clone()).await.unwrap();
    projector.catch_up().await.unwrap();
    db.content_checksum().await.unwrap()
}

fn marketplace(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_marketplace"))
        .args(args)
        .env("JWT_SECRET", SECRET)
        .env("RUST_LOG", "warn")
        .env_remove("DATABASE_URL")
        .env_remove("READ_DATABASE_URL")
        .env_remove("KEY_STORE_URL")
        .output()
        .expect("run marketplace");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

/// Every assertion on a migrated log: chained, tied to the old head, every old event in order,
/// nothing personal in clear, everything opened back through the keys.
async fn check_migrated(old: &[RecordedEvent], old_head: [u8; 32], new: &PrivateStore) {
    let report = domain::store::verify::verify(new.inner().as_ref(), 1_000).await.expect("the new log verifies");
    assert_eq!(report.events, old.len() as u64 + 1);

    let raw = read_everything(new.inner().as_ref()).await;
    assert_eq!(raw.len(), old.len() + 1);
    assert_eq!(raw[0].stream_id, domain::log::LOG_MIGRATION_STREAM);
    match raw[0].payload::<LogEvent>().unwrap() {
        LogEvent::LogMigrated { previous_head_hash, previous_event_count, previous_log, .. } => {
            assert_eq!(previous_head_hash, hex::encode(old_head));
            assert_eq!(previous_event_count, old.len() as u64);
            assert!(!previous_log.is_empty());
        }
    }

    // Every old event, in order, with its id, type, schema version and metadata.
    for (was, now) in old.iter().zip(&raw[1..]) {
        assert_eq!(now.position, was.position + 1);
        assert_eq!((now.event_id, &now.event_type, now.schema_version), (was.event_id, &was.event_type, was.schema_version));
        assert_eq!(now.metadata, was.metadata, "metadata of {}", was.event_id);
        assert_eq!(now.stream_version, was.stream_version, "stream version of {}", was.event_id);
        assert_eq!(now.stream_id, new.kept_stream_id(&was.stream_id), "stream of {}", was.event_id);
        if was.stream_id.starts_with("email-") || was.stream_id.starts_with("username-") {
            assert_ne!(now.stream_id, was.stream_id, "a claim stream is blinded");
        }
    }

    // Nothing personal in clear in the new log, neither in payloads nor in stream names.
    let mut secrets: Vec<String> = Vec::new();
    for person in people() {
        let domain_part = person.email.split('@').next().unwrap().to_owned();
        secrets.extend([person.email, domain_part, person.username, person.full_name, person.bio]);
    }
    secrets.extend(["please call".to_owned(), "a question".to_owned(), "+4420700900".to_owned(), "bafkreiavatar".to_owned()]);
    for event in &raw {
        let text = format!("{} {} {}", event.stream_id, event.payload, event.metadata).to_lowercase();
        for secret in &secrets {
            assert!(!text.contains(&secret.to_lowercase()), "{secret:?} in clear at position {}: {text}", event.position);
        }
    }
    // ...while the old log did hold them (the test would prove nothing otherwise).
    let old_text: String = old.iter().map(|e| format!("{} {}", e.stream_id, e.payload)).collect();
    assert!(secrets.iter().all(|s| old_text.to_lowercase().contains(&s.to_lowercase())));

    // Through the keys: every payload as it was.
    let opened = read_everything(new).await;
    for (was, now) in old.iter().zip(&opened[1..]) {
        let mut was_value: Value = serde_json::from_str(&was.payload).unwrap();
        let now_value: Value = serde_json::from_str(&now.payload).unwrap();
        // A code or reset link long expired was sealed with a key past its retention: blank.
        let expiring = ["VerificationCodeIssued", "PasswordResetRequested", "EmailChangeRequested"];
        let expired =
            was_value["expiresAt"].as_str().and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok()).is_some_and(|t| t < Utc::now());
        if expiring.contains(&was.event_type.as_str()) && expired {
            for field in ["codeHash", "tokenHash"] {
                if was_value.get(field).is_some() {
                    was_value[field] = Value::String(String::new());
                }
            }
        }
        assert_eq!(now_value, was_value, "payload of {} ({})", was.event_id, was.event_type);
    }
    let sealed = opened.iter().filter(|e| domain::privacy::SEALED_TYPES.contains(&e.event_type.as_str())).count();
    assert!(sealed >= people().len() * 4, "the log had personal events to seal ({sealed})");
    // A user's stream and a blinded claim read back by their names in clear.
    let ada = &people()[0];
    let loaded = repo::load(new, ada.id).await.unwrap();
    assert_eq!((loaded.user.email.as_str(), loaded.user.full_name.as_str()), (ada.email.as_str(), ada.full_name.as_str()));
    assert_eq!(repo::find(new, domain::accounts::ClaimKind::Email, &ada.email).await.unwrap(), Some(ada.id));
}

fn keys() -> PrivacyKeys {
    PrivacyKeys::derive(SECRET.as_bytes())
}

#[tokio::test]
async fn the_embedded_default_is_sealed_verified_swapped_and_replayed_in_one_command() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let log = data.join("events.db");
    let log_url = format!("sqlite://{}", log.display());
    let old = old_style_log(&log_url).await;
    let old_events = read_everything(old.as_ref()).await;
    let (_, old_head) = old.head().await.unwrap();
    let old_content = replayed_content(old.clone(), dir.path(), "read-old").await;
    drop(old);

    // The server of this release refuses the old log until it is migrated.
    let refused = domain::privacy::open(&log_url, &domain::privacy::default_keys_url(&log_url), &keys()).await;
    assert!(matches!(refused, Err(domain::privacy::OpenError::Unsealed(n)) if n == old_events.len() as u64));

    let data_dir = data.display().to_string();
    let (code, out) = marketplace(&["--data-dir", &data_dir, "migrate-privacy", "--batch", "500"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(&format!("old log: {} events, head hash {}", old_events.len(), hex::encode(old_head))), "{out}");
    assert!(out.contains("swapped:") && out.contains("read models rebuilt"), "{out}");

    // The old log is kept beside, unchanged.
    let before = domain::store::open(&format!("sqlite://{}", data.join("events.db.before-privacy").display())).await.unwrap();
    assert_eq!(before.head().await.unwrap(), (old_events.len() as u64, old_head));
    drop(before);
    assert!(!data.join("events.sealed.db").exists() && !data.join("keys.sealed.db").exists());

    // The server opens the swapped log with its key store.
    let new = domain::privacy::open(&log_url, &domain::privacy::default_keys_url(&log_url), &keys()).await.expect("the sealed log opens");
    check_migrated(&old_events, old_head, &new).await;

    // The read models rebuilt from the new log say what the old log's said.
    let new_content = replayed_content(new.clone(), dir.path(), "read-new").await;
    assert_eq!(new_content, old_content, "read models replayed from the sealed log equal the old log's");
    let published = projections::ReadDb::open(&format!("sqlite://{}", data.join("read.db").display())).await.unwrap();
    assert_eq!(published.position().await.unwrap(), old_events.len() as u64 + 1, "the read models follow the new log");
    assert_eq!(published.content_checksum().await.unwrap(), old_content);
    new.keys().close().await;
    drop(new);

    // A second run finds nothing to do.
    let (code, out) = marketplace(&["--data-dir", &data_dir, "migrate-privacy"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("already sealed"), "{out}");
}

#[tokio::test]
async fn a_postgres_log_is_sealed_into_another_database() {
    let old_db = TestPostgres::create().await;
    let new_db = TestPostgres::create().await;
    let dir = tempfile::tempdir().unwrap();
    let old = old_style_log(&old_db.url).await;
    let old_events = read_everything(old.as_ref()).await;
    let (_, old_head) = old.head().await.unwrap();
    let old_content = replayed_content(old.clone(), dir.path(), "read-old").await;

    let data_dir = dir.path().join("data").display().to_string();
    let (code, out) = marketplace(&["--data-dir", &data_dir, "--database-url", &old_db.url, "migrate-privacy"]);
    assert_ne!(code, 0, "a Postgres log needs --to: {out}");
    assert!(out.contains("--to"), "{out}");

    let (code, out) = marketplace(&["--data-dir", &data_dir, "--database-url", &old_db.url, "migrate-privacy", "--to", &new_db.url]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(&format!("head hash {}", hex::encode(old_head))), "{out}");
    assert!(out.contains("DATABASE_URL="), "{out}");
    assert_eq!(old.head().await.unwrap(), (old_events.len() as u64, old_head), "the old log is left as it was");

    // The key store is the new database's `subject_keys` table.
    let new = domain::privacy::open(&new_db.url, &new_db.url, &keys()).await.expect("the sealed log opens");
    check_migrated(&old_events, old_head, &new).await;
    assert_eq!(replayed_content(new.clone(), dir.path(), "read-new").await, old_content);

    // Into a database that already holds a log: refused.
    let (code, out) = marketplace(&["--data-dir", &data_dir, "--database-url", &old_db.url, "migrate-privacy", "--to", &new_db.url]);
    assert_ne!(code, 0, "{out}");
    new.keys().close().await;
}

#[tokio::test]
async fn forget_erased_replays_the_erasures_on_a_key_store_restored_from_an_older_backup() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let log_url = format!("sqlite://{}", data.join("events.db").display());
    let keys_path = data.join("keys.db");
    drop(old_style_log(&log_url).await);
    let data_dir = data.display().to_string();
    let (code, out) = marketplace(&["--data-dir", &data_dir, "migrate-privacy"]);
    assert_eq!(code, 0, "{out}");

    // The nightly backup of the key store, taken before the erasure.
    let backup = dir.path().join("keys-backup.db");
    {
        let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", keys_path.display())).await.unwrap();
        sqlx::query("VACUUM INTO ?").bind(backup.display().to_string()).execute(&pool).await.unwrap();
        pool.close().await;
    }

    // Ada deletes her account: the erase command, then her keys forgotten.
    let ada = &people()[0];
    let store = domain::privacy::open(&log_url, &format!("sqlite://{}", keys_path.display()), &keys()).await.unwrap();
    run_user(store.as_ref(), ada.id, UserCommand::Erase { confirmed: true, now: Utc::now() }).await;
    assert!(store.forget_person(ada.id, &ada.email).await.unwrap() >= 2, "her key and her contact message's");
    assert_eq!(repo::load(store.as_ref(), ada.id).await.unwrap().user.email, "");
    let (_, gone) = store.keys().counts().await.unwrap();
    store.keys().close().await;
    drop(store);

    // The key store is lost and restored from the backup: her key is back.
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", keys_path.display()));
    }
    std::fs::copy(&backup, &keys_path).unwrap();
    let store = domain::privacy::open(&log_url, &format!("sqlite://{}", keys_path.display()), &keys()).await.unwrap();
    assert_eq!(repo::load(store.as_ref(), ada.id).await.unwrap().user.email, ada.email, "restored: readable again");
    store.keys().close().await;
    drop(store);

    let (code, out) = marketplace(&["--data-dir", &data_dir, "forget-erased"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1 erased accounts in the log; 1 of them still had keys"), "{out}");

    let store = domain::privacy::open(&log_url, &format!("sqlite://{}", keys_path.display()), &keys()).await.unwrap();
    let user = repo::load(store.as_ref(), ada.id).await.unwrap().user;
    assert_eq!((user.email.as_str(), user.full_name.as_str()), ("", ""), "forgotten again");
    assert_eq!(store.keys().counts().await.unwrap().1, gone, "the same keys forgotten as by the erasure");
    let grace = repo::load(store.as_ref(), people()[1].id).await.unwrap().user;
    assert_eq!(grace.email, people()[1].email, "nobody else's");
    let contact = store.read_stream(&format!("contact-{}", Uuid::from_u128(0x2000)), 1, 10).await.unwrap();
    assert_eq!(contact[0].payload::<Value>().unwrap()["message"], "", "her contact message too");
    store.keys().close().await;
    drop(store);

    // Run again: nothing left to forget.
    let (code, out) = marketplace(&["--data-dir", &data_dir, "forget-erased"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1 erased accounts in the log; 0 of them still had keys"), "{out}");
}
