//! The `User` aggregate: one person's account in the `user-<uuid>` stream.
//!
//! [`decide`] holds every rule; [`evolve`] only folds. Both are pure: the API hashes passwords,
//! codes and tokens, reads the clock and checks signatures, and hands the results in as command
//! fields, so every rule here is tested without I/O.

use chrono::{DateTime, Duration, Utc};
use uuid::Uuid;

use super::{
    AccountError, ApiKeyScope, AuthProvider, ClaimKind, CodePurpose, UserEvent, WalletProvider,
    validate::{self, MAX_BIO, MAX_FULL_NAME},
};

/// How long a verification code (sign-up or e-mail change) stays valid.
pub const CODE_TTL: Duration = Duration::minutes(15);
/// Wrong tries a code allows before it is dead.
pub const CODE_ATTEMPTS: u32 = 5;
/// How long a password reset link stays valid.
pub const RESET_TTL: Duration = Duration::hours(1);
/// How long a wallet nonce stays valid.
pub const NONCE_TTL: Duration = Duration::minutes(10);

/// Live API keys an account may hold at once.
pub const MAX_API_KEYS: usize = 20;
/// The longest name of an API key, in characters.
pub const MAX_API_KEY_NAME: usize = 64;
/// Webhook endpoints an account may have at once.
pub const MAX_WEBHOOKS: usize = 10;
/// The longest webhook URL, in bytes.
pub const MAX_WEBHOOK_URL: usize = 2_048;
/// The most topics a webhook endpoint names (as a stream may).
pub const MAX_WEBHOOK_TOPICS: usize = 20;
/// The longest topic, in bytes.
const MAX_TOPIC: usize = 200;

/// A webhook endpoint of the account (its URL and topics stay in the events and read model).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Webhook {
    /// Its id.
    pub id: Uuid,
    /// Whether it was deleted.
    pub deleted: bool,
}

/// An API key of the account (its hash stays in the events and the read model).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiKey {
    /// Its id.
    pub id: Uuid,
    /// Whether it was revoked.
    pub revoked: bool,
}

/// A code waiting to be entered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingCode {
    /// Keyed hash of the code.
    pub code_hash: String,
    /// End of validity.
    pub expires_at: DateTime<Utc>,
    /// Wrong tries left.
    pub attempts_left: u32,
}

/// A linked wallet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wallet {
    /// Which software.
    pub provider: WalletProvider,
    /// Lower-case 0x address.
    pub address: String,
}

/// What the events of one user add up to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct User {
    /// The id; `None` until registered.
    pub id: Option<Uuid>,
    /// Lower-cased e-mail.
    pub email: String,
    /// Username as chosen.
    pub username: String,
    /// Display name.
    pub full_name: String,
    /// About text.
    pub bio: String,
    /// Phone number.
    pub mobile_number: String,
    /// Avatar CID.
    pub avatar: Option<String>,
    /// Cover image CID.
    pub cover_image: Option<String>,
    /// argon2id PHC string (`None` for GOOGLE accounts).
    pub password_hash: Option<String>,
    /// How the account signs in.
    pub provider: Option<AuthProvider>,
    /// Whether the e-mail is proven.
    pub verified: bool,
    /// Google's `sub`, once seen.
    pub google_subject: Option<String>,
    /// The sign-up code waiting to be entered.
    pub account_code: Option<PendingCode>,
    /// The e-mail change waiting for its code: new address and code.
    pub email_change: Option<(String, PendingCode)>,
    /// The reset link waiting to be used: token hash and end of validity.
    pub reset: Option<(String, DateTime<Utc>)>,
    /// The wallet nonce waiting to be used: nonce and end of validity.
    pub wallet_nonce: Option<(String, DateTime<Utc>)>,
    /// Linked wallets, oldest first.
    pub wallets: Vec<Wallet>,
    /// When the password was reset or the e-mail changed: sessions from before are over.
    pub sessions_valid_from: Option<DateTime<Utc>>,
    /// API keys made, oldest first, revoked ones included.
    pub api_keys: Vec<ApiKey>,
    /// Webhook endpoints registered, oldest first, deleted ones included.
    pub webhooks: Vec<Webhook>,
    /// Erased: nothing of the person is left to act on.
    pub erased: bool,
}

impl User {
    /// Whether the stream has a registration.
    pub fn exists(&self) -> bool {
        self.id.is_some() && !self.erased
    }

    /// Whether the account signs in through Google.
    pub fn is_google(&self) -> bool {
        self.provider == Some(AuthProvider::Google)
    }

    /// Whether a session (access token) issued at `issued_at` still holds: a password reset or
    /// an e-mail change ends every earlier session. (A password change by the signed-in user
    /// keeps them: the UI goes on with its token.)
    pub fn session_valid(&self, issued_at: DateTime<Utc>) -> bool {
        self.exists() && self.sessions_valid_from.is_none_or(|from| issued_at >= from)
    }

    /// The login rule, given whether the password matched the stored hash: unknown account,
    /// no password (GOOGLE) or a wrong one are all [`AccountError::InvalidCredentials`];
    /// an unverified e-mail is [`AccountError::NotVerified`] (the API then sends a new code).
    pub fn check_login(&self, password_valid: bool) -> Result<(), AccountError> {
        if !self.exists() || self.password_hash.is_none() || !password_valid {
            return Err(AccountError::InvalidCredentials);
        }
        if !self.verified {
            return Err(AccountError::NotVerified);
        }
        Ok(())
    }
}

