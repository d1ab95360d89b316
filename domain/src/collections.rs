//! Collections: a user's named, illustrated groups of NFTs they own, and the likes they get.
//!
//! * [`Collection`] is the aggregate of one `collection-<uuid>` stream: [`decide`] holds every
//!   rule, [`evolve`] folds [`CollectionEvent`]s.
//! * The API hands in what only it can know as command fields (the uploaded image's sniffed
//!   type and size, the current owner of each NFT from the read tables, the caller's linked
//!   wallets, the clock), so every rule is tested here without I/O.
//! * [`execute`] loads a stream, decides and appends with the version it loaded, deciding again
//!   when another request moved the stream in between (two likes at once).
//!
//! Membership is a fact of the collection; whether a member is still shown is the read side's
//! call (`projections::queries::collections`): an NFT burned, or no longer owned by a wallet of
//! the collection's creator, is left out of the collection's lists and counts, and shows again
//! if it comes back to the creator.

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{AppendOutcome, EventStore, ExpectedVersion, Metadata, NewEvent, Position, StoreError, command::Retry};

/// Image types a collection accepts (the spec's .png, .jpg and .webp), by sniffed content.
pub const IMAGE_TYPES: [&str; 3] = ["image/png", "image/jpeg", "image/webp"];

/// The stream of one collection.
pub fn collection_stream(collection_id: Uuid) -> String {
    format!("collection-{collection_id}")
}

/// Every fact about one collection, in the `collection-<uuid>` stream.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all_fields = "camelCase")]
pub enum CollectionEvent {
    /// A user created a collection.
    CollectionCreated {
        /// Its id (the stream is `collection-<id>`).
        collection_id: Uuid,
        /// Its creator, the only one who may change it.
        creator_user_id: Uuid,
        /// Title, trimmed.
        title: String,
        /// CID of its image in the file store.
        image: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// Its title and image, as they are after the edit.
    CollectionUpdated {
        /// Title, trimmed.
        title: String,
        /// Image CID.
        image: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// The creator deleted it: it accepts nothing more.
    CollectionDeleted {
        /// When.
        at: DateTime<Utc>,
    },
    /// An NFT the creator owned was put in it.
    NftAddedToCollection {
        /// `{chain}-{token}`.
        nft_id: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// An NFT was taken out of it.
    NftRemovedFromCollection {
        /// `{chain}-{token}`.
        nft_id: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// A user liked it.
    CollectionLiked {
        /// Who.
        user_id: Uuid,
        /// When.
        at: DateTime<Utc>,
    },
    /// A user took their like back.
    CollectionUnliked {
        /// Who.
        user_id: Uuid,
        /// When.
        at: DateTime<Utc>,
    },
}

impl CollectionEvent {
    /// Version of every payload shape here.
    pub const SCHEMA_VERSION: u32 = 1;

    /// Every type name, for readers that dispatch on them.
    pub const TYPES: &'static [&'static str] = &[
        "CollectionCreated",
        "CollectionUpdated",
        "CollectionDeleted",
        "NftAddedToCollection",
        "NftRemovedFromCollection",
        "CollectionLiked",
        "CollectionUnliked",
    ];

    /// The past-tense type name stored in the envelope.
    pub fn event_type(&self) -> &'static str {
        match self {
            Self::CollectionCreated { .. } => "CollectionCreated",
            Self::CollectionUpdated { .. } => "CollectionUpdated",
            Self::CollectionDeleted { .. } => "CollectionDeleted",
            Self::NftAddedToCollection { .. } => "NftAddedToCollection",
            Self::NftRemovedFromCollection { .. } => "NftRemovedFromCollection",
            Self::CollectionLiked { .. } => "CollectionLiked",
            Self::CollectionUnliked { .. } => "CollectionUnliked",
        }
    }

    /// This event as a [`crate::NewEvent`].
    pub fn to_new_event(&self, metadata: Metadata) -> Result<NewEvent, StoreError> {
        NewEvent::new(self.event_type(), Self::SCHEMA_VERSION, self, metadata)
    }
}

/// Why a collection command is refused. The messages are the ones the UI shows.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CollectionError {
    /// Creating without an image (checked before the title, as the UI does).
    #[error("Image is required")]
    ImageRequired,
    /// A title empty after trimming.
    #[error("Title is required")]
    TitleRequired,
    /// The file is not a PNG, JPEG or WebP image by its content (whatever its name says).
    #[error("Image must be a .png, .jpg or .webp file")]
    UnsupportedImage,
    /// The image is over the configured size.
    #[error("Image is larger than {max} bytes")]
    ImageTooLarge {
        /// The limit.
        max: usize,
    },
    /// No such collection, or it was deleted.
    #[error("Collection not found")]
    NotFound,
    /// The stream has a collection already (an id reused).
    #[error("Collection already exists")]
    AlreadyExists,
    /// Someone other than its creator tried to change it.
    #[error("Only the creator of this collection can change it")]
    NotCreator,
    /// Adding an empty list.
    #[error("Choose at least one NFT to add")]
    NoNfts,
    /// The NFT does not exist (or was burned).
    #[error("NFT {0} not found")]
    UnknownNft(String),
    /// The NFT is not owned by any of the creator's linked wallets.
    #[error("You do not own NFT {0}")]
    NftNotOwned(String),
    /// The NFT is in the collection already.
    #[error("NFT {0} is already in this collection")]
    AlreadyInCollection(String),
    /// Removing an NFT that is not in the collection.
    #[error("NFT {0} is not in this collection")]
    NotInCollection(String),
}

/// What the events of one collection add up to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Collection {
    /// Its id; `None` until created.
    pub id: Option<Uuid>,
    /// Who created it.
    pub creator: Option<Uuid>,
    /// Title.
    pub title: String,
    /// Image CID.
    pub image: String,
    /// Member NFTs, in the order added.
    pub nfts: Vec<String>,
    /// Users who like it.
    pub likers: BTreeSet<Uuid>,
    /// Deleted: it accepts nothing.
    pub deleted: bool,
}

