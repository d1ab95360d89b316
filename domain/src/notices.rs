//! What a user has done with their notices: read them, and chosen which kinds they get.
//!
//! The notices themselves (outbid, sold, an offer received, an item hidden…) are not events of
//! their own: they are a read model of the chain's facts and the moderators' decisions,
//! addressed to the wallets or users involved (see `projections/src/notices.rs`). What is a fact of the user is that they read one, read all up
//! to a point, or changed their settings: the `notices-{userId}` stream. None of these decides
//! anything from earlier state (reading twice is reading; the last settings win), so they are
//! appended without an expected version and never race.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{EventStore, ExpectedVersion, Metadata, NewEvent, Position, StoreError, StreamAppend};

/// The stream of one user's notice reads and settings.
pub fn notices_stream(user_id: Uuid) -> String {
    format!("notices-{user_id}")
}

/// The kinds of notice, as the API and the read model name them.
pub const KINDS: &[&str] = &[
    "OUTBID",
    "BID_RECEIVED",
    "SOLD",
    "BOUGHT",
    "BID_ACCEPTED",
    "BID_REJECTED",
    "AUCTION_ENDING",
    "AUCTION_ENDED",
    "OFFER_RECEIVED",
    "OFFER_ACCEPTED",
    "OFFER_REJECTED",
    "SALE_HELD",
    "SALE_RELEASED",
    "HIDDEN",
    "RESTORED",
    "REPORT_DECIDED",
    "APPEAL_DECLINED",
];

/// Facts about a user's notices, past tense.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all_fields = "camelCase")]
pub enum NoticeEvent {
    /// The user read one notice (the log position it was derived from).
    NoticeRead {
        /// Who.
        user_id: Uuid,
        /// The notice's position.
        position: u64,
        /// When.
        at: DateTime<Utc>,
    },
    /// The user read every notice up to a position (the newest they were shown).
    NoticesReadUpTo {
        /// Who.
        user_id: Uuid,
        /// Every notice at or before it is read.
        position: u64,
        /// When.
        at: DateTime<Utc>,
    },
    /// The user chose which kinds they are told of, and which by e-mail too.
    NoticeSettingsChanged {
        /// Who.
        user_id: Uuid,
        /// Kinds not shown at all.
        muted: Vec<String>,
        /// Kinds also sent by e-mail.
        email: Vec<String>,
        /// When.
        at: DateTime<Utc>,
    },
}

impl NoticeEvent {
    /// The payload schema version.
    pub const SCHEMA_VERSION: u32 = 1;

    /// Every type name, for readers that dispatch on them.
    pub const TYPES: &'static [&'static str] = &["NoticeRead", "NoticesReadUpTo", "NoticeSettingsChanged"];

    /// The past-tense type name stored in the envelope.
    pub fn event_type(&self) -> &'static str {
        match self {
            Self::NoticeRead { .. } => "NoticeRead",
            Self::NoticesReadUpTo { .. } => "NoticesReadUpTo",
            Self::NoticeSettingsChanged { .. } => "NoticeSettingsChanged",
        }
    }

    /// The user it is about.
    pub fn user_id(&self) -> Uuid {
        match self {
            Self::NoticeRead { user_id, .. } | Self::NoticesReadUpTo { user_id, .. } | Self::NoticeSettingsChanged { user_id, .. } => {
                *user_id
            }
        }
    }
}

/// Why notice settings are refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoticeError {
    /// A kind that does not exist.
    #[error("Unknown notice kind {0}; the kinds are {kinds}", kinds = KINDS.join(", "))]
    UnknownKind(String),
}

/// The settings event for `muted` and `email`, each kind known (sorted, once).
pub fn settings(user_id: Uuid, muted: &[String], email: &[String], at: DateTime<Utc>) -> Result<NoticeEvent, NoticeError> {
    let checked = |kinds: &[String]| -> Result<Vec<String>, NoticeError> {
        let mut kinds = kinds.to_vec();
        if let Some(unknown) = kinds.iter().find(|kind| !KINDS.contains(&kind.as_str())) {
            return Err(NoticeError::UnknownKind(unknown.clone()));
        }
        kinds.sort();
        kinds.dedup();
        Ok(kinds)
    };
    Ok(NoticeEvent::NoticeSettingsChanged { user_id, muted: checked(muted)?, email: checked(email)?, at })
}

