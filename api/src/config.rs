//! The one typed configuration: flags, or the environment variables beside them. The defaults
//! give the embedded local stack.

use std::{net::SocketAddr, path::PathBuf};

/// Settings shared by every subcommand.
#[derive(Debug, Clone, clap::Args)]
pub struct Config {
    /// Where the event log lives: a `postgres://` URL, or a SQLite file (default:
    /// `events.db` in the data directory).
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,

    /// Where the read tables live: a SQLite file or a `postgres://` URL. Defaults to `read.db`
    /// beside a SQLite log, or the log's own database for Postgres.
    #[arg(long, env = "READ_DATABASE_URL")]
    pub read_database_url: Option<String>,

    /// Address the HTTP server listens on. Loopback by default; put a reverse proxy in front
    /// for anything public.
    #[arg(long, env = "LISTEN_ADDR", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,

    /// Where uploaded files are kept, by CID (default: `files` in the data directory).
    #[arg(long, env = "FILES_DIR")]
    pub files_dir: Option<PathBuf>,

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

    /// What browsers use to reach the chain; default: this server's `/rpc` proxy.
    #[arg(long, env = "PUBLIC_RPC_URL", default_value = "/rpc")]
    pub public_rpc_url: String,

    /// Block explorer base URL for transaction and token links (empty: no links).
    #[arg(long, env = "EXPLORER_URL", default_value = "")]
    pub explorer_url: String,

    /// WalletConnect Cloud project id (empty: WalletConnect is not offered).
    #[arg(long, env = "WALLETCONNECT_PROJECT_ID", default_value = "")]
    pub walletconnect_project_id: String,

    /// Google OAuth client id for "Sign in with Google" (unset: the button is hidden).
    #[arg(long, env = "GOOGLE_CLIENT_ID")]
    pub google_client_id: Option<String>,

    /// Where the local stack keeps its state: chain state, deployments, secrets, dev mailbox.
    #[arg(long, env = "DATA_DIR", default_value = "data")]
    pub data_dir: PathBuf,

    /// The built UI to serve at `/` (`npm run build` in `ui/`); missing means API only.
    #[arg(long, env = "UI_DIR", default_value = "ui/dist")]
    pub ui_dir: PathBuf,
}

impl Config {
    /// The event log URL, defaulted as documented on the field.
    pub fn database_url(&self) -> String {
        self.database_url.clone().unwrap_or_else(|| format!("sqlite://{}", self.data_dir.join("events.db").display()))
    }

    /// The read database URL, defaulted as documented on the field.
    pub fn read_database_url(&self) -> String {
        let log = self.database_url();
        match &self.read_database_url {
            Some(url) => url.clone(),
            None if log.starts_with("postgres") => log,
            None => {
                let path = log.trim_start_matches("sqlite://").trim_start_matches("sqlite:");
                let dir = std::path::Path::new(path).parent().unwrap_or(std::path::Path::new(""));
                format!("sqlite://{}", dir.join("read.db").display())
            }
        }
    }

    /// The file store folder, defaulted as documented on the field.
    pub fn files_dir(&self) -> PathBuf {
        self.files_dir.clone().unwrap_or_else(|| self.data_dir.join("files"))
    }
}
