//! What the privacy routes read: a person's own data for the export, what they still have open
//! on chain before they erase their account, and whether a file is still used by anyone else.
//!
//! The export reads whole rows (every column but secrets' hashes) so that a column added later
//! reaches the person's copy without anyone remembering to add it here.

use std::collections::HashSet;

use serde::Serialize;
use serde_json::{Map, Value};
use sqlx::{Column, Row, any::AnyRow};

use crate::ReadDb;

/// Something a person still has open on chain under one of their wallets: only that wallet can
/// cancel it, so erasing the account leaves it standing (under the address, no longer a name).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenOnChain {
    /// `LISTING`, `AUCTION`, `BID` (the top bid of a running auction) or `OFFER`.
    pub kind: String,
    /// The NFT.
    pub nft_id: String,
    /// Its title ('' for a token minted elsewhere without one).
    pub title: String,
}

/// `$first, $first+1, ...` for `count` values.
fn placeholders(first: usize, count: usize) -> String {
    (first..first + count).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ")
}

/// What `wallets` still have open on chain: fixed-price listings and auctions of NFTs they own,
/// the top bids they hold in running auctions, their open offers.
pub async fn open_on_chain(db: &ReadDb, wallets: &[String]) -> Result<Vec<OpenOnChain>, sqlx::Error> {
    if wallets.is_empty() {
        return Ok(Vec::new());
    }
    let list = placeholders(1, wallets.len());
    let sql = format!(
        "SELECT CASE n.sale_type WHEN 'AUCTION' THEN 'AUCTION' ELSE 'LISTING' END AS kind, n.nft_id, COALESCE(d.title, '') AS title \
         FROM nfts n LEFT JOIN nft_details d ON d.nft_id = n.nft_id \
         WHERE n.owner IN ({list}) AND n.burned = 0 AND n.sale_type <> 'NOT_FOR_SALE' \
         UNION ALL \
         SELECT 'BID', n.nft_id, COALESCE(d.title, '') FROM nfts n LEFT JOIN nft_details d ON d.nft_id = n.nft_id \
         WHERE n.highest_bidder IN ({list}) AND n.sale_type = 'AUCTION' AND n.burned = 0 \
         UNION ALL \
         SELECT 'OFFER', o.nft_id, COALESCE(d.title, '') FROM offers o LEFT JOIN nft_details d ON d.nft_id = o.nft_id \
         WHERE o.offerer IN ({list}) AND o.closed_at IS NULL \
         ORDER BY 1, 2"
    );
    let mut query = sqlx::query(&sql);
    for wallet in wallets {
        query = query.bind(wallet.to_lowercase());
    }
    let rows = query.fetch_all(&db.reader().await).await?;
    rows.iter().map(|r| Ok(OpenOnChain { kind: r.try_get(0)?, nft_id: r.try_get(1)?, title: r.try_get(2)? })).collect()
}

/// A row as a JSON object, column by column (integers, reals, text or null).
fn row_json(row: &AnyRow) -> Value {
    let mut object = Map::new();
    for (i, column) in row.columns().iter().enumerate() {
        let value = if let Ok(v) = row.try_get::<Option<i64>, _>(i) {
            v.map_or(Value::Null, Value::from)
        } else if let Ok(v) = row.try_get::<Option<f64>, _>(i) {
            v.map_or(Value::Null, Value::from)
        } else if let Ok(v) = row.try_get::<Option<String>, _>(i) {
            v.map_or(Value::Null, Value::from)
        } else if let Ok(v) = row.try_get::<Option<bool>, _>(i) {
            v.map_or(Value::Null, Value::from)
        } else {
            Value::Null
        };
        object.insert(column.name().to_owned(), value);
    }
    Value::Object(object)
}

/// The rows `sql` selects for `binds`, as JSON objects.
async fn rows(db: &ReadDb, sql: &str, binds: &[String]) -> Result<Value, sqlx::Error> {
    let mut query = sqlx::query(sql);
    for value in binds {
        query = query.bind(value);
    }
    Ok(Value::Array(query.fetch_all(&db.reader().await).await?.iter().map(row_json).collect()))
}

