//! One contract log to (at most) one chain fact.

use alloy::{
    primitives::{Address, B256, U256},
    rpc::types::Log,
    sol_types::SolEvent,
};
use domain::chain::{ChainEvent, Origin, Royalty, SaleType};

use crate::{IndexerError, bindings::Marketplace};

/// Lower-case 0x-hex, the form every address takes in the events.
pub(crate) fn address(value: Address) -> String {
    alloy::hex::encode_prefixed(value.as_slice())
}

/// Lower-case 0x-hex of a hash.
pub(crate) fn hash(value: B256) -> String {
    alloy::hex::encode_prefixed(value.as_slice())
}

fn amount(value: U256) -> String {
    value.to_string()
}

/// Decodes one log of the contract at a block with time `block_time`.
///
/// `Ok(None)` for logs that establish nothing new: the mint's `Transfer` from the zero address
/// (`Minted` says it all), approvals, and unknown topics (skipped with a debug line). A log with a
/// known topic that does not decode is an error: the ABI and the contract disagree.
pub fn decode_log(log: &Log, block_time: i64) -> Result<Option<ChainEvent>, IndexerError> {
    let block = log.block_number.unwrap_or_default();
    let log_index = log.log_index.unwrap_or_default();
    let Some(topic0) = log.topic0().copied() else {
        tracing::debug!(block, log_index, "log without topics skipped");
        return Ok(None);
    };
    let origin = Origin { block_number: block, block_time, tx_hash: log.transaction_hash.map(hash).unwrap_or_default(), log_index };
    let fail = |reason: String| IndexerError::Decode { block, log_index, reason };
    macro_rules! decode {
        ($event:ty) => {
            log.log_decode::<$event>().map_err(|e| fail(e.to_string()))?.inner.data
        };
    }

    use Marketplace as M;
    let event = match topic0 {
        M::Transfer::SIGNATURE_HASH => {
            let e = decode!(M::Transfer);
            let token_id = e.tokenId.to_string();
            if e.from.is_zero() {
                return Ok(None);
            } else if e.to.is_zero() {
                ChainEvent::NftBurned { token_id, owner: address(e.from), origin }
            } else {
                ChainEvent::NftTransferred { token_id, from: address(e.from), to: address(e.to), origin }
            }
        }
        M::Minted::SIGNATURE_HASH => {
            let e = decode!(M::Minted);
            if e.royaltyReceivers.len() != e.royaltyBps.len() {
                return Err(fail("royalty receivers and shares differ in length".into()));
            }
            let royalties = e
                .royaltyReceivers
                .iter()
                .zip(&e.royaltyBps)
                .map(|(receiver, bps)| {
                    let bps = u32::try_from(*bps).map_err(|_| fail(format!("royalty share {bps} out of range")))?;
                    Ok(Royalty { receiver: address(*receiver), bps })
                })
                .collect::<Result<Vec<_>, IndexerError>>()?;
            ChainEvent::NftMinted { token_id: e.tokenId.to_string(), creator: address(e.creator), token_uri: e.tokenURI, royalties, origin }
        }
        M::SaleUpdated::SIGNATURE_HASH => {
            let e = decode!(M::SaleUpdated);
            ChainEvent::SaleUpdated {
                token_id: e.tokenId.to_string(),
                sale_type: SaleType::from_u8(e.saleType).ok_or_else(|| fail(format!("unknown sale type {}", e.saleType)))?,
                price: amount(e.price),
                base_price: amount(e.basePrice),
                end_time: time(e.endTime, &fail)?,
                auction_id: e.auctionId.to_string(),
                origin,
            }
        }
        M::PriceChanged::SIGNATURE_HASH => {
            let e = decode!(M::PriceChanged);
            ChainEvent::PriceChanged { token_id: e.tokenId.to_string(), price: amount(e.price), origin }
        }
        M::BidPlaced::SIGNATURE_HASH => {
            let e = decode!(M::BidPlaced);
            ChainEvent::BidPlaced {
                token_id: e.tokenId.to_string(),
                auction_id: e.auctionId.to_string(),
                bidder: address(e.bidder),
                amount: amount(e.amount),
                end_time: time(e.endTime, &fail)?,
                origin,
            }
        }
        M::BidRefunded::SIGNATURE_HASH => {
            let e = decode!(M::BidRefunded);
            ChainEvent::BidRefunded {
                token_id: e.tokenId.to_string(),
                auction_id: e.auctionId.to_string(),
                bidder: address(e.bidder),
                amount: amount(e.amount),
                origin,
            }
        }
        M::BidRejected::SIGNATURE_HASH => {
            let e = decode!(M::BidRejected);
            ChainEvent::BidRejected {
                token_id: e.tokenId.to_string(),
                auction_id: e.auctionId.to_string(),
                bidder: address(e.bidder),
                amount: amount(e.amount),
                origin,
            }
        }
        M::AuctionExtended::SIGNATURE_HASH => {
            let e = decode!(M::AuctionExtended);
            ChainEvent::AuctionExtended {
                token_id: e.tokenId.to_string(),
                auction_id: e.auctionId.to_string(),
                end_time: time(e.endTime, &fail)?,
                origin,
            }
        }
        M::ServiceFeeSnapshotted::SIGNATURE_HASH => {
            let e = decode!(M::ServiceFeeSnapshotted);
            ChainEvent::ServiceFeeSnapshotted {
                token_id: e.tokenId.to_string(),
                auction_id: e.auctionId.to_string(),
                fee_bps: fee(e.feeBps, &fail)?,
                origin,
            }
        }
        M::AuctionEnded::SIGNATURE_HASH => {
            let e = decode!(M::AuctionEnded);
            ChainEvent::AuctionEnded {
                token_id: e.tokenId.to_string(),
                auction_id: e.auctionId.to_string(),
                winner: address(e.winner),
                amount: amount(e.amount),
                origin,
            }
        }
        M::Sold::SIGNATURE_HASH => {
            let e = decode!(M::Sold);
            ChainEvent::NftSold {
                token_id: e.tokenId.to_string(),
                auction_id: e.auctionId.to_string(),
                buyer: address(e.buyer),
                seller: address(e.seller),
                price: amount(e.price),
                fee: amount(e.fee),
                royalties: amount(e.royalties),
                seller_proceeds: amount(e.sellerProceeds),
                origin,
            }
        }
        M::RoyaltyPaid::SIGNATURE_HASH => {
            let e = decode!(M::RoyaltyPaid);
            ChainEvent::RoyaltyPaid { token_id: e.tokenId.to_string(), receiver: address(e.receiver), amount: amount(e.amount), origin }
        }
        M::Credited::SIGNATURE_HASH => {
            let e = decode!(M::Credited);
            ChainEvent::Credited { account: address(e.account), amount: amount(e.amount), origin }
        }
        M::CreditsWithdrawn::SIGNATURE_HASH => {
            let e = decode!(M::CreditsWithdrawn);
            ChainEvent::CreditsWithdrawn { account: address(e.account), amount: amount(e.amount), origin }
        }
        M::ServiceFeeChanged::SIGNATURE_HASH => {
            let e = decode!(M::ServiceFeeChanged);
            ChainEvent::ServiceFeeChanged { fee_bps: fee(e.feeBps, &fail)?, origin }
        }
        M::AdminProposed::SIGNATURE_HASH => {
            let e = decode!(M::AdminProposed);
            ChainEvent::AdminProposed { pending_admin: address(e.pendingAdmin), origin }
        }
        M::AdminChanged::SIGNATURE_HASH => {
            let e = decode!(M::AdminChanged);
            ChainEvent::AdminChanged { admin: address(e.admin), origin }
        }
        M::OfferMade::SIGNATURE_HASH => {
            let e = decode!(M::OfferMade);
            ChainEvent::OfferMade {
                token_id: e.tokenId.to_string(),
                offerer: address(e.offerer),
                amount: amount(e.amount),
                expires_at: time(e.expiresAt, &fail)?,
                fee_bps: fee(e.feeBps, &fail)?,
                replaced_amount: amount(e.replacedAmount),
                origin,
            }
        }
        M::OfferCancelled::SIGNATURE_HASH => {
            let e = decode!(M::OfferCancelled);
            ChainEvent::OfferCancelled { token_id: e.tokenId.to_string(), offerer: address(e.offerer), amount: amount(e.amount), origin }
        }
        M::OfferRejected::SIGNATURE_HASH => {
            let e = decode!(M::OfferRejected);
            ChainEvent::OfferRejected { token_id: e.tokenId.to_string(), offerer: address(e.offerer), amount: amount(e.amount), origin }
        }
        M::OfferAccepted::SIGNATURE_HASH => {
            let e = decode!(M::OfferAccepted);
            ChainEvent::OfferAccepted {
                token_id: e.tokenId.to_string(),
                offerer: address(e.offerer),
                seller: address(e.seller),
                amount: amount(e.amount),
                origin,
            }
        }
        M::CartItemSkipped::SIGNATURE_HASH => {
            let e = decode!(M::CartItemSkipped);
            ChainEvent::CartItemSkipped {
                token_id: e.tokenId.to_string(),
                buyer: address(e.buyer),
                seen_price: amount(e.seenPrice),
                price: amount(e.price),
                origin,
            }
        }
        M::CartPurchased::SIGNATURE_HASH => {
            let e = decode!(M::CartPurchased);
            let count = |value: U256| u32::try_from(value).map_err(|_| fail(format!("cart count {value} out of range")));
            ChainEvent::CartPurchased {
                buyer: address(e.buyer),
                items: count(e.items)?,
                bought: count(e.bought)?,
                spent: amount(e.spent),
                refunded: amount(e.refunded),
                origin,
            }
        }
        M::ModeratorSet::SIGNATURE_HASH => {
            let e = decode!(M::ModeratorSet);
            ChainEvent::ModeratorSet { account: address(e.account), enabled: e.enabled, origin }
        }
        M::SaleHeld::SIGNATURE_HASH => {
            let e = decode!(M::SaleHeld);
            ChainEvent::SaleHeld {
                token_id: e.tokenId.to_string(),
                moderator: address(e.moderator),
                until: time(e.until, &fail)?,
                evidence: (!e.evidence.is_zero()).then(|| hash(e.evidence)),
                origin,
            }
        }
        M::SaleReleased::SIGNATURE_HASH => {
            let e = decode!(M::SaleReleased);
            ChainEvent::SaleReleased { token_id: e.tokenId.to_string(), moderator: address(e.moderator), origin }
        }
        M::Approval::SIGNATURE_HASH | M::ApprovalForAll::SIGNATURE_HASH => return Ok(None),
        other => {
            tracing::debug!(block, log_index, topic0 = %other, "log with an unknown topic skipped");
            return Ok(None);
        }
    };
    Ok(Some(event))
}

