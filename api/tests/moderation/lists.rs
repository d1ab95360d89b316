//! A hidden NFT leaves every list and every count a visitor reads (explore and its search,
//! facets, trending, profiles, favourites, collections and their statistics, activity) and stays
//! in its owner's own views.

use axum::http::StatusCode;
use chrono::Utc;
use domain::{
    ExpectedVersion, Metadata,
    collections::{CollectionEvent, collection_stream},
    social::{SocialEvent, social_stream},
};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::{TestApp, User, market};

/// The `_id`s of a page's cards (`data`, or `items` in the lists that name them so).
fn ids(body: &Value) -> Vec<String> {
    let page = &body["body"];
    let cards = page["data"].as_array().or_else(|| page["items"].as_array()).or_else(|| page.as_array());
    let cards = cards.unwrap_or_else(|| panic!("no cards in {body}"));
    cards.iter().filter_map(|c| c["_id"].as_str().or_else(|| c["nftId"].as_str()).map(str::to_owned)).collect()
}

impl TestApp {
    /// `user` likes and bookmarks `nft_id`.
    async fn favour(&self, user: &User, nft_id: &str) {
        let at = Utc::now();
        let events = [
            SocialEvent::NftLiked { user_id: user.id, nft_id: nft_id.into(), at },
            SocialEvent::NftBookmarked { user_id: user.id, nft_id: nft_id.into(), at },
        ];
        let events = events.iter().map(|e| e.to_new_event(Metadata::default()).unwrap()).collect();
        self.state.store.append(&social_stream(user.id), ExpectedVersion::Any, events).await.unwrap();
        self.projected().await;
    }

    /// A collection of `owner`'s holding `nft_ids`; its id.
    async fn collection_of(&self, owner: &User, nft_ids: &[&str]) -> String {
        let (id, at) = (Uuid::now_v7(), Utc::now());
        let mut events = vec![CollectionEvent::CollectionCreated {
            collection_id: id,
            creator_user_id: owner.id,
            title: "Birds".into(),
            image: "c".into(),
            at,
        }];
        events.extend(nft_ids.iter().map(|n| CollectionEvent::NftAddedToCollection { nft_id: (*n).into(), at }));
        let events = events.iter().map(|e| e.to_new_event(Metadata::default()).unwrap()).collect();
        self.state.store.append(&collection_stream(id), ExpectedVersion::NoStream, events).await.unwrap();
        self.projected().await;
        id.to_string()
    }

    async fn ok(&self, uri: &str, user: Option<&User>) -> Value {
        let (status, body) = self.get(uri, user).await;
        assert_eq!(status, StatusCode::OK, "{uri}: {body}");
        body
    }
}

#[tokio::test]
async fn a_hidden_nft_leaves_every_list_and_count_of_others_and_stays_in_its_owners_views() {
    hidden_in_lists(TestApp::new(None).await).await;
}

#[tokio::test]
async fn a_hidden_nft_leaves_the_lists_the_same_on_postgres() {
    hidden_in_lists(TestApp::new(Some(domain::test_utils::TestPostgres::create().await)).await).await;
}