impl Collection {
    /// Whether it exists and is not deleted.
    pub fn is_live(&self) -> bool {
        self.id.is_some() && !self.deleted
    }
}

/// An uploaded image as the API saw it: its CID, the type its bytes show, and its size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// CID of the bytes (stored only once the command is accepted).
    pub cid: String,
    /// The MIME type sniffed from the content (`None`: not an image at all).
    pub content_type: Option<String>,
    /// Size in bytes.
    pub size: usize,
    /// The largest size accepted (configuration).
    pub max_size: usize,
}

/// An NFT to add, with its current owner as the read tables show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NftToAdd {
    /// `{chain}-{token}`.
    pub nft_id: String,
    /// Its owner's address (lower-case); `None` when it does not exist or was burned.
    pub owner: Option<String>,
}

/// Everything a user can ask of a collection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CollectionCommand {
    /// Create it.
    Create {
        /// The new id.
        collection_id: Uuid,
        /// The signed-in user.
        by: Uuid,
        /// As typed (trimmed here).
        title: String,
        /// The uploaded image, if one was sent.
        image: Option<Image>,
        /// The clock.
        now: DateTime<Utc>,
    },
    /// Change its title and/or image.
    Update {
        /// The signed-in user.
        by: Uuid,
        /// A new title, if sent.
        title: Option<String>,
        /// A new image, if sent.
        image: Option<Image>,
        /// The clock.
        now: DateTime<Utc>,
    },
    /// Delete it.
    Delete {
        /// The signed-in user.
        by: Uuid,
        /// The clock.
        now: DateTime<Utc>,
    },
    /// Put NFTs in it.
    AddNfts {
        /// The signed-in user.
        by: Uuid,
        /// The user's linked wallets (lower-case).
        wallets: Vec<String>,
        /// The NFTs, with their owners.
        nfts: Vec<NftToAdd>,
        /// The clock.
        now: DateTime<Utc>,
    },
    /// Take one NFT out.
    RemoveNft {
        /// The signed-in user.
        by: Uuid,
        /// `{chain}-{token}`.
        nft_id: String,
        /// The clock.
        now: DateTime<Utc>,
    },
    /// Like it, or take the like back if the user likes it already.
    ToggleLike {
        /// The signed-in user.
        by: Uuid,
        /// The clock.
        now: DateTime<Utc>,
    },
}

/// The image rules: a PNG, JPEG or WebP by content, within the size limit.
fn check_image(image: &Image) -> Result<(), CollectionError> {
    if !image.content_type.as_deref().is_some_and(|t| IMAGE_TYPES.contains(&t)) {
        return Err(CollectionError::UnsupportedImage);
    }
    if image.size > image.max_size {
        return Err(CollectionError::ImageTooLarge { max: image.max_size });
    }
    Ok(())
}

