//! SMTP through lettre: `smtps://user:pass@host:465` (TLS) or `smtp://...?tls=required`
//! (STARTTLS), as lettre's connection URLs read.

use async_trait::async_trait;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor, message::Mailbox};

use super::{Mail, MailError, Mailer};

/// Sends through an SMTP server. Codes are never logged.
pub struct SmtpMailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl SmtpMailer {
    /// A mailer for `url`, sending as `from`.
    pub fn new(url: &str, from: &str) -> Result<Self, MailError> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            // The URL holds a password: say what is wrong without repeating it.
            .map_err(|_| MailError::Build("SMTP_URL is not a valid SMTP connection URL".into()))?
            .build();
        let from = from.parse().map_err(|_| MailError::Build("MAIL_FROM is not a valid address".into()))?;
        Ok(Self { transport, from })
    }
}

#[async_trait]
impl Mailer for SmtpMailer {
    async fn send(&self, mail: Mail) -> Result<(), MailError> {
        let to: Mailbox = mail.to.parse().map_err(|_| MailError::Build("invalid recipient".into()))?;
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(mail.subject)
            .body(mail.text)
            .map_err(|e| MailError::Build(e.to_string()))?;
        self.transport.send(message).await.map_err(|e| MailError::Send(e.to_string()))?;
        Ok(())
    }
}
