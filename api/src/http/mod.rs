//! The HTTP surface: one router per resource ([`routes`]) over [`AppState`], their OpenAPI
//! document, the built UI ([`ui_files`], [`ui_pages`]), and the plumbing every route shares:
//! the answer envelope ([`error`]), accounts and sign-in ([`auth`]), cross-origin access
//! ([`cors`]), the security headers on every answer ([`headers`]), cached public answers
//! ([`read_cache`]), the log position of writes and of the reads after them ([`log_position`]).

pub mod auth;
pub mod cors;
pub mod error;
pub mod headers;
pub mod log_position;
pub mod read_cache;
pub mod routes;
pub mod ui_files;
pub mod ui_pages;

use std::{ops::Deref, path::Path, sync::Arc};

use axum::Router;
use projections::{ProjectorHandle, ReadDb};
use tower_http::compression::{
    CompressionLayer,
    predicate::{DefaultPredicate, Predicate, SizeAbove},
};
use utoipa_axum::router::OpenApiRouter;

use crate::{chain::ChainInfo, config::Config, node::Node};

/// What every handler can reach: the process's [`Node`] (through `Deref`: `state.read`,
/// `state.store`, ...) and what only the HTTP surface uses.
#[derive(Clone)]
pub struct AppState {
    /// The process's shared services.
    pub node: Node,
    /// Accounts services: tokens, code hashing, rate limits, Google sign-in.
    pub accounts: Arc<auth::Accounts>,
    /// Answers of public browse calls while the read tables stay the same.
    pub read_cache: Arc<read_cache::ReadCache<routes::nft::CardsPage>>,
    /// Answers of signed-in viewers' own lists (notices, bids) while the read tables stay the same.
    pub own_answers: Arc<read_cache::ReadCache>,
}

impl Deref for AppState {
    type Target = Node;

    fn deref(&self) -> &Node {
        &self.node
    }
}

impl AppState {
    /// The state of a process's HTTP surface over `node`.
    pub fn over(node: Node) -> anyhow::Result<Self> {
        use anyhow::Context as _;
        let accounts = auth::Accounts::from_config(&node.config).context("starting the accounts services")?;
        accounts.erased.follow(node.read.clone());
        Ok(Self { node, accounts: Arc::new(accounts), read_cache: Arc::default(), own_answers: Arc::default() })
    }

    /// The state for `config` over an opened log, read database and projector, with no chain
    /// ([`Node::new`], then [`Self::over`]).
    pub fn new(
        config: Config,
        store: Arc<domain::privacy::PrivateStore>,
        read: ReadDb,
        projector: ProjectorHandle,
    ) -> anyhow::Result<Self> {
        Self::over(Node::new(config, store, read, projector)?)
    }

    /// The same state on `chain`, indexed by `indexer` when there is one.
    pub fn with_chain(self, chain: ChainInfo, indexer: Option<indexer::IndexerHandle>) -> Self {
        Self { node: self.node.with_chain(chain, indexer), ..self }
    }

    /// The state of the read tables now: what a cached answer must have been computed at.
    pub fn read_version(&self) -> read_cache::ReadVersion {
        read_cache::ReadVersion { generation: self.read.generation(), position: self.projector.position() }
    }
}

/// The whole HTTP application: API routes with their OpenAPI document at `/api/openapi.json`
/// (answers compressed for clients that accept it), then the built UI ([`ui_files`]); other
/// origins' access as [`cors`] allows; every answer with the [`headers`] of a page that trusts
/// no stranger.
pub fn app(state: AppState, ui_dir: &Path) -> Router {
    // Only while mail goes to the dev mailbox can it be read over HTTP (and is it documented).
    let dev_mailbox = if state.mailer.dev_mailbox().is_some() { routes::dev::mailbox_router() } else { OpenApiRouter::new() };
    // Only on the local dev chain, the one the dev wallet is offered on.
    let dev_wallets = if state.chain.dev_wallet { routes::dev::wallets_router() } else { OpenApiRouter::new() };
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
        .merge(routes::privacy::router())
        .merge(routes::keys::router())
        .merge(routes::contact::router())
        .merge(routes::moderation::router())
        .merge(dev_mailbox)
        .merge(dev_wallets)
        .merge(routes::chain::router())
        .merge(routes::contract::router())
        .merge(routes::metrics::router())
        .merge(routes::stream::router())
        .merge(routes::notices::router())
        .merge(routes::webhooks::router());
    let pages = state.clone();
    let cors = cors::Cors::new(&state.config.allowed_origins);
    let headers = headers::SecurityHeaders::new(&state.config, ui_dir);
    let api = routes::openapi::serve(api)
        // Innermost: a GET retried on the primary is not counted twice by the layers outside.
        .layer(axum::middleware::from_fn_with_state(state.clone(), log_position::layer))
        .layer(axum::middleware::from_fn_with_state(state.clone(), auth::api_keys::layer))
        .layer(axum::middleware::from_fn(routes::metrics::count_responses))
        .layer(CompressionLayer::new().compress_when(DefaultPredicate::new().and(SizeAbove::new(COMPRESS_ABOVE))))
        .with_state(state);
    ui_files::with_ui(api, ui_dir, pages)
        .layer(axum::middleware::from_fn_with_state(cors, cors::cors))
        .layer(axum::middleware::from_fn_with_state(headers, headers::security_headers))
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
