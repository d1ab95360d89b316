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

    /// Address the HTTP server listens on. Loopback by default; put a reverse proxy in front
    /// for anything public.
    #[arg(long, env = "LISTEN_ADDR", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,

    /// Where uploaded files are kept, by CID.
    #[arg(long, env = "FILES_DIR", default_value = "data/files")]
    pub files_dir: PathBuf,

    /// The built UI to serve at `/` (`npm run build` in `ui/`); missing means API only.
    #[arg(long, env = "UI_DIR", default_value = "ui/dist")]
    pub ui_dir: PathBuf,
}
