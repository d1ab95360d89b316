//! Trading records: which user did what on chain.
//!
//! The chain is the truth for chain facts, and the indexer their only writer. What the chain
//! cannot say is *which user* sent a transaction: the record calls of the API (mint, purchase,
//! bid, sale update, stop, burn) prove it. The API reads the transaction's receipt over RPC and
//! hands it here as a [`Transaction`]; [`decide`] checks it against what the caller claims
//! ([`Claim`]) and the wallets linked to the caller, and answers the one event to record,
//! [`TradeEvent::ChainActionRecorded`]. No client value is trusted: the token, the amounts and
//! the sender all come from the receipt.
//!
//! Streams: `tx-{chain}-{hash}`, one per recorded transaction. It is appended with
//! "no stream" expected, so the first record of a transaction wins for good and a replayed hash
//! is a typed conflict that writes nothing. [`retry`] then reads the record already there: the
//! same user recording the same action on the same token again (a client whose first answer was
//! lost) is answered as the first call was, anything else is refused.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::chain::{ChainEvent, SaleType};

/// What a recorded transaction did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ChainAction {
    /// Minted a token (`/api/nft/generation`).
    Mint,
    /// Bought a token at its fixed or buy-now price.
    Purchase,
    /// Bid in an auction.
    Bid,
    /// Put a token on sale or changed its sale.
    UpdateSale,
    /// Took a token off sale.
    StopSale,
    /// Burned a token.
    Burn,
    /// Made (or replaced) an offer on a token.
    MakeOffer,
    /// Cancelled one's offer on a token.
    CancelOffer,
    /// Accepted an offer on one's token (sold it to the offerer).
    AcceptOffer,
    /// Rejected an offer on one's token.
    RejectOffer,
    /// Bought a cart (several tokens at once); recorded under the cart's first token.
    CartPurchase,
}

impl ChainAction {
    /// The action as a reader names it (`a purchase`).
    fn described(self) -> &'static str {
        match self {
            Self::Mint => "a mint",
            Self::Purchase => "a purchase",
            Self::Bid => "a bid",
            Self::UpdateSale => "a sale update",
            Self::StopSale => "a stopped sale",
            Self::Burn => "a burn",
            Self::MakeOffer => "an offer",
            Self::CancelOffer => "a cancelled offer",
            Self::AcceptOffer => "an accepted offer",
            Self::RejectOffer => "a rejected offer",
            Self::CartPurchase => "a cart purchase",
        }
    }
}

/// Facts about trading only the server knows, past tense.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all_fields = "camelCase")]
pub enum TradeEvent {
    /// A user proved they sent a transaction of the marketplace contract, and what it did.
    ChainActionRecorded {
        /// What it did.
        kind: ChainAction,
        /// Chain id.
        chain_id: u64,
        /// Transaction hash (lower-case 0x-hex).
        tx_hash: String,
        /// The token it concerned (`{chain}-{token}`).
        nft_id: String,
        /// The user who sent it (through one of their linked wallets).
        user_id: Uuid,
        /// The block it was mined in.
        block: u64,
    },
}

impl TradeEvent {
    /// The payload schema version.
    pub const SCHEMA_VERSION: u32 = 1;

    /// The past-tense type name stored in the envelope.
    pub fn event_type(&self) -> &'static str {
        match self {
            Self::ChainActionRecorded { .. } => "ChainActionRecorded",
        }
    }

    /// The stream this event belongs to.
    pub fn stream_id(&self) -> String {
        match self {
            Self::ChainActionRecorded { chain_id, tx_hash, .. } => tx_stream(*chain_id, tx_hash),
        }
    }

    /// This event as a [`crate::NewEvent`].
    pub fn to_new_event(&self, metadata: crate::Metadata) -> Result<crate::NewEvent, crate::StoreError> {
        crate::NewEvent::new(self.event_type(), Self::SCHEMA_VERSION, self, metadata)
    }
}

/// The stream of one recorded transaction.
pub fn tx_stream(chain_id: u64, tx_hash: &str) -> String {
    format!("tx-{chain_id}-{}", tx_hash.to_ascii_lowercase())
}

/// A mined transaction as its receipt shows it, its marketplace logs decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transaction {
    /// Its hash (lower-case 0x-hex).
    pub hash: String,
    /// Sender (lower-case 0x-hex).
    pub from: String,
    /// Recipient (`None` for a contract creation).
    pub to: Option<String>,
    /// Whether it succeeded (a reverted transaction is mined too).
    pub succeeded: bool,
    /// The block it was mined in.
    pub block: u64,
    /// The chain facts its logs of the marketplace contract establish, in log order.
    pub events: Vec<ChainEvent>,
}

