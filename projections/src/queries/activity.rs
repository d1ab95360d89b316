//! The activity feed (issue 21): what happened on the market, newest first, from `nft_history`
//! (see `migrations/*/0010_activity.sql`): mints, listings, price changes, bids, sales,
//! transfers, stops, burns and offers made, each with its price and the people on both sides.
//!
//! Filters combine (all must hold): a kind, one NFT, the NFTs of a collection, a user (any of
//! their linked wallets, on either side of a row). Each has its index: the primary key
//! backwards for the whole feed, `(kind, position)`, `(nft_id, kind, position)`, and
//! `(address, position)` with `(counterpart, position)` for a user's wallets. A page is chosen
//! from the indexes alone, then its rows are read (see docs/read-models.md for the plans).

use std::fmt;

use serde::Serialize;
use sqlx::Row;

use super::{
    Page, Paged, iso,
    nft::{Person, people},
    wei_to_matic,
};
use crate::ReadDb;

/// What kind of fact an activity row is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ActivityKind {
    /// Minted (`MINTED`).
    Mint,
    /// Put on sale at a fixed price or in an auction (`PUT_ON_FIXEDSALE`, `PUT_ON_AUCTION`).
    List,
    /// A listing's new price (`PRICE_CHANGED`).
    Price,
    /// A bid (`BIDDED_FOR`).
    Bid,
    /// A sale: bought, won in an auction or an accepted offer (`PURCHASED`, `WON_AUCTION`).
    Sale,
    /// Given to another wallet outside a sale (`TRANSFERRED`).
    Transfer,
    /// Taken off sale (`REMOVED_FROM_SALE`).
    Stop,
    /// Burned (`BURNED`).
    Burn,
    /// An offer made or raised (`OFFER_MADE`).
    Offer,
}

impl ActivityKind {
    /// Every kind, in the order the API lists them.
    pub const ALL: [ActivityKind; 9] =
        [Self::Mint, Self::List, Self::Price, Self::Bid, Self::Sale, Self::Transfer, Self::Stop, Self::Burn, Self::Offer];

    /// Its name, as stored in `nft_history.kind` and sent (`MINT`...).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Mint => "MINT",
            Self::List => "LIST",
            Self::Price => "PRICE",
            Self::Bid => "BID",
            Self::Sale => "SALE",
            Self::Transfer => "TRANSFER",
            Self::Stop => "STOP",
            Self::Burn => "BURN",
            Self::Offer => "OFFER",
        }
    }

    /// The kind named `name` (case-insensitive).
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str().eq_ignore_ascii_case(name.trim()))
    }
}

impl fmt::Display for ActivityKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which rows to list: every filter given must hold.
#[derive(Clone, Copy, Debug, Default)]
pub struct ActivityFilter<'a> {
    /// Only this kind.
    pub kind: Option<ActivityKind>,
    /// Only this NFT (`{chain}-{token}`).
    pub nft_id: Option<&'a str>,
    /// Only the NFTs in this collection now.
    pub collection_id: Option<&'a str>,
    /// Only rows where a wallet linked to this user is on either side.
    pub user_id: Option<&'a str>,
}

/// One row of the feed.
#[derive(Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ActivityView {
    /// Its log position: unique, and newer rows have larger ones.
    pub id: i64,
    /// Its kind.
    pub kind: ActivityKind,
    /// The fact as the NFT history names it (`PUT_ON_AUCTION`, `WON_AUCTION`...).
    pub event: String,
    /// The NFT (`{chain}-{token}`).
    pub nft_id: String,
    /// Its title ("" before its details are recorded).
    pub nft_title: String,
    /// Its image URL (`/ipfs/<cid>`, "" before its details are recorded).
    pub nft_file: String,
    /// The price in MATIC: a listing's price (an auction's start price), a new price, a bid, a
    /// sale's price, an offer; null for the other kinds.
    pub price: Option<String>,
    /// The same in wei.
    pub price_wei: Option<String>,
    /// Who did it: the minter, the lister, the bidder, the buyer, the sender, the burner, the
    /// offerer.
    pub address: String,
    /// The user behind that wallet, if it is linked to one.
    pub user: Option<Person>,
    /// Who it was done to: a sale's seller, a transfer's receiver, the owner a bid was made to.
    pub counterpart: Option<String>,
    /// The user behind that wallet, if it is linked to one.
    pub counterpart_user: Option<Person>,
    /// The transaction.
    pub transaction_hash: String,
    /// When (block time, ISO 8601).
    pub timestamp: String,
}

/// The activity rows that pass `filter`, newest first: a page, and how many there are in all.
pub async fn activity(db: &ReadDb, filter: ActivityFilter<'_>, page: Page) -> Result<Paged<ActivityView>, sqlx::Error> {
    let total = count(db, filter).await?;
    rows(db, filter, page, total).await
}