/// The title rule: not empty once trimmed. Returns it trimmed.
fn check_title(title: &str) -> Result<String, CollectionError> {
    let title = title.trim();
    if title.is_empty() { Err(CollectionError::TitleRequired) } else { Ok(title.to_owned()) }
}

/// A live collection that `by` created, or why not.
fn owned_by(state: &Collection, by: Uuid) -> Result<(), CollectionError> {
    if !state.is_live() {
        return Err(CollectionError::NotFound);
    }
    if state.creator != Some(by) {
        return Err(CollectionError::NotCreator);
    }
    Ok(())
}

/// Every rule of collections: which events `command` leads to from `state`, or why none.
pub fn decide(state: &Collection, command: CollectionCommand) -> Result<Vec<CollectionEvent>, CollectionError> {
    match command {
        CollectionCommand::Create { collection_id, by, title, image, now } => {
            if state.id.is_some() {
                return Err(CollectionError::AlreadyExists);
            }
            // The UI's order: the image first, then the title.
            let image = image.ok_or(CollectionError::ImageRequired)?;
            check_image(&image)?;
            let title = check_title(&title)?;
            Ok(vec![CollectionEvent::CollectionCreated { collection_id, creator_user_id: by, title, image: image.cid, at: now }])
        }
        CollectionCommand::Update { by, title, image, now } => {
            owned_by(state, by)?;
            let title = match title {
                Some(title) => check_title(&title)?,
                None => state.title.clone(),
            };
            let image = match image {
                Some(image) => {
                    check_image(&image)?;
                    image.cid
                }
                None => state.image.clone(),
            };
            if title == state.title && image == state.image {
                return Ok(vec![]);
            }
            Ok(vec![CollectionEvent::CollectionUpdated { title, image, at: now }])
        }
        CollectionCommand::Delete { by, now } => {
            owned_by(state, by)?;
            Ok(vec![CollectionEvent::CollectionDeleted { at: now }])
        }
        CollectionCommand::AddNfts { by, wallets, nfts, now } => {
            owned_by(state, by)?;
            if nfts.is_empty() {
                return Err(CollectionError::NoNfts);
            }
            let mut events = Vec::new();
            let mut seen = BTreeSet::new();
            for nft in nfts {
                // The same NFT twice in one request is added once.
                if !seen.insert(nft.nft_id.clone()) {
                    continue;
                }
                let owner = nft.owner.ok_or_else(|| CollectionError::UnknownNft(nft.nft_id.clone()))?;
                if !wallets.iter().any(|w| w.eq_ignore_ascii_case(&owner)) {
                    return Err(CollectionError::NftNotOwned(nft.nft_id));
                }
                if state.nfts.contains(&nft.nft_id) {
                    return Err(CollectionError::AlreadyInCollection(nft.nft_id));
                }
                events.push(CollectionEvent::NftAddedToCollection { nft_id: nft.nft_id, at: now });
            }
            Ok(events)
        }
        CollectionCommand::RemoveNft { by, nft_id, now } => {
            owned_by(state, by)?;
            if !state.nfts.contains(&nft_id) {
                return Err(CollectionError::NotInCollection(nft_id));
            }
            Ok(vec![CollectionEvent::NftRemovedFromCollection { nft_id, at: now }])
        }
        CollectionCommand::ToggleLike { by, now } => {
            if !state.is_live() {
                return Err(CollectionError::NotFound);
            }
            if state.likers.contains(&by) {
                Ok(vec![CollectionEvent::CollectionUnliked { user_id: by, at: now }])
            } else {
                Ok(vec![CollectionEvent::CollectionLiked { user_id: by, at: now }])
            }
        }
    }
}

/// Folds one event (no rules here).
pub fn evolve(mut state: Collection, event: &CollectionEvent) -> Collection {
    match event {
        CollectionEvent::CollectionCreated { collection_id, creator_user_id, title, image, .. } => {
            state.id = Some(*collection_id);
            state.creator = Some(*creator_user_id);
            state.title.clone_from(title);
            state.image.clone_from(image);
        }
        CollectionEvent::CollectionUpdated { title, image, .. } => {
            state.title.clone_from(title);
            state.image.clone_from(image);
        }
        CollectionEvent::CollectionDeleted { .. } => state.deleted = true,
        CollectionEvent::NftAddedToCollection { nft_id, .. } => {
            if !state.nfts.contains(nft_id) {
                state.nfts.push(nft_id.clone());
            }
        }
        CollectionEvent::NftRemovedFromCollection { nft_id, .. } => state.nfts.retain(|n| n != nft_id),
        CollectionEvent::CollectionLiked { user_id, .. } => {
            state.likers.insert(*user_id);
        }
        CollectionEvent::CollectionUnliked { user_id, .. } => {
            state.likers.remove(user_id);
        }
    }
    state
}

