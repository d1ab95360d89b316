//! The read API over a real event log, projector and read database.

use axum::{
    body::Body,
    http::{Request, StatusCode},
};
use domain::{
    ExpectedVersion, Metadata,
    catalog::CatalogEvent,
    chain::{ChainEvent, Origin, SaleType},
};
use serde_json::{Value, json};
use tower::ServiceExt;

#[path = "../support/mod.rs"]
mod support;

use support::ReadApp as TestApp;

fn origin(block: u64) -> Origin {
    Origin { block_number: block, block_time: 1_700_000_000, tx_hash: format!("0x{block:064x}"), log_index: 0 }
}

fn minted(token: &str) -> ChainEvent {
    ChainEvent::NftMinted {
        token_id: token.into(),
        creator: "0xalice".into(),
        token_uri: "/ipfs/m".into(),
        royalties: vec![],
        origin: origin(1),
    }
}

fn fixed(token: &str, wei: &str) -> ChainEvent {
    ChainEvent::SaleUpdated {
        token_id: token.into(),
        sale_type: SaleType::FixedPrice,
        price: wei.into(),
        base_price: "0".into(),
        end_time: 0,
        auction_id: "0".into(),
        origin: origin(2),
    }
}

#[tokio::test]
async fn explore_answers_pages_in_the_envelope() {
    let app = TestApp::new(&[]).await;
    app.chain(&[minted("1"), fixed("1", "2500000000000000000"), minted("2")]).await;
    let details = CatalogEvent::NftDetailsRecorded {
        chain_id: 80001,
        token_id: "1".into(),
        title: "Sunset".into(),
        description: "Warm".into(),
        category_id: "art".into(),
        file: "/ipfs/img".into(),
        metadata_url: "/ipfs/m".into(),
        properties: vec![],
        creator_user_id: None,
    };
    app.state
        .store
        .append(&details.stream_id(), ExpectedVersion::Any, vec![details.to_new_event(Metadata::default()).unwrap()])
        .await
        .unwrap();
    app.settle().await;

    let (status, body) = app.get("/api/nft/explore/?page=1&limit=9&formOfSale=FIXEDPRICE&sortBy=PRICE&orderBy=1&search=suns").await;

    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["statuscode"], 200);
    let page = &body["body"];
    assert_eq!((page["totalItems"].as_i64(), page["lastPage"].as_bool(), page["currentPage"].as_i64()), (Some(1), Some(true), Some(1)));
    let nft = &page["data"][0];
    assert_eq!((nft["_id"].as_str(), nft["title"].as_str(), nft["fixedPrice"].as_str()), (Some("80001-1"), Some("Sunset"), Some("2.5")));
    assert_eq!((nft["contractAddress"].as_str(), nft["currentOwner"]["ownerAddress"].as_str()), (Some("0xc0ffee"), Some("0xalice")));
}

#[tokio::test]
async fn a_browse_answer_is_reused_only_until_the_read_tables_change() {
    let app = TestApp::new(&[]).await;
    app.chain(&[minted("1"), fixed("1", "1000")]).await;
    let uri = "/api/nft/explore/?formOfSale=FIXEDPRICE&sortBy=PRICE&orderBy=1";
    let ids =
        |body: &Value| body["body"]["data"].as_array().unwrap().iter().map(|n| n["_id"].as_str().unwrap().to_owned()).collect::<Vec<_>>();

    let (_, first) = app.get(uri).await;
    let (_, again) = app.get(uri).await;
    assert_eq!(first, again);
    assert_eq!(ids(&first), ["80001-1"]);

    // A new listing: the next answer shows it, though the same page was answered before.
    app.chain(&[minted("2"), fixed("2", "500")]).await;
    let (status, after) = app.get(uri).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(ids(&after), ["80001-2", "80001-1"]);
    assert_eq!(after["body"]["totalItems"], 2);
}

fn auction(token: &str, end_time: i64) -> ChainEvent {
    ChainEvent::SaleUpdated {
        token_id: token.into(),
        sale_type: SaleType::Auction,
        price: "2000".into(),
        base_price: "1000".into(),
        end_time,
        auction_id: token.into(),
        origin: origin(2),
    }
}

