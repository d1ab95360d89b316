//! A fresh marketplace per test (SQLite log and read database in a temporary folder, the dev
//! mailbox unless SMTP is configured), and the document it serves.

use std::collections::BTreeSet;

use api::http::AppState;
use axum::{
    Router,
    body::Body,
    http::{Request, StatusCode, header},
};
use serde_json::Value;
use tower::ServiceExt;

use crate::support::{self, ProjectorTask};

/// The app under test.
pub struct TestApp {
    pub state: AppState,
    pub router: Router,
    _projector: ProjectorTask,
    _dir: tempfile::TempDir,
}

/// An answer: status, content type and body.
pub struct Answer {
    pub status: StatusCode,
    pub content_type: String,
    pub bytes: Vec<u8>,
}

impl Answer {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.bytes).unwrap_or(Value::Null)
    }
}

/// The chain id the tests' events and config use.
pub const CHAIN_ID: u64 = support::CHAIN_ID;

impl TestApp {
    /// With the dev mailbox as the mailer and the dev wallet offered, as a development server runs.
    pub async fn new() -> Self {
        Self::with_args(&[]).await
    }

    /// With extra command-line settings.
    pub async fn with_args(extra: &[&str]) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let mut args = vec!["--jwt-secret", "test-secret", "--contract-address", "0xc0ffee"];
        args.extend_from_slice(extra);
        let (state, projector) = support::fresh_state(support::config(&dir, &args), true).await;
        let state = state.with_chain(api::chain::ChainInfo { dev_wallet: true, ..support::no_chain() }, None);
        let router = api::http::app(state.clone(), std::path::Path::new("no-ui"));
        Self { state, router, _projector: projector, _dir: dir }
    }

    pub async fn send(&self, request: Request<Body>) -> Answer {
        let response = self.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let content_type = response.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
        // An event stream never ends: its first event is its body here.
        let bytes = if content_type.starts_with("text/event-stream") {
            use futures::StreamExt as _;
            let mut body = response.into_body().into_data_stream();
            match tokio::time::timeout(std::time::Duration::from_secs(5), body.next()).await {
                Ok(Some(Ok(bytes))) => bytes.to_vec(),
                _ => Vec::new(),
            }
        } else {
            axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap().to_vec()
        };
        Answer { status, content_type, bytes }
    }

    pub async fn get(&self, uri: &str) -> Answer {
        self.send(Request::get(uri).body(Body::empty()).unwrap()).await
    }

    /// The document the app serves.
    pub async fn document(&self) -> Value {
        let answer = self.get("/api/openapi.json").await;
        assert_eq!(answer.status, StatusCode::OK);
        serde_json::from_slice(&answer.bytes).expect("the document is JSON")
    }
}

/// The HTTP methods an OpenAPI path item can hold.
pub const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// Every `(METHOD, path)` the document describes.
pub fn operations(doc: &Value) -> BTreeSet<(String, String)> {
    let mut operations = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in METHODS {
            if item.get(method).is_some() {
                operations.insert((method.to_uppercase(), path.clone()));
            }
        }
    }
    operations
}

/// A path with its parameters replaced by `{}` (how OpenAPI and axum match them).
pub fn shape(path: &str) -> String {
    let mut out = String::new();
    let mut in_param = false;
    for c in path.chars() {
        match c {
            '{' => {
                in_param = true;
                out.push_str("{}");
            }
            '}' => in_param = false,
            _ if !in_param => out.push(c),
            _ => {}
        }
    }
    out
}

impl TestApp {
    /// An NFT `80001-1` in an auction (id 1) with a bid, so every NFT read has rows to show.
    pub async fn seed_nft(&self) {
        use domain::{
            ExpectedVersion, Metadata,
            catalog::CatalogEvent,
            chain::{ChainEvent, Origin, Royalty, SaleType},
        };
        let origin =
            |block: u64| Origin { block_number: block, block_time: 1_700_000_000, tx_hash: format!("0x{block:064x}"), log_index: 0 };
        let end_time = chrono::Utc::now().timestamp() + 3_600;
        let events = [
            ChainEvent::NftMinted {
                token_id: "1".into(),
                creator: "0xalice".into(),
                token_uri: "/ipfs/m".into(),
                royalties: vec![Royalty { receiver: "0xalice".into(), bps: 250 }],
                origin: origin(1),
            },
            ChainEvent::SaleUpdated {
                token_id: "1".into(),
                sale_type: SaleType::Auction,
                price: "3000000000000000000".into(),
                base_price: "1000000000000000000".into(),
                end_time,
                auction_id: "1".into(),
                origin: origin(2),
            },
            ChainEvent::BidPlaced {
                token_id: "1".into(),
                auction_id: "1".into(),
                bidder: "0xbob".into(),
                amount: "1500000000000000000".into(),
                end_time,
                origin: origin(3),
            },
        ];
        let mut last = 0;
        for event in events {
            let new_event = event.to_new_event(uuid::Uuid::now_v7(), Metadata::default()).unwrap();
            last = self.state.store.append(&event.stream_id(CHAIN_ID), ExpectedVersion::Any, vec![new_event]).await.unwrap().last_position;
        }
        let details = CatalogEvent::NftDetailsRecorded {
            chain_id: CHAIN_ID,
            token_id: "1".into(),
            title: "Sunset".into(),
            description: "Warm".into(),
            category_id: "art".into(),
            file: "/ipfs/img".into(),
            metadata_url: "/ipfs/m".into(),
            properties: vec![],
            creator_user_id: None,
        };
        let outcome = self
            .state
            .store
            .append(&details.stream_id(), ExpectedVersion::Any, vec![details.to_new_event(Metadata::default()).unwrap()])
            .await;
        last = last.max(outcome.unwrap().last_position);
        self.state.projector.wait_for(last, std::time::Duration::from_secs(10)).await.unwrap();
    }
}
