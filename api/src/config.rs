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

    /// Comma-separated `postgres://` URLs of streaming replicas of the read database (made with
    /// `pg_basebackup -R`): the queries of GET requests may read them (docs/operations.md, "Read
    /// replicas"). Empty: none. Needs a PostgreSQL read database.
    #[arg(long, env = "READ_REPLICA_URLS", value_delimiter = ',', hide_env_values = true)]
    pub read_replica_urls: Vec<String>,

    /// How stale (milliseconds behind the primary) a replica may be for a read that names no
    /// log position; a staler one leaves the rotation until it catches up.
    #[arg(long, env = "READ_REPLICA_MAX_LAG_MS", default_value_t = 1_000)]
    pub read_replica_max_lag_ms: u64,

    /// How long (milliseconds) a read that names a log position (`Log-Position`) may wait for a
    /// replica to include it before it reads the primary.
    #[arg(long, env = "READ_REPLICA_WAIT_MS", default_value_t = 250)]
    pub read_replica_wait_ms: u64,

    /// Where the subjects' data keys live (personal fields of the log are sealed with them).
    /// Unset: the log's own Postgres database (table `subject_keys`), or `keys.db` beside a
    /// SQLite log. Back it up apart from the log: a log backup alone holds only ciphertext.
    #[arg(long, env = "KEY_STORE_URL", hide_env_values = true)]
    pub key_store_url: Option<String>,

    /// Address the HTTP server listens on. Loopback by default; put a reverse proxy in front
    /// for anything public.
    #[arg(long, env = "LISTEN_ADDR", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,

    /// Where uploaded files are kept, by CID (default: `files` in the data directory).
    #[arg(long, env = "FILES_DIR")]
    pub files_dir: Option<PathBuf>,

    /// Kubo RPC base URL (e.g. `http://127.0.0.1:5001`, or an IPFS Cluster's Kubo proxy on
    /// port 9095 to pin cluster-wide): each upload is added and pinned there, and `FILES_DIR`
    /// becomes a cache. Unset: files live in `FILES_DIR` only. No credentials in the URL: use
    /// `IPFS_API_AUTH`.
    #[arg(long, env = "IPFS_API_URL")]
    pub ipfs_api_url: Option<String>,

    /// `Authorization` header value for the Kubo RPC, e.g. `Bearer <token>` or `Basic <base64>`
    /// (Kubo's `API.Authorizations`, or a hosted node). Never logged.
    #[arg(long, env = "IPFS_API_AUTH", hide_env_values = true)]
    pub ipfs_api_auth: Option<Secret>,

    /// Let the gateway have Kubo fetch files it does not hold from the IPFS network. Off: only
    /// what the node holds, so a visitor cannot make it search the network for any CID.
    #[arg(long, env = "IPFS_FETCH_FROM_NETWORK")]
    pub ipfs_fetch_from_network: bool,

    /// IPFS Pinning Services API base URL (`/pins` below it): each new file is also pinned
    /// there, and an upload fails if the service refuses. Needs `PINNING_SERVICE_TOKEN`, and an
    /// IPFS node holding the files for the service to fetch them from (`IPFS_API_URL` or
    /// `PINNING_ORIGINS`).
    #[arg(long, env = "PINNING_SERVICE_URL")]
    pub pinning_service_url: Option<String>,

    /// The pinning service's access token, sent as a bearer token. Never logged.
    #[arg(long, env = "PINNING_SERVICE_TOKEN", hide_env_values = true)]
    pub pinning_service_token: Option<Secret>,

    /// Multiaddrs of IPFS nodes holding the files (with `/p2p/<peer id>`), comma-separated, sent
    /// as `origins` with each pin request so the service fetches from them directly.
    #[arg(long, env = "PINNING_ORIGINS", value_delimiter = ',')]
    pub pinning_origins: Vec<String>,

    /// Seconds before a call to Kubo or the pinning service is given up.
    #[arg(long, env = "IPFS_TIMEOUT_SECS", default_value_t = 30)]
    pub ipfs_timeout_secs: u64,

    /// EIP-155 id of the chain the marketplace runs on (80001: the test network, coin MATIC).
    #[arg(long, env = "CHAIN_ID", default_value_t = 80001)]
    pub chain_id: u64,

    /// JSON-RPC endpoint of that chain. Unset: the dev stack starts a local anvil.
    #[arg(long, env = "RPC_URL")]
    pub rpc_url: Option<String>,

    /// The node's WebSocket endpoint, where the indexer subscribes to new heads and indexes each
    /// block as it arrives (polling stays the fallback). Unset: the RPC URL with `ws` for `http`,
    /// `wss` for `https` (anvil serves both on one port); `off`: polling only.
    #[arg(long, env = "RPC_WS_URL")]
    pub rpc_ws_url: Option<String>,

    /// Loopback port of the local chain the dev stack starts.
    #[arg(long, env = "ANVIL_PORT", default_value_t = 8545)]
    pub anvil_port: u16,

    /// The marketplace contract's address. Unset: the dev stack deploys it (or reuses the
    /// deployment recorded for the chain under `data/`).
    #[arg(long, env = "CONTRACT_ADDRESS")]
    pub contract_address: Option<String>,

    /// The block the contract was deployed in: the indexer starts there.
    #[arg(long, env = "DEPLOYMENT_BLOCK", default_value_t = 0)]
    pub deployment_block: u64,

    /// Blocks a log must be buried under before it is indexed (0 on the local chain; a few on a
    /// public network make reorgs rarer, at the cost of that much delay).
    #[arg(long, env = "CONFIRMATIONS", default_value_t = 0)]
    pub confirmations: u64,

    /// The deepest reorg the indexer rolls back; a deeper one stops it with an error.
    #[arg(long, env = "MAX_REORG_DEPTH", default_value_t = 64)]
    pub max_reorg_depth: u64,

    /// How often the indexer asks the chain for a new head, in milliseconds. Unset: 50 on the
    /// local chain (a loopback call is nearly free and keeps the lag from a mined transaction to
    /// the API low), 1000 on a configured node (paid RPCs count calls; blocks come every ~2 s).
    #[arg(long, env = "INDEXER_POLL_MS")]
    pub indexer_poll_ms: Option<u64>,

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

    /// Google's JSON Web Key Set: the keys Google ID tokens are checked against (cached by key
    /// id, fetched again when a token names an unknown key).
    #[arg(long, env = "GOOGLE_JWKS_URL", default_value = "https://www.googleapis.com/oauth2/v3/certs")]
    pub google_jwks_url: String,

    /// Secret for access tokens (JWT HS256) and for hashing verification codes and reset tokens.
    /// Unset: one is generated on first start and kept in `<DATA_DIR>/jwt-secret` (mode 0600).
    /// Never logged.
    #[arg(long, env = "JWT_SECRET", hide_env_values = true)]
    pub jwt_secret: Option<Secret>,

    /// SMTP server for outgoing mail, e.g. `smtps://user:pass@host:465` (with `MAIL_FROM`).
    /// Unset: the dev mailbox (`<DATA_DIR>/mailbox`, the log, and `GET /api/dev/mailbox`).
    #[arg(long, env = "SMTP_URL", hide_env_values = true)]
    pub smtp_url: Option<Secret>,

    /// Sender address of outgoing mail, e.g. `Marketplace <no-reply@example.com>`.
    #[arg(long, env = "MAIL_FROM")]
    pub mail_from: Option<String>,

    /// Where the site is reached, for links in mails (password reset). Unset: `http://<LISTEN_ADDR>`.
    #[arg(long, env = "PUBLIC_URL")]
    pub public_url: Option<String>,

    /// Largest avatar or cover image accepted, in bytes.
    #[arg(long, env = "MAX_IMAGE_BYTES", default_value_t = 5 * 1024 * 1024)]
    pub max_image_bytes: usize,

    /// Largest NFT image accepted by `/api/nft/ipfsupload`, in bytes.
    #[arg(long, env = "MAX_NFT_FILE_BYTES", default_value_t = 20 * 1024 * 1024)]
    pub max_nft_file_bytes: usize,

    /// Login, register, code and reset requests allowed per client address per minute (0: off).
    #[arg(long, env = "RATE_LIMIT_PER_IP", default_value_t = 10)]
    pub rate_limit_per_ip: u32,

    /// The same requests allowed per account (e-mail or user) per minute (0: off).
    #[arg(long, env = "RATE_LIMIT_PER_ACCOUNT", default_value_t = 5)]
    pub rate_limit_per_account: u32,

    /// Requests allowed per API key per minute, whatever the route (0: off). Announced on every
    /// answer to a key in the `RateLimit-Policy` and `RateLimit` headers.
    #[arg(long, env = "API_KEY_RATE_LIMIT", default_value_t = 600)]
    pub api_key_rate_limit: u32,

    /// Take the client address for rate limits from the rightmost `X-Forwarded-For` entry (`ip`,
    /// `ip:port`, `[v6]`, `[v6]:port`; when it is none of these, the socket's peer, never an
    /// earlier entry). Only behind a proxy that appends it: clients can send anything in that
    /// header, so by default it is not trusted and the socket's peer address is used.
    #[arg(long, env = "TRUST_FORWARDED_FOR")]
    pub trust_forwarded_for: bool,

    /// Other origins (`https://app.example.com`) whose pages may call the whole API with the
    /// user's token, comma-separated. Public reads (GET of lists, details, config, files) are
    /// open to any origin without credentials; everything else is for the site's own pages.
    #[arg(long, env = "ALLOWED_ORIGINS", value_delimiter = ',')]
    pub allowed_origins: Vec<String>,

    /// Other places the UI's scripts may connect to, added to the content security policy's
    /// `connect-src` (comma-separated CSP sources: `wss://relay.walletconnect.com`,
    /// `https://rpc.walletconnect.com`). The site itself and an absolute `PUBLIC_RPC_URL` are
    /// always allowed.
    #[arg(long, env = "CSP_CONNECT_SRC", value_delimiter = ',', value_parser = csp_source)]
    pub csp_connect_src: Vec<String>,

    /// Domains accepted in wallet-link (Sign-In with Ethereum) messages, comma-separated.
    /// Unset: the request's `Host`.
    #[arg(long, env = "SIWE_DOMAINS", value_delimiter = ',')]
    pub siwe_domains: Vec<String>,

    /// Seconds between background reconciliations of the read models with the contract's
    /// state (`marketplace reconcile`, counted in `/metrics`); 0: off.
    #[arg(long, env = "RECONCILE_INTERVAL_SECS", default_value_t = 600)]
    pub reconcile_interval_secs: u64,

    /// Read the metadata of tokens minted without this UI (their token URI on chain) in the
    /// elected process. `false`: such tokens stay pending until it is turned on.
    #[arg(long, env = "METADATA_FETCH", default_value_t = true, action = clap::ArgAction::Set)]
    pub metadata_fetch: bool,

    /// Fetch `http://` token URIs and images too (else `https://` and `ipfs://` only).
    #[arg(long, env = "METADATA_ALLOW_HTTP")]
    pub metadata_allow_http: bool,

    /// Hosts the metadata fetcher may reach although they resolve to loopback, private,
    /// link-local or other non-public addresses (`host` or `host:port`, comma-separated; the
    /// host as URLs write it): a gateway on the private network. Empty: only public addresses.
    #[arg(long, env = "METADATA_ALLOWED_HOSTS", value_delimiter = ',')]
    pub metadata_allowed_hosts: Vec<String>,

    /// Addresses and CIDR ranges the metadata fetcher refuses as well as the non-public ones
    /// (comma-separated, e.g. `203.0.113.7,198.51.100.0/24,2001:db8::/32`): the server's own
    /// public addresses, or a neighbour's. Refused even for `METADATA_ALLOWED_HOSTS`.
    #[arg(long, env = "METADATA_DENIED_RANGES", value_delimiter = ',')]
    pub metadata_denied_ranges: Vec<crate::net::guard::IpRange>,

    /// Seconds a metadata or image fetch may take in all (redirects included); a whole token
    /// (its metadata, then its image) is given twice this.
    #[arg(long, env = "METADATA_TIMEOUT_SECS", default_value_t = 10)]
    pub metadata_timeout_secs: u64,

    /// Largest metadata JSON read, in bytes.
    #[arg(long, env = "METADATA_MAX_BYTES", default_value_t = 256 * 1024)]
    pub metadata_max_bytes: usize,

    /// Largest image fetched from the web for a token minted elsewhere, in bytes (an `ipfs://`
    /// image already in the file store: `MAX_NFT_FILE_BYTES`).
    #[arg(long, env = "METADATA_MAX_IMAGE_BYTES", default_value_t = 10 * 1024 * 1024)]
    pub metadata_max_image_bytes: usize,

    /// Most pixels (width × height) of an image of a token minted elsewhere: it is decoded
    /// before it is stored, and a larger one is refused undecoded.
    #[arg(long, env = "METADATA_MAX_PIXELS", default_value_t = 40_000_000)]
    pub metadata_max_pixels: u64,

    /// Bytes the file store may hold of images fetched for tokens minted elsewhere; past it,
    /// new ones are not stored (the token's state says why) until unused ones are collected.
    /// 0: no limit.
    #[arg(long, env = "METADATA_FILES_QUOTA_BYTES", default_value_t = 1024 * 1024 * 1024)]
    pub metadata_files_quota_bytes: u64,

    /// Token URIs read at the same time.
    #[arg(long, env = "METADATA_CONCURRENCY", default_value_t = 8)]
    pub metadata_concurrency: usize,

    /// Token URIs of one host (`host:port`) read at the same time, so that a slow host holds
    /// no more than this many of the `METADATA_CONCURRENCY` slots.
    #[arg(long, env = "METADATA_PER_HOST", default_value_t = 2)]
    pub metadata_per_host: usize,

    /// Seconds a new token waits before its metadata is first read: the UI records its
    /// creator's details right after the mint, and those need nothing read.
    #[arg(long, env = "METADATA_DELAY_SECS", default_value_t = 5)]
    pub metadata_delay_secs: u64,

    /// Post webhooks to `http://` URLs too (else `https://` only): a receiver in development
    /// or a test's. Production keeps it off.
    #[arg(long, env = "WEBHOOK_ALLOW_HTTP")]
    pub webhook_allow_http: bool,

    /// Hosts webhooks may be posted to although they resolve to loopback, private or other
    /// non-public addresses (`host` or `host:port`, comma-separated, as URLs write them): a
    /// receiver on the private network, or a test's on loopback. Empty: public addresses only.
    /// `METADATA_DENIED_RANGES` is refused here too.
    #[arg(long, env = "WEBHOOK_ALLOWED_HOSTS", value_delimiter = ',')]
    pub webhook_allowed_hosts: Vec<String>,

    /// Seconds a webhook delivery may take before it counts as failed (and is retried).
    #[arg(long, env = "WEBHOOK_TIMEOUT_SECS", default_value_t = 10)]
    pub webhook_timeout_secs: u64,

    /// Milliseconds before the first retry of a failed delivery; each further one waits twice
    /// as long (up to `WEBHOOK_RETRY_MAX_MS`), with up to a fifth more at random.
    #[arg(long, env = "WEBHOOK_RETRY_BASE_MS", default_value_t = 5_000)]
    pub webhook_retry_base_ms: u64,

    /// The longest wait between two attempts, in milliseconds.
    #[arg(long, env = "WEBHOOK_RETRY_MAX_MS", default_value_t = 3_600_000)]
    pub webhook_retry_max_ms: u64,

    /// Seconds an endpoint may keep failing before it is disabled (and its owner told).
    #[arg(long, env = "WEBHOOK_DISABLE_AFTER_SECS", default_value_t = 86_400)]
    pub webhook_disable_after_secs: u64,

    /// Webhook deliveries in flight at once, all endpoints together (each endpoint has at most
    /// one: its deliveries go in log order).
    #[arg(long, env = "WEBHOOK_CONCURRENCY", default_value_t = 64)]
    pub webhook_concurrency: usize,

    /// The built UI to serve at `/` (`npm run build` in `ui/`); missing means API only.
    #[arg(long, env = "UI_DIR", default_value = "ui/dist")]
    pub ui_dir: PathBuf,
}

