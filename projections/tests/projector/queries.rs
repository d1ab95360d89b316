//! The queries the read API serves, over tables the projector filled.

use domain::{
    EventStore, ExpectedVersion, Metadata,
    catalog::{CatalogEvent, Property},
    chain::{ChainEvent, SaleType},
};
use projections::{
    Projector, ReadDb,
    queries::{
        Page,
        nft::{self, Explore, SaleFilter, SortBy},
    },
};

use crate::{append, each_read_db, origin, retract};

const MATIC: u128 = 1_000_000_000_000_000_000;

fn minted(token: u32) -> ChainEvent {
    ChainEvent::NftMinted {
        token_id: token.to_string(),
        creator: "0xcreator".into(),
        token_uri: format!("/ipfs/meta{token}"),
        royalties: vec![],
        origin: origin(u64::from(token)),
    }
}

fn listed(token: u32, sale_type: SaleType, price: u128) -> ChainEvent {
    ChainEvent::SaleUpdated {
        token_id: token.to_string(),
        sale_type,
        price: price.to_string(),
        base_price: if sale_type == SaleType::Auction { (price / 2).to_string() } else { "0".into() },
        end_time: if sale_type == SaleType::Auction { 4_000_000_000 } else { 0 },
        auction_id: if sale_type == SaleType::Auction { token.to_string() } else { "0".into() },
        origin: origin(100 + u64::from(token)),
    }
}

async fn details(store: &dyn EventStore, token: u32, title: &str, category: &str) {
    let event = CatalogEvent::NftDetailsRecorded {
        chain_id: 80001,
        token_id: token.to_string(),
        title: title.into(),
        description: format!("{title} described"),
        category_id: category.into(),
        file: format!("/ipfs/img{token}"),
        metadata_url: format!("/ipfs/meta{token}"),
        properties: vec![Property { key: "Color".into(), value: "Pink".into() }],
        creator_user_id: None,
    };
    store.append(&event.stream_id(), ExpectedVersion::Any, vec![event.to_new_event(Metadata::default()).unwrap()]).await.unwrap();
}

/// Twelve fixed-price NFTs (prices 1..12 MATIC, titles alternating), two auctions, one unlisted.
async fn market(store: &dyn EventStore) {
    for token in 1..=15u32 {
        append(store, &[minted(token)]).await;
        let title = if token % 2 == 0 { format!("Blue Monkey {token}") } else { format!("Red Dragon {token}") };
        details(store, token, &title, if token <= 6 { "art" } else { "music" }).await;
        match token {
            1..=12 => append(store, &[listed(token, SaleType::FixedPrice, u128::from(token) * MATIC)]).await,
            13 | 14 => append(store, &[listed(token, SaleType::Auction, 10 * MATIC)]).await,
            _ => vec![],
        };
    }
}

fn browse(sale: SaleFilter, sort_by: SortBy, ascending: bool) -> Explore {
    Explore {
        category: None,
        sale,
        sort_by,
        ascending,
        search: None,
        owners: None,
        creators: None,
        within: None,
        traits: Vec::new(),
        collection: None,
        viewer: None,
    }
}

