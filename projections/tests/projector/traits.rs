//! Trait facets and rarity over tables the projector filled, on SQLite and Postgres: counts
//! against a brute-force count of seeded random data, and ranks that follow membership, burns
//! and changed properties.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use domain::{
    EventStore, ExpectedVersion, Metadata,
    catalog::{CatalogEvent, Property},
    chain::{ChainEvent, SaleType},
    collections::{CollectionEvent, collection_stream},
};
use projections::{
    Projector, ReadDb,
    queries::{
        Page,
        nft::{self, Explore, SaleFilter, SortBy, TraitFilter},
    },
};
use uuid::Uuid;

use crate::{append, each_read_db, origin};

/// A seeded generator (splitmix64): the same random market on every run.
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

const TRAITS: [(&str, usize); 3] = [("Background", 4), ("Eyes", 3), ("Hat", 6)];

fn minted(token: u32) -> ChainEvent {
    ChainEvent::NftMinted {
        token_id: token.to_string(),
        creator: "0xcreator".into(),
        token_uri: format!("/ipfs/meta{token}"),
        royalties: vec![],
        origin: origin(u64::from(token)),
    }
}

async fn details(store: &dyn EventStore, token: u32, properties: &[(String, String)]) {
    let event = CatalogEvent::NftDetailsRecorded {
        chain_id: 80001,
        token_id: token.to_string(),
        title: format!("Token {token}"),
        description: String::new(),
        category_id: if token.is_multiple_of(2) { "art".into() } else { "music".into() },
        file: format!("/ipfs/img{token}"),
        metadata_url: format!("/ipfs/meta{token}"),
        properties: properties.iter().map(|(key, value)| Property { key: key.clone(), value: value.clone() }).collect(),
        creator_user_id: None,
    };
    store.append(&event.stream_id(), ExpectedVersion::Any, vec![event.to_new_event(Metadata::default()).unwrap()]).await.unwrap();
}

fn when() -> DateTime<Utc> {
    DateTime::from_timestamp(1_767_225_600, 0).unwrap()
}

async fn collection(store: &dyn EventStore, id: Uuid, events: &[CollectionEvent]) {
    let events = events.iter().map(|e| e.to_new_event(Metadata::default()).unwrap()).collect();
    store.append(&collection_stream(id), ExpectedVersion::Any, events).await.unwrap();
}

/// A random property list: each trait on about three tokens in four.
fn random_properties(random: &mut Random) -> Vec<(String, String)> {
    let mut properties = Vec::new();
    for (name, values) in TRAITS {
        if random.below(4) > 0 {
            properties.push((name.to_string(), format!("{name} {}", random.below(values))));
        }
    }
    properties
}

/// A token of the random market: its properties, sale type and category.
type Listing = (Vec<(String, String)>, &'static str, &'static str);

#[tokio::test]
async fn facet_counts_equal_a_brute_force_count_of_random_properties() {
    each_read_db(async |store, url| {
        let mut random = Random(42);
        let mut tokens: BTreeMap<String, Listing> = BTreeMap::new();
        for token in 1..=120u32 {
            let properties = random_properties(&mut random);
            append(store.as_ref(), &[minted(token)]).await;
            details(store.as_ref(), token, &properties).await;
            let sale = match random.below(3) {
                0 => "NOT_FOR_SALE",
                1 => {
                    let listed = ChainEvent::SaleUpdated {
                        token_id: token.to_string(),
                        sale_type: SaleType::FixedPrice,
                        price: "1000".into(),
                        base_price: "0".into(),
                        end_time: 0,
                        auction_id: "0".into(),
                        origin: origin(1_000 + u64::from(token)),
                    };
                    append(store.as_ref(), &[listed]).await;
                    "FIXEDPRICE"
                }
                _ => "NOT_FOR_SALE",
            };
            tokens.insert(format!("80001-{token}"), (properties, sale, if token.is_multiple_of(2) { "art" } else { "music" }));
        }
        let db = ReadDb::open(&url).await.unwrap();
        let at = Projector::new(store.clone(), db.clone()).await.unwrap().catch_up().await.unwrap();

        for _ in 0..40 {
            let sale = [SaleFilter::All, SaleFilter::FixedPrice][random.below(2)];
            let category = [None, Some("art")][random.below(2)];
            let mut filters: Vec<TraitFilter> = Vec::new();
            for _ in 0..random.below(3) {
                let (name, values) = TRAITS[random.below(TRAITS.len())];
                if filters.iter().any(|f| f.name == name) {
                    continue;
                }
                let wanted = (0..1 + random.below(2)).map(|_| format!("{name} {}", random.below(values))).collect();
                filters.push(TraitFilter { name: name.into(), values: wanted });
            }
            let request = Explore { sale, category: category.map(Into::into), traits: filters.clone(), ..Explore::all(SortBy::Date) };
            // Brute force: the tokens the other filters keep, counted per value.
            let keeps = |(properties, on_sale, cat): &Listing, skip: Option<&str>| {
                (sale == SaleFilter::All || *on_sale == "FIXEDPRICE")
                    && category.is_none_or(|c| c == *cat)
                    && filters
                        .iter()
                        .filter(|f| Some(f.name.as_str()) != skip)
                        .all(|f| properties.iter().any(|(n, v)| *n == f.name && f.values.contains(v)))
            };
            let facets = nft::facets(&db, &request, 100, at).await.unwrap();
            let total = tokens.values().filter(|t| keeps(t, None)).count() as u64;
            assert_eq!(facets.total, total, "{request:?}");
            let listed = nft::explore(&db, &request, Page { page: 1, limit: 200 }, at).await.unwrap();
            assert_eq!(listed.total_items as u64, total);
            for (id, token) in &tokens {
                assert_eq!(listed.data.iter().any(|v| v.id == *id), keeps(token, None), "{id} {request:?}");
            }
            for (name, _) in TRAITS {
                let mut expected: BTreeMap<&str, u64> = BTreeMap::new();
                for token in tokens.values().filter(|t| keeps(t, Some(name))) {
                    for (_, value) in token.0.iter().filter(|(n, _)| n == name) {
                        *expected.entry(value).or_default() += 1;
                    }
                }
                let got: BTreeMap<&str, u64> = facets
                    .traits
                    .iter()
                    .filter(|f| f.name == name)
                    .flat_map(|f| f.values.iter().filter(|v| v.count > 0).map(|v| (v.value.as_str(), v.count)))
                    .collect();
                assert_eq!(got, expected, "{name} in {request:?}");
            }
        }
    })
    .await;
}

