//! The chain side of NFTs: `nfts` (one row per token), `auctions`, `bids`, `nft_history`,
//! `owner_history` and `sales`, all folded from the `nft-{chain}-{token}` streams.
//!
//! A batch is folded in memory: [`Batch::load`] reads the rows its tokens can touch (a few
//! `SELECT ... IN (...)`), [`Batch::apply`] applies each event to them in log order — every
//! rule of these tables is there, in one place — and [`Batch::write`] writes back what changed
//! with multi-row statements.

use std::{collections::BTreeMap, sync::Mutex};

use async_trait::async_trait;
use domain::{
    RecordedEvent,
    chain::{ChainEvent, Origin, SaleType},
};

use crate::{
    ProjectionError, ReadModel,
    read_model::{Prefetched, Remember, chain_of},
    sql::{self, Conn, Row, Value},
};
use rustc_hash::{FxHashMap, FxHashSet};

/// The public id of a token: `{chain}-{token}` (written out by hand: folding calls it for
/// every chain event, and `format!` costs more than the rest of it).
pub fn nft_id(chain_id: u64, token_id: &str) -> String {
    let mut digits = [0_u8; 20];
    let mut at = digits.len();
    let mut rest = chain_id;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let mut id = String::with_capacity(digits.len() - at + 1 + token_id.len());
    for &digit in &digits[at..] {
        id.push(char::from(digit));
    }
    id.push('-');
    id.push_str(token_id);
    id
}

/// Width of a [`price_key`]: the digits of the largest wei amount (2^256).
const PRICE_KEY_WIDTH: usize = 78;

/// Wei as fixed-width text, so text order is numeric order in every database: `wei` padded
/// with zeros on the left to 78 characters (as `format!("{wei:0>78}")`, without its cost).
pub fn price_key(wei: &str) -> String {
    let pad = PRICE_KEY_WIDTH.saturating_sub(wei.chars().count());
    let mut key = String::with_capacity(pad + wei.len());
    key.extend(std::iter::repeat_n('0', pad));
    key.push_str(wei);
    key
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
#[derive(Default)]
pub struct Nfts {
    /// What [`ReadModel::prefetch`] decoded: each event's chain and payload.
    decoded: Prefetched<(u64, ChainEvent)>,
    /// While a fresh generation fills: what the tables hold that events read back (see
    /// [`ReadModel::remember`]). Taken out while a batch is folded into it.
    remembered: Mutex<Option<Remembered>>,
}

/// Every token's rows that [`Batch::load`] would read, kept since the tables were empty.
struct Remembered {
    rows: Batch,
    /// How many rows it may hold.
    limit: usize,
    /// It holds more (see [`ReadModel::outgrew_memory`]).
    full: bool,
    /// Filling tables that were not empty: the tokens whose rows are all in `rows` (read from
    /// the tables the first time a batch met them, or made since). `None`: every token is.
    known: Option<FxHashSet<String>>,
}

/// An event's chain and payload.
fn decode(event: &RecordedEvent) -> Result<(u64, ChainEvent), ProjectionError> {
    let chain_id = chain_of(event)?;
    let parsed: ChainEvent = event.payload().map_err(|e| ProjectionError::malformed(event, e.to_string()))?;
    Ok((chain_id, parsed))
}

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
                | "AuctionExtended"
                | "AuctionEnded"
                | "ServiceFeeSnapshotted"
                | "NftSold"
                | "NftTransferred"
                | "NftBurned"
        )
    }

    async fn apply(&self, conn: &mut Conn<'_>, events: &[&RecordedEvent]) -> Result<(), ProjectionError> {
        let parsed: Vec<_> =
            self.decoded.take(events, decode)?.into_iter().map(|(event, (chain_id, parsed))| (event, chain_id, parsed)).collect();
        let remembered = self.remembered.lock().expect("not poisoned").take();
        let (mut batch, memory) = match remembered {
            Some(Remembered { mut rows, limit, known: Some(mut known), .. }) => {
                // Tokens met the first time: every row of theirs, from the tables.
                let mut unknown: Vec<String> = parsed
                    .iter()
                    .filter_map(|(_, chain_id, event)| token_of(event).map(|token| nft_id(*chain_id, token)))
                    .filter(|id| !known.contains(id))
                    .collect();
                unknown.sort_unstable();
                unknown.dedup();
                if !unknown.is_empty() {
                    rows.absorb(Batch::read(conn, unknown.clone(), unknown.clone(), unknown.clone(), unknown.clone()).await?);
                    known.extend(unknown);
                }
                (rows, Some((limit, Some(known))))
            }
            Some(Remembered { rows, limit, known: None, .. }) => (rows, Some((limit, None))),
            None => (Batch::load(conn, &parsed).await?, None),
        };
        for (event, chain_id, parsed) in parsed {
            batch.apply(event.position as i64, chain_id, parsed).map_err(|reason| ProjectionError::malformed(event, reason))?;
        }
        batch.write(conn).await?;
        if let Some((limit, known)) = memory {
            batch.settle();
            // Past the limit, the projector lets the memory go after this batch.
            let full = batch.rows() + known.as_ref().map_or(0, FxHashSet::len) > limit;
            *self.remembered.lock().expect("not poisoned") = Some(Remembered { rows: batch, limit, full, known });
        }
        // Every event of an `nft-{chain}-{token}` stream is about token `{chain}-{token}`.
        let touched = events.iter().filter_map(|e| Some((e.stream_id.strip_prefix("nft-")?, e.position as i64)));
        mark_changed(conn, touched).await?;
        Ok(())
    }

    fn prefetch(&self, events: &[&RecordedEvent]) {
        self.decoded.put(events, decode);
    }

    fn remember(&self, memory: Option<Remember>) {
        *self.remembered.lock().expect("not poisoned") = memory.map(|Remember { rows, empty }| Remembered {
            rows: Batch::default(),
            limit: rows,
            full: false,
            known: (!empty).then(FxHashSet::default),
        });
    }

    fn outgrew_memory(&self) -> bool {
        self.remembered.lock().expect("not poisoned").as_ref().is_none_or(|remembered| remembered.full)
    }

    async fn forget_stream(&self, conn: &mut Conn<'_>, stream_id: &str, at: i64) -> Result<(), ProjectionError> {
        let Some((chain, token)) = stream_id.strip_prefix("nft-").and_then(|rest| rest.split_once('-')) else {
            return Ok(());
        };
        let id = format!("{chain}-{token}");
        if let Some(remembered) = &mut *self.remembered.lock().expect("not poisoned") {
            remembered.rows.forget(&id);
            // Its rows are deleted below, before they could be read back: known, with none.
            if let Some(known) = &mut remembered.known {
                known.insert(id.clone());
            }
        }
        sql::execute(conn, UNCOUNT_NFT, &[(&id).into()]).await?;
        sql::execute(conn, UNCOUNTED, &[]).await?;
        for table in TABLES {
            let sql = format!("DELETE FROM {table} WHERE nft_id = $1");
            sql::execute(conn, &sql, &[(&id).into()]).await?;
        }
        mark_changed(conn, [(id.as_str(), at)]).await?;
        Ok(())
    }
}

