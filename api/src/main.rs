//! `marketplace`: run the marketplace (`dev` for the embedded local stack, `serve` against a
//! configured chain), or operate on its event log (`verify`).

use std::process::ExitCode;

use anyhow::Context;
use api::{AppState, config::Config, routes::chain::ChainInfo};
use clap::{Parser, Subcommand};
use tokio::sync::watch;

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
        #[arg(long, value_enum, default_value_t = api::export::Format::Csv)]
        format: api::export::Format,
        /// The file to write.
        #[arg(long)]
        out: std::path::PathBuf,
    },
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
        Command::Serve => run(cli.config, false, false).await,
        Command::Dev { fresh, empty } => {
            if fresh && let Err(err) = start_over(&cli.config) {
                eprintln!("error: {err:#}");
                return ExitCode::FAILURE;
            }
            // A fresh market (an empty event log), or one whose demo was interrupted (it
            // resumes: every step is skipped when already there).
            match api::dev::wants_demo(&cli.config, empty).await {
                Ok(demo) => run(cli.config, true, demo).await,
                Err(err) => Err(err),
            }
        }
        Command::Demo { api_url, users, nfts_per_user } => {
            let size = api::demo::plan::Size { users: users as usize, nfts_per_user: nfts_per_user as usize };
            demo(cli.config, api_url, size).await
        }
        Command::Replay => replay(cli.config).await,
        Command::Verify => verify(cli.config).await,
        Command::ReadFile => read_file(cli.config).await,
        Command::Checksum => checksum(cli.config).await,
        Command::AnalyticsRole => analytics_role(cli.config).await,
        Command::Export { table, query, format, out } => export(cli.config, table, query, format, &out).await,
        Command::Reconcile { batch, concurrency } => reconcile(cli.config, batch, concurrency).await,
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// `--fresh`: removes the data directory (only a directory that looks like ours).
fn start_over(config: &Config) -> anyhow::Result<()> {
    let dir = &config.data_dir;
    if !dir.exists() {
        return Ok(());
    }
    let ours = ["events.db", "read.db", "chain", "deployments.json", "files"].iter().any(|f| dir.join(f).exists());
    anyhow::ensure!(ours, "{} does not look like a marketplace data directory; not deleting it", dir.display());
    std::fs::remove_dir_all(dir).with_context(|| format!("deleting {}", dir.display()))?;
    tracing::info!(dir = %dir.display(), "starting over");
    Ok(())
}

