//! Which fields of which events are personal, and whose key seals each.
//!
//! The table is the whole policy: a field not listed here is stored as the domain wrote it.
//! Wallet addresses, token ids, prices and every chain fact are public by nature and stay clear.

/// Whose key seals a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KeyOf {
    /// The person's own key (subject: the user id of the `user-<uuid>` stream, or the event's
    /// `userId` for claim events). Forgotten when the account is erased.
    Person,
    /// A key of this event alone, owned by the person, forgotten at the event's `expiresAt`
    /// (verification codes and reset tokens: useless once expired, so kept no longer).
    Expiring,
    /// The contact message's own key (subject: its `messageId`), forgotten after
    /// [`super::CONTACT_RETENTION`] or with its sender's account.
    Message,
}

/// What a sealed field reads as once its key is forgotten: the empty value of its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Blank {
    /// `""` (a `String` field).
    Text,
    /// `null` (an `Option<String>` field).
    Null,
}

/// One personal field.
pub(crate) type Field = (&'static str, KeyOf, Blank);

use Blank::{Null, Text};
use KeyOf::{Expiring, Message, Person};

/// The personal fields of an event type (empty: none).
pub(crate) fn personal(event_type: &str) -> &'static [Field] {
    match event_type {
        "UserRegistered" => &[("email", Person, Text), ("username", Person, Text), ("fullName", Person, Text)],
        "GoogleAccountRegistered" => {
            &[("email", Person, Text), ("username", Person, Text), ("fullName", Person, Text), ("googleSubject", Person, Text)]
        }
        "LoggedInWithGoogle" => &[("googleSubject", Person, Text)],
        "VerificationCodeIssued" => &[("codeHash", Expiring, Text)],
        "PasswordResetRequested" => &[("tokenHash", Expiring, Text)],
        "EmailChangeRequested" => &[("newEmail", Person, Text), ("codeHash", Expiring, Text)],
        "EmailChanged" => &[("oldEmail", Person, Text), ("newEmail", Person, Text)],
        "ProfileUpdated" => &[
            ("fullName", Person, Text),
            ("username", Person, Text),
            ("bio", Person, Text),
            ("mobileNumber", Person, Text),
            ("avatar", Person, Null),
            ("coverImage", Person, Null),
        ],
        // Only e-mail and username claims: a wallet's claim names a public address.
        "ValueClaimed" | "ValueReleased" => &[("value", Person, Text)],
        "ContactMessageReceived" => {
            &[("name", Message, Text), ("email", Message, Text), ("subject", Message, Text), ("message", Message, Text)]
        }
        _ => &[],
    }
}

/// The claim kinds whose values and stream names are personal.
pub(crate) fn personal_claim(kind: &str) -> bool {
    matches!(kind, "EMAIL" | "USERNAME")
}

/// Every event type with personal fields, for the tests that walk them all.
pub const SEALED_TYPES: &[&str] = &[
    "UserRegistered",
    "GoogleAccountRegistered",
    "LoggedInWithGoogle",
    "VerificationCodeIssued",
    "PasswordResetRequested",
    "EmailChangeRequested",
    "EmailChanged",
    "ProfileUpdated",
    "ValueClaimed",
    "ValueReleased",
    "ContactMessageReceived",
];
