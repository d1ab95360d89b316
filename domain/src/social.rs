//! Likes and bookmarks: what a signed-in user thinks of NFTs.
//!
//! Each user's likes and bookmarks are one aggregate, the `social-{userId}` stream: a toggle is
//! decided from that stream alone (liked already: the toggle unlikes), so two taps racing on
//! two servers cannot both like (the second append meets a moved stream version and is decided
//! again). Whether the NFT exists is a fact of the read side, handed in with the command: the
//! rule refusing an unknown NFT is still here, in [`decide`].
//!
//! These are off-chain facts: a reorg that retracts a mint does not retract the likes; they
//! count again when the token is minted canonically (as the catalog's details do).

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{AppendOutcome, EventStore, ExpectedVersion, Metadata, NewEvent, Position, StoreError, StreamAppend, command::Retry};

/// The stream of one user's likes and bookmarks.
pub fn social_stream(user_id: Uuid) -> String {
    format!("social-{user_id}")
}

/// Facts about likes and bookmarks, past tense.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all_fields = "camelCase")]
pub enum SocialEvent {
    /// The user liked an NFT.
    NftLiked {
        /// Who.
        user_id: Uuid,
        /// `{chain}-{token}`.
        nft_id: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// The user took a like back.
    NftUnliked {
        /// Who.
        user_id: Uuid,
        /// `{chain}-{token}`.
        nft_id: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// The user bookmarked an NFT.
    NftBookmarked {
        /// Who.
        user_id: Uuid,
        /// `{chain}-{token}`.
        nft_id: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// The user removed a bookmark.
    NftUnbookmarked {
        /// Who.
        user_id: Uuid,
        /// `{chain}-{token}`.
        nft_id: String,
        /// When.
        at: DateTime<Utc>,
    },
}

impl SocialEvent {
    /// The payload schema version.
    pub const SCHEMA_VERSION: u32 = 1;

    /// Every type name, for readers that dispatch on them.
    pub const TYPES: &'static [&'static str] = &["NftLiked", "NftUnliked", "NftBookmarked", "NftUnbookmarked"];

    /// The past-tense type name stored in the envelope.
    pub fn event_type(&self) -> &'static str {
        match self {
            Self::NftLiked { .. } => "NftLiked",
            Self::NftUnliked { .. } => "NftUnliked",
            Self::NftBookmarked { .. } => "NftBookmarked",
            Self::NftUnbookmarked { .. } => "NftUnbookmarked",
        }
    }

    /// The user it is about.
    pub fn user_id(&self) -> Uuid {
        match self {
            Self::NftLiked { user_id, .. }
            | Self::NftUnliked { user_id, .. }
            | Self::NftBookmarked { user_id, .. }
            | Self::NftUnbookmarked { user_id, .. } => *user_id,
        }
    }

    /// This event as a [`NewEvent`].
    pub fn to_new_event(&self, metadata: Metadata) -> Result<NewEvent, StoreError> {
        NewEvent::new(self.event_type(), Self::SCHEMA_VERSION, self, metadata)
    }
}

/// What one user's stream adds up to: the NFTs they like and those they bookmarked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Social {
    /// Liked NFT ids.
    pub liked: BTreeSet<String>,
    /// Bookmarked NFT ids.
    pub bookmarked: BTreeSet<String>,
}

/// What a signed-in user can ask.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SocialCommand {
    /// Like the NFT, or take the like back if it is liked.
    ToggleLike {
        /// Who asks (the stream's user).
        user_id: Uuid,
        /// `{chain}-{token}`.
        nft_id: String,
        /// Whether the read side knows the NFT (minted, not burned).
        nft_known: bool,
        /// The clock.
        now: DateTime<Utc>,
    },
    /// Bookmark the NFT, or remove the bookmark if it is there.
    ToggleBookmark {
        /// Who asks (the stream's user).
        user_id: Uuid,
        /// `{chain}-{token}`.
        nft_id: String,
        /// Whether the read side knows the NFT (minted, not burned).
        nft_known: bool,
        /// The clock.
        now: DateTime<Utc>,
    },
}

/// Why a social command is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SocialError {
    /// No such NFT (never minted, burned, or retracted by a reorg).
    #[error("No NFT with id {0}")]
    UnknownNft(String),
}

