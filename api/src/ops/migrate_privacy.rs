//! `migrate-privacy`: a log written before personal fields were sealed, copied into a new log
//! whose personal fields are sealed, and `forget-erased`: the erasures of the log replayed on its
//! key store (after a key store was restored from a backup older than some erasures).
//!
//! The new log starts with a [`LogEvent::LogMigrated`] naming the old log's head hash and event
//! count, then holds every old event in position order, with its id, type, schema version and
//! metadata, through a [`PrivateStore`] over the new log: personal fields sealed with fresh keys
//! of their person, e-mail and username claim streams blinded. Old events are grouped into large
//! multi-stream appends (a stream's events are contiguous within one append, so the order is
//! kept exactly), read ahead of the writes by a task of their own.

use std::{
    collections::BTreeSet,
    path::{Path, PathBuf},
    process::ExitCode,
    sync::Arc,
    time::Instant,
};

use anyhow::{Context, bail};
use domain::{
    EventStore, ExpectedVersion, Metadata, NewEvent, Position, RecordedEvent, StreamAppend,
    accounts::UserEvent,
    log::{LOG_MIGRATION_STREAM, LogEvent, redact_url},
    privacy::{KeyStore, PrivacyKeys, PrivateStore},
};
use uuid::Uuid;

use crate::config::Config;

/// Events read from the old log at a time.
const READ_PAGE: usize = 20_000;
/// Events per append to the new log, at most (one transaction each).
pub const DEFAULT_BATCH: usize = 10_000;

/// What a copy did.
#[derive(Clone, Debug)]
pub struct Copied {
    /// Events copied from the old log (the new log holds one more: the `LogMigrated`).
    pub events: u64,
    /// Appends it took.
    pub appends: u64,
    /// The old log's last position and hash.
    pub old_head: (Position, [u8; 32]),
    /// The new log's.
    pub new_head: (Position, [u8; 32]),
    /// Users whose `AccountErased` was copied (their keys are forgotten after the copy).
    pub erased: Vec<Uuid>,
    /// Seconds from the first read to the last append.
    pub seconds: f64,
}

/// Copies every event of `old` into `new`, an empty log behind a [`PrivateStore`] whose key store
/// is tied to it: first the `LogMigrated` event, then the old events in order, in appends of at
/// most `batch` events. Fails if `old` grows meanwhile (a server still writing to it).
pub async fn copy_sealed(old: Arc<dyn EventStore>, new: &PrivateStore, previous_log: &str, batch: usize) -> anyhow::Result<Copied> {
    let started = Instant::now();
    let old_head = old.head().await.context("reading the old log's head")?;
    let (new_position, _) = new.head().await?;
    if new_position != 0 {
        bail!("the new log already holds {new_position} events: it must start empty");
    }
    let migrated = LogEvent::LogMigrated {
        previous_head_hash: hex::encode(old_head.1),
        previous_event_count: old_head.0,
        previous_log: redact_url(previous_log),
        reason: "personal fields sealed (marketplace migrate-privacy)".into(),
        at: chrono::Utc::now(),
    };
    let metadata = Metadata { actor: Some("operator".into()), ..Metadata::default() };
    new.append(LOG_MIGRATION_STREAM, ExpectedVersion::NoStream, vec![migrated.to_new_event(metadata)?])
        .await
        .context("appending the LogMigrated event")?;

    // The reader runs ahead of the writer: pages of the old log, up to its head as it was.
    let (pages, mut receive) = tokio::sync::mpsc::channel::<Result<Vec<RecordedEvent>, domain::StoreError>>(3);
    let reader = {
        let old = old.clone();
        let last = old_head.0;
        tokio::spawn(async move {
            let mut after = 0;
            while after < last {
                let page = old.read_all(after, READ_PAGE.min((last - after) as usize)).await;
                if let Ok(events) = &page {
                    match events.last() {
                        Some(event) => after = event.position,
                        None => break,
                    }
                }
                let failed = page.is_err();
                if pages.send(page).await.is_err() || failed {
                    break;
                }
            }
        })
    };

    let mut copied = Copied { events: 0, appends: 0, old_head, new_head: (0, [0; 32]), erased: Vec::new(), seconds: 0.0 };
    let mut pending = Batch::default();
    let mut expected_position = 1;
    while let Some(page) = receive.recv().await {
        for event in page.context("reading the old log")? {
            if event.position != expected_position {
                bail!("the old log skips from position {} to {}", expected_position - 1, event.position);
            }
            expected_position += 1;
            if event.event_type == "AccountErased"
                && let Some(user) = event.stream_id.strip_prefix("user-").and_then(|id| Uuid::try_parse(id).ok())
            {
                copied.erased.push(user);
            }
            if pending.must_flush_before(&event.stream_id, batch) {
                copied.appends += 1;
                copied.events += pending.flush(new).await?;
            }
            pending.push(event)?;
        }
    }
    reader.await.context("the old log's reader")?;
    if !pending.writes.is_empty() {
        copied.appends += 1;
        copied.events += pending.flush(new).await?;
    }
    if copied.events != old_head.0 {
        bail!("copied {} events of the old log's {}", copied.events, old_head.0);
    }
    let now = old.head().await?;
    if now != old_head {
        bail!("the old log grew during the copy (from {} to {} events): stop every server writing to it and run again", old_head.0, now.0);
    }
    copied.new_head = new.head().await?;
    copied.seconds = started.elapsed().as_secs_f64();
    Ok(copied)
}

