//! The collection calls over a real event log, projector and read database: who may do what,
//! image and title rules, membership, likes, paging and deletion.

use api::http::AppState;
use axum::{
    body::Body,
    http::{Request, StatusCode, header},
};
use domain::{
    ExpectedVersion, Metadata,
    accounts::{AuthProvider, UserEvent, WalletProvider},
    catalog::CatalogEvent,
    chain::{ChainEvent, Origin, SaleType},
};
use serde_json::{Value, json};
use support::ReadApp;
use uuid::Uuid;

#[path = "../support/mod.rs"]
mod support;

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR a tiny picture";
const HTML: &[u8] = b"<!doctype html><html><body>not a picture</body></html>";

struct TestApp {
    app: ReadApp,
    state: AppState,
}

/// A signed-in user with a linked wallet.
struct User {
    id: Uuid,
    token: String,
}

impl TestApp {
    async fn new() -> Self {
        let app = ReadApp::new(&["--jwt-secret", "s"]).await;
        Self { state: app.state.clone(), app }
    }

    async fn settle(&self) {
        self.app.settle().await;
    }

    /// A verified user named `name` with wallet `wallet`, and a token for them.
    async fn user(&self, name: &str, wallet: &str) -> User {
        let id = Uuid::now_v7();
        let at = chrono::Utc::now();
        let events = [
            UserEvent::UserRegistered {
                user_id: id,
                email: format!("{name}@example.com"),
                username: name.into(),
                full_name: format!("{name} Doe"),
                password_hash: "$argon2id$x".into(),
                auth_provider: AuthProvider::Email,
                at,
            },
            UserEvent::AccountVerified { at },
            UserEvent::WalletLinked { provider: WalletProvider::Other, address: wallet.into(), at },
        ];
        let events = events.iter().map(|e| e.to_new_event(Metadata::default()).unwrap()).collect();
        self.state.store.append(&format!("user-{id}"), ExpectedVersion::NoStream, events).await.unwrap();
        self.settle().await;
        User { id, token: self.state.accounts.tokens.issue(id).unwrap() }
    }

    /// Token `token` minted by (and owned by) `owner`, titled, listed at a fixed price.
    async fn nft(&self, token: &str, owner: &str, title: &str) -> String {
        let origin = Origin { block_number: 1, block_time: 1_700_000_000, tx_hash: format!("0x{token}"), log_index: 0 };
        let events = [
            ChainEvent::NftMinted {
                token_id: token.into(),
                creator: owner.into(),
                token_uri: "/ipfs/m".into(),
                royalties: vec![],
                origin: origin.clone(),
            },
            ChainEvent::SaleUpdated {
                token_id: token.into(),
                sale_type: SaleType::FixedPrice,
                price: "1000000000000000000".into(),
                base_price: "0".into(),
                end_time: 0,
                auction_id: "0".into(),
                origin,
            },
        ];
        for event in events {
            self.chain(event).await;
        }
        let details = CatalogEvent::NftDetailsRecorded {
            chain_id: 80001,
            token_id: token.into(),
            title: title.into(),
            description: "".into(),
            category_id: "art".into(),
            file: format!("/ipfs/img{token}"),
            metadata_url: "/ipfs/m".into(),
            properties: vec![],
            creator_user_id: None,
        };
        self.state
            .store
            .append(&details.stream_id(), ExpectedVersion::Any, vec![details.to_new_event(Metadata::default()).unwrap()])
            .await
            .unwrap();
        self.settle().await;
        format!("80001-{token}")
    }

    async fn chain(&self, event: ChainEvent) {
        self.app.chain(&[event]).await;
    }

    async fn send(&self, request: Request<Body>) -> (StatusCode, Value) {
        let (status, body) = self.app.send(request).await;
        assert_eq!(body["statuscode"], status.as_u16(), "every answer is in the envelope: {body}");
        (status, body)
    }