fn time(value: u64, fail: &impl Fn(String) -> IndexerError) -> Result<i64, IndexerError> {
    i64::try_from(value).map_err(|_| fail(format!("time {value} out of range")))
}

fn fee(value: alloy::primitives::aliases::U96, fail: &impl Fn(String) -> IndexerError) -> Result<u32, IndexerError> {
    u32::try_from(value).map_err(|_| fail(format!("fee {value} out of range")))
}

#[cfg(test)]
mod tests {
    use alloy::primitives::{LogData, address as addr, b256};

    use super::*;

    fn rpc_log(data: LogData) -> Log {
        Log {
            inner: alloy::primitives::Log { address: Address::ZERO, data },
            block_hash: Some(B256::repeat_byte(1)),
            block_number: Some(7),
            block_timestamp: None,
            transaction_hash: Some(b256!("00000000000000000000000000000000000000000000000000000000000000aa")),
            transaction_index: Some(0),
            log_index: Some(3),
            removed: false,
        }
    }

    fn encoded(event: &impl SolEvent) -> Log {
        rpc_log(event.encode_log_data())
    }

    #[test]
    fn a_transfer_from_zero_adds_nothing_to_zero_is_a_burn_otherwise_a_transfer() {
        let alice = addr!("00000000000000000000000000000000000000A1");
        let bob = addr!("00000000000000000000000000000000000000b2");
        let mint = Marketplace::Transfer { from: Address::ZERO, to: alice, tokenId: U256::from(5) };
        assert_eq!(decode_log(&encoded(&mint), 100).unwrap(), None);

        let burn = Marketplace::Transfer { from: alice, to: Address::ZERO, tokenId: U256::from(5) };
        match decode_log(&encoded(&burn), 100).unwrap() {
            Some(ChainEvent::NftBurned { token_id, owner, origin }) => {
                assert_eq!(token_id, "5");
                assert_eq!(owner, "0x00000000000000000000000000000000000000a1");
                assert_eq!(
                    origin,
                    Origin {
                        block_number: 7,
                        block_time: 100,
                        tx_hash: "0x00000000000000000000000000000000000000000000000000000000000000aa".into(),
                        log_index: 3
                    }
                );
            }
            other => panic!("expected a burn, got {other:?}"),
        }

        let transfer = Marketplace::Transfer { from: alice, to: bob, tokenId: U256::from(5) };
        assert!(matches!(
            decode_log(&encoded(&transfer), 100).unwrap(),
            Some(ChainEvent::NftTransferred { ref from, ref to, .. }) if from.ends_with("a1") && to.ends_with("b2")
        ));
    }

