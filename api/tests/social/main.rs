//! Likes, bookmarks and the per-user NFT lists over a real event log, a running projector and a
//! read database: what each caller sees, and that nobody sees someone else's flags.

use api::http::AppState;
use axum::{
    body::Body,
    http::{Method, Request, StatusCode, header},
};
use chrono::Utc;
use domain::{
    ExpectedVersion, Metadata, StreamAppend,
    accounts::{AuthProvider, UserEvent, WalletProvider, user_stream},
    catalog::CatalogEvent,
    chain::{ChainEvent, Origin, SaleType},
    collections::{CollectionEvent, collection_stream},
    social::social_stream,
    test_utils::TestPostgres,
};
use serde_json::Value;
use support::ProjectorTask;
use tower::ServiceExt;
use uuid::Uuid;

#[path = "../support/mod.rs"]
mod support;

struct TestApp {
    state: AppState,
    _projector: ProjectorTask,
    _dir: tempfile::TempDir,
    _postgres: Option<TestPostgres>,
}

/// A signed-in user.
struct User {
    id: Uuid,
    token: String,
}

impl TestApp {
    /// On a SQLite log.
    async fn new() -> Self {
        Self::with_log(None).await
    }

    /// On a fresh Postgres database (log and read tables).
    async fn on_postgres() -> Self {
        Self::with_log(Some(TestPostgres::create().await)).await
    }

    async fn with_log(postgres: Option<TestPostgres>) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let mut args = vec!["--jwt-secret", "test-secret", "--contract-address", "0xc0ffee"];
        if let Some(db) = &postgres {
            args.extend(["--database-url", db.url.as_str()]);
        }
        let config = support::config(&dir, &args);
        let (state, projector) = support::fresh_state(config, true).await;
        Self { state: state.with_chain(support::no_chain(), None), _projector: projector, _dir: dir, _postgres: postgres }
    }

    /// Waits until the read tables show everything appended so far (a bound for a stuck
    /// projector, not a speed: fifty racing toggles on Postgres took over 10 s on a loaded machine).
    async fn projected(&self) {
        let head = self.state.store.head().await.unwrap().0;
        self.state.projector.wait_for(head, std::time::Duration::from_secs(60)).await.unwrap();
    }

    /// A verified user with these wallets linked, and an access token.
    async fn user(&self, name: &str, wallets: &[&str]) -> User {
        let id = Uuid::now_v7();
        let at = Utc::now();
        let mut events = vec![
            UserEvent::UserRegistered {
                user_id: id,
                email: format!("{name}@example.com"),
                username: name.into(),
                full_name: format!("{name} Doe"),
                password_hash: "$argon2id$unused".into(),
                auth_provider: AuthProvider::Email,
                at,
            },
            UserEvent::AccountVerified { at },
        ];
        events.extend(wallets.iter().map(|w| UserEvent::WalletLinked { provider: WalletProvider::Other, address: (*w).into(), at }));
        let events = events.iter().map(|e| e.to_new_event(Metadata::default()).unwrap()).collect();
        self.state.store.append(&user_stream(id), ExpectedVersion::NoStream, events).await.unwrap();
        self.projected().await;
        User { id, token: self.state.accounts.tokens.issue(id).unwrap() }
    }

    /// Chain facts, as the indexer appends them.
    async fn chain(&self, events: &[ChainEvent]) {
        for event in events {
            let append = StreamAppend {
                stream_id: event.stream_id(80001),
                expected: ExpectedVersion::Any,
                events: vec![event.to_new_event(Uuid::now_v7(), Metadata::default()).unwrap()],
            };
            self.state.store.append_streams(vec![append]).await.unwrap();
        }
        self.projected().await;
    }

    /// A title and description for a token.
    async fn describe(&self, token: &str, title: &str) {
        let details = CatalogEvent::NftDetailsRecorded {
            chain_id: 80001,
            token_id: token.into(),
            title: title.into(),
            description: format!("About {title}"),
            category_id: "art".into(),
            file: "/ipfs/img".into(),
            metadata_url: "/ipfs/m".into(),
            properties: vec![],
            creator_user_id: None,
        };
        let event = details.to_new_event(Metadata::default()).unwrap();
        self.state.store.append(&details.stream_id(), ExpectedVersion::Any, vec![event]).await.unwrap();
        self.projected().await;
    }

    async fn call(&self, method: Method, uri: &str, token: Option<&str>) -> (StatusCode, Value) {
        let mut request = Request::builder().method(method).uri(uri);
        if let Some(token) = token {
            request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        let app = api::http::app(self.state.clone(), std::path::Path::new("no-ui"));
        let response = app.oneshot(request.body(Body::empty()).unwrap()).await.unwrap();
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 22).await.unwrap();
        (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
    }

    async fn get(&self, uri: &str, user: Option<&User>) -> (StatusCode, Value) {
        self.call(Method::GET, uri, user.map(|u| u.token.as_str())).await
    }

    async fn put(&self, uri: &str, user: Option<&User>) -> (StatusCode, Value) {
        self.call(Method::PUT, uri, user.map(|u| u.token.as_str())).await
    }

    /// `(id, isLiked, isBookmarked, totalLikes)` of each NFT of a list answer.
    async fn cards(&self, uri: &str, user: Option<&User>) -> Vec<(String, bool, bool, i64)> {
        let (status, body) = self.get(uri, user).await;
        assert_eq!(status, StatusCode::OK, "{uri}: {body}");
        body["body"]["data"].as_array().unwrap().iter().map(flags).collect()
    }

    /// The NFT ids of a list answer.
    async fn ids(&self, uri: &str, user: Option<&User>) -> Vec<String> {
        self.cards(uri, user).await.into_iter().map(|c| c.0).collect()
    }
}