/// Everything a user (or the API on their behalf) can ask of an account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UserCommand {
    /// Sign up with e-mail and password; a code goes out with it.
    Register {
        /// The new id.
        user_id: Uuid,
        /// As typed.
        email: String,
        /// As typed.
        username: String,
        /// As typed.
        full_name: String,
        /// argon2id hash of the (already validated) password.
        password_hash: String,
        /// Keyed hash of the code mailed.
        code_hash: String,
        /// The clock.
        now: DateTime<Utc>,
    },
    /// First Google sign-in of an unknown e-mail.
    RegisterWithGoogle {
        /// The new id.
        user_id: Uuid,
        /// From the verified token.
        email: String,
        /// Derived, already checked free.
        username: String,
        /// From the token.
        full_name: String,
        /// The token's `sub`.
        google_subject: String,
        /// The clock.
        now: DateTime<Utc>,
    },
    /// Google sign-in of an existing account (found by its e-mail).
    SignInWithGoogle {
        /// The token's `sub`.
        google_subject: String,
        /// The clock.
        now: DateTime<Utc>,
    },
    /// Send a new sign-up code (login while unverified); replaces the previous one.
    IssueVerificationCode {
        /// Keyed hash of the new code.
        code_hash: String,
        /// The clock.
        now: DateTime<Utc>,
    },
    /// Enter the sign-up code.
    VerifyAccount {
        /// Keyed hash of the code entered.
        code_hash: String,
        /// The clock.
        now: DateTime<Utc>,
    },
    /// Change the password, knowing the current one.
    ChangePassword {
        /// Whether the current password given matched.
        current_password_valid: bool,
        /// argon2id hash of the new (validated) password.
        new_password_hash: String,
        /// The clock.
        now: DateTime<Utc>,
    },
    /// Ask for a reset link.
    RequestPasswordReset {
        /// Keyed hash of the link's token.
        token_hash: String,
        /// The clock.
        now: DateTime<Utc>,
    },
    /// Set a password through a reset link.
    ResetPassword {
        /// Keyed hash of the token presented.
        token_hash: String,
        /// argon2id hash of the new password.
        new_password_hash: String,
        /// The clock.
        now: DateTime<Utc>,
    },
    /// Ask to move the account to another e-mail; a code goes to the new one.
    RequestEmailChange {
        /// As typed.
        new_email: String,
        /// Keyed hash of the code mailed.
        code_hash: String,
        /// The clock.
        now: DateTime<Utc>,
    },
    /// Enter the e-mail change code.
    ConfirmEmailChange {
        /// As typed (must be the pending one).
        new_email: String,
        /// Keyed hash of the code entered.
        code_hash: String,
        /// The clock.
        now: DateTime<Utc>,
    },
    /// Edit the profile. `None` keeps a field as it is.
    UpdateProfile {
        /// Display name.
        full_name: Option<String>,
        /// New username (sent only when it changed).
        username: Option<String>,
        /// About text.
        bio: Option<String>,
        /// Phone number.
        mobile_number: Option<String>,
        /// CID of a newly uploaded avatar.
        avatar: Option<String>,
        /// CID of a newly uploaded cover image.
        cover_image: Option<String>,
    },
    /// Hand out a nonce for a wallet link message.
    IssueWalletNonce {
        /// Fresh random nonce.
        nonce: String,
        /// The clock.
        now: DateTime<Utc>,
    },
    /// Link a wallet whose signature over a message with `nonce` the API has checked.
    LinkWallet {
        /// Which software.
        provider: WalletProvider,
        /// The address the signature recovered to.
        address: String,
        /// The nonce in the signed message.
        nonce: String,
        /// The clock.
        now: DateTime<Utc>,
    },
    /// Unlink a wallet.
    UnlinkWallet {
        /// Its address.
        address: String,
        /// The clock.
        now: DateTime<Utc>,
    },
    /// Make an API key the API generated (and shows once).
    CreateApiKey {
        /// The new key's id.
        key_id: Uuid,
        /// As typed.
        name: String,
        /// As sent (names of [`ApiKeyScope`]).
        scopes: Vec<String>,
        /// SHA-256 of the key (hex).
        key_hash: String,
        /// The key's first characters.
        prefix: String,
        /// The clock.
        now: DateTime<Utc>,
    },
    /// Revoke one of the account's API keys.
    RevokeApiKey {
        /// Its id.
        key_id: Uuid,
        /// The clock.
        now: DateTime<Utc>,
    },
    /// Register a webhook endpoint. The API has checked that the URL's host is one the server
    /// may post to (an address rule that needs the network); the shape is checked here.
    RegisterWebhook {
        /// The new endpoint's id.
        endpoint_id: Uuid,
        /// As sent.
        url: String,
        /// As sent.
        topics: Vec<String>,
        /// As sent.
        notice_kinds: Vec<String>,
        /// The random salt of its secret (base64).
        secret_salt: String,
        /// The clock.
        now: DateTime<Utc>,
    },
    /// Change a webhook endpoint's URL, topics and notice kinds.
    UpdateWebhook {
        /// Its id.
        endpoint_id: Uuid,
        /// As sent.
        url: String,
        /// As sent.
        topics: Vec<String>,
        /// As sent.
        notice_kinds: Vec<String>,
        /// The clock.
        now: DateTime<Utc>,
    },
    /// Delete a webhook endpoint.
    DeleteWebhook {
        /// Its id.
        endpoint_id: Uuid,
        /// The clock.
        now: DateTime<Utc>,
    },
    /// Delete the account: its wallets unlinked, keys revoked, webhooks deleted, then erased.
    Erase {
        /// Whether the person proved it is them (password, or a wallet signature for an
        /// account without one).
        confirmed: bool,
        /// The clock.
        now: DateTime<Utc>,
    },
}

/// A webhook URL's shape: `http(s)://host[:port]/...`, no credentials, no fragment, at most
/// [`MAX_WEBHOOK_URL`] bytes. Whether its host may be reached is the API's check.
pub fn webhook_url(url: &str) -> Result<String, AccountError> {
    let url = url.trim();
    if url.len() > MAX_WEBHOOK_URL {
        return Err(AccountError::invalid(format!("url: at most {MAX_WEBHOOK_URL} characters")));
    }
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .ok_or_else(|| AccountError::invalid("url: must start with https:// (or http:// where the server allows it)"))?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.is_empty() {
        return Err(AccountError::invalid("url: no host"));
    }
    if authority.contains('@') {
        return Err(AccountError::invalid("url: no user name or password in the URL"));
    }
    if url.contains('#') {
        return Err(AccountError::invalid("url: no fragment (#...)"));
    }
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(AccountError::invalid("url: no spaces or control characters"));
    }
    Ok(url.to_owned())
}

/// Topics as the stream names them (`market`, `nft:{nftId}`, `collection:{collectionId}`),
/// sorted, without repeats; at most [`MAX_WEBHOOK_TOPICS`].
pub fn webhook_topics(topics: &[String]) -> Result<Vec<String>, AccountError> {
    let mut parsed = Vec::with_capacity(topics.len());
    for topic in topics {
        let topic = topic.trim();
        let known = topic == "market"
            || topic.strip_prefix("nft:").or_else(|| topic.strip_prefix("collection:")).is_some_and(|id| {
                !id.is_empty() && id.len() <= MAX_TOPIC && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            });
        if !known {
            return Err(AccountError::invalid(format!(
                "topics: unknown topic {topic:?}; the topics are market, nft:{{nftId}} and collection:{{collectionId}}"
            )));
        }
        parsed.push(topic.to_owned());
    }
    parsed.sort();
    parsed.dedup();
    if parsed.len() > MAX_WEBHOOK_TOPICS {
        return Err(AccountError::invalid(format!("topics: at most {MAX_WEBHOOK_TOPICS}")));
    }
    Ok(parsed)
}

/// Notice kinds (see [`crate::notices::KINDS`]), sorted, without repeats.
pub fn webhook_notice_kinds(kinds: &[String]) -> Result<Vec<String>, AccountError> {
    let mut parsed = Vec::with_capacity(kinds.len());
    for kind in kinds {
        if !crate::notices::KINDS.contains(&kind.as_str()) {
            return Err(AccountError::invalid(format!("noticeKinds: unknown kind {kind:?} (known: {})", crate::notices::KINDS.join(", "))));
        }
        parsed.push(kind.clone());
    }
    parsed.sort();
    parsed.dedup();
    Ok(parsed)
}

/// The shape rules every registration and update shares: a URL, and something to deliver.
fn webhook_parts(url: &str, topics: &[String], kinds: &[String]) -> Result<(String, Vec<String>, Vec<String>), AccountError> {
    let url = webhook_url(url)?;
    let topics = webhook_topics(topics)?;
    let kinds = webhook_notice_kinds(kinds)?;
    if topics.is_empty() && kinds.is_empty() {
        return Err(AccountError::invalid("topics, noticeKinds: choose at least one topic or notice kind"));
    }
    Ok((url, topics, kinds))
}

