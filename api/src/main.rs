//! `marketplace`: run the marketplace (`dev` for the embedded local stack, `serve` against a
//! configured chain), or operate on its event log (`verify`).

use std::process::ExitCode;

use api::{config::Config, demo, ops, serve};
use clap::{Parser, Subcommand};

/// mimalloc rather than the system allocator: answering a browse request allocates and frees
/// many small buffers, and glibc's malloc spent about a quarter of the server's time on them.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "marketplace", version, about = "An event-sourced NFT marketplace")]
struct Cli {
    #[command(flatten)]
    config: Config,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the server: API, projector, and the indexer when a chain is configured (the default).
    Serve,
    /// The embedded local stack: as `serve`, plus a local anvil chain (unless RPC_URL is set)
    /// with the contract deployed (or the recorded deployment reused).
    Dev {
        /// Delete the data directory first and start over.
        #[arg(long)]
        fresh: bool,
        /// On a fresh data directory, leave the market empty (by default `marketplace demo`
        /// fills it, in the background once the server answers).
        #[arg(long)]
        empty: bool,
    },
    /// Fill a running local stack with demo data through the real contract and API: people
    /// with profiles and wallets, NFTs with generated artwork in every category, sales,
    /// auctions with bids, purchases, collections, likes and bookmarks. A second run adds
    /// nothing twice. The chain is RPC_URL (else the local anvil at ANVIL_PORT).
    Demo {
        /// The running server (default: http:// + LISTEN_ADDR).
        #[arg(long, env = "DEMO_API_URL")]
        api_url: Option<String>,
        /// How many people (3 to 8: each bid needs an owner and two others).
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(3..=8))]
        users: u64,
        /// How many NFTs each person creates (1 to 100; 8 gives each of them every kind of sale).
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=100))]
        nfts_per_user: u64,
    },
    /// Rebuild every read table from the event log into a new generation, print its checksum,
    /// and publish it: running servers switch to it without a restart.
    Replay,
    /// Walk the whole event log, check its hash chain and numbering, print a summary; exits 2
    /// naming the first bad position if anything was altered.
    Verify,
    /// Print the checksum of the published generation of the read models and the log position
    /// it includes (compare with what `replay` prints).
    Checksum,
    /// SQLite: print the path of the current generation's file of the read models (what
    /// analysts open); Postgres: name the `analytics` schema.
    ReadFile,
    /// Postgres: create the analysts' read-only role `marketplace_analyst` (reads the
    /// `analytics` views, nothing else) and print how to give it to a login role.
    AnalyticsRole,
    /// Write a read table or a query's result (current generation) to a CSV or Parquet file
    /// (docs/read-models.md says how columns are typed). The file appears only once complete: a
    /// bad table or query leaves none.
    Export {
        /// A read table to export whole.
        #[arg(long, conflicts_with = "query", required_unless_present = "query")]
        table: Option<String>,
        /// A query to export the result of.
        #[arg(long)]
        query: Option<String>,
        /// `csv` (every value as text) or `parquet` (typed columns, Snappy-compressed).
        #[arg(long, value_enum, default_value_t = ops::export::Format::Csv)]
        format: ops::export::Format,
        /// The file to write.
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Grant or revoke a staff role (admin, moderator) to the account with this e-mail address:
    /// an event in the log naming the server's operator. `admin grant admin ada@example.com`.
    Admin {
        /// `grant` or `revoke`.
        #[arg(value_parser = ["grant", "revoke"])]
        action: String,
        /// `admin` or `moderator`.
        #[arg(value_parser = ["admin", "moderator"])]
        role: String,
        /// The account's e-mail address.
        email: String,
    },
    /// Copy a log written before personal data was sealed into a new log whose personal fields
    /// are sealed with fresh per-person keys and whose e-mail and username claims are blinded;
    /// its first event names the old log's head hash and event count. On the embedded default
    /// (SQLite in the data directory) the new log and key store are verified and swapped in (the
    /// old log kept as `events.db.before-privacy`) and the read models rebuilt. Stop every
    /// server first.
    MigratePrivacy {
        /// Write the new log there instead (another Postgres database, or a SQLite file), and
        /// swap nothing: then point DATABASE_URL (and KEY_STORE_URL) at it.
        #[arg(long)]
        to: Option<String>,
        /// The new log's key store (default: the `subject_keys` table of the new Postgres
        /// database, or `keys.db` beside a new SQLite log).
        #[arg(long, requires = "to")]
        keys_to: Option<String>,
        /// SQLite: leave `events.sealed.db` and `keys.sealed.db` beside the old log unswapped.
        #[arg(long, conflicts_with = "to")]
        no_swap: bool,
        /// Events per append to the new log.
        #[arg(long, default_value_t = ops::migrate_privacy::DEFAULT_BATCH)]
        batch: usize,
    },
    /// Forget the keys of every account the log says was erased (`AccountErased`) whose keys
    /// are still in the key store: run it after restoring the key store from a backup older
    /// than the log, before starting the servers.
    ForgetErased,
    /// Compare the contract's state (read over RPC_URL at CONTRACT_ADDRESS) with the read models
    /// for every token and every account owed credits; print each difference with both values;
    /// exit 1 on any.
    Reconcile {
        /// `eth_call`s per JSON-RPC batch.
        #[arg(long, default_value_t = 100)]
        batch: usize,
        /// JSON-RPC batches in flight at once.
        #[arg(long, default_value_t = 8)]
        concurrency: usize,
    },
}

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info,sqlx=warn".into()))
        .init();
    let cli = Cli::parse();
    let result = match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve::run(cli.config, false, false).await,
        Command::Dev { fresh, empty } => {
            if fresh && let Err(err) = serve::start_over(&cli.config) {
                eprintln!("error: {err:#}");
                return ExitCode::FAILURE;
            }
            // A fresh market (an empty event log), or one whose demo was interrupted (it
            // resumes: every step is skipped when already there).
            match demo::wants_demo(&cli.config, empty).await {
                Ok(demo) => serve::run(cli.config, true, demo).await,
                Err(err) => Err(err),
            }
        }
        Command::Demo { api_url, users, nfts_per_user } => {
            let size = demo::plan::Size { users: users as usize, nfts_per_user: nfts_per_user as usize };
            demo::command(cli.config, api_url, size).await
        }
        Command::Replay => ops::replay(cli.config).await,
        Command::Verify => ops::verify(cli.config).await,
        Command::ReadFile => ops::read_file(cli.config).await,
        Command::Checksum => ops::checksum(cli.config).await,
        Command::AnalyticsRole => ops::analytics_role(cli.config).await,
        Command::Export { table, query, format, out } => ops::export(cli.config, table, query, format, &out).await,
        Command::Admin { action, role, email } => ops::admin(cli.config, action == "grant", &role, &email).await,
        Command::MigratePrivacy { to, keys_to, no_swap, batch } => {
            let options = ops::migrate_privacy::Options { to, keys_to, no_swap, batch };
            ops::migrate_privacy::run(cli.config, options).await
        }
        Command::ForgetErased => ops::migrate_privacy::forget_erased_command(cli.config).await,
        Command::Reconcile { batch, concurrency } => ops::reconcile(cli.config, batch, concurrency).await,
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
