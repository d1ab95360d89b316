//! A synthetic but realistic market history for benchmarks: the log the indexer and the API
//! would have written after `nfts` tokens were minted and traded.
//!
//! Each block holds a few mints (minted, listed, described by their creator) and the trades of
//! tokens minted some blocks before, in the contract's own event order: fixed-price sales
//! (sold, royalties, transfer), auctions with an outbid, a refund and a settlement, price
//! changes. Every block ends with its `BlockIndexed` checkpoint, as the indexer writes it.
//! Deterministic in content: the same arguments give the same tokens, trades and chain event ids.

use domain::{
    ChainCoordinates, ExpectedVersion, Metadata, NewEvent, StreamAppend,
    catalog::{CatalogEvent, DEFAULT_CATEGORIES, Property},
    chain::{ChainEvent, Origin, Royalty, SaleType, chain_event_id, chain_stream},
};

/// The chain the history is on.
pub const CHAIN_ID: u64 = 80001;
/// Tokens minted per block.
const MINTS_PER_BLOCK: u64 = 5;
/// How many blocks after its mint a token trades.
const TRADE_LAG: u64 = 200;

const ADJECTIVES: [&str; 16] = [
    "cosmic", "golden", "silent", "electric", "ancient", "neon", "crimson", "frozen", "wild", "hidden", "lunar", "velvet", "broken",
    "solar", "misty", "radiant",
];
const NOUNS: [&str; 16] = [
    "tiger", "garden", "portrait", "machine", "ocean", "temple", "forest", "dragon", "city", "dream", "mountain", "river", "robot",
    "flower", "comet", "mask",
];

/// A small deterministic generator (SplitMix64), so runs compare.
struct Dice(u64);

impl Dice {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn pick<'a>(&mut self, words: &[&'a str]) -> &'a str {
        words[(self.next() % words.len() as u64) as usize]
    }
}

/// A 0x-prefixed 20-byte address for account `n`.
pub fn address(n: u64) -> String {
    format!("0x{n:040x}")
}

fn hash32(kind: u8, n: u64) -> String {
    format!("0x{kind:02x}{n:062x}")
}

/// The price of `token` in wei: 0.01 to ~100 MATIC, spread so that a price sort has work to do.
pub fn price_of(token: u64) -> String {
    let cents = 1 + (token.wrapping_mul(2_654_435_761) % 10_000);
    format!("{cents}0000000000000000")
}

/// One block under construction: its events by stream, in log order.
struct Block {
    number: u64,
    hash: String,
    time: i64,
    logs: u64,
    writes: Vec<StreamAppend>,
    event_ids: Vec<uuid::Uuid>,
    streams: Vec<String>,
}

impl Block {
    fn new(number: u64) -> Self {
        Self {
            number,
            hash: hash32(0xb1, number),
            time: 1_700_000_000 + number as i64 * 2,
            logs: 0,
            writes: Vec::new(),
            event_ids: Vec::new(),
            streams: Vec::new(),
        }
    }

    /// Adds one log's event, as the indexer derives it.
    fn log(&mut self, tx: u64, event: ChainEvent) {
        let tx_hash = hash32(0x7e, tx);
        let log_index = self.logs;
        self.logs += 1;
        let id = chain_event_id(CHAIN_ID, &self.hash, &tx_hash, log_index, 0);
        let metadata = Metadata {
            actor: Some("indexer".into()),
            chain: Some(ChainCoordinates {
                chain_id: CHAIN_ID,
                block_number: self.number,
                block_hash: self.hash.clone(),
                tx_hash,
                log_index,
            }),
            ..Metadata::default()
        };
        let stream = event.stream_id(CHAIN_ID);
        self.event_ids.push(id);
        if !self.streams.contains(&stream) {
            self.streams.push(stream.clone());
        }
        self.push(stream, event.to_new_event(id, metadata).expect("serializable"));
    }

    fn push(&mut self, stream: String, event: NewEvent) {
        match self.writes.iter_mut().find(|w| w.stream_id == stream) {
            Some(write) => write.events.push(event),
            None => self.writes.push(StreamAppend { stream_id: stream, expected: ExpectedVersion::Any, events: vec![event] }),
        }
    }

    fn origin(&self, tx: u64) -> Origin {
        Origin { block_number: self.number, block_time: self.time, tx_hash: hash32(0x7e, tx), log_index: self.logs }
    }

