//! The projector against a real event log and real read databases (SQLite and Postgres).

use std::sync::Arc;

use domain::{
    EventStore, ExpectedVersion, Metadata, StreamAppend,
    chain::{ChainEvent, Origin, Royalty, SaleType, chain_event_id, chain_stream},
    store::sqlite::SqliteEventStore,
    test_utils::TestPostgres,
};
use projections::{Projector, ReadDb};
use sqlx::Row;
use uuid::Uuid;

mod activity;
mod batches;
mod collections;
mod holds;
mod insight;
mod moderation_notices;
mod notices;
mod offers;
mod queries;
mod replay;
mod social;
mod traits;
mod trending;

pub(crate) const CHAIN: u64 = 80001;

pub(crate) fn origin(block: u64) -> Origin {
    Origin { block_number: block, block_time: 1_700_000_000 + block as i64, tx_hash: format!("0x{block:064x}"), log_index: 0 }
}

/// Appends the indexer's record of a reorg: blocks `from..=to` retracted, with these events of
/// `token`'s stream.
pub(crate) async fn retract(store: &dyn EventStore, from_block: u64, to_block: u64, event_ids: Vec<Uuid>, token: &str) {
    let retraction = ChainEvent::BlocksRetracted { from_block, to_block, event_ids, streams: vec![format!("nft-{CHAIN}-{token}")] };
    let event = retraction.to_new_event(Uuid::now_v7(), Metadata::default()).unwrap();
    store.append(&chain_stream(CHAIN), ExpectedVersion::Any, vec![event]).await.unwrap();
}

/// Runs `check` on a fresh SQLite and a fresh Postgres read database (`dir` names the backend:
/// `sqlite` or `postgres`), each migrated as a deployment meets `version` (e.g. "0022"): the
/// migrations before it, then `seed` (rows folded then), then the others.
pub(crate) async fn across_migration(version: &str, seed: &str, check: impl AsyncFn(&str, &sqlx::AnyPool)) {
    sqlx::any::install_default_drivers();
    let sqlite = tempfile::tempdir().unwrap();
    let pg = TestPostgres::create().await;
    let sqlite_url = format!("sqlite://{}?mode=rwc", sqlite.path().join("old.db").display());
    for (dir, url) in [("sqlite", sqlite_url.as_str()), ("postgres", pg.url.as_str())] {
        let pool = sqlx::AnyPool::connect(url).await.unwrap();
        let migrations = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations").join(dir);
        let mut files: Vec<_> = std::fs::read_dir(&migrations).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        let (before, after): (Vec<_>, Vec<_>) = files.iter().partition(|f| f.file_name().unwrap().to_str().unwrap() < version);
        let before = before.iter().map(|f| std::fs::read_to_string(f).unwrap()).chain([seed.to_owned()]);
        for sql in before.chain(after.iter().map(|f| std::fs::read_to_string(f).unwrap())) {
            sqlx::raw_sql(&sql).execute(&pool).await.unwrap();
        }
        check(dir, &pool).await;
        pool.close().await;
    }
}

/// Appends chain events as the indexer would; returns their ids.
pub(crate) async fn append(store: &dyn EventStore, events: &[ChainEvent]) -> Vec<Uuid> {
    let mut ids = Vec::new();
    for (i, event) in events.iter().enumerate() {
        let id = chain_event_id(CHAIN, "0xblock", &format!("0x{i}"), i as u64, 0);
        let id = Uuid::new_v5(&id, Uuid::new_v4().as_bytes());
        ids.push(id);
        store
            .append_streams(vec![StreamAppend {
                stream_id: event.stream_id(CHAIN),
                expected: ExpectedVersion::Any,
                events: vec![event.to_new_event(id, Metadata::default()).unwrap()],
            }])
            .await
            .unwrap();
    }
    ids
}

fn minted(token: &str, creator: &str) -> ChainEvent {
    ChainEvent::NftMinted {
        token_id: token.into(),
        creator: creator.into(),
        token_uri: format!("ipfs://meta-{token}"),
        royalties: vec![Royalty { receiver: "0xroy".into(), bps: 250 }],
        origin: origin(1),
    }
}

fn auction(token: &str) -> ChainEvent {
    ChainEvent::SaleUpdated {
        token_id: token.into(),
        sale_type: SaleType::Auction,
        price: "5000".into(),
        base_price: "100".into(),
        end_time: 1_800_000_000,
        auction_id: "1".into(),
        origin: origin(2),
    }
}

fn bid(token: &str, bidder: &str, amount: &str, block: u64) -> ChainEvent {
    ChainEvent::BidPlaced {
        token_id: token.into(),
        auction_id: "1".into(),
        bidder: bidder.into(),
        amount: amount.into(),
        end_time: 1_800_000_000,
        origin: origin(block),
    }
}

fn refunded(token: &str, bidder: &str, amount: &str, block: u64) -> ChainEvent {
    ChainEvent::BidRefunded {
        token_id: token.into(),
        auction_id: "1".into(),
        bidder: bidder.into(),
        amount: amount.into(),
        origin: origin(block),
    }
}