/// The master secret: `JWT_SECRET` if set, else the one kept in `file`, generated (32 random
/// bytes, hex, mode 0600) on first start. Never logged.
pub fn master_secret(configured: Option<&Secret>, file: &std::path::Path) -> std::io::Result<Vec<u8>> {
    if let Some(secret) = configured.filter(|s| !s.expose().is_empty()) {
        return Ok(secret.expose().as_bytes().to_vec());
    }
    match std::fs::read_to_string(file) {
        Ok(text) if !text.trim().is_empty() => return Ok(text.trim().as_bytes().to_vec()),
        Ok(_) => {}
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
        Err(err) => return Err(err),
    }
    if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let secret = hex::encode(rand::Rng::random::<[u8; 32]>(&mut rand::rng()));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(file) {
        Ok(mut out) => {
            std::io::Write::write_all(&mut out, secret.as_bytes())?;
            out.sync_all()?;
            tracing::info!(file = %file.display(), "generated a new server secret");
            Ok(secret.into_bytes())
        }
        // Another process created it first: use theirs.
        Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => Ok(std::fs::read_to_string(file)?.trim().as_bytes().to_vec()),
        Err(err) => Err(err),
    }
}

impl Config {
    /// The indexer's settings for the contract at `address` on the node at `rpc_url`; `local` is
    /// true when that node is the dev stack's own anvil.
    pub fn indexer_config(
        &self,
        rpc_url: &str,
        address: alloy::primitives::Address,
        deployment_block: u64,
        local: bool,
    ) -> indexer::IndexerConfig {
        let mut config = indexer::IndexerConfig::new(rpc_url, self.chain_id, address, deployment_block);
        config.confirmations = self.confirmations;
        config.max_reorg_depth = self.max_reorg_depth;
        let poll_ms = self.indexer_poll_ms.unwrap_or(if local { 50 } else { 1_000 });
        config.poll_interval = std::time::Duration::from_millis(poll_ms.max(1));
        match self.rpc_ws_url.as_deref().map(str::trim) {
            None | Some("") => {} // derived from the RPC URL
            Some(off) if off.eq_ignore_ascii_case("off") => config.ws_url = None,
            Some(url) => config.ws_url = Some(url.to_owned()),
        }
        config
    }