    async fn call(&self, method: &str, uri: &str, user: Option<&User>, json: Option<Value>) -> (StatusCode, Value) {
        let mut request = Request::builder().method(method).uri(uri);
        if let Some(user) = user {
            request = request.header(header::AUTHORIZATION, format!("Bearer {}", user.token));
        }
        let request = match json {
            Some(json) => request.header(header::CONTENT_TYPE, "application/json").body(Body::from(json.to_string())),
            None => request.body(Body::empty()),
        };
        self.send(request.unwrap()).await
    }

    /// A multipart create (`POST /api/collection`) or update (`PUT /api/collection/{id}`).
    async fn form(&self, method: &str, uri: &str, user: &User, title: Option<&str>, image: Option<(&str, &[u8])>) -> (StatusCode, Value) {
        let mut body = Vec::new();
        if let Some(title) = title {
            body.extend_from_slice(format!("--b\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\n{title}\r\n").as_bytes());
        }
        if let Some((name, bytes)) = image {
            body.extend_from_slice(
                format!("--b\r\nContent-Disposition: form-data; name=\"image\"; filename=\"{name}\"\r\nContent-Type: image/png\r\n\r\n")
                    .as_bytes(),
            );
            body.extend_from_slice(bytes);
            body.extend_from_slice(b"\r\n");
        }
        body.extend_from_slice(b"--b--\r\n");
        let request = Request::builder()
            .method(method)
            .uri(uri)
            .header(header::AUTHORIZATION, format!("Bearer {}", user.token))
            .header(header::CONTENT_TYPE, "multipart/form-data; boundary=b")
            .body(Body::from(body))
            .unwrap();
        self.send(request).await
    }

    /// Creates a collection titled `title`; its id.
    async fn collection(&self, user: &User, title: &str) -> String {
        let (status, body) = self.form("POST", "/api/collection", user, Some(title), Some(("a.png", PNG))).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body["body"]["_id"].as_str().unwrap().to_owned()
    }
}

#[tokio::test]
async fn creating_a_collection_answers_its_card_and_stores_the_image() {
    let app = TestApp::new().await;
    let alice = app.user("alice", "0xa11ce").await;

    let (status, body) = app.form("POST", "/api/collection", &alice, Some("  Birds  "), Some(("birds.png", PNG))).await;

    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["message"], "Collection Created!");
    let card = &body["body"];
    assert_eq!(card["title"], "Birds");
    assert_eq!(
        card["creator"],
        json!({ "userId": alice.id.to_string(), "username": "alice", "fullName": "alice Doe", "avatar": "", "verified": false })
    );
    assert_eq!(card["verified"], false);
    assert_eq!((card["nftCount"].as_i64(), card["totalItems"].as_i64(), card["totalLikes"].as_i64()), (Some(0), Some(0), Some(0)));
    assert_eq!(card["isLiked"], false);
    let image = card["image"].as_str().unwrap();
    let cid = image.strip_prefix("/ipfs/").unwrap();
    assert_eq!(app.state.files.get(cid).await.unwrap().as_deref(), Some(PNG), "the image is served at its URL");
}

#[tokio::test]
async fn the_image_is_required_first_then_a_title_and_it_must_be_an_image_by_content() {
    let app = TestApp::new().await;
    let alice = app.user("alice", "0xa11ce").await;

    type Image<'a> = Option<(&'a str, &'a [u8])>;
    let cases: [(Option<&str>, Image, &str); 4] = [
        (Some(""), None, "Image is required"),
        (Some("Birds"), None, "Image is required"),
        (Some("   "), Some(("a.png", PNG)), "Title is required"),
        (Some("Birds"), Some(("renamed.png", HTML)), "Image must be a .png, .jpg or .webp file"),
    ];
    for (title, image, message) in cases {
        let (status, body) = app.form("POST", "/api/collection", &alice, title, image).await;
        assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some(message)), "{title:?}");
        assert_eq!(body["body"], Value::Null);
    }

    let (_, mine) = app.call("GET", "/api/collection", Some(&alice), None).await;
    assert_eq!(mine["body"]["totalItems"], 0, "nothing was created");
    let html_cid = api::files::cid::cid_v1(HTML);
    assert_eq!(app.state.files.get(&html_cid).await.unwrap(), None, "a refused image is not stored");
}

