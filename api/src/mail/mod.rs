//! Outgoing mail: verification codes and reset links.
//!
//! With `SMTP_URL` and `MAIL_FROM` set, mail goes through SMTP ([`SmtpMailer`], lettre). Otherwise
//! the [`DevMailbox`] is the mailer: every message becomes a JSON file under `MAILBOX_DIR`, is
//! logged ("dev mailbox: code for <email> is 123456"), and `GET /api/dev/mailbox?to=` lists the
//! latest; none of that exists when SMTP is configured, and codes are then never logged.

mod dev;
mod smtp;

use std::sync::Arc;

use async_trait::async_trait;

pub use dev::{DevMailbox, StoredMail};
pub use smtp::SmtpMailer;

use crate::config::Config;

/// One message.
#[derive(Clone, Debug)]
pub struct Mail {
    /// Recipient.
    pub to: String,
    /// Subject line.
    pub subject: String,
    /// Plain-text body.
    pub text: String,
    /// The verification code it carries, if any (the dev mailbox shows it apart).
    pub code: Option<String>,
    /// The link it carries, if any.
    pub link: Option<String>,
}

/// Why a message was not sent.
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    /// The message could not be built (bad address).
    #[error("cannot build the message: {0}")]
    Build(String),
    /// The transport failed.
    #[error("cannot send the message: {0}")]
    Send(String),
}

/// Sends mail.
#[async_trait]
pub trait Mailer: Send + Sync {
    /// Sends one message.
    async fn send(&self, mail: Mail) -> Result<(), MailError>;

    /// The dev mailbox, when it is the mailer (its route is mounted only then).
    fn dev_mailbox(&self) -> Option<&DevMailbox> {
        None
    }
}

/// The mailer the configuration asks for: SMTP when `SMTP_URL` and `MAIL_FROM` are set, else
/// the dev mailbox.
pub fn from_config(config: &Config) -> Result<Arc<dyn Mailer>, MailError> {
    match (&config.smtp_url, &config.mail_from) {
        (Some(url), Some(from)) => Ok(Arc::new(SmtpMailer::new(url.expose(), from)?)),
        (Some(_), None) | (None, Some(_)) => {
            Err(MailError::Build("SMTP_URL and MAIL_FROM must be set together (or neither, for the dev mailbox)".into()))
        }
        (None, None) => {
            tracing::info!(dir = %config.data_dir.join("mailbox").display(), "no SMTP configured: mail goes to the dev mailbox");
            Ok(Arc::new(DevMailbox::new(config.data_dir.join("mailbox"))))
        }
    }
}

/// The sign-up (or login-while-unverified) code.
pub fn account_code(to: &str, code: &str) -> Mail {
    Mail {
        to: to.to_owned(),
        subject: "Your verification code".into(),
        text: format!(
            "Your verification code is {code}.\n\nEnter it to verify your e-mail address. It expires in 15 minutes.\n\
             If you did not sign up, ignore this message."
        ),
        code: Some(code.to_owned()),
        link: None,
    }
}

/// The code confirming a new e-mail address.
pub fn email_change_code(to: &str, code: &str) -> Mail {
    Mail {
        to: to.to_owned(),
        subject: "Confirm your new email address".into(),
        text: format!(
            "Your verification code is {code}.\n\nEnter it to move your marketplace account to this address. \
             It expires in 15 minutes. If you did not ask for this, ignore this message."
        ),
        code: Some(code.to_owned()),
        link: None,
    }
}

/// A notice the user asked to get by e-mail: `sentence` tells it, `link` leads to its NFT.
pub fn notice(to: &str, subject: &str, sentence: &str, link: &str) -> Mail {
    Mail {
        to: to.to_owned(),
        subject: subject.to_owned(),
        text: format!(
            "{sentence}\n\n{link}\n\nYou get this e-mail because you asked for it in your notification settings \
             (at most one per kind and NFT every ten minutes); change them on the Notifications page."
        ),
        code: None,
        link: Some(link.to_owned()),
    }
}

/// The link that downloads a person's data.
pub fn export_link(to: &str, link: &str) -> Mail {
    Mail {
        to: to.to_owned(),
        subject: "Your data".into(),
        text: format!(
            "Open this link to download your data (profile, wallets, likes, bookmarks, collections, bids, offers, \
             notifications, messages) as one JSON file:\n\n{link}\n\nIt works for 24 hours. If you did not ask for it, \
             you can ignore this message."
        ),
        code: None,
        link: Some(link.to_owned()),
    }
}

/// The last message to an address whose account was deleted.
pub fn account_deleted(to: &str) -> Mail {
    Mail {
        to: to.to_owned(),
        subject: "Your account was deleted".into(),
        text: "Your marketplace account was deleted as you asked: your e-mail address, name, username, profile and \
               messages can no longer be read by anyone, us included. What you did on chain (NFTs, sales, bids, \
               offers, transfers) stays public under your wallet address. This address is not kept; this is the \
               last message you get from us."
            .into(),
        code: None,
        link: None,
    }
}

/// The password reset link.
pub fn reset_link(to: &str, link: &str) -> Mail {
    Mail {
        to: to.to_owned(),
        subject: "Reset your password".into(),
        text: format!(
            "Open this link to choose a new password:\n\n{link}\n\nIt works once and expires in one hour. \
             If you did not ask for a reset, ignore this message."
        ),
        code: None,
        link: Some(link.to_owned()),
    }
}