/// The appends being gathered: a stream's events contiguous, so rows keep the old order.
#[derive(Default)]
struct Batch {
    writes: Vec<StreamAppend>,
    streams: std::collections::HashSet<String>,
    events: usize,
}

impl Batch {
    /// Whether `stream` cannot join this batch: it is full, or the stream already has a run
    /// earlier in it (an append writes each stream's events together).
    fn must_flush_before(&self, stream: &str, batch: usize) -> bool {
        if self.events >= batch {
            return true;
        }
        match self.writes.last() {
            Some(last) if last.stream_id == stream => false,
            _ => self.streams.contains(stream),
        }
    }

    fn push(&mut self, event: RecordedEvent) -> anyhow::Result<()> {
        let metadata: Metadata =
            serde_json::from_str(&event.metadata).with_context(|| format!("the metadata of the event at position {}", event.position))?;
        let new = NewEvent {
            event_id: event.event_id,
            event_type: event.event_type,
            schema_version: event.schema_version,
            payload: event.payload,
            metadata,
        };
        self.events += 1;
        match self.writes.last_mut() {
            Some(last) if last.stream_id == event.stream_id => last.events.push(new),
            _ => {
                self.streams.insert(event.stream_id.clone());
                self.writes.push(StreamAppend { stream_id: event.stream_id, expected: ExpectedVersion::Any, events: vec![new] });
            }
        }
        Ok(())
    }

    async fn flush(&mut self, new: &PrivateStore) -> anyhow::Result<u64> {
        let writes = std::mem::take(&mut self.writes);
        self.streams.clear();
        let count = std::mem::take(&mut self.events) as u64;
        new.append_streams(writes).await.context("appending to the new log")?;
        Ok(count)
    }
}

/// What [`forget_erased`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Forgotten {
    /// `AccountErased` events in the log.
    pub erased: u64,
    /// Of those people, how many still had keys (now forgotten).
    pub people: u64,
    /// Keys forgotten.
    pub keys: u64,
}

/// Every `AccountErased` of the log whose person still has keys in the key store: their keys
/// forgotten (the person's own, their codes', their contact messages', sent signed in or from any
/// address the account had). What a key store restored from a backup older than some erasures
/// needs before the server opens it.
pub async fn forget_erased(store: &PrivateStore) -> anyhow::Result<Forgotten> {
    let mut erased = BTreeSet::new();
    let mut after = 0;
    loop {
        let page = store.inner().read_all(after, READ_PAGE).await.context("reading the log")?;
        let Some(last) = page.last() else { break };
        after = last.position;
        for event in page.iter().filter(|e| e.event_type == "AccountErased") {
            if let Some(user) = event.stream_id.strip_prefix("user-").and_then(|id| Uuid::try_parse(id).ok()) {
                erased.insert(user);
            }
        }
    }
    forget_people(store, erased).await
}

/// Forgets the keys of `people` (erased accounts); see [`forget_erased`].
pub async fn forget_people(store: &PrivateStore, people: impl IntoIterator<Item = Uuid>) -> anyhow::Result<Forgotten> {
    let mut done = Forgotten::default();
    for user in people {
        done.erased += 1;
        // The addresses the account had, read while its key still opens them.
        let mut emails = BTreeSet::new();
        let mut version = 0;
        loop {
            let page = store.read_stream(&domain::accounts::user_stream(user), version + 1, 1_000).await?;
            let Some(last) = page.last() else { break };
            version = last.stream_version;
            for recorded in &page {
                match recorded.payload::<UserEvent>() {
                    Ok(UserEvent::UserRegistered { email, .. } | UserEvent::GoogleAccountRegistered { email, .. }) => {
                        emails.insert(email);
                    }
                    Ok(UserEvent::EmailChanged { old_email, new_email, .. }) => {
                        emails.insert(old_email);
                        emails.insert(new_email);
                    }
                    Ok(UserEvent::EmailChangeRequested { new_email, .. }) => {
                        emails.insert(new_email);
                    }
                    _ => {}
                }
            }
        }
        emails.retain(|e| !e.is_empty());
        let mut keys = store.keys().forget(&[user], &[user.simple().to_string()]).await?;
        for email in &emails {
            keys += store.forget_person(user, email).await?;
        }
        if keys > 0 {
            done.people += 1;
            done.keys += keys;
        }
    }
    Ok(done)
}

