//! The dev mailbox: messages as JSON files a developer (or an end-to-end test) can read.

use std::path::PathBuf;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{Mail, MailError, Mailer};

/// A stored message. `code` comes first, so the first number in the file is the code.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StoredMail {
    /// The verification code, if any.
    pub code: Option<String>,
    /// Recipient.
    pub to: String,
    /// Subject.
    pub subject: String,
    /// Body.
    pub text: String,
    /// The link, if any.
    pub link: Option<String>,
    /// When it was "sent" (RFC 3339).
    pub sent_at: String,
}

/// Writes each message to `<dir>/<time>-<id>.json` and logs its code or link.
pub struct DevMailbox {
    dir: PathBuf,
}

impl DevMailbox {
    /// A mailbox in `dir` (created on first message).
    pub fn new(dir: PathBuf) -> Self {
        Self { dir }
    }

    /// The latest messages to `to` (case-insensitive), newest first, at most `limit`.
    pub async fn latest(&self, to: &str, limit: usize) -> std::io::Result<Vec<StoredMail>> {
        let dir = self.dir.clone();
        let to = to.trim().to_lowercase();
        tokio::task::spawn_blocking(move || {
            let mut names: Vec<String> = match std::fs::read_dir(&dir) {
                Ok(entries) => entries.filter_map(|e| e.ok()?.file_name().into_string().ok()).filter(|n| n.ends_with(".json")).collect(),
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(vec![]),
                Err(err) => return Err(err),
            };
            // Names start with a zero-padded time: reverse name order is newest first.
            names.sort_unstable_by(|a, b| b.cmp(a));
            Ok(names
                .iter()
                .filter_map(|name| serde_json::from_slice::<StoredMail>(&std::fs::read(dir.join(name)).ok()?).ok())
                .filter(|m| m.to.to_lowercase() == to)
                .take(limit)
                .collect())
        })
        .await
        .map_err(std::io::Error::other)?
    }
}

#[async_trait]
impl Mailer for DevMailbox {
    async fn send(&self, mail: Mail) -> Result<(), MailError> {
        let now = chrono::Utc::now();
        let stored = StoredMail {
            code: mail.code.clone(),
            to: mail.to.clone(),
            subject: mail.subject,
            text: mail.text,
            link: mail.link.clone(),
            sent_at: now.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        };
        let name = format!("{:020}-{}.json", now.timestamp_micros(), uuid::Uuid::new_v4().simple());
        let dir = self.dir.clone();
        let json = serde_json::to_vec_pretty(&stored).map_err(|e| MailError::Build(e.to_string()))?;
        tokio::task::spawn_blocking(move || {
            std::fs::create_dir_all(&dir)?;
            let tmp = dir.join(format!(".{name}"));
            std::fs::write(&tmp, json)?;
            std::fs::rename(tmp, dir.join(name))
        })
        .await
        .map_err(|e| MailError::Send(e.to_string()))?
        .map_err(|e| MailError::Send(e.to_string()))?;
        match (&mail.code, &mail.link) {
            (Some(code), _) => tracing::info!("dev mailbox: code for {} is {code}", mail.to),
            (None, Some(link)) => tracing::info!("dev mailbox: link for {} is {link}", mail.to),
            (None, None) => tracing::info!("dev mailbox: message for {}", mail.to),
        }
        Ok(())
    }

    fn dev_mailbox(&self) -> Option<&DevMailbox> {
        Some(self)
    }
}
