//! Collections: folded from their streams, equal whether replayed or followed live, and shown
//! only with the members their creator still owns.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use domain::{
    EventStore, ExpectedVersion, Metadata,
    accounts::{UserEvent, WalletProvider},
    chain::{ChainEvent, SaleType},
    collections::{CollectionEvent, collection_stream},
};
use projections::{
    Projector, ReadDb,
    queries::{
        Page,
        collections::{self, Browse, CollectionSort},
    },
};
use uuid::Uuid;

use crate::{CHAIN, append, each_read_db, origin, retract};

fn at(seconds: i64) -> DateTime<Utc> {
    DateTime::from_timestamp(1_767_225_600 + seconds, 0).unwrap()
}

const ALICE: Uuid = Uuid::from_u128(0xa11ce);
const BOB: Uuid = Uuid::from_u128(0xb0b);

async fn user(store: &dyn EventStore, id: Uuid, name: &str, wallet: &str) {
    let events = [
        UserEvent::UserRegistered {
            user_id: id,
            email: format!("{name}@example.com"),
            username: name.into(),
            full_name: name.to_uppercase(),
            password_hash: "$argon2id$x".into(),
            auth_provider: domain::accounts::AuthProvider::Email,
            at: at(0),
        },
        UserEvent::WalletLinked { provider: WalletProvider::Other, address: wallet.into(), at: at(0) },
    ];
    let events = events.iter().map(|e| e.to_new_event(Metadata::default()).unwrap()).collect();
    store.append(&format!("user-{id}"), ExpectedVersion::Any, events).await.unwrap();
}

async fn collection(store: &dyn EventStore, id: Uuid, events: &[CollectionEvent]) {
    let events = events.iter().map(|e| e.to_new_event(Metadata::default()).unwrap()).collect();
    store.append(&collection_stream(id), ExpectedVersion::Any, events).await.unwrap();
}

fn created(id: Uuid, creator: Uuid, title: &str, second: i64) -> CollectionEvent {
    CollectionEvent::CollectionCreated {
        collection_id: id,
        creator_user_id: creator,
        title: title.into(),
        image: "bafyimg".into(),
        at: at(second),
    }
}

fn added(nft: &str) -> CollectionEvent {
    CollectionEvent::NftAddedToCollection { nft_id: format!("{CHAIN}-{nft}"), at: at(5) }
}

fn minted(token: &str, creator: &str) -> ChainEvent {
    ChainEvent::NftMinted {
        token_id: token.into(),
        creator: creator.into(),
        token_uri: "ipfs://m".into(),
        royalties: vec![],
        origin: origin(1),
    }
}

/// The token put on sale as `sale_type` (fixed price or auction).
fn on_sale(token: &str, sale_type: SaleType) -> ChainEvent {
    let auction = sale_type == SaleType::Auction;
    ChainEvent::SaleUpdated {
        token_id: token.into(),
        sale_type,
        price: "1000000000000000000".into(),
        base_price: if auction { "1".into() } else { "0".into() },
        end_time: if auction { 4_000_000_000 } else { 0 },
        auction_id: if auction { token.into() } else { "0".into() },
        origin: origin(2),
    }
}

fn browse(creator: Option<Uuid>, search: Option<&str>, viewer: Option<Uuid>) -> Browse {
    Browse {
        creator: creator.map(|c| c.to_string()),
        search: search.map(Into::into),
        sort_by: CollectionSort::Date,
        ascending: false,
        viewer: viewer.map(|v| v.to_string()),
        empty_last: false,
        verified_only: false,
    }
}

