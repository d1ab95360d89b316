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

#[cfg(test)]
mod tests {
    use tokio::{
        io::{AsyncBufReadExt, AsyncWriteExt, BufReader},
        net::TcpListener,
    };

    use super::*;

    /// A minimal SMTP server on loopback: answers the commands lettre sends and returns the
    /// envelope and message it received.
    async fn smtp_peer(listener: TcpListener) -> Vec<String> {
        let (socket, _) = listener.accept().await.expect("a connection");
        let (read, mut write) = socket.into_split();
        let mut lines = BufReader::new(read).lines();
        let mut seen = Vec::new();
        write.write_all(b"220 test ESMTP\r\n").await.unwrap();
        while let Some(line) = lines.next_line().await.unwrap() {
            let upper = line.to_ascii_uppercase();
            seen.push(line.clone());
            let reply: &[u8] = if upper.starts_with("EHLO") || upper.starts_with("HELO") {
                b"250-test\r\n250 8BITMIME\r\n"
            } else if upper.starts_with("DATA") {
                write.write_all(b"354 go on\r\n").await.unwrap();
                while let Some(data) = lines.next_line().await.unwrap() {
                    if data == "." {
                        break;
                    }
                    seen.push(data);
                }
                b"250 queued\r\n"
            } else if upper.starts_with("QUIT") {
                write.write_all(b"221 bye\r\n").await.unwrap();
                break;
            } else {
                b"250 ok\r\n"
            };
            write.write_all(reply).await.unwrap();
        }
        seen
    }

    #[tokio::test]
    async fn mail_goes_out_through_a_real_smtp_conversation() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let peer = tokio::spawn(smtp_peer(listener));
        let mailer = SmtpMailer::new(&format!("smtp://127.0.0.1:{port}"), "Market <no-reply@example.com>").unwrap();

        mailer
            .send(Mail {
                to: "ada@example.com".into(),
                subject: "Your verification code".into(),
                text: "Your code is 123456".into(),
                code: Some("123456".into()),
                link: None,
            })
            .await
            .expect("sent");
        drop(mailer);

        let seen = tokio::time::timeout(std::time::Duration::from_secs(10), peer).await.expect("in time").unwrap();
        assert!(seen.iter().any(|l| l.to_ascii_uppercase().starts_with("MAIL FROM:<NO-REPLY@EXAMPLE.COM>")), "{seen:?}");
        assert!(seen.iter().any(|l| l.to_ascii_uppercase().starts_with("RCPT TO:<ADA@EXAMPLE.COM>")), "{seen:?}");
        assert!(seen.iter().any(|l| l == "Subject: Your verification code"), "{seen:?}");
        assert!(seen.iter().any(|l| l.contains("Your code is 123456")), "{seen:?}");
    }

    #[test]
    fn a_bad_url_is_refused_without_echoing_it() {
        let Err(err) = SmtpMailer::new("not a url with secret-password", "a@b.co") else { panic!("accepted") };
        assert!(!err.to_string().contains("secret-password"));
    }
}