/// A title that is not one text part (a JSON value, a file, two titles) is a 400, on create
/// and on update, and nothing changes: a fuzzer's array once became a collection titled "[]".
#[tokio::test]
async fn a_title_sent_as_json_as_a_file_or_twice_is_refused_and_nothing_changes() {
    let app = TestApp::new().await;
    let alice = app.user("alice", "0xa11ce").await;
    let id = app.collection(&alice, "Birds").await;
    let image = "--b\r\nContent-Disposition: form-data; name=\"image\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n";
    let image = [image.as_bytes(), PNG, b"\r\n"].concat();
    let title = |headers: &str, text: &str| format!("--b\r\nContent-Disposition: form-data; name=\"title\"{headers}\r\n\r\n{text}\r\n");
    let cases = [
        (title("\r\nContent-Type: application/json", "[]"), "title: must be text"),
        (title("; filename=\"t.txt\"", "Cats"), "title: must be text"),
        (title("", "Cats") + &title("", "Dogs"), "title: sent more than once"),
    ];
    // `text/plain` (with a charset) is text.
    let plain = title("\r\nContent-Type: text/plain; charset=utf-8", "Plain");

    for (method, uri) in [("POST", "/api/collection".to_owned()), ("PUT", format!("/api/collection/{id}"))] {
        for (parts, message) in &cases {
            let head = app.state.store.head().await.unwrap().0;
            let body = [parts.as_bytes(), &image, b"--b--\r\n"].concat();
            let request = Request::builder()
                .method(method)
                .uri(&uri)
                .header(header::AUTHORIZATION, format!("Bearer {}", alice.token))
                .header(header::CONTENT_TYPE, "multipart/form-data; boundary=b")
                .body(Body::from(body))
                .unwrap();
            let (status, body) = app.send(request).await;
            assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some(*message)), "{method} {parts:?}");
            assert_eq!(app.state.store.head().await.unwrap().0, head, "{method} {parts:?}: nothing appended");
        }
    }
    app.settle().await;
    let (_, mine) = app.call("GET", "/api/collection", Some(&alice), None).await;
    let titles: Vec<&str> = mine["body"]["data"].as_array().unwrap().iter().map(|c| c["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["Birds"], "nothing created, the title unchanged");

    let body = [plain.as_bytes(), b"--b--\r\n"].concat();
    let request = Request::builder()
        .method("PUT")
        .uri(format!("/api/collection/{id}"))
        .header(header::AUTHORIZATION, format!("Bearer {}", alice.token))
        .header(header::CONTENT_TYPE, "multipart/form-data; boundary=b")
        .body(Body::from(body))
        .unwrap();
    let (status, body) = app.send(request).await;
    assert_eq!((status, body["body"]["title"].as_str()), (StatusCode::OK, Some("Plain")), "{body}");
}

#[tokio::test]
async fn signed_out_callers_get_401_in_the_envelope() {
    let app = TestApp::new().await;
    for (method, uri) in [("GET", "/api/collection"), ("PUT", "/api/collection/like/x"), ("DELETE", "/api/collection/x")] {
        let (status, body) = app.call(method, uri, None, None).await;
        assert_eq!((status, body["statuscode"].as_u64()), (StatusCode::UNAUTHORIZED, Some(401)), "{method} {uri}");
    }
}

#[tokio::test]
async fn only_the_creator_edits_deletes_adds_or_removes() {
    let app = TestApp::new().await;
    let alice = app.user("alice", "0xa11ce").await;
    let bob = app.user("bob", "0xb0b").await;
    let nft = app.nft("1", "0xa11ce", "Sunset").await;
    let bobs_nft = app.nft("2", "0xb0b", "Dawn").await;
    let birds = app.collection(&alice, "Birds").await;
    let (status, _) = app.call("PUT", &format!("/api/collection/nft/{birds}"), Some(&alice), Some(json!([{ "nftId": nft }]))).await;
    assert_eq!(status, StatusCode::OK);

    let refused = [
        app.form("PUT", &format!("/api/collection/{birds}"), &bob, Some("Mine now"), None).await,
        app.call("DELETE", &format!("/api/collection/{birds}"), Some(&bob), None).await,
        app.call("PUT", &format!("/api/collection/nft/{birds}"), Some(&bob), Some(json!([{ "nftId": bobs_nft }]))).await,
        app.call("PUT", &format!("/api/collection/nft/{birds}/{nft}"), Some(&bob), None).await,
    ];

    for (status, body) in refused {
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
        assert_eq!(body["message"], "Only the creator of this collection can change it");
    }
    let (_, card) = app.call("GET", &format!("/api/collection/browsebyid/{birds}"), None, None).await;
    assert_eq!((card["body"]["title"].as_str(), card["body"]["nftCount"].as_i64()), (Some("Birds"), Some(1)), "nothing changed");
}

#[tokio::test]
async fn only_owned_nfts_are_added_once_and_listed_in_the_collection() {
    let app = TestApp::new().await;
    let alice = app.user("alice", "0xa11ce").await;
    app.user("bob", "0xb0b").await;
    let sunset = app.nft("1", "0xa11ce", "Sunset").await;
    let dusk = app.nft("2", "0xa11ce", "Dusk").await;
    let bobs = app.nft("3", "0xb0b", "Dawn").await;
    let birds = app.collection(&alice, "Birds").await;
    let add_uri = format!("/api/collection/nft/{birds}");
    let add = |nfts: Value| app.call("PUT", &add_uri, Some(&alice), Some(nfts));

    let (status, body) = add(json!([{ "nftId": bobs }])).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("You do not own NFT 80001-3")));
    let (status, body) = add(json!([{ "nftId": "80001-99" }])).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("NFT 80001-99 not found")));
    let (status, body) = add(json!([{ "nftId": sunset }, { "nftId": dusk }])).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["body"]["nftCount"], 2);
    let mut previews: Vec<&str> = body["body"]["nftImages"].as_array().unwrap().iter().map(|i| i.as_str().unwrap()).collect();
    previews.sort();
    assert_eq!(previews, ["/ipfs/img1", "/ipfs/img2"]);
    let (status, body) = add(json!([{ "nftId": sunset }])).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("NFT 80001-1 is already in this collection")));
    let (status, _) = add(json!({ "nftId": sunset })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "not an array");

    let (status, listed) = app.call("GET", &format!("/api/nft/browsebycollection/{birds}?sortBy=DATE&orderBy=1"), None, None).await;
    assert_eq!(status, StatusCode::OK);
    let titles: Vec<&str> = listed["body"]["data"].as_array().unwrap().iter().map(|n| n["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["Sunset", "Dusk"]);
    assert_eq!(listed["body"]["data"][0]["currentOwner"]["ownerAddress"], "0xa11ce", "explore's card shape");
    let (_, searched) = app.call("GET", &format!("/api/nft/browsebycollection/{birds}?search=dus"), None, None).await;
    assert_eq!(searched["body"]["totalItems"], 1);

    let (status, body) = app.call("PUT", &format!("/api/collection/nft/{birds}/{sunset}"), Some(&alice), None).await;
    assert_eq!((status, body["body"]["nftCount"].as_i64()), (StatusCode::OK, Some(1)));
    let (status, body) = app.call("PUT", &format!("/api/collection/nft/{birds}/{sunset}"), Some(&alice), None).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("NFT 80001-1 is not in this collection")));
}