    /// Where the site is reached: the base of links in mails (`PUBLIC_URL`, else the listen
    /// address), without a trailing slash.
    pub fn site_url(&self) -> String {
        self.public_url.clone().unwrap_or_else(|| format!("http://{}", self.listen)).trim_end_matches('/').to_owned()
    }

    /// The event log URL, defaulted as documented on the field.
    pub fn database_url(&self) -> String {
        self.database_url.clone().unwrap_or_else(|| format!("sqlite://{}", self.data_dir.join("events.db").display()))
    }

    /// The key store's URL, defaulted as documented on the field.
    pub fn key_store_url(&self) -> String {
        self.key_store_url.clone().unwrap_or_else(|| domain::privacy::default_keys_url(&self.database_url()))
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

    /// The read replicas' settings (`READ_REPLICA_*`); blank URLs are ignored.
    pub fn read_replicas(&self) -> projections::ReplicaSettings {
        projections::ReplicaSettings {
            urls: self.read_replica_urls.iter().map(|u| u.trim().to_owned()).filter(|u| !u.is_empty()).collect(),
            max_lag: std::time::Duration::from_millis(self.read_replica_max_lag_ms),
            wait: std::time::Duration::from_millis(self.read_replica_wait_ms),
        }
    }

    /// Where the rate limits' buckets live: the read database on Postgres (shared by every
    /// process), else `rate-limits.db` beside the SQLite read database.
    pub fn rate_limit_database_url(&self) -> String {
        let read = self.read_database_url();
        if read.starts_with("postgres") {
            return read;
        }
        let path = read.trim_start_matches("sqlite://").trim_start_matches("sqlite:");
        let path = path.split('?').next().unwrap_or(path);
        let dir = std::path::Path::new(path).parent().unwrap_or(std::path::Path::new(""));
        format!("sqlite://{}", dir.join("rate-limits.db").display())
    }

    /// The file store folder, defaulted as documented on the field.
    pub fn files_dir(&self) -> PathBuf {
        self.files_dir.clone().unwrap_or_else(|| self.data_dir.join("files"))
    }
}

/// A configuration value that must never be printed (`Debug` and `Display` show `***`).
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// The value itself, for the one place that needs it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::str::FromStr for Secret {
    type Err = std::convert::Infallible;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(Self(s.to_owned()))
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("***")
    }
}

