//! A user's notices as they see them: those addressed to any wallet linked to them or to
//! themself (`user:{userId}`: moderation's notices), newest first, but the kinds they muted;
//! each read or not; and the unread count. The stream uses [`between`] for everybody's new
//! notices at once.

use serde::Serialize;
use sqlx::Row;

use super::{Page, Paged, iso, wei_to_matic};
use crate::ReadDb;

/// One notice.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct NoticeView {
    /// The log position of the fact it tells (what marking it read names). A fact may tell one
    /// user twice (a sale between two of their wallets): `kind` tells those apart.
    pub position: i64,
    /// One of `domain::notices::KINDS`.
    pub kind: String,
    /// The NFT (`{chain}-{token}`); empty for a moderation notice about a collection or a user.
    pub nft_id: String,
    /// Its title, when known.
    pub nft_title: Option<String>,
    /// Its file's CID, when known.
    pub nft_file: Option<String>,
    /// The amount in MATIC ("0" when none).
    pub amount: String,
    /// The same in wei.
    pub amount_wei: String,
    /// OUTBID: the bid that topped it, in MATIC (the new top bid); none for other kinds.
    pub top_amount: Option<String>,
    /// The same in wei.
    pub top_amount_wei: Option<String>,
    /// The other wallet (the new top bidder, the buyer, the owner...).
    pub counterpart_address: Option<String>,
    /// The user linked to it, if any.
    pub counterpart_user_id: Option<String>,
    /// That user's name.
    pub counterpart_username: Option<String>,
    /// The transaction.
    pub transaction_hash: String,
    /// When (block time, ISO 8601).
    pub created_at: String,
    /// Whether the user has read it.
    pub read: bool,
    /// A moderation notice's target: `nft`, `collection` or `user`.
    pub target_kind: Option<String>,
    /// Its id.
    pub target_id: Option<String>,
    /// Its title (an NFT's or a collection's) or a user's name, when known.
    pub target_title: Option<String>,
    /// The moderator's reason (HIDDEN, RESTORED, REPORT_DECIDED).
    pub reason: Option<String>,
    /// REPORT_DECIDED: what was decided (HIDE, RESTORE, DISMISS).
    pub decision: Option<String>,
}

/// A user's choices: kinds not shown, kinds also e-mailed.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct NoticeSettings {
    /// Kinds not shown at all.
    pub muted: Vec<String>,
    /// Kinds also sent by e-mail.
    pub email: Vec<String>,
}

const COLUMNS: &str = "n.position, n.kind, n.nft_id, d.title, d.file, n.amount, n.counterpart, cw.user_id, cu.username, n.tx_hash, n.at, n.top_amount, \
                       n.target_kind, n.target_id, CASE n.target_kind WHEN 'collection' THEN tc.title WHEN 'user' THEN tu.username \
                       WHEN 'nft' THEN d.title END, n.reason, n.decision";
/// The index of the first column after [`COLUMNS`].
const NEXT: usize = 17;
/// What [`COLUMNS`] reads beside notice `n` (a macro, so that [`JOINS`] can `concat!` it).
macro_rules! details {
    () => {
        "LEFT JOIN nft_details d ON d.nft_id = n.nft_id \
         LEFT JOIN user_wallets cw ON cw.address = n.counterpart LEFT JOIN users cu ON cu.user_id = cw.user_id \
         LEFT JOIN collections tc ON n.target_kind = 'collection' AND tc.collection_id = n.target_id \
         LEFT JOIN users tu ON n.target_kind = 'user' AND tu.user_id = n.target_id"
    };
}
const DETAILS: &str = details!();
const JOINS: &str = concat!("FROM notices n ", details!());
/// The keys a user's notices are addressed to: each of their wallets, and `user:{userId}`.
async fn recipients(pool: &sqlx::AnyPool, user_id: &str) -> Result<Vec<String>, sqlx::Error> {
    let mut keys = super::wallets_of(pool, user_id).await?;
    keys.push(format!("{USER_RECIPIENT}{user_id}"));
    Ok(keys)
}

/// `n.recipient = $k` for each of the user's `keys`, bound from `$2` on (`$1` is the user).
fn each_recipient(keys: &[String]) -> impl Iterator<Item = String> {
    (2..keys.len() + 2).map(|n| format!("n.recipient = ${n}"))
}
/// Whether notice `n` is read by the user `$1`.
const READ: &str = "(n.position <= COALESCE((SELECT r.read_up_to FROM notice_reads r WHERE r.user_id = $1), -1) \
                    OR EXISTS (SELECT 1 FROM notice_read x WHERE x.user_id = $1 AND x.position = n.position))";
/// The prefix of a notice addressed to a user rather than a wallet.
pub const USER_RECIPIENT: &str = "user:";

/// `user_id`'s settings (the defaults when they never chose).
pub async fn settings(db: &ReadDb, user_id: &str) -> Result<NoticeSettings, sqlx::Error> {
    let row: Option<(String, String)> = sqlx::query_as("SELECT muted, email FROM notice_settings WHERE user_id = $1")
        .bind(user_id)
        .fetch_optional(&db.reader().await)
        .await?;
    let split = |kinds: &str| kinds.split(',').filter(|kind| !kind.is_empty()).map(str::to_owned).collect();
    Ok(row.map(|(muted, email)| NoticeSettings { muted: split(&muted), email: split(&email) }).unwrap_or_default())
}

/// ` AND n.kind NOT IN (...)` for the muted kinds (only known kinds, which are plain words).
fn unmuted(settings: &NoticeSettings) -> String {
    let muted: Vec<String> =
        settings.muted.iter().filter(|kind| domain::notices::KINDS.contains(&kind.as_str())).map(|kind| format!("'{kind}'")).collect();
    if muted.is_empty() { String::new() } else { format!(" AND n.kind NOT IN ({})", muted.join(", ")) }
}