/// What a record call claims a transaction did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// Minted a token with this token URI.
    Mint {
        /// The metadata URI the token must carry.
        token_uri: String,
    },
    /// Bought this token.
    Purchase {
        /// Token id (decimal).
        token_id: String,
    },
    /// Bid on this token, for `amount` wei when the caller says.
    Bid {
        /// Token id (decimal).
        token_id: String,
        /// The amount the caller says they bid (wei), checked when given.
        amount: Option<String>,
    },
    /// Set this token's sale to `sale_type` (or changed its price).
    UpdateSale {
        /// Token id (decimal).
        token_id: String,
        /// The sale the caller says they set.
        sale_type: SaleType,
        /// The fixed (or buy-now) price the caller says they set (wei), checked when given and
        /// the sale is one with a price.
        price: Option<String>,
        /// The auction base price the caller says they set (wei), checked when given, the sale
        /// is an auction and the transaction shows it (a price change keeps the base price).
        base_price: Option<String>,
    },
    /// Took this token off sale.
    StopSale {
        /// Token id (decimal).
        token_id: String,
    },
    /// Burned this token.
    Burn {
        /// Token id (decimal).
        token_id: String,
    },
    /// Made (or replaced) an offer on this token, of `amount` wei when the caller says.
    MakeOffer {
        /// Token id (decimal).
        token_id: String,
        /// The amount the caller says they offered (wei), checked when given.
        amount: Option<String>,
    },
    /// Cancelled their offer on this token.
    CancelOffer {
        /// Token id (decimal).
        token_id: String,
    },
    /// Accepted an offer on this token, from `offerer` when the caller says.
    AcceptOffer {
        /// Token id (decimal).
        token_id: String,
        /// The offerer the caller says they accepted (lower-case 0x-hex), checked when given.
        offerer: Option<String>,
    },
    /// Rejected an offer on this token, from `offerer` when the caller says.
    RejectOffer {
        /// Token id (decimal).
        token_id: String,
        /// The offerer the caller says they rejected (lower-case 0x-hex), checked when given.
        offerer: Option<String>,
    },
    /// Bought a cart.
    CartPurchase,
}

impl Claim {
    /// The action the claim is about.
    pub fn action(&self) -> ChainAction {
        match self {
            Self::Mint { .. } => ChainAction::Mint,
            Self::Purchase { .. } => ChainAction::Purchase,
            Self::Bid { .. } => ChainAction::Bid,
            Self::UpdateSale { .. } => ChainAction::UpdateSale,
            Self::StopSale { .. } => ChainAction::StopSale,
            Self::Burn { .. } => ChainAction::Burn,
            Self::MakeOffer { .. } => ChainAction::MakeOffer,
            Self::CancelOffer { .. } => ChainAction::CancelOffer,
            Self::AcceptOffer { .. } => ChainAction::AcceptOffer,
            Self::RejectOffer { .. } => ChainAction::RejectOffer,
            Self::CartPurchase => ChainAction::CartPurchase,
        }
    }
}

/// Who records, on which chain and contract.
#[derive(Clone, Debug)]
pub struct Recorder<'a> {
    /// Chain id.
    pub chain_id: u64,
    /// The marketplace contract (lower-case 0x-hex).
    pub contract: &'a str,
    /// The signed-in user.
    pub user_id: Uuid,
    /// The wallets linked to that user (lower-case 0x-hex).
    pub wallets: &'a [String],
}

/// Why a transaction cannot be recorded. The messages are what the API answers.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TradeError {
    /// The transaction reverted.
    #[error("The transaction failed on chain; nothing was recorded")]
    Failed,
    /// It was sent to another address than the marketplace contract.
    #[error("The transaction was not sent to the marketplace contract")]
    ForeignContract,
    /// Its sender is not a wallet linked to the caller.
    #[error("The transaction was sent from {from}, which is not a wallet linked to your account")]
    ForeignSender {
        /// The sender.
        from: String,
    },
    /// It did not do what the caller claims, for any token.
    #[error("The transaction is not {}", .expected.described())]
    WrongAction {
        /// The action claimed.
        expected: ChainAction,
    },
    /// It did what the caller claims, but to another token.
    #[error("The transaction concerns token {actual}, not token {claimed}")]
    WrongToken {
        /// The token in the call.
        claimed: String,
        /// The token the transaction concerned.
        actual: String,
    },
    /// The sender was not the one the action needs (the owner, the buyer, the bidder).
    #[error("The transaction's {role} is {actual}, not its sender")]
    NotSender {
        /// Which party it names.
        role: &'static str,
        /// The address it names.
        actual: String,
    },
    /// The token changed hands in the transaction, so it was no owner's sale change.
    #[error("The token changed hands in this transaction: it is not {}", .expected.described())]
    ChangedHands {
        /// The action claimed.
        expected: ChainAction,
    },
    /// The mint carries another token URI than the metadata named.
    #[error("The token was minted with URI {actual}, not {claimed}")]
    WrongTokenUri {
        /// The URI in the call.
        claimed: String,
        /// The URI on chain.
        actual: String,
    },
    /// The offer concerns another offerer than the caller says.
    #[error("The transaction concerns the offer of {actual}, not of {claimed}")]
    WrongOfferer {
        /// The offerer in the call.
        claimed: String,
        /// The offerer on chain.
        actual: String,
    },
    /// The bid's (or offer's) amount differs from what the caller says.
    #[error("The amount on chain is {actual} wei, not {claimed} wei")]
    WrongAmount {
        /// The amount in the call (wei).
        claimed: String,
        /// The amount on chain (wei).
        actual: String,
    },
    /// The sale set on chain is another one than the caller says.
    #[error("The transaction set the sale to {actual:?}, not {claimed:?}")]
    WrongSale {
        /// The sale in the call.
        claimed: SaleType,
        /// The sale on chain.
        actual: SaleType,
    },
    /// The sale set on chain has another price than the caller says.
    #[error("The transaction set the {which} to {actual} wei, not {claimed} wei")]
    WrongPrice {
        /// Which price (`price`, `base price`).
        which: &'static str,
        /// The price in the call (wei).
        claimed: String,
        /// The price on chain (wei).
        actual: String,
    },
    /// The transaction is already recorded for another user.
    #[error("Transaction {tx_hash} is already recorded, for another account")]
    RecordedForAnother {
        /// Its hash.
        tx_hash: String,
    },
    /// The caller already recorded the transaction, as another action or for another token.
    #[error("Transaction {tx_hash} is already recorded, as {} of NFT {nft_id}", .kind.described())]
    RecordedAsOther {
        /// Its hash.
        tx_hash: String,
        /// What it was recorded as.
        kind: ChainAction,
        /// The token it was recorded for.
        nft_id: String,
    },
}