#[tokio::test]
async fn explore_filters_sorts_searches_and_pages() {
    each_read_db(async |store, url| {
        market(store.as_ref()).await;
        let db = ReadDb::open(&url).await.unwrap();
        let at = Projector::new(store.clone(), db.clone()).await.unwrap().catch_up().await.unwrap();
        let nine = Page { page: 1, limit: 9 };

        let cheap_first = nft::explore(&db, &browse(SaleFilter::FixedPrice, SortBy::Price, true), nine, at).await.unwrap();
        let prices: Vec<_> = cheap_first.data.iter().map(|n| n.fixed_price.as_str()).collect();
        assert_eq!(prices, ["1", "2", "3", "4", "5", "6", "7", "8", "9"], "exact numeric order, not text order");
        assert_eq!((cheap_first.total_items, cheap_first.last_page), (12, false));
        let page_two =
            nft::explore(&db, &browse(SaleFilter::FixedPrice, SortBy::Price, true), Page { page: 2, limit: 9 }, at).await.unwrap();
        assert_eq!((page_two.count, page_two.last_page), (3, true));

        let dear_first = nft::explore(&db, &browse(SaleFilter::FixedPrice, SortBy::Price, false), nine, at).await.unwrap();
        assert_eq!(dear_first.data[0].fixed_price, "12");

        let mut monkeys = browse(SaleFilter::FixedPrice, SortBy::Date, false);
        monkeys.search = Some("  monk ".into());
        let found = nft::explore(&db, &monkeys, nine, at).await.unwrap();
        assert_eq!(found.total_items, 6, "prefix search over titles");
        assert!(found.data.iter().all(|n| n.title.starts_with("Blue Monkey")));
        monkeys.search = Some("dragon described\"' OR 1=1 --".into());
        let odd = nft::explore(&db, &monkeys, nine, at).await.unwrap();
        assert_eq!(odd.total_items, 0, "every word must match; punctuation is not syntax");

        let mut art = browse(SaleFilter::FixedPrice, SortBy::Date, true);
        art.category = Some("art".into());
        assert_eq!(nft::explore(&db, &art, nine, at).await.unwrap().total_items, 6);

        let auctions = nft::explore(&db, &browse(SaleFilter::Auction, SortBy::Date, false), nine, at).await.unwrap();
        assert_eq!(auctions.total_items, 2);
        let auction = auctions.data[0].current_auction.as_ref().expect("auction data");
        assert_eq!((auction.auction_start_price.as_str(), auction.auction_buy_now_price.as_str()), ("5", "10"));
        let wei = (
            auction.auction_start_price_wei.as_str(),
            auction.auction_buy_now_price_wei.as_str(),
            auction.auction_highest_bid_wei.as_str(),
        );
        assert_eq!(wei, ((5 * MATIC).to_string().as_str(), (10 * MATIC).to_string().as_str(), "0"));
        assert!(!auction.auction_ended);
        assert_eq!(
            nft::explore(&db, &browse(SaleFilter::All, SortBy::Date, false), Page { page: 1, limit: 100 }, at).await.unwrap().total_items,
            15
        );
    })
    .await;
}

/// Token put on sale in block `block`; an auction (its id the token's) ends at `end_time`.
fn on_sale_at(token: u32, sale_type: SaleType, end_time: i64, block: u64) -> ChainEvent {
    let auction = sale_type == SaleType::Auction;
    ChainEvent::SaleUpdated {
        token_id: token.to_string(),
        sale_type,
        price: (10 * MATIC).to_string(),
        base_price: if auction { MATIC.to_string() } else { "0".into() },
        end_time: if auction { end_time } else { 0 },
        auction_id: if auction { token.to_string() } else { "0".into() },
        origin: origin(block),
    }
}