/// A person's data in the read models, section by section: profile, wallets, likes, bookmarks,
/// collections (with their members) and the collections they like, bids and offers from their
/// wallets, notices and their settings, API keys and webhook endpoints (never a key's hash or an
/// endpoint's secret salt), the reports they filed.
pub async fn personal_data(db: &ReadDb, user_id: &str, wallets: &[String]) -> Result<Map<String, Value>, sqlx::Error> {
    let me = [user_id.to_owned()];
    let mut with_wallets = vec![user_id.to_owned()];
    with_wallets.extend(wallets.iter().map(|w| w.to_lowercase()));
    let in_wallets = if wallets.is_empty() { "NULL".to_owned() } else { placeholders(2, wallets.len()) };
    let mut recipients = with_wallets.clone();
    recipients[0] = format!("user:{user_id}");
    let sections: [(&str, String, &[String]); 15] = [
        ("profile", "SELECT * FROM users WHERE user_id = $1".into(), &me),
        ("wallets", "SELECT * FROM user_wallets WHERE user_id = $1 ORDER BY linked_at".into(), &me),
        ("likes", "SELECT * FROM likes WHERE user_id = $1 ORDER BY nft_id".into(), &me),
        ("bookmarks", "SELECT * FROM bookmarks WHERE user_id = $1 ORDER BY nft_id".into(), &me),
        ("collections", "SELECT * FROM collections WHERE creator_user_id = $1 ORDER BY created_at".into(), &me),
        (
            "collectionMembers",
            "SELECT m.* FROM collection_nfts m JOIN collections c ON c.collection_id = m.collection_id \
             WHERE c.creator_user_id = $1 ORDER BY m.collection_id"
                .into(),
            &me,
        ),
        ("collectionLikes", "SELECT * FROM collection_likes WHERE user_id = $1 ORDER BY collection_id".into(), &me),
        ("bids", format!("SELECT * FROM bids WHERE bidder IN ({in_wallets}) AND $1 <> '' ORDER BY position"), &with_wallets),
        ("offers", format!("SELECT * FROM offers WHERE offerer IN ({in_wallets}) AND $1 <> '' ORDER BY position"), &with_wallets),
        (
            "notifications",
            format!("SELECT * FROM notices WHERE recipient IN ({}) ORDER BY position", placeholders(1, recipients.len())),
            &recipients,
        ),
        ("notificationSettings", "SELECT * FROM notice_settings WHERE user_id = $1".into(), &me),
        (
            "apiKeys",
            "SELECT key_id, name, scopes, prefix, created_at, revoked_at FROM api_keys WHERE user_id = $1 ORDER BY created_at".into(),
            &me,
        ),
        (
            "webhookEndpoints",
            "SELECT endpoint_id, url, topics, notice_kinds, created_at, updated_at, deleted_at FROM webhook_endpoints \
             WHERE user_id = $1 ORDER BY created_at"
                .into(),
            &me,
        ),
        ("reports", "SELECT * FROM reports WHERE reporter_id = $1 ORDER BY filed_at".into(), &me),
        ("staffRoles", "SELECT * FROM staff_roles WHERE user_id = $1".into(), &me),
    ];
    let mut data = Map::new();
    for (name, sql, binds) in sections {
        let mut value = rows(db, &sql, binds).await?;
        if name == "profile" {
            value = value.as_array().and_then(|rows| rows.first().cloned()).unwrap_or(Value::Null);
        }
        data.insert(name.to_owned(), value);
    }
    Ok(data)
}

/// Which of `cids` someone other than `user_id` still uses: another person's avatar or cover,
/// an NFT's file, a collection's image.
pub async fn files_in_use(db: &ReadDb, cids: &[String], user_id: &str) -> Result<HashSet<String>, sqlx::Error> {
    let mut used = HashSet::new();
    for cid in cids {
        let like = format!("%{cid}%");
        let sql = "SELECT 1 FROM users WHERE user_id <> $2 AND (avatar = $1 OR cover_image = $1) \
                   UNION ALL SELECT 1 FROM nft_details WHERE file LIKE $3 \
                   UNION ALL SELECT 1 FROM collections WHERE image = $1 LIMIT 1";
        let found = sqlx::query(sql).bind(cid).bind(user_id).bind(&like).fetch_optional(&db.reader().await).await?;
        if found.is_some() {
            used.insert(cid.clone());
        }
    }
    Ok(used)
}

/// The ids of erased accounts (sessions of theirs are refused).
pub async fn erased_users(db: &ReadDb) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT user_id FROM users WHERE erased_at IS NOT NULL").fetch_all(&db.reader().await).await
}