/// The rules: an unknown NFT is refused; a toggle likes what is not liked and unlikes what is
/// (bookmarks alike). Exactly one event per command.
pub fn decide(state: &Social, command: SocialCommand) -> Result<Vec<SocialEvent>, SocialError> {
    match command {
        SocialCommand::ToggleLike { user_id, nft_id, nft_known, now: at } => {
            // Taking a like back stays possible on a token that has gone since (burned).
            let liked = state.liked.contains(&nft_id);
            if !liked && !nft_known {
                return Err(SocialError::UnknownNft(nft_id));
            }
            Ok(vec![if liked { SocialEvent::NftUnliked { user_id, nft_id, at } } else { SocialEvent::NftLiked { user_id, nft_id, at } }])
        }
        SocialCommand::ToggleBookmark { user_id, nft_id, nft_known, now: at } => {
            let bookmarked = state.bookmarked.contains(&nft_id);
            if !bookmarked && !nft_known {
                return Err(SocialError::UnknownNft(nft_id));
            }
            Ok(vec![if bookmarked {
                SocialEvent::NftUnbookmarked { user_id, nft_id, at }
            } else {
                SocialEvent::NftBookmarked { user_id, nft_id, at }
            }])
        }
    }
}

/// Folds one event (no rules).
pub fn evolve(mut state: Social, event: &SocialEvent) -> Social {
    match event {
        SocialEvent::NftLiked { nft_id, .. } => {
            state.liked.insert(nft_id.clone());
        }
        SocialEvent::NftUnliked { nft_id, .. } => {
            state.liked.remove(nft_id);
        }
        SocialEvent::NftBookmarked { nft_id, .. } => {
            state.bookmarked.insert(nft_id.clone());
        }
        SocialEvent::NftUnbookmarked { nft_id, .. } => {
            state.bookmarked.remove(nft_id);
        }
    }
    state
}

