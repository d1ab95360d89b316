//! The chain side of NFTs: `nfts` (one row per token), `auctions`, `bids`, `nft_history`,
//! `owner_history` and `sales`, all folded from the `nft-{chain}-{token}` streams.

use async_trait::async_trait;
use domain::{
    RecordedEvent,
    chain::{ChainEvent, SaleType},
};
use sqlx::AnyConnection;

use crate::{ProjectionError, ReadModel};

/// The public id of a token: `{chain}-{token}`.
pub fn nft_id(chain_id: u64, token_id: &str) -> String {
    format!("{chain_id}-{token_id}")
}

/// Wei as fixed-width text, so text order is numeric order in every database.
pub fn price_key(wei: &str) -> String {
    format!("{wei:0>78}")
}

/// The spec's name of a sale type.
pub fn sale_name(sale: SaleType) -> &'static str {
    match sale {
        SaleType::NotForSale => "NOT_FOR_SALE",
        SaleType::FixedPrice => "FIXEDPRICE",
        SaleType::Auction => "AUCTION",
    }
}

/// The tables of every token's chain stream.
pub struct Nfts;

const TABLES: [&str; 6] = ["nfts", "auctions", "bids", "nft_history", "owner_history", "sales"];

#[async_trait]
impl ReadModel for Nfts {
    fn handles(&self, event_type: &str) -> bool {
        matches!(
            event_type,
            "NftMinted"
                | "SaleUpdated"
                | "PriceChanged"
                | "BidPlaced"
                | "BidRefunded"
                | "BidRejected"
                | "AuctionEnded"
                | "NftSold"
                | "NftTransferred"
                | "NftBurned"
        )
    }

    async fn apply(&self, conn: &mut AnyConnection, event: &RecordedEvent) -> Result<(), ProjectionError> {
        let chain_id = chain_of(event)?;
        let parsed: ChainEvent = event.payload().map_err(|e| malformed(event, e.to_string()))?;
        Fold { conn, position: event.position as i64, chain_id }.apply(parsed).await.map_err(Into::into)
    }

    async fn forget_stream(&self, conn: &mut AnyConnection, stream_id: &str) -> Result<(), ProjectionError> {
        let Some((chain, token)) = stream_id.strip_prefix("nft-").and_then(|rest| rest.split_once('-')) else {
            return Ok(());
        };
        let id = format!("{chain}-{token}");
        for table in TABLES {
            sqlx::query(&format!("DELETE FROM {table} WHERE nft_id = $1")).bind(&id).execute(&mut *conn).await?;
        }
        Ok(())
    }
}

/// The chain id of an `nft-{chain}-{token}` stream.
fn chain_of(event: &RecordedEvent) -> Result<u64, ProjectionError> {
    event
        .stream_id
        .strip_prefix("nft-")
        .and_then(|rest| rest.split('-').next())
        .and_then(|chain| chain.parse().ok())
        .ok_or_else(|| malformed(event, "not in an nft-{chain}-{token} stream"))
}

fn malformed(event: &RecordedEvent, reason: impl Into<String>) -> ProjectionError {
    ProjectionError::Malformed { position: event.position, event_type: event.event_type.clone(), reason: reason.into() }
}

/// Folding one event, with what every statement needs.
struct Fold<'c> {
    conn: &'c mut AnyConnection,
    /// The event's log position: the key of rows derived from it.
    position: i64,
    chain_id: u64,
}

