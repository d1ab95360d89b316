//! `credit_movements`: the contract's withdrawable credits (payouts it could not push), one row
//! per `Credited` or `CreditsWithdrawn` fact of the `account-{chain}-{address}` streams.
//!
//! Rows are only inserted, never read back while folding, so a fresh generation fills them in
//! its pipeline like any other; what an account is owed is summed by [`owed`].

use std::collections::BTreeMap;

use async_trait::async_trait;
use domain::{RecordedEvent, chain::ChainEvent};
use sqlx::Row;

use crate::{
    ProjectionError, ReadDb, ReadModel,
    sql::{self, Conn, Value},
};

/// The credits table.
#[derive(Default)]
pub struct Credits;

const COLUMNS: [&str; 7] = ["position", "chain_id", "account", "kind", "amount", "tx_hash", "at"];

/// The chain of an `account-{chain}-{address}` stream.
fn chain_of(event: &RecordedEvent) -> Result<i64, ProjectionError> {
    event
        .stream_id
        .strip_prefix("account-")
        .and_then(|rest| rest.split('-').next())
        .and_then(|chain| chain.parse().ok())
        .ok_or_else(|| ProjectionError::malformed(event, "not in an account-{chain}-{address} stream"))
}

#[async_trait]
impl ReadModel for Credits {
    fn handles(&self, event_type: &str) -> bool {
        matches!(event_type, "Credited" | "CreditsWithdrawn")
    }

    async fn apply(&self, conn: &mut Conn<'_>, events: &[&RecordedEvent]) -> Result<(), ProjectionError> {
        let mut rows = Vec::with_capacity(events.len());
        for event in events {
            let chain_id = chain_of(event)?;
            let parsed: ChainEvent = event.payload().map_err(|e| ProjectionError::malformed(event, e.to_string()))?;
            let (kind, account, amount, origin) = match parsed {
                ChainEvent::Credited { account, amount, origin } => ("CREDITED", account, amount, origin),
                ChainEvent::CreditsWithdrawn { account, amount, origin } => ("WITHDRAWN", account, amount, origin),
                _ => return Err(ProjectionError::malformed(event, "not a credit fact")),
            };
            rows.push((event.position as i64, chain_id, account, kind, amount, origin.tx_hash, origin.block_time));
        }
        let values: Vec<Vec<Value<'_>>> = rows
            .iter()
            .map(|(position, chain, account, kind, amount, tx, at)| {
                vec![(*position).into(), (*chain).into(), account.into(), (*kind).into(), amount.into(), tx.into(), (*at).into()]
            })
            .collect();
        sql::insert(conn, "credit_movements", &COLUMNS, "", &values).await
    }

    async fn forget_stream(&self, conn: &mut Conn<'_>, stream_id: &str, _at: i64) -> Result<(), ProjectionError> {
        let Some((chain, account)) = stream_id.strip_prefix("account-").and_then(|rest| rest.split_once('-')) else {
            return Ok(());
        };
        let Ok(chain) = chain.parse::<i64>() else {
            return Ok(());
        };
        sql::execute(conn, "DELETE FROM credit_movements WHERE chain_id = $1 AND account = $2", &[chain.into(), account.into()]).await
    }
}

/// What each account of `chain_id` is owed according to the read tables: its credits minus its
/// withdrawals, in wei (accounts that were ever credited, owed nothing included).
pub async fn owed(db: &ReadDb, chain_id: u64) -> Result<BTreeMap<String, u128>, ProjectionError> {
    let rows = sqlx::query("SELECT account, kind, amount FROM credit_movements WHERE chain_id = $1 ORDER BY position")
        .bind(chain_id as i64)
        .fetch_all(&db.pool())
        .await?;
    let mut owed = BTreeMap::new();
    for row in rows {
        let (account, kind, amount): (String, String, String) = (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
        let amount: u128 = amount.parse().map_err(|_| ProjectionError::BadValue(format!("credit of {account}: amount {amount:?}")))?;
        let balance: &mut u128 = owed.entry(account).or_default();
        *balance = if kind == "CREDITED" { balance.saturating_add(amount) } else { balance.saturating_sub(amount) };
    }
    Ok(owed)
}