#[tokio::test]
async fn the_auction_list_holds_open_auctions_only_and_lets_one_go_when_it_ends() {
    let app = TestApp::new(&[]).await;
    let now = chrono::Utc::now().timestamp();
    // Token 1's auction ended unsettled; token 2's ends in a moment (long enough for the first
    // reads on a loaded machine); token 3's in an hour.
    let moment = now + 8;
    app.chain(&[minted("1"), auction("1", now - 10), minted("2"), auction("2", moment), minted("3"), auction("3", now + 3_600)]).await;
    let ids =
        |body: &Value| body["body"]["data"].as_array().unwrap().iter().map(|n| n["_id"].as_str().unwrap().to_owned()).collect::<Vec<_>>();
    let open = "/api/nft/explore/?formOfSale=AUCTION&sortBy=PRICE";
    let ending = "/api/nft/explore/?formOfSale=ALL&sortBy=ENDING&orderBy=1";

    let (_, list) = app.get(open).await;
    assert_eq!((list["body"]["totalItems"].as_i64(), ids(&list).len()), (Some(2), 2), "the ended auction is not open: {list}");
    let (_, soonest) = app.get(ending).await;
    assert_eq!(ids(&soonest), ["80001-2", "80001-3"]);
    // A page that does not show token 2 still counts it.
    let latest = "/api/nft/explore/?formOfSale=AUCTION&sortBy=ENDING&orderBy=0&limit=1";
    let (_, page) = app.get(latest).await;
    assert_eq!((ids(&page), page["body"]["totalItems"].as_i64()), (vec!["80001-3".to_owned()], Some(2)));
    let (_, profile_like) = app.get("/api/nft/explore/?formOfSale=ALL&sortBy=PRICE").await;
    assert_eq!(profile_like["body"]["totalItems"], 3, "ALL still lists every token");

    // Once token 2's auction ends, both lists let it go, though no read table changed (the
    // answers were kept in the read cache).
    tokio::time::sleep(std::time::Duration::from_millis(((moment + 1) * 1000 - chrono::Utc::now().timestamp_millis()).max(0) as u64)).await;
    let (_, list) = app.get(open).await;
    assert_eq!(ids(&list), ["80001-3"]);
    let (_, soonest) = app.get(ending).await;
    assert_eq!(ids(&soonest), ["80001-3"]);
    let (_, page) = app.get(latest).await;
    assert_eq!(page["body"]["totalItems"], 1, "the count follows too");
}

#[tokio::test]
async fn bad_query_values_answer_400_naming_the_field() {
    let app = TestApp::new(&[]).await;
    for (uri, field) in [
        ("/api/nft/explore/?page=0", "page"),
        ("/api/nft/explore/?limit=abc", "limit"),
        ("/api/nft/explore/?formOfSale=SOMETIMES", "formOfSale"),
        ("/api/nft/explore/?sortBy=NAME", "sortBy"),
        ("/api/nft/explore/?orderBy=2", "orderBy"),
        ("/api/nft/trendingnfts?limit=1000", "limit"),
    ] {
        let (status, body) = app.get(uri).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}");
        assert_eq!(body["statuscode"], 400);
        assert!(body["message"].as_str().unwrap().starts_with(field), "{uri}: {body}");
    }
}

#[tokio::test]
async fn unknown_ids_answer_404_in_the_envelope() {
    let app = TestApp::new(&[]).await;
    for uri in [
        "/api/nft/detail/80001-9",
        "/api/nft/nftinauction/80001-9",
        "/api/nft/bidhistory/80001-9/1/",
        "/api/nft/nfthistory/x",
        "/api/nft/ownnerhistory/80001-9",
    ] {
        let (status, body) = app.get(uri).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}");
        assert_eq!((body["statuscode"].as_i64(), body["body"].is_null()), (Some(404), true), "{uri}");
    }
}

