//! Batches: the projector folds a batch of events in memory and writes the result at once, so
//! the read tables must not depend on where batches start or end (inside one transaction's
//! events, between a bid and its refund, across a retraction).

use std::sync::Arc;

use domain::{
    EventStore, ExpectedVersion, Metadata, StreamAppend,
    catalog::{CatalogEvent, Property},
    chain::{ChainEvent, Origin, SaleType},
};
use projections::{
    ProjectionError, Projector, ReadDb,
    queries::{
        Page,
        nft::{self, Explore, SaleFilter, SortBy},
    },
    test_utils::{joined, market_history},
};

use domain::store::sqlite::SqliteEventStore;

use crate::{CHAIN, append, each_read_db, retract};

/// Block `block`'s transaction: events with the same block are of one transaction.
fn tx(block: u64) -> Origin {
    crate::origin(block)
}

fn sale(token: &str, sale_type: SaleType, price: &str, auction_id: &str, end_time: i64, block: u64) -> ChainEvent {
    ChainEvent::SaleUpdated {
        token_id: token.into(),
        sale_type,
        price: price.into(),
        base_price: if sale_type == SaleType::Auction { "50".into() } else { "0".into() },
        end_time,
        auction_id: auction_id.into(),
        origin: tx(block),
    }
}

fn bid(token: &str, auction_id: &str, bidder: &str, amount: &str, block: u64) -> ChainEvent {
    ChainEvent::BidPlaced {
        token_id: token.into(),
        auction_id: auction_id.into(),
        bidder: bidder.into(),
        amount: amount.into(),
        end_time: 1_900_000_000 + block as i64,
        origin: tx(block),
    }
}

fn refund(token: &str, auction_id: &str, bidder: &str, amount: &str, block: u64) -> ChainEvent {
    ChainEvent::BidRefunded {
        token_id: token.into(),
        auction_id: auction_id.into(),
        bidder: bidder.into(),
        amount: amount.into(),
        origin: tx(block),
    }
}

fn sold(token: &str, auction_id: &str, seller: &str, buyer: &str, price: &str, block: u64) -> ChainEvent {
    ChainEvent::NftSold {
        token_id: token.into(),
        auction_id: auction_id.into(),
        buyer: buyer.into(),
        seller: seller.into(),
        price: price.into(),
        fee: "1".into(),
        royalties: "2".into(),
        seller_proceeds: "3".into(),
        origin: tx(block),
    }
}

fn snapshot(token: &str, auction_id: &str, fee_bps: u32, block: u64) -> ChainEvent {
    ChainEvent::ServiceFeeSnapshotted { token_id: token.into(), auction_id: auction_id.into(), fee_bps, origin: tx(block) }
}

fn transferred(token: &str, from: &str, to: &str, block: u64) -> ChainEvent {
    ChainEvent::NftTransferred { token_id: token.into(), from: from.into(), to: to.into(), origin: tx(block) }
}

async fn describe(store: &dyn EventStore, token: &str, title: &str) {
    let event = CatalogEvent::NftDetailsRecorded {
        chain_id: CHAIN,
        token_id: token.into(),
        title: title.into(),
        description: format!("{title}, described"),
        category_id: "art".into(),
        file: format!("/ipfs/img{token}"),
        metadata_url: format!("/ipfs/meta{token}"),
        properties: vec![Property { key: "edition".into(), value: "1".into() }],
        creator_user_id: None,
    };
    store.append(&event.stream_id(), ExpectedVersion::Any, vec![event.to_new_event(Metadata::default()).unwrap()]).await.unwrap();
}

async fn category(store: &dyn EventStore, id: &str, name: &str) {
    let event = CatalogEvent::CategoryAdded { id: id.into(), name: name.into() };
    store.append("categories", ExpectedVersion::Any, vec![event.to_new_event(Metadata::default()).unwrap()]).await.unwrap();
}

