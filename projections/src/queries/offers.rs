//! Offers as readers see them: an NFT's offers, the offers a user made, and the offers on the
//! NFTs a user owns, newest first. The state is read at `now`: an ACTIVE offer past its expiry
//! is EXPIRED (the contract refuses it from its expiry's second on, `now >= expiresAt`).

use std::fmt;

use serde::Serialize;
use sqlx::Row;

use super::{Page, Paged, iso, wei_to_matic};
use crate::ReadDb;

/// An offer's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum OfferState {
    /// Escrowed and acceptable until its expiry.
    Active,
    /// Accepted: the offerer bought the NFT.
    Accepted,
    /// Rejected by the owner, refunded.
    Rejected,
    /// Withdrawn by the offerer, refunded.
    Cancelled,
    /// Past its expiry, never closed: still escrowed until its offerer cancels it.
    Expired,
}

impl OfferState {
    /// Every state, in the order the API lists them.
    pub const ALL: [OfferState; 5] = [Self::Active, Self::Accepted, Self::Rejected, Self::Cancelled, Self::Expired];

    /// Its name (`ACTIVE`...).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Active => "ACTIVE",
            Self::Accepted => "ACCEPTED",
            Self::Rejected => "REJECTED",
            Self::Cancelled => "CANCELLED",
            Self::Expired => "EXPIRED",
        }
    }

    /// The state named `name` (case-insensitive).
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str().eq_ignore_ascii_case(name.trim()))
    }

    /// The SQL condition on `offers o` for this state at `$now`.
    fn condition(self) -> &'static str {
        match self {
            Self::Active => "o.state = 'ACTIVE' AND o.expires_at > $2",
            Self::Expired => "o.state = 'ACTIVE' AND o.expires_at <= $2",
            Self::Accepted => "o.state = 'ACCEPTED'",
            Self::Rejected => "o.state = 'REJECTED'",
            Self::Cancelled => "o.state = 'CANCELLED'",
        }
    }
}

impl fmt::Display for OfferState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One offer.
#[derive(Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct OfferView {
    /// Its id: the log position of the fact that opened it.
    pub id: i64,
    /// The NFT (`{chain}-{token}`).
    pub nft_id: String,
    /// The offerer's wallet.
    pub offerer_address: String,
    /// The user that wallet is linked to, if any.
    pub offerer_user_id: Option<String>,
    /// That user's name.
    pub offerer_username: Option<String>,
    /// The amount in MATIC.
    pub amount: String,
    /// The amount in wei (what `acceptOfferFrom` must name).
    pub amount_wei: String,
    /// When it stops being acceptable (ISO 8601).
    pub expires_at: String,
    /// The same, Unix seconds.
    pub expires_at_unix: i64,
    /// The service fee its sale pays (basis points).
    pub fee_bps: i64,
    /// Its state at read time.
    pub state: OfferState,
    /// How many times the offerer replaced it.
    pub replaced: i64,
    /// Whether the NFT was burned (an open offer on it can only be cancelled, and should be).
    pub nft_burned: bool,
    /// Whether the NFT's owner can accept it now: active, the NFT neither burned nor in an
    /// auction, and the offerer not its owner.
    pub acceptable: bool,
    /// Whether its offerer can still cancel it for a refund: active or expired.
    pub withdrawable: bool,
    /// Who accepted it (the seller), when accepted.
    pub seller: Option<String>,
    /// The transaction of its latest change.
    pub transaction_hash: String,
    /// When it was made (ISO 8601).
    pub created_at: String,
    /// When it last changed (ISO 8601).
    pub updated_at: String,
    /// When it was accepted, rejected or cancelled (ISO 8601).
    pub closed_at: Option<String>,
}

