//! Likes and bookmarks: their tables, `total_likes`, the LIKED / UNLIKED history, the browse
//! index's popularity, under batches of any size, a fresh fill, and reorg refolds.

use std::sync::Arc;

use chrono::DateTime;
use domain::{EventStore, ExpectedVersion, Metadata, chain::ChainEvent, social::SocialEvent};
use projections::{
    Projector, ReadDb,
    queries::{
        Page,
        nft::{self, Explore, SaleFilter, SortBy},
        social::{bookmarked, viewer_flags},
    },
};
use uuid::Uuid;

use super::{CHAIN, append, each_read_db, minted, origin, retract};

fn user(n: u128) -> Uuid {
    Uuid::from_u128(n)
}

/// Appends a user's like or bookmark event, as the API does.
async fn social(store: &dyn EventStore, event: SocialEvent) {
    let stream = domain::social::social_stream(event.user_id());
    store.append(&stream, ExpectedVersion::Any, vec![event.to_new_event(Metadata::default()).unwrap()]).await.unwrap();
}

fn at() -> DateTime<chrono::Utc> {
    DateTime::from_timestamp(1_767_225_600, 0).unwrap()
}

fn like(n: u128, token: &str) -> SocialEvent {
    SocialEvent::NftLiked { user_id: user(n), nft_id: format!("{CHAIN}-{token}"), at: at() }
}

fn unlike(n: u128, token: &str) -> SocialEvent {
    SocialEvent::NftUnliked { user_id: user(n), nft_id: format!("{CHAIN}-{token}"), at: at() }
}

fn bookmark(n: u128, token: &str) -> SocialEvent {
    SocialEvent::NftBookmarked { user_id: user(n), nft_id: format!("{CHAIN}-{token}"), at: at() }
}

fn unbookmark(n: u128, token: &str) -> SocialEvent {
    SocialEvent::NftUnbookmarked { user_id: user(n), nft_id: format!("{CHAIN}-{token}"), at: at() }
}

fn listed(token: &str) -> ChainEvent {
    ChainEvent::SaleUpdated {
        token_id: token.into(),
        sale_type: domain::chain::SaleType::FixedPrice,
        price: "1000".into(),
        base_price: "0".into(),
        end_time: 0,
        auction_id: "0".into(),
        origin: origin(2),
    }
}

async fn total_likes(db: &ReadDb, token: &str) -> Option<i64> {
    projections::queries::social::total_likes(db, &format!("{CHAIN}-{token}")).await.unwrap()
}

/// The tokens of the most popular listings first.
async fn by_popularity(db: &ReadDb, at: u64) -> Vec<String> {
    let request = Explore { sale: SaleFilter::FixedPrice, ..Explore::all(SortBy::Popularity) };
    nft::explore(db, &request, Page { page: 1, limit: 10 }, at).await.unwrap().data.into_iter().map(|n| n.id).collect()
}

/// The history's kinds, newest first.
async fn history(db: &ReadDb, token: &str) -> Vec<(String, Option<String>)> {
    nft::history(db, &format!("{CHAIN}-{token}")).await.unwrap().into_iter().map(|h| (h.type_of_event, h.user_id)).collect()
}

#[tokio::test]
async fn likes_count_per_token_and_toggle_back_and_bookmarks_stand_apart() {
    each_read_db(async |store, url| {
        append(store.as_ref(), &[minted("1", "0xalice"), listed("1"), minted("2", "0xalice"), listed("2")]).await;
        for event in [like(1, "1"), like(2, "1"), like(3, "2"), unlike(1, "1"), bookmark(1, "2"), bookmark(2, "2"), unbookmark(2, "2")] {
            social(store.as_ref(), event).await;
        }
        let db = ReadDb::open(&url).await.unwrap();

        let reached = Projector::new(store.clone(), db.clone()).await.unwrap().catch_up().await.unwrap();

        assert_eq!((total_likes(&db, "1").await, total_likes(&db, "2").await), (Some(1), Some(1)));
        let flags = viewer_flags(&db, &user(1).to_string(), &["80001-1", "80001-2"]).await.unwrap();
        assert_eq!(flags.of("80001-1"), (false, false), "liked, then unliked");
        assert_eq!(flags.of("80001-2"), (false, true));
        assert_eq!(viewer_flags(&db, &user(2).to_string(), &["80001-1", "80001-2"]).await.unwrap().of("80001-1"), (true, false));
        let alice = user(1).to_string();
        let kinds = history(&db, "1").await;
        assert_eq!(
            kinds,
            [
                ("UNLIKED".to_owned(), Some(alice.clone())),
                ("LIKED".to_owned(), Some(user(2).to_string())),
                ("LIKED".to_owned(), Some(alice.clone())),
                ("PUT_ON_FIXEDSALE".to_owned(), None),
                ("MINTED".to_owned(), None),
            ]
        );
        let favourites = bookmarked(&db, &alice, Explore::all(SortBy::Date), Page { page: 1, limit: 9 }, reached).await.unwrap();
        assert_eq!(favourites.data.iter().map(|n| n.id.as_str()).collect::<Vec<_>>(), ["80001-2"]);
        let none = bookmarked(&db, &user(2).to_string(), Explore::all(SortBy::Date), Page { page: 1, limit: 9 }, reached).await.unwrap();
        assert_eq!(none.total_items, 0, "bookmarked, then removed");
    })
    .await;
}