#[tokio::test]
async fn an_nft_transferred_away_leaves_the_collection() {
    let app = TestApp::new().await;
    let alice = app.user("alice", "0xa11ce").await;
    let sunset = app.nft("1", "0xa11ce", "Sunset").await;
    let birds = app.collection(&alice, "Birds").await;
    app.call("PUT", &format!("/api/collection/nft/{birds}"), Some(&alice), Some(json!([{ "nftId": sunset }]))).await;

    let origin = Origin { block_number: 5, block_time: 1_700_000_100, tx_hash: "0x5".into(), log_index: 0 };
    app.chain(ChainEvent::NftTransferred { token_id: "1".into(), from: "0xa11ce".into(), to: "0xb0b".into(), origin }).await;

    let (_, card) = app.call("GET", &format!("/api/collection/browsebyid/{birds}"), None, None).await;
    assert_eq!(card["body"]["nftCount"], 0);
    let (_, listed) = app.call("GET", &format!("/api/nft/browsebycollection/{birds}"), None, None).await;
    assert_eq!(listed["body"]["totalItems"], 0);
}

#[tokio::test]
async fn a_like_toggles_and_shows_for_the_viewer() {
    let app = TestApp::new().await;
    let alice = app.user("alice", "0xa11ce").await;
    let bob = app.user("bob", "0xb0b").await;
    let birds = app.collection(&alice, "Birds").await;
    let like_uri = format!("/api/collection/like/{birds}");
    let like = || app.call("PUT", &like_uri, Some(&bob), None);

    let (status, body) = like().await;
    assert_eq!((status, &body["body"]), (StatusCode::OK, &json!({ "isLiked": true, "totalLikes": 1 })));
    let (_, seen_by_bob) = app.call("GET", "/api/collection/browse", Some(&bob), None).await;
    assert_eq!(
        (seen_by_bob["body"]["data"][0]["isLiked"].as_bool(), seen_by_bob["body"]["data"][0]["totalLikes"].as_i64()),
        (Some(true), Some(1))
    );
    let (_, seen_by_alice) = app.call("GET", "/api/collection/browse", Some(&alice), None).await;
    assert_eq!(seen_by_alice["body"]["data"][0]["isLiked"], false);

    let (_, body) = like().await;
    assert_eq!(body["body"], json!({ "isLiked": false, "totalLikes": 0 }));
    let (_, card) = app.call("GET", &format!("/api/collection/browsebyid/{birds}"), Some(&bob), None).await;
    assert_eq!((card["body"]["isLiked"].as_bool(), card["body"]["totalLikes"].as_i64()), (Some(false), Some(0)));
}

