//! Set-up the test binaries share: the server's configuration from a command line, a fresh
//! marketplace without a chain (log, read database, projector), and one on a real anvil (plus
//! the indexer). Each binary includes it with `#[path = "../support/mod.rs"] mod support;`.

// Each binary uses its own part of it.
#![allow(dead_code)]

use api::{chain::ChainInfo, config::Config, http::AppState};
use axum::{
    body::Body,
    http::{Request, StatusCode},
};
use clap::Parser;
use domain::{ExpectedVersion, Metadata, StreamAppend, chain::ChainEvent};
use indexer::{Indexer, IndexerHandle, test_utils::TestChain};
use projections::{Projector, ProjectorHandle, ReadDb};

/// The `marketplace` command line's configuration part.
#[derive(Parser)]
pub struct Cli {
    #[command(flatten)]
    pub config: Config,
}

/// The chain id every test runs on.
pub const CHAIN_ID: u64 = 80001;

/// The configuration `marketplace` parses from `--data-dir <dir>/data` and then `args`.
pub fn config(dir: &tempfile::TempDir, args: &[&str]) -> Config {
    let data = dir.path().join("data");
    let mut all = vec!["test", "--data-dir", data.to_str().unwrap()];
    all.extend_from_slice(args);
    Cli::parse_from(all).config
}

/// The projector's task, stopped when dropped (a test's runtime may outlive its app).
pub struct ProjectorTask(tokio::task::JoinHandle<()>);

impl Drop for ProjectorTask {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The app state for `config` over the log and read database it names, with the projector
/// running; the categories seeded first when `seed`.
pub async fn fresh_state(config: Config, seed: bool) -> (AppState, ProjectorTask) {
    let store = api::log::open(&config).await.unwrap();
    if seed {
        api::node::bootstrap::seed_categories(store.as_ref()).await.unwrap();
    }
    let read = ReadDb::open(&config.read_database_url()).await.unwrap().with_replicas(&config.read_replicas()).unwrap();
    let projector = Projector::new(store.clone(), read.clone()).await.unwrap();
    let handle = projector.handle();
    // A projector that stops leaves every later read stale: say why, or a test fails far away.
    let task = tokio::spawn(async move {
        if let Err(err) = projector.run().await {
            eprintln!("the projector stopped: {err}");
        }
    });
    (AppState::new(config, store, read, handle).unwrap(), ProjectorTask(task))
}

/// The chain as the tests without one name it: an id and a contract address, no RPC.
pub fn no_chain() -> ChainInfo {
    ChainInfo { chain_id: CHAIN_ID, contract_address: Some("0xc0ffee".into()), ..Default::default() }
}

/// A marketplace without a chain for the read calls: a log and read database in a temporary
/// folder, the categories seeded, the projector running. Chain facts are appended as the indexer
/// would append them.
pub struct ReadApp {
    pub state: AppState,
    _projector: ProjectorTask,
    _dir: tempfile::TempDir,
}

impl ReadApp {
    /// On a SQLite log, with `args` added to the command line.
    pub async fn new(args: &[&str]) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let mut all = vec!["--contract-address", "0xc0ffee"];
        all.extend_from_slice(args);
        let (state, projector) = fresh_state(config(&dir, &all), true).await;
        Self { state: state.with_chain(no_chain(), None), _projector: projector, _dir: dir }
    }

    /// Waits until the read tables include everything appended so far.
    pub async fn settle(&self) {
        let (head, _) = self.state.store.head().await.unwrap();
        self.state.projector.wait_for(head, std::time::Duration::from_secs(10)).await.unwrap();
    }

    /// Appends `events`, each to its token's stream, one append each as the indexer's blocks do,
    /// and waits until the read tables show them.
    pub async fn chain(&self, events: &[ChainEvent]) {
        for event in events {
            let new_event = event.to_new_event(uuid::Uuid::now_v7(), Metadata::default()).unwrap();
            let write = StreamAppend { stream_id: event.stream_id(CHAIN_ID), expected: ExpectedVersion::Any, events: vec![new_event] };
            self.state.store.append_streams(vec![write]).await.unwrap();
        }
        self.settle().await;
    }

    pub async fn get(&self, uri: &str) -> (StatusCode, serde_json::Value) {
        self.send(Request::get(uri).body(Body::empty()).unwrap()).await
    }

    /// The answer's status and JSON body (`Null` when the body is not JSON).
    pub async fn send(&self, request: Request<Body>) -> (StatusCode, serde_json::Value) {
        let response = self.send_raw(request).await;
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 20).await.unwrap();
        (status, serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null))
    }
}

impl ReadApp {
    /// The answer as it is, headers included.
    pub async fn send_raw(&self, request: Request<Body>) -> axum::response::Response {
        use tower::ServiceExt;
        let app = api::http::app(self.state.clone(), std::path::Path::new("no-ui"));
        app.oneshot(request).await.unwrap()
    }
}

/// A marketplace on a real anvil with the contract deployed: a SQLite log and read database in a
/// temporary folder, the projector and the indexer running.
pub struct ChainStack {
    pub chain: TestChain,
    pub dir: tempfile::TempDir,
    pub store: std::sync::Arc<domain::privacy::PrivateStore>,
    pub read: ReadDb,
    pub projector: ProjectorHandle,
    pub indexer: IndexerHandle,
}

impl ChainStack {
    /// Starts it, with the categories seeded first when `seed`.
    pub async fn start(seed: bool) -> Self {
        let chain = TestChain::start().await;
        let dir = tempfile::tempdir().unwrap();
        let url = |file: &str| format!("sqlite://{}", dir.path().join(file).display());
        let keys = domain::privacy::PrivacyKeys::derive(b"chain stack");
        let store = domain::privacy::open(&url("events.db"), &url("keys.db"), &keys).await.unwrap();
        if seed {
            api::node::bootstrap::seed_categories(store.as_ref()).await.unwrap();
        }
        let read = ReadDb::open(&format!("sqlite://{}", dir.path().join("read.db").display())).await.unwrap();
        let projector = Projector::new(store.clone(), read.clone()).await.unwrap();
        let projector_handle = projector.handle();
        tokio::spawn(projector.run());
        let indexer = Indexer::connect(chain.indexer_config(), store.clone()).await.unwrap();
        let indexer_handle = indexer.handle();
        tokio::spawn(indexer.run(std::future::pending()));
        Self { chain, dir, store, read, projector: projector_handle, indexer: indexer_handle }
    }

    /// The chain as the API sees it: its RPC and the deployed contract.
    pub fn chain_info(&self) -> ChainInfo {
        ChainInfo {
            chain_id: CHAIN_ID,
            rpc_url: Some(self.chain.url.clone()),
            contract_address: Some(format!("{:#x}", self.chain.market)),
            ..ChainInfo::default()
        }
    }

    /// The app state for `config` on this stack, its record calls nudging the indexer.
    pub fn state(&self, config: Config, chain: ChainInfo) -> AppState {
        AppState::new(config, self.store.clone(), self.read.clone(), self.projector.clone())
            .unwrap()
            .with_chain(chain, Some(self.indexer.clone()))
    }
}