/// A sale of `token` by `seller` to `buyer` (no fee, no royalties): `auction_id` "0" for a fixed price.
fn sold(token: &str, auction_id: &str, buyer: &str, seller: &str, price: &str, block: u64) -> ChainEvent {
    ChainEvent::NftSold {
        token_id: token.into(),
        auction_id: auction_id.into(),
        buyer: buyer.into(),
        seller: seller.into(),
        price: price.into(),
        fee: "0".into(),
        royalties: "0".into(),
        seller_proceeds: price.into(),
        origin: origin(block),
    }
}

fn transferred(token: &str, from: &str, to: &str, block: u64) -> ChainEvent {
    ChainEvent::NftTransferred { token_id: token.into(), from: from.into(), to: to.into(), origin: origin(block) }
}

/// A first offer (it replaces none), expiring far ahead, at a 5 % fee.
fn offer(token: &str, offerer: &str, amount: &str, block: u64) -> ChainEvent {
    ChainEvent::OfferMade {
        token_id: token.into(),
        offerer: offerer.into(),
        amount: amount.into(),
        expires_at: 1_900_000_000,
        fee_bps: 500,
        replaced_amount: "0".into(),
        origin: origin(block),
    }
}

struct Row_ {
    owner: String,
    sale_type: String,
    price: String,
    highest_bid: String,
    highest_bidder: Option<String>,
    transfers: i64,
    burned: bool,
}

async fn nft(db: &ReadDb, id: &str) -> Option<Row_> {
    let row = sqlx::query("SELECT owner, sale_type, price, highest_bid, highest_bidder, transfers, burned FROM nfts WHERE nft_id = $1")
        .bind(id)
        .fetch_optional(&db.pool())
        .await
        .unwrap()?;
    Some(Row_ {
        owner: row.get(0),
        sale_type: row.get(1),
        price: row.get(2),
        highest_bid: row.get(3),
        highest_bidder: row.get(4),
        transfers: row.get(5),
        burned: row.get::<i64, _>(6) == 1,
    })
}

pub(crate) async fn each_read_db(test: impl AsyncFn(Arc<dyn EventStore>, String)) {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn EventStore> = Arc::new(SqliteEventStore::open(&dir.path().join("events.db")).await.unwrap());
    test(store, format!("sqlite://{}", dir.path().join("read.db").display())).await;

    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn EventStore> = Arc::new(SqliteEventStore::open(&dir.path().join("events.db")).await.unwrap());
    let pg = TestPostgres::create().await;
    test(store, pg.url.clone()).await;
}

#[tokio::test]
async fn chain_events_fold_into_one_row_per_token() {
    each_read_db(async |store, url| {
        append(
            store.as_ref(),
            &[
                minted("1", "0xalice"),
                auction("1"),
                bid("1", "0xbob", "100", 3),
                bid("1", "0xcarol", "200", 4),
                refunded("1", "0xbob", "100", 4),
                minted("2", "0xalice"),
                ChainEvent::NftTransferred { token_id: "2".into(), from: "0xalice".into(), to: "0xdave".into(), origin: origin(5) },
                ChainEvent::NftBurned { token_id: "2".into(), owner: "0xdave".into(), origin: origin(6) },
            ],
        )
        .await;
        let db = ReadDb::open(&url).await.unwrap();

        let reached = Projector::new(store.clone(), db.clone()).await.unwrap().catch_up().await.unwrap();

        assert_eq!(reached, 8);
        let one = nft(&db, "80001-1").await.expect("token 1");
        assert_eq!((one.owner.as_str(), one.sale_type.as_str(), one.price.as_str()), ("0xalice", "AUCTION", "5000"));
        assert_eq!(
            (one.highest_bid.as_str(), one.highest_bidder.as_deref()),
            ("200", Some("0xcarol")),
            "the outbid refund leaves the new top bid"
        );
        let two = nft(&db, "80001-2").await.expect("token 2");
        assert_eq!((two.owner.as_str(), two.transfers, two.burned), ("0xdave", 1, true));
    })
    .await;
}

/// The listing's fee and end as the `nfts` and `auctions` rows hold them.
async fn fee_and_ends(db: &ReadDb, id: &str, auction_id: &str) -> (i64, i64, i64) {
    let row = sqlx::query("SELECT fee_bps, end_time FROM nfts WHERE nft_id = $1").bind(id).fetch_one(&db.pool()).await.unwrap();
    let auction_end: i64 = sqlx::query_scalar("SELECT end_time FROM auctions WHERE nft_id = $1 AND auction_id = $2")
        .bind(id)
        .bind(auction_id)
        .fetch_one(&db.pool())
        .await
        .unwrap();
    (row.get(0), row.get(1), auction_end)
}