/// Where the sealed copy goes.
struct Target {
    log_url: String,
    keys_url: String,
    /// The embedded default: SQLite files beside the old log, swapped in once verified.
    swap: Option<Swap>,
}

/// The files of the embedded default's swap.
struct Swap {
    old_log: PathBuf,
    old_keys: PathBuf,
    new_log: PathBuf,
    new_keys: PathBuf,
}

fn sqlite_path(url: &str) -> Option<PathBuf> {
    if url.contains("://") && !url.starts_with("sqlite://") {
        return None;
    }
    let path = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")).unwrap_or(url);
    Some(PathBuf::from(path.split('?').next().unwrap_or(path)))
}

/// A SQLite database's files: itself, its write-ahead log and its shared memory.
fn sqlite_files(path: &Path) -> [PathBuf; 3] {
    let with = |suffix: &str| PathBuf::from(format!("{}{suffix}", path.display()));
    [path.to_owned(), with("-wal"), with("-shm")]
}

fn rename_sqlite(from: &Path, to: &Path) -> anyhow::Result<()> {
    for (from, to) in sqlite_files(from).iter().zip(sqlite_files(to)) {
        if from.exists() {
            std::fs::rename(from, &to).with_context(|| format!("renaming {} to {}", from.display(), to.display()))?;
        }
    }
    Ok(())
}

fn remove_sqlite(path: &Path) -> anyhow::Result<()> {
    for file in sqlite_files(path) {
        match std::fs::remove_file(&file) {
            Ok(()) => {}
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
            Err(err) => return Err(err).with_context(|| format!("removing {}", file.display())),
        }
    }
    Ok(())
}

/// Options of `migrate-privacy`.
#[derive(Clone, Debug)]
pub struct Options {
    /// Write the sealed log there (another Postgres database, or a SQLite file) instead of
    /// beside the old one; nothing is swapped.
    pub to: Option<String>,
    /// The new log's key store (default: the new Postgres database, or `keys.db` beside a new
    /// SQLite log).
    pub keys_to: Option<String>,
    /// Leave `events.sealed.db` and `keys.sealed.db` beside the old log, not swapped in.
    pub no_swap: bool,
    /// Events per append.
    pub batch: usize,
}