    #[test]
    fn amounts_are_decimal_strings_of_wei() {
        let sold = Marketplace::Sold {
            tokenId: U256::from(9),
            auctionId: U256::ZERO,
            buyer: Address::repeat_byte(2),
            seller: Address::repeat_byte(3),
            price: U256::from(10).pow(U256::from(30)),
            fee: U256::from(50),
            royalties: U256::from(100),
            sellerProceeds: U256::from(850),
        };
        let Some(ChainEvent::NftSold { price, fee, auction_id, .. }) = decode_log(&encoded(&sold), 1).unwrap() else {
            panic!("expected a sale");
        };
        assert_eq!(price, format!("1{}", "0".repeat(30)));
        assert_eq!(fee, "50");
        assert_eq!(auction_id, "0");
    }

    #[test]
    fn a_late_rejections_extension_a_fee_snapshot_and_an_admin_proposal_are_decoded() {
        let extended = Marketplace::AuctionExtended { tokenId: U256::from(4), auctionId: U256::from(2), endTime: 1_700_000_600 };
        assert_eq!(
            decode_log(&encoded(&extended), 9).unwrap().map(|e| (e.event_type(), serde_json::to_value(e).unwrap())),
            Some((
                "AuctionExtended",
                serde_json::json!({
                    "type": "AuctionExtended", "tokenId": "4", "auctionId": "2", "endTime": 1_700_000_600,
                    "origin": { "blockNumber": 7, "blockTime": 9, "txHash": format!("0x{}aa", "0".repeat(62)), "logIndex": 3 }
                })
            ))
        );

        let snapshot = Marketplace::ServiceFeeSnapshotted {
            tokenId: U256::from(4),
            auctionId: U256::ZERO,
            feeBps: alloy::primitives::aliases::U96::from(750),
        };
        assert!(matches!(
            decode_log(&encoded(&snapshot), 9).unwrap(),
            Some(ChainEvent::ServiceFeeSnapshotted { ref token_id, ref auction_id, fee_bps: 750, .. }) if token_id == "4" && auction_id == "0"
        ));

        let proposed = Marketplace::AdminProposed { pendingAdmin: addr!("00000000000000000000000000000000000000A1") };
        assert!(matches!(
            decode_log(&encoded(&proposed), 9).unwrap(),
            Some(ChainEvent::AdminProposed { ref pending_admin, .. }) if pending_admin == "0x00000000000000000000000000000000000000a1"
        ));
    }