#[tokio::test]
async fn detail_history_statistics_and_reference_data() {
    let app = TestApp::new(&[]).await;
    app.chain(&[minted("7"), fixed("7", "1000000000000000000")]).await;

    let (_, detail) = app.get("/api/nft/detail/80001-7").await;
    assert_eq!(detail["body"]["formOfSale"], "FIXEDPRICE");
    let (_, history) = app.get("/api/nft/nfthistory/80001-7").await;
    let kinds: Vec<_> = history["body"]["data"].as_array().unwrap().iter().map(|h| h["typeOfEvent"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["PUT_ON_FIXEDSALE", "MINTED"]);
    let (_, stats) = app.get("/api/getmarketplacestatistics").await;
    assert_eq!(stats["body"], serde_json::json!({ "totalNftMinted": 1, "totalSeller": 0, "totalNftSold": 0 }));
    let (_, categories) = app.get("/api/misc/category").await;
    assert_eq!(categories["body"][0], serde_json::json!({ "id": "art", "categoryName": "Art" }));
    assert_eq!(categories["body"].as_array().unwrap().len(), 8);
    let (_, coins) = app.get("/api/misc/coin").await;
    assert_eq!(coins["body"][0]["symbol"], "MATIC");
}

#[tokio::test]
async fn client_errors_are_accepted_and_bad_reports_refused() {
    let app = TestApp::new(&[]).await;
    let post = |body: &str| {
        Request::post("/api/misc/clienterror").header("content-type", "application/json").body(Body::from(body.to_owned())).unwrap()
    };

    let (status, body) = app.send(post(r#"{"message":"TypeError: boom","stack":"at x","url":"/explore"}"#)).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::OK, Some("Reported")));

    let (status, body) = app.send(post(r#"{"message":"  "}"#)).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("message: Required")));
    let (status, body) = app.send(post("{not json")).await;
    assert_eq!((status, body["statuscode"].as_i64()), (StatusCode::BAD_REQUEST, Some(400)));
    let huge = format!(r#"{{"message":"{}"}}"#, "x".repeat(100_000));
    let (status, _) = app.send(post(&huge)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test]
async fn metrics_expose_the_log_and_the_projector_for_prometheus() {
    let app = TestApp::new(&[]).await;
    app.chain(&[minted("1")]).await;
    app.get("/api/nft/detail/80001-404").await;

    let router = api::http::app(app.state.clone(), std::path::Path::new("no-ui"));
    let response = router.oneshot(Request::get("/metrics").body(Body::empty()).unwrap()).await.unwrap();
    assert_eq!(response.headers()["content-type"], "text/plain; version=0.0.4");
    let text = String::from_utf8(axum::body::to_bytes(response.into_body(), 1 << 20).await.unwrap().to_vec()).unwrap();

    let value =
        |name: &str| text.lines().find(|l| l.starts_with(name)).and_then(|l| l.rsplit(' ').next()).and_then(|v| v.parse::<u64>().ok());
    assert_eq!(value("marketplace_event_log_position "), Some(9), "8 categories and a mint");
    assert_eq!(value("marketplace_projector_position "), Some(9));
    assert_eq!(value("marketplace_projector_lag_events "), Some(0));
    assert!(value("marketplace_http_responses_total{class=\"4xx\"} ").unwrap() >= 1, "{text}");
    assert!(text.contains("# TYPE marketplace_http_responses_total counter"));
}

/// A built UI in a temporary folder: `index.html`, a hashed asset, each with the brotli and gzip
/// copies the UI build writes beside it.
fn built_ui() -> tempfile::TempDir {
    let ui = tempfile::tempdir().unwrap();
    std::fs::create_dir(ui.path().join("assets")).unwrap();
    for (path, text) in [("index.html", "<!doctype html><title>plain</title>"), ("assets/index-abc123.js", "console.log('plain')")] {
        std::fs::write(ui.path().join(path), text).unwrap();
        std::fs::write(ui.path().join(format!("{path}.br")), format!("br:{text}")).unwrap();
        std::fs::write(ui.path().join(format!("{path}.gz")), format!("gz:{text}")).unwrap();
    }
    ui
}

async fn fetch_ui(app: &TestApp, ui: &std::path::Path, uri: &str, accept: &str) -> (StatusCode, axum::http::HeaderMap, String) {
    let router = api::http::app(app.state.clone(), ui);
    let response = router.oneshot(Request::get(uri).header("accept-encoding", accept).body(Body::empty()).unwrap()).await.unwrap();
    let (status, headers) = (response.status(), response.headers().clone());
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20).await.unwrap();
    (status, headers, String::from_utf8_lossy(&bytes).into_owned())
}

#[tokio::test]
async fn the_ui_is_served_precompressed_with_hashed_assets_cached_for_good() {
    let app = TestApp::new(&[]).await;
    let ui = built_ui();

    let (status, headers, body) = fetch_ui(&app, ui.path(), "/assets/index-abc123.js", "gzip, deflate, br").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-encoding"], "br");
    assert_eq!(body, "br:console.log('plain')");
    assert_eq!(headers["cache-control"], "public, max-age=31536000, immutable");
    assert!(headers.get("last-modified").is_none() && headers.get("accept-ranges").is_none(), "never revalidated: {headers:?}");

    let (_, headers, body) = fetch_ui(&app, ui.path(), "/assets/index-abc123.js", "gzip").await;
    assert_eq!((headers["content-encoding"].to_str().unwrap(), body.as_str()), ("gzip", "gz:console.log('plain')"));

    let (_, headers, body) = fetch_ui(&app, ui.path(), "/assets/index-abc123.js", "identity").await;
    assert!(headers.get("content-encoding").is_none());
    assert_eq!(body, "console.log('plain')");

    // A client-side route gets index.html, compressed too, and checked again on every visit.
    let (status, headers, body) = fetch_ui(&app, ui.path(), "/explore?type=all", "br").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, "br:<!doctype html><title>plain</title>");
    assert_eq!(headers["cache-control"], "no-cache");
    assert!(headers.get("last-modified").is_some(), "revalidated by its date");
}

#[tokio::test]
async fn api_answers_are_compressed_for_clients_that_accept_it_and_small_ones_are_not() {
    let app = TestApp::new(&[]).await;
    for token in 1..=20 {
        app.chain(&[minted(&token.to_string()), fixed(&token.to_string(), "1000000000000000000")]).await;
    }
    let ui = built_ui();
    let explore = "/api/nft/explore/?limit=20";

    let (status, headers, plain) = fetch_ui(&app, ui.path(), explore, "identity").await;
    assert_eq!(status, StatusCode::OK);
    assert!(headers.get("content-encoding").is_none());
    assert_eq!(serde_json::from_str::<Value>(&plain).unwrap()["body"]["totalItems"], 20);

    for encoding in ["gzip", "br"] {
        let (status, headers, _) = fetch_ui(&app, ui.path(), explore, encoding).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(headers["content-encoding"], encoding);
        let router = api::http::app(app.state.clone(), ui.path());
        let response =
            router.oneshot(Request::get(explore).header("accept-encoding", encoding).body(Body::empty()).unwrap()).await.unwrap();
        let compressed = axum::body::to_bytes(response.into_body(), 1 << 20).await.unwrap();
        assert!(compressed.len() * 3 < plain.len(), "{encoding}: {} bytes for {} plain", compressed.len(), plain.len());
    }

    let (_, headers, _) = fetch_ui(&app, ui.path(), "/healthz", "gzip").await;
    assert!(headers.get("content-encoding").is_none(), "a tiny answer is sent as it is");
}

/// Records a token's details with these properties.
async fn properties(app: &TestApp, token: &str, pairs: &[(&str, &str)]) {
    let event = CatalogEvent::NftDetailsRecorded {
        chain_id: 80001,
        token_id: token.into(),
        title: format!("Token {token}"),
        description: String::new(),
        category_id: "art".into(),
        file: "/ipfs/f".into(),
        metadata_url: "/ipfs/m".into(),
        properties: pairs.iter().map(|(key, value)| domain::catalog::Property { key: (*key).into(), value: (*value).into() }).collect(),
        creator_user_id: None,
    };
    app.state.store.append(&event.stream_id(), ExpectedVersion::Any, vec![event.to_new_event(Metadata::default()).unwrap()]).await.unwrap();
    app.settle().await;
}

#[tokio::test]
async fn trait_filters_narrow_the_list_and_facets_count_each_value_with_the_other_filters() {
    let app = TestApp::new(&[]).await;
    for (token, colour, eyes) in [("1", "Red", "Laser"), ("2", "Blue", "Laser"), ("3", "Red", "Sleepy"), ("4", "Green", "Sleepy")] {
        app.chain(&[minted(token), fixed(token, "1000")]).await;
        properties(&app, token, &[("Colour", colour), ("Eyes: left", eyes)]).await;
    }
    // Red or Blue, and (an escaped colon in the name) Laser eyes: tokens 1 and 2.
    let (status, page) = app.get(r"/api/nft/explore/?trait=Colour:Red&trait=Colour:Blue&trait=Eyes\:%20left:Laser").await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let mut ids: Vec<&str> = page["body"]["data"].as_array().unwrap().iter().map(|n| n["_id"].as_str().unwrap()).collect();
    ids.sort_unstable();
    assert_eq!(ids, ["80001-1", "80001-2"]);

    let (status, facets) = app.get(r"/api/nft/facets?trait=Colour:Red&trait=Eyes\:%20left:Laser").await;
    assert_eq!(status, StatusCode::OK, "{facets}");
    let body = &facets["body"];
    assert_eq!(body["total"], 1, "red with laser eyes");
    // Colour counts ignore the colour chosen but keep the eyes: Red 1 (token 1), Blue 1.
    let colour = body["traits"].as_array().unwrap().iter().find(|t| t["name"] == "Colour").unwrap();
    assert_eq!(
        colour["values"],
        json!([{ "value": "Blue", "count": 1, "selected": false }, { "value": "Red", "count": 1, "selected": true }])
    );
    // Eyes counts keep the colour (red): Laser 1 (token 1), Sleepy 1 (token 3).
    let eyes = body["traits"].as_array().unwrap().iter().find(|t| t["name"] == "Eyes: left").unwrap();
    assert_eq!(eyes["values"][0], json!({ "value": "Laser", "count": 1, "selected": true }));
    assert_eq!(eyes["distinct"], 2);
}

#[tokio::test]
async fn malformed_or_too_many_trait_filters_answer_400() {
    let app = TestApp::new(&[]).await;
    let many: String = (0..17).map(|i| format!("&trait=T{i}:v")).collect();
    let long = format!("/api/nft/explore/?trait=a:{}", "x".repeat(200));
    for (uri, message) in [
        ("/api/nft/explore/?trait=Colour".to_owned(), "trait must be Name:Value"),
        ("/api/nft/explore/?trait=:Red".to_owned(), "trait must be Name:Value"),
        ("/api/nft/explore/?trait=Colour:%20".to_owned(), "trait must be Name:Value"),
        (r"/api/nft/explore/?trait=a\b:c".to_owned(), "trait must be Name:Value"),
        (format!("/api/nft/explore/?formOfSale=ALL{many}"), "trait: at most 16"),
        (format!("/api/nft/facets?formOfSale=ALL{many}"), "trait: at most 16"),
        ("/api/nft/mycreatednft?trait=x".to_owned(), "trait must be Name:Value"),
        (long, "trait: at most 200 characters"),
        ("/api/nft/facets?scope=collection".to_owned(), "collectionId is required"),
        ("/api/nft/facets?values=0".to_owned(), "values must be"),
        ("/api/nft/facets?scope=everything".to_owned(), "scope must be"),
    ] {
        let (status, body) = app.get(&uri).await;
        // A signed-out call of a signed-in list answers 401 before reading its query.
        if uri.starts_with("/api/nft/mycreatednft") {
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{uri}");
            continue;
        }
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}: {body}");
        assert_eq!(body["statuscode"], 400);
        assert!(body["message"].as_str().unwrap().starts_with(message), "{uri}: {body}");
    }
}

#[tokio::test]
async fn a_closed_read_pool_answers_503_with_retry_after_in_the_envelope() {
    let app = TestApp::new(&[]).await;
    app.chain(&[minted("1")]).await;
    assert_eq!(app.get("/api/nft/nftinauction/80001-1").await.0, StatusCode::OK);
    app.state.read.pool().close().await;
    let response = app.send_raw(axum::http::Request::get("/api/nft/nftinauction/80001-1").body(Body::empty()).unwrap()).await;
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(response.headers()["retry-after"], "5");
    let body: Value = serde_json::from_slice(&axum::body::to_bytes(response.into_body(), 1 << 16).await.unwrap()).unwrap();
    assert_eq!((body["statuscode"].as_u64(), body["body"].is_null()), (Some(503), true), "{body}");
}