#[tokio::test]
async fn explore_lists_open_auctions_by_end_and_the_latest_listings_first() {
    each_read_db(async |store, url| {
        market(store.as_ref()).await;
        // Token 15 goes into an auction that has already ended (not settled), token 13's auction
        // moves to end before token 14's, and token 1, the first minted, is listed again last.
        append(
            store.as_ref(),
            &[
                on_sale_at(15, SaleType::Auction, 1_000, 400),
                on_sale_at(13, SaleType::Auction, 3_000_000_000, 401),
                on_sale_at(1, SaleType::FixedPrice, 0, 402),
            ],
        )
        .await;
        let db = ReadDb::open(&url).await.unwrap();
        let at = Projector::new(store.clone(), db.clone()).await.unwrap().catch_up().await.unwrap();
        let all = Page { page: 1, limit: 100 };
        let tokens =
            |page: &projections::queries::Paged<nft::NftView>| page.data.iter().map(|n| n.nft_token_id.clone()).collect::<Vec<_>>();

        let auctions = nft::explore(&db, &browse(SaleFilter::Auction, SortBy::Date, false), all, at).await.unwrap();
        assert_eq!(auctions.total_items, 3, "every auction, the ended one too (a profile's tab)");
        let open = nft::explore(&db, &browse(SaleFilter::LiveAuction, SortBy::Date, false), all, at).await.unwrap();
        assert_eq!((tokens(&open), open.total_items), (vec!["14".to_string(), "13".to_string()], 2), "open means open");
        let ending = nft::explore(&db, &browse(SaleFilter::All, SortBy::Ending, true), all, at).await.unwrap();
        assert_eq!(tokens(&ending), ["13", "14"], "the soonest end first, live auctions only");
        assert_eq!(nft::next_auction_end(&db, chrono::Utc::now().timestamp()), Some(3_000_000_000));

        let recent = nft::explore(&db, &browse(SaleFilter::FixedPrice, SortBy::Listed, false), all, at).await.unwrap();
        assert_eq!(tokens(&recent)[..3], ["1", "12", "11"], "a relisted NFT comes back to the top");
        assert_eq!(recent.data[0].listed_at, "2023-11-14T22:20:02Z", "block 402");
        let minted_first = nft::explore(&db, &browse(SaleFilter::FixedPrice, SortBy::Date, false), all, at).await.unwrap();
        assert_eq!(tokens(&minted_first)[0], "12", "by mint time it stays where it was");
    })
    .await;
}

/// Browsing follows the projector: what a later batch changed, and what a reorg took away,
/// shows in the next answer at the new position.
#[tokio::test]
async fn explore_follows_new_batches_and_reorgs() {
    each_read_db(async |store, url| {
        market(store.as_ref()).await;
        let db = ReadDb::open(&url).await.unwrap();
        let projector = Projector::new(store.clone(), db.clone()).await.unwrap();
        let at = projector.catch_up().await.unwrap();
        let nine = Page { page: 1, limit: 9 };
        let dear_first = browse(SaleFilter::FixedPrice, SortBy::Price, false);
        assert_eq!(nft::explore(&db, &dear_first, nine, at).await.unwrap().data[0].fixed_price, "12");

        // Token 15 is listed dearest, token 12 is burned, token 2 is renamed.
        append(
            store.as_ref(),
            &[
                listed(15, SaleType::FixedPrice, 50 * MATIC),
                ChainEvent::NftBurned { token_id: "12".into(), owner: "0xcreator".into(), origin: origin(300) },
            ],
        )
        .await;
        details(store.as_ref(), 2, "Golden Sphinx", "art").await;
        // A token minted and listed in blocks a reorg then retracts.
        let retracted = append(store.as_ref(), &[minted(40), listed(40, SaleType::FixedPrice, 99 * MATIC)]).await;
        let at_fork = projector.catch_up().await.unwrap();
        let page = nft::explore(&db, &dear_first, nine, at_fork).await.unwrap();
        let firsts: Vec<_> = page.data.iter().map(|n| n.nft_token_id.as_str()).collect();
        assert_eq!(firsts[..3], ["40", "15", "11"], "new listings in order; the burned token is gone");
        assert_eq!(page.total_items, 13);

        retract(store.as_ref(), 40, 140, retracted, "40").await;
        let at = projector.catch_up().await.unwrap();
        let page = nft::explore(&db, &dear_first, nine, at).await.unwrap();
        assert_eq!(page.data[0].nft_token_id, "15", "the retracted token left the index");
        assert_eq!(page.total_items, 12);

        let mut sphinx = browse(SaleFilter::All, SortBy::Date, true);
        sphinx.search = Some("sphin".into());
        let found = nft::explore(&db, &sphinx, nine, at).await.unwrap();
        assert_eq!((found.total_items, found.data[0].nft_token_id.as_str()), (1, "2"));
        sphinx.search = Some("Blue Monkey 2".into());
        assert_eq!(nft::explore(&db, &sphinx, nine, at).await.unwrap().total_items, 0, "the old title is forgotten");
    })
    .await;
}