/// `user_id`'s notices, newest first (only the unread ones if `unread_only`).
pub async fn notices(db: &ReadDb, user_id: &str, unread_only: bool, page: Page) -> Result<Paged<NoticeView>, sqlx::Error> {
    let pool = db.reader().await;
    let keys = recipients(&pool, user_id).await?;
    let mut filter = unmuted(&settings(db, user_id).await?);
    if unread_only {
        filter = format!("{filter} AND NOT {READ}");
    }
    // The page's notices are chosen first, then only they are joined to their details: SQL
    // computes every selected column of every row it sorts, a user's thousands of notices. They
    // are chosen from one branch per recipient key, each read in the page's order off `notices
    // (recipient, position DESC, kind)` and merged, so a page reads its own rows and those before
    // it (one `recipient IN (...)` walked the whole table by position on Postgres, filtering).
    let branches: Vec<String> = each_recipient(&keys)
        .map(|mine| {
            format!(
                "SELECT n.position AS page_position, n.recipient AS page_recipient, n.kind AS page_kind FROM notices n WHERE {mine}{filter}"
            )
        })
        .collect();
    let sql = format!(
        "SELECT {COLUMNS}, CASE WHEN {READ} THEN 1 ELSE 0 END \
         FROM (SELECT page_position, page_recipient FROM ({}) mine ORDER BY page_position DESC, page_kind LIMIT {} OFFSET {}) page \
         JOIN notices n ON n.position = page.page_position AND n.recipient = page.page_recipient {DETAILS} \
         ORDER BY n.position DESC, n.kind",
        branches.join(" UNION ALL "),
        page.limit,
        page.offset()
    );
    let rows = keys.iter().fold(sqlx::query(&sql).bind(user_id), |query, key| query.bind(key)).fetch_all(&pool).await?;
    let total = count(&pool, user_id, &keys, &filter).await?;
    let data = rows.iter().map(|row| Ok(view(row)?.with_read(row.try_get::<i64, _>(NEXT)? != 0))).collect::<Result<_, sqlx::Error>>()?;
    Ok(Paged::new(data, total, page))
}

/// How many of `user_id`'s shown notices are unread.
pub async fn unread(db: &ReadDb, user_id: &str) -> Result<i64, sqlx::Error> {
    let pool = db.reader().await;
    let keys = recipients(&pool, user_id).await?;
    count(&pool, user_id, &keys, &format!("{} AND NOT {READ}", unmuted(&settings(db, user_id).await?))).await
}

/// How many notices to `keys` pass `filter` (` AND ...`): each key's counted off the index alone
/// and added up (an `OR` of the keys read every notice's row).
async fn count(pool: &sqlx::AnyPool, user_id: &str, keys: &[String], filter: &str) -> Result<i64, sqlx::Error> {
    let counts: Vec<String> = each_recipient(keys).map(|mine| format!("(SELECT COUNT(*) FROM notices n WHERE {mine}{filter})")).collect();
    let sql = format!("SELECT {}", counts.join(" + "));
    keys.iter().fold(sqlx::query_scalar(&sql).bind(user_id), |query, key| query.bind(key)).fetch_one(pool).await
}

/// Every notice of positions in `(after, up_to]`, with the user it reaches (a linked wallet's
/// user, or the user it is addressed to), in log order: what the stream hands each signed-in
/// client. Muted kinds are left to the client (it knows its settings), read flags are all false
/// (they are new).
pub async fn between(db: &ReadDb, after: i64, up_to: i64) -> Result<Vec<(String, NoticeView)>, sqlx::Error> {
    let sql = format!(
        "SELECT {COLUMNS}, w.user_id, n.recipient {JOINS} LEFT JOIN user_wallets w ON w.address = n.recipient \
         WHERE n.position > $1 AND n.position <= $2 AND (w.user_id IS NOT NULL OR n.recipient LIKE '{USER_RECIPIENT}%') \
         ORDER BY n.position, n.kind"
    );
    let rows = sqlx::query(&sql).bind(after).bind(up_to).fetch_all(&db.reader().await).await?;
    rows.iter()
        .map(|row| {
            let user = match row.try_get::<Option<String>, _>(NEXT)? {
                Some(user) => user,
                None => row.try_get::<String, _>(NEXT + 1)?[USER_RECIPIENT.len()..].to_owned(),
            };
            Ok((user, view(row)?))
        })
        .collect()
}

impl NoticeView {
    fn with_read(self, read: bool) -> Self {
        Self { read, ..self }
    }
}

fn view(row: &sqlx::any::AnyRow) -> Result<NoticeView, sqlx::Error> {
    let amount: String = row.try_get(5)?;
    let top: Option<String> = row.try_get(11)?;
    Ok(NoticeView {
        position: row.try_get(0)?,
        kind: row.try_get(1)?,
        nft_id: row.try_get(2)?,
        nft_title: row.try_get(3)?,
        nft_file: row.try_get(4)?,
        amount: wei_to_matic(&amount),
        amount_wei: amount,
        top_amount: top.as_deref().map(wei_to_matic),
        top_amount_wei: top,
        counterpart_address: row.try_get(6)?,
        counterpart_user_id: row.try_get(7)?,
        counterpart_username: row.try_get(8)?,
        transaction_hash: row.try_get(9)?,
        created_at: iso(row.try_get(10)?),
        read: false,
        target_kind: row.try_get(12)?,
        target_id: row.try_get(13)?,
        target_title: row.try_get(14)?,
        reason: row.try_get(15)?,
        decision: row.try_get(16)?,
    })
}
