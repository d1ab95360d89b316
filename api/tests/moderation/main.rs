//! Moderation over a real event log, a running projector and a read database: reports, the
//! staff's roles checked on the server for every decision, hiding that reaches the lists (and
//! the file) for everyone but the owner, appeals, badges, and the public record.

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
    moderation::{self, Role, RoleChange},
    test_utils::TestPostgres,
};
use serde_json::{Value, json};
use support::ProjectorTask;
use tower::ServiceExt;
use uuid::Uuid;

mod holds;
mod lists;
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

/// The file of token 1 (a CID the file store never saw: the takedown is decided before it looks).
const CID: &str = "bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy";

impl TestApp {
    async fn new(postgres: Option<TestPostgres>) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let mut args = vec!["--jwt-secret", "test-secret", "--contract-address", "0xc0ffee"];
        if let Some(db) = &postgres {
            args.extend(["--database-url", db.url.as_str()]);
        }
        let config = support::config(&dir, &args);
        let (state, projector) = support::fresh_state(config, true).await;
        Self { state: state.with_chain(support::no_chain(), None), _projector: projector, _dir: dir, _postgres: postgres }
    }

    async fn projected(&self) {
        let head = self.state.store.head().await.unwrap().0;
        self.state.projector.wait_for(head, std::time::Duration::from_secs(10)).await.unwrap();
    }

    /// A verified user with one wallet, and an access token.
    async fn user(&self, name: &str, wallet: &str) -> User {
        let (id, at) = (Uuid::now_v7(), Utc::now());
        let events = [
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
            UserEvent::WalletLinked { provider: WalletProvider::Other, address: wallet.into(), at },
        ];
        let events = events.iter().map(|e| e.to_new_event(Metadata::default()).unwrap()).collect();
        self.state.store.append(&user_stream(id), ExpectedVersion::NoStream, events).await.unwrap();
        self.projected().await;
        User { id, token: self.state.accounts.tokens.issue(id).unwrap() }
    }

    /// The operator grants a role (as `marketplace admin grant` does).
    async fn grant(&self, user: &User, role: Role) {
        let change = RoleChange { actor: None, user_id: user.id, role, grant: true, now: Utc::now() };
        moderation::change_role(self.state.store.as_ref(), change, &Metadata::default()).await.unwrap();
        self.projected().await;
    }

    /// Token `token` minted by `creator`, listed at a fixed price, described with a title and `file`.
    async fn nft(&self, token: &str, creator: &str, file: &str) {
        let origin = Origin { block_number: 1, block_time: 1_700_000_000, tx_hash: format!("0x{:064x}", 1), log_index: 0 };
        let events = [
            ChainEvent::NftMinted {
                token_id: token.into(),
                creator: creator.into(),
                token_uri: "/ipfs/m".into(),
                royalties: vec![],
                origin: origin.clone(),
            },
            ChainEvent::SaleUpdated {
                token_id: token.into(),
                sale_type: SaleType::FixedPrice,
                price: "1000".into(),
                base_price: "0".into(),
                end_time: 0,
                auction_id: "0".into(),
                origin,
            },
        ];
        for event in events {
            let append = StreamAppend {
                stream_id: event.stream_id(80001),
                expected: ExpectedVersion::Any,
                events: vec![event.to_new_event(Uuid::now_v7(), Metadata::default()).unwrap()],
            };
            self.state.store.append_streams(vec![append]).await.unwrap();
        }
        let details = CatalogEvent::NftDetailsRecorded {
            chain_id: 80001,
            token_id: token.into(),
            title: format!("Token {token}"),
            description: "A token".into(),
            category_id: "art".into(),
            file: file.into(),
            metadata_url: "/ipfs/m".into(),
            properties: vec![],
            creator_user_id: None,
        };
        self.state
            .store
            .append(&details.stream_id(), ExpectedVersion::Any, vec![details.to_new_event(Metadata::default()).unwrap()])
            .await
            .unwrap();
        self.projected().await;
    }

    async fn call(&self, method: Method, uri: &str, user: Option<&User>, body: Option<&str>) -> (StatusCode, Value) {
        let mut request = Request::builder().method(method).uri(uri);
        if let Some(user) = user {
            request = request.header(header::AUTHORIZATION, format!("Bearer {}", user.token));
        }
        let body = match body {
            Some(body) => {
                request = request.header(header::CONTENT_TYPE, "application/json");
                Body::from(body.to_owned())
            }
            None => Body::empty(),
        };
        let app = api::http::app(self.state.clone(), std::path::Path::new("no-ui"));
        let response = app.oneshot(request.body(body).unwrap()).await.unwrap();
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 22).await.unwrap();
        (status, serde_json::from_slice(&bytes).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned())))
    }

    async fn get(&self, uri: &str, user: Option<&User>) -> (StatusCode, Value) {
        self.call(Method::GET, uri, user, None).await
    }

    async fn post(&self, uri: &str, user: &User, body: Value) -> (StatusCode, Value) {
        self.call(Method::POST, uri, Some(user), Some(&body.to_string())).await
    }

    async fn report(&self, user: &User, id: &str, reason: &str) -> (StatusCode, Value) {
        self.post("/api/report", user, json!({ "targetKind": "nft", "targetId": id, "reason": reason, "text": "Copied from my gallery" }))
            .await
    }

    /// The NFT ids explore shows `user`.
    async fn explore(&self, user: Option<&User>) -> Vec<String> {
        let (status, body) = self.get("/api/nft/explore/?formOfSale=ALL", user).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body["body"]["data"].as_array().unwrap().iter().map(|n| n["_id"].as_str().unwrap().to_owned()).collect()
    }

    async fn my_owned(&self, user: &User) -> Vec<String> {
        let (status, body) = self.get("/api/nft/mynftartwork?formOfSale=ALL", Some(user)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body["body"]["data"].as_array().unwrap().iter().map(|n| n["_id"].as_str().unwrap().to_owned()).collect()
    }
}

