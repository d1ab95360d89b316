//! Transaction receipts read over RPC, as the record calls check them: the chain's own word on
//! who sent a transaction, to what, whether it succeeded, and what the marketplace contract
//! logged (decoded exactly as the indexer decodes them).

use std::{
    collections::HashMap,
    sync::{Mutex, OnceLock},
    time::Duration,
};

use alloy::{
    primitives::{Address, B256},
    providers::{DynProvider, Provider, ProviderBuilder},
};
use domain::trade::Transaction;

/// How long a transaction the node knows but has not mined yet is waited for.
const PENDING_WAIT: Duration = Duration::from_secs(10);
/// How often a pending transaction's receipt is asked for again.
const PENDING_POLL: Duration = Duration::from_millis(100);

/// Why a receipt could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReceiptError {
    /// The node knows no transaction with this hash (never sent, or a forged hash).
    #[error("No transaction {0} is known on chain")]
    Unknown(String),
    /// The transaction is known but was not mined in time.
    #[error("Transaction {0} is not mined yet; try again once it is confirmed")]
    Pending(String),
    /// The RPC call failed.
    #[error("RPC: {0}")]
    Rpc(String),
    /// A log of the contract did not decode: the ABI and the contract disagree.
    #[error("decoding the receipt's logs: {0}")]
    Decode(#[from] indexer::IndexerError),
}

/// One provider per RPC URL for the whole process: each keeps its HTTP connections open, so a
/// record call pays no new connection.
pub(crate) fn provider(rpc_url: &str) -> Result<DynProvider, ReceiptError> {
    static PROVIDERS: OnceLock<Mutex<HashMap<String, DynProvider>>> = OnceLock::new();
    let mut providers = PROVIDERS.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(provider) = providers.get(rpc_url) {
        return Ok(provider.clone());
    }
    let url = rpc_url.parse().map_err(|e| ReceiptError::Rpc(format!("RPC URL: {e}")))?;
    let provider = ProviderBuilder::new().connect_http(url).erased();
    providers.insert(rpc_url.to_owned(), provider.clone());
    Ok(provider)
}

fn rpc(err: impl std::fmt::Display) -> ReceiptError {
    ReceiptError::Rpc(err.to_string())
}

fn hex(address: Address) -> String {
    alloy::hex::encode_prefixed(address.as_slice())
}

/// The mined transaction `hash` with the events the `contract`'s logs in it establish.
pub async fn fetch(rpc_url: &str, contract: Address, hash: B256) -> Result<Transaction, ReceiptError> {
    let provider = provider(rpc_url)?;
    let started = tokio::time::Instant::now();
    let receipt = loop {
        if let Some(receipt) = provider.get_transaction_receipt(hash).await.map_err(rpc)? {
            break receipt;
        }
        // No receipt: a hash the node has never seen is refused at once; a transaction still
        // waiting in its pool (a node behind the wallet's) is waited for, briefly.
        if provider.get_transaction_by_hash(hash).await.map_err(rpc)?.is_none() {
            return Err(ReceiptError::Unknown(hash.to_string()));
        }
        if started.elapsed() > PENDING_WAIT {
            return Err(ReceiptError::Pending(hash.to_string()));
        }
        tokio::time::sleep(PENDING_POLL).await;
    };
    let mut events = Vec::new();
    for log in receipt.inner.logs().iter().filter(|log| log.address() == contract) {
        // The block's time does not matter to any check made here.
        events.extend(indexer::decode_log(log, 0)?);
    }
    Ok(Transaction {
        hash: alloy::hex::encode_prefixed(hash.as_slice()),
        from: hex(receipt.from),
        to: receipt.to.map(hex),
        succeeded: receipt.status(),
        block: receipt.block_number.unwrap_or_default(),
        events,
    })
}