    #[test]
    fn offers_and_carts_are_decoded_with_their_values() {
        let offerer = addr!("00000000000000000000000000000000000000B2");
        let made = Marketplace::OfferMade {
            tokenId: U256::from(4),
            offerer,
            amount: U256::from(10).pow(U256::from(24)),
            expiresAt: 1_700_000_600,
            feeBps: alloy::primitives::aliases::U96::from(500),
            replacedAmount: U256::from(3),
        };
        assert_eq!(
            decode_log(&encoded(&made), 9).unwrap().map(|e| serde_json::to_value(e).unwrap()),
            Some(serde_json::json!({
                "type": "OfferMade", "tokenId": "4", "offerer": "0x00000000000000000000000000000000000000b2",
                "amount": format!("1{}", "0".repeat(24)), "expiresAt": 1_700_000_600, "feeBps": 500, "replacedAmount": "3",
                "origin": { "blockNumber": 7, "blockTime": 9, "txHash": format!("0x{}aa", "0".repeat(62)), "logIndex": 3 }
            }))
        );
        let cancelled = Marketplace::OfferCancelled { tokenId: U256::from(4), offerer, amount: U256::from(5) };
        assert!(matches!(
            decode_log(&encoded(&cancelled), 9).unwrap(),
            Some(ChainEvent::OfferCancelled { ref token_id, ref amount, .. }) if token_id == "4" && amount == "5"
        ));
        let rejected = Marketplace::OfferRejected { tokenId: U256::from(4), offerer, amount: U256::from(6) };
        assert!(matches!(
            decode_log(&encoded(&rejected), 9).unwrap(),
            Some(ChainEvent::OfferRejected { ref amount, .. }) if amount == "6"
        ));
        let seller = addr!("00000000000000000000000000000000000000A1");
        let accepted = Marketplace::OfferAccepted { tokenId: U256::from(4), offerer, seller, amount: U256::from(7) };
        assert!(matches!(
            decode_log(&encoded(&accepted), 9).unwrap(),
            Some(ChainEvent::OfferAccepted { ref seller, ref offerer, ref amount, .. })
                if seller.ends_with("a1") && offerer.ends_with("b2") && amount == "7"
        ));
        let skipped = Marketplace::CartItemSkipped { tokenId: U256::from(8), buyer: offerer, seenPrice: U256::from(5), price: U256::ZERO };
        assert!(matches!(
            decode_log(&encoded(&skipped), 9).unwrap(),
            Some(ChainEvent::CartItemSkipped { ref token_id, ref seen_price, ref price, .. })
                if token_id == "8" && seen_price == "5" && price == "0"
        ));
        let cart = Marketplace::CartPurchased {
            buyer: offerer,
            items: U256::from(3),
            bought: U256::from(2),
            spent: U256::from(10),
            refunded: U256::from(5),
        };
        assert!(matches!(
            decode_log(&encoded(&cart), 9).unwrap(),
            Some(ChainEvent::CartPurchased { items: 3, bought: 2, ref spent, ref refunded, .. }) if spent == "10" && refunded == "5"
        ));
    }

