//! Signed webhooks end to end: endpoints registered, listed, changed and deleted through the
//! API (a session or a key with the `webhooks` scope); deliveries to a real axum receiver on
//! loopback, signed, in log order, once per change; retries with backoff; disabling and
//! redelivery; a restart that resumes from the acknowledged position; a receiver down for a
//! long while getting every change afterwards. Real SQLite log, read database and delivery
//! tables, the projector and the delivery worker running. Loopback is reached only because each
//! test allows http and its own receiver's `127.0.0.1:port` (the production default refuses
//! both, as `private_and_plain_http_urls_are_refused_at_registration` shows).

#[path = "../accounts/helpers.rs"]
#[allow(dead_code)]
mod helpers;
#[path = "../support/mod.rs"]
mod support;

use std::{
    sync::{Arc, Mutex},
    time::Duration,
};

use api::node::webhooks::signature;
use axum::{Router, body::Bytes, extract::State, http::HeaderMap, http::StatusCode, routing::post};
use domain::{
    ExpectedVersion, Metadata, StreamAppend,
    chain::{ChainEvent, Origin, SaleType},
};
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

    /// The acknowledged deliveries' ids, in order of arrival.
    fn acknowledged(&self) -> Vec<String> {
        self.got().into_iter().filter(|r| (200..300).contains(&r.answered)).map(|r| r.id).collect()
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
    let mut args = vec!["--webhook-allow-http", "--webhook-allowed-hosts", host.as_str(), "--webhook-retry-base-ms", "40"];
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

fn origin(block: u64) -> Origin {
    Origin { block_number: block, block_time: 1_700_000_000 + block as i64, tx_hash: format!("0x{block:064x}"), log_index: 0 }
}

fn minted(token: u64, creator: &str) -> ChainEvent {
    ChainEvent::NftMinted {
        token_id: token.to_string(),
        creator: creator.into(),
        token_uri: "/ipfs/m".into(),
        royalties: vec![],
        origin: origin(token),
    }
}

fn listed(token: u64, wei: &str, block: u64) -> ChainEvent {
    ChainEvent::SaleUpdated {
        token_id: token.to_string(),
        sale_type: SaleType::FixedPrice,
        price: wei.into(),
        base_price: "0".into(),
        end_time: 0,
        auction_id: "0".into(),
        origin: origin(block),
    }
}

fn auction(token: u64, block: u64) -> ChainEvent {
    ChainEvent::SaleUpdated {
        token_id: token.to_string(),
        sale_type: SaleType::Auction,
        price: "0".into(),
        base_price: "1".into(),
        end_time: 1_900_000_000,
        auction_id: "1".into(),
        origin: origin(block),
    }
}

fn bid(token: u64, bidder: &str, amount: &str, block: u64) -> ChainEvent {
    ChainEvent::BidPlaced {
        token_id: token.to_string(),
        auction_id: "1".into(),
        bidder: bidder.into(),
        amount: amount.into(),
        end_time: 1_900_000_000,
        origin: origin(block),
    }
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
