//! The one typed configuration: flags, or the environment variables beside them. The defaults
//! give the embedded local stack.

use std::{net::SocketAddr, path::PathBuf};

/// Settings shared by every subcommand.
#[derive(Debug, Clone, clap::Args)]
pub struct Config {
    /// Where the event log lives: `sqlite://data/events.db` (embedded default) or a
    /// `postgres://` URL.
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://data/events.db")]
    pub database_url: String,

    /// Where the read tables live: a SQLite file or a `postgres://` URL. Defaults to `read.db`
    /// beside a SQLite log, or the log's own database for Postgres.
    #[arg(long, env = "READ_DATABASE_URL")]
    pub read_database_url: Option<String>,

    /// Address the HTTP server listens on. Loopback by default; put a reverse proxy in front
    /// for anything public.
    #[arg(long, env = "LISTEN_ADDR", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,

    /// Where uploaded files are kept, by CID.
    #[arg(long, env = "FILES_DIR", default_value = "data/files")]
    pub files_dir: PathBuf,

    /// EIP-155 id of the chain the marketplace runs on (80001: the test network, coin MATIC).
    #[arg(long, env = "CHAIN_ID", default_value_t = 80001)]
    pub chain_id: u64,

    /// JSON-RPC endpoint of that chain. Unset: the dev stack starts a local anvil.
    #[arg(long, env = "RPC_URL")]
    pub rpc_url: Option<String>,

    /// The marketplace contract's address. Unset: the dev stack deploys it (or reuses the
    /// deployment recorded for the chain under `data/`).
    #[arg(long, env = "CONTRACT_ADDRESS")]
    pub contract_address: Option<String>,

    /// The block the contract was deployed in: the indexer starts there.
    #[arg(long, env = "DEPLOYMENT_BLOCK", default_value_t = 0)]
    pub deployment_block: u64,

    /// The built UI to serve at `/` (`npm run build` in `ui/`); missing means API only.
    #[arg(long, env = "UI_DIR", default_value = "ui/dist")]
    pub ui_dir: PathBuf,
}

impl Config {
    /// The read database URL, defaulted as documented on the field.
    pub fn read_database_url(&self) -> String {
        match &self.read_database_url {
            Some(url) => url.clone(),
            None if self.database_url.starts_with("postgres") => self.database_url.clone(),
            None => {
                let log = self.database_url.trim_start_matches("sqlite://").trim_start_matches("sqlite:");
                let dir = std::path::Path::new(log).parent().unwrap_or(std::path::Path::new(""));
                format!("sqlite://{}", dir.join("read.db").display())
            }
        }
    }
}
