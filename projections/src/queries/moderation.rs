//! Moderation's reads: who holds a role, the moderators' queue, a target's standing and
//! history, and the public record (`/transparency`). Reporters appear in the queue only (for
//! moderators); the record names decisions, never who reported.

use std::collections::BTreeMap;

use serde::Serialize;
use sqlx::Row;

use super::iso;
use crate::ReadDb;

/// The roles a user holds (`admin`, `moderator`), sorted.
pub async fn roles_of(db: &ReadDb, user_id: &str) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT role FROM staff_roles WHERE user_id = $1 ORDER BY role").bind(user_id).fetch_all(&db.reader().await).await
}

/// A member of the staff.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct StaffMember {
    /// User id.
    pub user_id: String,
    /// Username.
    pub username: String,
    /// Their roles, sorted.
    pub roles: Vec<String>,
    /// When the first of them was granted (ISO 8601).
    pub since: String,
}

/// Everyone who holds a role, by username.
pub async fn staff(db: &ReadDb) -> Result<Vec<StaffMember>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT r.user_id, COALESCE(u.username, ''), r.role, r.granted_at FROM staff_roles r LEFT JOIN users u ON u.user_id = r.user_id \
         ORDER BY u.username, r.user_id, r.role",
    )
    .fetch_all(&db.reader().await)
    .await?;
    let mut staff: Vec<StaffMember> = Vec::new();
    for row in rows {
        let (user_id, username, role, at): (String, String, String, i64) =
            (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?, row.try_get(3)?);
        match staff.last_mut() {
            Some(member) if member.user_id == user_id => {
                member.roles.push(role);
                member.since = member.since.clone().min(iso(at));
            }
            _ => staff.push(StaffMember { user_id, username, roles: vec![role], since: iso(at) }),
        }
    }
    Ok(staff)
}

/// A target's standing: hidden (why, when), appealed, verified.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Standing {
    /// Hidden by a moderator.
    pub hidden: bool,
    /// Why, as its owner reads it.
    pub hidden_reason: Option<String>,
    /// Since when (ISO 8601).
    pub hidden_at: Option<String>,
    /// Whether the hiding in force was appealed (there is one appeal per hiding).
    pub appealed: bool,
    /// Whether the appeal awaits a decision.
    pub appeal_pending: bool,
    /// Carries a verified badge.
    pub verified: bool,
}

/// A target's standing (the default when moderators never acted on it).
pub async fn standing(db: &ReadDb, kind: &str, id: &str) -> Result<Standing, sqlx::Error> {
    let row = sqlx::query(
        "SELECT hidden, hidden_reason, hidden_at, appealed, CASE WHEN appeal_text IS NULL THEN 0 ELSE 1 END, verified FROM moderated \
         WHERE target_kind = $1 AND target_id = $2",
    )
    .bind(kind)
    .bind(id)
    .fetch_optional(&db.reader().await)
    .await?;
    let Some(row) = row else { return Ok(Standing::default()) };
    Ok(Standing {
        hidden: row.try_get::<i64, _>(0)? != 0,
        hidden_reason: row.try_get(1)?,
        hidden_at: row.try_get::<Option<i64>, _>(2)?.map(iso),
        appealed: row.try_get::<i64, _>(3)? != 0,
        appeal_pending: row.try_get::<i64, _>(4)? != 0,
        verified: row.try_get::<i64, _>(5)? != 0,
    })
}

/// The wallets of verified users (lower-case): "verified only" on explore lists their tokens.
pub async fn verified_wallets(db: &ReadDb) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT w.address FROM moderated m JOIN user_wallets w ON w.user_id = m.target_id \
         WHERE m.target_kind = 'user' AND m.verified = 1 ORDER BY w.address",
    )
    .fetch_all(&db.reader().await)
    .await
}

/// A report, as moderators see it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ReportView {
    /// Report id.
    pub report_id: String,
    /// SCAM, EXPLICIT, SPAM, STOLEN or OTHER.
    pub reason: String,
    /// What the reporter wrote.
    pub text: String,
    /// Who reported (moderators only).
    pub reporter_id: String,
    /// Their username.
    pub reporter_username: String,
    /// When (ISO 8601).
    pub filed_at: String,
    /// OPEN, ACTIONED, DISMISSED, or MUTED (filed by a muted reporter: never queued).
    pub state: String,
    /// How many of the reporter's reports (on any target) were dismissed: what muting weighs.
    pub reporter_dismissed: i64,
    /// Whether the reporter is muted now.
    pub reporter_muted: bool,
}

