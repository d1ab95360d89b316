//! Personal data sealed in the log and erased by forgetting a key, on SQLite and Postgres: every
//! personal field of every event kind is ciphertext at rest; forgetting a person makes each
//! unreadable while the log's bytes, hashes and `verify` stay as they were.

use std::sync::Arc;

use chrono::{Duration, Utc};
use domain::{
    EventStore, ExpectedVersion, Metadata, NewEvent, StreamAppend,
    accounts::{AuthProvider, ClaimEvent, ClaimKind, CodePurpose, ContactEvent, UserEvent, user_stream},
    privacy::{self, PrivacyKeys, PrivateStore, SEALED_TYPES},
    store::verify::verify,
    test_utils::TestPostgres,
};
use serde_json::Value;
use uuid::Uuid;

/// What a person typed: none of it may appear in the log.
const SECRETS: [&str; 9] = [
    "alice@example.com",
    "alice.new@example.com",
    "Alice Liddell",
    "alice_w",
    "Down the rabbit hole",
    "+44 20 7946 0000",
    "bafyavatar",
    "google-sub-42",
    "Please help",
];

struct Backend {
    store: Arc<PrivateStore>,
    _dir: tempfile::TempDir,
    _pg: Option<TestPostgres>,
}

async fn sqlite() -> Backend {
    let dir = tempfile::tempdir().unwrap();
    let url = |f: &str| format!("sqlite://{}", dir.path().join(f).display());
    let store = privacy::open(&url("events.db"), &url("keys.db"), &PrivacyKeys::derive(b"test secret")).await.unwrap();
    Backend { store, _dir: dir, _pg: None }
}

async fn postgres() -> Backend {
    let pg = TestPostgres::create().await;
    let store = privacy::open(&pg.url, &pg.url, &PrivacyKeys::derive(b"test secret")).await.unwrap();
    Backend { store, _dir: tempfile::tempdir().unwrap(), _pg: Some(pg) }
}

fn new(event: &impl serde::Serialize, event_type: &str) -> NewEvent {
    NewEvent::new(event_type, 1, event, Metadata::default()).unwrap()
}

fn user(event: UserEvent) -> NewEvent {
    event.to_new_event(Metadata::default()).unwrap()
}

/// One event of every kind with personal fields, for `person`; returns the contact message's id.
async fn write_everything(store: &dyn EventStore, person: Uuid) -> Uuid {
    let now = Utc::now();
    let message_id = Uuid::now_v7();
    let claims = |kind, value: &str| {
        let event = ClaimEvent::ValueClaimed { kind, value: value.into(), user_id: person };
        StreamAppend { stream_id: event.stream_id(), expected: ExpectedVersion::NoStream, events: vec![new(&event, event.event_type())] }
    };
    let registered = UserEvent::UserRegistered {
        user_id: person,
        email: SECRETS[0].into(),
        username: SECRETS[3].into(),
        full_name: SECRETS[2].into(),
        password_hash: "$argon2id$...".into(),
        auth_provider: AuthProvider::Email,
        at: now,
    };
    let events = vec![
        user(registered),
        user(UserEvent::VerificationCodeIssued {
            purpose: CodePurpose::Account,
            code_hash: "c0de".into(),
            expires_at: now + Duration::minutes(15),
            attempts_allowed: 5,
        }),
        user(UserEvent::LoggedInWithGoogle { google_subject: SECRETS[7].into(), at: now }),
        user(UserEvent::PasswordResetRequested { token_hash: "70ken".into(), expires_at: now + Duration::hours(1) }),
        user(UserEvent::EmailChangeRequested {
            new_email: SECRETS[1].into(),
            code_hash: "c0de2".into(),
            expires_at: now + Duration::minutes(15),
            attempts_allowed: 5,
        }),
        user(UserEvent::EmailChanged { old_email: SECRETS[0].into(), new_email: SECRETS[1].into(), at: now }),
        user(UserEvent::ProfileUpdated {
            full_name: SECRETS[2].into(),
            username: SECRETS[3].into(),
            bio: SECRETS[4].into(),
            mobile_number: SECRETS[5].into(),
            avatar: Some(SECRETS[6].into()),
            cover_image: Some(format!("{}-cover", SECRETS[6])),
        }),
    ];
    store
        .append_streams(vec![
            StreamAppend { stream_id: user_stream(person), expected: ExpectedVersion::NoStream, events },
            claims(ClaimKind::Email, SECRETS[0]),
            claims(ClaimKind::Username, SECRETS[3]),
        ])
        .await
        .unwrap();
    let google = UserEvent::GoogleAccountRegistered {
        user_id: Uuid::now_v7(),
        email: "g@example.com".into(),
        username: "gee".into(),
        full_name: "Gee Whiz".into(),
        google_subject: SECRETS[7].into(),
        auth_provider: AuthProvider::Google,
        at: now,
    };
    let google_id = match &google {
        UserEvent::GoogleAccountRegistered { user_id, .. } => *user_id,
        _ => unreachable!(),
    };
    store.append(&user_stream(google_id), ExpectedVersion::NoStream, vec![user(google)]).await.unwrap();
    let contact = ContactEvent::ContactMessageReceived {
        message_id,
        name: SECRETS[2].into(),
        email: SECRETS[0].into(),
        subject: "Stolen NFT".into(),
        message: SECRETS[8].into(),
        user_id: Some(person),
        at: now,
    };
    store.append(&contact.stream_id(), ExpectedVersion::NoStream, vec![contact.to_new_event(Metadata::default()).unwrap()]).await.unwrap();
    message_id
}