    /// The block's atomic append: its events, then its checkpoint.
    fn finish(mut self) -> Vec<StreamAppend> {
        let checkpoint = ChainEvent::BlockIndexed {
            number: self.number,
            hash: self.hash.clone(),
            parent_hash: hash32(0xb1, self.number - 1),
            time: self.time,
            event_ids: std::mem::take(&mut self.event_ids),
            streams: std::mem::take(&mut self.streams),
        };
        let id = chain_event_id(CHAIN_ID, &self.hash, "block-indexed", self.number, u32::MAX);
        let metadata = Metadata { actor: Some("indexer".into()), ..Metadata::default() };
        self.writes.push(StreamAppend {
            stream_id: chain_stream(CHAIN_ID),
            expected: ExpectedVersion::Any,
            events: vec![checkpoint.to_new_event(id, metadata).expect("serializable")],
        });
        self.writes
    }
}

/// The history of `nfts` tokens as atomic appends, one per block (the creators' descriptions are
/// appended with their mint's block, as the API records them right after the mint).
pub fn market_history(nfts: u64) -> impl Iterator<Item = Vec<StreamAppend>> {
    market_history_with_files(nfts, Vec::new(), |_| true)
}

/// [`market_history`] whose NFTs show the stored `files` (CIDs), token `t` the `t % len`-th
/// (with none, each token names a CID of its own that nothing stores), and in which only the
/// tokens `traded` accepts are traded: the others stay listed as minted.
pub fn market_history_with_files(
    nfts: u64,
    files: Vec<String>,
    traded: impl Fn(u64) -> bool + 'static,
) -> impl Iterator<Item = Vec<StreamAppend>> {
    let blocks = nfts.div_ceil(MINTS_PER_BLOCK);
    let mut dice = Dice(42);
    let mut tx = 0u64;
    (1..=blocks + TRADE_LAG).map(move |number| {
        let mut block = Block::new(number);
        let mut details = Vec::new();
        // Mints of this block.
        let first = (number - 1) * MINTS_PER_BLOCK + 1;
        for token in (first..first + MINTS_PER_BLOCK).filter(|&t| number <= blocks && t <= nfts) {
            tx += 1;
            mint(&mut block, &mut dice, tx, token, &files, &mut details);
        }
        // Trades of the tokens minted TRADE_LAG blocks ago.
        if number > TRADE_LAG {
            let first = (number - TRADE_LAG - 1) * MINTS_PER_BLOCK + 1;
            for token in (first..first + MINTS_PER_BLOCK).filter(|&t| t <= nfts && traded(t)) {
                trade(&mut block, &mut tx, token);
            }
        }
        let mut writes = block.finish();
        writes.extend(details);
        writes
    })
}

/// Blocks of a history (as [`market_history`] gives them) joined into appends of about
/// `max_events` each, for loading a large market: one transaction per many blocks instead of one
/// per block. Each stream appears once per append: the chain's checkpoints of the joined blocks
/// are one run at its end, and a block naming a stream already in the append starts the next.
/// Every stream's events keep their order; only checkpoints move after the blocks they close.
pub fn joined(blocks: impl Iterator<Item = Vec<StreamAppend>>, max_events: usize) -> impl Iterator<Item = Vec<StreamAppend>> {
    let chain = chain_stream(CHAIN_ID);
    let mut blocks = blocks.peekable();
    std::iter::from_fn(move || {
        let mut joined: Vec<StreamAppend> = Vec::new();
        let mut streams = std::collections::HashSet::new();
        let mut checkpoints = Vec::new();
        let mut events = 0;
        while let Some(block) = blocks.peek() {
            let clashes = block.iter().any(|w| w.stream_id != chain && streams.contains(&w.stream_id));
            if events >= max_events || (clashes && !joined.is_empty()) {
                break;
            }
            for write in blocks.next().expect("peeked") {
                events += write.events.len();
                if write.stream_id == chain {
                    checkpoints.extend(write.events);
                } else {
                    streams.insert(write.stream_id.clone());
                    joined.push(write);
                }
            }
        }
        if !checkpoints.is_empty() {
            joined.push(StreamAppend { stream_id: chain.clone(), expected: ExpectedVersion::Any, events: checkpoints });
        }
        (!joined.is_empty()).then_some(joined)
    })
}

fn creator_of(token: u64) -> u64 {
    1 + token % 97
}