/// The rows of `nft_history h` that pass `filter`, as branches no row is in twice, each a
/// `WHERE` (every branch's condition and the filter's); and the values their `$n` stand for.
///
/// A user's rows (`wallets`: theirs) are the rows each of their wallets did and the rows done to
/// each that none of them did, one branch per wallet and side, each read in position order
/// through its index: a page takes the first rows of each branch and merges them, reading no
/// more than its own rows and those before it, and a count adds up the branches' (a `UNION`
/// of the two sides sorted all of a creator's 41,000 rows to drop duplicates, 600 ms a page on
/// Postgres at 1,000,000 NFTs; an `OR` of the sides would read the whole table). No wallet, no
/// branch. Any other filter is one branch. A kind with an NFT or a collection is only checked,
/// not looked up (`kind || ''` keeps the planner off the kind index: their rows are far fewer
/// than a kind's); the NFT index holds the kind, so their rows of a kind are read from the index
/// alone. A user's branches compare the kind plainly: their indexes hold it after the position
/// (migration 0023), so it is checked in the index entry before any row is read (a creator's
/// page of a kind they have no row of read all 26,000 of their rows, 136 ms, and now 7 ms).
fn condition<'a>(filter: ActivityFilter<'a>, wallets: &'a [String], hidden: Hidden) -> (Vec<String>, Vec<&'a str>) {
    let mut conditions: Vec<String> = Vec::new();
    let mut values: Vec<&'a str> = Vec::new();
    let mut branches = vec![String::new()];
    if filter.user_id.is_some() {
        values.extend(wallets.iter().map(String::as_str));
        let mine = super::placeholders(wallets.len());
        branches = (1..=wallets.len())
            .map(|n| format!("h.address = ${n}"))
            .chain((1..=wallets.len()).map(|n| format!("h.counterpart = ${n} AND h.address NOT IN ({mine})")))
            .collect();
    }
    let mut add = |value, condition: &dyn Fn(usize) -> String| {
        values.push(value);
        conditions.push(condition(values.len()));
    };
    // Rows of hidden NFTs are found through the NFTs' index too: they are few.
    let narrowed = filter.nft_id.is_some() || filter.collection_id.is_some() || filter.user_id.is_some() || matches!(hidden, Hidden::Only);
    if let Some(kind) = filter.kind {
        // A user's branches read the kind in their index entries (migration 0023): plain there.
        if narrowed && filter.user_id.is_none() {
            add(kind.as_str(), &|n| format!("(h.kind || '') = ${n}"));
        } else {
            add(kind.as_str(), &|n| format!("h.kind = ${n}"));
        }
    }
    if let Some(nft_id) = filter.nft_id {
        add(nft_id, &|n| format!("h.nft_id = ${n}"));
    }
    if let Some(collection_id) = filter.collection_id {
        add(collection_id, &|n| format!("h.nft_id IN (SELECT c.nft_id FROM collection_nfts c WHERE c.collection_id = ${n})"));
    }
    match hidden {
        Hidden::Any => {}
        Hidden::Left => conditions.push(format!("h.nft_id NOT IN ({HIDDEN_NFTS})")),
        Hidden::Only => conditions.push(format!("h.nft_id IN ({HIDDEN_NFTS})")),
    }
    let wheres = branches
        .into_iter()
        .map(|branch| {
            let all: Vec<&str> =
                std::iter::once(branch.as_str()).filter(|b| !b.is_empty()).chain(conditions.iter().map(String::as_str)).collect();
            if all.is_empty() { String::new() } else { format!("WHERE {}", all.join(" AND ")) }
        })
        .collect();
    (wheres, values)
}

/// The NFTs a moderator hid: their rows are in nobody's feed (their owner reads them on the
/// NFT's own page). Few beside the rest, so a subquery read once per statement.
const HIDDEN_NFTS: &str = "SELECT m.target_id FROM moderated m WHERE m.target_kind = 'nft' AND m.hidden = 1";

/// Which rows of hidden NFTs a statement reads.
#[derive(Clone, Copy)]
enum Hidden {
    /// All rows.
    Any,
    /// None of them (a page).
    Left,
    /// Only them (what a count takes away).
    Only,
}

/// How many rows pass `filter`.
///
/// The whole feed's rows, or a kind's, are not counted here: the projector keeps their totals in
/// `activity_counts` (a kind's rows are a million index entries at a million NFTs). An NFT's, a
/// collection's or a user's rows are counted through their indexes. Rows of hidden NFTs are
/// counted apart, through the NFTs' index, and taken away.
pub async fn count(db: &ReadDb, filter: ActivityFilter<'_>) -> Result<i64, sqlx::Error> {
    let pool = db.reader().await;
    let wallets = wallets_of(&pool, filter).await?;
    let narrowed = filter.nft_id.is_some() || filter.collection_id.is_some() || filter.user_id.is_some();
    let all: i64 = match (narrowed, filter.kind) {
        (false, None) => sqlx::query_scalar("SELECT CAST(COALESCE(SUM(total), 0) AS BIGINT) FROM activity_counts").fetch_one(&pool).await?,
        (false, Some(kind)) => sqlx::query_scalar("SELECT total FROM activity_counts WHERE kind = $1")
            .bind(kind.as_str())
            .fetch_optional(&pool)
            .await?
            .unwrap_or(0),
        (true, _) => counted(&pool, filter, &wallets, Hidden::Any).await?,
    };
    Ok(all - counted(&pool, filter, &wallets, Hidden::Only).await?)
}

