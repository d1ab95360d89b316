//! One marketplace process: the services it shares ([`Node`]) and the work it runs beside the
//! HTTP surface. On Postgres several processes share one database and the election
//! ([`leader`]) picks the one that indexes and projects; the workers below act only in that
//! process (or in the only one, on SQLite):
//!
//! - [`metadata`]: reads the metadata of tokens minted elsewhere;
//! - [`notifier`]: mails the notices their recipients want by e-mail;
//! - [`auction_clock`]: appends "ending soon" and "time is up" once per auction;
//! - [`reconcile`]: compares the read models with the chain, now and then;
//! - [`webhooks`]: delivers the changes to the endpoints people registered, signed.
//!
//! Every process runs the [`stream`] hub (its clients' live changes) and follows the elected
//! one's log through the database.

pub mod auction_clock;
pub mod bootstrap;
pub mod leader;
pub mod metadata;
pub mod notifier;
pub mod reconcile;
pub mod retention;
pub mod stream;
pub mod webhooks;

use std::{sync::Arc, time::Duration};

use domain::{EventStore, Position};
use projections::{ProjectorHandle, ReadDb};

use crate::{
    chain::ChainInfo,
    config::Config,
    files::{self, FileStore},
    mail::{self, Mailer},
};

/// What every part of a process reaches: the log, the read tables, the outside world.
#[derive(Clone)]
pub struct Node {
    /// The event log (sealed: what it returns is opened, what it keeps is sealed).
    pub store: Arc<dyn EventStore>,
    /// The same log as its sealing layer: its keys, to forget a person's.
    pub privacy: Arc<domain::privacy::PrivateStore>,
    /// The read tables the queries run on.
    pub read: ReadDb,
    /// How far the projector has folded the log into `read`.
    pub projector: ProjectorHandle,
    /// Uploaded files, by CID.
    pub files: Arc<FileStore>,
    /// Card-sized copies of stored images, kept in `<DATA_DIR>/renditions`.
    pub renditions: Arc<files::renditions::Renditions>,
    /// The configuration the process started with.
    pub config: Arc<Config>,
    /// Outgoing mail (the dev mailbox unless SMTP is configured).
    pub mailer: Arc<dyn Mailer>,
    /// The chain, as resolved at start (local or configured).
    pub chain: Arc<ChainInfo>,
    /// The indexer, when a chain is configured: "index up to block N now".
    pub indexer: Option<indexer::IndexerHandle>,
    /// An HTTP client for outgoing calls to trusted places (the RPC proxy).
    pub http: reqwest::Client,
    /// The background reconciliation's last count (`/metrics`), when it runs.
    pub reconcile: Option<Arc<reconcile::ReconcileMetrics>>,
    /// Several processes on one Postgres database: whether this one holds the election's lock
    /// (indexes and projects). `None` on SQLite (one process does everything).
    pub leading: Option<leader::Leading>,
    /// The read tables' changes, for `/api/stream` and the notifier.
    pub stream: Arc<stream::StreamHub>,
    /// Webhook endpoints' delivery state, secrets and guarded poster.
    pub webhooks: Arc<webhooks::Webhooks>,
}

/// How long a command waits for its events to reach the read tables before answering.
const READ_YOUR_WRITES: Duration = Duration::from_secs(5);

impl Node {
    /// The services for `config` over an opened log, read database and projector: the file
    /// store and the mailer come from the configuration; no chain until [`Self::with_chain`].
    pub fn new(
        config: Config,
        privacy: Arc<domain::privacy::PrivateStore>,
        read: ReadDb,
        projector: ProjectorHandle,
    ) -> anyhow::Result<Self> {
        use anyhow::Context as _;
        let files = FileStore::from_config(&config).context("opening the file store")?;
        let mailer = mail::from_config(&config).context("starting the mailer")?;
        let chain = ChainInfo { chain_id: config.chain_id, ..Default::default() };
        let stream = stream::StreamHub::start(read.clone(), &projector);
        let webhooks = webhooks::Webhooks::from_config(&config).context("starting webhooks")?;
        Ok(Self {
            store: privacy.clone(),
            privacy,
            read,
            projector,
            files: Arc::new(files),
            renditions: Arc::new(files::renditions::Renditions::new(config.data_dir.join("renditions"))),
            config: Arc::new(config),
            mailer,
            chain: Arc::new(chain),
            indexer: None,
            http: reqwest::Client::new(),
            reconcile: None,
            leading: None,
            stream,
            webhooks: Arc::new(webhooks),
        })
    }

    /// The same services on `chain`, indexed by `indexer` when there is one.
    pub fn with_chain(self, chain: ChainInfo, indexer: Option<indexer::IndexerHandle>) -> Self {
        Self { chain: Arc::new(chain), indexer, ..self }
    }

    /// Whether this process does the elected work now (always, when there is no election).
    pub fn is_leading(&self) -> bool {
        self.leading.as_ref().is_none_or(|leading| *leading.borrow())
    }

    /// Waits until the read tables include `position`, so the answer to a command (and the
    /// next query naming it, on a read replica too) shows its effect. Bounded: past it the command still succeeded, so this
    /// only logs.
    pub async fn projected(&self, position: Position) {
        // The request's answer names the position (`Log-Position`); its own later reads include it.
        projections::reads::wrote(position);
        if let Err(err) = self.projector.wait_for(position, READ_YOUR_WRITES).await {
            tracing::warn!(%err, "answering before the read models caught up");
        }
    }

    /// Sends `mail`; a failure is logged, never the caller's (the event it follows stands).
    pub async fn send_mail(&self, mail: mail::Mail) {
        let to = mail.to.clone();
        if let Err(err) = self.mailer.send(mail).await {
            tracing::error!(%err, %to, "sending mail failed");
        }
    }
}