/// Records that tokens changed at these positions, in `nft_changes` (which the browse index
/// follows). A stamp only moves forward: a stream refolded after a reorg replays old positions,
/// and must keep the retraction's. Recorded (filling), the stamps are gathered for the whole
/// batch ([`write_changed`]): several models stamp the same tokens.
pub(crate) async fn mark_changed<'a>(
    conn: &mut Conn<'_>,
    touched: impl IntoIterator<Item = (&'a str, i64)>,
) -> Result<(), ProjectionError> {
    if let Conn::Record { recording, .. } = conn {
        for (nft_id, position) in touched {
            match recording.changed.get_mut(nft_id) {
                Some(stamp) => *stamp = (*stamp).max(position),
                None => {
                    recording.changed.insert(nft_id.to_owned(), position);
                }
            }
        }
        return Ok(());
    }
    write_stamps(conn, touched).await
}

/// Writes the stamps a recorded batch gathered (see [`mark_changed`]).
pub(crate) async fn write_changed(conn: &mut Conn<'_>) -> Result<(), ProjectionError> {
    let Conn::Record { recording, .. } = conn else { return Ok(()) };
    // Taken out while the statement borrows the connection, then put back empty: the next
    // batch reuses its capacity.
    let mut changed = std::mem::take(&mut recording.changed);
    write_stamps(conn, changed.iter().map(|(id, position)| (id.as_str(), *position))).await?;
    changed.clear();
    if let Conn::Record { recording, .. } = conn {
        recording.changed = changed;
    }
    Ok(())
}

async fn write_stamps<'a>(conn: &mut Conn<'_>, touched: impl IntoIterator<Item = (&'a str, i64)>) -> Result<(), ProjectionError> {
    // One row per token: a statement may not upsert the same key twice (Postgres).
    let mut latest: BTreeMap<&str, i64> = BTreeMap::new();
    for (nft_id, position) in touched {
        let stamp = latest.entry(nft_id).or_insert(position);
        *stamp = (*stamp).max(position);
    }
    let rows: Vec<Vec<Value<'_>>> = latest.into_iter().map(|(id, position)| vec![id.into(), position.into()]).collect();
    let tail = "ON CONFLICT (nft_id) DO UPDATE SET position = excluded.position WHERE nft_changes.position < excluded.position";
    sql::insert(conn, "nft_changes", &["nft_id", "position"], tail, &rows).await
}

/// A row the batch loaded or created, and whether it changed.
struct Tracked<T> {
    row: T,
    changed: bool,
}

impl<T> Tracked<T> {
    fn loaded(row: T) -> Self {
        Self { row, changed: false }
    }

    fn new(row: T) -> Self {
        Self { row, changed: true }
    }

    fn change(&mut self) -> &mut T {
        self.changed = true;
        &mut self.row
    }
}

/// The rows of a batch's tokens, as the batch leaves them. Looked up by token for every event
/// (hashed: while a fresh generation fills they hold every token), written in token order
/// through [`Batch::touched`].
#[derive(Default)]
struct Batch {
    /// `nfts` rows by id: those of the batch's tokens that exist.
    nfts: FxHashMap<String, Tracked<Nft>>,
    /// `auctions` by token, then auction id (every auction of the tokens whose events touch them).
    auctions: FxHashMap<String, BTreeMap<String, Tracked<Auction>>>,
    /// Open bids (`status = 'BID'`) by token (stored ones of the tokens whose bids may close,
    /// and every bid placed in the batch).
    bids: FxHashMap<String, Vec<Tracked<Bid>>>,
    /// New `nft_history` rows by position.
    history: BTreeMap<i64, History>,
    /// Stored `nft_history` rows to delete.
    history_deleted: Vec<i64>,
    /// (token, tx) with a PURCHASED or WON_AUCTION row, stored or new.
    sold: FxHashSet<(String, String)>,
    /// REMOVED_FROM_SALE and TRANSFERRED rows, stored or new, by (token, tx): their positions (a
    /// sale in the same transaction replaces them).
    removals: FxHashMap<(String, String), Vec<i64>>,
    owner_history: Vec<Owner>,
    sales: Vec<Sale>,
    /// The tokens this batch's events are about: the only ones whose `nfts`, `auctions` and
    /// `bids` rows can have changed, so that writing and settling look at them alone (not at
    /// every token kept while a fresh generation fills).
    touched: FxHashSet<String>,
}

