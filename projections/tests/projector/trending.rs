//! Trending on a hand-made history whose order is known: recent activity beats old, volume
//! counts, likes count, and a replay gives the same lists.

use std::sync::Arc;

use chrono::DateTime;
use domain::{
    EventStore, ExpectedVersion, Metadata,
    chain::{ChainEvent, Origin, SaleType},
    social::{SocialEvent, social_stream},
};
use projections::{
    Projector, ReadDb,
    queries::{
        Page,
        trending::{self, PeopleKind, SALE_WEIGHT, TAU_SECONDS, decay},
    },
    test_utils::register_user,
};
use uuid::Uuid;

use crate::{append, each_read_db};

/// "Now" for every query here: one day after the history's start.
const NOW: i64 = 1_800_000_000;
const DAY: i64 = 86_400;
const ALICE: Uuid = Uuid::from_u128(0xa11ce);
const BOB: Uuid = Uuid::from_u128(0xb0b);
const CAROL: Uuid = Uuid::from_u128(0xca201);

fn at(time: i64, n: u64) -> Origin {
    Origin { block_number: n, block_time: time, tx_hash: format!("0x{n:064x}"), log_index: 0 }
}

const MATIC: u128 = 1_000_000_000_000_000_000;

async fn user(store: &dyn EventStore, id: Uuid, name: &str, wallet: &str) {
    register_user(store, id, name, wallet, DateTime::from_timestamp(NOW - 30 * DAY, 0).unwrap()).await;
}

fn mint(token: &str, creator: &str, n: u64) -> Vec<ChainEvent> {
    vec![
        ChainEvent::NftMinted {
            token_id: token.into(),
            creator: creator.into(),
            token_uri: "ipfs://m".into(),
            royalties: vec![],
            origin: at(NOW - 20 * DAY, n),
        },
        listing(token, NOW - 20 * DAY, n),
    ]
}

fn listing(token: &str, time: i64, n: u64) -> ChainEvent {
    ChainEvent::SaleUpdated {
        token_id: token.into(),
        sale_type: SaleType::FixedPrice,
        price: MATIC.to_string(),
        base_price: "0".into(),
        end_time: 0,
        auction_id: "0".into(),
        origin: at(time, n),
    }
}

fn sale(token: &str, seller: &str, buyer: &str, matic: u128, time: i64, n: u64) -> ChainEvent {
    ChainEvent::NftSold {
        token_id: token.into(),
        auction_id: "0".into(),
        buyer: buyer.into(),
        seller: seller.into(),
        price: (matic * MATIC).to_string(),
        fee: "0".into(),
        royalties: "0".into(),
        seller_proceeds: (matic * MATIC).to_string(),
        origin: at(time, n),
    }
}

async fn like(store: &dyn EventStore, user: Uuid, nft: &str, time: i64) {
    let event = SocialEvent::NftLiked { user_id: user, nft_id: nft.into(), at: DateTime::from_timestamp(time, 0).unwrap() };
    store.append(&social_stream(user), ExpectedVersion::Any, vec![event.to_new_event(Metadata::default()).unwrap()]).await.unwrap();
}

