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
    },
    /// Rebuild every read table from the event log into a new generation, print its checksum,
    /// and publish it: running servers switch to it without a restart.
    Replay,
    /// Walk the whole event log, check its hash chain and numbering, print a summary; exits 2
    /// naming the first bad position if anything was altered.
    Verify,
}

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info,sqlx=warn".into()))
        .init();
    let cli = Cli::parse();
    let result = match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => run(cli.config, false).await,
        Command::Dev { fresh } => {
            if fresh && let Err(err) = start_over(&cli.config) {
                eprintln!("error: {err:#}");
                return ExitCode::FAILURE;
            }
            run(cli.config, true).await
        }
        Command::Replay => replay(cli.config).await,
        Command::Verify => verify(cli.config).await,
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

async fn run(config: Config, local: bool) -> anyhow::Result<ExitCode> {
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
    let projector = projections::Projector::new(store.clone(), read.clone()).await.context("starting the projector")?;
    let projector_handle = projector.handle();
    tokio::spawn(async move {
        if let Err(err) = projector.run().await {
            tracing::error!(%err, "the projector stopped");
        }
    });
    let (browse_db, at) = (read.clone(), projector_handle.position());
    tokio::spawn(async move {
        if let Err(err) = projections::queries::nft::prepare_browse(&browse_db, at).await {
            tracing::warn!(%err, "building the browse index (the first browse will build it)");
        }
    });

    let mut indexer_handle = None;
    let mut indexer_task = None;
    if let (Some(url), Some(address)) = (&rpc_url, &contract) {
        let address = address.parse().with_context(|| format!("contract address {address}"))?;
        let indexer_config = config.indexer_config(url, address, deployment_block, local_chain.is_some());
        let indexer = indexer::Indexer::connect(indexer_config, store.clone()).await.context("starting the indexer")?;
        indexer_handle = Some(indexer.handle());
        let mut stopped = stopped.clone();
        indexer_task = Some(tokio::spawn(indexer.run(async move {
            let _ = stopped.wait_for(|s| *s).await;
        })));
    } else {
        tracing::warn!("no chain configured (RPC_URL and CONTRACT_ADDRESS): chain events will not be indexed");
    }

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
    let state = AppState::new(config.clone(), store, read, projector_handle)?.with_chain(chain, indexer_handle);
    let app = api::app(state, &config.ui_dir);
    let listener = tokio::net::TcpListener::bind(config.listen).await.with_context(|| format!("listening on {}", config.listen))?;
    tracing::info!("marketplace listening on http://{}", listener.local_addr()?);
    let mut server_stopped = stopped.clone();
    let server =
        axum::serve(listener, app.into_make_service_with_connect_info::<std::net::SocketAddr>()).with_graceful_shutdown(async move {
            let _ = server_stopped.wait_for(|s| *s).await;
        });
    let server = tokio::spawn(async move { server.await });

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
