//! A user's notices as they see them: those addressed to any wallet linked to them, newest
//! first, but the kinds they muted; each read or not; and the unread count. The stream uses
//! [`between`] for everybody's new notices at once.

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
    /// OUTBID, BID_RECEIVED, SOLD, BOUGHT, BID_ACCEPTED, BID_REJECTED, AUCTION_ENDED,
    /// OFFER_RECEIVED, OFFER_ACCEPTED, OFFER_REJECTED.
    pub kind: String,
    /// The NFT (`{chain}-{token}`).
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

const COLUMNS: &str = "n.position, n.kind, n.nft_id, d.title, d.file, n.amount, n.counterpart, cw.user_id, cu.username, n.tx_hash, n.at, \
                       CASE WHEN n.kind = 'OUTBID' THEN (SELECT t.amount FROM notices t WHERE t.position < n.position \
                       AND t.tx_hash = n.tx_hash AND t.nft_id = n.nft_id AND t.kind = 'BID_RECEIVED' ORDER BY t.position DESC LIMIT 1) END";
// An outbid's new top bid is the bid its transaction placed: told to the owner (BID_RECEIVED) just
// before the refund that told the outbid bidder; read back here rather than stored twice.
const JOINS: &str = "FROM notices n JOIN user_wallets w ON w.address = n.recipient \
                     LEFT JOIN nft_details d ON d.nft_id = n.nft_id \
                     LEFT JOIN user_wallets cw ON cw.address = n.counterpart LEFT JOIN users cu ON cu.user_id = cw.user_id";
/// Whether notice `n` is read by `w.user_id`.
const READ: &str = "(n.position <= COALESCE((SELECT r.read_up_to FROM notice_reads r WHERE r.user_id = w.user_id), -1) \
                    OR EXISTS (SELECT 1 FROM notice_read x WHERE x.user_id = w.user_id AND x.position = n.position))";

/// `user_id`'s settings (the defaults when they never chose).
pub async fn settings(db: &ReadDb, user_id: &str) -> Result<NoticeSettings, sqlx::Error> {
    let row: Option<(String, String)> =
        sqlx::query_as("SELECT muted, email FROM notice_settings WHERE user_id = $1").bind(user_id).fetch_optional(&db.pool()).await?;
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
    let pool = db.pool();
    let mut filter = format!("w.user_id = $1{}", unmuted(&settings(db, user_id).await?));
    if unread_only {
        filter = format!("{filter} AND NOT {READ}");
    }
    let sql = format!(
        "SELECT {COLUMNS}, CASE WHEN {READ} THEN 1 ELSE 0 END {JOINS} WHERE {filter} \
         ORDER BY n.position DESC, n.kind LIMIT {} OFFSET {}",
        page.limit,
        page.offset()
    );
    let rows = sqlx::query(&sql).bind(user_id).fetch_all(&pool).await?;
    let total: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) {JOINS} WHERE {filter}")).bind(user_id).fetch_one(&pool).await?;
    let data = rows.iter().map(|row| Ok(view(row)?.with_read(row.try_get::<i64, _>(12)? != 0))).collect::<Result<_, sqlx::Error>>()?;
    Ok(Paged::new(data, total, page))
}

/// How many of `user_id`'s shown notices are unread.
pub async fn unread(db: &ReadDb, user_id: &str) -> Result<i64, sqlx::Error> {
    let filter = format!("w.user_id = $1{} AND NOT {READ}", unmuted(&settings(db, user_id).await?));
    sqlx::query_scalar(&format!("SELECT COUNT(*) {JOINS} WHERE {filter}")).bind(user_id).fetch_one(&db.pool()).await
}

/// Every notice of positions in `(after, up_to]`, with the user it reaches (one per linked
/// wallet's user), in log order: what the stream hands each signed-in client. Muted kinds are
/// left to the client (it knows its settings), read flags are all false (they are new).
pub async fn between(db: &ReadDb, after: i64, up_to: i64) -> Result<Vec<(String, NoticeView)>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS}, w.user_id {JOINS} WHERE n.position > $1 AND n.position <= $2 ORDER BY n.position, n.kind");
    let rows = sqlx::query(&sql).bind(after).bind(up_to).fetch_all(&db.pool()).await?;
    rows.iter().map(|row| Ok((row.try_get(12)?, view(row)?))).collect()
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
    })
}
