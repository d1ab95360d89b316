//! Privacy: what sealing personal fields costs, on SQLite, each figure beside the same work on
//! the plain store in the same run.
//!
//! A log of 1,000,000 events is written the old way (plain store): the replay bench's market
//! history (`projections::test_utils::market_history`) with people among it, one every few
//! blocks (registration with its e-mail, username and wallet claims, a linked wallet, a profile
//! with bio and avatar, and for one in five a contact message). Then, on that log:
//!
//! 1. the migration (`marketplace migrate-privacy`'s copy into a new sealed log), its rate
//!    beside the bare `read_all` of the old log;
//! 2. the replay of the whole log into fresh read tables through the `PrivateStore` (the sealed
//!    copy) and through the plain store (the old log): ratio of rates, goal >= 0.9;
//! 3. appending an accounts event (`ProfileUpdated` by `repo::execute`, existing people)
//!    through the `PrivateStore` and on the plain store: ratio, goal >= 0.8; registration (a
//!    new key per person) the same way, reported apart;
//! 4. erasing one person in the sealed log: the erase command and the forgetting of their keys,
//!    goal < 1 s.
//!
//! `cargo bench -p api --bench privacy` (EVENTS=100000 for a quicker run; APPENDS, default 400,
//! commands per side for the appends).

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use api::ops::migrate_privacy::{DEFAULT_BATCH, copy_sealed};
use chrono::Utc;
use domain::{
    EventStore, ExpectedVersion, Metadata, StreamAppend,
    accounts::{AuthProvider, ClaimEvent, ClaimKind, ContactEvent, UserCommand, UserEvent, WalletProvider, decide, repo},
    catalog::CatalogEvent,
    privacy::{KeyStore, PrivacyKeys, PrivateStore},
};
use projections::{Projector, ReadDb, test_utils::market_history};
use uuid::Uuid;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Average events a token adds to the history.
const EVENTS_PER_NFT: u64 = 8;
/// A person joins every this many blocks.
const BLOCKS_PER_PERSON: usize = 4;

fn person(n: u64) -> Uuid {
    Uuid::from_u128(0xbe9c_0000_0000_0000_0000_0000_0000_0000 | n as u128)
}

/// A person's arrival as the accounts commands write it (registration with its claims, a
/// wallet, a profile), in one append.
fn arrival(n: u64) -> Vec<StreamAppend> {
    let id = person(n);
    let at = Utc::now();
    let email = format!("person{n}@mail.example");
    let username = format!("person_{n}");
    let wallet = projections::test_utils::address(if n < 97 { 1 + n } else { 100_000 + n });
    let metadata = Metadata { actor: Some(id.to_string()), ..Metadata::default() };
    let user = [
        UserEvent::UserRegistered {
            user_id: id,
            email: email.clone(),
            username: username.clone(),
            full_name: format!("Person Number {n}"),
            password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".into(),
            auth_provider: AuthProvider::Email,
            at,
        },
        UserEvent::AccountVerified { at },
        UserEvent::WalletLinked { provider: WalletProvider::Metamask, address: wallet.clone(), at },
        UserEvent::ProfileUpdated {
            full_name: format!("Person Number {n}"),
            username: username.clone(),
            bio: format!("Collector of things, person {n}, writes about art and the sea."),
            mobile_number: format!("+44 20 7946 {n:04}"),
            avatar: Some(format!("bafkreiavatar{n:040}")),
            cover_image: None,
        },
    ];
    let mut writes = vec![StreamAppend {
        stream_id: domain::accounts::user_stream(id),
        expected: ExpectedVersion::Any,
        events: user.iter().map(|e| e.to_new_event(metadata.clone()).unwrap()).collect(),
    }];
    for (kind, value) in [(ClaimKind::Email, email.clone()), (ClaimKind::Username, username), (ClaimKind::Wallet, wallet)] {
        let claim = ClaimEvent::ValueClaimed { kind, value, user_id: id };
        writes.push(StreamAppend {
            stream_id: claim.stream_id(),
            expected: ExpectedVersion::Any,
            events: vec![claim.to_new_event(metadata.clone()).unwrap()],
        });
    }
    if n.is_multiple_of(5) {
        let contact = ContactEvent::ContactMessageReceived {
            message_id: Uuid::from_u128(0xc0c0_0000_0000_0000_0000_0000_0000_0000 | n as u128),
            name: format!("Person Number {n}"),
            email,
            subject: "About my order".into(),
            message: format!("Hello, this is person {n}: the auction ended but my bid shows as open."),
            user_id: Some(id),
            at,
        };
        writes.push(StreamAppend {
            stream_id: contact.stream_id(),
            expected: ExpectedVersion::Any,
            events: vec![contact.to_new_event(metadata).unwrap()],
        });
    }
    writes
}

