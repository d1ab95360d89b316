//! Signed webhooks end to end: endpoints registered, listed, changed and deleted through the
//! API (a session or a key with the `webhooks` scope); deliveries to a real axum receiver on
//! loopback, signed, in log order, once per change; retries with backoff; disabling and
//! redelivery; a restart that resumes from the acknowledged position; a receiver down for a
//! long while getting every change afterwards. Real SQLite log, read database and delivery
//! tables, the projector and the delivery worker running. Loopback is reached only because each
//! test allows http and its own receiver's `127.0.0.1:port` (the production default refuses
//! both, as `private_and_plain_http_urls_are_refused_at_registration` shows).

#[path = "../support/facts.rs"]
mod facts;
#[path = "../accounts/helpers.rs"]
#[allow(dead_code)]
mod helpers;
mod store;
#[path = "../support/mod.rs"]
mod support;

use std::{
    collections::HashSet,
    sync::{Arc, Mutex},
    time::Duration,
};

use api::node::webhooks::signature;
use axum::{Router, body::Bytes, extract::State, http::HeaderMap, http::StatusCode, routing::post};
use domain::{ExpectedVersion, Metadata, StreamAppend, chain::ChainEvent};
use facts::*;
use helpers::*;
use serde_json::{Value, json};
use uuid::Uuid;

/// One POST the receiver got.
#[derive(Clone, Debug)]
struct Received {
    id: String,
    timestamp: String,
    signature: String,
    body: Vec<u8>,
    /// What the receiver answered.
    answered: u16,
    at: std::time::Instant,
}

/// A receiver on loopback that answers each POST with the status `plan` gives for the n-th
/// request (0-based), recording them all.
#[derive(Clone)]
struct Receiver {
    got: Arc<Mutex<Vec<Received>>>,
    plan: Arc<dyn Fn(usize) -> u16 + Send + Sync>,
    port: u16,
}

impl Receiver {
    async fn start(plan: impl Fn(usize) -> u16 + Send + Sync + 'static) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let receiver = Self { got: Arc::default(), plan: Arc::new(plan), port };
        let app = Router::new().route("/hook", post(receive)).with_state(receiver.clone());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        receiver
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/hook", self.port)
    }