/// The wallets of the user `filter` names, if it names one.
async fn wallets_of(pool: &sqlx::AnyPool, filter: ActivityFilter<'_>) -> Result<Vec<String>, sqlx::Error> {
    match filter.user_id {
        Some(user_id) => super::wallets_of(pool, user_id).await,
        None => Ok(Vec::new()),
    }
}

/// `COUNT(*)` of the rows that pass `filter` and `hidden` (each branch's, added up).
async fn counted(pool: &sqlx::AnyPool, filter: ActivityFilter<'_>, wallets: &[String], hidden: Hidden) -> Result<i64, sqlx::Error> {
    let (wheres, values) = condition(filter, wallets, hidden);
    if wheres.is_empty() {
        return Ok(0);
    }
    let counts: Vec<String> = wheres.iter().map(|w| format!("(SELECT COUNT(*) FROM nft_history h {w})")).collect();
    let sql = format!("SELECT {}", counts.join(" + "));
    let mut query = sqlx::query_scalar(&sql);
    for value in values {
        query = query.bind(value);
    }
    query.fetch_one(pool).await
}

/// A page of the rows that pass `filter`, newest first, of `total` in all (see [`count`]).
pub async fn rows(db: &ReadDb, filter: ActivityFilter<'_>, page: Page, total: i64) -> Result<Paged<ActivityView>, sqlx::Error> {
    let pool = db.reader().await;
    let wallets = wallets_of(&pool, filter).await?;
    let (wheres, values) = condition(filter, &wallets, Hidden::Left);
    if wheres.is_empty() {
        return Ok(Paged::new(Vec::new(), total, page));
    }
    // The page's positions first, from the indexes alone (each branch's first rows, merged);
    // then those rows and their NFTs.
    let (limit, offset) = (page.limit, page.offset());
    let positions = match wheres.as_slice() {
        [one] => format!("SELECT h.position FROM nft_history h {one} ORDER BY h.position DESC LIMIT {limit} OFFSET {offset}"),
        many => {
            let firsts: Vec<String> = many
                .iter()
                .enumerate()
                .map(|(i, w)| {
                    let first =
                        format!("SELECT h.position FROM nft_history h {w} ORDER BY h.position DESC LIMIT {}", offset + i64::from(limit));
                    format!("SELECT b{i}.position FROM ({first}) b{i}")
                })
                .collect();
            format!("SELECT m.position FROM ({}) m ORDER BY m.position DESC LIMIT {limit} OFFSET {offset}", firsts.join(" UNION ALL "))
        }
    };
    let sql = format!(
        "SELECT h.position, h.kind, h.type_of_event, h.nft_id, COALESCE(d.title, ''), COALESCE(d.file, ''), h.price, \
         h.address, h.counterpart, h.tx_hash, h.at \
         FROM ({positions}) p \
         JOIN nft_history h ON h.position = p.position LEFT JOIN nft_details d ON d.nft_id = h.nft_id \
         ORDER BY h.position DESC"
    );
    let mut query = sqlx::query(&sql);
    for value in values {
        query = query.bind(value);
    }
    let rows = query.fetch_all(&pool).await?;

    let mut addresses = Vec::with_capacity(rows.len() * 2);
    for row in &rows {
        addresses.push(row.try_get::<String, _>(7)?);
        if let Some(counterpart) = row.try_get::<Option<String>, _>(8)? {
            addresses.push(counterpart);
        }
    }
    let people = people(db, &addresses).await?;
    let data = rows
        .iter()
        .map(|row| {
            let kind: String = row.try_get(1)?;
            let price: Option<String> = row.try_get(6)?;
            let address: String = row.try_get(7)?;
            let counterpart: Option<String> = row.try_get(8)?;
            Ok(ActivityView {
                id: row.try_get(0)?,
                kind: ActivityKind::parse(&kind).ok_or_else(|| sqlx::Error::Decode(format!("activity kind {kind:?}").into()))?,
                event: row.try_get(2)?,
                nft_id: row.try_get(3)?,
                nft_title: row.try_get(4)?,
                nft_file: row.try_get(5)?,
                price: price.as_deref().map(wei_to_matic),
                price_wei: price,
                user: people.get(&address).cloned(),
                address,
                counterpart_user: counterpart.as_ref().and_then(|c| people.get(c).cloned()),
                counterpart,
                transaction_hash: row.try_get(9)?,
                timestamp: iso(row.try_get(10)?),
            })
        })
        .collect::<Result<_, sqlx::Error>>()?;
    Ok(Paged::new(data, total, page))
}