#[tokio::test]
async fn grids_filter_by_user_search_sort_and_page_past_the_end() {
    let app = TestApp::new().await;
    let alice = app.user("alice", "0xa11ce").await;
    let bob = app.user("bob", "0xb0b").await;
    for title in ["Birds", "Sea birds", "Trees"] {
        app.collection(&alice, title).await;
    }
    app.collection(&bob, "Shells").await;
    let titles = |body: &Value| -> Vec<String> {
        body["body"]["data"].as_array().unwrap().iter().map(|c| c["title"].as_str().unwrap().to_owned()).collect()
    };

    let (_, mine) = app.call("GET", "/api/collection?limit=2", Some(&alice), None).await;
    assert_eq!(
        (titles(&mine), mine["body"]["totalItems"].as_i64(), mine["body"]["lastPage"].as_bool()),
        (vec!["Trees".into(), "Sea birds".into()], Some(3), Some(false))
    );
    let (_, oldest) = app.call("GET", "/api/collection?orderBy=1&search=BIRD", Some(&alice), None).await;
    assert_eq!(titles(&oldest), ["Birds", "Sea birds"]);
    let (_, bobs) = app.call("GET", &format!("/api/collection/browse?userId={}", bob.id), None, None).await;
    assert_eq!(titles(&bobs), ["Shells"]);
    let (_, everyone) = app.call("GET", "/api/collection/browse?limit=9", None, None).await;
    assert_eq!(everyone["body"]["totalItems"], 4);
    assert_eq!(titles(&everyone), ["Shells", "Trees", "Sea birds", "Birds"], "newest first");

    // The public grid puts the collections with NFTs on their page first, whatever the order.
    let (_, birds) = app.call("GET", "/api/collection/browse?search=birds&orderBy=1", None, None).await;
    let birds = birds["body"]["data"][0]["_id"].as_str().unwrap().to_owned();
    let sunset = app.nft("1", "0xa11ce", "Sunset").await;
    let (status, _) = app.call("PUT", &format!("/api/collection/nft/{birds}"), Some(&alice), Some(json!([{ "nftId": sunset }]))).await;
    assert_eq!(status, StatusCode::OK);
    let (_, everyone) = app.call("GET", "/api/collection/browse", None, None).await;
    assert_eq!(titles(&everyone), ["Birds", "Shells", "Trees", "Sea birds"]);
    let (_, by_title) = app.call("GET", "/api/collection/browse?sortBy=TITLE&orderBy=1", None, None).await;
    assert_eq!(titles(&by_title), ["Birds", "Sea birds", "Shells", "Trees"]);
    let (_, by_items) = app.call("GET", "/api/collection/browse?sortBy=ITEMS", None, None).await;
    assert_eq!(titles(&by_items)[0], "Birds");
    let (_, mine) = app.call("GET", "/api/collection", Some(&alice), None).await;
    assert_eq!(titles(&mine), ["Trees", "Sea birds", "Birds"], "the user's own list (the add dialog) stays newest first");

    let (status, past) = app.call("GET", "/api/collection/browse?page=7&limit=9", None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (past["body"]["data"].as_array().unwrap().len(), past["body"]["lastPage"].as_bool(), past["body"]["currentPage"].as_u64()),
        (0, Some(true), Some(7))
    );
    let (status, body) = app.call("GET", "/api/collection/browse?userId=nobody", None, None).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("userId must be a user id")));
    let (status, body) = app.call("GET", "/api/collection/browse?sortBy=PRICE", None, None).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("sortBy must be one of DATE, POPULARITY, ITEMS, TITLE")));
}

