//! The local chain of the embedded stack: an anvil process (chain id 80001, the standard test
//! accounts) whose state is kept under `data/`, the contract deployed on it once, and the dev
//! wallet's accounts.

use std::{
    path::{Path, PathBuf},
    process::Stdio,
    time::{Duration, Instant},
};

use alloy::{
    network::{EthereumWallet, TransactionBuilder},
    primitives::{Address, U256},
    providers::{Provider, ProviderBuilder},
    rpc::types::TransactionRequest,
    signers::local::{MnemonicBuilder, coins_bip39::English},
};
use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};
use tokio::process::{Child, Command};

/// anvil's public development mnemonic: its accounts are well-known test keys, never real ones.
/// The UI's dev wallet derives the same accounts (offered only against the local chain).
pub const DEV_MNEMONIC: &str = "test test test test test test test test test test test junk";

/// Where the contract of a chain was deployed (the format `contracts/scripts/deploy.mjs` writes).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Deployment {
    /// Contract name.
    pub contract: String,
    /// Address.
    pub address: Address,
    /// Block it was deployed in.
    pub deployment_block: u64,
    /// Deployment transaction.
    pub tx_hash: String,
}

/// A running anvil; stopped (its state saved) when dropped or on [`LocalChain::stop`].
pub struct LocalChain {
    child: Child,
    /// Its RPC URL.
    pub url: String,
}

impl LocalChain {
    /// Starts anvil with its state in `data_dir/chain/state.json` (loaded if present, saved
    /// every few seconds and on exit), and waits until it answers.
    pub async fn start(data_dir: &Path, chain_id: u64, port: u16) -> anyhow::Result<Self> {
        let anvil = anvil_binary()?;
        let chain_dir = data_dir.join("chain");
        std::fs::create_dir_all(&chain_dir).context("creating data/chain")?;
        let state = chain_dir.join("state.json");
        let url = format!("http://127.0.0.1:{port}");
        if reqwest::Client::new().post(&url).json(&rpc("eth_chainId")).send().await.is_ok() {
            bail!("something already listens on 127.0.0.1:{port}: stop it, set ANVIL_PORT, or set RPC_URL to use it");
        }
        let log = std::fs::File::create(chain_dir.join("anvil.log")).context("creating the anvil log")?;
        let child = Command::new(&anvil)
            .args(["--host", "127.0.0.1", "--port", &port.to_string(), "--chain-id", &chain_id.to_string()])
            .arg("--state")
            .arg(&state)
            .args(["--state-interval", "5"])
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("starting {}", anvil.display()))?;
        let mut chain = Self { child, url };
        chain.wait_ready(chain_id).await?;
        chain.fund_dev_accounts().await?;
        tracing::info!(url = %chain.url, state = %state.display(), "local chain running");
        Ok(chain)
    }

    async fn wait_ready(&mut self, chain_id: u64) -> anyhow::Result<()> {
        let provider = ProviderBuilder::new().connect_http(self.url.parse()?);
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait()? {
                bail!("anvil exited at start ({status}); see data/chain/anvil.log");
            }
            match provider.get_chain_id().await {
                Ok(id) if id == chain_id => return Ok(()),
                Ok(id) => bail!("the local chain answers with chain id {id}, not {chain_id}"),
                Err(_) if started.elapsed() < Duration::from_secs(30) => tokio::time::sleep(Duration::from_millis(100)).await,
                Err(err) => bail!("anvil did not answer within 30 s: {err}"),
            }
        }
    }

    /// Gives each dev wallet account that was never used and holds nothing (anvil funds its
    /// first 10; a chain saved before has what it had) the balance anvil gives its own, so every
    /// account the dev wallet offers can pay. Accounts in use are left as they are.
    async fn fund_dev_accounts(&self) -> anyhow::Result<()> {
        let provider = ProviderBuilder::new().connect_http(self.url.parse()?);
        let balance = U256::from(DEV_ACCOUNT_BALANCE) * U256::from(10u64).pow(U256::from(18u64));
        for address in dev_addresses() {
            let unused = provider.get_balance(*address).await?.is_zero() && provider.get_transaction_count(*address).await? == 0;
            if unused {
                let () = provider.raw_request("anvil_setBalance".into(), (address, balance)).await.context("funding a dev account")?;
            }
        }
        Ok(())
    }

    /// Stops anvil gracefully (SIGINT, so it writes its state), then kills it if it lingers.
    pub async fn stop(mut self) {
        if let Some(pid) = self.child.id() {
            let _ = std::process::Command::new("kill").args(["-INT", &pid.to_string()]).status();
            if tokio::time::timeout(Duration::from_secs(5), self.child.wait()).await.is_ok() {
                return;
            }
        }
        let _ = self.child.kill().await;
    }
}

/// The anvil binary installed by `npm install` in `contracts/` (pinned to 1.5.1 there).
fn anvil_binary() -> anyhow::Result<PathBuf> {
    let candidates = [
        PathBuf::from("contracts/node_modules/.bin/anvil"),
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../contracts/node_modules/.bin/anvil"),
    ];
    candidates.into_iter().find(|path| path.exists()).context("anvil is not installed: run `npm install` in contracts/ (scripts/run does)")
}