fn flags(nft: &Value) -> (String, bool, bool, i64) {
    (
        nft["_id"].as_str().unwrap().to_owned(),
        nft["isLiked"].as_bool().unwrap(),
        nft["isBookmarked"].as_bool().unwrap(),
        nft["totalLikes"].as_i64().unwrap(),
    )
}

fn origin(block: u64) -> Origin {
    Origin { block_number: block, block_time: 1_700_000_000 + block as i64, tx_hash: format!("0x{block:064x}"), log_index: 0 }
}

fn minted(token: &str, creator: &str, block: u64) -> ChainEvent {
    ChainEvent::NftMinted {
        token_id: token.into(),
        creator: creator.into(),
        token_uri: "/ipfs/m".into(),
        royalties: vec![],
        origin: origin(block),
    }
}

fn listed(token: &str, sale_type: SaleType, wei: &str) -> ChainEvent {
    let auction = sale_type == SaleType::Auction;
    ChainEvent::SaleUpdated {
        token_id: token.into(),
        sale_type,
        price: wei.into(),
        base_price: if auction { "1".into() } else { "0".into() },
        end_time: if auction { 4_000_000_000 } else { 0 },
        auction_id: if auction { "1".into() } else { "0".into() },
        origin: origin(50),
    }
}

fn transferred(token: &str, from: &str, to: &str) -> ChainEvent {
    ChainEvent::NftTransferred { token_id: token.into(), from: from.into(), to: to.into(), origin: origin(60) }
}

/// Two fixed-price listings and an auction by 0xa1.
async fn market(app: &TestApp) {
    app.chain(&[
        minted("1", "0xa1", 1),
        listed("1", SaleType::FixedPrice, "1000"),
        minted("2", "0xa1", 2),
        listed("2", SaleType::FixedPrice, "2000"),
        minted("3", "0xa1", 3),
        listed("3", SaleType::Auction, "3000"),
    ])
    .await;
}