impl Fold<'_> {
    async fn exec(&mut self, sql: &str, binds: &[Bind<'_>]) -> Result<(), sqlx::Error> {
        let mut query = sqlx::query(sql);
        for bind in binds {
            query = match bind {
                Bind::Text(text) => query.bind(*text),
                Bind::Int(int) => query.bind(*int),
            };
        }
        query.execute(&mut *self.conn).await?;
        Ok(())
    }

    async fn history(&mut self, nft: &str, kind: &str, address: &str, tx: &str, at: i64) -> Result<(), sqlx::Error> {
        let position = self.position;
        self.exec(
            "INSERT INTO nft_history (position, nft_id, type_of_event, address, tx_hash, at) VALUES ($1, $2, $3, $4, $5, $6)",
            &[Bind::Int(position), Bind::Text(nft), Bind::Text(kind), Bind::Text(address), Bind::Text(tx), Bind::Int(at)],
        )
        .await
    }

    async fn apply(mut self, event: ChainEvent) -> Result<(), sqlx::Error> {
        use Bind::{Int, Text};
        let chain_id = self.chain_id;
        let id = |token: &str| nft_id(chain_id, token);
        match event {
            ChainEvent::NftMinted { token_id, creator, token_uri, royalties, origin } => {
                let nft = id(&token_id);
                let royalties = serde_json::to_string(&royalties).unwrap_or_else(|_| "[]".into());
                self.exec(
                    "INSERT INTO nfts (nft_id, chain_id, token_id, token_uri, creator, owner, previous_owner, sale_type, \
                     price, price_key, base_price, end_time, auction_id, highest_bid, highest_bidder, royalties, transfers, \
                     burned, minted_at, updated_at, mint_tx) \
                     VALUES ($1, $2, $3, $4, $5, $5, NULL, 'NOT_FOR_SALE', '0', $6, '0', 0, '0', '0', NULL, $7, 0, 0, $8, $8, $9)",
                    &[
                        Text(&nft),
                        Int(chain_id as i64),
                        Text(&token_id),
                        Text(&token_uri),
                        Text(&creator),
                        Text(&price_key("0")),
                        Text(&royalties),
                        Int(origin.block_time),
                        Text(&origin.tx_hash),
                    ],
                )
                .await?;
                self.exec(
                    "INSERT INTO owner_history (position, nft_id, owner, tx_hash, at) VALUES ($1, $2, $3, $4, $5)",
                    &[Int(self.position), Text(&nft), Text(&creator), Text(&origin.tx_hash), Int(origin.block_time)],
                )
                .await?;
                self.history(&nft, "MINTED", &creator, &origin.tx_hash, origin.block_time).await?;
            }
            ChainEvent::SaleUpdated { token_id, sale_type, price, base_price, end_time, auction_id, origin } => {
                let nft = id(&token_id);
                let sale = sale_name(sale_type);
                // A new auction (or leaving auctions) starts with no bid.
                self.exec(
                    "UPDATE nfts SET sale_type = $2, price = $3, price_key = $4, base_price = $5, end_time = $6, \
                     highest_bid = CASE WHEN auction_id = $7 AND $2 = 'AUCTION' THEN highest_bid ELSE '0' END, \
                     highest_bidder = CASE WHEN auction_id = $7 AND $2 = 'AUCTION' THEN highest_bidder ELSE NULL END, \
                     auction_id = $7, updated_at = $8 WHERE nft_id = $1",
                    &[Text(&nft), Text(sale), Text(&price), Text(&price_key(&price)), Text(&base_price), Int(end_time), Text(&auction_id), Int(origin.block_time)],
                )
                .await?;
                if sale_type == SaleType::Auction {
                    self.exec(
                        "INSERT INTO auctions (nft_id, auction_id, start_price, buy_now_price, end_time, highest_bid, winner, ended, started_at) \
                         VALUES ($1, $2, $3, $4, $5, '0', NULL, 0, $6) \
                         ON CONFLICT (nft_id, auction_id) DO UPDATE SET start_price = excluded.start_price, \
                         buy_now_price = excluded.buy_now_price, end_time = excluded.end_time",
                        &[Text(&nft), Text(&auction_id), Text(&base_price), Text(&price), Int(end_time), Int(origin.block_time)],
                    )
                    .await?;
                } else {
                    // Leaving an auction without a winner closes it.
                    self.exec("UPDATE auctions SET ended = 1 WHERE nft_id = $1 AND ended = 0", &[Text(&nft)]).await?;
                }
                let owner = self.owner(&nft).await?;
                let kind = match sale_type {
                    SaleType::Auction => "PUT_ON_AUCTION",
                    SaleType::FixedPrice => "PUT_ON_FIXEDSALE",
                    SaleType::NotForSale => "REMOVED_FROM_SALE",
                };
                // A sale clears the listing in the same transaction: that is no separate removal.
                if sale_type != SaleType::NotForSale || !self.sold_in(&nft, &origin.tx_hash).await? {
                    self.history(&nft, kind, &owner, &origin.tx_hash, origin.block_time).await?;
                }
            }
            ChainEvent::PriceChanged { token_id, price, origin } => {
                let nft = id(&token_id);
                self.exec(
                    "UPDATE nfts SET price = $2, price_key = $3, updated_at = $4 WHERE nft_id = $1",
                    &[Text(&nft), Text(&price), Text(&price_key(&price)), Int(origin.block_time)],
                )
                .await?;
                self.exec(
                    "UPDATE auctions SET buy_now_price = $2 WHERE nft_id = $1 AND ended = 0",
                    &[Text(&nft), Text(&price)],
                )
                .await?;
            }
            ChainEvent::BidPlaced { token_id, auction_id, bidder, amount, end_time, origin } => {
                let nft = id(&token_id);
                self.exec(
                    "UPDATE nfts SET highest_bid = $2, highest_bidder = $3, end_time = $4, bid_count = bid_count + 1, \
                     updated_at = $5 WHERE nft_id = $1",
                    &[Text(&nft), Text(&amount), Text(&bidder), Int(end_time), Int(origin.block_time)],
                )
                .await?;
                self.exec(
                    "UPDATE auctions SET highest_bid = $3, end_time = $4 WHERE nft_id = $1 AND auction_id = $2",
                    &[Text(&nft), Text(&auction_id), Text(&amount), Int(end_time)],
                )
                .await?;
                self.exec(
                    "INSERT INTO bids (position, nft_id, auction_id, bidder, amount, tx_hash, created_at, status) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, 'BID')",
                    &[Int(self.position), Text(&nft), Text(&auction_id), Text(&bidder), Text(&amount), Text(&origin.tx_hash), Int(origin.block_time)],
                )
                .await?;
                self.history(&nft, "BIDDED_FOR", &bidder, &origin.tx_hash, origin.block_time).await?;
            }
            ChainEvent::BidRefunded { token_id, auction_id, bidder, amount, origin }
            | ChainEvent::BidRejected { token_id, auction_id, bidder, amount, origin } => {
                let nft = id(&token_id);
                // Only the standing top bid is cleared; an outbid refund follows the new top bid.
                self.exec(
                    "UPDATE nfts SET highest_bid = '0', highest_bidder = NULL, updated_at = $4 \
                     WHERE nft_id = $1 AND highest_bidder = $2 AND highest_bid = $3",
                    &[Text(&nft), Text(&bidder), Text(&amount), Int(origin.block_time)],
                )
                .await?;
                self.exec(
                    "UPDATE auctions SET highest_bid = '0' WHERE nft_id = $1 AND auction_id = $2 AND highest_bid = $3",
                    &[Text(&nft), Text(&auction_id), Text(&amount)],
                )
                .await?;
                self.exec(
                    "UPDATE bids SET status = 'REFUNDED' WHERE nft_id = $1 AND auction_id = $2 AND bidder = $3 \
                     AND amount = $4 AND status = 'BID'",
                    &[Text(&nft), Text(&auction_id), Text(&bidder), Text(&amount)],
                )
                .await?;
            }
            ChainEvent::AuctionEnded { token_id, auction_id, winner, amount, .. } => {
                let nft = id(&token_id);
                self.exec(
                    "UPDATE auctions SET ended = 1, winner = $3, highest_bid = $4 WHERE nft_id = $1 AND auction_id = $2",
                    &[Text(&nft), Text(&auction_id), Text(&winner), Text(&amount)],
                )
                .await?;
                self.exec(
                    "UPDATE bids SET status = 'ALLOTED' WHERE nft_id = $1 AND auction_id = $2 AND bidder = $3 \
                     AND amount = $4 AND status = 'BID'",
                    &[Text(&nft), Text(&auction_id), Text(&winner), Text(&amount)],
                )
                .await?;
            }
            ChainEvent::NftSold { token_id, auction_id, buyer, seller, price, fee, royalties, origin, .. } => {
                let nft = id(&token_id);
                self.exec(
                    "INSERT INTO sales (position, nft_id, auction_id, seller, buyer, price, fee, royalties, at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                    &[Int(self.position), Text(&nft), Text(&auction_id), Text(&seller), Text(&buyer), Text(&price), Text(&fee), Text(&royalties), Int(origin.block_time)],
                )
                .await?;
                self.exec("UPDATE nfts SET sales = sales + 1 WHERE nft_id = $1", &[Text(&nft)]).await?;
                // The listing was cleared earlier in the same transaction: that was the sale.
                self.exec(
                    "DELETE FROM nft_history WHERE nft_id = $1 AND tx_hash = $2 AND type_of_event = 'REMOVED_FROM_SALE'",
                    &[Text(&nft), Text(&origin.tx_hash)],
                )
                .await?;
                let kind = if auction_id == "0" { "PURCHASED" } else { "WON_AUCTION" };
                self.history(&nft, kind, &buyer, &origin.tx_hash, origin.block_time).await?;
            }
            ChainEvent::NftTransferred { token_id, from, to, origin } => {
                let nft = id(&token_id);
                self.exec(
                    "UPDATE nfts SET owner = $2, previous_owner = $3, transfers = transfers + 1, updated_at = $4 WHERE nft_id = $1",
                    &[Text(&nft), Text(&to), Text(&from), Int(origin.block_time)],
                )
                .await?;
                self.exec(
                    "INSERT INTO owner_history (position, nft_id, owner, tx_hash, at) VALUES ($1, $2, $3, $4, $5)",
                    &[Int(self.position), Text(&nft), Text(&to), Text(&origin.tx_hash), Int(origin.block_time)],
                )
                .await?;
            }
            ChainEvent::NftBurned { token_id, owner, origin } => {
                let nft = id(&token_id);
                self.exec(
                    "UPDATE nfts SET burned = 1, sale_type = 'NOT_FOR_SALE', highest_bid = '0', highest_bidder = NULL, \
                     updated_at = $2 WHERE nft_id = $1",
                    &[Text(&nft), Int(origin.block_time)],
                )
                .await?;
                self.history(&nft, "BURNED", &owner, &origin.tx_hash, origin.block_time).await?;
            }
            _ => {}
        }
        Ok(())
    }

    async fn owner(&mut self, nft: &str) -> Result<String, sqlx::Error> {
        let owner: Option<String> = sqlx::query_scalar("SELECT owner FROM nfts WHERE nft_id = $1")
            .bind(nft)
            .fetch_optional(&mut *self.conn)
            .await?;
        Ok(owner.unwrap_or_default())
    }

    async fn sold_in(&mut self, nft: &str, tx: &str) -> Result<bool, sqlx::Error> {
        let sold: Option<i64> = sqlx::query_scalar(
            "SELECT position FROM nft_history WHERE nft_id = $1 AND tx_hash = $2 \
             AND type_of_event IN ('PURCHASED', 'WON_AUCTION')",
        )
        .bind(nft)
        .bind(tx)
        .fetch_optional(&mut *self.conn)
        .await?;
        Ok(sold.is_some())
    }
}

/// A value bound to a statement (the Any driver takes these two kinds here).
enum Bind<'a> {
    Text(&'a str),
    Int(i64),
}