impl std::fmt::Display for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("***")
    }
}

/// One source of a content security policy's list, as an operator writes it: a scheme
/// (`wss:`), or a URL's scheme, host (`*.` allowed) and port, with an optional path. Anything
/// that would end the directive or add a keyword (`;`, `,`, spaces, quotes) is refused, so a
/// setting cannot widen the policy beyond the sources it names.
pub fn csp_source(value: &str) -> Result<String, String> {
    let source = value.trim();
    let bad = |why: &str| Err(format!("`{source}` is not a content security policy source: {why}"));
    if source.is_empty() {
        return bad("it is empty");
    }
    if let Some(c) = source.chars().find(|c| c.is_whitespace() || c.is_control() || matches!(c, ';' | ',' | '\'' | '"')) {
        return bad(&format!("it contains {c:?}"));
    }
    if source == "*" {
        return bad("`*` would allow every host");
    }
    let Some((scheme, rest)) = source.split_once(':') else { return bad("write a scheme, e.g. wss://relay.walletconnect.com") };
    if scheme.is_empty() || !scheme.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')) {
        return bad("its scheme is not valid");
    }
    if !rest.is_empty() && (!rest.starts_with("//") || rest.len() == 2) {
        return bad("write a scheme alone (`wss:`) or a scheme and a host (`wss://host`)");
    }
    Ok(source.to_owned())
}
