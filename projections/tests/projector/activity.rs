//! The activity feed on a hand-made history: every kind with its price and counterpart, a sale's
//! own stop and transfer folded into the sale, the spec's history unchanged, the filters (kind,
//! NFT, collection, user) and paging; a replay equal to the live state, one event at a time.

use domain::{
    EventStore, ExpectedVersion, Metadata,
    chain::{ChainEvent, SaleType},
    collections::{CollectionEvent, collection_stream},
};
use projections::{
    Projector, ReadDb,
    queries::{
        Page,
        activity::{ActivityFilter, ActivityKind, ActivityView, activity},
        nft,
    },
    test_utils::register_user,
};
use uuid::Uuid;

use crate::{append, bid, each_read_db, minted, offer, origin, sold, transferred};

const A: &str = "0xa1";
const B: &str = "0xb2";
const C: &str = "0xc3";
const D: &str = "0xd4";
const ALL: Page = Page { page: 1, limit: 50 };

fn matic(n: u32) -> String {
    format!("{n}000000000000000000")
}

fn listed(token: &str, sale_type: SaleType, price: &str, base: &str, block: u64) -> ChainEvent {
    let auction = sale_type == SaleType::Auction;
    ChainEvent::SaleUpdated {
        token_id: token.into(),
        sale_type,
        price: price.into(),
        base_price: base.into(),
        end_time: if auction { 1_800_000_000 } else { 0 },
        auction_id: if auction { "1".into() } else { "0".into() },
        origin: origin(block),
    }
}

/// A mints 1, 2 and 3. Token 1: listed at 1, repriced to 2, bought by B (the sale's stop and
/// transfer come first in its transaction), given by B to C, offered 3 by D. Token 2: auctioned
/// from 0.5, bid 1 by B, won by B. Token 3: listed, taken off sale, burned.
fn history() -> Vec<ChainEvent> {
    let mut events: Vec<ChainEvent> = ["1", "2", "3"].into_iter().map(|t| minted(t, A)).collect();
    events.extend([
        listed("1", SaleType::FixedPrice, &matic(1), "0", 2),
        ChainEvent::PriceChanged { token_id: "1".into(), price: matic(2), origin: origin(3) },
        listed("1", SaleType::NotForSale, "0", "0", 4),
        transferred("1", A, B, 4),
        sold("1", "0", B, A, &matic(2), 4),
        transferred("1", B, C, 5),
        offer("1", D, &matic(3), 6),
        listed("2", SaleType::Auction, &matic(9), "500000000000000000", 7),
        bid("2", B, &matic(1), 8),
        ChainEvent::AuctionEnded { token_id: "2".into(), auction_id: "1".into(), winner: B.into(), amount: matic(1), origin: origin(9) },
        listed("2", SaleType::NotForSale, "0", "0", 9),
        transferred("2", A, B, 9),
        sold("2", "1", B, A, &matic(1), 9),
        listed("3", SaleType::FixedPrice, &matic(4), "0", 10),
        listed("3", SaleType::NotForSale, "0", "0", 11),
        ChainEvent::NftBurned { token_id: "3".into(), owner: A.into(), origin: origin(12) },
    ]);
    events
}

type Summary<'a> = (&'a str, ActivityKind, &'a str, Option<&'a str>, &'a str, Option<&'a str>);

/// (NFT, kind, event, price in MATIC, who, counterpart) of each row.
fn summary(rows: &[ActivityView]) -> Vec<Summary<'_>> {
    rows.iter()
        .map(|r| (r.nft_id.as_str(), r.kind, r.event.as_str(), r.price.as_deref(), r.address.as_str(), r.counterpart.as_deref()))
        .collect()
}

async fn feed(db: &ReadDb, filter: ActivityFilter<'_>) -> Vec<(String, ActivityKind)> {
    activity(db, filter, ALL).await.unwrap().data.into_iter().map(|r| (r.nft_id, r.kind)).collect()
}