#[tokio::test]
async fn a_like_toggles_and_answers_the_new_state_and_count() {
    let app = TestApp::new().await;
    market(&app).await;
    let (alice, bob) = (app.user("alice", &[]).await, app.user("bob", &[]).await);

    let (status, body) = app.put("/api/nft/like/80001-1", Some(&alice)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!((body["statuscode"].as_i64(), body["message"].as_str()), (Some(200), Some("NFT liked")));
    assert_eq!(body["body"], serde_json::json!({ "isLiked": true, "totalLikes": 1 }));
    let (_, body) = app.put("/api/nft/like/80001-1", Some(&bob)).await;
    assert_eq!(body["body"], serde_json::json!({ "isLiked": true, "totalLikes": 2 }));
    let (_, body) = app.put("/api/nft/like/80001-1", Some(&alice)).await;
    assert_eq!(body["body"], serde_json::json!({ "isLiked": false, "totalLikes": 1 }), "the second toggle takes it back");
    assert_eq!(body["message"], "NFT unliked");

    // Read your writes: the detail shows it at once, each viewer their own flag.
    let (_, detail) = app.get("/api/nft/detail/80001-1", Some(&bob)).await;
    assert_eq!(flags(&detail["body"]), ("80001-1".into(), true, false, 1));
    let (_, detail) = app.get("/api/nft/detail/80001-1", Some(&alice)).await;
    assert_eq!(flags(&detail["body"]), ("80001-1".into(), false, false, 1));
    let (_, detail) = app.get("/api/nft/detail/80001-1", None).await;
    assert_eq!(flags(&detail["body"]), ("80001-1".into(), false, false, 1));

    // The history names who liked and took it back.
    let (_, history) = app.get("/api/nft/nfthistory/80001-1", None).await;
    let rows: Vec<(&str, &str)> = history["body"]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["typeOfEvent"].as_str().unwrap(), h["username"].as_str().unwrap_or("-")))
        .collect();
    assert_eq!(rows, [("UNLIKED", "alice"), ("LIKED", "bob"), ("LIKED", "alice"), ("PUT_ON_FIXEDSALE", "-"), ("MINTED", "-")]);
}

#[tokio::test]
async fn likes_count_in_popularity_and_trending() {
    let app = TestApp::new().await;
    market(&app).await;
    let (alice, bob) = (app.user("alice", &[]).await, app.user("bob", &[]).await);
    let popular = "/api/nft/explore/?formOfSale=FIXEDPRICE&sortBy=POPULARITY";
    assert_eq!(app.ids(popular, None).await, ["80001-2", "80001-1"]);

    app.put("/api/nft/like/80001-1", Some(&alice)).await;
    app.put("/api/nft/like/80001-1", Some(&bob)).await;

    assert_eq!(app.ids(popular, None).await, ["80001-1", "80001-2"]);
    let trending = app.cards("/api/nft/trendingnfts?formOfSale=FIXEDPRICE", Some(&alice)).await;
    assert_eq!(trending[0], ("80001-1".into(), true, false, 2));
}

#[tokio::test]
async fn someone_elses_flags_never_show_in_the_shared_explore_answer() {
    let app = TestApp::new().await;
    market(&app).await;
    let (alice, bob) = (app.user("alice", &[]).await, app.user("bob", &[]).await);
    app.put("/api/nft/like/80001-2", Some(&alice)).await;
    app.put("/api/nft/bookmark/80001-1", Some(&alice)).await;
    let uri = "/api/nft/explore/?formOfSale=FIXEDPRICE&sortBy=PRICE&orderBy=1";

    // Nobody first: the answer is computed and kept for everyone.
    let anonymous = app.cards(uri, None).await;
    let for_alice = app.cards(uri, Some(&alice)).await;
    let for_bob = app.cards(uri, Some(&bob)).await;
    let anonymous_again = app.cards(uri, None).await;

    assert_eq!(anonymous, [("80001-1".into(), false, false, 0), ("80001-2".into(), false, false, 1)]);
    assert_eq!(for_alice, [("80001-1".into(), false, true, 0), ("80001-2".into(), true, false, 1)]);
    assert_eq!(for_bob, anonymous, "bob sees none of alice's flags");
    assert_eq!(anonymous_again, anonymous, "laying alice's flags on the shared answer left it alone");
    // Everything but the flags is byte for byte the shared answer.
    let (_, mut alice_body) = app.get(uri, Some(&alice)).await;
    let (_, anonymous_body) = app.get(uri, None).await;
    for card in alice_body["body"]["data"].as_array_mut().unwrap() {
        card["isLiked"] = false.into();
        card["isBookmarked"] = false.into();
    }
    assert_eq!(alice_body, anonymous_body);
    // An expired or forged token on a public list is simply nobody.
    let (status, body) = app.call(Method::GET, uri, Some("not-a-token")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body["body"]["data"].as_array().unwrap().iter().all(|n| n["isLiked"] == false && n["isBookmarked"] == false));
}