/// `marketplace demo`: fills the running server's market; prints what it created.
async fn demo(config: Config, api_url: Option<String>, size: api::demo::plan::Size) -> anyhow::Result<ExitCode> {
    let options = api::demo::Options {
        api_url: api_url.unwrap_or_else(|| format!("http://{}", config.listen)),
        rpc_url: config.rpc_url.clone().unwrap_or_else(|| format!("http://127.0.0.1:{}", config.anvil_port)),
        size,
    };
    let started = std::time::Instant::now();
    let summary = api::demo::run(&options).await?;
    println!("demo data in {:.0} s: {summary}", started.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}

/// `local`: the dev stack (anvil unless RPC_URL is set, the contract deployed); `demo`: fill
/// the market with demo data once the server answers.
async fn run(config: Config, local: bool, demo: bool) -> anyhow::Result<ExitCode> {
    std::fs::create_dir_all(&config.data_dir).with_context(|| format!("creating {}", config.data_dir.display()))?;
    let (stop, stopped) = watch::channel(false);

    // The chain: a local anvil for the dev stack unless a node is configured.
    let local_chain = match (&config.rpc_url, local) {
        (None, true) => Some(api::dev::LocalChain::start(&config.data_dir, config.chain_id, config.anvil_port).await?),
        _ => None,
    };
    let rpc_url = config.rpc_url.clone().or_else(|| local_chain.as_ref().map(|c| c.url.clone()));
    let (contract, deployment_block) = match (&config.contract_address, &rpc_url) {
        (Some(address), _) => (Some(address.clone()), config.deployment_block),
        (None, Some(url)) if local => {
            let deployment = api::dev::ensure_deployed(&config.data_dir, url, config.chain_id).await?;
            (Some(deployment.address.to_string()), deployment.deployment_block)
        }
        _ => (None, config.deployment_block),
    };

    let store = domain::store::open(&config.database_url()).await.context("opening the event log")?;
    api::bootstrap::seed_categories(store.as_ref()).await.context("seeding categories")?;
    let read = projections::ReadDb::open(&config.read_database_url()).await.context("opening the read database")?;
    let indexer_config = match (&rpc_url, &contract) {
        (Some(url), Some(address)) => {
            let address = address.parse().with_context(|| format!("contract address {address}"))?;
            Some(config.indexer_config(url, address, deployment_block, local_chain.is_some()))
        }
        _ => {
            tracing::warn!("no chain configured (RPC_URL and CONTRACT_ADDRESS): chain events will not be indexed");
            None
        }
    };

    let log_url = config.database_url();
    let mut indexer_handle = None;
    let mut indexer_task = None;
    let mut leading = None;
    let projector_handle = if log_url.starts_with("postgres") {
        // Several processes may share this database: indexing and projecting run in the one
        // holding the election's lock; every process follows them through the database.
        let (projector_handle, follower) =
            projections::ProjectorHandle::following(read.clone(), read.position().await?, api::leader::FALLBACK_POLL);
        let follower = std::sync::Arc::new(follower);
        let notify_pool = sqlx::postgres::PgPoolOptions::new().max_connections(2).connect_lazy(&log_url)?;
        if let Some(indexer_config) = &indexer_config {
            let wake_remote = std::sync::Arc::new(move || {
                let pool = notify_pool.clone();
                tokio::spawn(async move {
                    let _ = sqlx::query("SELECT pg_notify($1, '')").bind(api::leader::WAKE_CHANNEL).execute(&pool).await;
                });
            });
            let (handle, indexer_follower) = indexer::IndexerHandle::following(
                store.clone(),
                config.chain_id,
                indexer_config.sync_timeout,
                api::leader::FALLBACK_POLL,
                wake_remote,
            );
            tokio::spawn(indexer_follower.run());
            indexer_handle = Some(handle);
        }
        tokio::spawn({
            let follower = follower.clone();
            async move { follower.run().await }
        });
        // The holder's announcements wake the followers (this process's too).
        let (announced_follower, announced_indexer) = (follower.clone(), indexer_handle.clone());
        api::leader::listen(log_url.clone(), &[api::leader::PROJECTED_CHANNEL, api::leader::INDEXED_CHANNEL], move |channel| {
            if channel.is_none_or(|c| c == api::leader::PROJECTED_CHANNEL) {
                announced_follower.wake();
            }
            if let Some(indexer) = announced_indexer.as_ref().filter(|_| channel.is_none_or(|c| c == api::leader::INDEXED_CHANNEL)) {
                indexer.checkpoints_announced();
            }
        });
        let (store, read, url) = (store.clone(), read.clone(), log_url.clone());
        let start = move || {
            let (store, read, indexer_config, follower, url) =
                (store.clone(), read.clone(), indexer_config.clone(), follower.clone(), url.clone());
            async move {
                let mut tasks = Vec::new();
                let projector = projections::Projector::new(store.clone(), read).await.context("starting the projector")?;
                tasks.push(follower.feed(projector.handle()));
                let projected = projector.handle();
                tasks.push(tokio::spawn(async move {
                    if let Err(err) = projector.run().await {
                        tracing::error!(%err, "the projector stopped");
                    }
                }));
                let mut indexing = None;
                if let Some(indexer_config) = indexer_config {
                    let indexer = indexer::Indexer::connect(indexer_config, store).await.context("starting the indexer")?;
                    let handle = indexer.handle();
                    indexing = Some(handle.clone());
                    tasks.push(api::leader::listen(url.clone(), &[api::leader::WAKE_CHANNEL], move |_| handle.wake()));
                    tasks.push(tokio::spawn(async move {
                        if let Err(err) = indexer.run(std::future::pending::<()>()).await {
                            tracing::error!(%err, "the indexer stopped");
                        }
                    }));
                }
                tasks.extend(api::leader::announce(&url, projected, indexing)?);
                Ok(tasks)
            }
        };
        let (is_leading, election) = api::leader::spawn(log_url.clone(), start, stopped.clone());
        leading = Some(is_leading);
        indexer_task = Some(election);
        projector_handle
    } else {
        let projector = projections::Projector::new(store.clone(), read.clone()).await.context("starting the projector")?;
        let projector_handle = projector.handle();
        tokio::spawn(async move {
            if let Err(err) = projector.run().await {
                tracing::error!(%err, "the projector stopped");
            }
        });
        if let Some(indexer_config) = indexer_config {
            let indexer = indexer::Indexer::connect(indexer_config, store.clone()).await.context("starting the indexer")?;
            indexer_handle = Some(indexer.handle());
            let mut stopped = stopped.clone();
            indexer_task = Some(tokio::spawn(async move {
                if let Err(err) = indexer
                    .run(async move {
                        let _ = stopped.wait_for(|s| *s).await;
                    })
                    .await
                {
                    tracing::error!(%err, "the indexer stopped");
                }
            }));
        }
        projector_handle
    };
    let (browse_db, at) = (read.clone(), projector_handle.position());
    tokio::spawn(async move {
        if let Err(err) = projections::queries::nft::prepare_browse(&browse_db, at).await {
            tracing::warn!(%err, "building the browse index (the first browse will build it)");
        }
    });

    let chain = ChainInfo {
        chain_id: config.chain_id,
        rpc_url: rpc_url.clone(),
        public_rpc_url: config.public_rpc_url.clone(),
        contract_address: contract,
        deployment_block,
        dev_wallet: local_chain.is_some(),
        explorer_url: config.explorer_url.clone(),
        walletconnect_project_id: config.walletconnect_project_id.clone(),
    };
    let mut state = AppState::new(config.clone(), store.clone(), read.clone(), projector_handle)?.with_chain(chain, indexer_handle);
    state.leading = leading;
    if let (Some(url), Some(address), 1..) = (&rpc_url, &state.chain.contract_address, config.reconcile_interval_secs) {
        let target = api::reconcile::Target::connect(url, config.chain_id, address.parse().context("contract address")?)?;
        let metrics = std::sync::Arc::new(api::reconcile::ReconcileMetrics::default());
        let interval = std::time::Duration::from_secs(config.reconcile_interval_secs);
        api::reconcile::spawn_periodic(store, read, target, interval, metrics.clone());
        state.reconcile = Some(metrics);
    }
    api::notifier::spawn(state.clone());
    api::auction_clock::spawn(state.clone());
    api::metadata::spawn(state.clone());
    let app = api::app(state, &config.ui_dir);
    let listener = tokio::net::TcpListener::bind(config.listen).await.with_context(|| format!("listening on {}", config.listen))?;
    tracing::info!("marketplace listening on http://{}", listener.local_addr()?);
    let mut server_stopped = stopped.clone();
    let server = axum::serve(api::listener(listener), app.into_make_service_with_connect_info::<std::net::SocketAddr>())
        .with_graceful_shutdown(async move {
            let _ = server_stopped.wait_for(|s| *s).await;
        });
    let server = tokio::spawn(async move { server.await });
    if demo && let Some(rpc_url) = rpc_url.clone() {
        let options = api::demo::Options { api_url: format!("http://{}", config.listen), rpc_url, size: api::demo::plan::Size::FULL };
        let pending = config.data_dir.join(api::dev::DEMO_PENDING);
        tokio::spawn(async move {
            tracing::info!("demo: filling the fresh market with demo data (`dev --empty` leaves it empty)");
            if let Err(err) = std::fs::write(&pending, b"") {
                tracing::warn!(%err, "demo: cannot mark the demo as pending; an interrupted demo will not resume");
            }
            let started = std::time::Instant::now();
            match api::demo::run(&options).await {
                Ok(summary) => {
                    let _ = std::fs::remove_file(&pending);
                    tracing::info!("demo data ready in {:.0} s: {summary}", started.elapsed().as_secs_f64());
                }
                Err(err) => tracing::error!("demo data failed (the next `dev` tries again): {err:#}"),
            }
        });
    }

    // Ctrl-C (or SIGTERM) stops everything, the chain last so its state is saved.
    shutdown_signal().await;
    tracing::info!("shutting down");
    let _ = stop.send(true);
    let _ = server.await;
    if let Some(task) = indexer_task {
        let _ = task.await;
    }
    if let Some(chain) = local_chain {
        chain.stop().await;
    }
    Ok(ExitCode::SUCCESS)
}

async fn shutdown_signal() {
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        () = terminate => {}
    }
}