/// Checks `tx` against `claim` for `recorder`, and answers the event that records it.
pub fn decide(recorder: &Recorder<'_>, tx: &Transaction, claim: &Claim) -> Result<TradeEvent, TradeError> {
    if !tx.succeeded {
        return Err(TradeError::Failed);
    }
    if !tx.to.as_deref().is_some_and(|to| to.eq_ignore_ascii_case(recorder.contract)) {
        return Err(TradeError::ForeignContract);
    }
    if !recorder.wallets.iter().any(|w| w.eq_ignore_ascii_case(&tx.from)) {
        return Err(TradeError::ForeignSender { from: tx.from.clone() });
    }
    let token_id = match claim {
        Claim::Mint { token_uri } => minted(tx, token_uri)?,
        Claim::Purchase { token_id } => bought(tx, token_id)?,
        Claim::Bid { token_id, amount } => bid(tx, token_id, amount.as_deref())?,
        Claim::UpdateSale { token_id, sale_type, price, base_price } => {
            sale_set(tx, token_id, *sale_type, Prices { price: price.as_deref(), base_price: base_price.as_deref() }, claim.action())?
        }
        Claim::StopSale { token_id } => sale_set(tx, token_id, SaleType::NotForSale, Prices::default(), claim.action())?,
        Claim::Burn { token_id } => burned(tx, token_id)?,
        Claim::MakeOffer { token_id, amount } => offer_made(tx, token_id, amount.as_deref())?,
        Claim::CancelOffer { token_id } => offer_cancelled(tx, token_id)?,
        Claim::AcceptOffer { token_id, offerer } => offer_accepted(tx, token_id, offerer.as_deref())?,
        Claim::RejectOffer { token_id, offerer } => offer_rejected(tx, token_id, offerer.as_deref())?,
        Claim::CartPurchase => cart_bought(tx)?,
    };
    Ok(TradeEvent::ChainActionRecorded {
        kind: claim.action(),
        chain_id: recorder.chain_id,
        tx_hash: tx.hash.to_ascii_lowercase(),
        nft_id: format!("{}-{token_id}", recorder.chain_id),
        user_id: recorder.user_id,
        block: tx.block,
    })
}

/// A record call for a transaction whose stream already holds `recorded`, where [`decide`]
/// answered `attempt`. The same user recording the same action on the same token is a retry (its
/// first answer was lost): `Ok`, to be answered as the first call was, appending nothing. Another
/// user, another action or another token is refused: the first record wins for good.
pub fn retry(recorded: &TradeEvent, attempt: &TradeEvent) -> Result<(), TradeError> {
    let TradeEvent::ChainActionRecorded { kind, tx_hash, nft_id, user_id, .. } = recorded;
    let TradeEvent::ChainActionRecorded { kind: kind_now, nft_id: nft_now, user_id: user_now, .. } = attempt;
    if user_id != user_now {
        return Err(TradeError::RecordedForAnother { tx_hash: tx_hash.clone() });
    }
    if (kind, nft_id) != (kind_now, nft_now) {
        return Err(TradeError::RecordedAsOther { tx_hash: tx_hash.clone(), kind: *kind, nft_id: nft_id.clone() });
    }
    Ok(())
}

/// The first event `pick` accepts for the claimed token; else why not: the token another such
/// event named, or no such event.
fn find<'a, T>(
    tx: &'a Transaction,
    action: ChainAction,
    claimed: &str,
    pick: impl Fn(&'a ChainEvent) -> Option<(&'a str, T)>,
) -> Result<T, TradeError> {
    let mut other = None;
    for (token, found) in tx.events.iter().filter_map(pick) {
        if token == claimed {
            return Ok(found);
        }
        other.get_or_insert(token);
    }
    Err(match other {
        Some(actual) => TradeError::WrongToken { claimed: claimed.to_owned(), actual: actual.to_owned() },
        None => TradeError::WrongAction { expected: action },
    })
}

fn same(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

fn minted(tx: &Transaction, token_uri: &str) -> Result<String, TradeError> {
    let (token_id, creator, uri) = tx
        .events
        .iter()
        .find_map(|e| match e {
            ChainEvent::NftMinted { token_id, creator, token_uri, .. } => Some((token_id, creator, token_uri)),
            _ => None,
        })
        .ok_or(TradeError::WrongAction { expected: ChainAction::Mint })?;
    if !same(creator, &tx.from) {
        return Err(TradeError::NotSender { role: "creator", actual: creator.clone() });
    }
    if uri != token_uri {
        return Err(TradeError::WrongTokenUri { claimed: token_uri.to_owned(), actual: uri.clone() });
    }
    Ok(token_id.clone())
}

fn bought(tx: &Transaction, token_id: &str) -> Result<String, TradeError> {
    let buyer = find(tx, ChainAction::Purchase, token_id, |e| match e {
        ChainEvent::NftSold { token_id, buyer, .. } => Some((token_id.as_str(), buyer)),
        _ => None,
    })?;
    // A sale the owner accepted (or anyone settled) is sent by the seller or a third party: the
    // buyer must have sent it for it to be their purchase.
    if !same(buyer, &tx.from) {
        return Err(TradeError::NotSender { role: "buyer", actual: buyer.clone() });
    }
    Ok(token_id.to_owned())
}

fn bid(tx: &Transaction, token_id: &str, amount: Option<&str>) -> Result<String, TradeError> {
    let (bidder, actual) = find(tx, ChainAction::Bid, token_id, |e| match e {
        ChainEvent::BidPlaced { token_id, bidder, amount, .. } => Some((token_id.as_str(), (bidder, amount))),
        _ => None,
    })?;
    if !same(bidder, &tx.from) {
        return Err(TradeError::NotSender { role: "bidder", actual: bidder.clone() });
    }
    if let Some(claimed) = amount.filter(|claimed| claimed != actual) {
        return Err(TradeError::WrongAmount { claimed: claimed.to_owned(), actual: actual.clone() });
    }
    Ok(token_id.to_owned())
}

/// The prices a sale update claims (wei), each checked when given.
#[derive(Clone, Copy, Default)]
struct Prices<'a> {
    price: Option<&'a str>,
    base_price: Option<&'a str>,
}

