//! The marketplace's HTTP server.
//!
//! [`app`] assembles one router per resource (see [`routes`]) over the shared [`AppState`]; the
//! `marketplace` binary in `main.rs` wires configuration, the event store and the server.

pub mod auction_clock;
pub mod auth;
pub mod bootstrap;
pub mod chain_receipts;
pub mod config;
pub mod cors;
pub mod demo;
pub mod dev;
pub mod error;
pub mod export;
pub mod files;
pub mod leader;
pub mod mail;
pub mod metadata;
pub mod notifier;
pub mod read_cache;
pub mod reconcile;
pub mod routes;
pub mod stream;
pub mod ui_files;
pub mod ui_pages;

use std::{path::Path, sync::Arc, time::Duration};

use axum::Router;
use domain::{EventStore, Position};
use projections::{ProjectorHandle, ReadDb};
use tower_http::compression::{
    CompressionLayer,
    predicate::{DefaultPredicate, Predicate, SizeAbove},
};
use utoipa_axum::router::OpenApiRouter;

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    /// The event log.
    pub store: Arc<dyn EventStore>,
    /// The read tables the queries run on.
    pub read: ReadDb,
    /// How far the projector has folded the log into `read`.
    pub projector: ProjectorHandle,
    /// Uploaded files, by CID.
    pub files: Arc<files::FileStore>,
    /// Card-sized copies of stored images, kept in `<DATA_DIR>/renditions`.
    pub renditions: Arc<files::renditions::Renditions>,
    /// The configuration the server started with.
    pub config: Arc<config::Config>,
    /// Accounts services: tokens, code hashing, mail, rate limits, Google sign-in.
    pub accounts: Arc<auth::Accounts>,
    /// The chain, as resolved at start (local or configured).
    pub chain: Arc<routes::chain::ChainInfo>,
    /// The indexer, when a chain is configured: "index up to block N now".
    pub indexer: Option<indexer::IndexerHandle>,
    /// An HTTP client for outgoing calls (the RPC proxy).
    pub http: reqwest::Client,
    /// Answers of public browse calls while the read tables stay the same.
    pub read_cache: Arc<read_cache::ReadCache<routes::nft::CardsPage>>,
    /// The background reconciliation's last count (`/metrics`), when it runs.
    pub reconcile: Option<Arc<reconcile::ReconcileMetrics>>,
    /// Several processes on one Postgres database: whether this one holds the election's lock
    /// (indexes and projects). `None` on SQLite (one process does everything).
    pub leading: Option<leader::Leading>,
    /// The read tables' changes, for `/api/stream`.
    pub stream: Arc<stream::StreamHub>,
}

/// How long a command waits for its events to reach the read tables before answering.
const READ_YOUR_WRITES: Duration = Duration::from_secs(5);

impl AppState {
    /// The state for `config` over an opened log, read database and projector: the file store
    /// and the accounts services come from the configuration; no chain until [`Self::with_chain`].
    pub fn new(config: config::Config, store: Arc<dyn EventStore>, read: ReadDb, projector: ProjectorHandle) -> anyhow::Result<Self> {
        use anyhow::Context as _;
        let files = files::FileStore::from_config(&config).context("opening the file store")?;
        let accounts = auth::Accounts::from_config(&config).context("starting the accounts services")?;
        let chain = routes::chain::ChainInfo { chain_id: config.chain_id, ..Default::default() };
        let stream = stream::StreamHub::start(read.clone(), &projector);
        Ok(Self {
            store,
            read,
            projector,
            files: Arc::new(files),
            renditions: Arc::new(files::renditions::Renditions::new(config.data_dir.join("renditions"))),
            config: Arc::new(config),
            accounts: Arc::new(accounts),
            chain: Arc::new(chain),
            indexer: None,
            http: reqwest::Client::new(),
            read_cache: Arc::default(),
            reconcile: None,
            leading: None,
            stream,
        })
    }

