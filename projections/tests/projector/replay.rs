//! Replay: a rebuild from the log gives the same read state as the live projector, and a
//! published generation is picked up by a running reader without a restart.

use domain::chain::{ChainEvent, SaleType};
use projections::{
    Projector, ReadDb,
    queries::{Page, nft},
};

use crate::{append, each_read_db, origin};

fn events(from: u32, to: u32) -> Vec<ChainEvent> {
    (from..to)
        .flat_map(|token| {
            let token_id = token.to_string();
            vec![
                ChainEvent::NftMinted {
                    token_id: token_id.clone(),
                    creator: "0xa".into(),
                    token_uri: "u".into(),
                    royalties: vec![],
                    origin: origin(1),
                },
                ChainEvent::SaleUpdated {
                    token_id: token_id.clone(),
                    sale_type: SaleType::Auction,
                    price: "900".into(),
                    base_price: "100".into(),
                    end_time: 4_000_000_000,
                    auction_id: token_id.clone(),
                    origin: origin(2),
                },
                ChainEvent::BidPlaced {
                    token_id,
                    auction_id: token.to_string(),
                    bidder: "0xb".into(),
                    amount: "150".into(),
                    end_time: 4_000_000_000,
                    origin: origin(3),
                },
            ]
        })
        .collect()
}

#[tokio::test]
async fn a_replay_equals_the_live_state_and_readers_switch_to_it() {
    each_read_db(async |store, url| {
        // Live: the projector follows the log as it grows, batch by batch.
        let live = ReadDb::open(&url).await.unwrap();
        let projector = Projector::new(store.clone(), live.clone()).await.unwrap();
        for round in 0..3 {
            append(store.as_ref(), &events(round * 10, round * 10 + 10)).await;
            projector.catch_up().await.unwrap();
        }
        let live_checksum = live.checksum().await.unwrap();

        // Replay: everything from the log into a fresh generation.
        let rebuilt = ReadDb::open_generation(&url, "g2").await.unwrap();
        let head = Projector::new(store.clone(), rebuilt.clone()).await.unwrap().catch_up().await.unwrap();
        assert_eq!(head, 90);
        assert_eq!(rebuilt.checksum().await.unwrap(), live_checksum, "replay == live");
        if rebuilt.is_sqlite() {
            // A fresh generation is filled without the indexes only queries use, then gets
            // them: it ends with the same ones as the live tables.
            let indexes = async |db: &ReadDb| -> Vec<(String, String)> {
                sqlx::query_as("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
                    .fetch_all(&db.pool())
                    .await
                    .unwrap()
            };
            let live_indexes = indexes(&live).await;
            assert!(live_indexes.iter().any(|(name, _)| name == "nfts_sale_price"));
            assert_eq!(indexes(&rebuilt).await, live_indexes);
        }

        // A different state has a different checksum.
        append(store.as_ref(), &events(30, 31)).await;
        Projector::new(store.clone(), rebuilt.clone()).await.unwrap().catch_up().await.unwrap();
        assert_ne!(rebuilt.checksum().await.unwrap(), live_checksum);

        // Publishing switches the running reader; its projector carries on from the new
        // generation's checkpoint and the live tables keep answering.
        rebuilt.publish().await.unwrap();
        append(store.as_ref(), &events(31, 32)).await;
        let at = projector.catch_up().await.unwrap();
        assert_eq!(live.generation(), "g2");
        let all = nft::explore(
            &live,
            &nft::Explore {
                category: None,
                sale: nft::SaleFilter::Auction,
                sort_by: nft::SortBy::Date,
                ascending: true,
                search: None,
                owners: None,
                creators: None,
                within: None,
                traits: Vec::new(),
                collection: None,
                viewer: None,
            },
            Page { page: 1, limit: 100 },
            at,
        )
        .await
        .unwrap();
        assert_eq!(all.total_items, 32);
        assert_eq!(ReadDb::open(&url).await.unwrap().generation(), "g2", "new readers open the published generation");
    })
    .await;
}

#[tokio::test]
async fn rows_are_read_from_the_published_generation() {
    each_read_db(async |store, url| {
        let all = nft::Explore {
            category: None,
            sale: nft::SaleFilter::All,
            sort_by: nft::SortBy::Date,
            ascending: true,
            search: None,
            owners: None,
            creators: None,
            within: None,
            traits: Vec::new(),
            collection: None,
            viewer: None,
        };
        let page = Page { page: 1, limit: 100 };
        let live = ReadDb::open(&url).await.unwrap();
        append(store.as_ref(), &events(0, 3)).await;
        let at = Projector::new(store.clone(), live.clone()).await.unwrap().catch_up().await.unwrap();
        // Read once, so that SQLite's read connections on the first generation are open.
        assert_eq!(nft::explore(&live, &all, page, at).await.unwrap().data.len(), 3);
        assert_eq!(nft::detail(&live, "80001-0").await.unwrap().unwrap().form_of_sale, "AUCTION");

        // The log moves on; a replay into a new generation has it, the live tables do not.
        let mut later = events(3, 4);
        later.push(ChainEvent::SaleUpdated {
            token_id: "0".into(),
            sale_type: SaleType::FixedPrice,
            price: "700".into(),
            base_price: "0".into(),
            end_time: 0,
            auction_id: "0".into(),
            origin: origin(5),
        });
        append(store.as_ref(), &later).await;
        let rebuilt = ReadDb::open_generation(&url, "g2").await.unwrap();
        let head = Projector::new(store.clone(), rebuilt.clone()).await.unwrap().catch_up().await.unwrap();
        assert!(nft::detail(&live, "80001-3").await.unwrap().is_none());

        rebuilt.publish().await.unwrap();
        assert!(live.refresh().await.unwrap());
        let page = nft::explore(&live, &all, page, head).await.unwrap();
        let ids: Vec<&str> = page.data.iter().map(|n| n.id.as_str()).collect();
        assert_eq!(ids, ["80001-0", "80001-1", "80001-2", "80001-3"]);
        assert_eq!((page.data[0].form_of_sale.as_str(), page.data[0].fixed_price_wei.as_str()), ("FIXEDPRICE", "700"));
        let token = nft::detail(&live, "80001-0").await.unwrap().unwrap();
        assert_eq!((token.form_of_sale.as_str(), token.fixed_price_wei.as_str()), ("FIXEDPRICE", "700"));
        assert!(nft::detail(&live, "80001-3").await.unwrap().is_some());
    })
    .await;
}
