//! `marketplace serve` and `dev`: one process assembled from the rooms. The chain (a local
//! anvil for `dev`), the log and the read tables; on Postgres the election, whose holder indexes
//! and projects while every process follows it; the [`node`] workers; the [`http`] surface; and
//! for a fresh `dev` market, the demo in the background.

use std::process::ExitCode;

use anyhow::Context;
use tokio::sync::watch;

use crate::{
    chain::{self, ChainInfo},
    config::Config,
    demo,
    http::{self, AppState},
    node::{self, Node},
};

/// `--fresh`: removes the data directory (only a directory that looks like ours).
pub fn start_over(config: &Config) -> anyhow::Result<()> {
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

/// `local`: the dev stack (anvil unless RPC_URL is set, the contract deployed); `demo`: fill
/// the market with demo data once the server answers.
pub async fn run(config: Config, local: bool, demo: bool) -> anyhow::Result<ExitCode> {
    std::fs::create_dir_all(&config.data_dir).with_context(|| format!("creating {}", config.data_dir.display()))?;
    let (stop, stopped) = watch::channel(false);

    // The chain: a local anvil for the dev stack unless a node is configured.
    let local_chain = match (&config.rpc_url, local) {
        (None, true) => Some(chain::local::LocalChain::start(&config.data_dir, config.chain_id, config.anvil_port).await?),
        _ => None,
    };
    let rpc_url = config.rpc_url.clone().or_else(|| local_chain.as_ref().map(|c| c.url.clone()));
    let (contract, deployment_block) = match (&config.contract_address, &rpc_url) {
        (Some(address), _) => (Some(address.clone()), config.deployment_block),
        (None, Some(url)) if local => {
            let deployment = chain::local::ensure_deployed(&config.data_dir, url, config.chain_id).await?;
            (Some(deployment.address.to_string()), deployment.deployment_block)
        }
        _ => (None, config.deployment_block),
    };

    let store = crate::log::open(&config).await?;
    node::bootstrap::seed_categories(store.as_ref()).await.context("seeding categories")?;
    let read = projections::ReadDb::open(&config.read_database_url())
        .await
        .context("opening the read database")?
        .with_replicas(&config.read_replicas())
        .context("READ_REPLICA_URLS")?;
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
            projections::ProjectorHandle::following(read.clone(), read.position().await?, node::leader::FALLBACK_POLL);
        let follower = std::sync::Arc::new(follower);
        let notify_pool = sqlx::postgres::PgPoolOptions::new().max_connections(2).connect_lazy(&log_url)?;
        if let Some(indexer_config) = &indexer_config {
            let wake_remote = std::sync::Arc::new(move || {
                let pool = notify_pool.clone();
                tokio::spawn(async move {
                    let _ = sqlx::query("SELECT pg_notify($1, '')").bind(node::leader::WAKE_CHANNEL).execute(&pool).await;
                });
            });
            let (handle, indexer_follower) = indexer::IndexerHandle::following(
                store.clone(),
                config.chain_id,
                indexer_config.sync_timeout,
                node::leader::FALLBACK_POLL,
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
        node::leader::listen(log_url.clone(), &[node::leader::PROJECTED_CHANNEL, node::leader::INDEXED_CHANNEL], move |channel| {
            if channel.is_none_or(|c| c == node::leader::PROJECTED_CHANNEL) {
                announced_follower.wake();
            }
            if let Some(indexer) = announced_indexer.as_ref().filter(|_| channel.is_none_or(|c| c == node::leader::INDEXED_CHANNEL)) {
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
                    tasks.push(node::leader::listen(url.clone(), &[node::leader::WAKE_CHANNEL], move |_| handle.wake()));
                    tasks.push(tokio::spawn(async move {
                        if let Err(err) = indexer.run(std::future::pending::<()>()).await {
                            tracing::error!(%err, "the indexer stopped");
                        }
                    }));
                }
                tasks.extend(node::leader::announce(&url, projected, indexing)?);
                Ok(tasks)
            }
        };
        let (is_leading, election) = node::leader::spawn(log_url.clone(), start, stopped.clone());
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
    let mut node = Node::new(config.clone(), store.clone(), read.clone(), projector_handle)?.with_chain(chain, indexer_handle);
    node.leading = leading;
    if let (Some(url), Some(address), 1..) = (&rpc_url, &node.chain.contract_address, config.reconcile_interval_secs) {
        let target = node::reconcile::Target::connect(url, config.chain_id, address.parse().context("contract address")?)?;
        let metrics = std::sync::Arc::new(node::reconcile::ReconcileMetrics::default());
        let interval = std::time::Duration::from_secs(config.reconcile_interval_secs);
        node::reconcile::spawn_periodic(store.clone(), read, target, interval, metrics.clone());
        node.reconcile = Some(metrics);
    }
    node::notifier::spawn(node.clone());
    node::auction_clock::spawn(node.clone());
    node::metadata::spawn(node.clone());
    node::webhooks::spawn(node.clone());
    node::retention::spawn(node.clone());
    let app = http::app(AppState::over(node)?, &config.ui_dir);
    let listener = tokio::net::TcpListener::bind(config.listen).await.with_context(|| format!("listening on {}", config.listen))?;
    tracing::info!("marketplace listening on http://{}", listener.local_addr()?);
    let mut server_stopped = stopped.clone();
    let server = axum::serve(http::listener(listener), app.into_make_service_with_connect_info::<std::net::SocketAddr>())
        .with_graceful_shutdown(async move {
            let _ = server_stopped.wait_for(|s| *s).await;
        });
    let server = tokio::spawn(async move { server.await });
    if demo && let Some(rpc_url) = rpc_url.clone() {
        let options =
            demo::Options { api_url: format!("http://{}", config.listen), rpc_url, size: demo::plan::Size::FULL, log: Some(store.clone()) };
        let pending = config.data_dir.join(demo::DEMO_PENDING);
        tokio::spawn(async move {
            tracing::info!("demo: filling the fresh market with demo data (`dev --empty` leaves it empty)");
            if let Err(err) = std::fs::write(&pending, b"") {
                tracing::warn!(%err, "demo: cannot mark the demo as pending; an interrupted demo will not resume");
            }
            let started = std::time::Instant::now();
            match demo::run(&options).await {
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