async fn replay(config: Config) -> anyhow::Result<ExitCode> {
    let store = domain::store::open(&config.database_url()).await.context("opening the event log")?;
    let generation = format!("g{}", chrono::Utc::now().format("%Y%m%d%H%M%S"));
    let started = std::time::Instant::now();
    let db = projections::ReadDb::open_generation(&config.read_database_url(), &generation).await.context("creating the new generation")?;
    let projector = projections::Projector::new(store, db.clone()).await?;
    let position = projector.catch_up().await.context("replaying the log")?;
    let checksum = db.checksum().await?;
    db.publish().await.context("publishing the new generation")?;
    println!(
        "read models rebuilt: generation {generation}, {position} events in {:.1} s, checksum {checksum}; \
         published (running servers switch to it within a second)",
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

async fn checksum(config: Config) -> anyhow::Result<ExitCode> {
    let read = projections::ReadDb::open(&config.read_database_url()).await.context("opening the read database")?;
    println!("generation {} at position {}: checksum {}", read.generation(), read.position().await?, read.checksum().await?);
    Ok(ExitCode::SUCCESS)
}

async fn read_file(config: Config) -> anyhow::Result<ExitCode> {
    let read = projections::ReadDb::open(&config.read_database_url()).await.context("opening the read database")?;
    match read.current_file() {
        Some(file) => println!("{}", file.display()),
        None => println!("PostgreSQL: query the schema `analytics` (views on generation {})", read.generation()),
    }
    Ok(ExitCode::SUCCESS)
}

async fn analytics_role(config: Config) -> anyhow::Result<ExitCode> {
    let read = projections::ReadDb::open(&config.read_database_url()).await.context("opening the read database")?;
    read.create_analyst_role().await.context("creating the analysts' role")?;
    let role = projections::ANALYST_ROLE;
    println!(
        "role {role} may read the schema `analytics` (the current generation's read tables) and nothing else; \
         give it to an analyst with: CREATE ROLE alice LOGIN PASSWORD '...' IN ROLE {role};"
    );
    Ok(ExitCode::SUCCESS)
}

async fn export(
    config: Config,
    table: Option<String>,
    query: Option<String>,
    format: api::export::Format,
    out: &std::path::Path,
) -> anyhow::Result<ExitCode> {
    use api::export::Source;
    let read = projections::ReadDb::open(&config.read_database_url()).await.context("opening the read database")?;
    let source = match (table, query) {
        (Some(table), _) => Source::Table(table),
        (None, Some(query)) => Source::Query(query),
        (None, None) => anyhow::bail!("--table or --query"),
    };
    let rows = api::export::to_file(&read, &source, format, out).await.with_context(|| format!("exporting to {}", out.display()))?;
    println!("{rows} rows written to {}", out.display());
    Ok(ExitCode::SUCCESS)
}

async fn reconcile(config: Config, batch: usize, concurrency: usize) -> anyhow::Result<ExitCode> {
    let url = config.rpc_url.as_deref().context("RPC_URL: the chain's node to read the contract from")?;
    let address = config.contract_address.as_deref().context("CONTRACT_ADDRESS: the marketplace contract")?;
    let mut target = api::reconcile::Target::connect(url, config.chain_id, address.parse().context("contract address")?)?;
    (target.batch, target.concurrency) = (batch.max(1), concurrency.max(1));
    let store = domain::store::open(&config.database_url()).await.context("opening the event log")?;
    let read = projections::ReadDb::open(&config.read_database_url()).await.context("opening the read database")?;
    let started = std::time::Instant::now();
    let report = api::reconcile::reconcile(store.as_ref(), &read, &target).await.context("reconciling")?;
    for difference in &report.differences {
        println!("{difference}");
    }
    let block = report.block.map_or_else(|| "latest (nothing indexed)".to_owned(), |b| b.to_string());
    if report.behind {
        println!("note: the read models are behind the log (position {}); compared at the block they include", report.position);
    }
    println!(
        "reconciled {} tokens and {} accounts at block {block} ({} eth_calls, {:.2} s): {} differences",
        report.tokens,
        report.accounts,
        report.calls,
        started.elapsed().as_secs_f64(),
        report.differences.len()
    );
    Ok(if report.differences.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

async fn verify(config: Config) -> anyhow::Result<ExitCode> {
    use domain::store::verify::{VerifyError, verify};
    let store = domain::store::open(&config.database_url()).await.context("opening the event log")?;
    match verify(store.as_ref(), 10_000).await {
        Ok(report) => {
            println!(
                "event log OK: {} events in {} streams, last position {}, last hash {}",
                report.events, report.streams, report.last_position, report.last_hash
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(VerifyError::Tampered(t)) => {
            println!("event log TAMPERED: first bad position {}: {}", t.position, t.reason);
            Ok(ExitCode::from(2))
        }
        Err(VerifyError::Store(err)) => Err(err).context("reading the event log"),
    }
}