/// Alice with three tokens on sale at a fixed price in "Birds" (one liked by Bob), Bob with "Sea
/// shells", and a deleted collection of Alice's.
async fn history(store: &dyn EventStore) -> (Uuid, Uuid) {
    user(store, ALICE, "alice", "0xa11ce").await;
    user(store, BOB, "bob", "0xb0b").await;
    append(store, &[minted("1", "0xa11ce"), minted("2", "0xa11ce"), minted("3", "0xa11ce")]).await;
    append(store, &[on_sale("1", SaleType::FixedPrice), on_sale("2", SaleType::FixedPrice), on_sale("3", SaleType::FixedPrice)]).await;
    let (birds, shells, gone) = (Uuid::from_u128(1), Uuid::from_u128(2), Uuid::from_u128(3));
    collection(store, birds, &[created(birds, ALICE, "Birds", 1), added("1"), added("2"), added("3")]).await;
    collection(store, shells, &[created(shells, BOB, "Sea shells", 2)]).await;
    collection(store, gone, &[created(gone, ALICE, "Gone", 3), added("1"), CollectionEvent::CollectionDeleted { at: at(4) }]).await;
    let likes = [
        CollectionEvent::CollectionLiked { user_id: BOB, at: at(6) },
        CollectionEvent::CollectionLiked { user_id: ALICE, at: at(7) },
        CollectionEvent::CollectionUnliked { user_id: ALICE, at: at(8) },
        CollectionEvent::CollectionUpdated { title: "Birds of prey".into(), image: "bafynew".into(), at: at(9) },
    ];
    collection(store, birds, &likes).await;
    (birds, shells)
}

#[tokio::test]
async fn collections_fold_with_their_likes_and_members() {
    each_read_db(async |store: Arc<dyn EventStore>, url| {
        let (birds, shells) = history(store.as_ref()).await;
        let db = ReadDb::open(&url).await.unwrap();
        Projector::new(store.clone(), db.clone()).await.unwrap().catch_up().await.unwrap();

        let all = collections::browse(&db, &browse(None, None, Some(BOB)), Page { page: 1, limit: 9 }, db.position().await.unwrap())
            .await
            .unwrap();
        assert_eq!(all.total_items, 2, "the deleted one is gone");
        assert_eq!(all.data.iter().map(|c| c.title.as_str()).collect::<Vec<_>>(), ["Sea shells", "Birds of prey"], "newest first");
        let card = &all.data[1];
        assert_eq!(card.id, birds.to_string());
        assert_eq!((card.nft_count, card.total_items, card.total_likes), (3, 3, 1));
        assert!(card.is_liked, "Bob likes it");
        assert_eq!(card.image, "/ipfs/bafynew");
        assert_eq!((card.creator.username.as_str(), card.creator.full_name.as_str()), ("alice", "ALICE"));

        let mine =
            collections::browse(&db, &browse(Some(BOB), None, Some(ALICE)), Page { page: 1, limit: 9 }, db.position().await.unwrap())
                .await
                .unwrap();
        assert_eq!(mine.data.iter().map(|c| c.id.clone()).collect::<Vec<_>>(), [shells.to_string()]);
        let searched =
            collections::browse(&db, &browse(None, Some("PREY"), None), Page { page: 1, limit: 9 }, db.position().await.unwrap())
                .await
                .unwrap();
        assert_eq!((searched.total_items, searched.data[0].is_liked), (1, false));
        let past_the_end =
            collections::browse(&db, &browse(None, None, None), Page { page: 3, limit: 1 }, db.position().await.unwrap()).await.unwrap();
        assert_eq!((past_the_end.data.len(), past_the_end.total_items, past_the_end.last_page), (0, 2, true));

        assert!(collections::by_id(&db, &Uuid::from_u128(3).to_string(), None).await.unwrap().is_none(), "deleted");
        let mut shown = collections::shown_nfts(&db, &birds.to_string()).await.unwrap();
        shown.sort();
        assert_eq!(shown, ["80001-1", "80001-2", "80001-3"]);
    })
    .await;
}

#[tokio::test]
async fn an_nft_sold_or_burned_leaves_its_creators_collection_and_a_reorg_brings_it_back() {
    each_read_db(async |store: Arc<dyn EventStore>, url| {
        let (birds, _) = history(store.as_ref()).await;
        let db = ReadDb::open(&url).await.unwrap();
        let projector = Projector::new(store.clone(), db.clone()).await.unwrap();
        let transfer = ChainEvent::NftTransferred { token_id: "1".into(), from: "0xa11ce".into(), to: "0xb0b".into(), origin: origin(7) };
        let burn = ChainEvent::NftBurned { token_id: "2".into(), owner: "0xa11ce".into(), origin: origin(8) };
        let transfer_id = append(store.as_ref(), &[transfer]).await;
        append(store.as_ref(), &[burn]).await;
        projector.catch_up().await.unwrap();

        let card = collections::by_id(&db, &birds.to_string(), None).await.unwrap().unwrap();
        assert_eq!(card.nft_count, 1, "only token 3 is still Alice's");
        assert_eq!(collections::shown_nfts(&db, &birds.to_string()).await.unwrap(), ["80001-3"]);

        // The block with the transfer is retracted: token 1 is Alice's again, and shows again.
        retract(store.as_ref(), 7, 7, transfer_id, "1").await;
        projector.catch_up().await.unwrap();
        assert_eq!(collections::by_id(&db, &birds.to_string(), None).await.unwrap().unwrap().nft_count, 2);
    })
    .await;
}