#[tokio::test]
async fn the_feed_lists_every_kind_newest_first_with_prices_and_people() {
    each_read_db(async |store, url| {
        let (alice, bob) = (Uuid::now_v7(), Uuid::now_v7());
        register_user(store.as_ref(), alice, "alice", A, chrono::Utc::now()).await;
        register_user(store.as_ref(), bob, "bob", B, chrono::Utc::now()).await;
        append(store.as_ref(), &history()).await;
        let birds = Uuid::from_u128(7);
        let at = chrono::DateTime::from_timestamp(1_700_000_000, 0).unwrap();
        let events = [
            CollectionEvent::CollectionCreated {
                collection_id: birds,
                creator_user_id: alice,
                title: "Birds".into(),
                image: "x".into(),
                at,
            },
            CollectionEvent::NftAddedToCollection { nft_id: "80001-2".into(), at },
            CollectionEvent::NftAddedToCollection { nft_id: "80001-3".into(), at },
        ];
        let events = events.iter().map(|e| e.to_new_event(Metadata::default()).unwrap()).collect();
        store.append(&collection_stream(birds), ExpectedVersion::Any, events).await.unwrap();
        let db = ReadDb::open(&url).await.unwrap();
        Projector::new(store.clone(), db.clone()).await.unwrap().catch_up().await.unwrap();

        let all = activity(&db, ActivityFilter::default(), ALL).await.unwrap();
        use ActivityKind::*;
        assert_eq!(
            summary(&all.data),
            [
                ("80001-3", Burn, "BURNED", None, A, None),
                ("80001-3", Stop, "REMOVED_FROM_SALE", None, A, None),
                ("80001-3", List, "PUT_ON_FIXEDSALE", Some("4"), A, None),
                ("80001-2", Sale, "WON_AUCTION", Some("1"), B, Some(A)),
                ("80001-2", Bid, "BIDDED_FOR", Some("1"), B, Some(A)),
                ("80001-2", List, "PUT_ON_AUCTION", Some("0.5"), A, None),
                ("80001-1", Offer, "OFFER_MADE", Some("3"), D, None),
                ("80001-1", Transfer, "TRANSFERRED", None, B, Some(C)),
                ("80001-1", Sale, "PURCHASED", Some("2"), B, Some(A)),
                ("80001-1", Price, "PRICE_CHANGED", Some("2"), A, None),
                ("80001-1", List, "PUT_ON_FIXEDSALE", Some("1"), A, None),
                ("80001-3", Mint, "MINTED", None, A, None),
                ("80001-2", Mint, "MINTED", None, A, None),
                ("80001-1", Mint, "MINTED", None, A, None),
            ]
        );
        assert_eq!(all.total_items, 14);
        let sale = &all.data[8];
        assert_eq!(sale.price_wei.as_deref(), Some(matic(2).as_str()));
        assert_eq!(sale.user.as_ref().map(|p| p.username.as_str()), Some("bob"), "the buyer is Bob");
        assert_eq!(sale.counterpart_user.as_ref().map(|p| p.username.as_str()), Some("alice"), "the seller is Alice");
        assert_eq!(sale.transaction_hash, format!("0x{:064x}", 4));
        assert_eq!(sale.timestamp, "2023-11-14T22:13:24Z");
        assert!(all.data[7].counterpart_user.is_none(), "C is no user");

        // The spec's history of token 1 is as before: no price change, transfer or offer.
        let kinds: Vec<String> = nft::history(&db, "80001-1").await.unwrap().into_iter().map(|h| h.type_of_event).collect();
        assert_eq!(kinds, ["PURCHASED", "PUT_ON_FIXEDSALE", "MINTED"]);

        // By kind, NFT, collection, user; combined.
        let kind = |kind| ActivityFilter { kind: Some(kind), ..Default::default() };
        assert_eq!(feed(&db, kind(Sale)).await, [("80001-2".into(), Sale), ("80001-1".into(), Sale)]);
        assert_eq!(feed(&db, kind(Transfer)).await, [("80001-1".into(), Transfer)]);
        let one = ActivityFilter { nft_id: Some("80001-1"), ..Default::default() };
        assert_eq!(activity(&db, one, ALL).await.unwrap().total_items, 6);
        let collection = birds.to_string();
        let birds = ActivityFilter { collection_id: Some(&collection), ..Default::default() };
        let in_birds = feed(&db, birds).await;
        assert_eq!(in_birds.len(), 8);
        assert!(in_birds.iter().all(|(nft, _)| nft != "80001-1"));
        let bobs = bob.to_string();
        let bob_rows = ActivityFilter { user_id: Some(&bobs), ..Default::default() };
        assert_eq!(
            feed(&db, bob_rows).await,
            [("80001-2".into(), Sale), ("80001-2".into(), Bid), ("80001-1".into(), Transfer), ("80001-1".into(), Sale),],
            "as the doer and as the counterpart"
        );
        let bob_bids = ActivityFilter { kind: Some(Bid), ..bob_rows };
        assert_eq!(feed(&db, bob_bids).await, [("80001-2".into(), Bid)]);
        let nobody = Uuid::now_v7().to_string();
        assert_eq!(activity(&db, ActivityFilter { user_id: Some(&nobody), ..Default::default() }, ALL).await.unwrap().total_items, 0);

        // Paging.
        let first = activity(&db, ActivityFilter::default(), Page { page: 1, limit: 5 }).await.unwrap();
        assert_eq!((first.data.len(), first.total_items, first.last_page), (5, 14, false));
        let last = activity(&db, ActivityFilter::default(), Page { page: 3, limit: 5 }).await.unwrap();
        assert_eq!((last.data.len(), last.last_page), (4, true));
        assert_eq!(last.data[0].id, all.data[10].id);
    })
    .await;
}