/// Which offers to list.
#[derive(Clone, Copy, Debug)]
pub enum Scope<'a> {
    /// The offers on one NFT.
    Nft(&'a str),
    /// The offers made from any wallet linked to this user.
    MadeBy(&'a str),
    /// The offers made to this user as the NFT's owner, but their own: the open ones on NFTs
    /// they own now (burned ones aside), and the closed ones (accepted, rejected, withdrawn)
    /// that were made to them, the owner when the offer closed, whoever owns the NFT since.
    ReceivedBy(&'a str),
}

const SELECT: &str = "SELECT o.position, o.nft_id, o.offerer, w.user_id, u.username, o.amount, o.expires_at, o.fee_bps, o.state, \
                      o.replaced, n.burned, n.sale_type, n.owner, o.seller, o.last_tx, o.made_at, o.updated_at, o.closed_at \
                      FROM offers o LEFT JOIN nfts n ON n.nft_id = o.nft_id \
                      LEFT JOIN user_wallets w ON w.address = o.offerer LEFT JOIN users u ON u.user_id = w.user_id";

/// The offers of `scope` in `state` (any when `None`) at `now` (Unix seconds), newest first.
pub async fn offers(
    db: &ReadDb,
    scope: Scope<'_>,
    state: Option<OfferState>,
    now: i64,
    page: Page,
) -> Result<Paged<OfferView>, sqlx::Error> {
    let pool = db.reader().await;
    // $1 is the scope's key, $2 the time.
    let (from, key) = match scope {
        Scope::Nft(nft_id) => ("o.nft_id = $1", nft_id),
        Scope::MadeBy(user_id) => ("w.user_id = $1", user_id),
        // A closed offer folded before `closed_owner` was kept (migration 0013) goes to its
        // seller if accepted, else to the current owner, as it did then.
        Scope::ReceivedBy(user_id) => (
            "o.offerer NOT IN (SELECT address FROM user_wallets WHERE user_id = $1) AND \
             CASE WHEN o.state = 'ACTIVE' THEN (CASE WHEN n.burned = 0 THEN n.owner END) \
             ELSE COALESCE(o.closed_owner, o.seller, n.owner) END IN (SELECT address FROM user_wallets WHERE user_id = $1)",
            user_id,
        ),
    };
    let filter = match state {
        Some(state) => format!("{from} AND {}", state.condition()),
        None => from.to_owned(),
    };
    // Only ACTIVE and EXPIRED depend on the time.
    let timed = matches!(state, Some(OfferState::Active | OfferState::Expired));
    let sql = format!("{SELECT} WHERE {filter} ORDER BY o.position DESC LIMIT {} OFFSET {}", page.limit, page.offset());
    let query = sqlx::query(&sql).bind(key);
    let rows = if timed { query.bind(now) } else { query }.fetch_all(&pool).await?;
    let sql = format!(
        "SELECT COUNT(*) FROM offers o LEFT JOIN nfts n ON n.nft_id = o.nft_id \
         LEFT JOIN user_wallets w ON w.address = o.offerer WHERE {filter}"
    );
    let query = sqlx::query_scalar(&sql).bind(key);
    let total: i64 = if timed { query.bind(now) } else { query }.fetch_one(&pool).await?;
    let data = rows.iter().map(|row| view(row, now)).collect::<Result<_, sqlx::Error>>()?;
    Ok(Paged::new(data, total, page))
}

fn view(row: &sqlx::any::AnyRow, now: i64) -> Result<OfferView, sqlx::Error> {
    let offerer: String = row.try_get(2)?;
    let amount: String = row.try_get(5)?;
    let expires_at: i64 = row.try_get(6)?;
    let stored: String = row.try_get(8)?;
    let burned = row.try_get::<Option<i64>, _>(10)?.unwrap_or(0) != 0;
    let sale_type: Option<String> = row.try_get(11)?;
    let owner: Option<String> = row.try_get(12)?;
    let state = match stored.as_str() {
        "ACTIVE" if now >= expires_at => OfferState::Expired,
        other => OfferState::parse(other).ok_or_else(|| sqlx::Error::Decode(format!("offer state {other:?}").into()))?,
    };
    let acceptable =
        state == OfferState::Active && !burned && sale_type.as_deref() != Some("AUCTION") && owner.as_deref() != Some(offerer.as_str());
    Ok(OfferView {
        id: row.try_get(0)?,
        nft_id: row.try_get(1)?,
        offerer_user_id: row.try_get(3)?,
        offerer_username: row.try_get(4)?,
        amount: wei_to_matic(&amount),
        amount_wei: amount,
        expires_at: iso(expires_at),
        expires_at_unix: expires_at,
        fee_bps: row.try_get(7)?,
        state,
        replaced: row.try_get(9)?,
        nft_burned: burned,
        acceptable,
        withdrawable: matches!(state, OfferState::Active | OfferState::Expired),
        seller: row.try_get(13)?,
        transaction_hash: row.try_get(14)?,
        created_at: iso(row.try_get(15)?),
        updated_at: iso(row.try_get(16)?),
        closed_at: row.try_get::<Option<i64>, _>(17)?.map(iso),
        offerer_address: offerer,
    })
}
