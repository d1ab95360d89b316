//! The facts of the accounts side, past tense, with the values readers need.
//!
//! Secrets never appear in clear: passwords as argon2id PHC strings, verification codes and reset
//! tokens as HMAC-SHA256 hex digests (keyed by a server secret the API holds), so the log can be
//! read, replayed and audited without exposing anything a person could sign in with.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// How an account signs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum AuthProvider {
    /// E-mail and password.
    Email,
    /// A Google ID token; such accounts cannot change their password or e-mail.
    Google,
}

impl AuthProvider {
    /// The name the API and read tables use (`EMAIL`, `GOOGLE`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Email => "EMAIL",
            Self::Google => "GOOGLE",
        }
    }
}

/// What a verification code proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum CodePurpose {
    /// Ownership of the account's e-mail address (sign-up, login while unverified).
    Account,
    /// Ownership of the new address of an e-mail change.
    EmailChange,
}

/// The wallet kinds the UI offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WalletProvider {
    /// MetaMask.
    Metamask,
    /// Coinbase Wallet.
    Coinbase,
    /// Anything else (WalletConnect, the dev wallet).
    Other,
}

impl WalletProvider {
    /// The name the API uses.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Metamask => "Metamask",
            Self::Coinbase => "Coinbase",
            Self::Other => "Other",
        }
    }

    /// Parses the API's name (exact, as the UI sends it).
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "Metamask" => Some(Self::Metamask),
            "Coinbase" => Some(Self::Coinbase),
            "Other" => Some(Self::Other),
            _ => None,
        }
    }
}

/// What an API key may do on its person's behalf (besides reading public data, which every key
/// may). A key never manages the account itself: password, e-mail, wallets, profile or keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ApiKeyScope {
    /// Read the person's own data: profile, bids, offers, bookmarks, collections.
    Read,
    /// Act in the market: the record calls (mint, purchase, bids, offers, cart, sale changes,
    /// burn), collections, likes and bookmarks.
    Trades,
    /// Read notifications, mark them read and change their settings.
    Notifications,
    /// Manage webhook endpoints: register, list, update, delete, redeliver, test.
    Webhooks,
}

impl ApiKeyScope {
    /// Every scope, in the order the API lists them.
    pub const ALL: [Self; 4] = [Self::Read, Self::Trades, Self::Notifications, Self::Webhooks];

    /// The name the API uses.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Read => "read",
            Self::Trades => "trades",
            Self::Notifications => "notifications",
            Self::Webhooks => "webhooks",
        }
    }

    /// Parses the API's name (exact, lower case).
    pub fn parse(value: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|scope| scope.as_str() == value)
    }
}

