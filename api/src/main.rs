//! `marketplace`: serve the marketplace, or operate on its event log.

use std::{process::ExitCode, sync::Arc};

use anyhow::Context;
use api::{AppState, config::Config};
use clap::{Parser, Subcommand};

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
    /// Run the HTTP server (the default).
    Serve,
    /// Walk the whole event log, check its hash chain and numbering, print a summary; exits
    /// non-zero naming the first bad position if anything was altered.
    Verify,
}

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info,sqlx=warn".into()),
        )
        .init();
    let cli = Cli::parse();
    let result = match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(cli.config).await,
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

async fn serve(config: Config) -> anyhow::Result<ExitCode> {
    let store = domain::store::open(&config.database_url).await.context("opening the event log")?;
    api::bootstrap::seed_categories(store.as_ref()).await.context("seeding categories")?;
    let files = Arc::new(api::files::FileStore::open(&config.files_dir).context("opening the file store")?);
    let read = projections::ReadDb::open(&config.read_database_url()).await.context("opening the read database")?;
    let projector = projections::Projector::new(store.clone(), read.clone()).await.context("starting the projector")?;
    let handle = projector.handle();
    tokio::spawn(async move {
        if let Err(err) = projector.run().await {
            tracing::error!(%err, "the projector stopped");
        }
    });
    let state = AppState { store, read, projector: handle, files, config: Arc::new(config.clone()) };
    let app = api::app(state, &config.ui_dir);
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .with_context(|| format!("listening on {}", config.listen))?;
    tracing::info!("marketplace listening on http://{}", listener.local_addr()?);
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(ExitCode::SUCCESS)
}

async fn verify(config: Config) -> anyhow::Result<ExitCode> {
    use domain::store::verify::{VerifyError, verify};
    let store = domain::store::open(&config.database_url).await.context("opening the event log")?;
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