async fn raw_log(store: &PrivateStore) -> Vec<domain::RecordedEvent> {
    store.inner().read_all(0, 10_000).await.unwrap()
}

fn plain(events: &[domain::RecordedEvent]) -> Vec<String> {
    let mut found = Vec::new();
    for event in events {
        for secret in SECRETS {
            if event.payload.contains(secret) || event.stream_id.contains(secret) {
                found.push(format!("{} at {}: {secret}", event.event_type, event.position));
            }
        }
    }
    found
}

async fn sealed_at_rest(backend: Backend) {
    let store = backend.store;
    let person = Uuid::now_v7();
    write_everything(store.as_ref(), person).await;
    let raw = raw_log(&store).await;
    assert_eq!(plain(&raw), Vec::<String>::new(), "nothing a person typed is stored in clear");
    // Every listed field of every kind is sealed, and every kind was written.
    let mut kinds: Vec<&str> = raw.iter().map(|e| e.event_type.as_str()).collect();
    kinds.sort_unstable();
    kinds.dedup();
    for kind in SEALED_TYPES.iter().filter(|k| **k != "ValueReleased") {
        assert!(kinds.contains(kind), "{kind} written");
    }
    for event in &raw {
        let sealed = domain::privacy::store::sealed_subjects(event);
        let payload: Value = serde_json::from_str(&event.payload).unwrap();
        for (field, value) in payload.as_object().unwrap() {
            if let Some(text) = value.as_str().filter(|t| t.starts_with("sealed:1:")) {
                assert!(sealed.contains_key(field.as_str()), "{field} of {} is a listed field", event.event_type);
                let _ = text;
            }
        }
        if SEALED_TYPES.contains(&event.event_type.as_str()) && event.event_type != "VerificationFailed" {
            assert!(!sealed.is_empty(), "{} has sealed fields", event.event_type);
        }
    }
    // Claim streams are named by a keyed hash; looking one up by its value still works.
    assert!(raw.iter().any(|e| e.stream_id.starts_with("email-") && e.stream_id.len() == "email-".len() + 40));
    assert_eq!(domain::accounts::repo::find(store.as_ref(), ClaimKind::Email, SECRETS[0]).await.unwrap(), Some(person));
    assert_eq!(domain::accounts::repo::find(store.as_ref(), ClaimKind::Username, "ALICE_W").await.unwrap(), Some(person));

    // Read back through the store, everything is as written.
    let loaded = domain::accounts::repo::load(store.as_ref(), person).await.unwrap().user;
    assert_eq!(loaded.email, SECRETS[1]);
    assert_eq!((loaded.full_name.as_str(), loaded.bio.as_str(), loaded.mobile_number.as_str()), (SECRETS[2], SECRETS[4], SECRETS[5]));
    assert_eq!(loaded.avatar.as_deref(), Some(SECRETS[6]));
    assert_eq!(loaded.google_subject.as_deref(), Some(SECRETS[7]));
    assert_eq!(loaded.account_code.as_ref().map(|c| c.code_hash.as_str()), Some("c0de"));
    let opened = store.read_all(0, 10_000).await.unwrap();
    let contact = opened.iter().find(|e| e.event_type == "ContactMessageReceived").unwrap();
    assert!(contact.payload.contains(SECRETS[8]) && contact.payload.contains("Stolen NFT"));
}

