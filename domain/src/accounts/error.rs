//! Why an accounts command is refused. The messages are the ones the UI shows.

/// Every rule an accounts command can break.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AccountError {
    /// A field is missing or malformed; the message names it.
    #[error("{0}")]
    Invalid(String),
    /// No account has this id or e-mail.
    #[error("User not found")]
    UnknownUser,
    /// The account already exists (a second registration in the same stream).
    #[error("User already exists")]
    AlreadyRegistered,
    /// The e-mail belongs to another account.
    #[error("Email is already registered")]
    EmailTaken,
    /// The username belongs to another account.
    #[error("Username is not Available")]
    UsernameTaken,
    /// The wallet is linked to another account.
    #[error("This wallet is already linked to another account")]
    WalletTaken,
    /// Wrong e-mail or password (one message both ways: no account enumeration).
    #[error("Invalid email or password")]
    InvalidCredentials,
    /// The e-mail address is not verified yet.
    #[error("Cannot Login Email Not Verified, OTP send to your email")]
    NotVerified,
    /// The account is verified already.
    #[error("User is already verified")]
    AlreadyVerified,
    /// No code is waiting (none issued, or used up).
    #[error("No verification code is pending; request a new one")]
    NoPendingCode,
    /// The code does not match.
    #[error("Invalid verification code")]
    WrongCode {
        /// Wrong tries still allowed.
        attempts_left: u32,
    },
    /// Too many wrong tries: the code is dead.
    #[error("Too many wrong attempts; request a new verification code")]
    TooManyAttempts,
    /// The code's time is up.
    #[error("Verification code has expired; request a new one")]
    CodeExpired,
    /// GOOGLE accounts have no password of ours.
    #[error("Accounts signed in with Google cannot change their password")]
    GooglePassword,
    /// GOOGLE accounts keep Google's e-mail.
    #[error("You can't change your email")]
    GoogleEmail,
    /// The current password given for a change is wrong.
    #[error("Current password is incorrect")]
    WrongPassword,
    /// The reset link is unknown, used or expired.
    #[error("This password reset link is invalid or has expired")]
    InvalidResetToken,
    /// The new e-mail is the current one.
    #[error("The new email is the same as the current one")]
    SameEmail,
    /// The SIWE nonce was not issued to this user, was used, or expired.
    #[error("Invalid or expired nonce; request a new one")]
    InvalidNonce,
    /// The wallet to unlink is not linked to this account.
    #[error("This wallet is not linked to your account")]
    WalletNotLinked,
    /// No API key of this account has this id.
    #[error("API key not found")]
    UnknownApiKey,
    /// The account has as many live API keys as it may.
    #[error("You have too many API keys; revoke one first")]
    TooManyApiKeys,
    /// No webhook endpoint of this account has this id.
    #[error("Webhook endpoint not found")]
    UnknownWebhook,
    /// The account has as many webhook endpoints as it may.
    #[error("You have too many webhook endpoints; delete one first")]
    TooManyWebhooks,
}

impl AccountError {
    /// A validation error naming the problem.
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::Invalid(message.into())
    }
}