#[tokio::test]
async fn bookmarks_toggle_and_list_by_sale_type_for_their_owner_only() {
    let app = TestApp::new().await;
    market(&app).await;
    app.describe("1", "Golden tiger").await;
    app.describe("2", "Silver fox").await;
    let (alice, bob) = (app.user("alice", &[]).await, app.user("bob", &[]).await);

    let (status, body) = app.put("/api/nft/bookmark/80001-1", Some(&alice)).await;
    assert_eq!((status, &body["body"]), (StatusCode::OK, &serde_json::json!({ "isBookmarked": true })));
    assert_eq!(body["message"], "NFT bookmarked");
    app.put("/api/nft/bookmark/80001-2", Some(&alice)).await;
    app.put("/api/nft/bookmark/80001-3", Some(&alice)).await;
    app.put("/api/nft/bookmark/80001-2", Some(&bob)).await;

    let fixed = app.cards("/api/nft/browsebookmarked?sortBy=PRICE&orderBy=0", Some(&alice)).await;
    assert_eq!(fixed, [("80001-2".into(), false, true, 0), ("80001-1".into(), false, true, 0)], "FIXEDPRICE by default");
    assert_eq!(app.ids("/api/nft/browsebookmarked?formOfSale=AUCTION", Some(&alice)).await, ["80001-3"]);
    assert_eq!(app.ids("/api/nft/browsebookmarked?formOfSale=FIXEDPRICE&search=tig", Some(&alice)).await, ["80001-1"]);
    assert_eq!(app.ids("/api/nft/browsebookmarked", Some(&bob)).await, ["80001-2"]);

    let (_, body) = app.put("/api/nft/bookmark/80001-1", Some(&alice)).await;
    assert_eq!((&body["body"], body["message"].as_str()), (&serde_json::json!({ "isBookmarked": false }), Some("Bookmark removed")));
    assert_eq!(app.ids("/api/nft/browsebookmarked", Some(&alice)).await, ["80001-2"]);
    let (status, body) = app.get("/api/nft/browsebookmarked?formOfSale=NOT_FOR_SALE", Some(&alice)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["message"].as_str().unwrap().starts_with("formOfSale"));
}

#[tokio::test]
async fn toggles_need_a_valid_token_and_a_known_nft() {
    let app = TestApp::new().await;
    market(&app).await;
    app.chain(&[minted("9", "0xa1", 9), ChainEvent::NftBurned { token_id: "9".into(), owner: "0xa1".into(), origin: origin(70) }]).await;
    let alice = app.user("alice", &[]).await;
    let now = Utc::now().timestamp();
    let claims = api::http::auth::tokens::Claims { sub: alice.id.to_string(), iat: now - 90_000, exp: now - 3_600 };
    let expired = app.state.accounts.tokens.sign(&claims).unwrap();
    let stranger = User { id: Uuid::now_v7(), token: String::new() };
    let stranger = User { token: app.state.accounts.tokens.issue(stranger.id).unwrap(), ..stranger };

    for path in ["/api/nft/like/80001-1", "/api/nft/bookmark/80001-1"] {
        let (status, body) = app.put(path, None).await;
        assert_eq!((status, body["statuscode"].as_i64()), (StatusCode::UNAUTHORIZED, Some(401)), "{path}");
        let (status, _) = app.call(Method::PUT, path, Some(&expired)).await;
        assert_eq!(status, StatusCode::GONE, "{path}: expired");
        let (status, _) = app.call(Method::PUT, path, Some("forged.token.here")).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}: forged");
        let (status, _) = app.put(path, Some(&stranger)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}: a token of no account");
    }
    for path in ["/api/nft/like/80001-404", "/api/nft/bookmark/80001-404", "/api/nft/like/80001-9", "/api/nft/bookmark/nonsense"] {
        let (status, body) = app.put(path, Some(&alice)).await;
        assert_eq!((status, body["statuscode"].as_i64(), body["body"].is_null()), (StatusCode::NOT_FOUND, Some(404), true), "{path}");
    }
    for path in ["/api/nft/mycreatednft", "/api/nft/mynftartwork", "/api/nft/browsebookmarked"] {
        assert_eq!(app.get(path, None).await.0, StatusCode::UNAUTHORIZED, "{path}");
        assert_eq!(app.call(Method::GET, path, Some(&expired)).await.0, StatusCode::GONE, "{path}");
    }
    // Nothing was recorded by the refused calls.
    let (_, detail) = app.get("/api/nft/detail/80001-1", Some(&alice)).await;
    assert_eq!(flags(&detail["body"]), ("80001-1".into(), false, false, 0));
}

