//! The `nfts` table: one row per token, folded from the chain events of its stream.

use domain::{
    RecordedEvent,
    chain::{ChainEvent, Origin, SaleType},
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

fn sale_name(sale: SaleType) -> &'static str {
    match sale {
        SaleType::NotForSale => "NOT_FOR_SALE",
        SaleType::FixedPrice => "FIXEDPRICE",
        SaleType::Auction => "AUCTION",
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
    ProjectionError::Malformed {
        position: event.position,
        event_type: event.event_type.clone(),
        reason: reason.into(),
    }
}

/// The `nfts` table.
pub struct Nfts;

#[async_trait::async_trait]
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
            | "NftTransferred"
            | "NftBurned"
        )
    }

    async fn apply(&self, conn: &mut AnyConnection, event: &RecordedEvent) -> Result<(), ProjectionError> {
        apply(conn, event).await
    }

    async fn forget_stream(&self, conn: &mut AnyConnection, stream_id: &str) -> Result<(), ProjectionError> {
        if let Some((chain, token)) = stream_id.strip_prefix("nft-").and_then(|rest| rest.split_once('-')) {
            sqlx::query("DELETE FROM nfts WHERE nft_id = $1")
                .bind(format!("{chain}-{token}"))
                .execute(&mut *conn)
                .await?;
        }
        Ok(())
    }
}

/// Folds one chain event into `nfts`.
async fn apply(conn: &mut AnyConnection, event: &RecordedEvent) -> Result<(), ProjectionError> {
    let chain_id = chain_of(event)?;
    let parsed: ChainEvent = event.payload().map_err(|e| malformed(event, e.to_string()))?;
    let touched = |token_id: &str, origin: &Origin| (nft_id(chain_id, token_id), origin.block_time);
    match parsed {
        ChainEvent::NftMinted { token_id, creator, token_uri, royalties, origin } => {
            let royalties = serde_json::to_string(&royalties).map_err(|e| malformed(event, e.to_string()))?;
            sqlx::query(
                "INSERT INTO nfts (nft_id, chain_id, token_id, token_uri, creator, owner, previous_owner, sale_type, \
                 price, price_key, base_price, end_time, auction_id, highest_bid, highest_bidder, royalties, transfers, \
                 burned, minted_at, updated_at, mint_tx) \
                 VALUES ($1, $2, $3, $4, $5, $5, NULL, 'NOT_FOR_SALE', '0', $6, '0', 0, '0', '0', NULL, $7, 0, 0, $8, $8, $9)",
            )
            .bind(nft_id(chain_id, &token_id))
            .bind(chain_id as i64)
            .bind(&token_id)
            .bind(&token_uri)
            .bind(&creator)
            .bind(price_key("0"))
            .bind(royalties)
            .bind(origin.block_time)
            .bind(&origin.tx_hash)
            .execute(&mut *conn)
            .await?;
        }
        ChainEvent::SaleUpdated { token_id, sale_type, price, base_price, end_time, auction_id, origin } => {
            let (id, at) = touched(&token_id, &origin);
            // A new auction (or leaving auctions) starts with no bid.
            sqlx::query(
                "UPDATE nfts SET sale_type = $2, price = $3, price_key = $4, base_price = $5, end_time = $6, \
                 highest_bid = CASE WHEN auction_id = $7 AND $2 = 'AUCTION' THEN highest_bid ELSE '0' END, \
                 highest_bidder = CASE WHEN auction_id = $7 AND $2 = 'AUCTION' THEN highest_bidder ELSE NULL END, \
                 auction_id = $7, updated_at = $8 WHERE nft_id = $1",
            )
            .bind(id)
            .bind(sale_name(sale_type))
            .bind(&price)
            .bind(price_key(&price))
            .bind(&base_price)
            .bind(end_time)
            .bind(&auction_id)
            .bind(at)
            .execute(&mut *conn)
            .await?;
        }
        ChainEvent::PriceChanged { token_id, price, origin } => {
            let (id, at) = touched(&token_id, &origin);
            sqlx::query("UPDATE nfts SET price = $2, price_key = $3, updated_at = $4 WHERE nft_id = $1")
                .bind(id)
                .bind(&price)
                .bind(price_key(&price))
                .bind(at)
                .execute(&mut *conn)
                .await?;
        }
        ChainEvent::BidPlaced { token_id, bidder, amount, end_time, origin, .. } => {
            let (id, at) = touched(&token_id, &origin);
            sqlx::query(
                "UPDATE nfts SET highest_bid = $2, highest_bidder = $3, end_time = $4, updated_at = $5 WHERE nft_id = $1",
            )
            .bind(id)
            .bind(&amount)
            .bind(&bidder)
            .bind(end_time)
            .bind(at)
            .execute(&mut *conn)
            .await?;
        }
        ChainEvent::BidRefunded { token_id, bidder, amount, origin, .. }
        | ChainEvent::BidRejected { token_id, bidder, amount, origin, .. } => {
            let (id, at) = touched(&token_id, &origin);
            // Only the standing top bid is cleared; an outbid refund follows the new top bid.
            sqlx::query(
                "UPDATE nfts SET highest_bid = '0', highest_bidder = NULL, updated_at = $4 \
                 WHERE nft_id = $1 AND highest_bidder = $2 AND highest_bid = $3",
            )
            .bind(id)
            .bind(&bidder)
            .bind(&amount)
            .bind(at)
            .execute(&mut *conn)
            .await?;
        }
        ChainEvent::NftTransferred { token_id, from, to, origin } => {
            let (id, at) = touched(&token_id, &origin);
            sqlx::query(
                "UPDATE nfts SET owner = $2, previous_owner = $3, transfers = transfers + 1, updated_at = $4 WHERE nft_id = $1",
            )
            .bind(id)
            .bind(&to)
            .bind(&from)
            .bind(at)
            .execute(&mut *conn)
            .await?;
        }
        ChainEvent::NftBurned { token_id, origin, .. } => {
            let (id, at) = touched(&token_id, &origin);
            sqlx::query(
                "UPDATE nfts SET burned = 1, sale_type = 'NOT_FOR_SALE', highest_bid = '0', highest_bidder = NULL, \
                 updated_at = $2 WHERE nft_id = $1",
            )
            .bind(id)
            .bind(at)
            .execute(&mut *conn)
            .await?;
        }
        _ => {}
    }
    Ok(())
}

