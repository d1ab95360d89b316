//! Collection statistics and price history on a hand-made history with known answers, on both
//! databases: the floor after a sale, a relist and a price change, volume windows at their
//! edges, owners after transfers and a burn, and the ranking's sorts.

use std::sync::Arc;

use chrono::DateTime;
use domain::{
    EventStore, ExpectedVersion, Metadata,
    chain::{ChainEvent, Origin, SaleType},
    collections::{CollectionEvent, collection_stream},
};
use projections::{
    Projector, ReadDb,
    queries::{
        Page,
        insight::{self, DAY, Period, Ranking, StatsSort},
    },
    test_utils::register_user,
};
use uuid::Uuid;

use crate::{CHAIN, append, each_read_db};

const MATIC: u128 = 1_000_000_000_000_000_000;
/// The clock of the test: block times are given relative to it.
const NOW: i64 = 1_800_000_000;
const ALICE: Uuid = Uuid::from_u128(0xa11ce);
const BOB: Uuid = Uuid::from_u128(0xb0b);

fn at(time: i64, n: u64) -> Origin {
    Origin { block_number: n, block_time: time, tx_hash: format!("0x{n:064x}"), log_index: 0 }
}

fn minted(token: &str, n: u64) -> ChainEvent {
    ChainEvent::NftMinted {
        token_id: token.into(),
        creator: "0xa11ce".into(),
        token_uri: "ipfs://m".into(),
        royalties: vec![],
        origin: at(NOW - 40 * DAY, n),
    }
}

fn listed(token: &str, matic_tenths: u128, time: i64, n: u64) -> ChainEvent {
    ChainEvent::SaleUpdated {
        token_id: token.into(),
        sale_type: SaleType::FixedPrice,
        price: (matic_tenths * MATIC / 10).to_string(),
        base_price: "0".into(),
        end_time: 0,
        auction_id: "0".into(),
        origin: at(time, n),
    }
}

/// A fixed-price sale as the contract logs it: the sale cleared, the transfer, the sale.
fn sold(token: &str, seller: &str, buyer: &str, matic_tenths: u128, time: i64, n: u64) -> [ChainEvent; 3] {
    let price = (matic_tenths * MATIC / 10).to_string();
    [
        ChainEvent::SaleUpdated {
            token_id: token.into(),
            sale_type: SaleType::NotForSale,
            price: "0".into(),
            base_price: "0".into(),
            end_time: 0,
            auction_id: "0".into(),
            origin: at(time, n),
        },
        ChainEvent::NftTransferred { token_id: token.into(), from: seller.into(), to: buyer.into(), origin: at(time, n) },
        ChainEvent::NftSold {
            token_id: token.into(),
            auction_id: "0".into(),
            buyer: buyer.into(),
            seller: seller.into(),
            price: price.clone(),
            fee: "0".into(),
            royalties: "0".into(),
            seller_proceeds: price,
            origin: at(time, n),
        },
    ]
}

async fn collection(store: &dyn EventStore, id: Uuid, events: &[CollectionEvent]) {
    let events = events.iter().map(|e| e.to_new_event(Metadata::default()).unwrap()).collect();
    store.append(&collection_stream(id), ExpectedVersion::Any, events).await.unwrap();
}

fn created(id: Uuid, creator: Uuid, title: &str) -> CollectionEvent {
    CollectionEvent::CollectionCreated {
        collection_id: id,
        creator_user_id: creator,
        title: title.into(),
        image: "bafyimg".into(),
        at: DateTime::from_timestamp(NOW - 50 * DAY, 0).unwrap(),
    }
}

fn added(token: &str) -> CollectionEvent {
    CollectionEvent::NftAddedToCollection { nft_id: format!("{CHAIN}-{token}"), at: DateTime::from_timestamp(NOW - 50 * DAY, 0).unwrap() }
}

const BIRDS: Uuid = Uuid::from_u128(1);
const SHELLS: Uuid = Uuid::from_u128(2);
const EMPTY: Uuid = Uuid::from_u128(3);