/// The old log: categories, then blocks of the market history with a person every few blocks.
async fn write_plain_log(store: &dyn EventStore, target: u64) -> u64 {
    let categories = domain::catalog::DEFAULT_CATEGORIES
        .iter()
        .map(|(id, name)| CatalogEvent::CategoryAdded { id: (*id).into(), name: (*name).into() }.to_new_event(Metadata::default()).unwrap())
        .collect();
    store.append("categories", ExpectedVersion::Any, categories).await.unwrap();
    let mut people = 0;
    for (i, writes) in market_history(target / EVENTS_PER_NFT + 1).enumerate() {
        let mut last = store.append_streams(writes).await.unwrap().last_position;
        if i % BLOCKS_PER_PERSON == 0 {
            last = store.append_streams(arrival(people)).await.unwrap().last_position;
            people += 1;
        }
        if last >= target {
            break;
        }
    }
    people
}

async fn bare_read(store: &dyn EventStore) -> (u64, Duration) {
    let t = Instant::now();
    let (mut after, mut read) = (0, 0u64);
    loop {
        let events = store.read_all(after, 20_000).await.unwrap();
        let Some(last) = events.last() else { break };
        after = last.position;
        read += events.len() as u64;
    }
    (read, t.elapsed())
}

/// A replay as `marketplace replay` does it: a new generation, caught up, published.
async fn replay(store: Arc<dyn EventStore>, dir: &std::path::Path, name: &str) -> (Duration, String) {
    let db = ReadDb::open_generation(&format!("sqlite://{}", dir.join(format!("read-{name}.db")).display()), "replay").await.unwrap();
    let projector = Projector::new(store, db.clone()).await.unwrap();
    let t = Instant::now();
    tokio::time::timeout(Duration::from_secs(1_800), projector.catch_up()).await.expect("replay took over 30 minutes").unwrap();
    db.publish().await.unwrap();
    let took = t.elapsed();
    let checksum = db.content_checksum().await.unwrap();
    db.pool().close().await;
    (took, checksum)
}

async fn run_user(store: &dyn EventStore, user: Uuid, command: UserCommand) {
    let metadata = Metadata { actor: Some(user.to_string()), ..Metadata::default() };
    repo::execute(store, user, &metadata, |state| decide(state, command.clone())).await.expect("user command");
}

fn profile_edit(round: u64) -> UserCommand {
    UserCommand::UpdateProfile {
        full_name: None,
        username: None,
        bio: Some(format!("Edited bio, round {round}: collects generative art and photographs of harbours.")),
        mobile_number: None,
        avatar: None,
        cover_image: None,
    }
}

fn registration(id: Uuid, n: u64) -> UserCommand {
    UserCommand::Register {
        user_id: id,
        email: format!("newcomer{n}@mail.example"),
        username: format!("newcomer_{n}"),
        full_name: format!("Newcomer {n}"),
        password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".into(),
        code_hash: format!("{n:064x}"),
        now: Utc::now(),
    }
}

