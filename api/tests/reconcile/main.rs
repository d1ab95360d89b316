//! `marketplace reconcile`: the contract's state against the read models, on a real anvil.

use std::{path::Path, process::Command, sync::Arc};

use alloy::{
    network::TransactionBuilder,
    primitives::{Address, Bytes, U256},
    providers::Provider,
    rpc::types::TransactionRequest,
};
use domain::EventStore;
use indexer::{
    Indexer,
    bindings::Marketplace,
    test_utils::{TestChain, mint_call, sqlite_store},
};

const ETH: u128 = 1_000_000_000_000_000_000;

fn wei(amount: u128) -> U256 {
    U256::from(amount)
}

/// A contract whose every call reverts: a royalty receiver the market cannot pay, so it is
/// credited instead.
async fn deploy_reverting_receiver(chain: &TestChain) -> Address {
    // Init code returning the 5-byte runtime `PUSH1 0 PUSH1 0 REVERT`.
    let code: Bytes = "0x6005600c60003960056000f360006000fd".parse().unwrap();
    let tx = TransactionRequest::default().from(chain.accounts[0]).with_deploy_code(code);
    let receipt = chain.provider.send_transaction(tx).await.unwrap().get_receipt().await.unwrap();
    receipt.contract_address.expect("deployed")
}

/// A chain with tokens in each state: listed at a fixed price, in an auction with a bid, not
/// for sale, sold (its royalty credited to a receiver that reverts), burned.
async fn market(chain: &TestChain) {
    let (creator, alice, bob) = (chain.accounts[1], chain.accounts[2], chain.accounts[3]);
    let unpayable = deploy_reverting_receiver(chain).await;
    let (_, now) = chain.latest().await;
    chain.transact(creator, mint_call("ipfs://fixed", 1, &[(alice, 500)], 0, U256::ZERO, wei(ETH)), U256::ZERO).await;
    chain.transact(creator, mint_call("ipfs://auction", 2, &[], now + 3_600, wei(ETH / 10), wei(ETH)), U256::ZERO).await;
    chain.transact(alice, Marketplace::bidCall { tokenId: U256::from(2) }, wei(ETH / 5)).await;
    chain.transact(creator, mint_call("ipfs://kept", 0, &[], 0, U256::ZERO, U256::ZERO), U256::ZERO).await;
    chain.transact(creator, mint_call("ipfs://sold", 1, &[(unpayable, 1_000)], 0, U256::ZERO, wei(ETH / 2)), U256::ZERO).await;
    chain.transact(bob, Marketplace::buyTokenCall { tokenId: U256::from(4) }, wei(ETH / 2)).await;
    chain.transact(creator, mint_call("ipfs://burned", 0, &[], 0, U256::ZERO, U256::ZERO), U256::ZERO).await;
    chain.transact(creator, Marketplace::burnCall { tokenId: U256::from(5) }, U256::ZERO).await;
    let credits: U256 = chain.contract().creditsOf(unpayable).call().await.unwrap();
    assert_eq!(credits, wei(ETH / 20), "the unpayable receiver is owed its royalty");
}

/// Indexes the whole chain into the log at `dir/events.db` and projects it into `dir/read.db`.
async fn index_and_project(chain: &TestChain, dir: &tempfile::TempDir) -> Arc<dyn EventStore> {
    let store = sqlite_store(dir, "events.db").await;
    let mut indexer = Indexer::connect(chain.indexer_config(), store.clone()).await.unwrap();
    indexer.index_to_head().await.unwrap();
    let read = projections::ReadDb::open(&read_url(dir.path())).await.unwrap();
    projections::Projector::new(store.clone(), read).await.unwrap().catch_up().await.unwrap();
    store
}

fn read_url(dir: &Path) -> String {
    format!("sqlite://{}", dir.join("read.db").display())
}

/// Runs `marketplace <command>` on the stack in `dir`: (exit code, stdout).
fn marketplace(chain: &TestChain, dir: &Path, command: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_marketplace"))
        .args(["--database-url", &format!("sqlite://{}", dir.join("events.db").display())])
        .args(["--read-database-url", &read_url(dir)])
        .args(["--rpc-url", &chain.url, "--contract-address", &chain.market.to_string(), "--data-dir", &dir.display().to_string()])
        .args(command)
        .output()
        .expect("run marketplace");
    let stderr = String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), format!("{}{stderr}", String::from_utf8_lossy(&out.stdout)))
}

/// Runs SQL on the current generation of the read models, as an operator with a SQL shell would.
async fn edit_read_models(dir: &Path, sql: &str) {
    let read = projections::ReadDb::open(&read_url(dir)).await.unwrap();
    let done = sqlx::query(sql).execute(&read.pool()).await.unwrap();
    assert_eq!(done.rows_affected(), 1, "{sql}");
}

#[tokio::test]
async fn read_models_folded_from_the_chain_match_the_contract() {
    let chain = TestChain::start().await;
    market(&chain).await;
    let dir = tempfile::tempdir().unwrap();
    index_and_project(&chain, &dir).await;

    let (code, out) = marketplace(&chain, dir.path(), &["reconcile", "--batch", "3"]);

    assert_eq!(code, 0, "{out}");
    assert!(out.contains("reconciled 5 tokens"), "{out}");
    assert!(out.contains(": 0 differences"), "{out}");
}

#[tokio::test]
async fn an_edited_read_row_is_found_with_both_values_and_gone_after_a_replay() {
    let chain = TestChain::start().await;
    market(&chain).await;
    let dir = tempfile::tempdir().unwrap();
    index_and_project(&chain, &dir).await;
    let owner = format!("{:#x}", chain.accounts[1]);
    edit_read_models(dir.path(), "UPDATE nfts SET owner = '0x000000000000000000000000000000000000dead' WHERE token_id = '3'").await;
    edit_read_models(dir.path(), "UPDATE nfts SET highest_bid = '1' WHERE token_id = '2'").await;
    edit_read_models(dir.path(), "UPDATE credit_movements SET amount = '7' WHERE kind = 'CREDITED'").await;

    let (code, out) = marketplace(&chain, dir.path(), &["reconcile"]);

    assert_eq!(code, 1, "{out}");
    assert!(out.contains(&format!("token 3 owner: chain {owner}, read models 0x000000000000000000000000000000000000dead")), "{out}");
    assert!(out.contains(&format!("token 2 top_bid: chain {}, read models 1", ETH / 5)), "{out}");
    assert!(out.contains(&format!("credits_owed: chain {}, read models 7", ETH / 20)), "{out}");
    assert!(out.contains(": 3 differences"), "{out}");

    let (code, out) = marketplace(&chain, dir.path(), &["replay"]);
    assert_eq!(code, 0, "{out}");
    let (code, out) = marketplace(&chain, dir.path(), &["reconcile"]);

    assert_eq!(code, 0, "{out}");
    assert!(out.contains(": 0 differences"), "{out}");
}

#[tokio::test]
async fn a_token_the_chain_has_and_the_read_models_lack_is_a_difference() {
    let chain = TestChain::start().await;
    market(&chain).await;
    let dir = tempfile::tempdir().unwrap();
    index_and_project(&chain, &dir).await;
    edit_read_models(dir.path(), "DELETE FROM nfts WHERE token_id = '1'").await;

    let (code, out) = marketplace(&chain, dir.path(), &["reconcile"]);

    assert_eq!(code, 1, "{out}");
    assert!(out.contains("token 1 exists: chain yes, read models no row"), "{out}");
}