/// The rules' corner cases, one after another, and a reorg in the middle.
async fn corner_cases(store: &dyn EventStore) {
    let e = "9001";
    category(store, "art", "Art").await;
    category(store, "music", "Music").await;
    append(
        store,
        &[
            ChainEvent::NftMinted {
                token_id: e.into(),
                creator: "0xalice".into(),
                token_uri: "u".into(),
                royalties: vec![],
                origin: tx(1),
            },
            sale(e, SaleType::FixedPrice, "500", "0", 0, 2),
            snapshot(e, "0", 500, 2),
            ChainEvent::PriceChanged { token_id: e.into(), price: "600".into(), origin: tx(3) },
            // A sale whose listing is cleared after the sale in the same transaction: no removal.
            sold(e, "0", "0xalice", "0xbob", "600", 4),
            sale(e, SaleType::NotForSale, "0", "0", 0, 4),
            transferred(e, "0xalice", "0xbob", 4),
        ],
    )
    .await;
    describe(store, e, "first title").await;
    category(store, "art", "Fine art").await;
    let ids = append(
        store,
        &[
            sale(e, SaleType::Auction, "5000", "7", 1_900_000_000, 5),
            snapshot(e, "7", 1_000, 5),
            bid(e, "7", "0xcarol", "100", 6),
            // The same auction again (its end moved): it keeps its bid.
            sale(e, SaleType::Auction, "5000", "7", 1_900_000_100, 7),
            ChainEvent::PriceChanged { token_id: e.into(), price: "900".into(), origin: tx(8) },
            bid(e, "7", "0xdave", "200", 9),
            refund(e, "7", "0xcarol", "100", 9),
            ChainEvent::BidRejected {
                token_id: e.into(),
                auction_id: "7".into(),
                bidder: "0xdave".into(),
                amount: "200".into(),
                origin: tx(10),
            },
            // A rejection in the last minutes moved the end.
            ChainEvent::AuctionExtended { token_id: e.into(), auction_id: "7".into(), end_time: 1_900_000_700, origin: tx(10) },
            sale(e, SaleType::NotForSale, "0", "0", 0, 11),
        ],
    )
    .await;
    describe(store, e, "second title").await;
    // A reorg retracts Dave's bid.
    retract(store, 9, 9, vec![ids[5]], e).await;
    append(
        store,
        &[
            bid(e, "7", "0xfrank", "250", 9),
            sale(e, SaleType::Auction, "5000", "8", 1_900_000_200, 12),
            snapshot(e, "8", 200, 12),
            bid(e, "8", "0xerin", "300", 13),
            bid(e, "8", "0xerin", "300", 13),
            // Settlement: the ended auction, the cleared listing, the transfer, then the sale.
            ChainEvent::AuctionEnded {
                token_id: e.into(),
                auction_id: "8".into(),
                winner: "0xerin".into(),
                amount: "300".into(),
                origin: tx(14),
            },
            sale(e, SaleType::NotForSale, "0", "0", 0, 14),
            transferred(e, "0xbob", "0xerin", 14),
            sold(e, "8", "0xbob", "0xerin", "300", 14),
            ChainEvent::NftBurned { token_id: e.into(), owner: "0xerin".into(), origin: tx(15) },
            // Events of a token that was never minted touch only what exists without it.
            sale("9002", SaleType::Auction, "10", "1", 1_900_000_000, 16),
            bid("9002", "1", "0xgus", "20", 17),
            ChainEvent::PriceChanged { token_id: "9002".into(), price: "30".into(), origin: tx(18) },
            ChainEvent::NftMinted {
                token_id: "9003".into(),
                creator: "0xalice".into(),
                token_uri: "u".into(),
                royalties: vec![],
                origin: tx(19),
            },
        ],
    )
    .await;
    // A token described twice is found by its last description only.
    describe(store, "9003", "first title").await;
    describe(store, "9003", "second title").await;
    // An offer, accepted: closing it looks up the owner then (through an index a fill builds
    // before it).
    let offer = |kind: &str| match kind {
        "made" => ChainEvent::OfferMade {
            token_id: "9003".into(),
            offerer: "0xhal".into(),
            amount: "70".into(),
            expires_at: 1_900_000_000,
            fee_bps: 500,
            replaced_amount: "0".into(),
            origin: tx(20),
        },
        _ => ChainEvent::OfferAccepted {
            token_id: "9003".into(),
            offerer: "0xhal".into(),
            seller: "0xalice".into(),
            amount: "70".into(),
            origin: tx(21),
        },
    };
    append(store, &[offer("made"), offer("accepted"), transferred("9003", "0xalice", "0xhal", 21)]).await;
}

/// The synthetic market history (mints, listings, sales, auctions, checkpoints).
async fn market(store: &dyn EventStore, nfts: u64) {
    for writes in market_history(nfts) {
        store.append_streams(writes).await.unwrap();
    }
}

/// What the read tables say after folding the whole log with `batch` events per batch, in a
/// fresh generation: their checksum, and (SQLite) the search index's rows, which the checksum
/// leaves out, as a digest and a count.
#[derive(Debug, PartialEq)]
struct Folded {
    checksum: String,
    /// What searching each of [`WORDS`] finds.
    found: Vec<Vec<String>>,
}

const WORDS: [&str; 3] = ["second", "first", "title"];