/// Alice's "Birds" holds tokens 1 to 4 (all minted by her), listed at 1, 2 and 3 MATIC (4 not for
/// sale), then:
/// * 10 days ago (block time `NOW - 10 days`): token 1 sold to Bob for 1 MATIC (the floor: 2);
/// * 3 days ago: Bob relists token 1 at 0.5 MATIC (not on Alice's page: the floor stays 2), and
///   Alice's token 3 goes to 1.5 MATIC (the floor: 1.5);
/// * exactly 24 hours ago: Bob sells token 1 to Carol for 0.5 MATIC;
/// * 24 hours less a second ago: Alice sells token 2 to Dave for 2 MATIC;
/// * token 4 is given to Erin, then burned by her.
///
/// Bob's "Shells" (token 5, minted by Alice, given to Bob) sold once 2 days ago for 9 MATIC; an
/// empty collection of Bob's.
async fn history(store: &dyn EventStore) {
    let at0 = DateTime::from_timestamp(NOW - 60 * DAY, 0).unwrap();
    register_user(store, ALICE, "alice", "0xa11ce", at0).await;
    register_user(store, BOB, "bob", "0xb0b", at0).await;
    append(store, &[minted("1", 1), minted("2", 1), minted("3", 1), minted("4", 1), minted("5", 1)]).await;
    let listing_time = NOW - 30 * DAY;
    append(store, &[listed("1", 10, listing_time, 2), listed("2", 20, listing_time, 2), listed("3", 30, listing_time, 2)]).await;
    collection(store, BIRDS, &[created(BIRDS, ALICE, "Birds"), added("1"), added("2"), added("3"), added("4")]).await;
    append(store, &sold("1", "0xa11ce", "0xb0b", 10, NOW - 10 * DAY, 3)).await;
    append(store, &[listed("1", 5, NOW - 3 * DAY, 4)]).await;
    append(store, &[ChainEvent::PriceChanged { token_id: "3".into(), price: (15 * MATIC / 10).to_string(), origin: at(NOW - 3 * DAY, 5) }])
        .await;
    append(store, &sold("1", "0xb0b", "0xca401", 5, NOW - DAY, 6)).await;
    append(store, &sold("2", "0xa11ce", "0xda4e", 20, NOW - DAY + 1, 7)).await;
    append(
        store,
        &[
            ChainEvent::NftTransferred { token_id: "4".into(), from: "0xa11ce".into(), to: "0xe41a".into(), origin: at(NOW - DAY + 2, 8) },
            ChainEvent::NftBurned { token_id: "4".into(), owner: "0xe41a".into(), origin: at(NOW - DAY + 3, 9) },
        ],
    )
    .await;
    // Token 5 is Bob's: listed by him, in his collection, sold.
    append(
        store,
        &[ChainEvent::NftTransferred { token_id: "5".into(), from: "0xa11ce".into(), to: "0xb0b".into(), origin: at(NOW - 5 * DAY, 10) }],
    )
    .await;
    append(store, &[listed("5", 90, NOW - 5 * DAY, 11)]).await;
    collection(store, SHELLS, &[created(SHELLS, BOB, "Shells"), added("5")]).await;
    append(store, &sold("5", "0xb0b", "0xca401", 90, NOW - 2 * DAY, 12)).await;
    collection(store, EMPTY, &[created(EMPTY, BOB, "Empty")]).await;
}

fn wei(matic_tenths: u128) -> String {
    (matic_tenths * MATIC / 10).to_string()
}

#[tokio::test]
async fn collection_statistics_have_their_known_answers() {
    each_read_db(async |store: Arc<dyn EventStore>, url| {
        history(store.as_ref()).await;
        let db = ReadDb::open(&url).await.unwrap();
        Projector::new(store.clone(), db.clone()).await.unwrap().catch_up().await.unwrap();

        let birds = insight::collection(&db, &BIRDS.to_string(), NOW).await.unwrap().unwrap();
        let stats = &birds.stats;
        assert_eq!(stats.floor_price_wei, Some(wei(15)), "token 3 after its price change; Bob's relist of token 1 is not on the page");
        assert_eq!(stats.floor_price.as_deref(), Some("1.5"));
        assert_eq!((stats.items, stats.owners, stats.listed), (3, 3, 1), "token 4 burned; Carol, Dave and Alice own 1, 2 and 3");
        assert_eq!(stats.listed_share, 1.0 / 3.0);
        assert_eq!(stats.sales, 3);
        assert_eq!(stats.volume_all_wei, wei(35));
        // The 24 hours are (NOW - 24 h, NOW]: the sale at exactly NOW - 24 h is out, the one a
        // second later in.
        assert_eq!(stats.volume_24h_wei, wei(20));
        assert_eq!(stats.volume_7d_wei, wei(25));

        // Daily buckets: the floor was 1 before the first sale, 2 after it, 1.5 after the price
        // change; today's floor is the current one.
        let day_of = |t: i64| t.div_euclid(DAY) * DAY;
        let bucket = |t: i64| birds.days.iter().find(|d| d.day == day_of(t)).unwrap();
        assert_eq!(birds.days.first().unwrap().day, day_of(NOW - 30 * DAY), "from the first listing");
        assert_eq!(birds.days.last().unwrap().day, day_of(NOW));
        assert_eq!(bucket(NOW - 11 * DAY).floor_wei, Some(wei(10)));
        assert_eq!((bucket(NOW - 10 * DAY).floor_wei.clone(), bucket(NOW - 10 * DAY).volume_wei.clone()), (Some(wei(20)), wei(10)));
        assert_eq!(bucket(NOW - 3 * DAY).floor_wei, Some(wei(15)));
        assert_eq!(bucket(NOW).floor_wei, stats.floor_price_wei);
        assert_eq!(birds.days.iter().map(|d| d.sales).sum::<i64>(), 3);

        assert!(insight::collection(&db, &Uuid::from_u128(9).to_string(), NOW).await.unwrap().is_none());

        // A day later, only the 7-day window holds the two sales of yesterday.
        let later = insight::stats(&db, &[&BIRDS.to_string()], NOW + DAY).await.unwrap();
        let later = &later[&BIRDS.to_string()];
        assert_eq!((later.volume_24h_wei.as_str(), later.volume_7d_wei.as_str()), ("0", wei(25).as_str()));
    })
    .await;
}