    /// The same state on `chain`, indexed by `indexer` when there is one.
    pub fn with_chain(self, chain: routes::chain::ChainInfo, indexer: Option<indexer::IndexerHandle>) -> Self {
        Self { chain: Arc::new(chain), indexer, ..self }
    }

    /// The state of the read tables now: what a cached answer must have been computed at.
    pub fn read_version(&self) -> read_cache::ReadVersion {
        read_cache::ReadVersion { generation: self.read.generation(), position: self.projector.position() }
    }

    /// Waits until the read tables include `position`, so the answer to a command (and the
    /// next query) shows its effect. Bounded: past it the command still succeeded, so this
    /// only logs.
    pub async fn projected(&self, position: Position) {
        if let Err(err) = self.projector.wait_for(position, READ_YOUR_WRITES).await {
            tracing::warn!(%err, "answering before the read models caught up");
        }
    }
}

/// The whole HTTP application: API routes with their OpenAPI document at `/api/openapi.json`
/// (answers compressed for clients that accept it), then the built UI ([`ui_files`]); other
/// origins' access as [`cors`] allows.
pub fn app(state: AppState, ui_dir: &Path) -> Router {
    // Only while mail goes to the dev mailbox can it be read over HTTP (and is it documented).
    let dev_mailbox = if state.accounts.mailer.dev_mailbox().is_some() { mail::dev_router() } else { OpenApiRouter::new() };
    // Only on the local dev chain, the one the dev wallet is offered on.
    let dev_wallets = if state.chain.dev_wallet { dev::wallets_router() } else { OpenApiRouter::new() };
    let api = routes::openapi::base()
        .merge(routes::health::router())
        .merge(routes::ipfs::router())
        .merge(routes::nft::router())
        .merge(routes::metadata::router())
        .merge(routes::traits::router())
        .merge(routes::collection::router(state.config.max_image_bytes))
        .merge(routes::trending::router())
        .merge(routes::insight::router())
        .merge(routes::activity::router())
        .merge(routes::social::router())
        .merge(routes::trade::router(state.config.max_nft_file_bytes))
        .merge(routes::misc::router())
        .merge(routes::auth::router())
        .merge(routes::account::router(state.config.max_image_bytes))
        .merge(routes::contact::router())
        .merge(dev_mailbox)
        .merge(dev_wallets)
        .merge(routes::chain::router())
        .merge(routes::contract::router())
        .merge(routes::metrics::router())
        .merge(routes::stream::router())
        .merge(routes::notices::router());
    let pages = state.clone();
    let cors = cors::Cors::new(&state.config.allowed_origins);
    let api = routes::openapi::serve(api)
        .layer(axum::middleware::from_fn(routes::metrics::count_responses))
        .layer(CompressionLayer::new().compress_when(DefaultPredicate::new().and(SizeAbove::new(COMPRESS_ABOVE))))
        .with_state(state);
    ui_files::with_ui(api, ui_dir, pages).layer(axum::middleware::from_fn_with_state(cors, cors::cors))
}

/// The server's listener: every accepted connection with `TCP_NODELAY`. Without it an answer
/// written in two parts, headers then a streamed body (every static file), waits for the
/// client's delayed ACK before its second part leaves: about 40 ms a request on a kept-alive
/// connection.
pub fn listener(listener: tokio::net::TcpListener) -> axum::serve::TapIo<tokio::net::TcpListener, fn(&mut tokio::net::TcpStream)> {
    use axum::serve::ListenerExt as _;
    listener.tap_io(no_delay as fn(&mut tokio::net::TcpStream))
}

fn no_delay(stream: &mut tokio::net::TcpStream) {
    if let Err(err) = stream.set_nodelay(true) {
        tracing::debug!(%err, "could not set TCP_NODELAY on a connection");
    }
}

/// API answers smaller than this go out as they are: below about one packet, compressing saves
/// the client nothing and costs the server a compressor's set-up.
const COMPRESS_ABOVE: u16 = 1024;