fn mint(block: &mut Block, dice: &mut Dice, tx: u64, token: u64, files: &[String], details: &mut Vec<StreamAppend>) {
    let token_id = token.to_string();
    let creator = address(creator_of(token));
    let royalties = match token % 3 {
        0 => vec![],
        1 => vec![Royalty { receiver: creator.clone(), bps: 500 }],
        _ => vec![Royalty { receiver: creator.clone(), bps: 300 }, Royalty { receiver: address(500 + token % 13), bps: 200 }],
    };
    let origin = block.origin(tx);
    block.log(
        tx,
        ChainEvent::NftMinted { token_id: token_id.clone(), creator, token_uri: format!("ipfs://bafy{token:052}"), royalties, origin },
    );
    let price = price_of(token);
    let (sale_type, base_price, end_time, auction_id) = match token % 7 {
        0..=3 => (SaleType::FixedPrice, "0".to_owned(), 0, "0".to_owned()),
        4 | 5 => (SaleType::Auction, "1000000000000000".to_owned(), block.time + 7 * 24 * 3_600, token.to_string()),
        _ => (SaleType::NotForSale, "0".to_owned(), 0, "0".to_owned()),
    };
    let price = if sale_type == SaleType::NotForSale { "0".to_owned() } else { price };
    let origin = block.origin(tx);
    let listed = (sale_type != SaleType::NotForSale).then(|| auction_id.clone());
    block.log(tx, ChainEvent::SaleUpdated { token_id: token_id.clone(), sale_type, price, base_price, end_time, auction_id, origin });
    // The contract snapshots the service fee of every sale that starts.
    if let Some(auction_id) = listed {
        let origin = block.origin(tx);
        block.log(tx, ChainEvent::ServiceFeeSnapshotted { token_id: token_id.clone(), auction_id, fee_bps: 500, origin });
    }

    let (adjective, noun) = (dice.pick(&ADJECTIVES), dice.pick(&NOUNS));
    let description = (0..12)
        .map(|_| {
            let words: &[&str] = if dice.next().is_multiple_of(2) { &ADJECTIVES } else { &NOUNS };
            dice.pick(words)
        })
        .collect::<Vec<_>>()
        .join(" ");
    let category = DEFAULT_CATEGORIES[(token % DEFAULT_CATEGORIES.len() as u64) as usize];
    let recorded = CatalogEvent::NftDetailsRecorded {
        chain_id: CHAIN_ID,
        token_id,
        title: format!("{adjective} {noun} #{token}"),
        description: format!("A {adjective} {noun}: {description}."),
        category_id: category.0.to_owned(),
        file: match files.len() as u64 {
            0 => format!("/ipfs/bafkrei{token:052}"),
            len => format!("/ipfs/{}", files[(token % len) as usize]),
        },
        metadata_url: format!("/ipfs/bafkrem{token:052}"),
        properties: traits_of(token),
        creator_user_id: None,
    };
    let metadata = Metadata { actor: Some(format!("user-{}", creator_of(token))), ..Metadata::default() };
    details.push(StreamAppend {
        stream_id: recorded.stream_id(),
        expected: ExpectedVersion::Any,
        events: vec![recorded.to_new_event(metadata).expect("serializable")],
    });
}

fn trade(block: &mut Block, tx: &mut u64, token: u64) {
    let token_id = token.to_string();
    let seller = address(creator_of(token));
    let buyer = address(200 + token % 89);
    let price = price_of(token);
    match token % 7 {
        // Fixed price: a price change, then a sale.
        0..=3 => {
            *tx += 1;
            let origin = block.origin(*tx);
            block.log(*tx, ChainEvent::PriceChanged { token_id: token_id.clone(), price: price.clone(), origin });
            *tx += 1;
            settle(block, *tx, &token_id, "0", &seller, &buyer, &price);
        }
        // Auction: a bid, an outbid (refunding the first), then the owner accepts.
        4 | 5 => {
            let first_bidder = address(300 + token % 31);
            let end_time = block.time + 6 * 24 * 3_600;
            for (bidder, amount) in [(&first_bidder, "2000000000000000"), (&buyer, "3000000000000000")] {
                *tx += 1;
                let origin = block.origin(*tx);
                block.log(
                    *tx,
                    ChainEvent::BidPlaced {
                        token_id: token_id.clone(),
                        auction_id: token_id.clone(),
                        bidder: bidder.clone(),
                        amount: amount.into(),
                        end_time,
                        origin,
                    },
                );
            }
            let origin = block.origin(*tx);
            block.log(
                *tx,
                ChainEvent::BidRefunded {
                    token_id: token_id.clone(),
                    auction_id: token_id.clone(),
                    bidder: first_bidder,
                    amount: "2000000000000000".into(),
                    origin,
                },
            );
            *tx += 1;
            let origin = block.origin(*tx);
            block.log(
                *tx,
                ChainEvent::AuctionEnded {
                    token_id: token_id.clone(),
                    auction_id: token_id.clone(),
                    winner: buyer.clone(),
                    amount: "3000000000000000".into(),
                    origin,
                },
            );
            settle(block, *tx, &token_id, &token_id, &seller, &buyer, "3000000000000000");
        }
        // Not for sale: it stays with its creator.
        _ => {}
    }
}

