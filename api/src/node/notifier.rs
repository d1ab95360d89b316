//! Notices by e-mail: each new notice of a kind its user asked to get by e-mail (and did not
//! mute) goes out through the mailer, at most one per user, kind and NFT every ten minutes.
//!
//! It follows the stream hub, so it sees each notice once as it is projected (not the history
//! before the process started). On a Postgres deployment only the elected process sends.

use std::{
    collections::HashMap,
    time::{Duration, Instant},
};

use projections::queries::notices::{self, NoticeView};
use tokio::sync::broadcast::error::RecvError;

use super::Node;
use crate::mail;

/// At most one e-mail per user, kind and NFT this often.
pub const EMAIL_INTERVAL: Duration = Duration::from_secs(10 * 60);

/// What a notice names: its NFT, or a moderation notice's collection or user.
fn subject_title(notice: &NoticeView) -> String {
    let title = notice.target_title.clone().or_else(|| notice.nft_title.clone()).filter(|t| !t.is_empty());
    match notice.target_kind.as_deref() {
        Some("collection") => title.map_or_else(|| "your collection".to_owned(), |t| format!("the collection {t}")),
        Some("user") => title.map_or_else(|| "a user".to_owned(), |t| format!("the user {t}")),
        _ => title.unwrap_or_else(|| format!("NFT {}", notice.nft_id)),
    }
}

/// The page a notice's e-mail links to (path from the site's root).
pub fn link(notice: &NoticeView) -> String {
    let id = notice.target_id.as_deref().unwrap_or_default();
    match notice.target_kind.as_deref() {
        Some("collection") => format!("/collection/{id}"),
        Some("user") => format!("/user/{id}"),
        _ => format!("/nft/{}", notice.nft_id),
    }
}

/// The subject and the sentence of a notice's e-mail.
pub fn wording(notice: &NoticeView) -> (String, String) {
    let title = subject_title(notice);
    let reason = notice.reason.clone().unwrap_or_default();
    let amount = format!("{} MATIC", notice.amount);
    let who = notice.counterpart_username.clone().or_else(|| notice.counterpart_address.clone()).unwrap_or_else(|| "someone".into());
    let (subject, sentence) = match notice.kind.as_str() {
        "OUTBID" => ("You were outbid", format!("You were outbid on {title}: {who} bid more. Your {amount} was refunded.")),
        "BID_RECEIVED" => ("New bid on your NFT", format!("New bid on {title}: {amount} from {who}.")),
        "SOLD" => ("Your NFT sold", format!("{title} sold to {who} for {amount}.")),
        "BOUGHT" => ("You bought an NFT", format!("You bought {title} for {amount}.")),
        "BID_ACCEPTED" => ("You won an auction", format!("You won {title} with your bid of {amount}.")),
        "BID_REJECTED" => ("Your bid was rejected", format!("Your bid of {amount} on {title} was rejected and refunded.")),
        "AUCTION_ENDING" => ("An auction ends soon", format!("The auction of {title} ends within the hour.")),
        "AUCTION_ENDED" => ("An auction ended", format!("The auction of {title} ended.")),
        "OFFER_RECEIVED" => ("New offer on your NFT", format!("New offer on {title}: {amount} from {who}.")),
        "OFFER_ACCEPTED" => ("Your offer was accepted", format!("Your offer of {amount} on {title} was accepted: it is yours.")),
        "OFFER_REJECTED" => ("Your offer was rejected", format!("Your offer of {amount} on {title} was rejected and refunded.")),
        "SALE_HELD" => (
            "Sale on hold",
            format!(
                "A moderator put the sale of {title} on hold: it was reported stolen. It cannot be listed, bought or offered for on \
                 this market until the hold ends (its page shows when); transfers stay free and open offers can be withdrawn."
            ),
        ),
        "SALE_RELEASED" => {
            ("Sale hold released", format!("The hold on the sale of {title} was released: it can be listed and sold again."))
        }
        "HIDDEN" => (
            "A moderator hid your item",
            format!("A moderator hid {title} from everyone but you: {reason}. Its page says why; you can appeal once."),
        ),
        "RESTORED" => ("Your item is visible again", format!("A moderator restored {title}: {reason}.")),
        "REPORT_DECIDED" => {
            let outcome = match notice.decision.as_deref() {
                Some("HIDE") => "it was hidden",
                Some("RESTORE") => "it was restored and shows again",
                _ => "it was dismissed",
            };
            ("Your report was decided", format!("Your report of {title} was decided: {outcome}. The moderator's reason: {reason}."))
        }
        "APPEAL_DECLINED" => (
            "Your appeal was turned down",
            format!("A moderator reviewed your appeal of {title}: it stays hidden. The moderator's reason: {reason}."),
        ),
        other => ("Notification", format!("{other}: {title}")),
    };
    (subject.to_owned(), sentence)
}