/// Compares two hex digests in time independent of where they differ.
fn same_digest(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Checks a code against a pending one: the events to record (a failure counts) or why not.
fn check_code(
    pending: Option<&PendingCode>,
    purpose: CodePurpose,
    code_hash: &str,
    now: DateTime<Utc>,
    success: UserEvent,
) -> Result<Vec<UserEvent>, AccountError> {
    let pending = pending.ok_or(AccountError::NoPendingCode)?;
    if pending.attempts_left == 0 {
        return Err(AccountError::TooManyAttempts);
    }
    if now >= pending.expires_at {
        return Err(AccountError::CodeExpired);
    }
    if !same_digest(&pending.code_hash, code_hash) {
        return Ok(vec![UserEvent::VerificationFailed { purpose, attempts_left: pending.attempts_left - 1 }]);
    }
    Ok(vec![success])
}

/// The refusal an accepted command's events stand for: a wrong code is recorded (the attempt
/// counts) yet answered as an error.
pub fn rejection(events: &[UserEvent]) -> Option<AccountError> {
    events.iter().find_map(|e| match e {
        UserEvent::VerificationFailed { attempts_left, .. } => Some(AccountError::WrongCode { attempts_left: *attempts_left }),
        _ => None,
    })
}

/// Every rule of the accounts side: which events follow from `command` on `state`.
pub fn decide(state: &User, command: UserCommand) -> Result<Vec<UserEvent>, AccountError> {
    use UserCommand as C;
    let registered = |state: &User| if state.exists() { Ok(()) } else { Err(AccountError::UnknownUser) };
    match command {
        C::Register { user_id, email, username, full_name, password_hash, code_hash, now } => {
            if state.exists() {
                return Err(AccountError::AlreadyRegistered);
            }
            let email = validate::email("email", &email)?;
            let full_name = validate::required("fullName", &full_name, MAX_FULL_NAME)?;
            let username = validate::username(&username)?;
            Ok(vec![
                UserEvent::UserRegistered {
                    user_id,
                    email,
                    username,
                    full_name,
                    password_hash,
                    auth_provider: AuthProvider::Email,
                    at: now,
                },
                UserEvent::VerificationCodeIssued {
                    purpose: CodePurpose::Account,
                    code_hash,
                    expires_at: now + CODE_TTL,
                    attempts_allowed: CODE_ATTEMPTS,
                },
            ])
        }
        C::RegisterWithGoogle { user_id, email, username, full_name, google_subject, now } => {
            if state.exists() {
                return Err(AccountError::AlreadyRegistered);
            }
            let email = validate::email("email", &email)?;
            let username = validate::username(&username)?;
            let full_name = match validate::required("fullName", &full_name, MAX_FULL_NAME) {
                Ok(name) => name,
                Err(_) => username.clone(),
            };
            Ok(vec![UserEvent::GoogleAccountRegistered {
                user_id,
                email,
                username,
                full_name,
                google_subject,
                auth_provider: AuthProvider::Google,
                at: now,
            }])
        }
        C::SignInWithGoogle { google_subject, now } => {
            registered(state)?;
            // Google proved the address: an unverified e-mail account becomes verified.
            let mut events = vec![UserEvent::LoggedInWithGoogle { google_subject, at: now }];
            if !state.verified {
                events.push(UserEvent::AccountVerified { at: now });
            }
            Ok(events)
        }
        C::IssueVerificationCode { code_hash, now } => {
            registered(state)?;
            if state.verified {
                return Err(AccountError::AlreadyVerified);
            }
            Ok(vec![UserEvent::VerificationCodeIssued {
                purpose: CodePurpose::Account,
                code_hash,
                expires_at: now + CODE_TTL,
                attempts_allowed: CODE_ATTEMPTS,
            }])
        }
        C::VerifyAccount { code_hash, now } => {
            registered(state)?;
            if state.verified {
                return Err(AccountError::AlreadyVerified);
            }
            check_code(state.account_code.as_ref(), CodePurpose::Account, &code_hash, now, UserEvent::AccountVerified { at: now })
        }
        C::ChangePassword { current_password_valid, new_password_hash, now } => {
            registered(state)?;
            if state.is_google() || state.password_hash.is_none() {
                return Err(AccountError::GooglePassword);
            }
            if !current_password_valid {
                return Err(AccountError::WrongPassword);
            }
            Ok(vec![UserEvent::PasswordChanged { password_hash: new_password_hash, at: now }])
        }
        C::RequestPasswordReset { token_hash, now } => {
            registered(state)?;
            if state.is_google() {
                return Err(AccountError::GooglePassword);
            }
            Ok(vec![UserEvent::PasswordResetRequested { token_hash, expires_at: now + RESET_TTL }])
        }
        C::ResetPassword { token_hash, new_password_hash, now } => {
            registered(state)?;
            match &state.reset {
                Some((hash, expires_at)) if same_digest(hash, &token_hash) && now < *expires_at && !state.is_google() => {}
                _ => return Err(AccountError::InvalidResetToken),
            }
            // The link went to the account's address: that proves it, too.
            let mut events = vec![UserEvent::PasswordReset { password_hash: new_password_hash, at: now }];
            if !state.verified {
                events.push(UserEvent::AccountVerified { at: now });
            }
            Ok(events)
        }
        C::RequestEmailChange { new_email, code_hash, now } => {
            registered(state)?;
            if state.is_google() {
                return Err(AccountError::GoogleEmail);
            }
            let new_email = validate::email("newEmail", &new_email)?;
            if new_email == state.email {
                return Err(AccountError::SameEmail);
            }
            Ok(vec![UserEvent::EmailChangeRequested { new_email, code_hash, expires_at: now + CODE_TTL, attempts_allowed: CODE_ATTEMPTS }])
        }
        C::ConfirmEmailChange { new_email, code_hash, now } => {
            registered(state)?;
            if state.is_google() {
                return Err(AccountError::GoogleEmail);
            }
            let new_email = validate::email("newEmail", &new_email)?;
            let pending = match &state.email_change {
                Some((pending_email, code)) if *pending_email == new_email => Some(code),
                Some(_) => return Err(AccountError::invalid("newEmail: not the address the code was sent to")),
                None => None,
            };
            let changed = UserEvent::EmailChanged { old_email: state.email.clone(), new_email, at: now };
            check_code(pending, CodePurpose::EmailChange, &code_hash, now, changed)
        }
        C::UpdateProfile { full_name, username, bio, mobile_number, avatar, cover_image } => {
            registered(state)?;
            let full_name = match full_name {
                Some(name) => validate::required("fullName", &name, MAX_FULL_NAME)?,
                None => state.full_name.clone(),
            };
            let username = match username {
                Some(name) if !name.trim().is_empty() => validate::username(&name)?,
                _ => state.username.clone(),
            };
            // The edit form requires all four fields (spec 5): a field sent blank is refused; a
            // field not sent stays as it is.
            let bio = match bio {
                Some(bio) if bio.trim().is_empty() => return Err(AccountError::invalid("bio: Required")),
                Some(bio) if bio.trim().chars().count() > MAX_BIO => {
                    return Err(AccountError::invalid(format!("bio: at most {MAX_BIO} characters")));
                }
                Some(bio) => bio.trim().to_owned(),
                None => state.bio.clone(),
            };
            let mobile_number = match mobile_number {
                Some(mobile) if mobile.trim().is_empty() => return Err(AccountError::invalid("mobileNumber: Required")),
                Some(mobile) => validate::mobile(&mobile)?,
                None => state.mobile_number.clone(),
            };
            let avatar = avatar.or_else(|| state.avatar.clone());
            let cover_image = cover_image.or_else(|| state.cover_image.clone());
            let unchanged = full_name == state.full_name
                && username == state.username
                && bio == state.bio
                && mobile_number == state.mobile_number
                && avatar == state.avatar
                && cover_image == state.cover_image;
            if unchanged {
                return Ok(vec![]);
            }
            Ok(vec![UserEvent::ProfileUpdated { full_name, username, bio, mobile_number, avatar, cover_image }])
        }
        C::IssueWalletNonce { nonce, now } => {
            registered(state)?;
            Ok(vec![UserEvent::WalletNonceIssued { nonce, expires_at: now + NONCE_TTL }])
        }
        C::LinkWallet { provider, address, nonce, now } => {
            registered(state)?;
            let address = validate::wallet_address(&address)?;
            match &state.wallet_nonce {
                Some((issued, expires_at)) if *issued == nonce && now < *expires_at => {}
                _ => return Err(AccountError::InvalidNonce),
            }
            if state.wallets.iter().any(|w| w.address == address && w.provider == provider) {
                return Ok(vec![]);
            }
            let mut events = Vec::new();
            if state.wallets.iter().any(|w| w.address == address) {
                // Same address under another wallet software: relink with the new provider.
                events.push(UserEvent::WalletUnlinked { address: address.clone(), at: now });
            }
            events.push(UserEvent::WalletLinked { provider, address, at: now });
            Ok(events)
        }
        C::UnlinkWallet { address, now } => {
            registered(state)?;
            let address = validate::wallet_address(&address)?;
            if !state.wallets.iter().any(|w| w.address == address) {
                return Err(AccountError::WalletNotLinked);
            }
            Ok(vec![UserEvent::WalletUnlinked { address, at: now }])
        }
        C::CreateApiKey { key_id, name, scopes, key_hash, prefix, now } => {
            registered(state)?;
            let name = validate::required("name", &name, MAX_API_KEY_NAME)?;
            if scopes.is_empty() {
                return Err(AccountError::invalid("scopes: choose at least one"));
            }
            let mut parsed = scopes
                .iter()
                .map(|scope| {
                    ApiKeyScope::parse(scope).ok_or_else(|| {
                        let known: Vec<&str> = ApiKeyScope::ALL.iter().map(|s| s.as_str()).collect();
                        AccountError::invalid(format!("scopes: unknown scope {scope:?} (known: {})", known.join(", ")))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            parsed.sort();
            parsed.dedup();
            if state.api_keys.iter().filter(|k| !k.revoked).count() >= MAX_API_KEYS {
                return Err(AccountError::TooManyApiKeys);
            }
            if state.api_keys.iter().any(|k| k.id == key_id) {
                return Err(AccountError::invalid("keyId: already used"));
            }
            Ok(vec![UserEvent::ApiKeyCreated { key_id, name, scopes: parsed, key_hash, prefix, at: now }])
        }
        C::RevokeApiKey { key_id, now } => {
            registered(state)?;
            match state.api_keys.iter().find(|k| k.id == key_id) {
                None => Err(AccountError::UnknownApiKey),
                // Revoking twice changes nothing and is no error: the key is refused either way.
                Some(key) if key.revoked => Ok(vec![]),
                Some(_) => Ok(vec![UserEvent::ApiKeyRevoked { key_id, at: now }]),
            }
        }
        C::RegisterWebhook { endpoint_id, url, topics, notice_kinds, secret_salt, now } => {
            registered(state)?;
            let (url, topics, notice_kinds) = webhook_parts(&url, &topics, &notice_kinds)?;
            if state.webhooks.iter().filter(|w| !w.deleted).count() >= MAX_WEBHOOKS {
                return Err(AccountError::TooManyWebhooks);
            }
            if state.webhooks.iter().any(|w| w.id == endpoint_id) {
                return Err(AccountError::invalid("endpointId: already used"));
            }
            Ok(vec![UserEvent::WebhookEndpointRegistered { endpoint_id, url, topics, notice_kinds, secret_salt, at: now }])
        }
        C::UpdateWebhook { endpoint_id, url, topics, notice_kinds, now } => {
            registered(state)?;
            if !state.webhooks.iter().any(|w| w.id == endpoint_id && !w.deleted) {
                return Err(AccountError::UnknownWebhook);
            }
            let (url, topics, notice_kinds) = webhook_parts(&url, &topics, &notice_kinds)?;
            Ok(vec![UserEvent::WebhookEndpointUpdated { endpoint_id, url, topics, notice_kinds, at: now }])
        }
        C::DeleteWebhook { endpoint_id, now } => {
            registered(state)?;
            if !state.webhooks.iter().any(|w| w.id == endpoint_id && !w.deleted) {
                return Err(AccountError::UnknownWebhook);
            }
            Ok(vec![UserEvent::WebhookEndpointDeleted { endpoint_id, at: now }])
        }
        C::Erase { confirmed, now } => {
            registered(state)?;
            if !confirmed {
                return Err(AccountError::InvalidCredentials);
            }
            let wallets = state.wallets.iter().map(|w| UserEvent::WalletUnlinked { address: w.address.clone(), at: now });
            let keys = state.api_keys.iter().filter(|k| !k.revoked).map(|k| UserEvent::ApiKeyRevoked { key_id: k.id, at: now });
            let hooks =
                state.webhooks.iter().filter(|w| !w.deleted).map(|w| UserEvent::WebhookEndpointDeleted { endpoint_id: w.id, at: now });
            Ok(wallets.chain(keys).chain(hooks).chain([UserEvent::AccountErased { at: now }]).collect())
        }
    }
}

/// Folds one event; no rules, no failures.
pub fn evolve(mut state: User, event: &UserEvent) -> User {
    use UserEvent as E;
    let pending = |code_hash: &str, expires_at: &DateTime<Utc>, attempts: u32| PendingCode {
        code_hash: code_hash.to_owned(),
        expires_at: *expires_at,
        attempts_left: attempts,
    };
    match event {
        E::UserRegistered { user_id, email, username, full_name, password_hash, auth_provider, .. } => {
            state.id = Some(*user_id);
            state.email = email.clone();
            state.username = username.clone();
            state.full_name = full_name.clone();
            state.password_hash = Some(password_hash.clone());
            state.provider = Some(*auth_provider);
        }
        E::GoogleAccountRegistered { user_id, email, username, full_name, google_subject, auth_provider, .. } => {
            state.id = Some(*user_id);
            state.email = email.clone();
            state.username = username.clone();
            state.full_name = full_name.clone();
            state.google_subject = Some(google_subject.clone());
            state.provider = Some(*auth_provider);
            state.verified = true;
        }
        E::VerificationCodeIssued { purpose, code_hash, expires_at, attempts_allowed } => match purpose {
            CodePurpose::Account => state.account_code = Some(pending(code_hash, expires_at, *attempts_allowed)),
            CodePurpose::EmailChange => {
                if let Some((_, code)) = &mut state.email_change {
                    *code = pending(code_hash, expires_at, *attempts_allowed);
                }
            }
        },
        E::VerificationFailed { purpose, attempts_left } => {
            let code = match purpose {
                CodePurpose::Account => state.account_code.as_mut(),
                CodePurpose::EmailChange => state.email_change.as_mut().map(|(_, code)| code),
            };
            if let Some(code) = code {
                code.attempts_left = *attempts_left;
            }
        }
        E::AccountVerified { .. } => {
            state.verified = true;
            state.account_code = None;
        }
        E::LoggedInWithGoogle { google_subject, .. } => state.google_subject = Some(google_subject.clone()),
        E::PasswordChanged { password_hash, .. } => state.password_hash = Some(password_hash.clone()),
        E::PasswordResetRequested { token_hash, expires_at } => state.reset = Some((token_hash.clone(), *expires_at)),
        E::PasswordReset { password_hash, at } => {
            state.password_hash = Some(password_hash.clone());
            state.reset = None;
            state.sessions_valid_from = Some(*at);
        }
        E::EmailChangeRequested { new_email, code_hash, expires_at, attempts_allowed } => {
            state.email_change = Some((new_email.clone(), pending(code_hash, expires_at, *attempts_allowed)));
        }
        E::EmailChanged { new_email, at, .. } => {
            state.email = new_email.clone();
            state.sessions_valid_from = Some(*at);
            state.email_change = None;
            // A reset link mailed to the old address must not outlive it.
            state.reset = None;
        }
        E::ProfileUpdated { full_name, username, bio, mobile_number, avatar, cover_image } => {
            state.full_name = full_name.clone();
            state.username = username.clone();
            state.bio = bio.clone();
            state.mobile_number = mobile_number.clone();
            state.avatar = avatar.clone();
            state.cover_image = cover_image.clone();
        }
        E::WalletNonceIssued { nonce, expires_at } => state.wallet_nonce = Some((nonce.clone(), *expires_at)),
        E::WalletLinked { provider, address, .. } => {
            state.wallet_nonce = None;
            state.wallets.retain(|w| w.address != *address);
            state.wallets.push(Wallet { provider: *provider, address: address.clone() });
        }
        E::WalletUnlinked { address, .. } => state.wallets.retain(|w| w.address != *address),
        E::ApiKeyCreated { key_id, .. } => state.api_keys.push(ApiKey { id: *key_id, revoked: false }),
        E::ApiKeyRevoked { key_id, .. } => {
            if let Some(key) = state.api_keys.iter_mut().find(|k| k.id == *key_id) {
                key.revoked = true;
            }
        }
        E::WebhookEndpointRegistered { endpoint_id, .. } => state.webhooks.push(Webhook { id: *endpoint_id, deleted: false }),
        E::WebhookEndpointUpdated { .. } => {}
        E::WebhookEndpointDeleted { endpoint_id, .. } => {
            if let Some(hook) = state.webhooks.iter_mut().find(|w| w.id == *endpoint_id) {
                hook.deleted = true;
            }
        }
        E::AccountErased { at } => {
            state.erased = true;
            state.sessions_valid_from = Some(*at);
            state.password_hash = None;
            state.account_code = None;
            state.email_change = None;
            state.reset = None;
            state.wallet_nonce = None;
        }
    }
    state
}

/// The state after `events`.
pub fn fold<'a>(events: impl IntoIterator<Item = &'a UserEvent>) -> User {
    events.into_iter().fold(User::default(), evolve)
}

/// A change to a uniqueness stream that a user's events imply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimChange {
    /// What kind of value.
    pub kind: ClaimKind,
    /// The value.
    pub value: String,
    /// `true` to take it, `false` to give it back.
    pub take: bool,
}

/// The uniqueness claims `events` imply for a user who was `before`: registering takes the
/// e-mail and username; changing either takes the new one and gives back the old one; linking a
/// wallet takes its address and unlinking gives it back. Changes that cancel out (only the
/// case of a username changed) are dropped.
pub fn claim_changes(before: &User, events: &[UserEvent]) -> Vec<ClaimChange> {
    let take = |kind, value: &str| ClaimChange { kind, value: value.to_owned(), take: true };
    let give = |kind, value: &str| ClaimChange { kind, value: value.to_owned(), take: false };
    let mut changes = Vec::new();
    let mut state = before.clone();
    for event in events {
        match event {
            UserEvent::UserRegistered { email, username, .. } | UserEvent::GoogleAccountRegistered { email, username, .. } => {
                changes.push(take(ClaimKind::Email, email));
                changes.push(take(ClaimKind::Username, username));
            }
            UserEvent::EmailChanged { old_email, new_email, .. } => {
                changes.push(take(ClaimKind::Email, new_email));
                changes.push(give(ClaimKind::Email, old_email));
            }
            UserEvent::ProfileUpdated { username, .. } if !username.eq_ignore_ascii_case(&state.username) => {
                changes.push(take(ClaimKind::Username, username));
                changes.push(give(ClaimKind::Username, &state.username));
            }
            UserEvent::WalletLinked { address, .. } => changes.push(take(ClaimKind::Wallet, address)),
            UserEvent::WalletUnlinked { address, .. } => changes.push(give(ClaimKind::Wallet, address)),
            UserEvent::AccountErased { .. } => {
                changes.push(give(ClaimKind::Email, &state.email));
                changes.push(give(ClaimKind::Username, &state.username));
            }
            _ => {}
        }
        state = evolve(state, event);
    }
    // An unlink followed by a relink of the same address (provider change) keeps the claim.
    let mut kept: Vec<ClaimChange> = Vec::new();
    for change in changes {
        let stream = change.kind.stream(&change.value);
        if let Some(i) = kept.iter().position(|c| c.kind.stream(&c.value) == stream && c.take != change.take) {
            kept.remove(i);
        } else {
            kept.push(change);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t0() -> DateTime<Utc> {
        DateTime::from_timestamp(1_700_000_000, 0).unwrap()
    }

    fn id() -> Uuid {
        Uuid::from_u128(7)
    }

    /// Given these events, when this command, then these events or this error.
    fn given(events: &[UserEvent]) -> Given {
        Given(fold(events))
    }

    struct Given(User);

    impl Given {
        fn when(self, command: UserCommand) -> Result<Vec<UserEvent>, AccountError> {
            decide(&self.0, command)
        }
    }

    fn registered() -> Vec<UserEvent> {
        decide(
            &User::default(),
            UserCommand::Register {
                user_id: id(),
                email: " Alice@Example.com".into(),
                username: "Alice".into(),
                full_name: "Alice Liddell".into(),
                password_hash: "$argon2id$hash".into(),
                code_hash: "c0de".into(),
                now: t0(),
            },
        )
        .unwrap()
    }

    fn verified() -> Vec<UserEvent> {
        let mut events = registered();
        events.push(UserEvent::AccountVerified { at: t0() });
        events
    }

    fn google() -> Vec<UserEvent> {
        decide(
            &User::default(),
            UserCommand::RegisterWithGoogle {
                user_id: id(),
                email: "g@example.com".into(),
                username: "gina".into(),
                full_name: "".into(),
                google_subject: "sub-1".into(),
                now: t0(),
            },
        )
        .map_err(|e| e.to_string())
        .unwrap_or_else(|e| panic!("{e}"))
    }

    fn verify(code_hash: &str, minutes: i64) -> UserCommand {
        UserCommand::VerifyAccount { code_hash: code_hash.into(), now: t0() + Duration::minutes(minutes) }
    }

    #[test]
    fn registering_records_the_account_and_issues_a_code() {
        let events = registered();
        assert_eq!(
            events,
            vec![
                UserEvent::UserRegistered {
                    user_id: id(),
                    email: "alice@example.com".into(),
                    username: "Alice".into(),
                    full_name: "Alice Liddell".into(),
                    password_hash: "$argon2id$hash".into(),
                    auth_provider: AuthProvider::Email,
                    at: t0(),
                },
                UserEvent::VerificationCodeIssued {
                    purpose: CodePurpose::Account,
                    code_hash: "c0de".into(),
                    expires_at: t0() + CODE_TTL,
                    attempts_allowed: CODE_ATTEMPTS,
                },
            ]
        );
    }

    #[test]
    fn registering_twice_or_with_bad_fields_is_refused() {
        let again = UserCommand::Register {
            user_id: id(),
            email: "a@example.com".into(),
            username: "abc".into(),
            full_name: "A".into(),
            password_hash: "h".into(),
            code_hash: "c".into(),
            now: t0(),
        };
        assert_eq!(given(&registered()).when(again.clone()), Err(AccountError::AlreadyRegistered));
        let UserCommand::Register { user_id, username, full_name, password_hash, code_hash, now, .. } = again else { unreachable!() };
        let bad_email = UserCommand::Register { user_id, email: "nope".into(), username, full_name, password_hash, code_hash, now };
        assert_eq!(given(&[]).when(bad_email), Err(AccountError::invalid("email: Enter a valid email")));
    }

    #[test]
    fn the_right_code_verifies_the_account() {
        assert_eq!(given(&registered()).when(verify("c0de", 1)), Ok(vec![UserEvent::AccountVerified { at: t0() + Duration::minutes(1) }]));
    }

    #[test]
    fn a_wrong_code_is_recorded_and_counts_as_an_attempt() {
        let events = given(&registered()).when(verify("bad", 1)).unwrap();
        assert_eq!(events, vec![UserEvent::VerificationFailed { purpose: CodePurpose::Account, attempts_left: 4 }]);
        assert_eq!(rejection(&events), Some(AccountError::WrongCode { attempts_left: 4 }));
    }

    #[test]
    fn after_five_wrong_codes_even_the_right_one_is_refused() {
        let mut history = registered();
        for _ in 0..CODE_ATTEMPTS {
            history.extend(given(&history).when(verify("bad", 1)).unwrap());
        }
        assert_eq!(given(&history).when(verify("c0de", 2)), Err(AccountError::TooManyAttempts));
    }

    #[test]
    fn an_expired_code_is_refused() {
        assert_eq!(given(&registered()).when(verify("c0de", 15)), Err(AccountError::CodeExpired));
    }

    #[test]
    fn a_new_code_replaces_the_old_one() {
        let mut history = registered();
        history.extend(given(&history).when(UserCommand::IssueVerificationCode { code_hash: "new".into(), now: t0() }).unwrap());
        assert!(matches!(given(&history).when(verify("c0de", 1)).unwrap()[0], UserEvent::VerificationFailed { .. }));
        assert!(matches!(given(&history).when(verify("new", 1)).unwrap()[0], UserEvent::AccountVerified { .. }));
    }

    #[test]
    fn a_verified_account_is_not_verified_again_and_gets_no_new_code() {
        assert_eq!(given(&verified()).when(verify("c0de", 1)), Err(AccountError::AlreadyVerified));
        assert_eq!(
            given(&verified()).when(UserCommand::IssueVerificationCode { code_hash: "x".into(), now: t0() }),
            Err(AccountError::AlreadyVerified)
        );
        assert_eq!(given(&[]).when(verify("c0de", 1)), Err(AccountError::UnknownUser));
    }

    #[test]
    fn login_needs_the_password_and_a_verified_address() {
        assert_eq!(fold(&verified()).check_login(true), Ok(()));
        assert_eq!(fold(&verified()).check_login(false), Err(AccountError::InvalidCredentials));
        assert_eq!(fold(&registered()).check_login(false), Err(AccountError::InvalidCredentials));
        assert_eq!(fold(&registered()).check_login(true), Err(AccountError::NotVerified));
        assert_eq!(User::default().check_login(true), Err(AccountError::InvalidCredentials));
        assert_eq!(fold(&google()).check_login(true), Err(AccountError::InvalidCredentials));
    }

    #[test]
    fn google_accounts_are_verified_and_named_after_the_username_when_nameless() {
        let user = fold(&google());
        assert!(user.verified && user.is_google());
        assert_eq!(user.full_name, "gina");
        assert_eq!(user.password_hash, None);
    }

    #[test]
    fn google_sign_in_of_an_unverified_account_verifies_it() {
        let events = given(&registered()).when(UserCommand::SignInWithGoogle { google_subject: "s".into(), now: t0() }).unwrap();
        assert_eq!(
            events,
            vec![UserEvent::LoggedInWithGoogle { google_subject: "s".into(), at: t0() }, UserEvent::AccountVerified { at: t0() }]
        );
    }

    #[test]
    fn changing_the_password_needs_the_current_one_and_is_closed_to_google_accounts() {
        let change = |valid| UserCommand::ChangePassword { current_password_valid: valid, new_password_hash: "new".into(), now: t0() };
        assert_eq!(given(&verified()).when(change(true)), Ok(vec![UserEvent::PasswordChanged { password_hash: "new".into(), at: t0() }]));
        assert_eq!(given(&verified()).when(change(false)), Err(AccountError::WrongPassword));
        assert_eq!(given(&google()).when(change(true)), Err(AccountError::GooglePassword));
    }

    #[test]
    fn a_reset_link_works_once_and_only_in_time() {
        let mut history = registered();
        history.extend(given(&history).when(UserCommand::RequestPasswordReset { token_hash: "tok".into(), now: t0() }).unwrap());
        let reset = |hash: &str, minutes| UserCommand::ResetPassword {
            token_hash: hash.into(),
            new_password_hash: "new".into(),
            now: t0() + Duration::minutes(minutes),
        };
        assert_eq!(given(&history).when(reset("other", 1)), Err(AccountError::InvalidResetToken));
        assert_eq!(given(&history).when(reset("tok", 60)), Err(AccountError::InvalidResetToken));
        let done = given(&history).when(reset("tok", 1)).unwrap();
        assert_eq!(done[0], UserEvent::PasswordReset { password_hash: "new".into(), at: t0() + Duration::minutes(1) });
        assert!(matches!(done[1], UserEvent::AccountVerified { .. }), "the link proved the address");
        history.extend(done);
        assert_eq!(given(&history).when(reset("tok", 2)), Err(AccountError::InvalidResetToken), "used up");
        let user = fold(&history);
        assert_eq!(user.password_hash.as_deref(), Some("new"));
        assert!(!user.session_valid(t0()), "a reset ends earlier sessions");
        assert!(user.session_valid(t0() + Duration::minutes(1)));
    }

    #[test]
    fn google_accounts_get_no_reset_link() {
        assert_eq!(
            given(&google()).when(UserCommand::RequestPasswordReset { token_hash: "t".into(), now: t0() }),
            Err(AccountError::GooglePassword)
        );
    }

    #[test]
    fn an_email_change_needs_the_code_sent_to_the_new_address() {
        let mut history = verified();
        let request = UserCommand::RequestEmailChange { new_email: "New@Example.com".into(), code_hash: "ec".into(), now: t0() };
        history.extend(given(&history).when(request).unwrap());
        let confirm =
            |email: &str, hash: &str| UserCommand::ConfirmEmailChange { new_email: email.into(), code_hash: hash.into(), now: t0() };
        assert!(matches!(
            given(&history).when(confirm("new@example.com", "bad")).unwrap()[0],
            UserEvent::VerificationFailed { purpose: CodePurpose::EmailChange, attempts_left: 4 }
        ));
        assert!(given(&history).when(confirm("other@example.com", "ec")).is_err());
        let changed = given(&history).when(confirm("new@example.com", "ec")).unwrap();
        assert_eq!(
            changed,
            vec![UserEvent::EmailChanged { old_email: "alice@example.com".into(), new_email: "new@example.com".into(), at: t0() }]
        );
        history.extend(changed);
        assert_eq!(given(&history).when(confirm("new@example.com", "ec")), Err(AccountError::NoPendingCode), "a code works once");
        assert_eq!(fold(&history).email, "new@example.com");
    }

    #[test]
    fn google_accounts_and_the_same_address_cannot_change_email() {
        let request = |email: &str| UserCommand::RequestEmailChange { new_email: email.into(), code_hash: "c".into(), now: t0() };
        assert_eq!(given(&google()).when(request("x@example.com")), Err(AccountError::GoogleEmail));
        assert_eq!(given(&verified()).when(request("ALICE@example.com")), Err(AccountError::SameEmail));
    }

    #[test]
    fn a_profile_update_records_the_resulting_profile_and_skips_no_ops() {
        let update = UserCommand::UpdateProfile {
            full_name: Some("Alice L.".into()),
            username: None,
            bio: Some(" hi ".into()),
            mobile_number: Some("+1 555 0100".into()),
            avatar: Some("bafyavatar".into()),
            cover_image: None,
        };
        let events = given(&verified()).when(update.clone()).unwrap();
        assert_eq!(
            events,
            vec![UserEvent::ProfileUpdated {
                full_name: "Alice L.".into(),
                username: "Alice".into(),
                bio: "hi".into(),
                mobile_number: "+1 555 0100".into(),
                avatar: Some("bafyavatar".into()),
                cover_image: None,
            }]
        );
        let mut history = verified();
        history.extend(events);
        assert_eq!(given(&history).when(update), Ok(vec![]));
        let blank = UserCommand::UpdateProfile {
            full_name: Some(" ".into()),
            username: None,
            bio: None,
            mobile_number: None,
            avatar: None,
            cover_image: None,
        };
        assert_eq!(given(&history).when(blank), Err(AccountError::invalid("fullName: Required")));
        let blank_bio = UserCommand::UpdateProfile {
            full_name: None,
            username: None,
            bio: Some("  ".into()),
            mobile_number: None,
            avatar: None,
            cover_image: None,
        };
        assert_eq!(given(&history).when(blank_bio), Err(AccountError::invalid("bio: Required")));
        let blank_mobile = UserCommand::UpdateProfile {
            full_name: None,
            username: None,
            bio: None,
            mobile_number: Some("".into()),
            avatar: None,
            cover_image: None,
        };
        assert_eq!(given(&history).when(blank_mobile), Err(AccountError::invalid("mobileNumber: Required")));
    }

    #[test]
    fn a_wallet_links_only_with_the_nonce_issued_and_in_time() {
        let mut history = verified();
        history.extend(given(&history).when(UserCommand::IssueWalletNonce { nonce: "n1".into(), now: t0() }).unwrap());
        let link = |nonce: &str, minutes| UserCommand::LinkWallet {
            provider: WalletProvider::Metamask,
            address: "0xAB00000000000000000000000000000000000001".into(),
            nonce: nonce.into(),
            now: t0() + Duration::minutes(minutes),
        };
        assert_eq!(given(&history).when(link("other", 1)), Err(AccountError::InvalidNonce));
        assert_eq!(given(&history).when(link("n1", 10)), Err(AccountError::InvalidNonce));
        let linked = given(&history).when(link("n1", 1)).unwrap();
        let address = "0xab00000000000000000000000000000000000001".to_owned();
        assert_eq!(
            linked,
            vec![UserEvent::WalletLinked { provider: WalletProvider::Metamask, address: address.clone(), at: t0() + Duration::minutes(1) }]
        );
        history.extend(linked);
        assert_eq!(given(&history).when(link("n1", 2)), Err(AccountError::InvalidNonce), "the nonce is used up");
        assert_eq!(fold(&history).wallets, vec![Wallet { provider: WalletProvider::Metamask, address: address.clone() }]);

        let unlink = |a: &str| UserCommand::UnlinkWallet { address: a.into(), now: t0() };
        assert_eq!(given(&history).when(unlink(&address)), Ok(vec![UserEvent::WalletUnlinked { address: address.clone(), at: t0() }]));
        assert_eq!(given(&history).when(unlink("0x0000000000000000000000000000000000000009")), Err(AccountError::WalletNotLinked));
    }

    #[test]
    fn claims_follow_registration_renames_email_changes_and_wallets() {
        let before = User::default();
        let changes = claim_changes(&before, &registered());
        assert_eq!(
            changes,
            vec![
                ClaimChange { kind: ClaimKind::Email, value: "alice@example.com".into(), take: true },
                ClaimChange { kind: ClaimKind::Username, value: "Alice".into(), take: true },
            ]
        );
        let user = fold(&verified());
        let renamed = UserEvent::ProfileUpdated {
            full_name: "A".into(),
            username: "Bob".into(),
            bio: "".into(),
            mobile_number: "".into(),
            avatar: None,
            cover_image: None,
        };
        assert_eq!(
            claim_changes(&user, &[renamed]),
            vec![
                ClaimChange { kind: ClaimKind::Username, value: "Bob".into(), take: true },
                ClaimChange { kind: ClaimKind::Username, value: "Alice".into(), take: false },
            ]
        );
        let recased = UserEvent::ProfileUpdated {
            full_name: "A".into(),
            username: "ALICE".into(),
            bio: "".into(),
            mobile_number: "".into(),
            avatar: None,
            cover_image: None,
        };
        assert_eq!(claim_changes(&user, &[recased]), vec![]);
        let relinked = [
            UserEvent::WalletUnlinked { address: "0xab".into(), at: t0() },
            UserEvent::WalletLinked { provider: WalletProvider::Other, address: "0xab".into(), at: t0() },
        ];
        assert_eq!(claim_changes(&user, &relinked), vec![]);
        assert_eq!(ClaimKind::Username.stream(" Alice "), "username-alice");
    }

    fn create_key(key_id: u128, name: &str, scopes: &[&str]) -> UserCommand {
        UserCommand::CreateApiKey {
            key_id: Uuid::from_u128(key_id),
            name: name.into(),
            scopes: scopes.iter().map(|s| (*s).to_owned()).collect(),
            key_hash: "ab".repeat(32),
            prefix: "mk_live_AbCd".into(),
            now: t0(),
        }
    }

    fn register_hook(id: u128, url: &str, topics: &[&str], kinds: &[&str]) -> UserCommand {
        UserCommand::RegisterWebhook {
            endpoint_id: Uuid::from_u128(id),
            url: url.into(),
            topics: topics.iter().map(|s| (*s).to_owned()).collect(),
            notice_kinds: kinds.iter().map(|s| (*s).to_owned()).collect(),
            secret_salt: "c2FsdA==".into(),
            now: t0(),
        }
    }

    #[test]
    fn a_webhook_is_registered_with_sorted_topics_and_kinds_and_never_a_secret() {
        let events = given(&verified())
            .when(register_hook(1, " https://hooks.example.com/m ", &["nft:80001-2", "market", "market"], &["SOLD", "BOUGHT"]))
            .unwrap();
        assert_eq!(
            events,
            vec![UserEvent::WebhookEndpointRegistered {
                endpoint_id: Uuid::from_u128(1),
                url: "https://hooks.example.com/m".into(),
                topics: vec!["market".into(), "nft:80001-2".into()],
                notice_kinds: vec!["BOUGHT".into(), "SOLD".into()],
                secret_salt: "c2FsdA==".into(),
                at: t0(),
            }]
        );
    }

    #[test]
    fn a_webhook_needs_a_url_known_topics_or_kinds_and_room() {
        let user = verified();
        let invalid = |command| matches!(given(&user).when(command), Err(AccountError::Invalid(m)) if !m.is_empty());
        assert!(invalid(register_hook(1, "ftp://x.example/", &["market"], &[])));
        assert!(invalid(register_hook(1, "https://", &["market"], &[])));
        assert!(invalid(register_hook(1, "https://a:b@x.example/", &["market"], &[])));
        assert!(invalid(register_hook(1, "https://x.example/#f", &["market"], &[])));
        assert!(invalid(register_hook(1, "https://x.example/", &["markets"], &[])));
        assert!(invalid(register_hook(1, "https://x.example/", &["nft:a b"], &[])));
        assert!(invalid(register_hook(1, "https://x.example/", &[], &["SOLDOUT"])));
        assert!(invalid(register_hook(1, "https://x.example/", &[], &[])));
        let mut full = user.clone();
        for i in 0..MAX_WEBHOOKS as u128 {
            full.extend(decide(&fold(&full), register_hook(i + 10, "https://x.example/", &["market"], &[])).unwrap());
        }
        assert_eq!(given(&full).when(register_hook(1, "https://x.example/", &["market"], &[])), Err(AccountError::TooManyWebhooks));
        let delete = |id| UserCommand::DeleteWebhook { endpoint_id: Uuid::from_u128(id), now: t0() };
        full.extend(decide(&fold(&full), delete(10)).unwrap());
        assert!(given(&full).when(register_hook(1, "https://x.example/", &["market"], &[])).is_ok(), "a deleted endpoint makes room");
        assert_eq!(given(&full).when(delete(10)), Err(AccountError::UnknownWebhook), "deleted once");
        let update = UserCommand::UpdateWebhook {
            endpoint_id: Uuid::from_u128(99),
            url: "https://x.example/".into(),
            topics: vec!["market".into()],
            notice_kinds: vec![],
            now: t0(),
        };
        assert_eq!(given(&full).when(update), Err(AccountError::UnknownWebhook));
    }

    #[test]
    fn an_api_key_is_created_with_its_hash_and_sorted_scopes() {
        let events = given(&verified()).when(create_key(1, "  Price bot ", &["trades", "read", "trades"])).unwrap();
        assert_eq!(
            events,
            vec![UserEvent::ApiKeyCreated {
                key_id: Uuid::from_u128(1),
                name: "Price bot".into(),
                scopes: vec![ApiKeyScope::Read, ApiKeyScope::Trades],
                key_hash: "ab".repeat(32),
                prefix: "mk_live_AbCd".into(),
                at: t0(),
            }]
        );
    }

    #[test]
    fn an_api_key_needs_a_name_known_scopes_and_room() {
        let user = verified();
        assert_eq!(given(&user).when(create_key(1, " ", &["read"])), Err(AccountError::invalid("name: Required")));
        let long = "n".repeat(MAX_API_KEY_NAME + 1);
        assert!(matches!(given(&user).when(create_key(1, &long, &["read"])), Err(AccountError::Invalid(m)) if m.starts_with("name:")));
        assert!(matches!(given(&user).when(create_key(1, "bot", &[])), Err(AccountError::Invalid(m)) if m.starts_with("scopes:")));
        assert!(matches!(given(&user).when(create_key(1, "bot", &["admin"])), Err(AccountError::Invalid(m)) if m.contains("admin")));
        let mut full = user.clone();
        for i in 0..MAX_API_KEYS as u128 {
            full.extend(decide(&fold(&full), create_key(i + 10, "bot", &["read"])).unwrap());
        }
        assert_eq!(given(&full).when(create_key(1, "bot", &["read"])), Err(AccountError::TooManyApiKeys));
        full.extend(decide(&fold(&full), UserCommand::RevokeApiKey { key_id: Uuid::from_u128(10), now: t0() }).unwrap());
        assert!(given(&full).when(create_key(1, "bot", &["read"])).is_ok(), "a revoked key makes room");
    }

    #[test]
    fn only_the_accounts_own_keys_are_revoked_and_only_once() {
        let mut user = verified();
        user.extend(given(&user).when(create_key(1, "bot", &["read"])).unwrap());
        let revoke = |id| UserCommand::RevokeApiKey { key_id: Uuid::from_u128(id), now: t0() };
        assert_eq!(given(&user).when(revoke(2)), Err(AccountError::UnknownApiKey));
        let revoked = given(&user).when(revoke(1)).unwrap();
        assert_eq!(revoked, vec![UserEvent::ApiKeyRevoked { key_id: Uuid::from_u128(1), at: t0() }]);
        user.extend(revoked);
        assert_eq!(given(&user).when(revoke(1)), Ok(vec![]));
        assert!(fold(&user).api_keys[0].revoked);
    }

    #[test]
    fn erasing_unlinks_revokes_deletes_then_erases_and_gives_the_names_back() {
        let mut user = registered();
        user.push(UserEvent::WalletLinked { provider: WalletProvider::Metamask, address: "0xabc".into(), at: t0() });
        user.push(UserEvent::ApiKeyCreated {
            key_id: Uuid::from_u128(1),
            name: "bot".into(),
            scopes: vec![ApiKeyScope::Read],
            key_hash: "h".into(),
            prefix: "mk_live_abcd".into(),
            at: t0(),
        });
        let erase = |confirmed| UserCommand::Erase { confirmed, now: t0() };
        assert_eq!(given(&user).when(erase(false)), Err(AccountError::InvalidCredentials));
        let events = given(&user).when(erase(true)).unwrap();
        assert_eq!(
            events,
            vec![
                UserEvent::WalletUnlinked { address: "0xabc".into(), at: t0() },
                UserEvent::ApiKeyRevoked { key_id: Uuid::from_u128(1), at: t0() },
                UserEvent::AccountErased { at: t0() },
            ]
        );
        let claims = claim_changes(&fold(&user), &events);
        let given_back: Vec<(ClaimKind, &str, bool)> = claims.iter().map(|c| (c.kind, c.value.as_str(), c.take)).collect();
        assert_eq!(
            given_back,
            vec![
                (ClaimKind::Wallet, "0xabc", false),
                (ClaimKind::Email, "alice@example.com", false),
                (ClaimKind::Username, "Alice", false)
            ]
        );
        user.extend(events);
        let erased = fold(&user);
        assert!(!erased.exists() && !erased.session_valid(t0() + Duration::days(1)));
        assert_eq!(given(&user).when(erase(true)), Err(AccountError::UnknownUser));
        assert_eq!(erased.check_login(true), Err(AccountError::InvalidCredentials));
    }
}