#[tokio::test]
async fn the_ranking_sorts_by_each_column_with_the_change_over_the_period() {
    each_read_db(async |store: Arc<dyn EventStore>, url| {
        history(store.as_ref()).await;
        let db = ReadDb::open(&url).await.unwrap();
        Projector::new(store.clone(), db.clone()).await.unwrap().catch_up().await.unwrap();
        let page = Page { page: 1, limit: 10 };
        let order = async |period, sort, ascending| {
            let ranked = insight::ranking(&db, Ranking { period, sort, ascending }, page, NOW).await.unwrap();
            ranked.data.into_iter().map(|r| r.title).collect::<Vec<_>>()
        };
        assert_eq!(order(Period::All, StatsSort::Volume, false).await, ["Shells", "Birds", "Empty"]);
        assert_eq!(order(Period::Day, StatsSort::Volume, false).await, ["Birds", "Empty", "Shells"], "ties by title");
        assert_eq!(order(Period::Day, StatsSort::Volume, true).await, ["Empty", "Shells", "Birds"]);
        assert_eq!(order(Period::All, StatsSort::Floor, true).await, ["Birds", "Empty", "Shells"], "no floor last");
        assert_eq!(order(Period::All, StatsSort::Owners, false).await, ["Birds", "Shells", "Empty"]);
        assert_eq!(order(Period::All, StatsSort::Items, true).await, ["Empty", "Shells", "Birds"]);
        assert_eq!(order(Period::All, StatsSort::Title, true).await, ["Birds", "Empty", "Shells"]);
        assert_eq!(order(Period::Week, StatsSort::Sales, false).await, ["Birds", "Shells", "Empty"]);

        // The 24 hours against the 24 before: Birds sold 2 MATIC now, 0.5 MATIC before (+300 %).
        let ranked =
            insight::ranking(&db, Ranking { period: Period::Day, sort: StatsSort::Change, ascending: false }, page, NOW).await.unwrap();
        let birds = &ranked.data[0];
        assert_eq!((birds.title.as_str(), birds.rank, birds.volume_wei.as_str(), birds.sales), ("Birds", 1, wei(20).as_str(), 1));
        assert_eq!(birds.previous_volume.as_deref(), Some("0.5"));
        assert_eq!(birds.change, Some(300.0));
        assert_eq!(ranked.data[1].change, None, "nothing sold the day before");
        let all = insight::ranking(
            &db,
            Ranking { period: Period::All, sort: StatsSort::Volume, ascending: false },
            Page { page: 2, limit: 2 },
            NOW,
        )
        .await
        .unwrap();
        assert_eq!((all.data.len(), all.data[0].rank, all.total_items, all.last_page), (1, 3, 3, true));
        assert_eq!(all.data[0].change, None, "no change over all time");
    })
    .await;
}

#[tokio::test]
async fn an_nfts_price_history_holds_its_sales_and_bids_oldest_first() {
    each_read_db(async |store: Arc<dyn EventStore>, url| {
        history(store.as_ref()).await;
        let bid = ChainEvent::BidPlaced {
            token_id: "3".into(),
            auction_id: "1".into(),
            bidder: "0xb0b".into(),
            amount: wei(7),
            end_time: NOW + DAY,
            origin: at(NOW - 100, 20),
        };
        append(store.as_ref(), &[bid]).await;
        let db = ReadDb::open(&url).await.unwrap();
        Projector::new(store.clone(), db.clone()).await.unwrap().catch_up().await.unwrap();

        let one = insight::price_history(&db, &format!("{CHAIN}-1")).await.unwrap();
        let points = one.iter().map(|p| (p.kind.as_str(), p.price.as_str(), p.at, p.address.as_str())).collect::<Vec<_>>();
        assert_eq!(points, [("SALE", "1", NOW - 10 * DAY, "0xb0b"), ("SALE", "0.5", NOW - DAY, "0xca401")]);
        let three = insight::price_history(&db, &format!("{CHAIN}-3")).await.unwrap();
        assert_eq!(three.iter().map(|p| (p.kind.as_str(), p.price_wei.clone())).collect::<Vec<_>>(), [("BID", wei(7))]);
        assert!(insight::price_history(&db, &format!("{CHAIN}-4")).await.unwrap().is_empty(), "never sold nor bid on");
    })
    .await;
}