/// A decision, as the record keeps it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct DecisionView {
    /// Its log position.
    pub position: i64,
    /// nft, collection or user.
    pub target_kind: String,
    /// The target's id.
    pub target_id: String,
    /// Its title (an NFT's or collection's) or username, from the read tables; `None` when
    /// unknown or while the target is hidden (a hidden item's title may be the abuse itself).
    pub target_title: Option<String>,
    /// Whether the target is hidden now.
    pub target_hidden: bool,
    /// HIDE, RESTORE, DISMISS, VERIFY, UNVERIFY, MUTE or UNMUTE.
    pub decision: String,
    /// The moderator's (or admin's) username.
    pub moderator: String,
    /// Why.
    pub reason: String,
    /// How many reports it decided.
    pub reports: i64,
    /// When (ISO 8601).
    pub at: String,
}

/// A target in the moderators' queue: its open reports, or its owner's appeal.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct QueueItem {
    /// nft, collection or user.
    pub target_kind: String,
    /// Its id.
    pub target_id: String,
    /// Its title (an NFT's or collection's) or username, when known.
    pub title: Option<String>,
    /// Its image's URL (`/ipfs/<cid>`: an NFT's file, a collection's image, a user's avatar), when known.
    pub image: Option<String>,
    /// Its standing now.
    pub standing: Standing,
    /// The appeal awaiting a decision, if any.
    pub appeal: Option<String>,
    /// When the oldest open report was filed (or the appeal, when none), ISO 8601.
    pub waiting_since: String,
    /// Its open reports, oldest first.
    pub open_reports: Vec<ReportView>,
    /// Its earlier reports (decided), newest first, at most 20.
    pub past_reports: Vec<ReportView>,
    /// Decisions on it, newest first, at most 20.
    pub decisions: Vec<DecisionView>,
}

const REPORT_COLUMNS: &str = "r.report_id, r.reason, r.text, r.reporter_id, COALESCE(u.username, ''), r.filed_at, r.state, \
                              (SELECT COUNT(*) FROM reports x WHERE x.reporter_id = r.reporter_id AND x.state = 'DISMISSED'), \
                              CASE WHEN EXISTS (SELECT 1 FROM muted_reporters mr WHERE mr.user_id = r.reporter_id) THEN 1 ELSE 0 END";

fn report(row: &sqlx::any::AnyRow) -> Result<ReportView, sqlx::Error> {
    Ok(ReportView {
        report_id: row.try_get(0)?,
        reason: row.try_get(1)?,
        text: row.try_get(2)?,
        reporter_id: row.try_get(3)?,
        reporter_username: row.try_get(4)?,
        filed_at: iso(row.try_get(5)?),
        state: row.try_get(6)?,
        reporter_dismissed: row.try_get(7)?,
        reporter_muted: row.try_get::<i64, _>(8)? != 0,
    })
}

const DECISION_COLUMNS: &str = "d.position, d.target_kind, d.target_id, d.decision, COALESCE(u.username, mu.username, ''), d.reason, d.reports, d.at, \
                                CASE WHEN COALESCE(m.hidden, 0) = 1 THEN NULL \
                                ELSE CASE d.target_kind WHEN 'nft' THEN nd.title WHEN 'collection' THEN c.title WHEN 'user' THEN tu.username END END, \
                                COALESCE(m.hidden, 0)";
/// The decisions with their moderator (a user, who decided here, or the wallet that signed a sale
/// hold and the user it is linked to), and their target's standing and title.
const DECISIONS: &str = "FROM moderation_decisions d LEFT JOIN users u ON u.user_id = d.moderator_id \
                         LEFT JOIN user_wallets mw ON mw.address = d.moderator_id LEFT JOIN users mu ON mu.user_id = mw.user_id \
                         LEFT JOIN moderated m ON m.target_kind = d.target_kind AND m.target_id = d.target_id \
                         LEFT JOIN nft_details nd ON d.target_kind = 'nft' AND nd.nft_id = d.target_id \
                         LEFT JOIN collections c ON d.target_kind = 'collection' AND c.collection_id = d.target_id \
                         LEFT JOIN users tu ON d.target_kind = 'user' AND tu.user_id = d.target_id";

fn decision(row: &sqlx::any::AnyRow) -> Result<DecisionView, sqlx::Error> {
    Ok(DecisionView {
        position: row.try_get(0)?,
        target_kind: row.try_get(1)?,
        target_id: row.try_get(2)?,
        decision: row.try_get(3)?,
        moderator: row.try_get(4)?,
        reason: row.try_get(5)?,
        reports: row.try_get(6)?,
        at: iso(row.try_get(7)?),
        target_title: row.try_get(8)?,
        target_hidden: row.try_get::<i64, _>(9)? != 0,
    })
}