/// The token a chain event changes the rows of, if any.
fn token_of(event: &ChainEvent) -> Option<&str> {
    use ChainEvent::*;
    match event {
        NftMinted { token_id, .. }
        | SaleUpdated { token_id, .. }
        | PriceChanged { token_id, .. }
        | BidPlaced { token_id, .. }
        | BidRefunded { token_id, .. }
        | BidRejected { token_id, .. }
        | ServiceFeeSnapshotted { token_id, .. }
        | AuctionExtended { token_id, .. }
        | AuctionEnded { token_id, .. }
        | NftSold { token_id, .. }
        | NftTransferred { token_id, .. }
        | NftBurned { token_id, .. } => Some(token_id),
        _ => None,
    }
}

impl Batch {
    /// Reads what the events can touch: the tokens' rows, their auctions, their open bids and
    /// the history rows a sale looks for (a batch may start inside a transaction's events).
    async fn load(conn: &mut Conn<'_>, events: &[(&RecordedEvent, u64, ChainEvent)]) -> Result<Self, ProjectionError> {
        let mut tokens = Vec::new();
        let mut with_auctions = Vec::new();
        let mut with_bids = Vec::new();
        let mut with_sales = Vec::new();
        for (_, chain_id, event) in events {
            use ChainEvent::*;
            let (token, auctions, bids, sales) = match event {
                NftMinted { token_id, .. }
                | NftTransferred { token_id, .. }
                | NftBurned { token_id, .. }
                | ServiceFeeSnapshotted { token_id, .. } => (token_id, false, false, false),
                SaleUpdated { token_id, sale_type, .. } => (token_id, true, false, *sale_type == SaleType::NotForSale),
                PriceChanged { token_id, .. } | BidPlaced { token_id, .. } | AuctionExtended { token_id, .. } => {
                    (token_id, true, false, false)
                }
                BidRefunded { token_id, .. } | BidRejected { token_id, .. } | AuctionEnded { token_id, .. } => {
                    (token_id, true, true, false)
                }
                NftSold { token_id, .. } => (token_id, false, false, true),
                _ => continue,
            };
            let id = nft_id(*chain_id, token);
            for (wanted, list) in [(auctions, &mut with_auctions), (bids, &mut with_bids), (sales, &mut with_sales)] {
                if wanted {
                    list.push(id.clone());
                }
            }
            tokens.push(id);
        }

        Self::read(conn, tokens, with_auctions, with_bids, with_sales).await
    }

    /// Reads these tokens' rows, their auctions, their open bids and their sales' history rows.
    async fn read(
        conn: &mut Conn<'_>,
        mut tokens: Vec<String>,
        mut with_auctions: Vec<String>,
        mut with_bids: Vec<String>,
        mut with_sales: Vec<String>,
    ) -> Result<Self, ProjectionError> {
        let mut batch = Batch::default();
        for row in
            sql::select_in(conn, &format!("SELECT {} FROM nfts WHERE nft_id IN ()", Nft::CHANGING.join(", ")), &keys(&mut tokens)).await?
        {
            let nft = Nft::from_row(&row)?;
            batch.nfts.insert(nft.nft_id.clone(), Tracked::loaded(nft));
        }
        let sql = format!("SELECT {} FROM auctions WHERE nft_id IN ()", Auction::COLUMNS.join(", "));
        for row in sql::select_in(conn, &sql, &keys(&mut with_auctions)).await? {
            let auction = Auction::from_row(&row)?;
            batch.auctions.entry(auction.nft_id.clone()).or_default().insert(auction.auction_id.clone(), Tracked::loaded(auction));
        }
        let sql = format!("SELECT {} FROM bids WHERE nft_id IN () AND status = 'BID' ORDER BY position", Bid::COLUMNS.join(", "));
        for row in sql::select_in(conn, &sql, &keys(&mut with_bids)).await? {
            let bid = Bid::from_row(&row)?;
            batch.bids.entry(bid.nft_id.clone()).or_default().push(Tracked::loaded(bid));
        }
        let sql = "SELECT position, nft_id, tx_hash, type_of_event FROM nft_history WHERE nft_id IN () \
                   AND type_of_event IN ('PURCHASED', 'WON_AUCTION', 'REMOVED_FROM_SALE', 'TRANSFERRED') ORDER BY position";
        for row in sql::select_in(conn, sql, &keys(&mut with_sales)).await? {
            let key = (row.try_get(1)?, row.try_get(2)?);
            if matches!(row.try_get::<String>(3)?.as_str(), "REMOVED_FROM_SALE" | "TRANSFERRED") {
                batch.removals.entry(key).or_default().push(row.try_get(0)?);
            } else {
                batch.sold.insert(key);
            }
        }
        Ok(batch)
    }

