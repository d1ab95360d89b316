//! Loading users from their streams and appending their events together with the uniqueness
//! claims those events imply, in one atomic append.
//!
//! The user stream is appended with the version it was loaded at; each claim stream with the
//! version it was read at (`NoStream` for a value never claimed). Two writers racing for the same
//! username, e-mail or wallet therefore cannot both succeed: the loser's whole append fails with a
//! version conflict on the claim stream, and deciding again finds the value taken.

use uuid::Uuid;

use super::{
    AccountError, ClaimEvent, ClaimKind, User, UserEvent,
    user::{claim_changes, evolve},
    user_stream,
};
use crate::{EventStore, ExpectedVersion, Metadata, NewEvent, Position, StoreError, StreamAppend, command::Retry};

/// Why a command did not go through.
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    /// A rule refused it (or a value it needs is taken).
    #[error(transparent)]
    Rejected(#[from] AccountError),
    /// The event store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A user as loaded, with the stream version to append at.
#[derive(Clone, Debug, Default)]
pub struct Loaded {
    /// The folded state.
    pub user: User,
    /// The stream's version (0: no stream).
    pub version: u64,
}

/// What a command did.
#[derive(Clone, Debug)]
pub struct Executed {
    /// The user's events appended (empty when the command changed nothing).
    pub events: Vec<UserEvent>,
    /// The user after them.
    pub user: User,
    /// The last position written, to wait for the read models (`None`: nothing written).
    pub position: Option<Position>,
}

/// Reads and folds a user's stream.
pub async fn load(store: &dyn EventStore, user_id: Uuid) -> Result<Loaded, StoreError> {
    let stream = user_stream(user_id);
    let mut loaded = Loaded::default();
    loop {
        let page = store.read_stream(&stream, loaded.version + 1, 1_000).await?;
        let Some(last) = page.last() else { return Ok(loaded) };
        loaded.version = last.stream_version;
        for recorded in &page {
            let event: UserEvent = recorded.payload()?;
            loaded.user = evolve(std::mem::take(&mut loaded.user), &event);
        }
    }
}

/// Who holds a value now, and the version of its claim stream.
pub async fn holder(store: &dyn EventStore, kind: ClaimKind, value: &str) -> Result<(Option<Uuid>, u64), StoreError> {
    let stream = kind.stream(value);
    let mut holder = None;
    let mut version = 0;
    loop {
        let page = store.read_stream(&stream, version + 1, 1_000).await?;
        let Some(last) = page.last() else { return Ok((holder, version)) };
        version = last.stream_version;
        for recorded in &page {
            holder = match recorded.payload::<ClaimEvent>()? {
                ClaimEvent::ValueClaimed { user_id, .. } => Some(user_id),
                ClaimEvent::ValueReleased { .. } => None,
            };
        }
    }
}

/// The user holding `value`, if any (e-mail and username look-ups for login, reset, check).
pub async fn find(store: &dyn EventStore, kind: ClaimKind, value: &str) -> Result<Option<Uuid>, StoreError> {
    Ok(holder(store, kind, value).await?.0)
}

fn taken(kind: ClaimKind) -> AccountError {
    match kind {
        ClaimKind::Username => AccountError::UsernameTaken,
        ClaimKind::Email => AccountError::EmailTaken,
        ClaimKind::Wallet => AccountError::WalletTaken,
    }
}

/// Loads the user, decides, and appends the events with their claims; decides again when
/// another request moved the user's stream or a claim stream in between (the next decision
/// finds a value someone else claimed taken), until [`crate::command::DEADLINE`].
pub async fn execute<F>(store: &dyn EventStore, user_id: Uuid, metadata: &Metadata, mut decide: F) -> Result<Executed, CommandError>
where
    F: FnMut(&User) -> Result<Vec<UserEvent>, AccountError>,
{
    let mut retry = Retry::default();
    loop {
        let loaded = load(store, user_id).await?;
        let events = decide(&loaded.user)?;
        match append(store, user_id, &loaded, &events, metadata).await {
            Ok(position) => {
                let user = events.iter().fold(loaded.user, evolve);
                return Ok(Executed { events, user, position });
            }
            Err(CommandError::Store(err)) if retry.again(&err).await => {}
            Err(err) => return Err(err),
        }
    }
}

/// Appends `events` to the user's stream at `loaded.version`, with every claim they imply.
async fn append(
    store: &dyn EventStore,
    user_id: Uuid,
    loaded: &Loaded,
    events: &[UserEvent],
    metadata: &Metadata,
) -> Result<Option<Position>, CommandError> {
    if events.is_empty() {
        return Ok(None);
    }
    let mut writes = vec![StreamAppend {
        stream_id: user_stream(user_id),
        expected: ExpectedVersion::Exact(loaded.version),
        events: events.iter().map(|e| e.to_new_event(metadata.clone())).collect::<Result<Vec<NewEvent>, _>>()?,
    }];
    for change in claim_changes(&loaded.user, events) {
        let (current, version) = holder(store, change.kind, &change.value).await?;
        let event = match (change.take, current) {
            (true, Some(other)) if other != user_id => return Err(taken(change.kind).into()),
            (true, Some(_)) | (false, None) => continue,
            (false, Some(other)) if other != user_id => continue,
            (true, None) => ClaimEvent::ValueClaimed { kind: change.kind, value: change.value.clone(), user_id },
            (false, Some(_)) => ClaimEvent::ValueReleased { kind: change.kind, value: change.value.clone(), user_id },
        };
        let expected = if version == 0 { ExpectedVersion::NoStream } else { ExpectedVersion::Exact(version) };
        writes.push(StreamAppend { stream_id: event.stream_id(), expected, events: vec![event.to_new_event(metadata.clone())?] });
    }
    Ok(Some(store.append_streams(writes).await?.last_position))
}