/// A sale's tail in the contract's order: listing cleared, transfer, the split, royalties.
fn settle(block: &mut Block, tx: u64, token_id: &str, auction_id: &str, seller: &str, buyer: &str, price: &str) {
    let wei: u128 = price.parse().expect("decimal wei");
    let (fee, royalty) = (wei / 20, wei / 20);
    let origin = block.origin(tx);
    block.log(
        tx,
        ChainEvent::SaleUpdated {
            token_id: token_id.into(),
            sale_type: SaleType::NotForSale,
            price: "0".into(),
            base_price: "0".into(),
            end_time: 0,
            auction_id: "0".into(),
            origin,
        },
    );
    let origin = block.origin(tx);
    block.log(tx, ChainEvent::NftTransferred { token_id: token_id.into(), from: seller.into(), to: buyer.into(), origin });
    let origin = block.origin(tx);
    block.log(
        tx,
        ChainEvent::NftSold {
            token_id: token_id.into(),
            auction_id: auction_id.into(),
            buyer: buyer.into(),
            seller: seller.into(),
            price: price.into(),
            fee: fee.to_string(),
            royalties: royalty.to_string(),
            seller_proceeds: (wei - fee - royalty).to_string(),
            origin,
        },
    );
    let origin = block.origin(tx);
    block.log(tx, ChainEvent::RoyaltyPaid { token_id: token_id.into(), receiver: seller.into(), amount: royalty.to_string(), origin });
}

/// Registers the user `id` (`name`, email `{name}@example.com`) with the wallet `wallet` linked,
/// both at `at`, as the accounts commands would: for tests that need people behind addresses.
pub async fn register_user(store: &dyn domain::EventStore, id: uuid::Uuid, name: &str, wallet: &str, at: chrono::DateTime<chrono::Utc>) {
    use domain::accounts::{AuthProvider, UserEvent, WalletProvider};
    let events = [
        UserEvent::UserRegistered {
            user_id: id,
            email: format!("{name}@example.com"),
            username: name.into(),
            full_name: name.into(),
            password_hash: "$argon2id$x".into(),
            auth_provider: AuthProvider::Email,
            at,
        },
        UserEvent::WalletLinked { provider: WalletProvider::Other, address: wallet.into(), at },
    ];
    let events = events.iter().map(|e| e.to_new_event(Metadata::default()).expect("user events serialize")).collect();
    store.append(&format!("user-{id}"), ExpectedVersion::Any, events).await.expect("registering a user");
}

/// The backgrounds of [`market_history`]'s tokens.
pub const BACKGROUNDS: [&str; 6] = ["Midnight", "Ivory", "Coral", "Sage", "Gold", "Slate"];
/// The frames of [`market_history`]'s tokens (three in ten have none).
pub const FRAMES: [&str; 3] = ["Wood", "Brass", "Neon"];

/// A token's properties in [`market_history`]: an edition (ten values), a background (six, in
/// runs of seven tokens) and, on seven tokens in ten, a frame: traits to filter and facet by.
pub fn traits_of(token: u64) -> Vec<Property> {
    let mut properties = vec![
        Property { key: "edition".into(), value: (token % 10).to_string() },
        Property { key: "background".into(), value: BACKGROUNDS[((token / 7) % 6) as usize].into() },
    ];
    let frame = match (token * 31 + 7) % 10 {
        0..=3 => Some(FRAMES[0]),
        4..=5 => Some(FRAMES[1]),
        6 => Some(FRAMES[2]),
        _ => None,
    };
    properties.extend(frame.map(|f| Property { key: "frame".into(), value: f.into() }));
    properties
}