/// A sale set by the token's owner: the contract lets only the owner list, relist, reprice or
/// stop a token, but a sale or a transfer clears a listing too (a `SaleUpdated` to not for sale
/// sent by the buyer or an approved operator). So the token must not have changed hands in the
/// same transaction: then the sender, who passed the contract's owner check, is the owner.
///
/// The claimed prices are checked against the sale set: the price for a fixed sale or an auction
/// (its buy-now price), the base price for an auction. A sale set to not for sale has no price
/// (the chain shows 0 whatever the form last held), and a price change shows only the new price.
fn sale_set(tx: &Transaction, token_id: &str, claimed: SaleType, prices: Prices<'_>, action: ChainAction) -> Result<String, TradeError> {
    let changed_hands = tx.events.iter().any(|e| match e {
        ChainEvent::NftSold { token_id: t, .. }
        | ChainEvent::NftTransferred { token_id: t, .. }
        | ChainEvent::NftBurned { token_id: t, .. } => t == token_id,
        _ => false,
    });
    let (sale_type, price, base_price) = find(tx, action, token_id, |e| match e {
        ChainEvent::SaleUpdated { token_id, sale_type, price, base_price, .. } => {
            Some((token_id.as_str(), (Some(*sale_type), price, Some(base_price))))
        }
        // A price change keeps the sale type (fixed price, or an auction without bids).
        ChainEvent::PriceChanged { token_id, price, .. } if claimed != SaleType::NotForSale => {
            Some((token_id.as_str(), (None, price, None)))
        }
        _ => None,
    })?;
    if changed_hands {
        return Err(TradeError::ChangedHands { expected: action });
    }
    if let Some(actual) = sale_type.filter(|actual| *actual != claimed) {
        return Err(TradeError::WrongSale { claimed, actual });
    }
    let checked = [
        ("price", prices.price.filter(|_| claimed != SaleType::NotForSale), Some(price)),
        ("base price", prices.base_price.filter(|_| claimed == SaleType::Auction), base_price),
    ];
    for (which, claimed, actual) in checked {
        if let (Some(claimed), Some(actual)) = (claimed, actual)
            && claimed != actual
        {
            return Err(TradeError::WrongPrice { which, claimed: claimed.to_owned(), actual: actual.clone() });
        }
    }
    Ok(token_id.to_owned())
}

fn burned(tx: &Transaction, token_id: &str) -> Result<String, TradeError> {
    let owner = find(tx, ChainAction::Burn, token_id, |e| match e {
        ChainEvent::NftBurned { token_id, owner, .. } => Some((token_id.as_str(), owner)),
        _ => None,
    })?;
    if !same(owner, &tx.from) {
        return Err(TradeError::NotSender { role: "owner", actual: owner.clone() });
    }
    Ok(token_id.to_owned())
}

fn offer_made(tx: &Transaction, token_id: &str, amount: Option<&str>) -> Result<String, TradeError> {
    let (offerer, actual) = find(tx, ChainAction::MakeOffer, token_id, |e| match e {
        ChainEvent::OfferMade { token_id, offerer, amount, .. } => Some((token_id.as_str(), (offerer, amount))),
        _ => None,
    })?;
    if !same(offerer, &tx.from) {
        return Err(TradeError::NotSender { role: "offerer", actual: offerer.clone() });
    }
    if let Some(claimed) = amount.filter(|claimed| claimed != actual) {
        return Err(TradeError::WrongAmount { claimed: claimed.to_owned(), actual: actual.clone() });
    }
    Ok(token_id.to_owned())
}

fn offer_cancelled(tx: &Transaction, token_id: &str) -> Result<String, TradeError> {
    let offerer = find(tx, ChainAction::CancelOffer, token_id, |e| match e {
        ChainEvent::OfferCancelled { token_id, offerer, .. } => Some((token_id.as_str(), offerer)),
        _ => None,
    })?;
    if !same(offerer, &tx.from) {
        return Err(TradeError::NotSender { role: "offerer", actual: offerer.clone() });
    }
    Ok(token_id.to_owned())
}

fn check_offerer(claimed: Option<&str>, actual: &str) -> Result<(), TradeError> {
    match claimed {
        Some(claimed) if !same(claimed, actual) => Err(TradeError::WrongOfferer { claimed: claimed.to_owned(), actual: actual.to_owned() }),
        _ => Ok(()),
    }
}

