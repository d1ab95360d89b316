//! `notices`: the chain's facts addressed to the wallets they concern, and each user's reads and
//! settings (see `migrations/*/0011_notices.sql`).
//!
//! Who is told what:
//! - a bid: the owner (BID_RECEIVED); the bid it replaced, refunded in the same transaction,
//!   its bidder (OUTBID); a refund in any other transaction (the auction stopped, bought out or
//!   the token moved) its bidder (AUCTION_ENDED);
//! - the owner's rejection of the top bid: its bidder (BID_REJECTED);
//! - an auction's end: with the top bidder winning, the winner (BID_ACCEPTED); without a
//!   winner, the owner (AUCTION_ENDED);
//! - a sale: the seller (SOLD) and the buyer (BOUGHT), unless the buyer was just told they won
//!   the auction or had their offer accepted;
//! - an offer: the owner (OFFER_RECEIVED); its acceptance or rejection, the offerer
//!   (OFFER_ACCEPTED, OFFER_REJECTED).
//!
//! Whom to tell depends on the token's owner and top bid *at that event*, which this model keeps
//! in `notice_tokens`. Every statement is written so the database reads that table, never this
//! code (`INSERT ... SELECT ... FROM notice_tokens`), and statements run in log order: the result
//! is the same however the log is cut into batches, and a fresh generation fills it in its
//! pipeline like the other models.

use async_trait::async_trait;
use domain::{RecordedEvent, chain::ChainEvent, notices::NoticeEvent};

use crate::{
    ProjectionError, ReadModel,
    sql::{self, Conn, Value},
};

/// The notices tables.
#[derive(Default)]
pub struct Notices;

/// The zero address, an auction's end without a winner.
const NOBODY: &str = "0x0000000000000000000000000000000000000000";

/// The NFT id (`{chain}-{token}`) of an event of an `nft-{chain}-{token}` stream.
fn nft_of(event: &RecordedEvent) -> Result<&str, ProjectionError> {
    event
        .stream_id
        .strip_prefix("nft-")
        .filter(|rest| rest.split_once('-').is_some())
        .ok_or_else(|| ProjectionError::malformed(event, "not in an nft-{chain}-{token} stream"))
}

/// A wallet a notice names: read from the token's row (its owner, its top bidder), or given.
#[derive(Clone, Copy)]
enum Party<'a> {
    Owner,
    Bidder,
    Wallet(&'a str),
    Nobody,
}

/// One notice of a fact: what every recipient of it shares.
struct Notice<'a> {
    position: i64,
    kind: &'static str,
    amount: &'a str,
    tx: &'a str,
    at: i64,
    nft_id: &'a str,
}

impl<'n> Notice<'n> {
    fn new(position: i64, nft_id: &'n str, kind: &'static str, amount: &'n str, origin: &'n domain::chain::Origin) -> Self {
        Self { position, kind, amount, tx: &origin.tx_hash, at: origin.block_time, nft_id }
    }

    /// Tells `recipient`, naming `counterpart`, if the token is known and `condition` holds of
    /// its `notice_tokens` row. The condition may name `{recipient}`, `{counterpart}` and `{tx}`.
    async fn tell(
        &self,
        conn: &mut Conn<'_>,
        recipient: Party<'n>,
        counterpart: Party<'n>,
        condition: &str,
    ) -> Result<(), ProjectionError> {
        let mut values: Vec<Value<'n>> =
            vec![self.position.into(), self.kind.into(), self.amount.into(), self.tx.into(), self.at.into(), self.nft_id.into()];
        let mut party = |party: Party<'n>| match party {
            Party::Owner => "owner".to_owned(),
            Party::Bidder => "bidder".to_owned(),
            Party::Nobody => "NULL".to_owned(),
            Party::Wallet(wallet) => {
                values.push(Value::Text(wallet));
                format!("${}", values.len())
            }
        };
        let (recipient, counterpart) = (party(recipient), party(counterpart));
        let condition = condition.replace("{recipient}", &recipient).replace("{counterpart}", &counterpart).replace("{tx}", "$4");
        let sql = format!(
            "INSERT INTO notices (position, recipient, kind, nft_id, amount, counterpart, tx_hash, at) \
             SELECT $1, {recipient}, $2, nft_id, $3, {counterpart}, $4, $5 FROM notice_tokens WHERE nft_id = $6 AND {condition}"
        );
        sql::execute(conn, &sql, &values).await
    }
}

/// Always.
const ANY: &str = "1 = 1";