/// The targets awaiting a decision (open reports or an appeal), longest waiting first, at most
/// `limit`; and how many there are in all.
pub async fn queue(db: &ReadDb, limit: u32) -> Result<(Vec<QueueItem>, i64), sqlx::Error> {
    let pool = db.reader().await;
    let waiting = "SELECT target_kind, target_id, MIN(filed_at) AS since FROM reports WHERE state = 'OPEN' GROUP BY target_kind, target_id \
                   UNION ALL SELECT target_kind, target_id, appealed_at FROM moderated WHERE appeal_text IS NOT NULL";
    let total: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM (SELECT DISTINCT target_kind, target_id FROM ({waiting}) w) t"))
        .fetch_one(&pool)
        .await?;
    let rows = sqlx::query(&format!(
        "SELECT target_kind, target_id, MIN(since) AS since FROM ({waiting}) w GROUP BY target_kind, target_id ORDER BY since, target_id LIMIT $1"
    ))
    .bind(i64::from(limit))
    .fetch_all(&pool)
    .await?;
    let mut items = Vec::with_capacity(rows.len());
    for row in rows {
        let (kind, id, since): (String, String, i64) = (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
        items.push(item(db, &kind, &id, since).await?);
    }
    Ok((items, total))
}

/// One target as the queue shows it, waiting since `since` (Unix seconds).
pub async fn item(db: &ReadDb, kind: &str, id: &str, since: i64) -> Result<QueueItem, sqlx::Error> {
    let pool = db.reader().await;
    let (title, image) = preview(db, kind, id).await?;
    let reports = sqlx::query(&format!(
        "SELECT {REPORT_COLUMNS} FROM reports r LEFT JOIN users u ON u.user_id = r.reporter_id \
         WHERE r.target_kind = $1 AND r.target_id = $2 ORDER BY r.position DESC LIMIT 200"
    ))
    .bind(kind)
    .bind(id)
    .fetch_all(&pool)
    .await?;
    let reports = reports.iter().map(report).collect::<Result<Vec<_>, _>>()?;
    let (mut open_reports, mut past_reports): (Vec<_>, Vec<_>) = reports.into_iter().partition(|r| r.state == "OPEN");
    open_reports.reverse();
    past_reports.truncate(20);
    let decisions = sqlx::query(&format!(
        "SELECT {DECISION_COLUMNS} {DECISIONS} \
         WHERE d.target_kind = $1 AND d.target_id = $2 ORDER BY d.position DESC LIMIT 20"
    ))
    .bind(kind)
    .bind(id)
    .fetch_all(&pool)
    .await?;
    let appeal: Option<String> =
        sqlx::query_scalar("SELECT appeal_text FROM moderated WHERE target_kind = $1 AND target_id = $2 AND appeal_text IS NOT NULL")
            .bind(kind)
            .bind(id)
            .fetch_optional(&pool)
            .await?;
    Ok(QueueItem {
        target_kind: kind.to_owned(),
        target_id: id.to_owned(),
        title,
        image,
        standing: standing(db, kind, id).await?,
        appeal,
        waiting_since: iso(since),
        open_reports,
        past_reports,
        decisions: decisions.iter().map(decision).collect::<Result<_, _>>()?,
    })
}

/// A target's title and image, when the read tables know them.
async fn preview(db: &ReadDb, kind: &str, id: &str) -> Result<(Option<String>, Option<String>), sqlx::Error> {
    let sql = match kind {
        "nft" => "SELECT title, file FROM nft_details WHERE nft_id = $1",
        "collection" => "SELECT title, image FROM collections WHERE collection_id = $1",
        _ => "SELECT username, avatar FROM users WHERE user_id = $1",
    };
    let row = sqlx::query(sql).bind(id).fetch_optional(&db.reader().await).await?;
    match row {
        Some(row) => {
            let image = row.try_get::<Option<String>, _>(1)?.filter(|c| !c.is_empty());
            Ok((row.try_get(0)?, image.map(|i| if i.starts_with("/ipfs/") { i } else { format!("/ipfs/{i}") })))
        }
        None => Ok((None, None)),
    }
}

/// One month of the public record.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct MonthView {
    /// `YYYY-MM` (UTC).
    pub month: String,
    /// Reports received, by reason.
    pub reports: BTreeMap<String, i64>,
    /// Decisions taken, by kind.
    pub decisions: BTreeMap<String, i64>,
    /// The median time from a report to its decision, in hours, over the reports decided that
    /// month; `None` when none was.
    pub median_hours_to_decision: Option<f64>,
}