/// Starts sending notices by e-mail for as long as the process runs.
pub fn spawn(state: Node) {
    tokio::spawn(async move {
        let (_, mut updates) = state.stream.subscribe();
        let mut sent: HashMap<(String, String, String), Instant> = HashMap::new();
        loop {
            let update = match updates.recv().await {
                Ok(update) => update,
                Err(RecvError::Lagged(missed)) => {
                    tracing::warn!(missed, "the e-mail notifier fell behind; those notices are not e-mailed");
                    continue;
                }
                Err(RecvError::Closed) => return,
            };
            if state.leading.as_ref().is_some_and(|leading| !*leading.borrow()) {
                continue;
            }
            sent.retain(|_, at| at.elapsed() < EMAIL_INTERVAL);
            for (user, notice) in &update.notices {
                let key = (user.clone(), notice.kind.clone(), link(notice));
                if sent.contains_key(&key) {
                    continue;
                }
                match wanted(&state, user, &notice.kind).await {
                    Ok(Some(to)) => {
                        let (subject, sentence) = wording(notice);
                        let link = format!("{}{}", state.config.site_url(), link(notice));
                        state.send_mail(mail::notice(&to, &subject, &sentence, &link)).await;
                        sent.insert(key, Instant::now());
                    }
                    Ok(None) => {}
                    Err(err) => tracing::warn!(%err, "reading notice settings"),
                }
            }
        }
    });
}

/// The user's address, if they want `kind` by e-mail (and have not muted it).
async fn wanted(state: &Node, user: &str, kind: &str) -> Result<Option<String>, sqlx::Error> {
    let settings = notices::settings(&state.read, user).await?;
    if !settings.email.iter().any(|k| k == kind) || settings.muted.iter().any(|k| k == kind) {
        return Ok(None);
    }
    sqlx::query_scalar("SELECT email FROM users WHERE user_id = $1").bind(user).fetch_optional(&state.read.pool()).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notice(kind: &str) -> NoticeView {
        NoticeView {
            position: 9,
            kind: kind.into(),
            nft_id: String::new(),
            nft_title: None,
            nft_file: None,
            amount: "0".into(),
            amount_wei: "0".into(),
            top_amount: None,
            top_amount_wei: None,
            counterpart_address: None,
            counterpart_user_id: None,
            counterpart_username: None,
            transaction_hash: String::new(),
            created_at: "2026-11-29T00:00:00Z".into(),
            read: false,
            target_kind: Some("collection".into()),
            target_id: Some("c-1".into()),
            target_title: Some("Harbour".into()),
            reason: Some("Sells copies".into()),
            decision: None,
        }
    }

    #[test]
    fn a_moderation_notice_names_its_target_and_reason_and_links_to_it() {
        let (subject, sentence) = wording(&notice("HIDDEN"));
        assert_eq!(subject, "A moderator hid your item");
        assert!(sentence.contains("the collection Harbour") && sentence.contains("Sells copies"), "{sentence}");
        assert_eq!(link(&notice("HIDDEN")), "/collection/c-1");
        let decided = NoticeView { decision: Some("DISMISS".into()), ..notice("REPORT_DECIDED") };
        assert!(wording(&decided).1.contains("it was dismissed"), "{:?}", wording(&decided));
        let (subject, sentence) = wording(&notice("APPEAL_DECLINED"));
        assert_eq!(subject, "Your appeal was turned down");
        assert!(sentence.contains("stays hidden") && sentence.contains("Sells copies"), "{sentence}");
        let nft = NoticeView {
            nft_id: "80001-7".into(),
            target_kind: Some("nft".into()),
            target_id: Some("80001-7".into()),
            ..notice("RESTORED")
        };
        assert_eq!(link(&nft), "/nft/80001-7");
        let trade = NoticeView { nft_id: "80001-7".into(), target_kind: None, target_id: None, ..notice("SOLD") };
        assert_eq!(link(&trade), "/nft/80001-7", "a trade's notice leads to its NFT as before");
    }
}