/// Ada owns tokens 1 and 2, Bob reports, Mia moderates, Adi administers.
async fn market(app: &TestApp) -> (User, User, User, User) {
    let ada = app.user("ada", "0xa1").await;
    let bob = app.user("bob", "0xb1").await;
    let mia = app.user("mia", "0xc1").await;
    let adi = app.user("adi", "0xd1").await;
    app.nft("1", "0xa1", &format!("/ipfs/{CID}")).await;
    app.nft("2", "0xa1", "/ipfs/other").await;
    app.grant(&mia, Role::Moderator).await;
    app.grant(&adi, Role::Admin).await;
    (ada, bob, mia, adi)
}

async fn report_hide_appeal_restore(app: TestApp) {
    let (ada, bob, mia, _adi) = market(&app).await;
    assert_eq!(app.explore(None).await.len(), 2);

    let (status, body) = app.report(&bob, "80001-1", "STOLEN").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(app.report(&bob, "80001-1", "SPAM").await.0, StatusCode::CONFLICT, "one open report per reporter");
    assert_eq!(app.report(&ada, "80001-1", "SPAM").await.0, StatusCode::FORBIDDEN, "not one's own");

    // Only the staff sees the queue; it names the reporter.
    assert_eq!(app.get("/api/moderation/queue", Some(&bob)).await.0, StatusCode::FORBIDDEN);
    let (status, queue) = app.get("/api/moderation/queue", Some(&mia)).await;
    assert_eq!(status, StatusCode::OK, "{queue}");
    assert_eq!(queue["body"]["total"], 1);
    let item = &queue["body"]["items"][0];
    assert_eq!((item["targetId"].as_str(), item["title"].as_str()), (Some("80001-1"), Some("Token 1")));
    assert_eq!(item["openReports"][0]["reporterUsername"], "bob");
    assert_eq!(item["openReports"][0]["reason"], "STOLEN");

    // A reporter cannot decide; a moderator hides with a reason.
    let hide = json!({ "text": "Reported stolen with evidence" });
    assert_eq!(app.post("/api/moderation/nft/80001-1/hide", &bob, hide.clone()).await.0, StatusCode::FORBIDDEN);
    let (status, body) = app.post("/api/moderation/nft/80001-1/hide", &mia, hide.clone()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(app.post("/api/moderation/nft/80001-1/hide", &mia, hide).await.0, StatusCode::CONFLICT, "hidden already");

    // Out of every visitor's list and page, and its file withheld; its owner still sees it.
    assert_eq!(app.explore(None).await, ["80001-2"]);
    assert_eq!(app.explore(Some(&bob)).await, ["80001-2"]);
    assert!(app.my_owned(&ada).await.contains(&"80001-1".to_owned()), "the owner's own tab");
    let (status, body) = app.get("/api/nft/detail/80001-1", Some(&bob)).await;
    assert_eq!(status, StatusCode::UNAVAILABLE_FOR_LEGAL_REASONS);
    assert!(body["message"].as_str().unwrap().contains("Reported stolen with evidence"), "{body}");
    assert_eq!(app.get("/api/nft/detail/80001-1", Some(&ada)).await.0, StatusCode::OK, "the owner sees why on its page");
    assert_eq!(app.get(&format!("/ipfs/{CID}"), None).await.0, StatusCode::UNAVAILABLE_FOR_LEGAL_REASONS);
    let (_, standing) = app.get("/api/moderation/nft/80001-1", None).await;
    assert_eq!(
        (standing["body"]["hidden"].as_bool(), standing["body"]["hiddenReason"].as_str()),
        (Some(true), Some("Reported stolen with evidence"))
    );
    assert_eq!(app.get("/api/moderation/queue", Some(&mia)).await.1["body"]["total"], 0, "the report was decided");

    // The owner appeals once: back to the queue.
    let appeal = json!({ "text": "I minted it myself" });
    assert_eq!(app.post("/api/moderation/nft/80001-1/appeal", &bob, appeal.clone()).await.0, StatusCode::FORBIDDEN);
    assert_eq!(app.post("/api/moderation/nft/80001-1/appeal", &ada, appeal.clone()).await.0, StatusCode::OK);
    assert_eq!(app.post("/api/moderation/nft/80001-1/appeal", &ada, appeal).await.0, StatusCode::CONFLICT);
    let (_, queue) = app.get("/api/moderation/queue", Some(&mia)).await;
    assert_eq!(queue["body"]["items"][0]["appeal"], "I minted it myself");

    // Restored: back everywhere.
    let (status, _) = app.post("/api/moderation/nft/80001-1/restore", &mia, json!({ "text": "The owner showed the originals" })).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(app.explore(None).await.len(), 2);
    assert_eq!(app.get("/api/nft/detail/80001-1", Some(&bob)).await.0, StatusCode::OK);
    assert_ne!(app.get(&format!("/ipfs/{CID}"), None).await.0, StatusCode::UNAVAILABLE_FOR_LEGAL_REASONS);

    // The public record: the decisions with their reasons and moderator, never the reporter.
    let (status, record) = app.get("/api/transparency", None).await;
    assert_eq!(status, StatusCode::OK);
    let decisions: Vec<&str> = record["body"]["decisions"].as_array().unwrap().iter().map(|d| d["decision"].as_str().unwrap()).collect();
    assert_eq!(decisions, ["RESTORE", "HIDE"]);
    assert_eq!(record["body"]["decisions"][1]["reports"], 1);
    assert_eq!(record["body"]["months"][0]["reports"]["STOLEN"], 1);
    assert!(!record.to_string().contains("bob"), "no reporter in the record: {record}");
}

#[tokio::test]
async fn a_report_hides_an_nft_from_everyone_but_its_owner_who_appeals_and_it_is_restored() {
    report_hide_appeal_restore(TestApp::new(None).await).await;
}

#[tokio::test]
async fn moderation_works_the_same_on_postgres() {
    report_hide_appeal_restore(TestApp::new(Some(TestPostgres::create().await)).await).await;
}

#[tokio::test]
async fn bad_reports_are_refused_and_change_nothing() {
    let app = TestApp::new(None).await;
    let (_ada, bob, mia, _adi) = market(&app).await;
    let head = app.state.store.head().await.unwrap().0;
    let cases = [
        (json!({ "targetKind": "nft", "targetId": "80001-9", "reason": "SPAM" }), StatusCode::NOT_FOUND),
        (json!({ "targetKind": "planet", "targetId": "80001-1", "reason": "SPAM" }), StatusCode::BAD_REQUEST),
        (json!({ "targetKind": "nft", "targetId": "80001-1", "reason": "UGLY" }), StatusCode::BAD_REQUEST),
        (json!({ "targetKind": "nft", "targetId": "80001-1", "reason": "OTHER" }), StatusCode::BAD_REQUEST),
        (json!({ "targetKind": "nft", "targetId": "80001-1", "reason": "SPAM", "text": "x".repeat(1_001) }), StatusCode::BAD_REQUEST),
        (json!({ "targetKind": "nft", "targetId": 1, "reason": "SPAM" }), StatusCode::BAD_REQUEST),
        (json!({ "targetKind": "user", "targetId": mia.id.to_string(), "reason": "STOLEN" }), StatusCode::BAD_REQUEST),
    ];
    for (body, status) in cases {
        assert_eq!(app.post("/api/report", &bob, body.clone()).await.0, status, "{body}");
    }
    assert_eq!(app.call(Method::POST, "/api/report", Some(&bob), Some("{not json")).await.0, StatusCode::BAD_REQUEST);
    assert_eq!(app.call(Method::POST, "/api/report", None, Some("{}")).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(app.post("/api/moderation/nft/80001-1/explode", &mia, json!({})).await.0, StatusCode::BAD_REQUEST);
    assert_eq!(
        app.post("/api/moderation/nft/80001-1/dismiss", &mia, json!({ "text": "x" })).await.0,
        StatusCode::CONFLICT,
        "nothing to dismiss"
    );
    assert_eq!(app.state.store.head().await.unwrap().0, head, "nothing appended");
}

#[tokio::test]
async fn admins_verify_and_manage_the_staff_and_moderators_cannot() {
    let app = TestApp::new(None).await;
    let (ada, bob, mia, adi) = market(&app).await;
    let user = format!("/api/moderation/user/{}", ada.id);
    assert_eq!(app.post(&format!("{user}/verify"), &mia, json!({})).await.0, StatusCode::FORBIDDEN, "moderators do not verify");
    assert_eq!(app.post(&format!("{user}/verify"), &adi, json!({})).await.0, StatusCode::OK);
    assert_eq!(app.get(&user, None).await.1["body"]["verified"], true);
    assert_eq!(app.post("/api/moderation/nft/80001-1/verify", &adi, json!({})).await.0, StatusCode::BAD_REQUEST, "not single NFTs");

    assert_eq!(app.get("/api/staff", Some(&mia)).await.0, StatusCode::FORBIDDEN);
    assert_eq!(app.post("/api/staff", &mia, json!({ "username": "bob", "role": "moderator" })).await.0, StatusCode::FORBIDDEN);
    let (status, staff) = app.post("/api/staff", &adi, json!({ "username": "bob", "role": "moderator" })).await;
    assert_eq!(status, StatusCode::OK, "{staff}");
    assert_eq!(app.get("/api/moderation/roles", Some(&bob)).await.1["body"]["roles"], json!(["moderator"]));
    assert_eq!(app.post("/api/staff", &adi, json!({ "username": "nobody", "role": "moderator" })).await.0, StatusCode::NOT_FOUND);
    assert_eq!(app.post("/api/staff", &adi, json!({ "username": "bob", "role": "owner" })).await.0, StatusCode::BAD_REQUEST);
    let revoke = |who: &User, role: &str| format!("/api/staff/{}/{role}", who.id);
    assert_eq!(
        app.call(Method::DELETE, &revoke(&adi, "admin"), Some(&adi), None).await.0,
        StatusCode::CONFLICT,
        "not one's own admin role"
    );
    assert_eq!(app.call(Method::DELETE, &revoke(&bob, "moderator"), Some(&adi), None).await.0, StatusCode::OK);
    assert_eq!(app.get("/api/moderation/queue", Some(&bob)).await.0, StatusCode::FORBIDDEN, "revoked at once");
}