/// The state after `events`.
pub fn fold<'a>(events: impl IntoIterator<Item = &'a CollectionEvent>) -> Collection {
    events.into_iter().fold(Collection::default(), evolve)
}

/// Why a collection command did not go through.
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    /// A rule refused it.
    #[error(transparent)]
    Rejected(#[from] CollectionError),
    /// The event store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What a command did.
#[derive(Clone, Debug)]
pub struct Executed {
    /// The events appended (empty when nothing changed).
    pub events: Vec<CollectionEvent>,
    /// The collection after them.
    pub collection: Collection,
    /// The last position written, to wait for the read models (`None`: nothing written).
    pub position: Option<Position>,
}

/// Reads and folds a collection's stream: the state and the version to append at.
pub async fn load(store: &dyn EventStore, collection_id: Uuid) -> Result<(Collection, u64), StoreError> {
    let stream = collection_stream(collection_id);
    let (mut state, mut version) = (Collection::default(), 0);
    loop {
        let page = store.read_stream(&stream, version + 1, 1_000).await?;
        let Some(last) = page.last() else { return Ok((state, version)) };
        version = last.stream_version;
        for recorded in &page {
            state = evolve(state, &recorded.payload::<CollectionEvent>()?);
        }
    }
}

/// Loads the collection, decides, and appends at the version loaded; decides again when another
/// request appended to the stream in between, until [`crate::command::DEADLINE`].
pub async fn execute<F>(store: &dyn EventStore, collection_id: Uuid, metadata: &Metadata, mut decide: F) -> Result<Executed, CommandError>
where
    F: FnMut(&Collection) -> Result<Vec<CollectionEvent>, CollectionError>,
{
    let stream = collection_stream(collection_id);
    let mut retry = Retry::default();
    loop {
        let (state, version) = load(store, collection_id).await?;
        let events = decide(&state)?;
        if events.is_empty() {
            return Ok(Executed { events, collection: state, position: None });
        }
        let expected = if version == 0 { ExpectedVersion::NoStream } else { ExpectedVersion::Exact(version) };
        let new_events = events.iter().map(|e| e.to_new_event(metadata.clone())).collect::<Result<Vec<_>, _>>()?;
        match store.append(&stream, expected, new_events).await {
            Ok(AppendOutcome { last_position, .. }) => {
                let collection = events.iter().fold(state, evolve);
                return Ok(Executed { events, collection, position: Some(last_position) });
            }
            Err(err) if retry.again(&err).await => {}
            Err(err) => return Err(err.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t0() -> DateTime<Utc> {
        "2026-01-01T00:00:00Z".parse().unwrap()
    }

    fn id() -> Uuid {
        Uuid::from_u128(0xc011)
    }

    fn alice() -> Uuid {
        Uuid::from_u128(0xa11ce)
    }

    fn bob() -> Uuid {
        Uuid::from_u128(0xb0b)
    }

    fn png(size: usize) -> Image {
        Image { cid: "bafypng".into(), content_type: Some("image/png".into()), size, max_size: 1_000 }
    }

    /// Given these events, when this command, then these events or this error.
    fn given(events: &[CollectionEvent]) -> Given {
        Given(fold(events))
    }

    struct Given(Collection);

    impl Given {
        fn when(self, command: CollectionCommand) -> Result<Vec<CollectionEvent>, CollectionError> {
            decide(&self.0, command)
        }
    }

    fn created() -> Vec<CollectionEvent> {
        vec![CollectionEvent::CollectionCreated {
            collection_id: id(),
            creator_user_id: alice(),
            title: "Birds".into(),
            image: "bafypng".into(),
            at: t0(),
        }]
    }

    fn create(title: &str, image: Option<Image>) -> CollectionCommand {
        CollectionCommand::Create { collection_id: id(), by: alice(), title: title.into(), image, now: t0() }
    }

    fn nft(id: &str, owner: Option<&str>) -> NftToAdd {
        NftToAdd { nft_id: id.into(), owner: owner.map(Into::into) }
    }

    fn add(by: Uuid, nfts: Vec<NftToAdd>) -> CollectionCommand {
        CollectionCommand::AddNfts { by, wallets: vec!["0xa11ce".into()], nfts, now: t0() }
    }

    fn with_nft() -> Vec<CollectionEvent> {
        let mut history = created();
        history.push(CollectionEvent::NftAddedToCollection { nft_id: "80001-1".into(), at: t0() });
        history
    }

    #[test]
    fn creating_records_the_trimmed_title_and_the_image() {
        assert_eq!(given(&[]).when(create("  Birds ", Some(png(10)))), Ok(created()));
    }

    #[test]
    fn the_image_is_required_and_checked_before_the_title() {
        assert_eq!(given(&[]).when(create("", None)), Err(CollectionError::ImageRequired));
        assert_eq!(given(&[]).when(create("   ", Some(png(10)))), Err(CollectionError::TitleRequired));
    }

    #[test]
    fn only_png_jpeg_and_webp_by_content_within_the_size_limit_are_accepted() {
        for kind in ["image/png", "image/jpeg", "image/webp"] {
            let image = Image { content_type: Some(kind.into()), ..png(10) };
            assert!(given(&[]).when(create("Birds", Some(image))).is_ok(), "{kind}");
        }
        for kind in [Some("image/svg+xml"), Some("image/gif"), None] {
            let image = Image { content_type: kind.map(Into::into), ..png(10) };
            assert_eq!(given(&[]).when(create("Birds", Some(image))), Err(CollectionError::UnsupportedImage), "{kind:?}");
        }
        assert_eq!(given(&[]).when(create("Birds", Some(png(1_001)))), Err(CollectionError::ImageTooLarge { max: 1_000 }));
        assert!(given(&[]).when(create("Birds", Some(png(1_000)))).is_ok());
    }

    #[test]
    fn a_collection_is_created_once() {
        assert_eq!(given(&created()).when(create("Again", Some(png(1)))), Err(CollectionError::AlreadyExists));
    }

    #[test]
    fn only_the_creator_edits_deletes_adds_or_removes() {
        let update = CollectionCommand::Update { by: bob(), title: Some("Mine".into()), image: None, now: t0() };
        assert_eq!(given(&created()).when(update), Err(CollectionError::NotCreator));
        assert_eq!(given(&created()).when(CollectionCommand::Delete { by: bob(), now: t0() }), Err(CollectionError::NotCreator));
        assert_eq!(given(&created()).when(add(bob(), vec![nft("80001-1", Some("0xa11ce"))])), Err(CollectionError::NotCreator));
        let remove = CollectionCommand::RemoveNft { by: bob(), nft_id: "80001-1".into(), now: t0() };
        assert_eq!(given(&with_nft()).when(remove), Err(CollectionError::NotCreator));
    }

    #[test]
    fn an_update_keeps_what_it_does_not_send_and_checks_what_it_does() {
        let title_only = CollectionCommand::Update { by: alice(), title: Some(" Sea birds ".into()), image: None, now: t0() };
        assert_eq!(
            given(&created()).when(title_only),
            Ok(vec![CollectionEvent::CollectionUpdated { title: "Sea birds".into(), image: "bafypng".into(), at: t0() }])
        );
        let blank = CollectionCommand::Update { by: alice(), title: Some(" ".into()), image: None, now: t0() };
        assert_eq!(given(&created()).when(blank), Err(CollectionError::TitleRequired));
        let html = Image { content_type: None, ..png(10) };
        let bad_image = CollectionCommand::Update { by: alice(), title: None, image: Some(html), now: t0() };
        assert_eq!(given(&created()).when(bad_image), Err(CollectionError::UnsupportedImage));
        let same = CollectionCommand::Update { by: alice(), title: Some("Birds".into()), image: None, now: t0() };
        assert_eq!(given(&created()).when(same), Ok(vec![]), "nothing changed, nothing recorded");
    }

    #[test]
    fn only_nfts_the_creator_owns_are_added_once_each() {
        let ok = given(&created()).when(add(alice(), vec![nft("80001-1", Some("0xA11CE")), nft("80001-1", Some("0xa11ce"))]));
        assert_eq!(ok, Ok(vec![CollectionEvent::NftAddedToCollection { nft_id: "80001-1".into(), at: t0() }]), "one event for a repeat");
        assert_eq!(
            given(&created()).when(add(alice(), vec![nft("80001-2", Some("0xb0b"))])),
            Err(CollectionError::NftNotOwned("80001-2".into()))
        );
        assert_eq!(given(&created()).when(add(alice(), vec![nft("80001-3", None)])), Err(CollectionError::UnknownNft("80001-3".into())));
        assert_eq!(
            given(&with_nft()).when(add(alice(), vec![nft("80001-1", Some("0xa11ce"))])),
            Err(CollectionError::AlreadyInCollection("80001-1".into()))
        );
        assert_eq!(given(&created()).when(add(alice(), vec![])), Err(CollectionError::NoNfts));
        let partly = given(&created()).when(add(alice(), vec![nft("80001-1", Some("0xa11ce")), nft("80001-2", Some("0xb0b"))]));
        assert_eq!(partly, Err(CollectionError::NftNotOwned("80001-2".into())), "all or nothing");
    }

    #[test]
    fn removing_needs_the_nft_to_be_in_the_collection() {
        let remove = |nft: &str| CollectionCommand::RemoveNft { by: alice(), nft_id: nft.into(), now: t0() };
        assert_eq!(
            given(&with_nft()).when(remove("80001-1")),
            Ok(vec![CollectionEvent::NftRemovedFromCollection { nft_id: "80001-1".into(), at: t0() }])
        );
        assert_eq!(given(&created()).when(remove("80001-1")), Err(CollectionError::NotInCollection("80001-1".into())));
    }

    #[test]
    fn a_like_toggles() {
        let like = || CollectionCommand::ToggleLike { by: bob(), now: t0() };
        let liked = given(&created()).when(like()).unwrap();
        assert_eq!(liked, vec![CollectionEvent::CollectionLiked { user_id: bob(), at: t0() }]);
        let mut history = created();
        history.extend(liked);
        assert_eq!(fold(&history).likers.len(), 1);
        let unliked = given(&history).when(like()).unwrap();
        assert_eq!(unliked, vec![CollectionEvent::CollectionUnliked { user_id: bob(), at: t0() }]);
        history.extend(unliked);
        assert!(fold(&history).likers.is_empty());
    }

    #[test]
    fn a_deleted_or_unknown_collection_accepts_nothing() {
        let mut deleted = with_nft();
        deleted.extend(given(&deleted).when(CollectionCommand::Delete { by: alice(), now: t0() }).unwrap());
        let commands = [
            CollectionCommand::Update { by: alice(), title: Some("x".into()), image: None, now: t0() },
            CollectionCommand::Delete { by: alice(), now: t0() },
            add(alice(), vec![nft("80001-2", Some("0xa11ce"))]),
            CollectionCommand::RemoveNft { by: alice(), nft_id: "80001-1".into(), now: t0() },
            CollectionCommand::ToggleLike { by: bob(), now: t0() },
        ];
        for command in commands {
            assert_eq!(given(&deleted).when(command.clone()), Err(CollectionError::NotFound), "deleted: {command:?}");
            assert_eq!(given(&[]).when(command.clone()), Err(CollectionError::NotFound), "unknown: {command:?}");
        }
    }

    #[test]
    fn events_serialize_with_their_type_and_camel_case_fields() {
        let event = CollectionEvent::NftAddedToCollection { nft_id: "80001-1".into(), at: t0() };
        let json = serde_json::to_value(&event).unwrap();
        assert_eq!(json["type"], "NftAddedToCollection");
        assert_eq!(json["nftId"], "80001-1");
        assert_eq!(serde_json::from_value::<CollectionEvent>(json).unwrap(), event);
        for name in CollectionEvent::TYPES {
            assert!(!name.is_empty());
        }
    }

    #[tokio::test]
    async fn execute_appends_what_decide_returns_and_reads_it_back() {
        let dir = tempfile::tempdir().unwrap();
        let store = crate::store::open(&format!("sqlite://{}", dir.path().join("events.db").display())).await.unwrap();
        let metadata = Metadata::default();
        let created = execute(store.as_ref(), id(), &metadata, |s| decide(s, create("Birds", Some(png(1))))).await.unwrap();
        assert!(created.position.is_some());
        for _ in 0..3 {
            execute(store.as_ref(), id(), &metadata, |s| decide(s, CollectionCommand::ToggleLike { by: bob(), now: t0() })).await.unwrap();
        }
        let (state, version) = load(store.as_ref(), id()).await.unwrap();
        assert_eq!(version, 4);
        assert_eq!(state.likers, BTreeSet::from([bob()]), "liked, unliked, liked");
        let refused = execute(store.as_ref(), id(), &metadata, |s| decide(s, CollectionCommand::Delete { by: bob(), now: t0() })).await;
        assert!(matches!(refused, Err(CommandError::Rejected(CollectionError::NotCreator))));
    }
}