#[tokio::test]
async fn a_deleted_collection_answers_404_everywhere() {
    let app = TestApp::new().await;
    let alice = app.user("alice", "0xa11ce").await;
    let birds = app.collection(&alice, "Birds").await;
    let (status, body) = app.call("DELETE", &format!("/api/collection/{birds}"), Some(&alice), None).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::OK, Some("Collection deleted")));

    let answers = [
        app.call("GET", &format!("/api/collection/browsebyid/{birds}"), None, None).await,
        app.call("GET", &format!("/api/nft/browsebycollection/{birds}"), None, None).await,
        app.call("PUT", &format!("/api/collection/like/{birds}"), Some(&alice), None).await,
        app.call("DELETE", &format!("/api/collection/{birds}"), Some(&alice), None).await,
        app.form("PUT", &format!("/api/collection/{birds}"), &alice, Some("Back"), None).await,
        app.call("GET", "/api/collection/browsebyid/not-a-uuid", None, None).await,
    ];
    for (status, body) in answers {
        assert_eq!((status, body["message"].as_str()), (StatusCode::NOT_FOUND, Some("Collection not found")));
    }
    let (_, mine) = app.call("GET", "/api/collection", Some(&alice), None).await;
    assert_eq!(mine["body"]["totalItems"], 0);
}

#[tokio::test]
async fn an_update_changes_what_it_sends_and_checks_it() {
    let app = TestApp::new().await;
    let alice = app.user("alice", "0xa11ce").await;
    let birds = app.collection(&alice, "Birds").await;
    let uri = format!("/api/collection/{birds}");

    let (status, body) = app.form("PUT", &uri, &alice, Some("Sea birds"), None).await;
    assert_eq!(
        (status, body["message"].as_str(), body["body"]["title"].as_str()),
        (StatusCode::OK, Some("Collection updated!"), Some("Sea birds"))
    );
    let (status, body) = app.form("PUT", &uri, &alice, None, Some(("x.png", HTML))).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("Image must be a .png, .jpg or .webp file")));
    let (status, body) = app.form("PUT", &uri, &alice, Some(" "), None).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some("Title is required")));
}