    /// Folds one event: what each chain fact does to the tables.
    fn apply(&mut self, position: i64, chain_id: u64, event: ChainEvent) -> Result<(), String> {
        let id = |token: &str| nft_id(chain_id, token);
        if let Some(token) = token_of(&event) {
            let nft = id(token);
            if !self.touched.contains(&nft) {
                self.touched.insert(nft);
            }
        }
        match event {
            ChainEvent::NftMinted { token_id, creator, token_uri, royalties, origin } => {
                let nft = id(&token_id);
                if self.nfts.contains_key(&nft) {
                    return Err(format!("token {nft} is already minted"));
                }
                let royalties = serde_json::to_string(&royalties).unwrap_or_else(|_| "[]".into());
                let row = Nft {
                    nft_id: nft.clone(),
                    minted: Some(Minted {
                        chain_id: chain_id as i64,
                        token_id,
                        token_uri,
                        creator: creator.clone(),
                        royalties,
                        minted_at: origin.block_time,
                        mint_tx: origin.tx_hash.clone(),
                    }),
                    owner: creator.clone(),
                    previous_owner: None,
                    sale_type: sale_name(SaleType::NotForSale).into(),
                    price: "0".into(),
                    price_key: price_key("0"),
                    base_price: "0".into(),
                    end_time: 0,
                    auction_id: "0".into(),
                    highest_bid: "0".into(),
                    highest_bidder: None,
                    fee_bps: 0,
                    transfers: 0,
                    burned: 0,
                    updated_at: origin.block_time,
                    listed_at: origin.block_time,
                    bid_count: 0,
                    sales: 0,
                };
                self.nfts.insert(nft.clone(), Tracked::new(row));
                self.owner_history.push(Owner {
                    position,
                    nft_id: nft.clone(),
                    owner: creator.clone(),
                    tx_hash: origin.tx_hash.clone(),
                    at: origin.block_time,
                });
                self.history(position, &nft, "MINTED", &creator, &origin, Deal::default());
            }
            ChainEvent::SaleUpdated { token_id, sale_type, price, base_price, end_time, auction_id, origin } => {
                let nft = id(&token_id);
                // What the listing asks: the price, or an auction's start price.
                let (listed_price, listed_base) = (price.clone(), base_price.clone());
                if let Some(row) = self.nft(&nft) {
                    // A new auction (or leaving auctions) starts with no bid.
                    if !(row.auction_id == auction_id && sale_type == SaleType::Auction) {
                        row.highest_bid = "0".into();
                        row.highest_bidder = None;
                    }
                    row.sale_type = sale_name(sale_type).into();
                    row.price_key = price_key(&price);
                    row.price.clone_from(&price);
                    row.base_price.clone_from(&base_price);
                    row.end_time = end_time;
                    row.auction_id.clone_from(&auction_id);
                    // A new sale's fee comes with the ServiceFeeSnapshotted right after; none otherwise.
                    row.fee_bps = 0;
                    row.updated_at = origin.block_time;
                    if sale_type != SaleType::NotForSale {
                        row.listed_at = origin.block_time;
                    }
                }
                let auctions = self.auctions.entry(nft.clone()).or_default();
                if sale_type == SaleType::Auction {
                    match auctions.get_mut(&auction_id) {
                        Some(auction) => {
                            let auction = auction.change();
                            auction.start_price = base_price;
                            auction.buy_now_price = price;
                            auction.end_time = end_time;
                        }
                        None => {
                            let auction = Auction {
                                nft_id: nft.clone(),
                                auction_id: auction_id.clone(),
                                start_price: base_price,
                                buy_now_price: price,
                                end_time,
                                highest_bid: "0".into(),
                                winner: None,
                                ended: 0,
                                started_at: origin.block_time,
                            };
                            auctions.insert(auction_id, Tracked::new(auction));
                        }
                    }
                } else {
                    // Leaving an auction without a winner closes it.
                    for auction in auctions.values_mut().filter(|a| a.row.ended == 0) {
                        auction.change().ended = 1;
                    }
                }
                let owner = self.owner(&nft).unwrap_or_default();
                let (kind, listed) = match sale_type {
                    SaleType::Auction => ("PUT_ON_AUCTION", Some(listed_base)),
                    SaleType::FixedPrice => ("PUT_ON_FIXEDSALE", Some(listed_price)),
                    SaleType::NotForSale => ("REMOVED_FROM_SALE", None),
                };
                // A sale clears the listing in the same transaction: that is no separate removal.
                if sale_type != SaleType::NotForSale || !self.sold.contains(&(nft.clone(), origin.tx_hash.clone())) {
                    self.history(position, &nft, kind, &owner, &origin, Deal { price: listed, counterpart: None });
                }
            }
            ChainEvent::PriceChanged { token_id, price, origin } => {
                let nft = id(&token_id);
                if let Some(row) = self.nft(&nft) {
                    row.price_key = price_key(&price);
                    row.price.clone_from(&price);
                    row.updated_at = origin.block_time;
                }
                for auction in self.auctions.entry(nft.clone()).or_default().values_mut().filter(|a| a.row.ended == 0) {
                    auction.change().buy_now_price.clone_from(&price);
                }
                let owner = self.owner(&nft).unwrap_or_default();
                self.history(position, &nft, "PRICE_CHANGED", &owner, &origin, Deal { price: Some(price), counterpart: None });
            }
            ChainEvent::BidPlaced { token_id, auction_id, bidder, amount, end_time, origin } => {
                let nft = id(&token_id);
                if let Some(row) = self.nft(&nft) {
                    row.highest_bid.clone_from(&amount);
                    row.highest_bidder = Some(bidder.clone());
                    row.end_time = end_time;
                    row.bid_count += 1;
                    row.updated_at = origin.block_time;
                }
                if let Some(auction) = self.auction(&nft, &auction_id) {
                    auction.highest_bid.clone_from(&amount);
                    auction.end_time = end_time;
                }
                let owner = self.owner(&nft);
                self.history(position, &nft, "BIDDED_FOR", &bidder, &origin, Deal { price: Some(amount.clone()), counterpart: owner });
                self.bids.entry(nft.clone()).or_default().push(Tracked::new(Bid {
                    position,
                    nft_id: nft,
                    auction_id,
                    bidder,
                    amount,
                    tx_hash: origin.tx_hash,
                    created_at: origin.block_time,
                    status: "BID",
                }));
            }
            ChainEvent::BidRefunded { token_id, auction_id, bidder, amount, origin }
            | ChainEvent::BidRejected { token_id, auction_id, bidder, amount, origin } => {
                let nft = id(&token_id);
                // Only the standing top bid is cleared; an outbid refund follows the new top bid.
                if let Some(tracked) = self.nfts.get_mut(&nft)
                    && tracked.row.highest_bidder.as_deref() == Some(bidder.as_str())
                    && tracked.row.highest_bid == amount
                {
                    let row = tracked.change();
                    row.highest_bid = "0".into();
                    row.highest_bidder = None;
                    row.updated_at = origin.block_time;
                }
                if let Some(auction) = self.auction(&nft, &auction_id)
                    && auction.highest_bid == amount
                {
                    auction.highest_bid = "0".into();
                }
                self.close_bids(&nft, &auction_id, &bidder, &amount, "REFUNDED");
            }
            ChainEvent::ServiceFeeSnapshotted { token_id, fee_bps, origin, .. } => {
                if let Some(row) = self.nft(&id(&token_id)) {
                    row.fee_bps = i64::from(fee_bps);
                    row.updated_at = origin.block_time;
                }
            }
            ChainEvent::AuctionExtended { token_id, auction_id, end_time, origin } => {
                let nft = id(&token_id);
                if let Some(tracked) = self.nfts.get_mut(&nft)
                    && tracked.row.auction_id == auction_id
                {
                    let row = tracked.change();
                    row.end_time = end_time;
                    row.updated_at = origin.block_time;
                }
                if let Some(auction) = self.auction(&nft, &auction_id) {
                    auction.end_time = end_time;
                }
            }
            ChainEvent::AuctionEnded { token_id, auction_id, winner, amount, .. } => {
                let nft = id(&token_id);
                if let Some(auction) = self.auction(&nft, &auction_id) {
                    auction.ended = 1;
                    auction.winner = Some(winner.clone());
                    auction.highest_bid.clone_from(&amount);
                }
                self.close_bids(&nft, &auction_id, &winner, &amount, "ALLOTED");
            }
            ChainEvent::NftSold { token_id, auction_id, buyer, seller, price, fee, royalties, origin, .. } => {
                let nft = id(&token_id);
                if let Some(row) = self.nft(&nft) {
                    row.sales += 1;
                    // A cart's purchase ends its item's fixed-price listing with no SaleUpdated.
                    if row.sale_type != sale_name(SaleType::NotForSale) {
                        row.end_sale(origin.block_time);
                    }
                }
                // The listing was cleared earlier in the same transaction: that was the sale.
                for removal in self.removals.remove(&(nft.clone(), origin.tx_hash.clone())).unwrap_or_default() {
                    if self.history.remove(&removal).is_none() {
                        self.history_deleted.push(removal);
                    }
                }
                let kind = if auction_id == "0" { "PURCHASED" } else { "WON_AUCTION" };
                let deal = Deal { price: Some(price.clone()), counterpart: Some(seller.clone()) };
                self.history(position, &nft, kind, &buyer, &origin, deal);
                self.sales.push(Sale { position, nft_id: nft, auction_id, seller, buyer, price, fee, royalties, at: origin.block_time });
            }
            ChainEvent::NftTransferred { token_id, from, to, origin } => {
                let nft = id(&token_id);
                if let Some(row) = self.nft(&nft) {
                    row.owner.clone_from(&to);
                    row.previous_owner = Some(from.clone());
                    row.transfers += 1;
                    row.updated_at = origin.block_time;
                }
                // A sale's own transfer comes first in its transaction; the sale takes its place.
                self.history(position, &nft, "TRANSFERRED", &from, &origin, Deal { price: None, counterpart: Some(to.clone()) });
                self.owner_history.push(Owner { position, nft_id: nft, owner: to, tx_hash: origin.tx_hash, at: origin.block_time });
            }
            ChainEvent::NftBurned { token_id, owner, origin } => {
                let nft = id(&token_id);
                if let Some(row) = self.nft(&nft) {
                    row.burned = 1;
                    row.sale_type = sale_name(SaleType::NotForSale).into();
                    row.highest_bid = "0".into();
                    row.highest_bidder = None;
                    row.fee_bps = 0;
                    row.updated_at = origin.block_time;
                }
                self.history(position, &nft, "BURNED", &owner, &origin, Deal::default());
            }
            _ => {}
        }
        Ok(())
    }