#[async_trait]
impl ReadModel for Notices {
    fn handles(&self, event_type: &str) -> bool {
        matches!(
            event_type,
            "NftMinted"
                | "NftTransferred"
                | "NftBurned"
                | "BidPlaced"
                | "BidRefunded"
                | "BidRejected"
                | "AuctionEnded"
                | "NftSold"
                | "OfferMade"
                | "OfferAccepted"
                | "OfferRejected"
        ) || NoticeEvent::TYPES.contains(&event_type)
    }

    async fn apply(&self, conn: &mut Conn<'_>, events: &[&RecordedEvent]) -> Result<(), ProjectionError> {
        for event in events {
            if NoticeEvent::TYPES.contains(&event.event_type.as_str()) {
                let parsed: NoticeEvent = event.payload().map_err(|e| ProjectionError::malformed(event, e.to_string()))?;
                apply_user(conn, parsed).await?;
                continue;
            }
            let nft_id = nft_of(event)?;
            let parsed: ChainEvent = event.payload().map_err(|e| ProjectionError::malformed(event, e.to_string()))?;
            let position = event.position as i64;
            match &parsed {
                ChainEvent::NftMinted { creator, .. } => {
                    let sql = format!(
                        "INSERT INTO notice_tokens (nft_id, owner, bidder, bid_tx, told_buyer) VALUES ($1, $2, NULL, NULL, NULL) {}",
                        sql::upsert(&["nft_id"], &["nft_id", "owner", "bidder", "bid_tx", "told_buyer"])
                    );
                    sql::execute(conn, &sql, &[nft_id.into(), creator.into()]).await?;
                }
                ChainEvent::NftTransferred { to, .. } => {
                    sql::execute(conn, "UPDATE notice_tokens SET owner = $1 WHERE nft_id = $2", &[to.into(), nft_id.into()]).await?;
                }
                ChainEvent::NftBurned { .. } => {
                    sql::execute(conn, "DELETE FROM notice_tokens WHERE nft_id = $1", &[nft_id.into()]).await?;
                }
                ChainEvent::BidPlaced { bidder, amount, origin, .. } => {
                    Notice::new(position, nft_id, "BID_RECEIVED", amount, origin)
                        .tell(conn, Party::Owner, Party::Wallet(bidder), ANY)
                        .await?;
                    let values = [bidder.into(), (&origin.tx_hash).into(), nft_id.into()];
                    sql::execute(conn, "UPDATE notice_tokens SET bidder = $1, bid_tx = $2 WHERE nft_id = $3", &values).await?;
                }
                ChainEvent::BidRefunded { bidder, amount, origin, .. } => {
                    // Refunded by the bid just placed (same transaction) of another bidder:
                    // outbid; of the same bidder: a raise, nothing to tell. Refunded in another
                    // transaction: the auction stopped, was bought out, or the token moved.
                    let refunded = Party::Wallet(bidder);
                    let outbid = Notice::new(position, nft_id, "OUTBID", amount, origin);
                    outbid.tell(conn, refunded, Party::Bidder, "bid_tx = {tx} AND bidder <> {recipient}").await?;
                    let ended = Notice::new(position, nft_id, "AUCTION_ENDED", amount, origin);
                    ended.tell(conn, refunded, Party::Owner, "(bid_tx IS NULL OR bid_tx <> {tx})").await?;
                }
                ChainEvent::BidRejected { bidder, amount, origin, .. } => {
                    Notice::new(position, nft_id, "BID_REJECTED", amount, origin)
                        .tell(conn, Party::Wallet(bidder), Party::Owner, ANY)
                        .await?;
                    clear_bid(conn, nft_id).await?;
                }
                ChainEvent::AuctionEnded { winner, amount, origin, .. } => {
                    if winner == NOBODY {
                        Notice::new(position, nft_id, "AUCTION_ENDED", amount, origin).tell(conn, Party::Owner, Party::Nobody, ANY).await?;
                        clear_bid(conn, nft_id).await?;
                    } else {
                        // The top bid won (accepted, or settled after the end); a buy-out is
                        // only a sale.
                        let won = Notice::new(position, nft_id, "BID_ACCEPTED", amount, origin);
                        won.tell(conn, Party::Wallet(winner), Party::Owner, "bidder = {recipient}").await?;
                        let values = [winner.into(), nft_id.into()];
                        sql::execute(conn, "UPDATE notice_tokens SET told_buyer = $1 WHERE nft_id = $2 AND bidder = $1", &values).await?;
                    }
                }
                ChainEvent::NftSold { buyer, seller, price, origin, .. } => {
                    // The token moved to the buyer before this fact (the contract transfers, then
                    // reports the sale): the seller is named by the fact, not read.
                    let (buyer, seller) = (Party::Wallet(buyer), Party::Wallet(seller));
                    Notice::new(position, nft_id, "SOLD", price, origin).tell(conn, seller, buyer, ANY).await?;
                    let bought = Notice::new(position, nft_id, "BOUGHT", price, origin);
                    bought.tell(conn, buyer, seller, "(told_buyer IS NULL OR told_buyer <> {recipient})").await?;
                    let sql = "UPDATE notice_tokens SET bidder = NULL, bid_tx = NULL, told_buyer = NULL WHERE nft_id = $1";
                    sql::execute(conn, sql, &[nft_id.into()]).await?;
                }
                ChainEvent::OfferMade { offerer, amount, origin, .. } => {
                    let received = Notice::new(position, nft_id, "OFFER_RECEIVED", amount, origin);
                    received.tell(conn, Party::Owner, Party::Wallet(offerer), "owner <> {counterpart}").await?;
                }
                ChainEvent::OfferAccepted { offerer, seller, amount, origin, .. } => {
                    let accepted = Notice::new(position, nft_id, "OFFER_ACCEPTED", amount, origin);
                    accepted.tell(conn, Party::Wallet(offerer), Party::Wallet(seller), ANY).await?;
                    let values = [offerer.into(), nft_id.into()];
                    sql::execute(conn, "UPDATE notice_tokens SET told_buyer = $1 WHERE nft_id = $2", &values).await?;
                }
                ChainEvent::OfferRejected { offerer, amount, origin, .. } => {
                    Notice::new(position, nft_id, "OFFER_REJECTED", amount, origin)
                        .tell(conn, Party::Wallet(offerer), Party::Owner, ANY)
                        .await?;
                }
                _ => return Err(ProjectionError::malformed(event, "not a fact notices are made of")),
            }
        }
        Ok(())
    }