#[tokio::test]
async fn statistics_show_on_cards_the_ranking_and_the_price_history_and_follow_a_sale() {
    let app = TestApp::new().await;
    let alice = app.user("alice", "0xa11ce").await;
    let sunset = app.nft("1", "0xa11ce", "Sunset").await;
    let dawn = app.nft("2", "0xa11ce", "Dawn").await;
    let birds = app.collection(&alice, "Birds").await;
    app.call("PUT", &format!("/api/collection/nft/{birds}"), Some(&alice), Some(json!([{ "nftId": sunset }, { "nftId": dawn }]))).await;
    app.chain(ChainEvent::PriceChanged {
        token_id: "2".into(),
        price: "2000000000000000000".into(),
        origin: Origin { block_number: 2, block_time: 1_700_000_010, tx_hash: "0x2b".into(), log_index: 0 },
    })
    .await;

    let (_, card) = app.call("GET", &format!("/api/collection/browsebyid/{birds}"), None, None).await;
    assert_eq!((card["body"]["floorPrice"].as_str(), card["body"]["volume"].as_str()), (Some("1"), Some("0")));

    // Token 1 (the floor) sells now for 1 MATIC: the floor moves to token 2's 2 MATIC, at once.
    let now = chrono::Utc::now().timestamp();
    let origin = Origin { block_number: 6, block_time: now, tx_hash: "0x6".into(), log_index: 0 };
    app.chain(ChainEvent::NftTransferred { token_id: "1".into(), from: "0xa11ce".into(), to: "0xb0b".into(), origin: origin.clone() })
        .await;
    app.chain(ChainEvent::NftSold {
        token_id: "1".into(),
        auction_id: "0".into(),
        buyer: "0xb0b".into(),
        seller: "0xa11ce".into(),
        price: "1000000000000000000".into(),
        fee: "0".into(),
        royalties: "0".into(),
        seller_proceeds: "1000000000000000000".into(),
        origin,
    })
    .await;
    let (_, grid) = app.call("GET", "/api/collection/browse", None, None).await;
    let card = &grid["body"]["data"][0];
    assert_eq!(
        (card["floorPrice"].as_str(), card["volume"].as_str(), card["volumeWei"].as_str()),
        (Some("2"), Some("1"), Some("1000000000000000000"))
    );

    let (status, stats) = app.call("GET", &format!("/api/stats/collection/{birds}"), None, None).await;
    assert_eq!(status, StatusCode::OK);
    let figures = &stats["body"]["stats"];
    assert_eq!(
        (figures["volume24h"].as_str(), figures["sales"].as_i64(), figures["owners"].as_i64(), figures["items"].as_i64()),
        (Some("1"), Some(1), Some(2), Some(2))
    );
    assert_eq!(stats["body"]["days"].as_array().unwrap().last().unwrap()["volume"], "1");

    let (status, ranked) = app.call("GET", "/api/stats/collections?period=24H&sortBy=VOLUME", None, None).await;
    assert_eq!(status, StatusCode::OK);
    let row = &ranked["body"]["data"][0];
    assert_eq!(
        (row["title"].as_str(), row["rank"].as_i64(), row["volume"].as_str(), row["sales"].as_i64()),
        (Some("Birds"), Some(1), Some("1"), Some(1))
    );
    assert_eq!(row["change"], Value::Null, "nothing sold the day before");

    let (status, history) = app.call("GET", &format!("/api/nft/pricehistory/{sunset}"), None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        history["body"],
        json!([{ "kind": "SALE", "price": "1", "priceWei": "1000000000000000000", "at": now, "address": "0xb0b", "txHash": "0x6" }])
    );
    assert_eq!(app.call("GET", &format!("/api/nft/pricehistory/{dawn}"), None, None).await.1["body"], json!([]), "never sold");
}

#[tokio::test]
async fn bad_statistics_requests_answer_400_or_404_in_the_envelope() {
    let app = TestApp::new().await;
    for (uri, field) in [
        ("/api/stats/collections?period=1Y", "period"),
        ("/api/stats/collections?period=24h", "period"),
        ("/api/stats/collections?sortBy=PRICE", "sortBy"),
        ("/api/stats/collections?orderBy=2", "orderBy"),
        ("/api/stats/collections?page=0", "page"),
        ("/api/stats/collections?limit=1000", "limit"),
    ] {
        let (status, body) = app.call("GET", uri, None, None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}");
        assert!(body["message"].as_str().unwrap().starts_with(field), "{uri}: {body}");
        assert_eq!(body["body"], Value::Null);
    }
    let (status, _) = app.call("GET", &format!("/api/stats/collection/{}", Uuid::now_v7()), None, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = app.call("GET", "/api/stats/collection/not-a-uuid", None, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = app.call("GET", "/api/nft/pricehistory/80001-404", None, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}