    /// The token's row, to change (none before its mint).
    fn nft(&mut self, nft: &str) -> Option<&mut Nft> {
        self.nfts.get_mut(nft).map(Tracked::change)
    }

    /// One auction of the token, to change.
    fn auction(&mut self, nft: &str, auction_id: &str) -> Option<&mut Auction> {
        self.auctions.get_mut(nft)?.get_mut(auction_id).map(Tracked::change)
    }

    /// Every open bid of this bidder and amount in the auction gets `status`.
    fn close_bids(&mut self, nft: &str, auction_id: &str, bidder: &str, amount: &str, status: &'static str) {
        let bids = self.bids.get_mut(nft).into_iter().flatten();
        for bid in
            bids.filter(|b| b.row.status == "BID" && b.row.auction_id == auction_id && b.row.bidder == bidder && b.row.amount == amount)
        {
            bid.change().status = status;
        }
    }

    /// The token's owner as the batch has it (none before its mint).
    fn owner(&self, nft: &str) -> Option<String> {
        self.nfts.get(nft).map(|n| n.row.owner.clone())
    }

    fn history(&mut self, position: i64, nft: &str, kind: &'static str, address: &str, origin: &Origin, deal: Deal) {
        let key = || (nft.to_owned(), origin.tx_hash.clone());
        match kind {
            "PURCHASED" | "WON_AUCTION" => {
                self.sold.insert(key());
            }
            "REMOVED_FROM_SALE" | "TRANSFERRED" => self.removals.entry(key()).or_default().push(position),
            _ => {}
        }
        self.history.insert(
            position,
            History {
                position,
                nft_id: nft.to_owned(),
                kind,
                address: address.to_owned(),
                tx_hash: origin.tx_hash.clone(),
                at: origin.block_time,
                price: deal.price,
                counterpart: deal.counterpart,
            },
        );
    }

