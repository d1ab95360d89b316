//! Accounts plumbing shared by the auth, account and contact routes: access tokens, password
//! hashing, keyed hashes of codes and tokens, rate limits, Google sign-in, SIWE checks, API keys
//! for bots, and the extractors that turn a request into a signed-in user.

pub mod api_keys;
pub mod extract;
pub mod google;
pub mod password;
pub mod rate_limit;
pub mod secrets;
pub mod siwe;
pub mod tokens;

use domain::{
    Metadata,
    accounts::{AccountError, User, UserEvent, repo},
};
use uuid::Uuid;

pub use extract::{AuthUser, ClientIp, MaybeUser, Payload};

use crate::{
    config::Config,
    http::{AppState, error::ApiError},
};

/// The accounts services every handler reaches through [`AppState::accounts`].
pub struct Accounts {
    /// Access tokens.
    pub tokens: tokens::Tokens,
    /// Keys for hashing codes and tokens.
    pub keys: secrets::Keys,
    /// Request budgets.
    pub limits: rate_limit::RateLimits,
    /// Google ID token checks.
    pub google: google::GoogleVerifier,
    /// Accounts erased: their access tokens are refused before they expire.
    pub erased: ErasedAccounts,
}

/// The erased accounts this process knows of: those it erased, and every few seconds those the
/// read tables say were erased (by another process of a Postgres deployment).
#[derive(Clone, Default)]
pub struct ErasedAccounts(std::sync::Arc<std::sync::RwLock<std::collections::HashSet<uuid::Uuid>>>);

impl ErasedAccounts {
    /// How often the read tables are asked again.
    const REFRESH: std::time::Duration = std::time::Duration::from_secs(5);

    /// Whether `user` was erased.
    pub fn contains(&self, user: &uuid::Uuid) -> bool {
        self.0.read().expect("erased accounts lock").contains(user)
    }

    /// Notes an erasure this process made.
    pub fn insert(&self, user: uuid::Uuid) {
        self.0.write().expect("erased accounts lock").insert(user);
    }

    /// Keeps the set in step with `read` (when a runtime is running: a test's state built
    /// outside one only knows its own erasures).
    pub fn follow(&self, read: projections::ReadDb) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else { return };
        let weak = std::sync::Arc::downgrade(&self.0);
        runtime.spawn(async move {
            loop {
                let Some(set) = weak.upgrade() else { return };
                match projections::queries::privacy::erased_users(&read).await {
                    Ok(ids) => {
                        set.write().expect("erased accounts lock").extend(ids.iter().filter_map(|id| uuid::Uuid::try_parse(id).ok()))
                    }
                    Err(err) => tracing::debug!(%err, "could not read the erased accounts"),
                }
                drop(set);
                tokio::time::sleep(Self::REFRESH).await;
            }
        });
    }
}

/// Why the accounts services could not start.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// The secret file could not be read or written.
    #[error("server secret: {0}")]
    Secret(#[from] std::io::Error),
    /// The rate limits' database URL is unusable.
    #[error("rate limits: {0}")]
    RateLimits(#[from] sqlx::Error),
}

impl Accounts {
    /// The services as `config` describes them (generating the secret file on first start).
    pub fn from_config(config: &Config) -> Result<Self, SetupError> {
        let master = secrets::master_secret(config.jwt_secret.as_ref(), &config.data_dir.join("jwt-secret"))?;
        let keys = secrets::Keys::derive(&master);
        Ok(Self {
            tokens: tokens::Tokens::new(&keys.token),
            keys,
            limits: rate_limit::RateLimits::new(
                &config.rate_limit_database_url(),
                config.rate_limit_per_ip,
                config.rate_limit_per_account,
            )?,
            google: google::GoogleVerifier::new(config.google_client_id.clone(), config.google_jwks_url.clone()),
            erased: ErasedAccounts::default(),
        })
    }
}

impl From<AccountError> for ApiError {
    fn from(err: AccountError) -> Self {
        let message = err.to_string();
        match err {
            AccountError::Invalid(_)
            | AccountError::WrongCode { .. }
            | AccountError::TooManyAttempts
            | AccountError::CodeExpired
            | AccountError::NoPendingCode
            | AccountError::WrongPassword
            | AccountError::InvalidResetToken
            | AccountError::SameEmail
            | AccountError::InvalidNonce
            | AccountError::WalletNotLinked
            | AccountError::TooManyWebhooks => Self::BadRequest(message),
            AccountError::UnknownUser | AccountError::UnknownApiKey | AccountError::UnknownWebhook => Self::NotFound(message),
            AccountError::TooManyApiKeys => Self::Conflict(message),
            AccountError::AlreadyRegistered | AccountError::EmailTaken | AccountError::UsernameTaken | AccountError::WalletTaken => {
                Self::Conflict(message)
            }
            AccountError::InvalidCredentials => Self::BadCredentials(message),
            AccountError::NotVerified | AccountError::GooglePassword | AccountError::GoogleEmail => Self::Forbidden(message),
            // Answered as success by the one route where it can happen.
            AccountError::AlreadyVerified => Self::BadRequest(message),
        }
    }
}

impl From<repo::CommandError> for ApiError {
    fn from(err: repo::CommandError) -> Self {
        match err {
            repo::CommandError::Rejected(err) => err.into(),
            repo::CommandError::Store(err) => err.into(),
        }
    }
}

/// Runs a command on a user's stream and waits until the read models show it.
pub async fn execute<F>(state: &AppState, user_id: Uuid, decide: F) -> Result<repo::Executed, repo::CommandError>
where
    F: FnMut(&User) -> Result<Vec<UserEvent>, AccountError>,
{
    let metadata = Metadata { actor: Some(user_id.to_string()), correlation_id: Some(Uuid::now_v7()), ..Metadata::default() };
    let executed = repo::execute(state.store.as_ref(), user_id, &metadata, decide).await?;
    if let Some(position) = executed.position {
        state.projected(position).await;
    }
    Ok(executed)
}

/// A signed-in user's account, or 401 if the token names none or its session has ended (a
/// password reset or e-mail change since it was issued).
pub async fn load_signed_in(state: &AppState, user: AuthUser) -> Result<User, ApiError> {
    let loaded = repo::load(state.store.as_ref(), user.0).await?;
    let issued_at = chrono::DateTime::from_timestamp(user.1, 0).unwrap_or_default();
    // Tokens carry whole seconds: one issued in the second of the change still counts.
    let issued_at = issued_at + chrono::Duration::seconds(1);
    if loaded.user.session_valid(issued_at) { Ok(loaded.user) } else { Err(ApiError::Unauthorized) }
}