/// The public record: per month (newest first), and the public decisions (hide, restore,
/// verify, unverify: dismissals concern reporters only), newest first, a page of them.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Transparency {
    /// Months with any report or decision, newest first.
    pub months: Vec<MonthView>,
    /// Public decisions on this page, newest first.
    pub decisions: Vec<DecisionView>,
    /// Public decisions in all.
    pub total_decisions: i64,
}

/// The decisions the public record lists.
const PUBLIC: &str = "d.decision IN ('HIDE', 'RESTORE', 'VERIFY', 'UNVERIFY', 'HOLD', 'RELEASE')";

fn month(seconds: i64) -> String {
    chrono::DateTime::<chrono::Utc>::from_timestamp(seconds, 0).unwrap_or_default().format("%Y-%m").to_string()
}

/// The month of `seconds` in `months`, added empty if missing.
fn month_of(months: &mut BTreeMap<String, MonthView>, seconds: i64) -> &mut MonthView {
    let key = month(seconds);
    months.entry(key.clone()).or_insert_with(|| MonthView {
        month: key,
        reports: BTreeMap::new(),
        decisions: BTreeMap::new(),
        median_hours_to_decision: None,
    })
}

/// The public record, its decisions from `offset`, `limit` of them.
pub async fn transparency(db: &ReadDb, offset: i64, limit: i64) -> Result<Transparency, sqlx::Error> {
    let pool = db.reader().await;
    let mut months: BTreeMap<String, MonthView> = BTreeMap::new();
    // Reports and their times to a decision: few enough per month to read whole (no reporter).
    let mut waits: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    for row in sqlx::query("SELECT reason, filed_at, decided_at FROM reports").fetch_all(&pool).await? {
        let (reason, filed, decided): (String, i64, Option<i64>) = (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
        *month_of(&mut months, filed).reports.entry(reason).or_default() += 1;
        if let Some(decided) = decided {
            waits.entry(month(decided)).or_default().push(decided - filed);
        }
    }
    for row in sqlx::query("SELECT decision, at FROM moderation_decisions").fetch_all(&pool).await? {
        let (kind, at): (String, i64) = (row.try_get(0)?, row.try_get(1)?);
        *month_of(&mut months, at).decisions.entry(kind).or_default() += 1;
    }
    for (key, mut seconds) in waits {
        seconds.sort_unstable();
        let median = if seconds.len() % 2 == 1 {
            seconds[seconds.len() / 2] as f64
        } else {
            (seconds[seconds.len() / 2 - 1] + seconds[seconds.len() / 2]) as f64 / 2.0
        };
        if let Some(view) = months.get_mut(&key) {
            view.median_hours_to_decision = Some((median / 3600.0 * 100.0).round() / 100.0);
        }
    }
    let total_decisions: i64 =
        sqlx::query_scalar(&format!("SELECT COUNT(*) FROM moderation_decisions d WHERE {PUBLIC}")).fetch_one(&pool).await?;
    let rows = sqlx::query(&format!(
        "SELECT {DECISION_COLUMNS} {DECISIONS} \
         WHERE {PUBLIC} ORDER BY d.position DESC LIMIT $1 OFFSET $2"
    ))
    .bind(limit)
    .bind(offset)
    .fetch_all(&pool)
    .await?;
    Ok(Transparency {
        months: months.into_values().rev().collect(),
        decisions: rows.iter().map(decision).collect::<Result<_, _>>()?,
        total_decisions,
    })
}

/// A person as a reporter: whether they are muted, and how many of their reports were dismissed.
pub async fn reporter(db: &ReadDb, user_id: &str) -> Result<(bool, i64), sqlx::Error> {
    let row = sqlx::query(
        "SELECT CASE WHEN EXISTS (SELECT 1 FROM muted_reporters WHERE user_id = $1) THEN 1 ELSE 0 END, \
         (SELECT COUNT(*) FROM reports WHERE reporter_id = $1 AND state = 'DISMISSED')",
    )
    .bind(user_id)
    .fetch_one(&db.reader().await)
    .await?;
    Ok((row.try_get::<i64, _>(0)? != 0, row.try_get(1)?))
}

/// The id of the user with this username (any case), if any.
pub async fn user_named(db: &ReadDb, username: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT user_id FROM users WHERE LOWER(username) = LOWER($1)")
        .bind(username)
        .fetch_optional(&db.reader().await)
        .await
}

/// The id of the user with this e-mail address (kept lower-cased), if any.
pub async fn user_with_email(db: &ReadDb, email: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT user_id FROM users WHERE email = $1").bind(email.to_lowercase()).fetch_optional(&db.reader().await).await
}

/// Whether a target exists, and the users it belongs to (an NFT's owner's and creator's, a
/// collection's creator, a user themself); `None` when there is no such target.
pub async fn facts(db: &ReadDb, kind: &str, id: &str) -> Result<Option<Vec<String>>, sqlx::Error> {
    let pool = db.reader().await;
    match kind {
        "nft" => {
            let row =
                sqlx::query("SELECT owner, creator FROM nfts WHERE nft_id = $1 AND burned = 0").bind(id).fetch_optional(&pool).await?;
            let Some(row) = row else { return Ok(None) };
            let (owner, creator): (String, String) = (row.try_get(0)?, row.try_get(1)?);
            let users = sqlx::query_scalar("SELECT DISTINCT user_id FROM user_wallets WHERE address IN ($1, $2)")
                .bind(owner)
                .bind(creator)
                .fetch_all(&pool)
                .await?;
            Ok(Some(users))
        }
        "collection" => {
            let creator: Option<String> = sqlx::query_scalar("SELECT creator_user_id FROM collections WHERE collection_id = $1")
                .bind(id)
                .fetch_optional(&pool)
                .await?;
            Ok(creator.map(|c| vec![c]))
        }
        _ => {
            let user: Option<String> =
                sqlx::query_scalar("SELECT user_id FROM users WHERE user_id = $1").bind(id).fetch_optional(&pool).await?;
            Ok(user.map(|u| vec![u]))
        }
    }
}

/// Whether `user_id` may still see the taken-down file `cid`: they own an NFT or created a
/// collection using it (hidden from others, not from them), or they are staff (who judge it).
pub async fn sees_taken_down(db: &ReadDb, user_id: &str, cid: &str) -> Result<bool, sqlx::Error> {
    let url = format!("/ipfs/{cid}");
    let count: i64 = sqlx::query_scalar(
        "SELECT (SELECT COUNT(*) FROM nft_details d JOIN nfts n ON n.nft_id = d.nft_id AND n.burned = 0 \
                 JOIN user_wallets w ON w.address = n.owner WHERE d.file = $1 AND w.user_id = $3) \
              + (SELECT COUNT(*) FROM collections c WHERE c.image = $2 AND c.creator_user_id = $3) \
              + (SELECT COUNT(*) FROM staff_roles r WHERE r.user_id = $3)",
    )
    .bind(&url)
    .bind(cid)
    .bind(user_id)
    .fetch_one(&db.reader().await)
    .await?;
    Ok(count > 0)
}

/// Whether the file `cid` is to be taken down: an NFT or collection using it is hidden, and
/// none that uses it shows.
pub async fn taken_down(db: &ReadDb, cid: &str) -> Result<bool, sqlx::Error> {
    let pool = db.reader().await;
    // NFTs name their file by URL, collections by CID.
    let url = format!("/ipfs/{cid}");
    // Hidden targets are few: start from them.
    let hidden: i64 = sqlx::query_scalar(
        "SELECT (SELECT COUNT(*) FROM moderated m JOIN nft_details d ON d.nft_id = m.target_id \
                 WHERE m.target_kind = 'nft' AND m.hidden = 1 AND d.file = $1) \
              + (SELECT COUNT(*) FROM moderated m JOIN collections c ON c.collection_id = m.target_id \
                 WHERE m.target_kind = 'collection' AND m.hidden = 1 AND c.image = $2)",
    )
    .bind(&url)
    .bind(cid)
    .fetch_one(&pool)
    .await?;
    if hidden == 0 {
        return Ok(false);
    }
    let shown: i64 = sqlx::query_scalar(
        "SELECT (SELECT COUNT(*) FROM nft_details d LEFT JOIN moderated m ON m.target_kind = 'nft' AND m.target_id = d.nft_id \
                 WHERE d.file = $1 AND COALESCE(m.hidden, 0) = 0) \
              + (SELECT COUNT(*) FROM collections c LEFT JOIN moderated m ON m.target_kind = 'collection' AND m.target_id = c.collection_id \
                 WHERE c.image = $2 AND COALESCE(m.hidden, 0) = 0)",
    )
    .bind(&url)
    .bind(cid)
    .fetch_one(&pool)
    .await?;
    Ok(shown == 0)
}