#[tokio::test]
async fn ranks_follow_membership_burns_and_changed_properties() {
    each_read_db(async |store, url| {
        let colour = |c: &str| vec![("Colour".to_owned(), c.to_owned())];
        for (token, c) in [(1, "red"), (2, "red"), (3, "blue"), (4, "green")] {
            append(store.as_ref(), &[minted(token)]).await;
            details(store.as_ref(), token, &colour(c)).await;
        }
        let id = Uuid::from_u128(7);
        collection(
            store.as_ref(),
            id,
            &[
                CollectionEvent::CollectionCreated {
                    collection_id: id,
                    creator_user_id: Uuid::from_u128(1),
                    title: "C".into(),
                    image: "i".into(),
                    at: when(),
                },
                CollectionEvent::NftAddedToCollection { nft_id: "80001-1".into(), at: when() },
                CollectionEvent::NftAddedToCollection { nft_id: "80001-2".into(), at: when() },
                CollectionEvent::NftAddedToCollection { nft_id: "80001-3".into(), at: when() },
            ],
        )
        .await;
        let db = ReadDb::open(&url).await.unwrap();
        let projector = Projector::new(store.clone(), db.clone()).await.unwrap();
        let rank = async |db: &ReadDb, token: &str, at| nft::rarities(db, token, at).await.unwrap().first().map(|r| (r.rank, r.of));

        // red, red, blue: blue is the rarest, the reds share the next rank.
        let at = projector.catch_up().await.unwrap();
        assert_eq!(rank(&db, "80001-3", at).await, Some((1, 3)));
        assert_eq!(rank(&db, "80001-1", at).await, Some((2, 3)));
        assert_eq!(rank(&db, "80001-4", at).await, None, "not a member");

        // Green joins: blue and green tie for the first rank; the reds come third.
        collection(store.as_ref(), id, &[CollectionEvent::NftAddedToCollection { nft_id: "80001-4".into(), at: when() }]).await;
        let at = projector.catch_up().await.unwrap();
        assert_eq!((rank(&db, "80001-3", at).await, rank(&db, "80001-4", at).await), (Some((1, 4)), Some((1, 4))));
        assert_eq!(rank(&db, "80001-2", at).await, Some((3, 4)));

        // Token 2 turns blue, token 4 is burned, token 1 leaves: blue, blue left; they tie.
        details(store.as_ref(), 2, &colour("blue")).await;
        append(store.as_ref(), &[ChainEvent::NftBurned { token_id: "4".into(), owner: "0xcreator".into(), origin: origin(500) }]).await;
        collection(store.as_ref(), id, &[CollectionEvent::NftRemovedFromCollection { nft_id: "80001-1".into(), at: when() }]).await;
        let at = projector.catch_up().await.unwrap();
        assert_eq!((rank(&db, "80001-2", at).await, rank(&db, "80001-3", at).await), (Some((1, 2)), Some((1, 2))));
        assert_eq!(rank(&db, "80001-1", at).await, None);

        // Deleting the collection leaves no ranks.
        collection(store.as_ref(), id, &[CollectionEvent::CollectionDeleted { at: when() }]).await;
        let at = projector.catch_up().await.unwrap();
        assert_eq!(rank(&db, "80001-3", at).await, None);

        // Sorted by rarity in the collection: none left to sort.
        let by_rarity = Explore { collection: Some(id.to_string()), ..Explore::all(SortBy::Rarity) };
        let page = nft::explore(&db, &by_rarity, Page { page: 1, limit: 10 }, at).await.unwrap();
        assert!(page.data.iter().all(|v| v.rarity.is_none()));
    })
    .await;
}