/// Folds the whole log into `db` with the projector `configure` makes.
async fn fold(store: &Arc<dyn EventStore>, db: ReadDb, configure: impl FnOnce(Projector) -> Projector) -> Folded {
    let head = store.head().await.unwrap().0;
    let reached = configure(Projector::new(store.clone(), db.clone()).await.unwrap()).catch_up().await.unwrap();
    assert_eq!(reached, head);
    let mut found = Vec::new();
    for word in WORDS {
        let request = Explore {
            category: None,
            sale: SaleFilter::All,
            sort_by: SortBy::Date,
            ascending: true,
            search: Some(word.into()),
            owners: None,
            creators: None,
            within: None,
            traits: Vec::new(),
            collection: None,
            viewer: None,
        };
        let page = nft::explore(&db, &request, Page { page: 1, limit: 1_000 }, reached).await.unwrap();
        found.push(page.data.into_iter().map(|n| n.id).collect());
    }
    // The feed's totals the projector keeps are the rows' own counts.
    let kept: Vec<(String, i64)> =
        sqlx::query_as("SELECT kind, total FROM activity_counts ORDER BY kind").fetch_all(&db.pool()).await.unwrap();
    let counted: Vec<(String, i64)> =
        sqlx::query_as("SELECT kind, COUNT(*) FROM nft_history GROUP BY kind ORDER BY kind").fetch_all(&db.pool()).await.unwrap();
    assert_eq!(kept, counted, "activity_counts");
    Folded { checksum: db.checksum().await.unwrap(), found }
}

#[tokio::test]
async fn the_read_tables_do_not_depend_on_the_batch_size() {
    each_read_db(async |store, url| {
        corner_cases(store.as_ref()).await;
        market(store.as_ref(), 250).await;

        // A fresh generation fills: batches are folded in memory and written while the next
        // one is folded.
        let fresh = async |name: &str| ReadDb::open_generation(&url, name).await.unwrap();
        let one_by_one = fold(&store, fresh("batch1").await, |p| p.with_batch_size(1)).await;
        for batch in [7, 1_000, 100_000] {
            let folded = fold(&store, fresh(&format!("batch{batch}")).await, |p| p.with_batch_size(batch)).await;
            assert_eq!(folded, one_by_one, "{batch} events per batch == one at a time");
        }
        // Filling with room for fewer rows than the log makes: it carries on reading the tables.
        let short = fold(&store, fresh("short").await, |p| p.with_batch_size(100).with_remembered_rows(150)).await;
        assert_eq!(short, one_by_one, "out of memory while filling == in memory");
        // A new server's empty published generation fills in the pipeline too, indexes kept.
        let published = fold(&store, ReadDb::open(&url).await.unwrap(), |p| p.with_batch_size(100)).await;
        assert_eq!(published, one_by_one, "a published generation filled == a fresh one");
        // With no room to remember rows, each batch is written in place, reading its rows back.
        let in_place = fold(&store, fresh("in_place").await, |p| p.with_batch_size(100).with_remembered_rows(0)).await;
        assert_eq!(in_place, one_by_one, "written in place == filled");
        // The last description wins, in the table and in the search index.
        let db = ReadDb::open_generation(&url, "batch100000").await.unwrap();
        let title: String =
            sqlx::query_scalar("SELECT title FROM nft_details WHERE nft_id = $1").bind("80001-9001").fetch_one(&db.pool()).await.unwrap();
        assert_eq!(title, "second title");
        assert_eq!(one_by_one.found[0], ["80001-9003"], "the last description is searched; a burned token is not found");
        assert!(one_by_one.found[1].is_empty(), "the first description left the index");
    })
    .await;
}

#[tokio::test]
async fn a_history_joined_into_large_appends_says_what_it_says_block_by_block() {
    // 1,200 tokens: their trades come 200 blocks after their mints, so the joined appends meet
    // streams they already hold and must start anew there.
    let folded = async |max_events: Option<usize>| {
        let dir = tempfile::tempdir().unwrap();
        let store: Arc<dyn EventStore> = Arc::new(SqliteEventStore::open(&dir.path().join("events.db")).await.unwrap());
        let appends: Vec<Vec<StreamAppend>> = match max_events {
            Some(max) => joined(market_history(1_200), max).collect(),
            None => market_history(1_200).collect(),
        };
        let count = appends.len();
        for writes in appends {
            store.append_streams(writes).await.unwrap();
        }
        let db = ReadDb::open(&format!("sqlite://{}", dir.path().join("read.db").display())).await.unwrap();
        Projector::new(store.clone(), db.clone()).await.unwrap().catch_up().await.unwrap();
        (count, store.head().await.unwrap().0, db.content_checksum().await.unwrap())
    };
    let (blocks, events, by_block) = folded(None).await;
    let (appends, joined_events, by_append) = folded(Some(2_000)).await;
    assert_eq!(joined_events, events, "every event is appended once");
    assert!(appends * 20 < blocks, "{appends} appends for {blocks} blocks");
    assert_eq!(by_append, by_block, "the same read tables, positions aside");
}