#[tokio::test]
async fn detail_bids_history_owners_and_statistics() {
    each_read_db(async |store, url| {
        append(
            store.as_ref(),
            &[
                minted(1),
                listed(1, SaleType::Auction, 10 * MATIC),
                ChainEvent::BidPlaced {
                    token_id: "1".into(),
                    auction_id: "1".into(),
                    bidder: "0xbob".into(),
                    amount: (6 * MATIC).to_string(),
                    end_time: 4_000_000_000,
                    origin: origin(3),
                },
                ChainEvent::BidPlaced {
                    token_id: "1".into(),
                    auction_id: "1".into(),
                    bidder: "0xcarol".into(),
                    amount: (7 * MATIC).to_string(),
                    end_time: 4_000_000_000,
                    origin: origin(4),
                },
                ChainEvent::BidRefunded {
                    token_id: "1".into(),
                    auction_id: "1".into(),
                    bidder: "0xbob".into(),
                    amount: (6 * MATIC).to_string(),
                    origin: origin(4),
                },
                ChainEvent::SaleUpdated {
                    token_id: "1".into(),
                    sale_type: SaleType::NotForSale,
                    price: "0".into(),
                    base_price: "0".into(),
                    end_time: 0,
                    auction_id: "0".into(),
                    origin: origin(5),
                },
                ChainEvent::AuctionEnded {
                    token_id: "1".into(),
                    auction_id: "1".into(),
                    winner: "0xcarol".into(),
                    amount: (7 * MATIC).to_string(),
                    origin: origin(5),
                },
                ChainEvent::NftTransferred { token_id: "1".into(), from: "0xcreator".into(), to: "0xcarol".into(), origin: origin(5) },
                ChainEvent::NftSold {
                    token_id: "1".into(),
                    auction_id: "1".into(),
                    buyer: "0xcarol".into(),
                    seller: "0xcreator".into(),
                    price: (7 * MATIC).to_string(),
                    fee: "1".into(),
                    royalties: "0".into(),
                    seller_proceeds: "2".into(),
                    origin: origin(5),
                },
            ],
        )
        .await;
        details(store.as_ref(), 1, "Golden Egg", "art").await;
        let db = ReadDb::open(&url).await.unwrap();
        Projector::new(store.clone(), db.clone()).await.unwrap().catch_up().await.unwrap();

        let nft = nft::detail(&db, "80001-1").await.unwrap().expect("the NFT");
        assert_eq!((nft.title.as_str(), nft.owner_address.as_str(), nft.form_of_sale.as_str()), ("Golden Egg", "0xcarol", "NOT_FOR_SALE"));
        assert_eq!(nft.properties, serde_json::json!([{ "key": "Color", "value": "Pink" }]));
        assert!(nft::detail(&db, "80001-999").await.unwrap().is_none());

        let bids = nft::bid_history(&db, "80001-1", "1", Page { page: 1, limit: 10 }).await.unwrap();
        let rows: Vec<_> = bids.data.iter().map(|b| (b.bidder_address.as_str(), b.bid_amount.as_str(), b.status.as_str())).collect();
        assert_eq!(rows, [("0xcarol", "7", "ALLOTED"), ("0xbob", "6", "REFUNDED")]);
        assert_eq!(bids.data[0].bid_amount_wei, (7 * MATIC).to_string(), "the amount in wei beside the MATIC");

        let kinds: Vec<_> = nft::history(&db, "80001-1").await.unwrap().into_iter().map(|h| h.type_of_event).collect();
        assert_eq!(
            kinds,
            ["WON_AUCTION", "BIDDED_FOR", "BIDDED_FOR", "PUT_ON_AUCTION", "MINTED"],
            "the listing cleared by the sale is no removal"
        );

        let owners: Vec<_> = nft::owners(&db, "80001-1").await.unwrap().into_iter().map(|o| o.owner_address).collect();
        assert_eq!(owners, ["0xcarol", "0xcreator"]);
        assert!(nft::auctions(&db, "80001-1").await.unwrap().is_empty(), "the auction is over");

        let stats = nft::statistics(&db).await.unwrap();
        assert_eq!(stats, nft::Statistics { total_nft_minted: 1, total_seller: 1, total_nft_sold: 1 });
    })
    .await;
}