    /// Once written, the rows as the tables now hold them, for the next batch to fold into:
    /// nothing changed, minted rows stored, closed bids and the written rows forgotten.
    fn settle(&mut self) {
        for id in std::mem::take(&mut self.touched) {
            if let Some(nft) = self.nfts.get_mut(&id) {
                nft.changed = false;
                nft.row.minted = None;
            }
            if let Some(auctions) = self.auctions.get_mut(&id) {
                for auction in auctions.values_mut() {
                    auction.changed = false;
                }
                if auctions.is_empty() {
                    self.auctions.remove(&id);
                }
            }
            if let Some(bids) = self.bids.get_mut(&id) {
                bids.retain(|bid| bid.row.status == "BID");
                for bid in bids.iter_mut() {
                    bid.changed = false;
                }
                if bids.is_empty() {
                    self.bids.remove(&id);
                }
            }
        }
        self.history.clear();
        self.history_deleted.clear();
        self.owner_history.clear();
        self.sales.clear();
    }

    /// How many rows it holds.
    fn rows(&self) -> usize {
        self.nfts.len()
            + self.auctions.values().map(BTreeMap::len).sum::<usize>()
            + self.bids.values().map(Vec::len).sum::<usize>()
            + self.sold.len()
            + self.removals.len()
    }

    /// Takes in the rows `other` read (of tokens it holds none of).
    fn absorb(&mut self, other: Batch) {
        self.nfts.extend(other.nfts);
        self.auctions.extend(other.auctions);
        self.bids.extend(other.bids);
        self.sold.extend(other.sold);
        for (key, positions) in other.removals {
            self.removals.entry(key).or_default().extend(positions);
        }
    }

    /// Forgets one token's rows (a reorg refolds its stream).
    fn forget(&mut self, nft: &str) {
        self.nfts.remove(nft);
        self.auctions.remove(nft);
        self.bids.remove(nft);
        self.sold.retain(|(token, _)| token != nft);
        self.removals.retain(|(token, _), _| token != nft);
    }

    /// Writes what changed.
    async fn write(&self, conn: &mut Conn<'_>) -> Result<(), ProjectionError> {
        // In token order.
        let mut touched: Vec<&String> = self.touched.iter().collect();
        touched.sort_unstable();
        let (minted, stored): (Vec<&Nft>, Vec<&Nft>) =
            touched.iter().filter_map(|id| self.nfts.get(*id)).filter(|n| n.changed).map(|n| &n.row).partition(|n| n.minted.is_some());
        let columns: Vec<&str> = Nft::CHANGING.iter().chain(&Nft::MINTED).copied().collect();
        let mut values = Vec::with_capacity(minted.len() * columns.len());
        minted.into_iter().for_each(|nft| nft.push_values(&mut values));
        sql::insert_flat(conn, "nfts", &columns, "", &values).await?;
        let mut values = Vec::with_capacity(stored.len() * Nft::CHANGING.len());
        stored.into_iter().for_each(|nft| nft.push_values(&mut values));
        sql::update_flat(conn, "nfts", &Nft::CHANGING, &values).await?;
        let auctions: Vec<_> = touched
            .iter()
            .filter_map(|id| self.auctions.get(*id))
            .flat_map(BTreeMap::values)
            .filter(|a| a.changed)
            .map(|a| a.row.values())
            .collect();
        sql::insert(conn, "auctions", &Auction::COLUMNS, &sql::upsert(&["nft_id", "auction_id"], &Auction::COLUMNS), &auctions).await?;
        let mut bids: Vec<&Bid> =
            touched.iter().filter_map(|id| self.bids.get(*id)).flatten().filter(|b| b.changed).map(|b| &b.row).collect();
        bids.sort_by_key(|b| b.position);
        let bids: Vec<_> = bids.into_iter().map(Bid::values).collect();
        sql::insert(conn, "bids", &Bid::COLUMNS, "ON CONFLICT (position) DO UPDATE SET status = excluded.status", &bids).await?;
        let deleted: Vec<Value<'_>> = self.history_deleted.iter().map(|&p| Value::Int(p)).collect();
        if !deleted.is_empty() {
            sql::execute_in(conn, UNCOUNT_AT, &deleted).await?;
            sql::execute(conn, UNCOUNTED, &[]).await?;
        }
        sql::execute_in(conn, "DELETE FROM nft_history WHERE position IN ()", &deleted).await?;
        let mut history = Vec::with_capacity(self.history.len() * History::COLUMNS.len());
        self.history.values().for_each(|row| row.push_values(&mut history));
        sql::insert_flat(conn, "nft_history", &History::COLUMNS, "", &history).await?;
        count_activity(conn, self.history.values().map(|row| activity_kind(row.kind))).await?;
        let owners: Vec<Value<'_>> = self.owner_history.iter().flat_map(Owner::values).collect();
        sql::insert_flat(conn, "owner_history", &Owner::COLUMNS, "", &owners).await?;
        let sales: Vec<_> = self.sales.iter().map(Sale::values).collect();
        sql::insert(conn, "sales", &Sale::COLUMNS, "", &sales).await?;
        Ok(())
    }
}

/// Distinct keys, for an `IN ()`.
fn keys(ids: &mut Vec<String>) -> Vec<Value<'_>> {
    ids.sort_unstable();
    ids.dedup();
    ids.iter().map(Value::from).collect()
}

/// An `nfts` row (every column but `total_likes`, which no chain event sets): the columns
/// events change, and those its mint fixed. A stored row is loaded and updated without the
/// latter; a row minted in the batch is inserted whole.
struct Nft {
    nft_id: String,
    /// What the mint fixed, when the batch minted it.
    minted: Option<Minted>,
    owner: String,
    previous_owner: Option<String>,
    sale_type: String,
    price: String,
    price_key: String,
    base_price: String,
    end_time: i64,
    auction_id: String,
    highest_bid: String,
    highest_bidder: Option<String>,
    /// The service fee the current sale pays (its snapshot), 0 when not for sale.
    fee_bps: i64,
    transfers: i64,
    burned: i64,
    updated_at: i64,
    /// When last put on sale (the mint's time until then).
    listed_at: i64,
    bid_count: i64,
    sales: i64,
}