#[tokio::test]
async fn a_failed_fill_keeps_exactly_the_batches_it_committed() {
    each_read_db(async |store, url| {
        let mint = |token: String| ChainEvent::NftMinted {
            token_id: token,
            creator: "0xalice".into(),
            token_uri: "u".into(),
            royalties: vec![],
            origin: tx(900),
        };
        market(store.as_ref(), 40).await;
        // Up to a multiple of 10 events, then a batch of 10 that stops at a broken event after a
        // first run of events (up to a retraction) was folded.
        let head = store.head().await.unwrap().0;
        append(store.as_ref(), &(head..head.next_multiple_of(10)).map(|i| mint(format!("8{i}"))).collect::<Vec<_>>()).await;
        let committed = store.head().await.unwrap().0;
        let ids = append(store.as_ref(), &[mint("901".into()), mint("902".into())]).await;
        retract(store.as_ref(), 900, 900, vec![ids[1]], "902").await;
        // An event whose payload does not have its type's shape stops the projector.
        let broken = domain::NewEvent {
            event_id: uuid::Uuid::new_v4(),
            event_type: "NftMinted".into(),
            schema_version: 1,
            payload: "{}".into(),
            metadata: Metadata::default(),
        };
        let broken_at = store.append(&format!("nft-{CHAIN}-broken"), ExpectedVersion::Any, vec![broken]).await.unwrap().last_position;
        append(store.as_ref(), &[mint("903".into())]).await;

        // Filled 10 events at a time (each batch written while the next is folded): every batch
        // before the broken one is committed, nothing of that one.
        let filled = ReadDb::open_generation(&url, "filled").await.unwrap();
        let failed = Projector::new(store.clone(), filled.clone()).await.unwrap().with_batch_size(10).catch_up().await;
        assert!(matches!(failed, Err(ProjectionError::Malformed { position, .. }) if position == broken_at), "{failed:?}");
        assert_eq!(Projector::new(store.clone(), filled.clone()).await.unwrap().handle().position(), committed);

        // The same events written in place, in one batch, give the same tables.
        let in_place = ReadDb::open(&url).await.unwrap();
        let failed = Projector::new(store.clone(), in_place.clone()).await.unwrap().with_batch_size(committed as usize).catch_up().await;
        assert!(failed.is_err());
        assert_eq!(Projector::new(store.clone(), in_place.clone()).await.unwrap().handle().position(), committed);
        assert_eq!(filled.checksum().await.unwrap(), in_place.checksum().await.unwrap());
    })
    .await;
}

#[tokio::test]
async fn a_server_back_after_downtime_fills_the_rest_in_the_pipeline() {
    each_read_db(async |store, url| {
        // What the server folded before it stopped: the corner cases (a retraction among them),
        // and a token listed then.
        corner_cases(store.as_ref()).await;
        let listed = append(
            store.as_ref(),
            &[
                ChainEvent::NftMinted {
                    token_id: "9100".into(),
                    creator: "0xalice".into(),
                    token_uri: "u".into(),
                    royalties: vec![],
                    origin: tx(20),
                },
                sale("9100", SaleType::FixedPrice, "40", "0", 0, 21),
            ],
        )
        .await;
        let server = ReadDb::open(&url).await.unwrap();
        Projector::new(store.clone(), server.clone()).await.unwrap().catch_up().await.unwrap();

        // While it was down: a market, tokens of the first part changed, and retractions that
        // refold streams of the first part (one whose events retracted then must stay out, one
        // met the first time by its refold) and one of the second.
        market(store.as_ref(), 250).await;
        retract(store.as_ref(), 21, 21, vec![listed[1]], "9100").await;
        let ids = append(
            store.as_ref(),
            &[
                ChainEvent::PriceChanged { token_id: "9001".into(), price: "7".into(), origin: tx(30) },
                sale("9003", SaleType::FixedPrice, "70", "0", 0, 31),
                transferred("9003", "0xalice", "0xbob", 32),
            ],
        )
        .await;
        retract(store.as_ref(), 30, 30, vec![ids[0]], "9001").await;
        retract(store.as_ref(), 32, 32, vec![ids[2]], "9003").await;
        append(store.as_ref(), &[sale("9003", SaleType::FixedPrice, "80", "0", 0, 33)]).await;

        // Back: it catches up in batches of 100, each read model reading the rows of the tokens
        // it meets the first time and keeping them; the same tables as one fill of the whole.
        let resumed = fold(&store, server, |p| p.with_batch_size(100)).await;
        let whole = fold(&store, ReadDb::open_generation(&url, "whole").await.unwrap(), |p| p.with_batch_size(1_000)).await;
        assert_eq!(resumed, whole, "resumed in the pipeline == filled from the start");
    })
    .await;
}
