//! Moderation over a real event log, a running projector and a read database: reports, the
//! staff's roles checked on the server for every decision, hiding that reaches the lists (and
//! the file) for everyone but the owner, appeals, badges, the public record (with its targets'
//! titles), the notices decisions send to owners and reporters, and muting false reporters.

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
        // One person files more reports here than a minute's default budget allows.
        let mut args = vec!["--jwt-secret", "test-secret", "--contract-address", "0xc0ffee", "--rate-limit-per-account", "20"];
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

    /// A collection of `creator`'s, titled `title`.
    async fn collection(&self, creator: &User, title: &str) -> String {
        let id = Uuid::now_v7();
        let created = CollectionEvent::CollectionCreated {
            collection_id: id,
            creator_user_id: creator.id,
            title: title.into(),
            image: "bafyimage".into(),
            at: Utc::now(),
        };
        self.state
            .store
            .append(&collection_stream(id), ExpectedVersion::NoStream, vec![created.to_new_event(Metadata::default()).unwrap()])
            .await
            .unwrap();
        self.projected().await;
        id.to_string()
    }

    /// `user`'s notices, newest first.
    async fn notices(&self, user: &User) -> Vec<Value> {
        let (status, body) = self.get("/api/notifications", Some(user)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body["body"]["data"].as_array().unwrap().clone()
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

/// The fields of a moderation notice a test compares.
fn told(notice: &Value) -> (&str, &str, &str, &str, Option<&str>) {
    let field = |name: &str| notice[name].as_str().unwrap_or_default();
    (field("kind"), field("targetKind"), field("targetId"), field("reason"), notice["decision"].as_str())
}

async fn decisions_tell_the_owner_and_each_reporter(app: TestApp) {
    let (ada, bob, mia, _adi) = market(&app).await;
    let cyd = app.user("cyd", "0xe1").await;
    let gallery = app.collection(&ada, "Ada's Gallery").await;
    assert_eq!(app.report(&bob, "80001-1", "STOLEN").await.0, StatusCode::OK);
    assert_eq!(app.report(&cyd, "80001-1", "SPAM").await.0, StatusCode::OK);

    let (status, _) = app.post("/api/moderation/nft/80001-1/hide", &mia, json!({ "text": "Reported stolen with evidence" })).await;
    assert_eq!(status, StatusCode::OK);
    // The owning wallet's person is told why; each reporter that their report was decided.
    let ada_told = app.notices(&ada).await;
    assert_eq!(told(&ada_told[0]), ("HIDDEN", "nft", "80001-1", "Reported stolen with evidence", None));
    assert_eq!((ada_told[0]["nftId"].as_str(), ada_told[0]["targetTitle"].as_str()), (Some("80001-1"), Some("Token 1")));
    for reporter in [&bob, &cyd] {
        let notices = app.notices(reporter).await;
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert_eq!(told(&notices[0]), ("REPORT_DECIDED", "nft", "80001-1", "Reported stolen with evidence", Some("HIDE")));
        // Neither the other reporter nor the moderator is named.
        let text = Value::Array(notices).to_string();
        for hidden in ["cyd", "bob", "mia", &mia.id.to_string(), "0xe1", "0xb1", "0xc1"] {
            let own = (reporter.id == bob.id && hidden == "0xb1") || (reporter.id == cyd.id && hidden == "0xe1");
            assert!(own || !text.contains(hidden), "{hidden} in {text}");
        }
    }
    let (_, unread) = app.get("/api/notifications/unread", Some(&bob)).await;
    assert_eq!(unread["body"]["unread"], 1);

    // The stream hands each notice to its user, the owner through their wallet and the
    // reporters through their own key.
    let head = app.state.store.head().await.unwrap().0 as i64;
    let streamed = projections::queries::notices::between(&app.state.read, 0, head).await.unwrap();
    let mut reached: Vec<(String, String)> = streamed.iter().map(|(user, n)| (user.clone(), n.kind.clone())).collect();
    reached.sort();
    let mut expected = vec![
        (ada.id.to_string(), "HIDDEN".to_owned()),
        (bob.id.to_string(), "REPORT_DECIDED".to_owned()),
        (cyd.id.to_string(), "REPORT_DECIDED".to_owned()),
    ];
    expected.sort();
    assert_eq!(reached, expected);

    // A report filed while hidden is decided by the restore: its reporter is told so.
    let dan = app.user("dan", "0xf1").await;
    assert_eq!(app.report(&dan, "80001-1", "SCAM").await.0, StatusCode::OK);
    let (status, _) = app.post("/api/moderation/nft/80001-1/restore", &mia, json!({ "text": "The owner showed the originals" })).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(told(&app.notices(&ada).await[0]), ("RESTORED", "nft", "80001-1", "The owner showed the originals", None));
    assert_eq!(told(&app.notices(&dan).await[0]), ("REPORT_DECIDED", "nft", "80001-1", "The owner showed the originals", Some("RESTORE")));
    assert_eq!(app.notices(&bob).await.len(), 1, "bob's report was decided before");

    // An appeal turned down: its owner is told the hiding holds, and why.
    assert_eq!(app.post("/api/moderation/nft/80001-2/hide", &mia, json!({ "text": "A copy" })).await.0, StatusCode::OK);
    assert_eq!(app.post("/api/moderation/nft/80001-2/appeal", &ada, json!({ "text": "It is mine" })).await.0, StatusCode::OK);
    assert_eq!(app.post("/api/moderation/nft/80001-2/dismiss", &mia, json!({ "text": "The copy is plain" })).await.0, StatusCode::OK);
    let ada_told = app.notices(&ada).await;
    assert_eq!(told(&ada_told[0]), ("APPEAL_DECLINED", "nft", "80001-2", "The copy is plain", None));
    assert_eq!(told(&ada_told[1]), ("HIDDEN", "nft", "80001-2", "A copy", None));

    // A collection's creator is told, addressed as a person; a dismissal tells its reporter.
    let collection = json!({ "targetKind": "collection", "targetId": gallery, "reason": "SCAM", "text": "" });
    assert_eq!(app.post("/api/report", &bob, collection.clone()).await.0, StatusCode::OK);
    let path = format!("/api/moderation/collection/{gallery}");
    assert_eq!(app.post(&format!("{path}/dismiss"), &mia, json!({ "text": "A real gallery" })).await.0, StatusCode::OK);
    assert_eq!(told(&app.notices(&bob).await[0]), ("REPORT_DECIDED", "collection", gallery.as_str(), "A real gallery", Some("DISMISS")));
    assert_eq!(app.notices(&bob).await[0]["targetTitle"], "Ada's Gallery");
    assert_eq!(app.post("/api/report", &cyd, collection).await.0, StatusCode::OK);
    assert_eq!(app.post(&format!("{path}/hide"), &mia, json!({ "text": "Sells copies" })).await.0, StatusCode::OK);
    let ada_told = app.notices(&ada).await;
    assert_eq!(told(&ada_told[0]), ("HIDDEN", "collection", gallery.as_str(), "Sells copies", None));
    assert_eq!((ada_told[0]["nftId"].as_str(), ada_told[0]["targetTitle"].as_str()), (Some(""), Some("Ada's Gallery")));
    assert_eq!(told(&app.notices(&cyd).await[0]), ("REPORT_DECIDED", "collection", gallery.as_str(), "Sells copies", Some("HIDE")));

    // The kinds are settings like any other: a reporter who mutes REPORT_DECIDED sees none.
    let settings = json!({ "muted": ["REPORT_DECIDED"], "email": ["HIDDEN"] });
    let (status, body) = app.call(Method::PUT, "/api/notifications/settings", Some(&bob), Some(&settings.to_string())).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(app.notices(&bob).await.is_empty());
    assert_eq!(body["body"]["unread"], 0);
}

#[tokio::test]
async fn a_decision_tells_the_owner_and_each_reporter_and_no_one_else() {
    decisions_tell_the_owner_and_each_reporter(TestApp::new(None).await).await;
}

#[tokio::test]
async fn decisions_notify_the_same_on_postgres() {
    decisions_tell_the_owner_and_each_reporter(TestApp::new(Some(TestPostgres::create().await)).await).await;
}

async fn muting_a_false_reporter(app: TestApp) {
    let (ada, bob, mia, adi) = market(&app).await;
    let dismiss = json!({ "text": "Nothing wrong with it" });
    for id in ["80001-1", "80001-2"] {
        assert_eq!(app.report(&bob, id, "SCAM").await.0, StatusCode::OK);
        assert_eq!(app.post(&format!("/api/moderation/nft/{id}/dismiss"), &mia, dismiss.clone()).await.0, StatusCode::OK);
    }
    assert_eq!(app.report(&bob, "80001-1", "SCAM").await.0, StatusCode::OK);
    // The queue weighs each reporter: how many of their reports were dismissed, muted or not.
    let (_, queue) = app.get("/api/moderation/queue", Some(&mia)).await;
    let report = &queue["body"]["items"][0]["openReports"][0];
    assert_eq!((report["reporterDismissed"].as_i64(), report["reporterMuted"].as_bool()), (Some(2), Some(false)));

    // Only moderators mute, with a reason, and only after repeated dismissals; never by key.
    let mute = format!("/api/moderation/user/{}/mute", bob.id);
    let why = json!({ "text": "Reports every listing of a rival" });
    assert_eq!(app.post(&mute, &ada, why.clone()).await.0, StatusCode::FORBIDDEN);
    assert_eq!(app.post(&mute, &bob, why.clone()).await.0, StatusCode::FORBIDDEN);
    assert_eq!(
        app.post(&format!("/api/moderation/user/{}/mute", ada.id), &mia, why.clone()).await.0,
        StatusCode::CONFLICT,
        "no dismissals"
    );
    assert_eq!(app.post(&mute, &mia, json!({ "text": " " })).await.0, StatusCode::BAD_REQUEST);
    assert_eq!(app.post("/api/moderation/nft/80001-1/mute", &mia, why.clone()).await.0, StatusCode::BAD_REQUEST, "users only");
    let (status, key) = app.post("/api/account/keys", &mia, json!({ "name": "bot", "scopes": ["trades"] })).await;
    assert_eq!(status, StatusCode::OK, "{key}");
    let request = Request::post(&mute)
        .header("X-API-Key", key["body"]["key"].as_str().unwrap())
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(why.to_string()))
        .unwrap();
    let refused = api::http::app(app.state.clone(), std::path::Path::new("no-ui")).oneshot(request).await.unwrap().status();
    assert!(refused == StatusCode::FORBIDDEN || refused == StatusCode::UNAUTHORIZED, "a key cannot mute: {refused}");
    let (status, body) = app.post(&mute, &mia, why.clone()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(app.post(&mute, &adi, why.clone()).await.0, StatusCode::CONFLICT, "muted already");
    let (_, queue) = app.get("/api/moderation/queue", Some(&mia)).await;
    assert_eq!(queue["body"]["items"][0]["openReports"][0]["reporterMuted"], true);
    let decisions = queue["body"]["items"][0]["decisions"].as_array().unwrap().len();
    assert_eq!(app.post("/api/moderation/nft/80001-1/dismiss", &mia, dismiss.clone()).await.0, StatusCode::OK);

    // A muted person's report is answered as anyone's, recorded, and never queued.
    let (status, filed) = app.report(&bob, "80001-2", "SPAM").await;
    assert_eq!(status, StatusCode::OK);
    assert!(filed["body"]["reportId"].is_string());
    assert_eq!(app.report(&bob, "80001-2", "SPAM").await.0, StatusCode::CONFLICT, "a second report answered as anyone's");
    assert_eq!(app.get("/api/moderation/queue", Some(&mia)).await.1["body"]["total"], 0);
    assert_eq!(app.post("/api/moderation/nft/80001-2/dismiss", &mia, dismiss.clone()).await.0, StatusCode::CONFLICT, "nothing open");
    let (_, record) = app.get("/api/transparency", None).await;
    assert_eq!(record["body"]["months"][0]["reports"]["SPAM"], 1, "received and counted");
    assert_eq!(record["body"]["months"][0]["decisions"]["MUTE"], 1);
    assert!(record["body"]["decisions"].as_array().unwrap().is_empty(), "a mute is not listed: {record}");
    assert!(!record.to_string().contains(&bob.id.to_string()));
    assert!(app.notices(&ada).await.is_empty(), "the owner is never told of reports");
    assert_eq!(decisions, 1, "the target's history is the dismissal only: {queue}");

    // Unmuted: the next report is queued again.
    let unmute = format!("/api/moderation/user/{}/unmute", bob.id);
    assert_eq!(app.post(&unmute, &ada, why.clone()).await.0, StatusCode::FORBIDDEN);
    assert_eq!(app.post(&unmute, &mia, json!({ "text": "Their last reports were right" })).await.0, StatusCode::OK);
    assert_eq!(app.post(&unmute, &mia, json!({ "text": "again" })).await.0, StatusCode::CONFLICT);
    assert_eq!(app.report(&bob, "80001-1", "SPAM").await.0, StatusCode::OK);
    let (_, queue) = app.get("/api/moderation/queue", Some(&mia)).await;
    assert_eq!(queue["body"]["total"], 1);
    assert_eq!(queue["body"]["items"][0]["openReports"][0]["reporterMuted"], false);
}

#[tokio::test]
async fn a_moderator_mutes_a_false_reporter_whose_reports_then_stay_out_of_the_queue() {
    muting_a_false_reporter(TestApp::new(None).await).await;
}

#[tokio::test]
async fn muting_works_the_same_on_postgres() {
    muting_a_false_reporter(TestApp::new(Some(TestPostgres::create().await)).await).await;
}

async fn titles_in_the_record(app: TestApp) {
    let (ada, bob, mia, adi) = market(&app).await;
    let gallery = app.collection(&ada, "=HYPERLINK(\"http://evil\")").await;
    assert_eq!(app.post(&format!("/api/moderation/collection/{gallery}/verify"), &adi, json!({})).await.0, StatusCode::OK);
    assert_eq!(app.post(&format!("/api/moderation/user/{}/verify", ada.id), &adi, json!({})).await.0, StatusCode::OK);
    assert_eq!(app.report(&bob, "80001-1", "SCAM").await.0, StatusCode::OK);
    assert_eq!(app.post("/api/moderation/nft/80001-1/hide", &mia, json!({ "text": "A scam" })).await.0, StatusCode::OK);

    // A hidden target's title stays out of the record (it may be the abuse itself); the others show.
    let (_, record) = app.get("/api/transparency", None).await;
    let titles: Vec<(&str, Option<&str>, bool)> = record["body"]["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["decision"].as_str().unwrap(), d["targetTitle"].as_str(), d["targetHidden"].as_bool().unwrap()))
        .collect();
    assert_eq!(titles, [("HIDE", None, true), ("VERIFY", Some("ada"), false), ("VERIFY", Some("=HYPERLINK(\"http://evil\")"), false)]);
    let (status, csv) = app.get("/api/transparency.csv", None).await;
    assert_eq!(status, StatusCode::OK);
    let csv = csv.as_str().unwrap().to_owned();
    assert!(csv.starts_with("at,decision,targetKind,targetId,targetTitle,targetHidden,reason,moderator,reports\n"), "{csv}");
    assert!(!csv.contains("Token 1"), "{csv}");
    assert!(csv.contains(",nft,80001-1,,true,A scam,mia,1"), "{csv}");
    assert!(csv.contains(",ada,false,"), "{csv}");
    assert!(!csv.contains(",=HYPERLINK"), "a title is neutralised as a formula: {csv}");
    assert!(!csv.contains("bob"), "never the reporter: {csv}");

    // Restored, its title shows beside every decision on it.
    assert_eq!(app.post("/api/moderation/nft/80001-1/restore", &mia, json!({ "text": "Cleared" })).await.0, StatusCode::OK);
    let (_, record) = app.get("/api/transparency", None).await;
    assert_eq!(record["body"]["decisions"][0]["targetTitle"], "Token 1");
    assert_eq!(record["body"]["decisions"][1]["targetTitle"], "Token 1");
    assert!(app.get("/api/transparency.csv", None).await.1.as_str().unwrap().contains(",nft,80001-1,Token 1,false,A scam,mia,1"));
}

#[tokio::test]
async fn the_record_shows_titles_but_a_hidden_targets() {
    titles_in_the_record(TestApp::new(None).await).await;
}

#[tokio::test]
async fn the_record_shows_titles_the_same_on_postgres() {
    titles_in_the_record(TestApp::new(Some(TestPostgres::create().await)).await).await;
}