#[tokio::test]
async fn a_replay_gives_the_live_feed() {
    each_read_db(async |store: std::sync::Arc<dyn EventStore>, url| {
        let live = ReadDb::open(&url).await.unwrap();
        let projector = Projector::new(store.clone(), live.clone()).await.unwrap();
        for event in history() {
            append(store.as_ref(), &[event]).await;
            projector.catch_up().await.unwrap();
        }
        let rebuilt = ReadDb::open_generation(&url, "g2").await.unwrap();
        Projector::new(store.clone(), rebuilt.clone()).await.unwrap().catch_up().await.unwrap();
        assert_eq!(rebuilt.checksum().await.unwrap(), live.checksum().await.unwrap(), "replay == live");
        let (live, rebuilt) = (
            activity(&live, ActivityFilter::default(), ALL).await.unwrap(),
            activity(&rebuilt, ActivityFilter::default(), ALL).await.unwrap(),
        );
        assert_eq!(live.data, rebuilt.data);
        assert_eq!(live.total_items, 14);
    })
    .await;
}

/// A user with two wallets: a row between them is theirs once, on every page, and counted once.
#[tokio::test]
async fn a_row_between_two_wallets_of_one_user_is_listed_and_counted_once() {
    each_read_db(async |store, url| {
        let carl = Uuid::now_v7();
        register_user(store.as_ref(), carl, "carl", B, chrono::Utc::now()).await;
        let linked = domain::accounts::UserEvent::WalletLinked {
            provider: domain::accounts::WalletProvider::Other,
            address: C.into(),
            at: chrono::Utc::now(),
        };
        let user = domain::accounts::user_stream(carl);
        store.append(&user, ExpectedVersion::Any, vec![linked.to_new_event(Metadata::default()).unwrap()]).await.unwrap();
        append(store.as_ref(), &history()).await;
        let db = ReadDb::open(&url).await.unwrap();
        Projector::new(store.clone(), db.clone()).await.unwrap().catch_up().await.unwrap();

        let id = carl.to_string();
        let carls = ActivityFilter { user_id: Some(&id), ..Default::default() };
        let expected: Vec<(String, ActivityKind)> = [
            ("80001-2", ActivityKind::Sale),
            ("80001-2", ActivityKind::Bid),
            ("80001-1", ActivityKind::Transfer),
            ("80001-1", ActivityKind::Sale),
        ]
        .map(|(nft, kind)| (nft.to_owned(), kind))
        .into();
        assert_eq!(feed(&db, carls).await, expected, "the transfer from B to C once");
        let mut paged = Vec::new();
        for number in 1..=5 {
            let page = activity(&db, carls, Page { page: number, limit: 1 }).await.unwrap();
            assert_eq!(page.total_items, 4, "page {number}");
            paged.extend(page.data.into_iter().map(|r| (r.nft_id, r.kind)));
        }
        assert_eq!(paged, expected, "one row a page, none twice");
        let transfers = ActivityFilter { kind: Some(ActivityKind::Transfer), ..carls };
        assert_eq!(activity(&db, transfers, ALL).await.unwrap().total_items, 1);
    })
    .await;
}