/// Appends `event` to its user's stream: the position, to wait for the read models.
pub async fn record(store: &dyn EventStore, event: &NoticeEvent, metadata: Metadata) -> Result<Position, StoreError> {
    let append = StreamAppend {
        stream_id: notices_stream(event.user_id()),
        expected: ExpectedVersion::Any,
        events: vec![NewEvent::new(event.event_type(), NoticeEvent::SCHEMA_VERSION, event, metadata)?],
    };
    Ok(store.append_streams(vec![append]).await?.last_position)
}

/// What the clock says of an auction, once each: it ends within the hour (its bidders are told),
/// or its time is up unsettled (its owner and top bidder are told). Time passing is no chain
/// fact, so the elected process appends these when it sees them due (`api/src/auction_clock.rs`);
/// each has a stream of its own, appended with "no stream" expected, so it is told once however
/// many processes look.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all_fields = "camelCase")]
pub enum AuctionClockEvent {
    /// The auction ends within the hour.
    AuctionEndingSoon {
        /// `{chain}-{token}`.
        nft_id: String,
        /// The auction.
        auction_id: String,
        /// Its end (Unix seconds) when seen.
        end_time: i64,
    },
    /// The auction's time is up and nobody settled it yet.
    AuctionTimeUp {
        /// `{chain}-{token}`.
        nft_id: String,
        /// The auction.
        auction_id: String,
        /// Its end (Unix seconds).
        end_time: i64,
    },
}

impl AuctionClockEvent {
    /// Every type name.
    pub const TYPES: &'static [&'static str] = &["AuctionEndingSoon", "AuctionTimeUp"];

    /// The past-tense type name stored in the envelope.
    pub fn event_type(&self) -> &'static str {
        match self {
            Self::AuctionEndingSoon { .. } => "AuctionEndingSoon",
            Self::AuctionTimeUp { .. } => "AuctionTimeUp",
        }
    }

    /// Its stream: one per auction and kind.
    pub fn stream_id(&self) -> String {
        match self {
            Self::AuctionEndingSoon { nft_id, auction_id, .. } => format!("auction-ending-{nft_id}-{auction_id}"),
            Self::AuctionTimeUp { nft_id, auction_id, .. } => format!("auction-ended-{nft_id}-{auction_id}"),
        }
    }

    /// Appends it unless it was told already: whether this call appended it.
    pub async fn record(&self, store: &dyn EventStore) -> Result<bool, StoreError> {
        let append = StreamAppend {
            stream_id: self.stream_id(),
            expected: ExpectedVersion::NoStream,
            events: vec![NewEvent::new(self.event_type(), 1, self, Metadata::default())?],
        };
        match store.append_streams(vec![append]).await {
            Ok(_) => Ok(true),
            Err(StoreError::WrongExpectedVersion { .. }) => Ok(false),
            Err(err) => Err(err),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_take_known_kinds_once_and_sorted() {
        let at = DateTime::from_timestamp(1_767_225_600, 0).unwrap();
        let user = Uuid::from_u128(1);
        let muted = vec!["SOLD".to_owned(), "OUTBID".to_owned(), "SOLD".to_owned()];
        let event = settings(user, &muted, &[], at).unwrap();
        assert_eq!(
            event,
            NoticeEvent::NoticeSettingsChanged { user_id: user, muted: vec!["OUTBID".into(), "SOLD".into()], email: vec![], at }
        );
        assert_eq!(settings(user, &[], &["PARTY".to_owned()], at), Err(NoticeError::UnknownKind("PARTY".into())));
    }

    #[test]
    fn events_keep_their_shape() {
        let at = DateTime::from_timestamp(1_767_225_600, 0).unwrap();
        let event = NoticeEvent::NoticesReadUpTo { user_id: Uuid::from_u128(1), position: 42, at };
        let json = serde_json::to_value(&event).unwrap();
        assert_eq!(json["type"], "NoticesReadUpTo");
        assert_eq!(json["position"], 42);
        assert_eq!(serde_json::from_value::<NoticeEvent>(json).unwrap(), event);
    }
}
