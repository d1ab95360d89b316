//! Accounts: users, their sign-in secrets, profiles and wallets, and contact messages.
//!
//! * [`User`] is the aggregate of one `user-<uuid>` stream: [`decide`] holds every rule,
//!   [`evolve`] folds [`UserEvent`]s.
//! * Uniqueness of usernames, e-mails and wallet addresses is kept by claim streams
//!   (`username-<lower>`, `email-<lower>`, `wallet-<lower>`) that [`repo::execute`] appends in the
//!   same atomic write as the user's events, with expected versions ([`ClaimEvent`]).
//! * Contact messages are facts of their own ([`ContactEvent`], `contact-<uuid>` streams).

mod error;
mod events;
pub mod repo;
mod user;
pub mod validate;

pub use error::AccountError;
pub use events::{ApiKeyScope, AuthProvider, ClaimEvent, ClaimKind, CodePurpose, ContactEvent, UserEvent, WalletProvider, user_stream};
pub use user::{
    ApiKey, CODE_ATTEMPTS, CODE_TTL, ClaimChange, MAX_API_KEY_NAME, MAX_API_KEYS, MAX_WEBHOOK_TOPICS, MAX_WEBHOOK_URL, MAX_WEBHOOKS,
    NONCE_TTL, PendingCode, RESET_TTL, User, UserCommand, Wallet, Webhook, claim_changes, decide, evolve, fold, rejection,
    webhook_notice_kinds, webhook_topics, webhook_url,
};