#[tokio::main]
async fn main() {
    let target: u64 = std::env::var("EVENTS").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000_000);
    let appends: u64 = std::env::var("APPENDS").ok().and_then(|v| v.parse().ok()).unwrap_or(400);
    let dir = tempfile::tempdir().unwrap();
    let plain_url = format!("sqlite://{}", dir.path().join("events.db").display());
    let sealed_url = format!("sqlite://{}", dir.path().join("events.sealed.db").display());
    let keys = PrivacyKeys::derive(b"privacy bench secret");

    // The old log.
    let t = Instant::now();
    let plain = domain::store::open(&plain_url).await.unwrap();
    let people = write_plain_log(plain.as_ref(), target).await;
    let (head, _) = plain.head().await.unwrap();
    println!("plain log of {head} events ({people} people) written in {:.1} s", t.elapsed().as_secs_f64());

    // 1. The migration beside the bare read of the old log.
    let (read, bare) = bare_read(plain.as_ref()).await;
    assert_eq!(read, head);
    let key_store = KeyStore::open(&format!("sqlite://{}", dir.path().join("keys.db").display()), keys.kek).await.unwrap();
    domain::privacy::tie(&key_store).await.unwrap();
    let sealed = Arc::new(PrivateStore::new(domain::store::open(&sealed_url).await.unwrap(), Arc::new(key_store), keys.blind));
    let copied = copy_sealed(plain.clone(), &sealed, &plain_url, DEFAULT_BATCH).await.unwrap();
    assert_eq!(copied.events, head);
    let t = Instant::now();
    let report = domain::store::verify::verify(sealed.inner().as_ref(), 10_000).await.unwrap();
    let verified = t.elapsed();
    assert_eq!(report.events, head + 1);
    let (bare_again_read, bare_again) = bare_read(plain.as_ref()).await;
    assert_eq!(bare_again_read, head);
    let bare = bare.min(bare_again);
    let (keys_held, _) = sealed.keys().counts().await.unwrap();

    // 2. Replays, plain and sealed, twice each in turn; the faster of each.
    let mut plain_replay = Duration::MAX;
    let mut sealed_replay = Duration::MAX;
    for round in 0..2 {
        let (took, plain_sum) = replay(plain.clone(), dir.path(), &format!("plain{round}")).await;
        plain_replay = plain_replay.min(took);
        let (took, sealed_sum) = replay(sealed.clone(), dir.path(), &format!("sealed{round}")).await;
        sealed_replay = sealed_replay.min(took);
        assert_eq!(plain_sum, sealed_sum, "the sealed log's read models say what the plain log's say");
        for name in [format!("plain{round}"), format!("sealed{round}")] {
            for entry in std::fs::read_dir(dir.path()).unwrap().flatten() {
                if entry.file_name().to_string_lossy().starts_with(&format!("read-{name}")) {
                    let _ = std::fs::remove_file(entry.path());
                }
            }
        }
    }

    // 3. Appends of accounts events, in turns of 50 per side.
    let (mut plain_edits, mut sealed_edits) = (Duration::ZERO, Duration::ZERO);
    let (mut plain_signups, mut sealed_signups) = (Duration::ZERO, Duration::ZERO);
    let turn = 50;
    for start in (0..appends).step_by(turn as usize) {
        let range = start..(start + turn).min(appends);
        for (store, total) in [(plain.as_ref(), &mut plain_edits), (sealed.as_ref() as &dyn EventStore, &mut sealed_edits)] {
            let t = Instant::now();
            for i in range.clone() {
                run_user(store, person(i % people), profile_edit(i)).await;
            }
            *total += t.elapsed();
        }
        for (side, store, total) in
            [(0u64, plain.as_ref(), &mut plain_signups), (1, sealed.as_ref() as &dyn EventStore, &mut sealed_signups)]
        {
            let t = Instant::now();
            for i in range.clone() {
                let n = side * 1_000_000 + i;
                let id = Uuid::from_u128(0x5e5e_0000_0000_0000_0000_0000_0000_0000 | n as u128);
                run_user(store, id, registration(id, n)).await;
            }
            *total += t.elapsed();
        }
    }

    // 4. Erasing one person of the sealed log.
    let erased = person(people / 2);
    let email = format!("person{}@mail.example", people / 2);
    let t = Instant::now();
    run_user(sealed.as_ref(), erased, UserCommand::Erase { confirmed: true, now: Utc::now() }).await;
    let forgotten = sealed.forget_person(erased, &email).await.unwrap();
    let erase = t.elapsed();
    let after = repo::load(sealed.as_ref(), erased).await.unwrap().user;
    assert!(after.erased && after.email.is_empty() && after.full_name.is_empty(), "erased: nothing personal reads back");
    assert!(forgotten >= 1);

    let per_s = |events: u64, d: Duration| events as f64 / d.as_secs_f64();
    let ms = |d: Duration, n: u64| d.as_secs_f64() * 1_000.0 / n as f64;
    println!("---");
    println!("privacy on SQLite, a log of {head} events ({people} people among them), release:");
    println!(
        "  migration              : {:>10.0} events/s ({:.1} s, {} appends, {keys_held} keys made; verify of the new log {:.1} s)",
        per_s(head, Duration::from_secs_f64(copied.seconds)),
        copied.seconds,
        copied.appends,
        verified.as_secs_f64()
    );
    println!("  bare read of the old log: {:>10.0} events/s ({:.2} s)", per_s(head, bare), bare.as_secs_f64());
    println!("  ratio                  : {:>10.2}", bare.as_secs_f64() / copied.seconds);
    println!("  replay, sealed         : {:>10.0} events/s ({:.2} s)", per_s(head + 1, sealed_replay), sealed_replay.as_secs_f64());
    println!("  replay, plain          : {:>10.0} events/s ({:.2} s)", per_s(head, plain_replay), plain_replay.as_secs_f64());
    println!("  ratio                  : {:>10.2} (goal >= 0.9)", per_s(head + 1, sealed_replay) / per_s(head, plain_replay));
    println!("  profile edit, sealed   : {:>10.3} ms each ({appends})", ms(sealed_edits, appends));
    println!("  profile edit, plain    : {:>10.3} ms each", ms(plain_edits, appends));
    println!("  ratio                  : {:>10.2} (goal >= 0.8)", plain_edits.as_secs_f64() / sealed_edits.as_secs_f64());
    println!("  registration, sealed   : {:>10.3} ms each ({appends}, a new key each)", ms(sealed_signups, appends));
    println!("  registration, plain    : {:>10.3} ms each", ms(plain_signups, appends));
    println!("  ratio                  : {:>10.2}", plain_signups.as_secs_f64() / sealed_signups.as_secs_f64());
    println!("  erase one person       : {:>10.1} ms (goal < 1,000; {forgotten} keys forgotten)", erase.as_secs_f64() * 1_000.0);
}