#[tokio::test]
async fn a_replay_of_collections_equals_the_live_state() {
    each_read_db(async |store: Arc<dyn EventStore>, url| {
        let live = ReadDb::open(&url).await.unwrap();
        let projector = Projector::new(store.clone(), live.clone()).await.unwrap().with_batch_size(2);
        history(store.as_ref()).await;
        projector.catch_up().await.unwrap();
        let rebuilt = ReadDb::open_generation(&url, "g2").await.unwrap();
        Projector::new(store.clone(), rebuilt.clone()).await.unwrap().catch_up().await.unwrap();
        assert_eq!(rebuilt.checksum().await.unwrap(), live.checksum().await.unwrap());
    })
    .await;
}

#[tokio::test]
async fn a_card_counts_what_its_page_lists_and_the_grid_sorts_by_items_title_and_puts_empty_ones_last() {
    each_read_db(async |store: Arc<dyn EventStore>, url| {
        let (birds, shells) = history(store.as_ref()).await;
        // Token 4 in "Birds" too, but in an auction; token 5 not for sale: the page lists neither.
        append(store.as_ref(), &[minted("4", "0xa11ce"), minted("5", "0xa11ce"), on_sale("4", SaleType::Auction)]).await;
        collection(store.as_ref(), birds, &[added("4"), added("5")]).await;
        let aardvarks = Uuid::from_u128(4);
        append(store.as_ref(), &[minted("6", "0xb0b"), on_sale("6", SaleType::FixedPrice)]).await;
        collection(store.as_ref(), aardvarks, &[created(aardvarks, BOB, "aardvarks", 10), added("6")]).await;
        let db = ReadDb::open(&url).await.unwrap();
        Projector::new(store.clone(), db.clone()).await.unwrap().catch_up().await.unwrap();

        let card = collections::by_id(&db, &birds.to_string(), None).await.unwrap().unwrap();
        assert_eq!(card.nft_count, 3, "the auction and the token not for sale are not on its page");

        let page = Page { page: 1, limit: 9 };
        let titles = async |sort_by, ascending, empty_last| {
            let request = Browse { sort_by, ascending, empty_last, ..browse(None, None, None) };
            collections::browse(&db, &request, page, db.position().await.unwrap())
                .await
                .unwrap()
                .data
                .into_iter()
                .map(|c| c.title)
                .collect::<Vec<_>>()
        };
        assert_eq!(titles(CollectionSort::Date, false, false).await, ["aardvarks", "Sea shells", "Birds of prey"]);
        assert_eq!(titles(CollectionSort::Date, false, true).await, ["aardvarks", "Birds of prey", "Sea shells"], "the empty one last");
        assert_eq!(titles(CollectionSort::Items, false, true).await, ["Birds of prey", "aardvarks", "Sea shells"]);
        assert_eq!(titles(CollectionSort::Items, true, true).await, ["aardvarks", "Birds of prey", "Sea shells"], "empty last either way");
        assert_eq!(titles(CollectionSort::Title, true, false).await, ["aardvarks", "Birds of prey", "Sea shells"], "case-insensitive");
        assert_eq!(titles(CollectionSort::Title, false, true).await, ["Birds of prey", "aardvarks", "Sea shells"], "Z to A, empty last");
        let searched = Browse { search: Some("s".into()), empty_last: true, ..browse(None, None, None) };
        let searched = collections::browse(&db, &searched, page, db.position().await.unwrap()).await.unwrap();
        assert_eq!(searched.total_items, 3);
        assert_eq!(searched.data.last().map(|c| c.id.clone()), Some(shells.to_string()));
    })
    .await;
}