/// The columns of an `nfts` row its mint fixes.
struct Minted {
    chain_id: i64,
    token_id: String,
    token_uri: String,
    creator: String,
    royalties: String,
    minted_at: i64,
    mint_tx: String,
}

impl Nft {
    /// Not for sale any more, as a `SaleUpdated` to not for sale says.
    fn end_sale(&mut self, at: i64) {
        self.sale_type = sale_name(SaleType::NotForSale).into();
        self.price = "0".into();
        self.price_key = price_key("0");
        self.base_price = "0".into();
        self.end_time = 0;
        self.auction_id = "0".into();
        self.highest_bid = "0".into();
        self.highest_bidder = None;
        self.fee_bps = 0;
        self.updated_at = at;
    }

    /// The id, then the columns events change.
    const CHANGING: [&str; 18] = [
        "nft_id",
        "owner",
        "previous_owner",
        "sale_type",
        "price",
        "price_key",
        "base_price",
        "end_time",
        "auction_id",
        "highest_bid",
        "highest_bidder",
        "transfers",
        "burned",
        "updated_at",
        "bid_count",
        "sales",
        "fee_bps",
        "listed_at",
    ];
    /// The columns a mint fixes.
    const MINTED: [&str; 7] = ["chain_id", "token_id", "token_uri", "creator", "royalties", "minted_at", "mint_tx"];

    /// A stored row's [`Nft::CHANGING`] columns.
    fn from_row(row: &Row) -> Result<Self, ProjectionError> {
        Ok(Self {
            nft_id: row.try_get(0)?,
            minted: None,
            owner: row.try_get(1)?,
            previous_owner: row.try_get(2)?,
            sale_type: row.try_get(3)?,
            price: row.try_get(4)?,
            price_key: row.try_get(5)?,
            base_price: row.try_get(6)?,
            end_time: row.try_get(7)?,
            auction_id: row.try_get(8)?,
            highest_bid: row.try_get(9)?,
            highest_bidder: row.try_get(10)?,
            transfers: row.try_get(11)?,
            burned: row.try_get(12)?,
            updated_at: row.try_get(13)?,
            bid_count: row.try_get(14)?,
            sales: row.try_get(15)?,
            fee_bps: row.try_get(16)?,
            listed_at: row.try_get(17)?,
        })
    }

    /// Pushes the values of [`Nft::CHANGING`], then of [`Nft::MINTED`] when the batch minted it.
    fn push_values<'a>(&'a self, values: &mut Vec<Value<'a>>) {
        values.extend::<[Value<'_>; 18]>([
            (&self.nft_id).into(),
            (&self.owner).into(),
            (&self.previous_owner).into(),
            (&self.sale_type).into(),
            (&self.price).into(),
            (&self.price_key).into(),
            (&self.base_price).into(),
            self.end_time.into(),
            (&self.auction_id).into(),
            (&self.highest_bid).into(),
            (&self.highest_bidder).into(),
            self.transfers.into(),
            self.burned.into(),
            self.updated_at.into(),
            self.bid_count.into(),
            self.sales.into(),
            self.fee_bps.into(),
            self.listed_at.into(),
        ]);
        if let Some(minted) = &self.minted {
            values.extend::<[Value<'_>; 7]>([
                minted.chain_id.into(),
                (&minted.token_id).into(),
                (&minted.token_uri).into(),
                (&minted.creator).into(),
                (&minted.royalties).into(),
                minted.minted_at.into(),
                (&minted.mint_tx).into(),
            ]);
        }
    }
}

/// An `auctions` row.
struct Auction {
    nft_id: String,
    auction_id: String,
    start_price: String,
    buy_now_price: String,
    end_time: i64,
    highest_bid: String,
    winner: Option<String>,
    ended: i64,
    started_at: i64,
}

impl Auction {
    const COLUMNS: [&str; 9] =
        ["nft_id", "auction_id", "start_price", "buy_now_price", "end_time", "highest_bid", "winner", "ended", "started_at"];

    fn from_row(row: &Row) -> Result<Self, ProjectionError> {
        Ok(Self {
            nft_id: row.try_get(0)?,
            auction_id: row.try_get(1)?,
            start_price: row.try_get(2)?,
            buy_now_price: row.try_get(3)?,
            end_time: row.try_get(4)?,
            highest_bid: row.try_get(5)?,
            winner: row.try_get(6)?,
            ended: row.try_get(7)?,
            started_at: row.try_get(8)?,
        })
    }

    fn values(&self) -> Vec<Value<'_>> {
        vec![
            (&self.nft_id).into(),
            (&self.auction_id).into(),
            (&self.start_price).into(),
            (&self.buy_now_price).into(),
            self.end_time.into(),
            (&self.highest_bid).into(),
            (&self.winner).into(),
            self.ended.into(),
            self.started_at.into(),
        ]
    }
}

/// A `bids` row.
struct Bid {
    position: i64,
    nft_id: String,
    auction_id: String,
    bidder: String,
    amount: String,
    tx_hash: String,
    created_at: i64,
    /// BID | ALLOTED | REFUNDED.
    status: &'static str,
}

impl Bid {
    const COLUMNS: [&str; 8] = ["position", "nft_id", "auction_id", "bidder", "amount", "tx_hash", "created_at", "status"];