/// Tokens 1 and 2 are Alice's, 3 is Bob's, 4 is Carol's; all listed at a fixed price (the sold
/// ones again by their buyer).
/// * token 1: sold by Alice for 10 MATIC 20 days ago (long decayed);
/// * token 2: sold by Alice for 1 MATIC an hour ago;
/// * token 3: sold by Bob for 2 MATIC two hours ago;
/// * token 4: no sale, two likes an hour ago.
///
/// So: NFTs 3 (5 · e^(-2h/τ)) > 2 (4 · e^(-1h/τ)) > 4 (2 · e^(-1h/τ)) > 1 (13 · e^(-20d/τ));
/// sellers Bob > Alice; creators Bob > Alice > Carol.
async fn history(store: &dyn EventStore) {
    user(store, ALICE, "alice", "0xa11ce").await;
    user(store, BOB, "bob", "0xb0b").await;
    user(store, CAROL, "carol", "0xca201").await;
    let mut chain = Vec::new();
    for (n, (token, creator)) in [("1", "0xa11ce"), ("2", "0xa11ce"), ("3", "0xb0b"), ("4", "0xca201")].into_iter().enumerate() {
        chain.extend(mint(token, creator, n as u64));
    }
    chain.push(sale("1", "0xa11ce", "0xd00d", 10, NOW - 20 * DAY, 10));
    chain.push(sale("2", "0xa11ce", "0xd00d", 1, NOW - 3_600, 11));
    chain.push(sale("3", "0xb0b", "0xd00d", 2, NOW - 7_200, 12));
    // A sale ends the listing: the buyer lists each again.
    chain.extend((1..=3).map(|n| listing(&n.to_string(), NOW - 1_800, 12 + n)));
    append(store, &chain).await;
    like(store, ALICE, "80001-4", NOW - 3_600).await;
    like(store, BOB, "80001-4", NOW - 3_600).await;
}

#[tokio::test]
async fn trending_follows_the_documented_score_on_a_known_history() {
    each_read_db(async |store: Arc<dyn EventStore>, url| {
        history(store.as_ref()).await;
        let db = ReadDb::open(&url).await.unwrap();
        Projector::new(store.clone(), db.clone()).await.unwrap().catch_up().await.unwrap();
        let page = Page { page: 1, limit: 10 };
        let at = db.position().await.unwrap();

        let (ids, total) = trending::nft_ids(&db, None, page, NOW, at).await.unwrap();
        assert_eq!(ids, ["80001-3", "80001-2", "80001-4", "80001-1"]);
        assert_eq!(total, 4);
        let scores = trending::scores(&db, NOW).await.unwrap();
        let expected = (SALE_WEIGHT + 2.0) * decay(NOW, NOW - 7_200);
        assert!((scores.nfts["80001-3"] - expected).abs() < 1e-9, "{} != {expected}", scores.nfts["80001-3"]);
        assert!((scores.nfts["80001-4"] - 2.0 * (-3_600.0 / TAU_SECONDS).exp()).abs() < 1e-9);
        let old = (SALE_WEIGHT + 10.0) * decay(NOW, NOW - 20 * DAY);
        assert!((scores.nfts["80001-1"] - old).abs() < 1e-9, "20 days old: 13 × e^(-20/3) ≈ 0.017");

        let sellers = trending::people(&db, PeopleKind::Seller, page, NOW, at).await.unwrap();
        let names = |cards: &[trending::PersonCard]| cards.iter().map(|c| c.username.clone()).collect::<Vec<_>>();
        assert_eq!(names(&sellers.data), ["bob", "alice"], "Carol sold nothing");
        assert_eq!((sellers.data[1].total_sold, sellers.data[1].total_creations), (2, 2));
        let creators = trending::people(&db, PeopleKind::Creator, page, NOW, at).await.unwrap();
        assert_eq!(names(&creators.data), ["bob", "alice", "carol"]);

        // Thirty days on, nothing is recent: ties fall back to popularity, then counts.
        let later = NOW + 60 * DAY;
        let (ids, _) = trending::nft_ids(&db, Some("FIXEDPRICE"), page, later, at).await.unwrap();
        assert_eq!(ids, ["80001-4", "80001-3", "80001-2", "80001-1"], "equal popularity (a sale counts 2, a like 1), then the id");
        let creators = trending::people(&db, PeopleKind::Creator, page, later, at).await.unwrap();
        assert_eq!(names(&creators.data), ["alice", "bob", "carol"], "most creations first");

        // A replay gives the same lists.
        let rebuilt = ReadDb::open_generation(&url, "g2").await.unwrap();
        Projector::new(store.clone(), rebuilt.clone()).await.unwrap().catch_up().await.unwrap();
        assert_eq!(
            trending::nft_ids(&rebuilt, None, page, NOW, rebuilt.position().await.unwrap()).await.unwrap().0,
            ["80001-3", "80001-2", "80001-4", "80001-1"]
        );
    })
    .await;
}
