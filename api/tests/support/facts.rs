//! Chain facts the stream and webhook tests append (each in block `block`, or the token's own).

use domain::chain::{ChainEvent, Origin, SaleType};

pub fn origin(block: u64) -> Origin {
    Origin { block_number: block, block_time: 1_700_000_000 + block as i64, tx_hash: format!("0x{block:064x}"), log_index: 0 }
}

pub fn minted(token: u64, creator: &str) -> ChainEvent {
    ChainEvent::NftMinted {
        token_id: token.to_string(),
        creator: creator.into(),
        token_uri: "/ipfs/m".into(),
        royalties: vec![],
        origin: origin(token),
    }
}

pub fn listed(token: u64, wei: &str, block: u64) -> ChainEvent {
    ChainEvent::SaleUpdated {
        token_id: token.to_string(),
        sale_type: SaleType::FixedPrice,
        price: wei.into(),
        base_price: "0".into(),
        end_time: 0,
        auction_id: "0".into(),
        origin: origin(block),
    }
}

pub fn auction(token: u64, block: u64) -> ChainEvent {
    ChainEvent::SaleUpdated {
        token_id: token.to_string(),
        sale_type: SaleType::Auction,
        price: "0".into(),
        base_price: "1".into(),
        end_time: 1_900_000_000,
        auction_id: "1".into(),
        origin: origin(block),
    }
}

pub fn bid(token: u64, bidder: &str, amount: &str, block: u64) -> ChainEvent {
    ChainEvent::BidPlaced {
        token_id: token.to_string(),
        auction_id: "1".into(),
        bidder: bidder.into(),
        amount: amount.into(),
        end_time: 1_900_000_000,
        origin: origin(block),
    }
}
