//! The event log as every part of a process opens it: personal fields sealed per person with
//! keys kept apart ([`domain::privacy`]). Only `verify` and the migration read the log beneath.

use std::sync::Arc;

use anyhow::Context;
use domain::privacy::{PrivacyKeys, PrivateStore};

use crate::config::{Config, master_secret};

/// The keys sealing derives from the server's secret (`JWT_SECRET` or `<DATA_DIR>/jwt-secret`).
pub fn privacy_keys(config: &Config) -> anyhow::Result<PrivacyKeys> {
    let master = master_secret(config.jwt_secret.as_ref(), &config.data_dir.join("jwt-secret")).context("reading the server secret")?;
    Ok(PrivacyKeys::derive(&master))
}

/// Opens the configured log with its key store.
pub async fn open(config: &Config) -> anyhow::Result<Arc<PrivateStore>> {
    std::fs::create_dir_all(&config.data_dir).with_context(|| format!("creating {}", config.data_dir.display()))?;
    let keys = privacy_keys(config)?;
    domain::privacy::open(&config.database_url(), &config.key_store_url(), &keys).await.context("opening the event log")
}