#[tokio::test]
async fn a_sales_fee_snapshot_and_a_late_rejections_extension_are_recorded() {
    each_read_db(async |store, url| {
        let snapshot = |auction_id: &str, fee_bps: u32, block: u64| ChainEvent::ServiceFeeSnapshotted {
            token_id: "1".into(),
            auction_id: auction_id.into(),
            fee_bps,
            origin: origin(block),
        };
        append(
            store.as_ref(),
            &[
                minted("1", "0xalice"),
                auction("1"),
                snapshot("1", 500, 2),
                bid("1", "0xbob", "100", 3),
                ChainEvent::BidRejected {
                    token_id: "1".into(),
                    auction_id: "1".into(),
                    bidder: "0xbob".into(),
                    amount: "100".into(),
                    origin: origin(4),
                },
                ChainEvent::AuctionExtended { token_id: "1".into(), auction_id: "1".into(), end_time: 1_800_000_600, origin: origin(4) },
            ],
        )
        .await;
        let db = ReadDb::open(&url).await.unwrap();
        let projector = Projector::new(store.clone(), db.clone()).await.unwrap();

        projector.catch_up().await.unwrap();

        assert_eq!(fee_and_ends(&db, "80001-1", "1").await, (500, 1_800_000_600, 1_800_000_600), "the snapshot, the new end");
        let row = nft(&db, "80001-1").await.unwrap();
        assert_eq!((row.highest_bid.as_str(), row.highest_bidder), ("0", None), "the rejected bid is gone");

        // Stopping the sale clears the fee; a new sale takes its own snapshot.
        let fixed = ChainEvent::SaleUpdated {
            token_id: "1".into(),
            sale_type: SaleType::FixedPrice,
            price: "700".into(),
            base_price: "0".into(),
            end_time: 0,
            auction_id: "0".into(),
            origin: origin(6),
        };
        let stop = ChainEvent::SaleUpdated {
            token_id: "1".into(),
            sale_type: SaleType::NotForSale,
            price: "0".into(),
            base_price: "0".into(),
            end_time: 0,
            auction_id: "0".into(),
            origin: origin(5),
        };
        append(store.as_ref(), &[stop]).await;
        projector.catch_up().await.unwrap();
        assert_eq!(fee_and_ends(&db, "80001-1", "1").await.0, 0, "not for sale: no fee");
        append(store.as_ref(), &[fixed, snapshot("0", 1_000, 6)]).await;
        projector.catch_up().await.unwrap();
        assert_eq!(fee_and_ends(&db, "80001-1", "1").await.0, 1_000);
    })
    .await;
}

#[tokio::test]
async fn a_restarted_projector_resumes_from_its_checkpoint_without_doubling() {
    each_read_db(async |store, url| {
        append(
            store.as_ref(),
            &[
                minted("1", "0xalice"),
                ChainEvent::NftTransferred { token_id: "1".into(), from: "0xalice".into(), to: "0xbob".into(), origin: origin(2) },
            ],
        )
        .await;
        let db = ReadDb::open(&url).await.unwrap();
        Projector::new(store.clone(), db.clone()).await.unwrap().catch_up().await.unwrap();
        append(
            store.as_ref(),
            &[ChainEvent::NftTransferred { token_id: "1".into(), from: "0xbob".into(), to: "0xcarol".into(), origin: origin(3) }],
        )
        .await;

        let restarted = Projector::new(store.clone(), ReadDb::open(&url).await.unwrap()).await.unwrap();
        assert_eq!(restarted.handle().position(), 2, "resumes where it stopped");
        restarted.catch_up().await.unwrap();

        let row = nft(&db, "80001-1").await.unwrap();
        assert_eq!((row.owner.as_str(), row.transfers), ("0xcarol", 2), "each transfer applied exactly once");
    })
    .await;
}

#[tokio::test]
async fn retracted_events_are_undone_by_refolding_their_streams() {
    each_read_db(async |store, url| {
        let ids = append(store.as_ref(), &[minted("1", "0xalice"), auction("1"), bid("1", "0xbob", "100", 3)]).await;
        let db = ReadDb::open(&url).await.unwrap();
        let projector = Projector::new(store.clone(), db.clone()).await.unwrap();
        projector.catch_up().await.unwrap();
        assert_eq!(nft(&db, "80001-1").await.unwrap().highest_bid, "100");

        // A reorg drops block 3 (the bid); the canonical block 3 carries a different bid.
        retract(store.as_ref(), 3, 3, vec![ids[2]], "1").await;
        projector.catch_up().await.unwrap();
        let row = nft(&db, "80001-1").await.unwrap();
        assert_eq!((row.highest_bid.as_str(), row.highest_bidder), ("0", None), "the retracted bid is gone");
        assert_eq!(row.sale_type, "AUCTION", "the events before it still hold");

        append(store.as_ref(), &[bid("1", "0xcarol", "150", 3)]).await;
        projector.catch_up().await.unwrap();
        assert_eq!(nft(&db, "80001-1").await.unwrap().highest_bidder.as_deref(), Some("0xcarol"));
    })
    .await;
}