    #[test]
    fn moderator_grants_holds_and_releases_are_decoded() {
        let moderator = addr!("00000000000000000000000000000000000000C3");
        let granted = Marketplace::ModeratorSet { account: moderator, enabled: true };
        let revoked = Marketplace::ModeratorSet { account: moderator, enabled: false };
        assert!(matches!(
            decode_log(&encoded(&granted), 9).unwrap(),
            Some(ChainEvent::ModeratorSet { ref account, enabled: true, .. }) if account == "0x00000000000000000000000000000000000000c3"
        ));
        assert!(matches!(decode_log(&encoded(&revoked), 9).unwrap(), Some(ChainEvent::ModeratorSet { enabled: false, .. })));

        let report = B256::repeat_byte(0xab);
        let held = Marketplace::SaleHeld { tokenId: U256::from(4), moderator, until: 1_700_604_800, evidence: report };
        assert_eq!(
            decode_log(&encoded(&held), 9).unwrap().map(|e| (e.event_type(), serde_json::to_value(e).unwrap())),
            Some((
                "SaleHeld",
                serde_json::json!({
                    "type": "SaleHeld", "tokenId": "4", "moderator": "0x00000000000000000000000000000000000000c3",
                    "until": 1_700_604_800, "evidence": format!("0x{}", "ab".repeat(32)),
                    "origin": { "blockNumber": 7, "blockTime": 9, "txHash": format!("0x{}aa", "0".repeat(62)), "logIndex": 3 }
                })
            ))
        );
        let without = Marketplace::SaleHeld { tokenId: U256::from(4), moderator, until: 1_700_000_030, evidence: B256::ZERO };
        assert!(matches!(
            decode_log(&encoded(&without), 9).unwrap(),
            Some(ChainEvent::SaleHeld { until: 1_700_000_030, evidence: None, .. })
        ));
        let released = Marketplace::SaleReleased { tokenId: U256::from(4), moderator };
        assert!(matches!(
            decode_log(&encoded(&released), 9).unwrap(),
            Some(ChainEvent::SaleReleased { ref token_id, ref moderator, .. }) if token_id == "4" && moderator.ends_with("c3")
        ));
    }

    #[test]
    fn approvals_and_unknown_topics_are_skipped() {
        let approval = Marketplace::Approval { owner: Address::repeat_byte(1), approved: Address::repeat_byte(2), tokenId: U256::from(1) };
        assert_eq!(decode_log(&encoded(&approval), 1).unwrap(), None);
        let unknown = LogData::new_unchecked(vec![B256::repeat_byte(0xee)], Default::default());
        assert_eq!(decode_log(&rpc_log(unknown), 1).unwrap(), None);
    }

    #[test]
    fn a_known_topic_that_does_not_decode_is_an_error() {
        let broken = LogData::new_unchecked(vec![Marketplace::PriceChanged::SIGNATURE_HASH], Default::default());
        assert!(matches!(decode_log(&rpc_log(broken), 1), Err(IndexerError::Decode { block: 7, log_index: 3, .. })));
    }
}