/// Why a social command did not go through.
#[derive(Debug, thiserror::Error)]
pub enum SocialCommandError {
    /// A rule refused it.
    #[error(transparent)]
    Rejected(#[from] SocialError),
    /// The event store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What a command did.
#[derive(Clone, Debug)]
pub struct Executed {
    /// The user's likes and bookmarks after it.
    pub state: Social,
    /// The position of the event appended, to wait for the read models.
    pub position: Position,
}

/// Reads and folds a user's stream: the state and the version to append at.
pub async fn load(store: &dyn EventStore, user_id: Uuid) -> Result<(Social, u64), StoreError> {
    let stream = social_stream(user_id);
    let (mut state, mut version) = (Social::default(), 0);
    loop {
        let page = store.read_stream(&stream, version + 1, 1_000).await?;
        let Some(last) = page.last() else { return Ok((state, version)) };
        version = last.stream_version;
        for recorded in &page {
            state = evolve(state, &recorded.payload::<SocialEvent>()?);
        }
    }
}

/// Loads the user's stream, decides `command`, appends at the version loaded; decides again
/// when another request appended in between (a double tap: the second toggle sees the first),
/// until [`crate::command::DEADLINE`].
pub async fn execute(store: &dyn EventStore, command: SocialCommand, metadata: &Metadata) -> Result<Executed, SocialCommandError> {
    let user_id = match &command {
        SocialCommand::ToggleLike { user_id, .. } | SocialCommand::ToggleBookmark { user_id, .. } => *user_id,
    };
    let stream = social_stream(user_id);
    let mut retry = Retry::default();
    loop {
        let (state, version) = load(store, user_id).await?;
        let events = decide(&state, command.clone())?;
        let append = StreamAppend {
            stream_id: stream.clone(),
            expected: if version == 0 { ExpectedVersion::NoStream } else { ExpectedVersion::Exact(version) },
            events: events.iter().map(|e| e.to_new_event(metadata.clone())).collect::<Result<_, _>>()?,
        };
        match store.append_streams(vec![append]).await {
            Ok(AppendOutcome { last_position, .. }) => {
                return Ok(Executed { state: events.iter().fold(state, evolve), position: last_position });
            }
            Err(err) if retry.again(&err).await => {}
            Err(err) => return Err(err.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user() -> Uuid {
        Uuid::from_u128(7)
    }

    fn t0() -> DateTime<Utc> {
        DateTime::from_timestamp(1_767_225_600, 0).unwrap()
    }

    struct Given(Social);

    fn given(events: &[SocialEvent]) -> Given {
        Given(events.iter().fold(Social::default(), evolve))
    }

    impl Given {
        fn when(self, command: SocialCommand) -> Result<Vec<SocialEvent>, SocialError> {
            decide(&self.0, command)
        }
    }

    fn like(nft: &str, known: bool) -> SocialCommand {
        SocialCommand::ToggleLike { user_id: user(), nft_id: nft.into(), nft_known: known, now: t0() }
    }

    fn bookmark(nft: &str, known: bool) -> SocialCommand {
        SocialCommand::ToggleBookmark { user_id: user(), nft_id: nft.into(), nft_known: known, now: t0() }
    }

    fn liked(nft: &str) -> SocialEvent {
        SocialEvent::NftLiked { user_id: user(), nft_id: nft.into(), at: t0() }
    }

    fn bookmarked(nft: &str) -> SocialEvent {
        SocialEvent::NftBookmarked { user_id: user(), nft_id: nft.into(), at: t0() }
    }

    #[test]
    fn a_first_toggle_likes_and_a_second_takes_the_like_back() {
        assert_eq!(given(&[]).when(like("1-1", true)), Ok(vec![liked("1-1")]));
        assert_eq!(
            given(&[liked("1-1")]).when(like("1-1", true)),
            Ok(vec![SocialEvent::NftUnliked { user_id: user(), nft_id: "1-1".into(), at: t0() }])
        );
        let unliked = SocialEvent::NftUnliked { user_id: user(), nft_id: "1-1".into(), at: t0() };
        assert_eq!(given(&[liked("1-1"), unliked]).when(like("1-1", true)), Ok(vec![liked("1-1")]), "liked again");
    }

    #[test]
    fn a_like_of_one_nft_leaves_the_others_alone() {
        assert_eq!(given(&[liked("1-1")]).when(like("1-2", true)), Ok(vec![liked("1-2")]));
    }

    #[test]
    fn bookmarks_toggle_on_their_own_and_do_not_touch_likes() {
        assert_eq!(given(&[liked("1-1")]).when(bookmark("1-1", true)), Ok(vec![bookmarked("1-1")]));
        assert_eq!(
            given(&[bookmarked("1-1")]).when(bookmark("1-1", true)),
            Ok(vec![SocialEvent::NftUnbookmarked { user_id: user(), nft_id: "1-1".into(), at: t0() }])
        );
        let state = given(&[liked("1-1"), bookmarked("1-2")]).0;
        assert_eq!(state.liked.iter().collect::<Vec<_>>(), ["1-1"]);
        assert_eq!(state.bookmarked.iter().collect::<Vec<_>>(), ["1-2"]);
    }

    #[test]
    fn an_unknown_nft_cannot_be_liked_or_bookmarked() {
        assert_eq!(given(&[]).when(like("1-9", false)), Err(SocialError::UnknownNft("1-9".into())));
        assert_eq!(given(&[]).when(bookmark("1-9", false)), Err(SocialError::UnknownNft("1-9".into())));
    }

    #[test]
    fn a_like_or_bookmark_of_an_nft_gone_since_can_still_be_taken_back() {
        assert!(matches!(given(&[liked("1-1")]).when(like("1-1", false)).unwrap()[..], [SocialEvent::NftUnliked { .. }]));
        assert!(matches!(given(&[bookmarked("1-1")]).when(bookmark("1-1", false)).unwrap()[..], [SocialEvent::NftUnbookmarked { .. }]));
    }

    #[test]
    fn events_keep_their_type_names_and_camel_case_fields() {
        let json = serde_json::to_value(liked("1-1")).unwrap();
        assert_eq!(json["type"], "NftLiked");
        assert_eq!(json["nftId"], "1-1");
        assert_eq!(json["userId"], user().to_string());
        for event in [liked("x"), bookmarked("x")] {
            assert!(SocialEvent::TYPES.contains(&event.event_type()));
        }
    }
}