fn rpc(method: &str) -> serde_json::Value {
    serde_json::json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": [] })
}

/// The deployment recorded for `chain_id` in `data_dir/deployments.json` if its code is still
/// on the chain; otherwise deploys the contract from test account 0 and records it.
pub async fn ensure_deployed(data_dir: &Path, rpc_url: &str, chain_id: u64) -> anyhow::Result<Deployment> {
    let file = data_dir.join("deployments.json");
    let mut recorded: std::collections::BTreeMap<String, Deployment> = match std::fs::read(&file) {
        Ok(bytes) => serde_json::from_slice(&bytes).with_context(|| format!("reading {}", file.display()))?,
        Err(_) => Default::default(),
    };
    let signer = MnemonicBuilder::<English>::from_phrase_nth(DEV_MNEMONIC, 0);
    let deployer = signer.address();
    let provider = ProviderBuilder::new().wallet(EthereumWallet::new(signer)).connect_http(rpc_url.parse()?);
    if let Some(deployment) = recorded.get(&chain_id.to_string()) {
        let code = provider.get_code_at(deployment.address).await?;
        if !code.is_empty() {
            tracing::info!(address = %deployment.address, "reusing the recorded deployment");
            return Ok(deployment.clone());
        }
        bail!(
            "{} records the marketplace at {} on chain {chain_id}, but the chain has no code there \
             (its state was lost): start over with `--fresh`",
            file.display(),
            deployment.address
        );
    }
    let tx = TransactionRequest::default().from(deployer).with_deploy_code(indexer::bindings::Marketplace::BYTECODE.clone());
    let receipt = provider.send_transaction(tx).await?.get_receipt().await?;
    if !receipt.status() {
        bail!("the deployment transaction reverted");
    }
    let deployment = Deployment {
        contract: "Marketplace".into(),
        address: receipt.contract_address.context("the receipt names no contract")?,
        deployment_block: receipt.block_number.context("the receipt names no block")?,
        tx_hash: receipt.transaction_hash.to_string(),
    };
    recorded.insert(chain_id.to_string(), deployment.clone());
    std::fs::write(&file, serde_json::to_vec_pretty(&recorded)?).with_context(|| format!("writing {}", file.display()))?;
    tracing::info!(address = %deployment.address, block = deployment.deployment_block, "marketplace deployed");
    Ok(deployment)
}

/// How many of the dev mnemonic's accounts the dev wallet offers: the end-to-end suites' (0-5)
/// and the demo people's (from the demo plan's `FIRST_ACCOUNT` on), with room to spare. The UI's
/// `DEV_WALLET_ACCOUNTS` is the same number.
pub const DEV_ACCOUNTS: u32 = 20;

/// What each dev account holds at first, in MATIC: what anvil gives its own (0-9).
const DEV_ACCOUNT_BALANCE: u64 = 10_000;

/// The addresses of the dev wallet's accounts, by index (derived once: each derivation
/// stretches the phrase).
pub fn dev_addresses() -> &'static [Address] {
    static ADDRESSES: std::sync::LazyLock<Vec<Address>> = std::sync::LazyLock::new(|| {
        (0..DEV_ACCOUNTS).map(|i| MnemonicBuilder::<English>::from_phrase_nth(DEV_MNEMONIC, i).address()).collect()
    });
    &ADDRESSES
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn every_account_the_dev_wallet_offers_is_funded_on_a_fresh_chain_and_after_a_restart() {
        // A clean clone has no anvil yet: the contracts' npm install brings it.
        indexer::test_utils::anvil_binary();
        let dir = tempfile::tempdir().unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let chain = LocalChain::start(dir.path(), 80001, port).await.unwrap();
        let provider = ProviderBuilder::new().connect_http(chain.url.parse().unwrap());
        let ether = U256::from(10u64).pow(U256::from(18u64));
        for (index, address) in dev_addresses().iter().enumerate() {
            let balance = provider.get_balance(*address).await.unwrap();
            assert_eq!(balance, U256::from(DEV_ACCOUNT_BALANCE) * ether, "account {index}");
        }
        // Account 19 spends; after a restart from the saved state it keeps what it has left.
        let spender = MnemonicBuilder::<English>::from_phrase_nth(DEV_MNEMONIC, DEV_ACCOUNTS - 1);
        let wallet = ProviderBuilder::new().wallet(EthereumWallet::new(spender)).connect_http(chain.url.parse().unwrap());
        let sent = TransactionRequest::default().with_to(dev_addresses()[0]).with_value(U256::from(1_000) * ether);
        wallet.send_transaction(sent).await.unwrap().get_receipt().await.unwrap();
        let left = provider.get_balance(dev_addresses()[19]).await.unwrap();
        chain.stop().await;
        let chain = LocalChain::start(dir.path(), 80001, port).await.unwrap();
        let provider = ProviderBuilder::new().connect_http(chain.url.parse().unwrap());
        assert_eq!(provider.get_balance(dev_addresses()[19]).await.unwrap(), left, "a used account is not topped up");
        chain.stop().await;
    }
}
