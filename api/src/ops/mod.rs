//! The operators' commands on a marketplace's data: rebuild the read models (`replay`), check
//! the log's hash chain (`verify`), compare with the chain (`reconcile`), and what analysts use
//! (`checksum`, `read-file`, `analytics-role`, `export`), and seal a log written before personal
//! data was sealed (`migrate-privacy`, `forget-erased`).

pub mod export;
pub mod migrate_privacy;

use std::process::ExitCode;

use anyhow::Context;

use crate::{config::Config, node};

/// `replay`: every read table rebuilt from the log into a new generation, then published.
pub async fn replay(config: Config) -> anyhow::Result<ExitCode> {
    let store = crate::log::open(&config).await?;
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

/// `checksum`: the published generation's checksum and position.
pub async fn checksum(config: Config) -> anyhow::Result<ExitCode> {
    let read = projections::ReadDb::open(&config.read_database_url()).await.context("opening the read database")?;
    println!("generation {} at position {}: checksum {}", read.generation(), read.position().await?, read.checksum().await?);
    Ok(ExitCode::SUCCESS)
}

/// `read-file`: where analysts read the current generation.
pub async fn read_file(config: Config) -> anyhow::Result<ExitCode> {
    let read = projections::ReadDb::open(&config.read_database_url()).await.context("opening the read database")?;
    match read.current_file() {
        Some(file) => println!("{}", file.display()),
        None => println!("PostgreSQL: query the schema `analytics` (views on generation {})", read.generation()),
    }
    Ok(ExitCode::SUCCESS)
}

/// `admin grant|revoke <role> <email>`: a staff role granted or revoked by the operator.
pub async fn admin(config: Config, grant: bool, role: &str, email: &str) -> anyhow::Result<ExitCode> {
    use domain::moderation::{self, Role, RoleChange};
    let role = Role::parse(role).context("the role is admin or moderator")?;
    let read = projections::ReadDb::open(&config.read_database_url()).await.context("opening the read database")?;
    let user = projections::queries::moderation::user_with_email(&read, email.trim()).await.context("reading the accounts")?;
    let Some(user_id) = user.and_then(|u| uuid::Uuid::parse_str(&u).ok()) else {
        println!("no account with the e-mail address {email}");
        return Ok(ExitCode::from(2));
    };
    let store = crate::log::open(&config).await?;
    let change = RoleChange { actor: None, user_id, role, grant, now: chrono::Utc::now() };
    let metadata = domain::Metadata { actor: Some("operator".into()), ..domain::Metadata::default() };
    match moderation::change_role(store.as_ref(), change, &metadata).await {
        Ok(executed) => {
            println!(
                "{} {} {email} (user {user_id}) at position {}",
                if grant { "granted" } else { "revoked" },
                role.as_str(),
                executed.position
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(moderation::ModerationCommandError::Rejected(err)) => {
            println!("{err}");
            Ok(ExitCode::from(2))
        }
        Err(err) => Err(err).context("appending the role change"),
    }
}

/// `analytics-role`: the analysts' read-only Postgres role.
pub async fn analytics_role(config: Config) -> anyhow::Result<ExitCode> {
    let read = projections::ReadDb::open(&config.read_database_url()).await.context("opening the read database")?;
    read.create_analyst_role().await.context("creating the analysts' role")?;
    let role = projections::ANALYST_ROLE;
    println!(
        "role {role} may read the schema `analytics` (the current generation's read tables) and nothing else; \
         give it to an analyst with: CREATE ROLE alice LOGIN PASSWORD '...' IN ROLE {role};"
    );
    Ok(ExitCode::SUCCESS)
}

/// `export`: a table or a query's result to a CSV or Parquet file.
pub async fn export(
    config: Config,
    table: Option<String>,
    query: Option<String>,
    format: export::Format,
    out: &std::path::Path,
) -> anyhow::Result<ExitCode> {
    use export::Source;
    let read = projections::ReadDb::open(&config.read_database_url()).await.context("opening the read database")?;
    let source = match (table, query) {
        (Some(table), _) => Source::Table(table),
        (None, Some(query)) => Source::Query(query),
        (None, None) => anyhow::bail!("--table or --query"),
    };
    let rows = export::to_file(&read, &source, format, out).await.with_context(|| format!("exporting to {}", out.display()))?;
    println!("{rows} rows written to {}", out.display());
    Ok(ExitCode::SUCCESS)
}

/// `reconcile`: the contract's state against the read models; exit 1 on any difference.
pub async fn reconcile(config: Config, batch: usize, concurrency: usize) -> anyhow::Result<ExitCode> {
    let url = config.rpc_url.as_deref().context("RPC_URL: the chain's node to read the contract from")?;
    let address = config.contract_address.as_deref().context("CONTRACT_ADDRESS: the marketplace contract")?;
    let mut target = node::reconcile::Target::connect(url, config.chain_id, address.parse().context("contract address")?)?;
    (target.batch, target.concurrency) = (batch.max(1), concurrency.max(1));
    let store = crate::log::open(&config).await?;
    let read = projections::ReadDb::open(&config.read_database_url()).await.context("opening the read database")?;
    let started = std::time::Instant::now();
    let report = node::reconcile::reconcile(store.as_ref(), &read, &target).await.context("reconciling")?;
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

/// `verify`: the log's hash chain and numbering; exit 2 naming the first bad position.
pub async fn verify(config: Config) -> anyhow::Result<ExitCode> {
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