#[tokio::test]
async fn every_personal_field_is_sealed_at_rest_on_sqlite() {
    sealed_at_rest(sqlite().await).await;
}

#[tokio::test]
async fn every_personal_field_is_sealed_at_rest_on_postgres() {
    sealed_at_rest(postgres().await).await;
}

async fn erasure_forgets_without_editing(backend: Backend) {
    let store = backend.store;
    let person = Uuid::now_v7();
    write_everything(store.as_ref(), person).await;
    let before = raw_log(&store).await;
    let other = Uuid::now_v7();
    let other_profile = UserEvent::ProfileUpdated {
        full_name: "Bob".into(),
        username: "bob".into(),
        bio: "still here".into(),
        mobile_number: String::new(),
        avatar: None,
        cover_image: None,
    };
    store.append(&user_stream(other), ExpectedVersion::Any, vec![user(other_profile)]).await.unwrap();

    let forgotten = store.forget_person(person, SECRETS[1]).await.unwrap();
    assert!(forgotten >= 4, "the person's key, their codes' and their message's: {forgotten}");
    let after = raw_log(&store).await;
    assert_eq!(&after[..before.len()], &before[..], "no byte or hash of the log changed");
    let report = verify(store.inner().as_ref(), 1_000).await.unwrap();
    assert_eq!(report.events, after.len() as u64);

    let opened = store.read_all(0, 10_000).await.unwrap();
    for event in opened.iter().filter(|e| e.stream_id == user_stream(person) || e.stream_id.starts_with("contact-")) {
        for secret in SECRETS {
            assert!(!event.payload.contains(secret), "{} still shows {secret}", event.event_type);
        }
    }
    let loaded = domain::accounts::repo::load(store.as_ref(), person).await.unwrap().user;
    assert_eq!((loaded.email.as_str(), loaded.full_name.as_str(), loaded.avatar.as_deref()), ("", "", None));
    // Someone else is untouched; the erased person's claims no longer resolve by value.
    let bob = domain::accounts::repo::load(store.as_ref(), other).await.unwrap().user;
    assert_eq!(bob.bio, "still here");
    // Nothing more can be sealed for an erased person.
    let again = UserEvent::ProfileUpdated {
        full_name: "x".into(),
        username: "x".into(),
        bio: String::new(),
        mobile_number: String::new(),
        avatar: None,
        cover_image: None,
    };
    assert!(store.append(&user_stream(person), ExpectedVersion::Any, vec![user(again)]).await.is_err());
    assert_eq!(store.keys().counts().await.unwrap().1, forgotten);
}

#[tokio::test]
async fn erasure_forgets_the_key_and_edits_nothing_on_sqlite() {
    erasure_forgets_without_editing(sqlite().await).await;
}

#[tokio::test]
async fn erasure_forgets_the_key_and_edits_nothing_on_postgres() {
    erasure_forgets_without_editing(postgres().await).await;
}