#[tokio::test]
async fn the_popularity_order_follows_likes_as_they_come() {
    each_read_db(async |store, url| {
        append(store.as_ref(), &[minted("1", "0xalice"), listed("1"), minted("2", "0xalice"), listed("2")]).await;
        let db = ReadDb::open(&url).await.unwrap();
        let projector = Projector::new(store.clone(), db.clone()).await.unwrap();
        let at = projector.catch_up().await.unwrap();
        assert_eq!(by_popularity(&db, at).await, ["80001-2", "80001-1"], "equals: the larger id first");

        social(store.as_ref(), like(1, "1")).await;
        let at = projector.catch_up().await.unwrap();
        assert_eq!(by_popularity(&db, at).await, ["80001-1", "80001-2"], "a like makes token 1 the more popular");

        for event in [like(1, "2"), like(2, "2"), unlike(1, "1")] {
            social(store.as_ref(), event).await;
        }
        let at = projector.catch_up().await.unwrap();
        assert_eq!(by_popularity(&db, at).await, ["80001-2", "80001-1"]);
        assert_eq!(nft::detail(&db, "80001-2").await.unwrap().unwrap().total_likes, 2);
    })
    .await;
}

#[tokio::test]
async fn a_reorg_refolding_a_token_keeps_its_likes_and_a_re_mint_counts_them_again() {
    each_read_db(async |store, url| {
        let ids = append(store.as_ref(), &[minted("1", "0xalice"), listed("1")]).await;
        for event in [like(1, "1"), like(2, "1"), bookmark(1, "1")] {
            social(store.as_ref(), event).await;
        }
        let db = ReadDb::open(&url).await.unwrap();
        let projector = Projector::new(store.clone(), db.clone()).await.unwrap();
        projector.catch_up().await.unwrap();
        assert_eq!(total_likes(&db, "1").await, Some(2));

        // A reorg drops the listing: the token's stream is refolded, its row written again.
        retract(store.as_ref(), 2, 2, vec![ids[1]], "1").await;
        let at = projector.catch_up().await.unwrap();
        assert_eq!(total_likes(&db, "1").await, Some(2), "the refold keeps the likes");
        let request = Explore { sale: SaleFilter::All, ..Explore::all(SortBy::Popularity) };
        let page = nft::explore(&db, &request, Page { page: 1, limit: 9 }, at).await.unwrap();
        assert_eq!(page.data[0].total_likes, 2);

        // A deeper one drops the mint: no token, but the likes stay (off-chain facts)...
        retract(store.as_ref(), 1, 1, vec![ids[0]], "1").await;
        projector.catch_up().await.unwrap();
        assert_eq!(total_likes(&db, "1").await, None);
        assert_eq!(viewer_flags(&db, &user(1).to_string(), &["80001-1"]).await.unwrap().of("80001-1"), (true, true));
        social(store.as_ref(), unlike(2, "1")).await;
        // ... and count again once it is minted on the canonical chain.
        append(store.as_ref(), &[minted("1", "0xalice")]).await;
        projector.catch_up().await.unwrap();
        assert_eq!(total_likes(&db, "1").await, Some(1), "alice's like, bob's taken back meanwhile");
        let liked: Vec<String> = history(&db, "1").await.into_iter().map(|(kind, _)| kind).filter(|k| k.contains("LIKED")).collect();
        assert_eq!(liked, ["UNLIKED", "LIKED", "LIKED"]);
    })
    .await;
}

/// A history with likes of every shape: toggles, likes before a reorg refold, a like of a token
/// whose mint a reorg retracted and that is minted again.
async fn social_history(store: &Arc<dyn EventStore>) {
    let ids = append(store.as_ref(), &[minted("1", "0xalice"), listed("1"), minted("2", "0xbob"), listed("2")]).await;
    for n in 1..=20u128 {
        social(store.as_ref(), like(n, if n % 3 == 0 { "2" } else { "1" })).await;
        if n % 4 == 0 {
            social(store.as_ref(), unlike(n, if n % 3 == 0 { "2" } else { "1" })).await;
        }
        if n % 5 == 0 {
            social(store.as_ref(), bookmark(n, "1")).await;
        }
    }
    retract(store.as_ref(), 2, 2, vec![ids[1]], "1").await;
    social(store.as_ref(), like(30, "2")).await;
    retract(store.as_ref(), 1, 1, vec![ids[2]], "2").await;
    social(store.as_ref(), unlike(30, "2")).await;
    append(store.as_ref(), &[minted("2", "0xbob")]).await;
    social(store.as_ref(), like(31, "2")).await;
}

#[tokio::test]
async fn likes_fold_the_same_in_any_batch_size_filled_fresh_or_in_place() {
    each_read_db(async |store, url| {
        social_history(&store).await;
        let fold = async |db: ReadDb, batch: usize| {
            Projector::new(store.clone(), db.clone()).await.unwrap().with_batch_size(batch).catch_up().await.unwrap();
            let likes = (total_likes(&db, "1").await, total_likes(&db, "2").await);
            (db.checksum().await.unwrap(), likes)
        };

        let one_by_one = fold(ReadDb::open_generation(&url, "one").await.unwrap(), 1).await;
        for batch in [3, 17, 10_000] {
            let filled = fold(ReadDb::open_generation(&url, &format!("b{batch}")).await.unwrap(), batch).await;
            assert_eq!(filled, one_by_one, "filled fresh {batch} events at a time");
        }
        let in_place = fold(ReadDb::open(&url).await.unwrap(), 5).await;
        assert_eq!(in_place, one_by_one, "written in place");
        // Token 1: likes of n not divisible by 3, less those of multiples of 4 (taken back).
        let expected_one = (1..=20).filter(|n| n % 3 != 0 && n % 4 != 0).count() as i64;
        let expected_two = (1..=20).filter(|n| n % 3 == 0 && n % 4 != 0).count() as i64 + 1;
        assert_eq!(one_by_one.1, (Some(expected_one), Some(expected_two)));
    })
    .await;
}
