//! Chain facts: the events the indexer derives from the marketplace contract's logs.
//!
//! The chain is the truth for these; only the indexer appends them. Each carries the values a
//! reader needs (prices, owners, the fee/royalty/seller split) so projections are plain folds.
//! Amounts are wei as decimal strings (a `U256` does not fit JSON numbers), addresses are
//! lower-case 0x-hex, times are Unix seconds of the block.
//!
//! Streams:
//! * `nft-{chain}-{token}`: everything about one token (its offers and skipped cart items too), in
//!   chain order;
//! * `account-{chain}-{address}`: credits and withdrawals of one address, and its carts' summaries;
//! * `market-{chain}`: service fee changes, admin proposals and admin changes;
//! * `chain-{chain}`: the indexer's own record: every processed block ([`ChainEvent::BlockIndexed`],
//!   its checkpoint) and every retraction after a reorg ([`ChainEvent::BlocksRetracted`]).

use serde::{Deserialize, Serialize};
use uuid::Uuid;

mod tagged;

/// Defines [`ChainEvent`] and, from the same variants, the externally tagged twin its
/// [`Deserialize`] reads the fields with once the `type` tag is read (see [`tagged`]).
macro_rules! chain_events {
    ($(#[$meta:meta])* pub enum $name:ident {
        $($(#[$variant_meta:meta])* $variant:ident { $($(#[$field_meta:meta])* $field:ident: $type:ty),* $(,)? }),* $(,)?
    }) => {
        $(#[$meta])*
        pub enum $name {
            $($(#[$variant_meta])* $variant { $($(#[$field_meta])* $field: $type),* }),*
        }

        /// [`ChainEvent`]'s variants, externally tagged.
        #[derive(Deserialize)]
        #[serde(rename_all_fields = "camelCase")]
        enum Fields {
            $($variant { $($(#[$field_meta])* $field: $type),* }),*
        }

        impl From<Fields> for $name {
            fn from(fields: Fields) -> Self {
                match fields {
                    $(Fields::$variant { $($field),* } => Self::$variant { $($field),* }),*
                }
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                tagged::deserialize::<D, Fields>(deserializer).map(Self::from)
            }
        }
    };
}

/// The contract's sale types, in its order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum SaleType {
    /// Not listed.
    NotForSale,
    /// Listed at a fixed price.
    FixedPrice,
    /// In an auction.
    Auction,
}

impl SaleType {
    /// From the contract's `uint8`.
    pub fn from_u8(value: u8) -> Option<Self> {
        match value {
            0 => Some(Self::NotForSale),
            1 => Some(Self::FixedPrice),
            2 => Some(Self::Auction),
            _ => None,
        }
    }
}

/// One royalty row: receiver and basis points (1/100 of a percent).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Royalty {
    /// Who receives it.
    pub receiver: String,
    /// Its share in basis points.
    pub bps: u32,
}

/// The transaction and block an event came from, in every chain event's payload.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Origin {
    /// Block number.
    pub block_number: u64,
    /// Block timestamp (Unix seconds).
    pub block_time: i64,
    /// Transaction hash.
    pub tx_hash: String,
    /// Log index within the block.
    pub log_index: u64,
}

chain_events! {
/// Every chain fact, past tense, with the values it establishes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all_fields = "camelCase")]
pub enum ChainEvent {
    /// A token was minted (from `Minted`; the `Transfer` from zero adds nothing).
    NftMinted {
        /// Token id (decimal).
        token_id: String,
        /// Minter, first owner.
        creator: String,
        /// Metadata URI.
        token_uri: String,
        /// Up to two royalty rows.
        royalties: Vec<Royalty>,
        /// Where.
        origin: Origin,
    },
    /// The sale state was set (listing, relisting, stopping, or cleared by a sale or transfer).
    SaleUpdated {
        /// Token id.
        token_id: String,
        /// New sale type.
        sale_type: SaleType,
        /// Fixed price, or buy-now price of an auction (wei).
        price: String,
        /// Auction base price (wei; "0" otherwise).
        base_price: String,
        /// Auction end (Unix seconds; 0 otherwise).
        end_time: i64,
        /// The auction's id ("0" when not an auction).
        auction_id: String,
        /// Where.
        origin: Origin,
    },
    /// The fixed (or buy-now) price changed.
    PriceChanged {
        /// Token id.
        token_id: String,
        /// New price (wei).
        price: String,
        /// Where.
        origin: Origin,
    },
    /// A bid was placed and escrowed.
    BidPlaced {
        /// Token id.
        token_id: String,
        /// Auction id.
        auction_id: String,
        /// Bidder address.
        bidder: String,
        /// Amount (wei).
        amount: String,
        /// The auction's end after this bid (anti-sniping may extend it).
        end_time: i64,
        /// Where.
        origin: Origin,
    },
    /// An escrowed bid went back to its bidder (outbid, stopped, bought out, transferred).
    BidRefunded {
        /// Token id.
        token_id: String,
        /// Auction id.
        auction_id: String,
        /// Bidder address.
        bidder: String,
        /// Amount (wei).
        amount: String,
        /// Where.
        origin: Origin,
    },
    /// The owner rejected the top bid (it is refunded too).
    BidRejected {
        /// Token id.
        token_id: String,
        /// Auction id.
        auction_id: String,
        /// Bidder address.
        bidder: String,
        /// Amount (wei).
        amount: String,
        /// Where.
        origin: Origin,
    },
    /// The owner rejected the top bid in the auction's last minutes, which moved the end later (as a
    /// late bid does; a bid carries its new end in [`ChainEvent::BidPlaced`] instead).
    AuctionExtended {
        /// Token id.
        token_id: String,
        /// Auction id.
        auction_id: String,
        /// The auction's new end (Unix seconds).
        end_time: i64,
        /// Where.
        origin: Origin,
    },
    /// An auction was won (accepted or settled).
    AuctionEnded {
        /// Token id.
        token_id: String,
        /// Auction id.
        auction_id: String,
        /// Winner address (zero address when closed without a bid).
        winner: String,
        /// Winning amount (wei).
        amount: String,
        /// Where.
        origin: Origin,
    },
    /// The token changed hands for money, with the full split.
    NftSold {
        /// Token id.
        token_id: String,
        /// Auction id ("0" for a fixed-price sale).
        auction_id: String,
        /// Buyer address.
        buyer: String,
        /// Seller address.
        seller: String,
        /// Price (wei).
        price: String,
        /// Service fee (wei).
        fee: String,
        /// Royalties in total (wei).
        royalties: String,
        /// What the seller received (wei).
        seller_proceeds: String,
        /// Where.
        origin: Origin,
    },
    /// A royalty was paid.
    RoyaltyPaid {
        /// Token id.
        token_id: String,
        /// Receiver address.
        receiver: String,
        /// Amount (wei).
        amount: String,
        /// Where.
        origin: Origin,
    },
    /// The token moved between owners (sale, gift, or any ERC-721 transfer; not mint or burn).
    NftTransferred {
        /// Token id.
        token_id: String,
        /// Previous owner.
        from: String,
        /// New owner.
        to: String,
        /// Where.
        origin: Origin,
    },
    /// The token was burned.
    NftBurned {
        /// Token id.
        token_id: String,
        /// Its owner at the time.
        owner: String,
        /// Where.
        origin: Origin,
    },
    /// A payout that could not be pushed became a withdrawable credit.
    Credited {
        /// Account address.
        account: String,
        /// Amount (wei).
        amount: String,
        /// Where.
        origin: Origin,
    },
    /// Credits were withdrawn.
    CreditsWithdrawn {
        /// Account address.
        account: String,
        /// Amount (wei).
        amount: String,
        /// Where.
        origin: Origin,
    },
    /// A sale just started (right after its [`ChainEvent::SaleUpdated`]) with this service fee: the
    /// sale pays it, whatever the market's fee is when it completes.
    ServiceFeeSnapshotted {
        /// Token id.
        token_id: String,
        /// The auction the sale opened ("0" for a fixed-price sale).
        auction_id: String,
        /// The sale's fee in basis points.
        fee_bps: u32,
        /// Where.
        origin: Origin,
    },
    /// The service fee of sales starting from now changed.
    ServiceFeeChanged {
        /// New fee in basis points.
        fee_bps: u32,
        /// Where.
        origin: Origin,
    },
    /// The admin proposed a successor, who becomes admin by accepting ([`ChainEvent::AdminChanged`]).
    AdminProposed {
        /// The proposed admin's address (the zero address: the proposal was withdrawn).
        pending_admin: String,
        /// Where.
        origin: Origin,
    },
    /// The admin changed (no admin is pending afterwards).
    AdminChanged {
        /// New admin address.
        admin: String,
        /// Where.
        origin: Origin,
    },
    /// An offer on a token was made, or replaced the offerer's live one (whose amount went back):
    /// its ether is escrowed until it is accepted, rejected or cancelled.
    OfferMade {
        /// Token id.
        token_id: String,
        /// Offerer address.
        offerer: String,
        /// Amount offered and escrowed (wei).
        amount: String,
        /// From this time on the offer cannot be accepted (Unix seconds); it can still be cancelled.
        expires_at: i64,
        /// The service fee its sale would pay (basis points, snapshotted now).
        fee_bps: u32,
        /// The amount of the offer it replaced, refunded (wei; "0" for a new offer).
        replaced_amount: String,
        /// Where.
        origin: Origin,
    },
    /// The offerer withdrew its offer (live, expired, or on a burned token) and was refunded.
    OfferCancelled {
        /// Token id.
        token_id: String,
        /// Offerer address.
        offerer: String,
        /// Amount refunded (wei).
        amount: String,
        /// Where.
        origin: Origin,
    },
    /// The token's owner rejected an offer; the offerer was refunded.
    OfferRejected {
        /// Token id.
        token_id: String,
        /// Offerer address.
        offerer: String,
        /// Amount refunded (wei).
        amount: String,
        /// Where.
        origin: Origin,
    },
    /// The token's owner accepted an offer. The sale follows in the same transaction as a purchase
    /// does ([`ChainEvent::NftTransferred`], then [`ChainEvent::NftSold`] with auction id "0").
    OfferAccepted {
        /// Token id.
        token_id: String,
        /// Offerer address, the buyer.
        offerer: String,
        /// The owner who accepted, the seller.
        seller: String,
        /// The price paid: the escrowed offer (wei).
        amount: String,
        /// Where.
        origin: Origin,
    },
    /// A cart item was not bought (no longer on sale at a fixed price, or repriced above the price
    /// the buyer saw); its money went back to the buyer in the same transaction.
    CartItemSkipped {
        /// Token id.
        token_id: String,
        /// The cart's buyer.
        buyer: String,
        /// The price the buyer saw (wei).
        seen_price: String,
        /// The token's asking price then (wei; "0" when not for sale).
        price: String,
        /// Where.
        origin: Origin,
    },
    /// A cart was bought: each item bought has its own sale facts, each item skipped a
    /// [`ChainEvent::CartItemSkipped`].
    CartPurchased {
        /// The buyer.
        buyer: String,
        /// Items in the cart.
        items: u32,
        /// Items bought.
        bought: u32,
        /// The sum of the prices paid (wei).
        spent: String,
        /// What went back to the buyer (wei).
        refunded: String,
        /// Where.
        origin: Origin,
    },
    /// The admin granted or revoked the contract's moderator role (holding and releasing sales).
    ModeratorSet {
        /// The account.
        account: String,
        /// True when granted, false when revoked.
        enabled: bool,
        /// Where.
        origin: Origin,
    },
    /// A moderator held the token's sale on this market (a stolen-item hold), or renewed the hold:
    /// until `until` no listing, purchase, bid, acceptance or new offer. The hold ended the token's
    /// listing ([`ChainEvent::SaleUpdated`] to not for sale follows in the same transaction).
    /// Transfers stay free and the hold follows the token.
    SaleHeld {
        /// Token id.
        token_id: String,
        /// The moderator.
        moderator: String,
        /// The hold ends at this time (Unix seconds); the sale works again from then on.
        until: i64,
        /// The hash of the note of evidence (a police report), lower-case 0x-hex; `None` without.
        evidence: Option<String>,
        /// Where.
        origin: Origin,
    },
    /// A moderator released the hold on the token's sale before its end.
    SaleReleased {
        /// Token id.
        token_id: String,
        /// The moderator.
        moderator: String,
        /// Where.
        origin: Origin,
    },
    /// The indexer processed a block: its checkpoint, appended atomically with the block's events.
    BlockIndexed {
        /// Block number.
        number: u64,
        /// Block hash.
        hash: String,
        /// Parent hash (reorg detection compares it with the previous checkpoint).
        parent_hash: String,
        /// Block timestamp.
        time: i64,
        /// Ids of the events this block produced (what a reorg of it retracts).
        event_ids: Vec<Uuid>,
        /// The streams those events are in.
        streams: Vec<String>,
    },
    /// A reorg retracted these blocks: every event with these ids no longer holds. Projections
    /// rebuild the affected streams without them; the canonical blocks are indexed after.
    BlocksRetracted {
        /// First retracted block number.
        from_block: u64,
        /// Last retracted block number.
        to_block: u64,
        /// Ids of the events those blocks had produced.
        event_ids: Vec<Uuid>,
        /// The streams those events were in.
        streams: Vec<String>,
    },
}
}

impl ChainEvent {
    /// The past-tense type name stored in the envelope.
    pub fn event_type(&self) -> &'static str {
        match self {
            Self::NftMinted { .. } => "NftMinted",
            Self::SaleUpdated { .. } => "SaleUpdated",
            Self::PriceChanged { .. } => "PriceChanged",
            Self::BidPlaced { .. } => "BidPlaced",
            Self::BidRefunded { .. } => "BidRefunded",
            Self::BidRejected { .. } => "BidRejected",
            Self::AuctionExtended { .. } => "AuctionExtended",
            Self::AuctionEnded { .. } => "AuctionEnded",
            Self::NftSold { .. } => "NftSold",
            Self::RoyaltyPaid { .. } => "RoyaltyPaid",
            Self::NftTransferred { .. } => "NftTransferred",
            Self::NftBurned { .. } => "NftBurned",
            Self::Credited { .. } => "Credited",
            Self::CreditsWithdrawn { .. } => "CreditsWithdrawn",
            Self::ServiceFeeSnapshotted { .. } => "ServiceFeeSnapshotted",
            Self::ServiceFeeChanged { .. } => "ServiceFeeChanged",
            Self::AdminProposed { .. } => "AdminProposed",
            Self::AdminChanged { .. } => "AdminChanged",
            Self::OfferMade { .. } => "OfferMade",
            Self::OfferCancelled { .. } => "OfferCancelled",
            Self::OfferRejected { .. } => "OfferRejected",
            Self::OfferAccepted { .. } => "OfferAccepted",
            Self::CartItemSkipped { .. } => "CartItemSkipped",
            Self::CartPurchased { .. } => "CartPurchased",
            Self::ModeratorSet { .. } => "ModeratorSet",
            Self::SaleHeld { .. } => "SaleHeld",
            Self::SaleReleased { .. } => "SaleReleased",
            Self::BlockIndexed { .. } => "BlockIndexed",
            Self::BlocksRetracted { .. } => "BlocksRetracted",
        }
    }

    /// The payload schema version (bump it, and register an upcaster, when a shape changes). Adding
    /// an event type changes no stored shape: `AuctionExtended`, `ServiceFeeSnapshotted` and
    /// `AdminProposed` (the contract's follow-ups) start at 1 like the rest.
    pub const SCHEMA_VERSION: u32 = 1;

    /// The stream this event belongs to on `chain_id`.
    pub fn stream_id(&self, chain_id: u64) -> String {
        match self {
            Self::NftMinted { token_id, .. }
            | Self::SaleUpdated { token_id, .. }
            | Self::PriceChanged { token_id, .. }
            | Self::BidPlaced { token_id, .. }
            | Self::BidRefunded { token_id, .. }
            | Self::BidRejected { token_id, .. }
            | Self::AuctionExtended { token_id, .. }
            | Self::AuctionEnded { token_id, .. }
            | Self::NftSold { token_id, .. }
            | Self::RoyaltyPaid { token_id, .. }
            | Self::NftTransferred { token_id, .. }
            | Self::NftBurned { token_id, .. }
            | Self::ServiceFeeSnapshotted { token_id, .. }
            | Self::OfferMade { token_id, .. }
            | Self::OfferCancelled { token_id, .. }
            | Self::OfferRejected { token_id, .. }
            | Self::OfferAccepted { token_id, .. }
            | Self::CartItemSkipped { token_id, .. }
            | Self::SaleHeld { token_id, .. }
            | Self::SaleReleased { token_id, .. } => nft_stream(chain_id, token_id),
            // A cart spans tokens: its summary goes with the buyer's account.
            Self::Credited { account, .. } | Self::CreditsWithdrawn { account, .. } | Self::CartPurchased { buyer: account, .. } => {
                format!("account-{chain_id}-{account}")
            }
            Self::ServiceFeeChanged { .. } | Self::AdminProposed { .. } | Self::AdminChanged { .. } | Self::ModeratorSet { .. } => {
                format!("market-{chain_id}")
            }
            Self::BlockIndexed { .. } | Self::BlocksRetracted { .. } => chain_stream(chain_id),
        }
    }

    /// This event as a [`crate::NewEvent`] with the given id and metadata.
    pub fn to_new_event(&self, event_id: Uuid, metadata: crate::Metadata) -> Result<crate::NewEvent, crate::StoreError> {
        Ok(crate::NewEvent {
            event_id,
            event_type: self.event_type().to_owned(),
            schema_version: Self::SCHEMA_VERSION,
            payload: serde_json::to_string(self)?,
            metadata,
        })
    }
}

/// The stream of one token.
pub fn nft_stream(chain_id: u64, token_id: &str) -> String {
    format!("nft-{chain_id}-{token_id}")
}

/// The indexer's own stream on a chain.
pub fn chain_stream(chain_id: u64) -> String {
    format!("chain-{chain_id}")
}

/// The deterministic id of the `n`-th event derived from one log: a UUIDv5 of
/// (chain id, block hash, tx hash, log index, n). Re-indexing the same block yields the same ids,
/// so the store's idempotency makes a restarted indexer harmless.
pub fn chain_event_id(chain_id: u64, block_hash: &str, tx_hash: &str, log_index: u64, n: u32) -> Uuid {
    const NAMESPACE: Uuid = Uuid::from_u128(0x6d61_726b_6574_706c_6163_652d_6368_6169);
    let name = format!("{chain_id}:{}:{}:{log_index}:{n}", block_hash.to_ascii_lowercase(), tx_hash.to_ascii_lowercase());
    Uuid::new_v5(&NAMESPACE, name.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chain_event_ids_are_deterministic_and_distinct() {
        let a = chain_event_id(80001, "0xAB", "0xcd", 3, 0);
        assert_eq!(a, chain_event_id(80001, "0xab", "0xCD", 3, 0));
        assert_ne!(a, chain_event_id(80001, "0xab", "0xcd", 4, 0));
        assert_ne!(a, chain_event_id(80001, "0xab", "0xcd", 3, 1));
        assert_ne!(a, chain_event_id(1, "0xab", "0xcd", 3, 0));
    }

    #[test]
    fn events_serialize_with_their_type_and_camel_case_fields() {
        let event = ChainEvent::PriceChanged {
            token_id: "7".into(),
            price: "1000".into(),
            origin: Origin { block_number: 1, block_time: 2, tx_hash: "0x1".into(), log_index: 0 },
        };
        let json = serde_json::to_value(&event).unwrap();
        assert_eq!(json["type"], "PriceChanged");
        assert_eq!(json["tokenId"], "7");
        assert_eq!(json["origin"]["blockNumber"], 1);
        assert_eq!(serde_json::from_value::<ChainEvent>(json).unwrap(), event);
        assert_eq!(event.stream_id(80001), "nft-80001-7");
    }

    #[test]
    fn events_read_the_same_whether_the_tag_comes_first_or_not() {
        let origin = Origin { block_number: 5, block_time: 6, tx_hash: "0x3".into(), log_index: 2 };
        let sold = ChainEvent::NftSold {
            token_id: "7".into(),
            auction_id: "0".into(),
            seller: "0xa0".into(),
            buyer: "0xb\"0".into(),
            price: "1000".into(),
            fee: "25".into(),
            royalties: "50".into(),
            seller_proceeds: "925".into(),
            origin,
        };
        // As written: the tag first, the fields read straight (an escaped string among them).
        let text = serde_json::to_string(&sold).unwrap();
        assert!(text.starts_with(r#"{"type":"NftSold","#), "{text}");
        assert_eq!(serde_json::from_str::<ChainEvent>(&text).unwrap(), sold);
        // Keys sorted (a JSON value's map), and the tag last: the same event.
        let sorted = serde_json::to_value(&sold).unwrap();
        assert_eq!(serde_json::from_value::<ChainEvent>(sorted).unwrap(), sold);
        let last = text.replacen(r#""type":"NftSold","#, "", 1).replacen('}', r#"},"type":"NftSold""#, 1);
        let last = format!("{}}}", last.trim_end_matches('}'));
        assert_eq!(serde_json::from_str::<ChainEvent>(&last).unwrap(), sold, "{last}");
        // What is not an event says why.
        for (bad, why) in [
            (r#"{"type":"NftSoldd","tokenId":"7"}"#, "unknown variant"),
            (r#"{"type":"PriceChanged","tokenId":"7"}"#, "missing field `price`"),
            (r#"{"tokenId":"7"}"#, "missing field `type`"),
            (r#"{"type":"PriceChanged","tokenId":7,"price":"1","origin":{}}"#, "invalid type"),
            ("[]", "invalid type"),
        ] {
            let error = serde_json::from_str::<ChainEvent>(bad).unwrap_err().to_string();
            assert!(error.contains(why), "{bad}: {error}");
        }
    }

    #[test]
    fn offer_and_cart_facts_round_trip_in_their_streams() {
        let origin = Origin { block_number: 5, block_time: 6, tx_hash: "0x3".into(), log_index: 2 };
        let made = ChainEvent::OfferMade {
            token_id: "7".into(),
            offerer: "0xb0".into(),
            amount: "1000".into(),
            expires_at: 1_700_000_000,
            fee_bps: 500,
            replaced_amount: "0".into(),
            origin: origin.clone(),
        };
        let accepted = ChainEvent::OfferAccepted {
            token_id: "7".into(),
            offerer: "0xb0".into(),
            seller: "0xa0".into(),
            amount: "1000".into(),
            origin: origin.clone(),
        };
        let skipped = ChainEvent::CartItemSkipped {
            token_id: "8".into(),
            buyer: "0xc0".into(),
            seen_price: "5".into(),
            price: "6".into(),
            origin: origin.clone(),
        };
        let cart =
            ChainEvent::CartPurchased { buyer: "0xc0".into(), items: 3, bought: 2, spent: "10".into(), refunded: "5".into(), origin };
        for (event, stream, field, value) in [
            (&made, "nft-80001-7", "expiresAt", serde_json::json!(1_700_000_000)),
            (&made, "nft-80001-7", "replacedAmount", serde_json::json!("0")),
            (&accepted, "nft-80001-7", "seller", serde_json::json!("0xa0")),
            (&skipped, "nft-80001-8", "seenPrice", serde_json::json!("5")),
            (&cart, "account-80001-0xc0", "bought", serde_json::json!(2)),
        ] {
            let json = serde_json::to_value(event).unwrap();
            assert_eq!(json["type"], event.event_type());
            assert_eq!(json[field], value);
            assert_eq!(&serde_json::from_value::<ChainEvent>(json).unwrap(), event);
            assert_eq!(event.stream_id(80001), stream);
        }
    }

    #[test]
    fn the_contract_follow_up_events_round_trip_in_their_streams() {
        let origin = Origin { block_number: 3, block_time: 4, tx_hash: "0x2".into(), log_index: 1 };
        let extended =
            ChainEvent::AuctionExtended { token_id: "7".into(), auction_id: "2".into(), end_time: 1_700_000_600, origin: origin.clone() };
        let snapshot =
            ChainEvent::ServiceFeeSnapshotted { token_id: "7".into(), auction_id: "0".into(), fee_bps: 250, origin: origin.clone() };
        let proposed = ChainEvent::AdminProposed { pending_admin: "0xab".into(), origin: origin.clone() };
        let moderator = ChainEvent::ModeratorSet { account: "0xcd".into(), enabled: true, origin: origin.clone() };
        let held = ChainEvent::SaleHeld {
            token_id: "7".into(),
            moderator: "0xcd".into(),
            until: 1_700_604_800,
            evidence: Some(format!("0x{}", "ab".repeat(32))),
            origin: origin.clone(),
        };
        let held_without = ChainEvent::SaleHeld {
            token_id: "7".into(),
            moderator: "0xcd".into(),
            until: 1_700_000_030,
            evidence: None,
            origin: origin.clone(),
        };
        let released = ChainEvent::SaleReleased { token_id: "7".into(), moderator: "0xcd".into(), origin };
        for (event, stream, field, value) in [
            (&extended, "nft-80001-7", "endTime", serde_json::json!(1_700_000_600)),
            (&snapshot, "nft-80001-7", "feeBps", serde_json::json!(250)),
            (&proposed, "market-80001", "pendingAdmin", serde_json::json!("0xab")),
            (&moderator, "market-80001", "enabled", serde_json::json!(true)),
            (&held, "nft-80001-7", "until", serde_json::json!(1_700_604_800)),
            (&held_without, "nft-80001-7", "evidence", serde_json::Value::Null),
            (&released, "nft-80001-7", "moderator", serde_json::json!("0xcd")),
        ] {
            let json = serde_json::to_value(event).unwrap();
            assert_eq!(json["type"], event.event_type());
            assert_eq!(json[field], value);
            assert_eq!(&serde_json::from_value::<ChainEvent>(json).unwrap(), event);
            assert_eq!(event.stream_id(80001), stream);
        }
    }
}