#[tokio::test]
async fn retention_forgets_codes_when_they_expire_and_messages_after_a_year() {
    let backend = sqlite().await;
    let store = backend.store.clone();
    let person = Uuid::now_v7();
    let message = write_everything(store.as_ref(), person).await;
    // Nothing has expired yet.
    assert_eq!(store.keys().forget_expired(Utc::now()).await.unwrap(), 0);
    // An hour on: the three codes' keys are past their expiry; the person and the message stay.
    assert_eq!(store.keys().forget_expired(Utc::now() + Duration::hours(2)).await.unwrap(), 3);
    let loaded = domain::accounts::repo::load(store.as_ref(), person).await.unwrap().user;
    assert_eq!(loaded.email, SECRETS[1]);
    assert_eq!(loaded.account_code.map(|c| c.code_hash), Some(String::new()), "the code reads blank");
    let read_message = || async { store.read_stream(&format!("contact-{message}"), 1, 1).await.unwrap()[0].payload.clone() };
    assert!(read_message().await.contains(SECRETS[8]));
    // A year on, the message goes too.
    assert_eq!(store.keys().forget_expired(Utc::now() + privacy::CONTACT_RETENTION + Duration::days(1)).await.unwrap(), 1);
    assert!(!read_message().await.contains(SECRETS[8]));
}

#[tokio::test]
async fn a_retried_append_is_sealed_to_the_same_bytes_and_stored_once() {
    let backend = sqlite().await;
    let store = backend.store.clone();
    let person = Uuid::now_v7();
    let event = user(UserEvent::ProfileUpdated {
        full_name: "A".into(),
        username: "aaa".into(),
        bio: "b".into(),
        mobile_number: String::new(),
        avatar: None,
        cover_image: None,
    });
    let first = store.append(&user_stream(person), ExpectedVersion::NoStream, vec![event.clone()]).await.unwrap();
    let again = store.append(&user_stream(person), ExpectedVersion::NoStream, vec![event]).await.unwrap();
    assert_eq!(first, again);
    assert_eq!(raw_log(&store).await.len(), 1);
}

#[tokio::test]
async fn a_log_written_before_sealing_is_refused_until_migrated() {
    let dir = tempfile::tempdir().unwrap();
    let url = |f: &str| format!("sqlite://{}", dir.path().join(f).display());
    let plain = domain::store::open(&url("events.db")).await.unwrap();
    // Nothing personal yet (a verification, chain facts): the log is sealed from here on.
    let event = user(UserEvent::AccountVerified { at: Utc::now() });
    plain.append(&user_stream(Uuid::now_v7()), ExpectedVersion::Any, vec![event]).await.unwrap();
    let keys = |n: &str| url(&format!("keys-{n}.db"));
    privacy::open(&url("events.db"), &keys("a"), &PrivacyKeys::derive(b"s")).await.unwrap();
    // A name in clear: refused until migrated.
    let named = user(UserEvent::ProfileUpdated {
        full_name: "Alice Liddell".into(),
        username: "alice".into(),
        bio: String::new(),
        mobile_number: String::new(),
        avatar: None,
        cover_image: None,
    });
    plain.append(&user_stream(Uuid::now_v7()), ExpectedVersion::Any, vec![named]).await.unwrap();
    drop(plain);
    let err = privacy::open(&url("events.db"), &keys("b"), &PrivacyKeys::derive(b"s")).await.err().unwrap();
    assert!(err.to_string().contains("migrate-privacy"), "{err}");
}

#[tokio::test]
async fn another_server_secret_opens_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let url = |f: &str| format!("sqlite://{}", dir.path().join(f).display());
    let store = privacy::open(&url("events.db"), &url("keys.db"), &PrivacyKeys::derive(b"the secret")).await.unwrap();
    let person = Uuid::now_v7();
    write_everything(store.as_ref(), person).await;
    drop(store);
    let thief = privacy::open(&url("events.db"), &url("keys.db"), &PrivacyKeys::derive(b"a guess")).await.unwrap();
    let opened = thief.read_all(0, 10_000).await.unwrap();
    assert_eq!(plain(&opened), Vec::<String>::new());
}
