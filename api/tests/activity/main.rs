//! `GET /api/activity` over a real event log, projector and read database: the rows in the
//! envelope with MATIC and wei, the people behind wallets, the filters, paging, and a 400 naming
//! the field for every bad or empty value.

use axum::http::StatusCode;
use domain::chain::{ChainEvent, Origin, SaleType};
use serde_json::Value;

#[path = "../support/mod.rs"]
mod support;

use support::ReadApp as TestApp;

fn origin(block: u64) -> Origin {
    Origin { block_number: block, block_time: 1_700_000_000 + block as i64, tx_hash: format!("0x{block:064x}"), log_index: 0 }
}

/// Alice mints 1 and 2, lists 1 at 2.5 MATIC, Bob buys it; 2 is given to Carol.
fn history() -> Vec<ChainEvent> {
    let minted = |token: &str| ChainEvent::NftMinted {
        token_id: token.into(),
        creator: "0xa11ce".into(),
        token_uri: "/ipfs/m".into(),
        royalties: vec![],
        origin: origin(1),
    };
    let listed = |sale_type, price: &str, block| ChainEvent::SaleUpdated {
        token_id: "1".into(),
        sale_type,
        price: price.into(),
        base_price: "0".into(),
        end_time: 0,
        auction_id: "0".into(),
        origin: origin(block),
    };
    vec![
        minted("1"),
        minted("2"),
        listed(SaleType::FixedPrice, "2500000000000000000", 2),
        listed(SaleType::NotForSale, "0", 3),
        ChainEvent::NftTransferred { token_id: "1".into(), from: "0xa11ce".into(), to: "0xb0b".into(), origin: origin(3) },
        ChainEvent::NftSold {
            token_id: "1".into(),
            auction_id: "0".into(),
            buyer: "0xb0b".into(),
            seller: "0xa11ce".into(),
            price: "2500000000000000000".into(),
            fee: "0".into(),
            royalties: "0".into(),
            seller_proceeds: "2500000000000000000".into(),
            origin: origin(3),
        },
        ChainEvent::NftTransferred { token_id: "2".into(), from: "0xa11ce".into(), to: "0xca501".into(), origin: origin(4) },
    ]
}

fn kinds(body: &Value) -> Vec<&str> {
    body["body"]["data"].as_array().unwrap().iter().map(|row| row["kind"].as_str().unwrap()).collect()
}

#[tokio::test]
async fn the_feed_answers_pages_of_rows_newest_first_in_the_envelope() {
    let app = TestApp::new(&[]).await;
    let bob = uuid::Uuid::now_v7();
    projections::test_utils::register_user(app.state.store.as_ref(), bob, "bob", "0xb0b", chrono::Utc::now()).await;
    app.chain(&history()).await;

    let (status, body) = app.get("/api/activity").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!((body["statuscode"].as_u64(), body["message"].as_str()), (Some(200), Some("Activity fetched")));
    assert_eq!(kinds(&body), ["TRANSFER", "SALE", "LIST", "MINT", "MINT"]);
    assert_eq!(body["body"]["totalItems"], 5);
    let sale = &body["body"]["data"][1];
    assert_eq!((sale["price"].as_str(), sale["priceWei"].as_str()), (Some("2.5"), Some("2500000000000000000")));
    assert_eq!((sale["event"].as_str(), sale["nftId"].as_str()), (Some("PURCHASED"), Some("80001-1")));
    assert_eq!((sale["address"].as_str(), sale["counterpart"].as_str()), (Some("0xb0b"), Some("0xa11ce")));
    assert_eq!(sale["user"]["username"], "bob");
    assert_eq!(sale["user"]["userId"], bob.to_string());
    assert!(sale["counterpartUser"].is_null(), "Alice's wallet is linked to no account");
    assert_eq!(sale["transactionHash"], format!("0x{:064x}", 3));
    assert_eq!(sale["timestamp"], "2023-11-14T22:13:23Z");
    let transfer = &body["body"]["data"][0];
    assert!(transfer["price"].is_null() && transfer["priceWei"].is_null());

    // Filters, alone and together; paging.
    let (_, body) = app.get("/api/activity?kind=sale").await;
    assert_eq!(kinds(&body), ["SALE"]);
    let (_, body) = app.get("/api/activity?nftId=80001-2").await;
    assert_eq!(kinds(&body), ["TRANSFER", "MINT"]);
    let (_, body) = app.get(&format!("/api/activity?userId={bob}")).await;
    assert_eq!(kinds(&body), ["SALE"]);
    let (_, body) = app.get(&format!("/api/activity?userId={bob}&kind=MINT")).await;
    assert_eq!(body["body"]["totalItems"], 0);
    let (_, body) = app.get(&format!("/api/activity?collectionId={}", uuid::Uuid::now_v7())).await;
    assert_eq!(body["body"]["totalItems"], 0);
    let (_, body) = app.get("/api/activity?page=2&limit=2").await;
    assert_eq!((kinds(&body), body["body"]["lastPage"].as_bool()), (vec!["LIST", "MINT"], Some(false)));
    let (_, body) = app.get("/api/activity?page=3&limit=2").await;
    assert_eq!((kinds(&body), body["body"]["lastPage"].as_bool()), (vec!["MINT"], Some(true)));

    // The NFT's spec history is unchanged: no transfer row.
    let (_, body) = app.get("/api/nft/nfthistory/80001-2").await;
    let events: Vec<&str> = body["body"]["data"].as_array().unwrap().iter().map(|e| e["typeOfEvent"].as_str().unwrap()).collect();
    assert_eq!(events, ["MINTED"]);
}

#[tokio::test]
async fn bad_or_empty_query_values_answer_400_naming_the_field() {
    let app = TestApp::new(&[]).await;
    for (query, field) in [
        ("kind=NOPE", "kind"),
        ("kind=", "kind"),
        ("nftId=", "nftId"),
        ("nftId=abc", "nftId"),
        ("nftId=1-2", "nftId"),
        ("nftId=80001-", "nftId"),
        ("nftId=80001-1x", "nftId"),
        ("collectionId=", "collectionId"),
        ("collectionId=not-a-uuid", "collectionId"),
        ("userId=42", "userId"),
        ("userId=", "userId"),
        ("page=0", "page"),
        ("page=", "page"),
        ("limit=101", "limit"),
        ("limit=x", "limit"),
    ] {
        let (status, body) = app.get(&format!("/api/activity?{query}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {body}");
        assert_eq!(body["statuscode"], 400, "{query}");
        assert!(body["body"].is_null(), "{query}");
        assert!(body["message"].as_str().unwrap().starts_with(field), "{query}: {body}");
    }
    let (status, _) = app.get("/api/activity?kind=ALL&nftId=80001-7&limit=100&page=1").await;
    assert_eq!(status, StatusCode::OK);
}