    async fn forget_stream(&self, conn: &mut Conn<'_>, stream_id: &str, _at: i64) -> Result<(), ProjectionError> {
        let Some(nft_id) = stream_id.strip_prefix("nft-") else {
            return Ok(());
        };
        sql::execute(conn, "DELETE FROM notices WHERE nft_id = $1", &[nft_id.into()]).await?;
        sql::execute(conn, "DELETE FROM notice_tokens WHERE nft_id = $1", &[nft_id.into()]).await
    }
}

/// The auction's top bid is gone (rejected, or the auction ended without a winner).
async fn clear_bid(conn: &mut Conn<'_>, nft_id: &str) -> Result<(), ProjectionError> {
    sql::execute(conn, "UPDATE notice_tokens SET bidder = NULL, bid_tx = NULL WHERE nft_id = $1", &[nft_id.into()]).await
}

/// A user's read or settings.
async fn apply_user(conn: &mut Conn<'_>, event: NoticeEvent) -> Result<(), ProjectionError> {
    let user = event.user_id().to_string();
    match event {
        NoticeEvent::NoticeRead { position, .. } => {
            let sql = "INSERT INTO notice_read (user_id, position) VALUES ($1, $2) ON CONFLICT (user_id, position) DO NOTHING";
            sql::execute(conn, sql, &[(&user).into(), (position as i64).into()]).await
        }
        NoticeEvent::NoticesReadUpTo { position, .. } => {
            // Reading up to an older position than before reads nothing new.
            let sql = "INSERT INTO notice_reads (user_id, read_up_to) VALUES ($1, $2) \
                       ON CONFLICT (user_id) DO UPDATE SET read_up_to = CASE WHEN excluded.read_up_to > notice_reads.read_up_to \
                       THEN excluded.read_up_to ELSE notice_reads.read_up_to END";
            sql::execute(conn, sql, &[(&user).into(), (position as i64).into()]).await?;
            let sql = "DELETE FROM notice_read WHERE user_id = $1 AND position <= $2";
            sql::execute(conn, sql, &[(&user).into(), (position as i64).into()]).await
        }
        NoticeEvent::NoticeSettingsChanged { muted, email, .. } => {
            let (muted, email) = (muted.join(","), email.join(","));
            let sql = format!(
                "INSERT INTO notice_settings (user_id, muted, email) VALUES ($1, $2, $3) {}",
                sql::upsert(&["user_id"], &["user_id", "muted", "email"])
            );
            sql::execute(conn, &sql, &[(&user).into(), (&muted).into(), (&email).into()]).await
        }
    }
}