/// `migrate-privacy`.
pub async fn run(config: Config, options: Options) -> anyhow::Result<ExitCode> {
    let old_url = config.database_url();
    let keys = crate::log::privacy_keys(&config)?;
    let old = domain::store::open(&old_url).await.context("opening the event log")?;
    let (old_count, _) = old.head().await?;
    if old_count == 0 {
        println!("the event log is empty: nothing to seal (a server seals it from its first event)");
        return Ok(ExitCode::SUCCESS);
    }
    if already_sealed(&config, old.clone(), &keys).await? {
        println!("the event log ({old_count} events) is already sealed with its key store: nothing to do");
        return Ok(ExitCode::SUCCESS);
    }

    let target = match (&options.to, sqlite_path(&old_url)) {
        (Some(to), _) => Target {
            log_url: to.clone(),
            keys_url: options.keys_to.clone().unwrap_or_else(|| domain::privacy::default_keys_url(to)),
            swap: None,
        },
        (None, Some(old_log)) => {
            let dir = old_log.parent().map(Path::to_owned).unwrap_or_default();
            let new_log = dir.join("events.sealed.db");
            let new_keys = dir.join("keys.sealed.db");
            // What an interrupted earlier run left: made again from the start.
            remove_sqlite(&new_log)?;
            remove_sqlite(&new_keys)?;
            let old_keys = sqlite_path(&config.key_store_url()).context("the key store of a SQLite log is a SQLite file")?;
            Target {
                log_url: format!("sqlite://{}", new_log.display()),
                keys_url: format!("sqlite://{}", new_keys.display()),
                swap: (!options.no_swap).then_some(Swap { old_log, old_keys, new_log, new_keys }),
            }
        }
        (None, None) => bail!("a Postgres log is copied into another database: name it with --to postgres://…"),
    };

    let new_inner = domain::store::open(&target.log_url).await.context("opening the new log")?;
    let key_store = KeyStore::open(&target.keys_url, keys.kek).await.context("opening the new key store")?;
    if key_store.counts().await? != (0, 0) {
        bail!("the key store at {} already holds keys: the new log needs a key store of its own", redact_url(&target.keys_url));
    }
    domain::privacy::tie(&key_store).await?;
    let key_store = Arc::new(key_store);
    let new = PrivateStore::new(new_inner, key_store.clone(), keys.blind);

    println!("sealing {old_count} events of {} into {} …", redact_url(&old_url), redact_url(&target.log_url));
    let copied = copy_sealed(old.clone(), &new, &old_url, options.batch.max(1)).await?;
    let forgotten = forget_people(&new, copied.erased.iter().copied()).await?;
    // Codes and reset links long expired, contact messages past their retention: forgotten
    // now, as the retention sweep would.
    let expired = key_store.forget_expired(chrono::Utc::now()).await?;
    let verify_started = Instant::now();
    let report = domain::store::verify::verify(new.inner().as_ref(), 10_000).await.context("verifying the new log")?;
    if report.events != copied.events + 1 || report.last_hash != hex::encode(copied.new_head.1) {
        bail!("the new log verified with {} events, last hash {}: not what was written", report.events, report.last_hash);
    }
    let (held, _) = key_store.counts().await?;
    println!(
        "copied {} events in {:.1} s ({:.0} events/s, {} appends); verified the new log in {:.1} s",
        copied.events,
        copied.seconds,
        copied.events as f64 / copied.seconds,
        copied.appends,
        verify_started.elapsed().as_secs_f64()
    );
    println!("  old log: {} events, head hash {}", copied.old_head.0, hex::encode(copied.old_head.1));
    println!(
        "  new log: {} events (LogMigrated at position 1, then the old events), head hash {}",
        copied.new_head.0,
        hex::encode(copied.new_head.1)
    );
    println!(
        "  keys made: {} (in {}), of which {expired} already past their retention and forgotten",
        held + expired,
        redact_url(&target.keys_url)
    );
    if forgotten.erased > 0 {
        println!("  erased accounts in the old log: {} (their keys forgotten: {})", forgotten.erased, forgotten.keys);
    }

    // Every connection to the files closed before they are renamed.
    key_store.close().await;
    drop(new);
    drop(key_store);
    drop(old);

    let Some(swap) = target.swap else {
        match &options.to {
            Some(_) => println!(
                "next: stop the servers, set DATABASE_URL={} and KEY_STORE_URL={} (the key store: back it up apart from the log), \
                 then `marketplace replay` (or start a server: an empty read database is built on start)",
                redact_url(&target.log_url),
                redact_url(&target.keys_url)
            ),
            None => println!("left beside the old log, not swapped in (--no-swap): {} and {}", target.log_url, target.keys_url),
        }
        return Ok(ExitCode::SUCCESS);
    };
    let before = |path: &Path| PathBuf::from(format!("{}.before-privacy", path.display()));
    rename_sqlite(&swap.old_log, &before(&swap.old_log))?;
    if swap.old_keys.exists() {
        rename_sqlite(&swap.old_keys, &before(&swap.old_keys))?;
    }
    rename_sqlite(&swap.new_log, &swap.old_log)?;
    rename_sqlite(&swap.new_keys, &swap.old_keys)?;
    println!(
        "swapped: {} is the sealed log, {} its key store; the old log is kept as {} (it holds personal data in clear: \
         delete it, and its backups, once the new log is checked)",
        swap.old_log.display(),
        swap.old_keys.display(),
        before(&swap.old_log).display()
    );
    // The read models name positions of the old log: built again from the new one.
    super::replay(config).await
}

/// Whether the configured log is already sealed: its key store tied to it.
async fn already_sealed(config: &Config, old: Arc<dyn EventStore>, keys: &PrivacyKeys) -> anyhow::Result<bool> {
    let keys_url = config.key_store_url();
    if let Some(path) = sqlite_path(&keys_url)
        && !path.exists()
    {
        return Ok(false);
    }
    match domain::privacy::wrap(old, &keys_url, keys).await {
        Ok(store) => {
            store.keys().close().await;
            Ok(true)
        }
        Err(domain::privacy::OpenError::Unsealed(_)) => Ok(false),
        Err(err) => Err(err).context("opening the key store"),
    }
}

/// `forget-erased`.
pub async fn forget_erased_command(config: Config) -> anyhow::Result<ExitCode> {
    let store = crate::log::open(&config).await?;
    let started = Instant::now();
    let done = forget_erased(&store).await?;
    println!(
        "{} erased accounts in the log; {} of them still had keys, now forgotten ({} keys) in {:.1} s",
        done.erased,
        done.people,
        done.keys,
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}