/// Every fact about one user, in the `user-<uuid>` stream.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all_fields = "camelCase")]
pub enum UserEvent {
    /// Signed up with e-mail and password (not verified yet).
    UserRegistered {
        /// The new user's id.
        user_id: Uuid,
        /// Lower-cased, trimmed e-mail.
        email: String,
        /// As typed (uniqueness is case-insensitive).
        username: String,
        /// Display name.
        full_name: String,
        /// argon2id PHC string.
        password_hash: String,
        /// Always [`AuthProvider::Email`].
        auth_provider: AuthProvider,
        /// When.
        at: DateTime<Utc>,
    },
    /// Signed up through Google; the address is verified by Google.
    GoogleAccountRegistered {
        /// The new user's id.
        user_id: Uuid,
        /// Lower-cased e-mail from the ID token.
        email: String,
        /// Derived from the e-mail, made unique.
        username: String,
        /// The token's name (or the username).
        full_name: String,
        /// The token's `sub`: Google's stable id for the person.
        google_subject: String,
        /// Always [`AuthProvider::Google`].
        auth_provider: AuthProvider,
        /// When.
        at: DateTime<Utc>,
    },
    /// A code was sent; only its keyed hash is kept. Issuing one replaces any earlier code.
    VerificationCodeIssued {
        /// What it proves.
        purpose: CodePurpose,
        /// HMAC-SHA256 of the code (hex).
        code_hash: String,
        /// After this it no longer verifies.
        expires_at: DateTime<Utc>,
        /// Wrong tries allowed before it is dead.
        attempts_allowed: u32,
    },
    /// A wrong code was tried; the attempt counts against the pending code.
    VerificationFailed {
        /// Which pending code.
        purpose: CodePurpose,
        /// Wrong tries still allowed (0: the code is dead).
        attempts_left: u32,
    },
    /// The e-mail address was proven (code, reset link or Google).
    AccountVerified {
        /// When.
        at: DateTime<Utc>,
    },
    /// Signed in through Google (an existing account, found by e-mail).
    LoggedInWithGoogle {
        /// The token's `sub`.
        google_subject: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// The password was changed by its owner.
    PasswordChanged {
        /// argon2id PHC string.
        password_hash: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// A reset link was mailed; only the token's keyed hash is kept.
    PasswordResetRequested {
        /// HMAC-SHA256 of the token (hex).
        token_hash: String,
        /// After this the link is dead.
        expires_at: DateTime<Utc>,
    },
    /// The password was set through a reset link (which is now used up).
    PasswordReset {
        /// argon2id PHC string.
        password_hash: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// A change of e-mail was asked for; a code went to the new address.
    EmailChangeRequested {
        /// Lower-cased new address.
        new_email: String,
        /// HMAC-SHA256 of the code (hex).
        code_hash: String,
        /// After this the code no longer verifies.
        expires_at: DateTime<Utc>,
        /// Wrong tries allowed.
        attempts_allowed: u32,
    },
    /// The new address was proven and replaced the old one.
    EmailChanged {
        /// The address before.
        old_email: String,
        /// The address now.
        new_email: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// The profile's editable fields, as they are after the edit.
    ProfileUpdated {
        /// Display name.
        full_name: String,
        /// Username (possibly unchanged).
        username: String,
        /// About text.
        bio: String,
        /// Phone number as typed.
        mobile_number: String,
        /// CID of the avatar in the file store, if any.
        avatar: Option<String>,
        /// CID of the cover image, if any.
        cover_image: Option<String>,
    },
    /// A nonce for a Sign-In-with-Ethereum message was handed out (single use).
    WalletNonceIssued {
        /// The nonce (not secret: it goes into a message the wallet signs).
        nonce: String,
        /// After this it is refused.
        expires_at: DateTime<Utc>,
    },
    /// A wallet was proven to belong to the user and linked; the nonce is used up.
    WalletLinked {
        /// Which wallet software.
        provider: WalletProvider,
        /// Lower-case 0x address.
        address: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// A wallet was unlinked.
    WalletUnlinked {
        /// Lower-case 0x address.
        address: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// An API key was made. The key itself was shown once to its person and is kept nowhere:
    /// only its SHA-256, which is enough to recognise it (it is random and long, so the hash
    /// cannot be reversed by guessing).
    ApiKeyCreated {
        /// The key's id.
        key_id: Uuid,
        /// The name its person gave it.
        name: String,
        /// What it may do, sorted, without repeats.
        scopes: Vec<ApiKeyScope>,
        /// SHA-256 of the whole key (hex).
        key_hash: String,
        /// Its first characters (`mk_live_` and four more), to tell keys apart in lists.
        prefix: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// An API key was revoked: from now on it is refused.
    ApiKeyRevoked {
        /// The key's id.
        key_id: Uuid,
        /// When.
        at: DateTime<Utc>,
    },
    /// A webhook endpoint was registered. Its signing secret is not here: the server derives it
    /// from its own secret and `secret_salt` (random, useless without the server's secret), so
    /// the log never holds a secret that signs.
    WebhookEndpointRegistered {
        /// The endpoint's id.
        endpoint_id: Uuid,
        /// Where deliveries are posted (`https://`, or `http://` where the operator allows it).
        url: String,
        /// The stream's topics it wants (`market`, `nft:{id}`, `collection:{id}`), sorted.
        topics: Vec<String>,
        /// The notice kinds of its person it wants, sorted.
        notice_kinds: Vec<String>,
        /// 24 random bytes (base64) the signing secret is derived from with the server's secret.
        secret_salt: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// A webhook endpoint's URL, topics or notice kinds changed (its secret did not).
    WebhookEndpointUpdated {
        /// The endpoint's id.
        endpoint_id: Uuid,
        /// Where deliveries are posted from now on.
        url: String,
        /// The topics it wants from now on, sorted.
        topics: Vec<String>,
        /// The notice kinds it wants from now on, sorted.
        notice_kinds: Vec<String>,
        /// When.
        at: DateTime<Utc>,
    },
    /// A webhook endpoint was deleted: nothing more is delivered to it.
    WebhookEndpointDeleted {
        /// The endpoint's id.
        endpoint_id: Uuid,
        /// When.
        at: DateTime<Utc>,
    },
    /// The person deleted their account. Their key is forgotten right after this event is
    /// written, so every personal field sealed before it reads blank from then on; the events
    /// themselves, their bytes and hashes, stay as they were.
    AccountErased {
        /// When.
        at: DateTime<Utc>,
    },
}

impl UserEvent {
    /// Version of every payload shape here (bump it and register an upcaster on a change).
    pub const SCHEMA_VERSION: u32 = 1;

    /// Every type name, for readers that dispatch on them.
    pub const TYPES: &'static [&'static str] = &[
        "UserRegistered",
        "GoogleAccountRegistered",
        "VerificationCodeIssued",
        "VerificationFailed",
        "AccountVerified",
        "LoggedInWithGoogle",
        "PasswordChanged",
        "PasswordResetRequested",
        "PasswordReset",
        "EmailChangeRequested",
        "EmailChanged",
        "ProfileUpdated",
        "WalletNonceIssued",
        "WalletLinked",
        "WalletUnlinked",
        "ApiKeyCreated",
        "ApiKeyRevoked",
        "WebhookEndpointRegistered",
        "WebhookEndpointUpdated",
        "WebhookEndpointDeleted",
        "AccountErased",
    ];

    /// The past-tense type name stored in the envelope.
    pub fn event_type(&self) -> &'static str {
        match self {
            Self::UserRegistered { .. } => "UserRegistered",
            Self::GoogleAccountRegistered { .. } => "GoogleAccountRegistered",
            Self::VerificationCodeIssued { .. } => "VerificationCodeIssued",
            Self::VerificationFailed { .. } => "VerificationFailed",
            Self::AccountVerified { .. } => "AccountVerified",
            Self::LoggedInWithGoogle { .. } => "LoggedInWithGoogle",
            Self::PasswordChanged { .. } => "PasswordChanged",
            Self::PasswordResetRequested { .. } => "PasswordResetRequested",
            Self::PasswordReset { .. } => "PasswordReset",
            Self::EmailChangeRequested { .. } => "EmailChangeRequested",
            Self::EmailChanged { .. } => "EmailChanged",
            Self::ProfileUpdated { .. } => "ProfileUpdated",
            Self::WalletNonceIssued { .. } => "WalletNonceIssued",
            Self::WalletLinked { .. } => "WalletLinked",
            Self::WalletUnlinked { .. } => "WalletUnlinked",
            Self::ApiKeyCreated { .. } => "ApiKeyCreated",
            Self::ApiKeyRevoked { .. } => "ApiKeyRevoked",
            Self::WebhookEndpointRegistered { .. } => "WebhookEndpointRegistered",
            Self::WebhookEndpointUpdated { .. } => "WebhookEndpointUpdated",
            Self::WebhookEndpointDeleted { .. } => "WebhookEndpointDeleted",
            Self::AccountErased { .. } => "AccountErased",
        }
    }

    /// This event as a [`crate::NewEvent`].
    pub fn to_new_event(&self, metadata: crate::Metadata) -> Result<crate::NewEvent, crate::StoreError> {
        crate::NewEvent::new(self.event_type(), Self::SCHEMA_VERSION, self, metadata)
    }
}

/// The stream of one user.
pub fn user_stream(user_id: Uuid) -> String {
    format!("user-{user_id}")
}

/// What a uniqueness stream guards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ClaimKind {
    /// A username (case-insensitive).
    Username,
    /// An e-mail address (case-insensitive).
    Email,
    /// A wallet address (case-insensitive hex).
    Wallet,
}

impl ClaimKind {
    /// The stream guarding `value`: `username-<lower>`, `email-<lower>`, `wallet-<lower>`.
    pub fn stream(self, value: &str) -> String {
        let prefix = match self {
            Self::Username => "username",
            Self::Email => "email",
            Self::Wallet => "wallet",
        };
        format!("{prefix}-{}", value.trim().to_lowercase())
    }
}

/// The facts of a uniqueness stream: a value taken by one user, and given back. Appended in the
/// same atomic write as the user's own event, with an expected version, so two users can never
/// hold the same value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all_fields = "camelCase")]
pub enum ClaimEvent {
    /// `value` now belongs to `user_id`.
    ValueClaimed {
        /// What kind of value.
        kind: ClaimKind,
        /// The value as the user gave it.
        value: String,
        /// Its holder.
        user_id: Uuid,
    },
    /// `user_id` gave `value` up; anyone may claim it again.
    ValueReleased {
        /// What kind of value.
        kind: ClaimKind,
        /// The value.
        value: String,
        /// Its former holder.
        user_id: Uuid,
    },
}

impl ClaimEvent {
    /// Payload schema version.
    pub const SCHEMA_VERSION: u32 = 1;

    /// The past-tense type name.
    pub fn event_type(&self) -> &'static str {
        match self {
            Self::ValueClaimed { .. } => "ValueClaimed",
            Self::ValueReleased { .. } => "ValueReleased",
        }
    }

    /// The stream it belongs to.
    pub fn stream_id(&self) -> String {
        match self {
            Self::ValueClaimed { kind, value, .. } | Self::ValueReleased { kind, value, .. } => kind.stream(value),
        }
    }

    /// This event as a [`crate::NewEvent`].
    pub fn to_new_event(&self, metadata: crate::Metadata) -> Result<crate::NewEvent, crate::StoreError> {
        crate::NewEvent::new(self.event_type(), Self::SCHEMA_VERSION, self, metadata)
    }
}

/// A message sent through the contact form, in its own `contact-<uuid>` stream.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all_fields = "camelCase")]
pub enum ContactEvent {
    /// Received and kept for the team to answer.
    ContactMessageReceived {
        /// The message's id (its stream is `contact-<id>`).
        message_id: Uuid,
        /// Sender's name.
        name: String,
        /// Sender's address (lower-cased).
        email: String,
        /// Subject line.
        subject: String,
        /// The text.
        message: String,
        /// The signed-in sender, if any.
        user_id: Option<Uuid>,
        /// When.
        at: DateTime<Utc>,
    },
}

impl ContactEvent {
    /// Payload schema version.
    pub const SCHEMA_VERSION: u32 = 1;

    /// The past-tense type name.
    pub fn event_type(&self) -> &'static str {
        match self {
            Self::ContactMessageReceived { .. } => "ContactMessageReceived",
        }
    }

    /// The stream it belongs to.
    pub fn stream_id(&self) -> String {
        match self {
            Self::ContactMessageReceived { message_id, .. } => format!("contact-{message_id}"),
        }
    }

    /// This event as a [`crate::NewEvent`].
    pub fn to_new_event(&self, metadata: crate::Metadata) -> Result<crate::NewEvent, crate::StoreError> {
        crate::NewEvent::new(self.event_type(), Self::SCHEMA_VERSION, self, metadata)
    }
}