#[tokio::test]
async fn profile_lists_follow_every_wallet_of_the_user_and_a_transfer() {
    let app = TestApp::new().await;
    let alice = app.user("alice", &["0xa1", "0xa2"]).await;
    let bob = app.user("bob", &["0xb1"]).await;
    app.chain(&[
        minted("1", "0xa1", 1),
        listed("1", SaleType::FixedPrice, "3000"),
        minted("2", "0xa2", 2),
        listed("2", SaleType::Auction, "1000"),
        minted("3", "0xa1", 3),
        minted("4", "0xb1", 4),
        listed("4", SaleType::FixedPrice, "500"),
        minted("5", "0xnobody", 5),
    ])
    .await;
    app.describe("1", "Golden tiger").await;
    app.describe("3", "Golden river").await;

    assert_eq!(app.ids("/api/nft/mycreatednft", Some(&alice)).await, ["80001-3", "80001-2", "80001-1"], "newest first, both wallets");
    assert_eq!(app.ids("/api/nft/mycreatednft?orderBy=1", Some(&alice)).await, ["80001-1", "80001-2", "80001-3"]);
    assert_eq!(app.ids("/api/nft/mycreatednft?formOfSale=AUCTION", Some(&alice)).await, ["80001-2"]);
    assert_eq!(app.ids("/api/nft/mycreatednft?formOfSale=FIXEDPRICE", Some(&alice)).await, ["80001-1"]);
    assert_eq!(app.ids("/api/nft/mycreatednft?search=golden&sortBy=DATE", Some(&alice)).await, ["80001-3", "80001-1"]);
    assert_eq!(
        app.ids("/api/nft/mynftartwork?formOfSale=ALL&sortBy=PRICE&orderBy=0", Some(&alice)).await,
        ["80001-1", "80001-2", "80001-3"]
    );
    assert_eq!(app.ids(&format!("/api/nft/usersnftartwork/{}", bob.id), None).await, ["80001-4"]);

    // Paging: 9 by default, page by page, past the end an empty last page.
    let (_, page) = app.get("/api/nft/mycreatednft?limit=2&page=2", Some(&alice)).await;
    let page = &page["body"];
    assert_eq!((page["totalItems"].as_i64(), page["currentPage"].as_i64(), page["lastPage"].as_bool()), (Some(3), Some(2), Some(true)));
    assert_eq!(page["data"].as_array().unwrap().len(), 1);
    let (_, past) = app.get("/api/nft/mycreatednft?page=7", Some(&alice)).await;
    assert_eq!((past["body"]["data"].as_array().unwrap().len(), past["body"]["lastPage"].as_bool()), (0, Some(true)));
    assert_eq!(past["body"]["totalItems"], 3);

    // Alice sells token 1 to bob: the owned lists move, the created ones do not.
    app.chain(&[transferred("1", "0xa1", "0xb1")]).await;
    assert_eq!(app.ids("/api/nft/mynftartwork", Some(&alice)).await, ["80001-3", "80001-2"]);
    assert_eq!(app.ids("/api/nft/mynftartwork", Some(&bob)).await, ["80001-4", "80001-1"]);
    assert_eq!(app.ids(&format!("/api/nft/usersnftartwork/{}?formOfSale=FIXEDPRICE", bob.id), None).await, ["80001-4", "80001-1"]);
    assert_eq!(app.ids(&format!("/api/nft/usercreatednft/{}", alice.id), None).await, ["80001-3", "80001-2", "80001-1"]);

    let (status, counts) = app.get(&format!("/api/nft/profilecounts/{}", alice.id), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(counts["body"], serde_json::json!({ "created": 3, "owned": 2, "inAuction": 1, "inSale": 0 }));
    let (_, counts) = app.get(&format!("/api/nft/profilecounts/{}", bob.id), None).await;
    assert_eq!(counts["body"], serde_json::json!({ "created": 1, "owned": 2, "inAuction": 0, "inSale": 2 }));

    // Someone else's list shows the viewer's own flags.
    app.put("/api/nft/like/80001-2", Some(&bob)).await;
    let seen_by_bob = app.cards(&format!("/api/nft/usercreatednft/{}?formOfSale=AUCTION", alice.id), Some(&bob)).await;
    assert_eq!(seen_by_bob, [("80001-2".into(), true, false, 1)]);
    let seen_by_alice = app.cards("/api/nft/mycreatednft?formOfSale=AUCTION", Some(&alice)).await;
    assert_eq!(seen_by_alice, [("80001-2".into(), false, false, 1)]);
}

#[tokio::test]
async fn a_user_without_wallets_has_empty_lists_and_an_unknown_user_is_404() {
    let app = TestApp::new().await;
    market(&app).await;
    let carol = app.user("carol", &[]).await;

    let (status, body) = app.get("/api/nft/mycreatednft", Some(&carol)).await;
    assert_eq!((status, body["body"]["totalItems"].as_i64(), body["body"]["lastPage"].as_bool()), (StatusCode::OK, Some(0), Some(true)));
    let (_, counts) = app.get(&format!("/api/nft/profilecounts/{}", carol.id), None).await;
    assert_eq!(counts["body"], serde_json::json!({ "created": 0, "owned": 0, "inAuction": 0, "inSale": 0 }));
    let unknown = Uuid::now_v7();
    for path in [
        format!("/api/nft/usercreatednft/{unknown}"),
        format!("/api/nft/usersnftartwork/{unknown}"),
        format!("/api/nft/profilecounts/{unknown}"),
    ] {
        let (status, body) = app.get(&path, None).await;
        assert_eq!((status, body["message"].as_str()), (StatusCode::NOT_FOUND, Some("User not found")), "{path}");
    }
    for (uri, field) in [
        ("/api/nft/mycreatednft?formOfSale=SOMETIMES", "formOfSale"),
        ("/api/nft/mynftartwork?sortBy=NAME", "sortBy"),
        ("/api/nft/mycreatednft?page=0", "page"),
    ] {
        let (status, body) = app.get(uri, Some(&carol)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}");
        assert!(body["message"].as_str().unwrap().starts_with(field), "{uri}: {body}");
    }
}

#[tokio::test]
async fn a_double_tap_likes_once_and_unlikes_once() {
    let app = TestApp::new().await;
    market(&app).await;
    let alice = app.user("alice", &[]).await;

    let (first, second) = tokio::join!(app.put("/api/nft/like/80001-1", Some(&alice)), app.put("/api/nft/like/80001-1", Some(&alice)));

    assert_eq!((first.0, second.0), (StatusCode::OK, StatusCode::OK));
    let mut states = [first.1["body"]["isLiked"].as_bool().unwrap(), second.1["body"]["isLiked"].as_bool().unwrap()];
    states.sort();
    assert_eq!(states, [false, true], "one like, then one unlike: never two likes");
    let (_, detail) = app.get("/api/nft/detail/80001-1", Some(&alice)).await;
    assert_eq!(flags(&detail["body"]), ("80001-1".into(), false, false, 0));
}

/// How many toggles one user sends at once in the tests below.
const RACERS: usize = 50;

/// What `RACERS` concurrent toggles by one user answered: each 200 (with its own state), or,
/// past the command's deadline, 409 in the envelope, or, on a machine so loaded that no database
/// connection came within the pool's wait, 503 in the envelope (nothing written either way);
/// never anything else.
async fn race(app: &TestApp, uri: &str, user: &User) -> Vec<Value> {
    let answers = futures::future::join_all((0..RACERS).map(|_| app.put(uri, Some(user)))).await;
    let mut states = Vec::new();
    for (status, body) in answers {
        match status {
            StatusCode::OK => states.push(body["body"].clone()),
            StatusCode::CONFLICT | StatusCode::SERVICE_UNAVAILABLE => {
                assert_eq!((body["statuscode"].as_u64(), &body["body"]), (Some(u64::from(status.as_u16())), &Value::Null), "{body}");
                assert!(body["message"].as_str().is_some_and(|m| m.to_lowercase().contains("try again")), "{body}");
            }
            other => panic!("{uri}: a racing toggle answered {other}: {body}"),
        }
    }
    assert!(!states.is_empty(), "{uri}: no toggle went through");
    eprintln!("{uri}: {} of {RACERS} racing toggles went through, the others answered 409 or 503", states.len());
    states
}

/// The toggles that went through alternate from off: as many ons as offs, or one more on.
fn assert_alternating(states: &[Value], flag: &str) {
    let on = states.iter().filter(|s| s[flag].as_bool().unwrap()).count();
    assert_eq!(on, states.len().div_ceil(2), "{flag} in {} answers: {on} on", states.len());
}

/// 50 like toggles by one user at once, with one like by someone else already in: no 5xx;
/// each answer's count agrees with its own flag; the stream holds one event per toggle that
/// went through, and the NFT ends liked exactly when an odd number went through.
async fn racing_like_toggles(app: TestApp) {
    market(&app).await;
    let (alice, bob) = (app.user("alice", &[]).await, app.user("bob", &[]).await);
    app.put("/api/nft/like/80001-1", Some(&bob)).await;

    let states = race(&app, "/api/nft/like/80001-1", &alice).await;

    for state in &states {
        let liked = state["isLiked"].as_bool().unwrap();
        assert_eq!(state["totalLikes"].as_i64(), Some(1 + i64::from(liked)), "bob's like and alice's as answered: {state}");
    }
    assert_alternating(&states, "isLiked");
    let liked = states.len() % 2 == 1;
    assert_eq!(app.state.store.stream_version(&social_stream(alice.id)).await.unwrap(), states.len() as u64);
    app.projected().await;
    let (_, detail) = app.get("/api/nft/detail/80001-1", Some(&alice)).await;
    assert_eq!(flags(&detail["body"]), ("80001-1".into(), liked, false, 1 + i64::from(liked)));
}

/// The same for bookmarks.
async fn racing_bookmark_toggles(app: TestApp) {
    market(&app).await;
    let alice = app.user("alice", &[]).await;

    let states = race(&app, "/api/nft/bookmark/80001-1", &alice).await;

    assert_alternating(&states, "isBookmarked");
    let bookmarked = states.len() % 2 == 1;
    assert_eq!(app.state.store.stream_version(&social_stream(alice.id)).await.unwrap(), states.len() as u64);
    app.projected().await;
    let (_, detail) = app.get("/api/nft/detail/80001-1", Some(&alice)).await;
    assert_eq!(flags(&detail["body"]), ("80001-1".into(), false, bookmarked, 0));
}

/// The same for a collection's like, liked by its creator already.
async fn racing_collection_like_toggles(app: TestApp) {
    let (alice, bob) = (app.user("alice", &[]).await, app.user("bob", &[]).await);
    let id = Uuid::now_v7();
    let created = CollectionEvent::CollectionCreated {
        collection_id: id,
        creator_user_id: bob.id,
        title: "Mine".into(),
        image: "bafy".into(),
        at: Utc::now(),
    };
    let liked = CollectionEvent::CollectionLiked { user_id: bob.id, at: Utc::now() };
    let events = [created, liked].iter().map(|e| e.to_new_event(Metadata::default()).unwrap()).collect();
    app.state.store.append(&collection_stream(id), ExpectedVersion::NoStream, events).await.unwrap();
    app.projected().await;
    let uri = format!("/api/collection/like/{id}");

    let states = race(&app, &uri, &alice).await;

    for state in &states {
        let liked = state["isLiked"].as_bool().unwrap();
        assert_eq!(state["totalLikes"].as_i64(), Some(1 + i64::from(liked)), "{state}");
    }
    assert_alternating(&states, "isLiked");
    let liked = states.len() % 2 == 1;
    assert_eq!(app.state.store.stream_version(&collection_stream(id)).await.unwrap(), 2 + states.len() as u64);
    app.projected().await;
    let (_, card) = app.get(&format!("/api/collection/browsebyid/{id}"), Some(&alice)).await;
    assert_eq!((card["body"]["isLiked"].as_bool(), card["body"]["totalLikes"].as_i64()), (Some(liked), Some(1 + i64::from(liked))));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_racing_like_toggles_by_one_user_never_fail_and_end_in_their_parity_on_sqlite() {
    racing_like_toggles(TestApp::new().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_racing_like_toggles_by_one_user_never_fail_and_end_in_their_parity_on_postgres() {
    racing_like_toggles(TestApp::on_postgres().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_racing_bookmark_toggles_never_fail_and_end_in_their_parity_on_sqlite() {
    racing_bookmark_toggles(TestApp::new().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_racing_bookmark_toggles_never_fail_and_end_in_their_parity_on_postgres() {
    racing_bookmark_toggles(TestApp::on_postgres().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_racing_collection_like_toggles_never_fail_and_end_in_their_parity_on_sqlite() {
    racing_collection_like_toggles(TestApp::new().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_racing_collection_like_toggles_never_fail_and_end_in_their_parity_on_postgres() {
    racing_collection_like_toggles(TestApp::on_postgres().await).await;
}