    /// An open bid (the only ones loaded).
    fn from_row(row: &Row) -> Result<Self, ProjectionError> {
        Ok(Self {
            position: row.try_get(0)?,
            nft_id: row.try_get(1)?,
            auction_id: row.try_get(2)?,
            bidder: row.try_get(3)?,
            amount: row.try_get(4)?,
            tx_hash: row.try_get(5)?,
            created_at: row.try_get(6)?,
            status: "BID",
        })
    }

    fn values(&self) -> Vec<Value<'_>> {
        vec![
            self.position.into(),
            (&self.nft_id).into(),
            (&self.auction_id).into(),
            (&self.bidder).into(),
            (&self.amount).into(),
            (&self.tx_hash).into(),
            self.created_at.into(),
            self.status.into(),
        ]
    }
}

/// An `nft_history` row.
struct History {
    position: i64,
    nft_id: String,
    /// Its `type_of_event`.
    kind: &'static str,
    address: String,
    tx_hash: String,
    at: i64,
    /// Wei, where the fact has a price.
    price: Option<String>,
    /// Who the fact was done to, where someone was.
    counterpart: Option<String>,
}

/// What an `nft_history` row says beside who did what: its price and counterpart.
#[derive(Default)]
struct Deal {
    price: Option<String>,
    counterpart: Option<String>,
}

/// Takes a token's `nft_history` rows out of `activity_counts`, before they are deleted.
const UNCOUNT_NFT: &str = "UPDATE activity_counts SET total = total - \
                           (SELECT COUNT(*) FROM nft_history h WHERE h.nft_id = $1 AND h.kind = activity_counts.kind)";
/// Takes the `nft_history` rows at these positions out of `activity_counts`, before they are deleted.
const UNCOUNT_AT: &str = "UPDATE activity_counts SET total = total - \
                          (SELECT COUNT(*) FROM nft_history h WHERE h.kind = activity_counts.kind AND h.position IN ())";
/// A kind with no rows left has no total, as in a replay that never met it.
const UNCOUNTED: &str = "DELETE FROM activity_counts WHERE total = 0";

/// Adds `nft_history` rows of these activity kinds to `activity_counts` (the feed's totals by
/// kind, which `queries::activity` reads rather than counting the rows).
pub(crate) async fn count_activity(conn: &mut Conn<'_>, kinds: impl IntoIterator<Item = &'static str>) -> Result<(), ProjectionError> {
    let mut tally: Vec<(&str, i64)> = Vec::new();
    for kind in kinds {
        match tally.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => tally.push((kind, 1)),
        }
    }
    let rows: Vec<Vec<Value<'_>>> = tally.into_iter().map(|(kind, n)| vec![kind.into(), n.into()]).collect();
    sql::insert(
        conn,
        "activity_counts",
        &["kind", "total"],
        "ON CONFLICT (kind) DO UPDATE SET total = activity_counts.total + excluded.total",
        &rows,
    )
    .await
}

/// The activity kind of a `type_of_event` (the `kind` column: what the activity feed filters by).
pub(crate) fn activity_kind(type_of_event: &str) -> &'static str {
    match type_of_event {
        "MINTED" => "MINT",
        "PUT_ON_AUCTION" | "PUT_ON_FIXEDSALE" => "LIST",
        "PRICE_CHANGED" => "PRICE",
        "REMOVED_FROM_SALE" => "STOP",
        "BIDDED_FOR" => "BID",
        "PURCHASED" | "WON_AUCTION" => "SALE",
        "TRANSFERRED" => "TRANSFER",
        "BURNED" => "BURN",
        "OFFER_MADE" => "OFFER",
        _ => "",
    }
}

impl History {
    const COLUMNS: [&str; 9] = ["position", "nft_id", "type_of_event", "address", "tx_hash", "at", "kind", "price", "counterpart"];

    fn push_values<'a>(&'a self, values: &mut Vec<Value<'a>>) {
        values.extend::<[Value<'_>; 9]>([
            self.position.into(),
            (&self.nft_id).into(),
            self.kind.into(),
            (&self.address).into(),
            (&self.tx_hash).into(),
            self.at.into(),
            activity_kind(self.kind).into(),
            (&self.price).into(),
            (&self.counterpart).into(),
        ]);
    }
}

/// An `owner_history` row.
struct Owner {
    position: i64,
    nft_id: String,
    owner: String,
    tx_hash: String,
    at: i64,
}

impl Owner {
    const COLUMNS: [&str; 5] = ["position", "nft_id", "owner", "tx_hash", "at"];

    fn values(&self) -> [Value<'_>; 5] {
        [self.position.into(), (&self.nft_id).into(), (&self.owner).into(), (&self.tx_hash).into(), self.at.into()]
    }
}

/// A `sales` row.
struct Sale {
    position: i64,
    nft_id: String,
    auction_id: String,
    seller: String,
    buyer: String,
    price: String,
    fee: String,
    royalties: String,
    at: i64,
}

impl Sale {
    const COLUMNS: [&str; 9] = ["position", "nft_id", "auction_id", "seller", "buyer", "price", "fee", "royalties", "at"];

    fn values(&self) -> Vec<Value<'_>> {
        vec![
            self.position.into(),
            (&self.nft_id).into(),
            (&self.auction_id).into(),
            (&self.seller).into(),
            (&self.buyer).into(),
            (&self.price).into(),
            (&self.fee).into(),
            (&self.royalties).into(),
            self.at.into(),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_price_keys_are_written_as_format_would() {
        for (chain, token) in [(0, "0"), (1, "7"), (137, "120480"), (80_001, "3"), (u64::MAX, "x")] {
            assert_eq!(nft_id(chain, token), format!("{chain}-{token}"));
        }
        let long = "9".repeat(80);
        for wei in ["0", "1500000000000000000", "", &long, "é1"] {
            assert_eq!(price_key(wei), format!("{wei:0>78}"));
        }
    }
}