/// An `nft_history` row after migration 0010: position, type, kind, address, price, counterpart.
type Migrated = (i64, String, String, String, Option<String>, Option<String>);

/// Migration 0010 on tables folded before it: kinds, sale and bid prices, sellers, the owner a
/// bid went to, and the transfers from `owner_history` but a sale's own.
#[tokio::test]
async fn migration_0010_gives_older_rows_what_the_other_tables_say() {
    // Token 1: minted by A, listed, bought by B (its transfer in the sale's transaction), given
    // to C, bid on by D; token 2: minted.
    let seed = "INSERT INTO owner_history VALUES (1, '80001-1', '0xa', '0xt1', 100), (5, '80001-1', '0xb', '0xt4', 104), \
             (7, '80001-1', '0xc', '0xt5', 105), (9, '80001-2', '0xa', '0xt9', 109); \
             INSERT INTO nft_history (position, nft_id, type_of_event, address, tx_hash, at) VALUES \
             (1, '80001-1', 'MINTED', '0xa', '0xt1', 100), (3, '80001-1', 'PUT_ON_FIXEDSALE', '0xa', '0xt3', 103), \
             (6, '80001-1', 'PURCHASED', '0xb', '0xt4', 104), (8, '80001-1', 'BIDDED_FOR', '0xd', '0xt8', 108), \
             (9, '80001-2', 'MINTED', '0xa', '0xt9', 109); \
             INSERT INTO sales VALUES (6, '80001-1', '0', '0xa', '0xb', '2000', '0', '0', 104); \
             INSERT INTO bids VALUES (8, '80001-1', '1', '0xd', '700', '0xt8', 108, 'BID');";
    crate::across_migration("0010", seed, async |dir, pool| {
        let rows: Vec<Migrated> =
            sqlx::query_as("SELECT position, type_of_event, kind, address, price, counterpart FROM nft_history ORDER BY position")
                .fetch_all(pool)
                .await
                .unwrap();
        let some = |s: &str| Some(s.to_owned());
        let row = |p, e: &str, k: &str, a: &str, price, counterpart| (p, e.to_owned(), k.to_owned(), a.to_owned(), price, counterpart);
        assert_eq!(
            rows,
            [
                row(1, "MINTED", "MINT", "0xa", None, None),
                row(3, "PUT_ON_FIXEDSALE", "LIST", "0xa", None, None),
                row(6, "PURCHASED", "SALE", "0xb", some("2000"), some("0xa")),
                row(7, "TRANSFERRED", "TRANSFER", "0xb", None, some("0xc")),
                row(8, "BIDDED_FOR", "BID", "0xd", some("700"), some("0xc")),
                row(9, "MINTED", "MINT", "0xa", None, None),
            ],
            "{dir}"
        );
    })
    .await;
}