    fn host(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    fn got(&self) -> Vec<Received> {
        self.got.lock().unwrap().clone()
    }
}

async fn receive(State(receiver): State<Receiver>, headers: HeaderMap, body: Bytes) -> StatusCode {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    let mut got = receiver.got.lock().unwrap();
    let answered = (receiver.plan)(got.len());
    got.push(Received {
        id: header("webhook-id"),
        timestamp: header("webhook-timestamp"),
        signature: header("webhook-signature"),
        body: body.to_vec(),
        answered,
        at: std::time::Instant::now(),
    });
    StatusCode::from_u16(answered).unwrap()
}

/// A marketplace whose webhooks may reach `receiver` (and only it) on loopback, with fast
/// retries, the delivery worker running.
async fn app_for(receiver: &Receiver, extra: &[&str]) -> (TestApp, tokio::task::JoinHandle<()>) {
    let host = receiver.host();
    let mut args = vec!["--webhook-allow-http", "--webhook-allowed-hosts", host.as_str()];
    if !extra.contains(&"--webhook-retry-base-ms") {
        args.extend(["--webhook-retry-base-ms", "40"]);
    }
    args.extend_from_slice(extra);
    let app = TestApp::with_args(&args).await;
    let worker = api::node::webhooks::spawn(app.state.node.clone());
    (app, worker)
}

/// A user with wallet `wallet`, and an access token.
async fn person(app: &TestApp, name: &str, wallet: &str) -> (Uuid, String) {
    let id = Uuid::now_v7();
    projections::test_utils::register_user(app.state.store.as_ref(), id, name, wallet, chrono::Utc::now()).await;
    settle(app).await;
    (id, app.state.accounts.tokens.issue(id).unwrap())
}

async fn settle(app: &TestApp) {
    let (head, _) = app.state.store.head().await.unwrap();
    app.state.projector.wait_for(head, Duration::from_secs(10)).await.unwrap();
}

/// Appends each event on its own (one position each, as the indexer's blocks) and waits until
/// they are projected; their positions.
async fn chain(app: &TestApp, events: &[ChainEvent]) -> Vec<u64> {
    let mut positions = Vec::new();
    for event in events {
        let new_event = event.to_new_event(Uuid::now_v7(), Metadata::default()).unwrap();
        let write = StreamAppend { stream_id: event.stream_id(support::CHAIN_ID), expected: ExpectedVersion::Any, events: vec![new_event] };
        positions.push(app.state.store.append_streams(vec![write]).await.unwrap().last_position);
    }
    settle(app).await;
    positions
}

async fn register(app: &TestApp, token: &str, body: Value) -> Answer {
    app.json("POST", "/api/webhooks", Some(token), body).await
}

/// Waits until `done` holds of what the receiver got (at most 10 s).
async fn until(receiver: &Receiver, what: &str, done: impl Fn(&[Received]) -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !done(&receiver.got()) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting for {what}; got {:#?}",
            receiver.got().iter().map(|r| (&r.id, r.answered)).collect::<Vec<_>>()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn position_of(id: &str) -> u64 {
    id.strip_prefix("msg_").and_then(|rest| rest.split('_').next()).and_then(|p| p.parse().ok()).unwrap_or_else(|| panic!("id {id}"))
}

#[tokio::test]
async fn deliveries_arrive_signed_in_log_order_once_per_change_with_the_owners_notices() {
    let receiver = Receiver::start(|_| 200).await;
    let (app, _worker) = app_for(&receiver, &[]).await;
    let (_, token) = person(&app, "ada", "0xa1").await;
    person(&app, "bob", "0xb2").await;
    let made =
        register(&app, &token, json!({ "url": receiver.url(), "topics": ["market"], "noticeKinds": ["BID_RECEIVED"] })).await.expect(200);
    let secret = made.body()["secret"].as_str().unwrap().to_owned();
    assert!(secret.starts_with("whsec_") && signature::secret_bytes(&secret).unwrap().len() >= 24, "{secret}");
    let endpoint = made.body()["endpointId"].as_str().unwrap().to_owned();
    assert_eq!(made.body()["state"], "ACTIVE");

    // Five changes: two mints, a listing, an auction, and a bid that tells Ada (its creator).
    // Each waits for the last one's delivery: a change of an NFT that changes again before the
    // endpoint reads it is named once, at its latest position (as the stream's catch-up does).
    let mut positions = Vec::new();
    for (n, event) in
        [minted(1, "0xa1"), minted(2, "0xb2"), listed(2, "5", 3), auction(1, 4), bid(1, "0xb2", "10", 5)].into_iter().enumerate()
    {
        positions.extend(chain(&app, &[event]).await);
        until(&receiver, "the change's delivery", |got| got.len() > n).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;

    let got = receiver.got();
    assert_eq!(got.len(), 5, "one delivery per change, none twice");
    let ids: Vec<String> = got.iter().map(|r| r.id.clone()).collect();
    let expected: Vec<String> = positions.iter().map(|p| format!("msg_{p}_{}", endpoint.replace('-', ""))).collect();
    assert_eq!(ids, expected, "in log order, ids by position and endpoint");
    let key = signature::secret_bytes(&secret).unwrap();
    for r in &got {
        let timestamp: i64 = r.timestamp.parse().unwrap();
        assert!((chrono::Utc::now().timestamp() - timestamp).abs() < 30);
        assert_eq!(r.signature, signature::sign(&key, &r.id, timestamp, &r.body), "signed with the shown secret");
        let body: Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(body["position"].as_u64().unwrap(), position_of(&r.id));
    }
    let last: Value = serde_json::from_slice(&got[4].body).unwrap();
    assert_eq!(last["nfts"][0]["nftId"], "80001-1");
    assert_eq!(last["notices"][0]["kind"], "BID_RECEIVED", "Ada's own notice of a kind she chose");

    // The list and the log show it.
    let listed = app.get("/api/webhooks", Some(&token)).await.expect(200);
    let endpoint_body = &listed.body()[0];
    assert!(endpoint_body.get("secret").is_none(), "the secret is shown once");
    assert_eq!(endpoint_body["acknowledgedPosition"].as_u64().unwrap(), positions[4]);
    assert_eq!(endpoint_body["lastDelivery"]["status"], 200);
    let log = app.get(&format!("/api/webhooks/{endpoint}/deliveries"), Some(&token)).await.expect(200);
    assert_eq!(log.body().as_array().unwrap().len(), 5);
    assert_eq!(log.body()[0]["position"].as_u64().unwrap(), positions[4], "newest first");

    // Neither the secret nor its bytes are in the log.
    let events = app.state.store.read_all(0, 10_000).await.unwrap();
    assert!(events.iter().any(|e| e.event_type == "WebhookEndpointRegistered"));
    let text: String = events.iter().map(|e| e.payload.as_str()).collect();
    assert!(!text.contains(secret.trim_start_matches("whsec_")), "the secret is not in the log");
}

#[tokio::test]
async fn a_receiver_answering_500_gets_retries_with_growing_backoff_until_it_acknowledges() {
    // 500, 500, then 200.
    let receiver = Receiver::start(|n| if n < 2 { 500 } else { 200 }).await;
    let (app, _worker) = app_for(&receiver, &[]).await;
    let (_, token) = person(&app, "ada", "0xa1").await;
    let made = register(&app, &token, json!({ "url": receiver.url(), "topics": ["market"] })).await.expect(200);
    let endpoint = made.body()["endpointId"].as_str().unwrap().to_owned();

    let positions = chain(&app, &[minted(1, "0xa1")]).await;
    until(&receiver, "three attempts", |got| got.len() >= 3).await;
    tokio::time::sleep(Duration::from_millis(300)).await;

    let got = receiver.got();
    assert_eq!(got.len(), 3, "no attempt after the acknowledgement");
    assert!(got.iter().all(|r| r.id == got[0].id), "every attempt is the same message");
    assert_eq!(position_of(&got[0].id), positions[0]);
    // Backoff: 40 ms, then 80 ms (each up to a fifth more).
    let (first, second) = (got[1].at - got[0].at, got[2].at - got[1].at);
    assert!(first >= Duration::from_millis(40), "{first:?}");
    assert!(second >= Duration::from_millis(80) && second > first, "{first:?} then {second:?}");
    let log = app.get(&format!("/api/webhooks/{endpoint}/deliveries"), Some(&token)).await.expect(200);
    let attempts: Vec<(u64, Value)> =
        log.body().as_array().unwrap().iter().map(|a| (a["attempt"].as_u64().unwrap(), a["status"].clone())).collect();
    assert_eq!(attempts, [(3, json!(200)), (2, json!(500)), (1, json!(500))]);
    let listed = app.get("/api/webhooks", Some(&token)).await.expect(200);
    assert_eq!(listed.body()[0]["state"], "ACTIVE");
    assert_eq!(listed.body()[0]["failures"], 0);
}

#[tokio::test]
async fn an_endpoint_failing_past_the_limit_is_disabled_its_owner_mailed_and_a_redelivery_enables_it() {
    let up = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = up.clone();
    let receiver = Receiver::start(move |_| if flag.load(std::sync::atomic::Ordering::SeqCst) { 200 } else { 503 }).await;
    let (app, _worker) = app_for(&receiver, &["--webhook-disable-after-secs", "1"]).await;
    let (_, token) = person(&app, "ada", "0xa1").await;
    let made = register(&app, &token, json!({ "url": receiver.url(), "topics": ["market"] })).await.expect(200);
    let endpoint = made.body()["endpointId"].as_str().unwrap().to_owned();
    let positions = chain(&app, &[minted(1, "0xa1"), minted(2, "0xa1")]).await;

    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let listed = app.get("/api/webhooks", Some(&token)).await.expect(200);
        if listed.body()[0]["state"] == "DISABLED" {
            assert!(listed.body()[0]["disabledAt"].is_string());
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "not disabled: {}", listed.body());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let tried = receiver.got().len();
    assert!(tried >= 2, "retried before disabling");
    let mails = app.mails("ada@example.com").await;
    assert!(mails.iter().any(|m| m.to_string().contains("webhook endpoint was disabled")), "{mails:?}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(receiver.got().len(), tried, "nothing is posted to a disabled endpoint");

    // Fixed: redeliver from the first change on; both arrive, in order.
    up.store(true, std::sync::atomic::Ordering::SeqCst);
    let from = positions[0];
    app.json("POST", &format!("/api/webhooks/{endpoint}/redeliver"), Some(&token), json!({ "fromPosition": from })).await.expect(200);
    until(&receiver, "the redelivered changes", |got| got.iter().filter(|r| r.answered == 200).count() >= 2).await;
    let acknowledged: Vec<u64> = receiver.got().iter().filter(|r| r.answered == 200).map(|r| position_of(&r.id)).collect();
    assert_eq!(acknowledged, positions);
    let listed = app.get("/api/webhooks", Some(&token)).await.expect(200);
    assert_eq!(listed.body()[0]["state"], "ACTIVE");
}

#[tokio::test]
async fn private_and_plain_http_urls_are_refused_at_registration() {
    // The production defaults: https only, public addresses only.
    let app = TestApp::new().await;
    let (_, token) = person(&app, "ada", "0xa1").await;
    let before = app.event_count().await;
    for url in [
        "http://example.com/hook",
        "https://127.0.0.1/hook",
        "https://localhost/hook",
        "https://10.1.2.3/hook",
        "https://192.168.0.10/hook",
        "https://169.254.169.254/latest",
        "https://[::1]/hook",
        "https://[::ffff:127.0.0.1]/hook",
        "ftp://example.com/hook",
    ] {
        let answer = register(&app, &token, json!({ "url": url, "topics": ["market"] })).await.expect(400);
        assert!(answer.message().starts_with("url:"), "{url}: {}", answer.message());
    }
    assert_eq!(app.event_count().await, before, "nothing registered");
}

#[tokio::test]
async fn a_key_needs_the_webhooks_scope_and_nobody_reaches_anothers_endpoint() {
    let receiver = Receiver::start(|_| 200).await;
    let (app, _worker) = app_for(&receiver, &[]).await;
    let (_, ada) = person(&app, "ada", "0xa1").await;
    let (_, bob) = person(&app, "bob", "0xb2").await;
    let key_of = |scopes: &'static [&'static str]| {
        let app = &app;
        let ada = ada.clone();
        async move {
            let made = app.json("POST", "/api/account/keys", Some(&ada), json!({ "name": "bot", "scopes": scopes })).await.expect(200);
            made.body()["key"].as_str().unwrap().to_owned()
        }
    };
    let reader = key_of(&["read", "trades", "notifications"]).await;
    let hooks = key_of(&["webhooks"]).await;
    let body = json!({ "url": receiver.url(), "topics": ["market"] });
    let refused = app.json("POST", "/api/webhooks", Some(&reader), body.clone()).await.expect(403);
    assert!(refused.message().contains("webhooks"), "{}", refused.message());
    app.get("/api/webhooks", Some(&reader)).await.expect(403);
    let made = app.json("POST", "/api/webhooks", Some(&hooks), body.clone()).await.expect(200);
    let endpoint = made.body()["endpointId"].as_str().unwrap().to_owned();
    assert_eq!(app.get("/api/webhooks", Some(&hooks)).await.expect(200).body().as_array().unwrap().len(), 1);

    // Bob sees none of Ada's and reaches none of it.
    assert_eq!(app.get("/api/webhooks", Some(&bob)).await.expect(200).body(), &json!([]));
    let before = app.event_count().await;
    app.get(&format!("/api/webhooks/{endpoint}/deliveries"), Some(&bob)).await.expect(404);
    app.json("PUT", &format!("/api/webhooks/{endpoint}"), Some(&bob), body.clone()).await.expect(404);
    app.json("POST", &format!("/api/webhooks/{endpoint}/redeliver"), Some(&bob), json!({ "fromPosition": 1 })).await.expect(404);
    app.json("POST", &format!("/api/webhooks/{endpoint}/test"), Some(&bob), json!({})).await.expect(404);
    app.json("DELETE", &format!("/api/webhooks/{endpoint}"), Some(&bob), json!({})).await.expect(404);
    app.get(&format!("/api/webhooks/{}/deliveries", Uuid::now_v7()), Some(&ada)).await.expect(404);
    assert_eq!(app.event_count().await, before);
    assert!(receiver.got().is_empty(), "Bob's test reached nothing");

    // Ada's own test event arrives, signed, and is logged; then she changes and deletes it.
    let tested = app.json("POST", &format!("/api/webhooks/{endpoint}/test"), Some(&ada), json!({})).await.expect(200);
    assert_eq!(tested.body()["status"], 200);
    assert!(receiver.got()[0].id.starts_with("msg_test_"));
    let changed = app
        .json(
            "PUT",
            &format!("/api/webhooks/{endpoint}"),
            Some(&hooks),
            json!({ "url": receiver.url(), "topics": ["nft:80001-1"], "noticeKinds": ["SOLD"] }),
        )
        .await
        .expect(200);
    assert_eq!(changed.body()["topics"], json!(["nft:80001-1"]));
    assert_eq!(changed.body()["noticeKinds"], json!(["SOLD"]));
    app.json("DELETE", &format!("/api/webhooks/{endpoint}"), Some(&hooks), json!({})).await.expect(200);
    assert_eq!(app.get("/api/webhooks", Some(&ada)).await.expect(200).body(), &json!([]));
    app.get(&format!("/api/webhooks/{endpoint}/deliveries"), Some(&ada)).await.expect(404);
}

#[tokio::test]
async fn bad_input_gets_400_in_the_envelope_and_changes_nothing() {
    let receiver = Receiver::start(|_| 200).await;
    let (app, _worker) = app_for(&receiver, &[]).await;
    let (_, token) = person(&app, "ada", "0xa1").await;
    let url = receiver.url();
    let before = app.event_count().await;
    let malformed = app.raw("POST", "/api/webhooks", Some(&token), "application/json", "{\"url\": ").await.expect(400);
    assert!(!malformed.message().is_empty());
    for (body, names) in [
        (json!({ "url": "not a url", "topics": ["market"] }), "url"),
        (json!({ "url": "https://exa mple.com/", "topics": ["market"] }), "url"),
        (json!({ "url": "https://user:pw@example.com/", "topics": ["market"] }), "url"),
        (json!({ "url": url, "topics": ["markets"] }), "topics"),
        (json!({ "url": url, "topics": ["nft:"] }), "topics"),
        (json!({ "url": url, "noticeKinds": ["SOLDOUT"] }), "noticeKinds"),
        (json!({ "url": url }), "topics"),
        (json!({ "url": url, "topics": "market" }), "topics"),
        (json!({ "url": url, "topics": ["market"], "secret": "mine" }), "secret"),
        (json!({ "url": url, "topics": (0..21).map(|n| format!("nft:80001-{n}")).collect::<Vec<_>>() }), "topics"),
    ] {
        let answer = register(&app, &token, body.clone()).await.expect(400);
        assert!(answer.message().contains(names), "{body}: {}", answer.message());
    }
    assert_eq!(app.event_count().await, before, "nothing registered");

    // Ten endpoints at most.
    for _ in 0..10 {
        register(&app, &token, json!({ "url": url, "topics": ["market"] })).await.expect(200);
    }
    let after_ten = app.event_count().await;
    let eleventh = register(&app, &token, json!({ "url": url, "topics": ["market"] })).await.expect(400);
    assert!(eleventh.message().contains("too many webhook endpoints"), "{}", eleventh.message());
    assert_eq!(app.event_count().await, after_ten);
    let endpoint = app.get("/api/webhooks", Some(&token)).await.expect(200).body()[0]["endpointId"].as_str().unwrap().to_owned();
    for from in [json!({ "fromPosition": 0 }), json!({ "fromPosition": 1_000_000 }), json!({ "fromPosition": "one" }), json!({})] {
        app.json("POST", &format!("/api/webhooks/{endpoint}/redeliver"), Some(&token), from).await.expect(400);
    }
}

/// A marketplace process over the files in `dir` (a restart opens another on the same ones).
async fn process(
    dir: &tempfile::TempDir,
    receiver: &Receiver,
) -> (api::http::AppState, support::ProjectorTask, tokio::task::JoinHandle<()>) {
    let host = receiver.host();
    let args =
        ["--jwt-secret", "test-secret", "--webhook-allow-http", "--webhook-allowed-hosts", host.as_str(), "--webhook-retry-base-ms", "40"];
    let (state, projector) = support::fresh_state(support::config(dir, &args), false).await;
    let worker = api::node::webhooks::spawn(state.node.clone());
    (state, projector, worker)
}

async fn append(state: &api::http::AppState, events: &[ChainEvent]) -> Vec<u64> {
    let mut positions = Vec::new();
    for event in events {
        let new_event = event.to_new_event(Uuid::now_v7(), Metadata::default()).unwrap();
        let write = StreamAppend { stream_id: event.stream_id(support::CHAIN_ID), expected: ExpectedVersion::Any, events: vec![new_event] };
        positions.push(state.store.append_streams(vec![write]).await.unwrap().last_position);
    }
    positions
}

#[tokio::test]
async fn after_a_restart_deliveries_continue_from_the_acknowledged_position_losing_nothing() {
    let receiver = Receiver::start(|_| 200).await;
    let dir = tempfile::tempdir().unwrap();
    let (state, projector, worker) = process(&dir, &receiver).await;
    let ada = Uuid::now_v7();
    projections::test_utils::register_user(state.store.as_ref(), ada, "ada", "0xa1", chrono::Utc::now()).await;
    let token = state.accounts.tokens.issue(ada).unwrap();
    let router = api::http::app(state.clone(), std::path::Path::new("no-ui"));
    let request = axum::http::Request::post("/api/webhooks")
        .header("authorization", format!("Bearer {token}"))
        .header("content-type", "application/json")
        .body(axum::body::Body::from(json!({ "url": receiver.url(), "topics": ["market"] }).to_string()))
        .unwrap();
    let (head, _) = state.store.head().await.unwrap();
    state.projector.wait_for(head, Duration::from_secs(10)).await.unwrap();
    let answer = tower::ServiceExt::oneshot(router, request).await.unwrap();
    assert_eq!(answer.status(), StatusCode::OK);

    let mut expected = append(&state, &[minted(1, "0xa1"), minted(2, "0xa1")]).await;
    until(&receiver, "the first two", |got| got.len() >= 2).await;

    // Stop the process; the market moves on meanwhile (appended to the log, no one projecting).
    worker.abort();
    drop(projector);
    let _ = worker.await;
    expected.extend(append(&state, &[minted(3, "0xa1"), minted(4, "0xa1"), minted(5, "0xa1")]).await);
    drop(state);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(receiver.got().len(), 2, "nothing delivered while stopped");

    let (_state, _projector, _worker) = process(&dir, &receiver).await;
    until(&receiver, "all five", |got| got.len() >= 5).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let delivered: Vec<u64> = receiver.got().iter().map(|r| position_of(&r.id)).collect();
    assert_eq!(delivered, expected, "each change once, in order, across the restart");
}

#[tokio::test]
async fn a_receiver_down_for_a_long_while_gets_every_change_afterwards_each_id_once_after_dedupe() {
    // Down for its first 25 requests (minutes of backoff in production, compressed here), then up.
    let receiver = Receiver::start(|n| if n < 25 { 503 } else { 200 }).await;
    let (app, _worker) = app_for(&receiver, &["--webhook-retry-base-ms", "5", "--webhook-retry-max-ms", "20"]).await;
    let (_, token) = person(&app, "ada", "0xa1").await;
    register(&app, &token, json!({ "url": receiver.url(), "topics": ["market"] })).await.expect(200);
    // Changes keep coming while it is down: forty NFTs minted, a few at a time.
    let mut expected = Vec::new();
    for batch in 0..8u64 {
        let events: Vec<ChainEvent> = (1..=5).map(|n| minted(batch * 5 + n, "0xa1")).collect();
        expected.extend(chain(&app, &events).await);
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    until(&receiver, "every change", |got| {
        let acknowledged: HashSet<u64> = got.iter().filter(|r| r.answered == 200).map(|r| position_of(&r.id)).collect();
        acknowledged.len() >= expected.len()
    })
    .await;
    assert!(receiver.got().iter().filter(|r| r.answered == 503).count() >= 25, "it was down");
    let mut seen = HashSet::new();
    let deduped: Vec<u64> =
        receiver.got().iter().filter(|r| r.answered == 200 && seen.insert(r.id.clone())).map(|r| position_of(&r.id)).collect();
    assert_eq!(deduped, expected, "every change, in order, each id once after dedupe");
}