async fn hidden_in_lists(app: TestApp) {
    let (ada, bob, mia, _adi) = market(&app).await;
    app.favour(&bob, "80001-1").await;
    app.favour(&bob, "80001-2").await;
    let collection = app.collection_of(&ada, &["80001-1", "80001-2"]).await;
    let lists = [
        "/api/nft/explore/?formOfSale=ALL".to_owned(),
        "/api/nft/explore/?formOfSale=FIXEDPRICE&search=Token".to_owned(),
        "/api/nft/trendingnfts?formOfSale=ALL".to_owned(),
        format!("/api/nft/usercreatednft/{}", ada.id),
        format!("/api/nft/usersnftartwork/{}", ada.id),
        "/api/nft/browsebookmarked".to_owned(),
        format!("/api/nft/browsebycollection/{collection}"),
        "/api/activity".to_owned(),
        format!("/api/activity?collectionId={collection}"),
        format!("/api/activity?userId={}", ada.id),
    ];
    let seen_by_bob = async |app: &TestApp| {
        let mut seen = Vec::new();
        for uri in &lists {
            let mut found = ids(&app.ok(uri, Some(&bob)).await);
            found.sort();
            found.dedup();
            seen.push((uri.clone(), found));
        }
        seen
    };
    let both = vec!["80001-1".to_owned(), "80001-2".to_owned()];
    for (uri, found) in seen_by_bob(&app).await {
        assert_eq!(found, both, "{uri} before the hiding");
    }
    let facets = app.ok("/api/nft/facets?formOfSale=ALL", None).await;
    let card = async |app: &TestApp| {
        let grid = app.ok("/api/collection/browse", None).await;
        let card = grid["body"]["data"].as_array().unwrap().iter().find(|c| c["_id"] == collection.as_str()).cloned();
        let card = card.unwrap_or_else(|| panic!("the collection in {grid}"));
        (card["nftCount"].as_i64(), card["nftImages"].as_array().map(Vec::len))
    };
    assert_eq!(card(&app).await, (Some(2), Some(2)));
    let stats = app.ok(&format!("/api/stats/collection/{collection}"), None).await;
    let activity_totals = async |app: &TestApp| {
        let mut totals = Vec::new();
        for uri in ["/api/activity", "/api/activity?kind=MINT", "/api/activity?nftId=80001-1"] {
            totals.push(app.ok(uri, Some(&bob)).await["body"]["totalItems"].as_i64().unwrap());
        }
        totals
    };
    let activity_before = activity_totals(&app).await;

    let (status, body) = app.post("/api/moderation/nft/80001-1/hide", &mia, json!({ "text": "A copy of another artist's work" })).await;
    assert_eq!(status, StatusCode::OK, "{body}");

    for (uri, found) in seen_by_bob(&app).await {
        assert_eq!(found, ["80001-2"], "{uri} after the hiding");
    }
    // Counts: the facets' totals and the collection's listed count and floor leave it out.
    let facets_after = app.ok("/api/nft/facets?formOfSale=ALL", None).await;
    assert_eq!((facets["body"]["total"].as_i64(), facets_after["body"]["total"].as_i64()), (Some(2), Some(1)), "{facets_after}");
    let stats_after = app.ok(&format!("/api/stats/collection/{collection}"), None).await;
    let figures = |s: &Value| (s["body"]["stats"]["items"].as_i64(), s["body"]["stats"]["listed"].as_i64());
    assert_eq!((figures(&stats), figures(&stats_after)), ((Some(2), Some(2)), (Some(1), Some(1))));
    assert_eq!(card(&app).await, (Some(1), Some(1)), "the grid's card counts and previews it no more");
    // The feed's totals (the whole feed's and a kind's are kept by the projector) leave out its rows.
    let [all, mints, its_rows] = activity_before[..] else { unreachable!() };
    assert!(its_rows >= 2 && mints >= 2, "{activity_before:?}");
    assert_eq!(activity_totals(&app).await, [all - its_rows, mints - 1, 0], "activity totals after the hiding");
    let counts = app.ok(&format!("/api/nft/profilecounts/{}", ada.id), Some(&bob)).await;
    assert_eq!((counts["body"]["created"].as_i64(), counts["body"]["owned"].as_i64()), (Some(1), Some(1)), "{counts}");

    // The owner's own views keep it.
    for uri in [format!("/api/nft/usercreatednft/{}", ada.id), format!("/api/nft/usersnftartwork/{}", ada.id)] {
        let mut found = ids(&app.ok(&uri, Some(&ada)).await);
        found.sort();
        assert_eq!(found, both, "{uri} for its owner");
    }
    assert!(app.my_owned(&ada).await.contains(&"80001-1".to_owned()));

    // Restored: back in every list.
    let (status, _) = app.post("/api/moderation/nft/80001-1/restore", &mia, json!({ "text": "The original artist vouched" })).await;
    assert_eq!(status, StatusCode::OK);
    for (uri, found) in seen_by_bob(&app).await {
        assert_eq!(found, both, "{uri} after the restore");
    }
    assert_eq!(app.ok("/api/nft/facets?formOfSale=ALL", None).await, facets);
}

#[tokio::test]
async fn a_taken_down_file_is_still_served_to_its_owner_and_the_staff_and_kept_by_no_cache() {
    use tower::ServiceExt;
    let app = TestApp::new(None).await;
    let (ada, bob, mia, _adi) = market(&app).await;
    let stored = app.state.files.put(b"the artwork".to_vec()).await.unwrap();
    app.nft("3", "0xa1", &format!("/ipfs/{}", stored.cid)).await;
    let (status, body) = app.post("/api/moderation/nft/80001-3/hide", &mia, json!({ "text": "Explicit content" })).await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let file = async |header: Option<(&str, String)>| {
        let mut request = axum::http::Request::builder().uri(format!("/ipfs/{}", stored.cid));
        if let Some((name, value)) = header {
            request = request.header(name, value);
        }
        let router = api::http::app(app.state.clone(), std::path::Path::new("no-ui"));
        let response = router.oneshot(request.body(axum::body::Body::empty()).unwrap()).await.unwrap();
        let cache = response.headers().get("cache-control").map(|v| v.to_str().unwrap().to_owned());
        (response.status(), cache)
    };
    let bearer = |user: &User| Some(("authorization", format!("Bearer {}", user.token)));
    assert_eq!(file(None).await.0, StatusCode::UNAVAILABLE_FOR_LEGAL_REASONS, "to the public");
    assert_eq!(file(bearer(&bob)).await.0, StatusCode::UNAVAILABLE_FOR_LEGAL_REASONS, "to another person");
    assert_eq!(file(Some(("cookie", "secret=forged".into()))).await.0, StatusCode::UNAVAILABLE_FOR_LEGAL_REASONS);
    let private = (StatusCode::OK, Some("private, no-store".to_owned()));
    assert_eq!(file(bearer(&ada)).await, private, "to its owner, signed in");
    assert_eq!(file(Some(("cookie", format!("theme=dark; secret={}", ada.token)))).await, private, "to its owner's <img>");
    assert_eq!(file(bearer(&mia)).await, private, "to the staff, who judge it");

    let (status, _) = app.post("/api/moderation/nft/80001-3/restore", &mia, json!({ "text": "A classical nude, allowed" })).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(file(None).await, (StatusCode::OK, Some("public, max-age=31536000, immutable".to_owned())));
}