fn offer_accepted(tx: &Transaction, token_id: &str, offerer: Option<&str>) -> Result<String, TradeError> {
    let (seller, actual) = find(tx, ChainAction::AcceptOffer, token_id, |e| match e {
        ChainEvent::OfferAccepted { token_id, seller, offerer, .. } => Some((token_id.as_str(), (seller, offerer))),
        _ => None,
    })?;
    if !same(seller, &tx.from) {
        return Err(TradeError::NotSender { role: "seller", actual: seller.clone() });
    }
    check_offerer(offerer, actual)?;
    Ok(token_id.to_owned())
}

/// The contract lets only the token's owner reject an offer, so the sender was the owner.
fn offer_rejected(tx: &Transaction, token_id: &str, offerer: Option<&str>) -> Result<String, TradeError> {
    let actual = find(tx, ChainAction::RejectOffer, token_id, |e| match e {
        ChainEvent::OfferRejected { token_id, offerer, .. } => Some((token_id.as_str(), offerer)),
        _ => None,
    })?;
    check_offerer(offerer, actual)?;
    Ok(token_id.to_owned())
}

/// A cart bought by the sender: recorded under its first item (bought or skipped), in log order.
fn cart_bought(tx: &Transaction) -> Result<String, TradeError> {
    let buyer = tx
        .events
        .iter()
        .find_map(|e| match e {
            ChainEvent::CartPurchased { buyer, .. } => Some(buyer),
            _ => None,
        })
        .ok_or(TradeError::WrongAction { expected: ChainAction::CartPurchase })?;
    if !same(buyer, &tx.from) {
        return Err(TradeError::NotSender { role: "buyer", actual: buyer.clone() });
    }
    tx.events
        .iter()
        .find_map(|e| match e {
            ChainEvent::NftSold { token_id, .. } | ChainEvent::CartItemSkipped { token_id, .. } => Some(token_id.clone()),
            _ => None,
        })
        .ok_or(TradeError::WrongAction { expected: ChainAction::CartPurchase })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain::Origin;

    const CONTRACT: &str = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
    const ALICE: &str = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
    const BOB: &str = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
    const HASH: &str = "0xABCDEF0000000000000000000000000000000000000000000000000000000001";
    const USER: Uuid = Uuid::from_u128(7);

    fn origin() -> Origin {
        Origin { block_number: 12, block_time: 1_700_000_000, tx_hash: HASH.to_lowercase(), log_index: 0 }
    }

    fn sale(token: &str, sale_type: SaleType) -> ChainEvent {
        ChainEvent::SaleUpdated {
            token_id: token.into(),
            sale_type,
            price: "0".into(),
            base_price: "0".into(),
            end_time: 0,
            auction_id: "0".into(),
            origin: origin(),
        }
    }

    fn sold(token: &str, buyer: &str, seller: &str) -> Vec<ChainEvent> {
        vec![
            sale(token, SaleType::NotForSale),
            ChainEvent::NftTransferred { token_id: token.into(), from: seller.into(), to: buyer.into(), origin: origin() },
            ChainEvent::NftSold {
                token_id: token.into(),
                auction_id: "0".into(),
                buyer: buyer.into(),
                seller: seller.into(),
                price: "100".into(),
                fee: "5".into(),
                royalties: "0".into(),
                seller_proceeds: "95".into(),
                origin: origin(),
            },
        ]
    }

    fn bid_placed(token: &str, bidder: &str, amount: &str) -> ChainEvent {
        ChainEvent::BidPlaced {
            token_id: token.into(),
            auction_id: "3".into(),
            bidder: bidder.into(),
            amount: amount.into(),
            end_time: 1_700_003_600,
            origin: origin(),
        }
    }

    /// A successful transaction from `from` to the contract with these events.
    fn given(from: &str, events: Vec<ChainEvent>) -> Transaction {
        Transaction { hash: HASH.into(), from: from.into(), to: Some(CONTRACT.into()), succeeded: true, block: 12, events }
    }

    /// Alice (wallet ALICE) records `tx` with `claim`.
    fn when(tx: &Transaction, claim: Claim) -> Result<TradeEvent, TradeError> {
        let wallets = [ALICE.to_uppercase().replace("0X", "0x")];
        decide(&Recorder { chain_id: 80001, contract: CONTRACT, user_id: USER, wallets: &wallets }, tx, &claim)
    }

    fn recorded(kind: ChainAction, token: &str) -> TradeEvent {
        TradeEvent::ChainActionRecorded {
            kind,
            chain_id: 80001,
            tx_hash: HASH.to_lowercase(),
            nft_id: format!("80001-{token}"),
            user_id: USER,
            block: 12,
        }
    }

    fn purchase(token: &str) -> Claim {
        Claim::Purchase { token_id: token.into() }
    }

    #[test]
    fn a_purchase_sent_by_the_buyer_is_recorded_for_the_caller() {
        let tx = given(ALICE, sold("4", ALICE, BOB));
        assert_eq!(when(&tx, purchase("4")), Ok(recorded(ChainAction::Purchase, "4")));
    }

    #[test]
    fn a_failed_transaction_is_refused_before_anything_else() {
        let tx = Transaction { succeeded: false, to: Some(BOB.into()), ..given(BOB, vec![]) };
        assert_eq!(when(&tx, purchase("4")), Err(TradeError::Failed));
    }

    #[test]
    fn a_transaction_to_another_contract_is_refused() {
        let tx = Transaction { to: Some(BOB.into()), ..given(ALICE, sold("4", ALICE, BOB)) };
        assert_eq!(when(&tx, purchase("4")), Err(TradeError::ForeignContract));
        let creation = Transaction { to: None, ..given(ALICE, vec![]) };
        assert_eq!(when(&creation, purchase("4")), Err(TradeError::ForeignContract));
    }

    #[test]
    fn a_transaction_from_a_wallet_not_linked_to_the_caller_is_refused() {
        let tx = given(BOB, sold("4", BOB, ALICE));
        assert_eq!(when(&tx, purchase("4")), Err(TradeError::ForeignSender { from: BOB.into() }));
    }

    #[test]
    fn a_purchase_of_another_token_or_no_purchase_at_all_is_refused() {
        let tx = given(ALICE, sold("4", ALICE, BOB));
        assert_eq!(when(&tx, purchase("5")), Err(TradeError::WrongToken { claimed: "5".into(), actual: "4".into() }));
        let bid = given(ALICE, vec![bid_placed("4", ALICE, "10")]);
        assert_eq!(when(&bid, purchase("4")), Err(TradeError::WrongAction { expected: ChainAction::Purchase }));
    }

    #[test]
    fn a_sale_the_seller_accepted_is_not_the_sellers_purchase() {
        // Alice accepts Bob's bid: she sent it, Bob bought.
        let tx = given(ALICE, sold("4", BOB, ALICE));
        assert_eq!(when(&tx, purchase("4")), Err(TradeError::NotSender { role: "buyer", actual: BOB.into() }));
    }

    #[test]
    fn a_bid_is_recorded_and_its_amount_checked_when_given() {
        let tx = given(ALICE, vec![bid_placed("4", ALICE, "1500")]);
        assert_eq!(when(&tx, Claim::Bid { token_id: "4".into(), amount: None }), Ok(recorded(ChainAction::Bid, "4")));
        assert_eq!(when(&tx, Claim::Bid { token_id: "4".into(), amount: Some("1500".into()) }), Ok(recorded(ChainAction::Bid, "4")));
        assert_eq!(
            when(&tx, Claim::Bid { token_id: "4".into(), amount: Some("2000".into()) }),
            Err(TradeError::WrongAmount { claimed: "2000".into(), actual: "1500".into() })
        );
    }

    #[test]
    fn stopping_a_sale_is_recorded_only_when_the_token_stayed_with_its_owner() {
        let stop = given(ALICE, vec![sale("4", SaleType::NotForSale)]);
        assert_eq!(when(&stop, Claim::StopSale { token_id: "4".into() }), Ok(recorded(ChainAction::StopSale, "4")));

        // A purchase clears the listing too, but the buyer did not stop anyone's sale.
        let bought = given(ALICE, sold("4", ALICE, BOB));
        assert_eq!(
            when(&bought, Claim::StopSale { token_id: "4".into() }),
            Err(TradeError::ChangedHands { expected: ChainAction::StopSale })
        );
        let listed = given(ALICE, vec![sale("4", SaleType::FixedPrice)]);
        assert_eq!(
            when(&listed, Claim::StopSale { token_id: "4".into() }),
            Err(TradeError::WrongSale { claimed: SaleType::NotForSale, actual: SaleType::FixedPrice })
        );
    }

    #[test]
    fn a_sale_update_must_set_the_sale_the_caller_names() {
        let auction = given(ALICE, vec![sale("4", SaleType::Auction)]);
        let update = |sale_type| Claim::UpdateSale { token_id: "4".into(), sale_type, price: None, base_price: None };
        assert_eq!(when(&auction, update(SaleType::Auction)), Ok(recorded(ChainAction::UpdateSale, "4")));
        assert_eq!(
            when(&auction, update(SaleType::FixedPrice)),
            Err(TradeError::WrongSale { claimed: SaleType::FixedPrice, actual: SaleType::Auction })
        );
        let repriced = given(ALICE, vec![ChainEvent::PriceChanged { token_id: "4".into(), price: "7".into(), origin: origin() }]);
        assert_eq!(when(&repriced, update(SaleType::FixedPrice)), Ok(recorded(ChainAction::UpdateSale, "4")));
        assert_eq!(
            when(&given(ALICE, vec![bid_placed("4", ALICE, "1")]), update(SaleType::Auction)),
            Err(TradeError::WrongAction { expected: ChainAction::UpdateSale })
        );
    }

    fn listed(token: &str, sale_type: SaleType, price: &str, base_price: &str) -> ChainEvent {
        match sale(token, sale_type) {
            ChainEvent::SaleUpdated { token_id, sale_type, end_time, auction_id, origin, .. } => ChainEvent::SaleUpdated {
                token_id,
                sale_type,
                price: price.into(),
                base_price: base_price.into(),
                end_time,
                auction_id,
                origin,
            },
            _ => unreachable!(),
        }
    }

    fn priced(sale_type: SaleType, price: &str, base_price: &str) -> Claim {
        Claim::UpdateSale { token_id: "4".into(), sale_type, price: Some(price.into()), base_price: Some(base_price.into()) }
    }

    #[test]
    fn a_sale_update_that_names_its_prices_must_name_the_ones_set_on_chain() {
        let fixed = given(ALICE, vec![listed("4", SaleType::FixedPrice, "3000", "0")]);
        assert_eq!(when(&fixed, priced(SaleType::FixedPrice, "3000", "0")), Ok(recorded(ChainAction::UpdateSale, "4")));
        assert_eq!(
            when(&fixed, priced(SaleType::FixedPrice, "2000", "0")),
            Err(TradeError::WrongPrice { which: "price", claimed: "2000".into(), actual: "3000".into() })
        );
        // A fixed sale has no base price: whatever the form held for it is not compared.
        assert_eq!(when(&fixed, priced(SaleType::FixedPrice, "3000", "5")), Ok(recorded(ChainAction::UpdateSale, "4")));

        let auction = given(ALICE, vec![listed("4", SaleType::Auction, "9000", "1000")]);
        assert_eq!(when(&auction, priced(SaleType::Auction, "9000", "1000")), Ok(recorded(ChainAction::UpdateSale, "4")));
        assert_eq!(
            when(&auction, priced(SaleType::Auction, "9000", "1")),
            Err(TradeError::WrongPrice { which: "base price", claimed: "1".into(), actual: "1000".into() })
        );
        assert_eq!(
            when(&auction, priced(SaleType::Auction, "1", "1000")),
            Err(TradeError::WrongPrice { which: "price", claimed: "1".into(), actual: "9000".into() })
        );

        // A price change shows the new price only; a sale taken off has none.
        let repriced = given(ALICE, vec![ChainEvent::PriceChanged { token_id: "4".into(), price: "7".into(), origin: origin() }]);
        assert_eq!(when(&repriced, priced(SaleType::Auction, "7", "1000")), Ok(recorded(ChainAction::UpdateSale, "4")));
        assert_eq!(
            when(&repriced, priced(SaleType::FixedPrice, "8", "0")),
            Err(TradeError::WrongPrice { which: "price", claimed: "8".into(), actual: "7".into() })
        );
        let off = given(ALICE, vec![listed("4", SaleType::NotForSale, "0", "0")]);
        assert_eq!(when(&off, priced(SaleType::NotForSale, "3000", "0")), Ok(recorded(ChainAction::UpdateSale, "4")));
    }

    #[test]
    fn a_retry_by_the_same_user_for_the_same_action_and_token_is_answered_as_the_first() {
        let first = recorded(ChainAction::Purchase, "4");
        let again = when(&given(ALICE, sold("4", ALICE, BOB)), purchase("4")).unwrap();
        assert_eq!(retry(&first, &again), Ok(()));
    }

    #[test]
    fn a_recorded_hash_replayed_by_another_user_or_for_another_action_or_token_is_refused() {
        let first = recorded(ChainAction::Purchase, "4");
        let tx_hash = HASH.to_lowercase();
        let by_bob = match recorded(ChainAction::Purchase, "4") {
            TradeEvent::ChainActionRecorded { kind, chain_id, tx_hash, nft_id, block, .. } => {
                TradeEvent::ChainActionRecorded { kind, chain_id, tx_hash, nft_id, user_id: Uuid::from_u128(8), block }
            }
        };
        assert_eq!(retry(&first, &by_bob), Err(TradeError::RecordedForAnother { tx_hash: tx_hash.clone() }));
        let as_other = |kind, token| TradeError::RecordedAsOther { tx_hash: tx_hash.clone(), kind, nft_id: format!("80001-{token}") };
        assert_eq!(retry(&first, &recorded(ChainAction::StopSale, "4")), Err(as_other(ChainAction::Purchase, "4")));
        assert_eq!(retry(&first, &recorded(ChainAction::Purchase, "5")), Err(as_other(ChainAction::Purchase, "4")));
        assert!(as_other(ChainAction::Purchase, "4").to_string().contains("is already recorded, as a purchase of NFT 80001-4"));
    }

    #[test]
    fn a_burn_is_recorded_for_its_owner_only() {
        let burn = given(ALICE, vec![ChainEvent::NftBurned { token_id: "4".into(), owner: ALICE.into(), origin: origin() }]);
        assert_eq!(when(&burn, Claim::Burn { token_id: "4".into() }), Ok(recorded(ChainAction::Burn, "4")));
        assert_eq!(
            when(&burn, Claim::Burn { token_id: "9".into() }),
            Err(TradeError::WrongToken { claimed: "9".into(), actual: "4".into() })
        );
    }

    #[test]
    fn a_mint_must_carry_the_uploaded_metadata_uri_and_be_the_senders() {
        let mint = |creator: &str| {
            given(
                ALICE,
                vec![ChainEvent::NftMinted {
                    token_id: "8".into(),
                    creator: creator.into(),
                    token_uri: "ipfs://meta".into(),
                    royalties: vec![],
                    origin: origin(),
                }],
            )
        };
        let claim = |uri: &str| Claim::Mint { token_uri: uri.into() };
        assert_eq!(when(&mint(ALICE), claim("ipfs://meta")), Ok(recorded(ChainAction::Mint, "8")));
        assert_eq!(
            when(&mint(ALICE), claim("ipfs://other")),
            Err(TradeError::WrongTokenUri { claimed: "ipfs://other".into(), actual: "ipfs://meta".into() })
        );
        assert_eq!(when(&given(ALICE, vec![]), claim("ipfs://meta")), Err(TradeError::WrongAction { expected: ChainAction::Mint }));
    }

    #[test]
    fn the_record_lives_in_the_transactions_own_stream_and_serializes_with_its_type() {
        let event = recorded(ChainAction::Bid, "4");
        assert_eq!(event.stream_id(), format!("tx-80001-{}", HASH.to_lowercase()));
        let json = serde_json::to_value(&event).unwrap();
        assert_eq!(
            (json["type"].as_str(), json["kind"].as_str(), json["nftId"].as_str()),
            (Some("ChainActionRecorded"), Some("BID"), Some("80001-4"))
        );
        assert_eq!(serde_json::from_value::<TradeEvent>(json).unwrap(), event);
    }

    fn offer(kind: &str, token: &str, offerer: &str, seller: &str) -> ChainEvent {
        let (token_id, offerer, amount, origin) = (token.into(), offerer.into(), "700".into(), origin());
        match kind {
            "made" => ChainEvent::OfferMade {
                token_id,
                offerer,
                amount,
                expires_at: 1_700_009_000,
                fee_bps: 500,
                replaced_amount: "0".into(),
                origin,
            },
            "cancelled" => ChainEvent::OfferCancelled { token_id, offerer, amount, origin },
            "rejected" => ChainEvent::OfferRejected { token_id, offerer, amount, origin },
            _ => ChainEvent::OfferAccepted { token_id, offerer, seller: seller.into(), amount, origin },
        }
    }

    #[test]
    fn offers_are_recorded_for_the_party_who_sent_them() {
        let made = given(ALICE, vec![offer("made", "4", ALICE, "")]);
        assert_eq!(when(&made, Claim::MakeOffer { token_id: "4".into(), amount: None }), Ok(recorded(ChainAction::MakeOffer, "4")));
        assert_eq!(
            when(&made, Claim::MakeOffer { token_id: "4".into(), amount: Some("800".into()) }),
            Err(TradeError::WrongAmount { claimed: "800".into(), actual: "700".into() })
        );
        assert_eq!(
            when(&made, Claim::MakeOffer { token_id: "5".into(), amount: None }),
            Err(TradeError::WrongToken { claimed: "5".into(), actual: "4".into() })
        );
        // Someone else's offer in Alice's transaction cannot be hers: only the offerer sends it.
        let bobs = given(ALICE, vec![offer("cancelled", "4", BOB, "")]);
        assert_eq!(
            when(&bobs, Claim::CancelOffer { token_id: "4".into() }),
            Err(TradeError::NotSender { role: "offerer", actual: BOB.into() })
        );
        let cancelled = given(ALICE, vec![offer("cancelled", "4", ALICE, "")]);
        assert_eq!(when(&cancelled, Claim::CancelOffer { token_id: "4".into() }), Ok(recorded(ChainAction::CancelOffer, "4")));
        // A cancellation is no rejection, and the reverse.
        assert_eq!(
            when(&cancelled, Claim::RejectOffer { token_id: "4".into(), offerer: None }),
            Err(TradeError::WrongAction { expected: ChainAction::RejectOffer })
        );

        let mut accepted = vec![offer("accepted", "4", BOB, ALICE)];
        accepted.extend(sold("4", BOB, ALICE));
        let accepted = given(ALICE, accepted);
        let claim = |offerer: &str| Claim::AcceptOffer { token_id: "4".into(), offerer: Some(offerer.into()) };
        assert_eq!(when(&accepted, claim(BOB)), Ok(recorded(ChainAction::AcceptOffer, "4")));
        assert_eq!(when(&accepted, claim(ALICE)), Err(TradeError::WrongOfferer { claimed: ALICE.into(), actual: BOB.into() }));
        // The offerer cannot record the owner's acceptance as theirs, nor as a purchase.
        let sent_by_bob = Transaction { from: BOB.into(), ..accepted.clone() };
        let wallets = [BOB.to_owned()];
        let bob = Recorder { chain_id: 80001, contract: CONTRACT, user_id: USER, wallets: &wallets };
        assert_eq!(decide(&bob, &sent_by_bob, &claim(BOB)), Err(TradeError::NotSender { role: "seller", actual: ALICE.into() }));
        assert_eq!(when(&accepted, purchase("4")), Err(TradeError::NotSender { role: "buyer", actual: BOB.into() }));

        let rejected = given(ALICE, vec![offer("rejected", "4", BOB, "")]);
        let claim = |offerer: Option<&str>| Claim::RejectOffer { token_id: "4".into(), offerer: offerer.map(str::to_owned) };
        assert_eq!(when(&rejected, claim(Some(BOB))), Ok(recorded(ChainAction::RejectOffer, "4")));
        assert_eq!(when(&rejected, claim(None)), Ok(recorded(ChainAction::RejectOffer, "4")));
    }

    #[test]
    fn a_cart_is_recorded_for_its_buyer_under_its_first_item() {
        let mut events = vec![ChainEvent::CartItemSkipped {
            token_id: "9".into(),
            buyer: ALICE.into(),
            seen_price: "100".into(),
            price: "0".into(),
            origin: origin(),
        }];
        events.extend(sold("4", ALICE, BOB));
        let summary = ChainEvent::CartPurchased {
            buyer: ALICE.into(),
            items: 2,
            bought: 1,
            spent: "100".into(),
            refunded: "100".into(),
            origin: origin(),
        };
        events.push(summary);
        let cart = given(ALICE, events.clone());
        assert_eq!(when(&cart, Claim::CartPurchase), Ok(recorded(ChainAction::CartPurchase, "9")));
        // A single purchase is no cart; a cart of someone else is not the caller's.
        assert_eq!(
            when(&given(ALICE, sold("4", ALICE, BOB)), Claim::CartPurchase),
            Err(TradeError::WrongAction { expected: ChainAction::CartPurchase })
        );
        let for_bob: Vec<ChainEvent> = events
            .into_iter()
            .map(|e| match e {
                ChainEvent::CartPurchased { items, bought, spent, refunded, origin, .. } => {
                    ChainEvent::CartPurchased { buyer: BOB.into(), items, bought, spent, refunded, origin }
                }
                other => other,
            })
            .collect();
        assert_eq!(when(&given(ALICE, for_bob), Claim::CartPurchase), Err(TradeError::NotSender { role: "buyer", actual: BOB.into() }));
    }
}
