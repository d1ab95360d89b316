//! Helpers for tests that need a real chain: a throw-away anvil with the marketplace deployed,
//! accounts from anvil's public test mnemonic, and a fresh SQLite event store.

use std::{
    path::PathBuf,
    process::{Child, Command, Stdio},
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use alloy::{
    network::{EthereumWallet, TransactionBuilder},
    primitives::{Address, Bytes, U256},
    providers::{DynProvider, Provider, ProviderBuilder, ext::AnvilApi},
    rpc::types::{TransactionReceipt, TransactionRequest},
    signers::local::{MnemonicBuilder, coins_bip39::English},
    sol_types::SolCall,
};
use domain::{EventStore, RecordedEvent, store::sqlite::SqliteEventStore};

use crate::{IndexerConfig, bindings::Marketplace};

/// The chain id of the local stack.
pub const CHAIN_ID: u64 = 80001;
/// anvil's public development mnemonic: its accounts are well-known test keys, never real ones.
pub const TEST_MNEMONIC: &str = "test test test test test test test test test test test junk";
/// How many of the mnemonic's accounts the helpers sign for.
pub const ACCOUNTS: u32 = 10;

/// The anvil binary the contracts' npm install provides.
///
/// The platform package's binary itself, not the `node_modules/.bin/anvil` node shim: killing the
/// shim would leave the real anvil running as an orphan.
pub fn anvil_binary() -> PathBuf {
    static INSTALL: Mutex<()> = Mutex::new(());
    let contracts = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../contracts");
    let find = || {
        std::fs::read_dir(contracts.join("node_modules/@foundry-rs"))
            .ok()?
            .filter_map(Result::ok)
            .filter(|entry| entry.file_name().to_string_lossy().starts_with("anvil-"))
            .map(|entry| entry.path().join("bin/anvil"))
            .find(|path| path.exists())
    };
    let _once = INSTALL.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(anvil) = find() {
        return anvil;
    }
    let status = Command::new("npm").arg("install").current_dir(&contracts).status().expect("run `npm install` in contracts/ to get anvil");
    assert!(status.success(), "npm install in contracts/ failed");
    find().expect("anvil in contracts/node_modules/@foundry-rs after npm install")
}

/// A private anvil (chain id 80001) on a free loopback port with the marketplace deployed;
/// anvil is killed when this is dropped.
pub struct TestChain {
    child: Child,
    /// The RPC URL.
    pub url: String,
    /// A provider that signs for the first [`ACCOUNTS`] test accounts (pick one with `from`).
    pub provider: DynProvider,
    /// Those accounts; the first deployed the contract and is its admin.
    pub accounts: Vec<Address>,
    /// The marketplace's address.
    pub market: Address,
    /// The block it was deployed in.
    pub deployment_block: u64,
}

impl Drop for TestChain {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl TestChain {
    /// Starts anvil and deploys the contract.
    pub async fn start() -> Self {
        Self::start_with(&[]).await
    }

    /// Starts anvil with extra arguments (e.g. a block gas limit) and deploys the contract.
    pub async fn start_with(extra_args: &[&str]) -> Self {
        let anvil = anvil_binary();
        let mut last_error = String::new();
        for _ in 0..5 {
            let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port();
            let child = Command::new(&anvil)
                .args(["--host", "127.0.0.1", "--port", &port.to_string(), "--chain-id", &CHAIN_ID.to_string(), "--silent"])
                .args(extra_args)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::inherit())
                .spawn()
                .expect("spawn anvil");
            let url = format!("http://127.0.0.1:{port}");
            let mut chain = Self::connect(child, url).await;
            match chain.wait_ready().await {
                Ok(()) => {
                    chain.deploy().await;
                    return chain;
                }
                Err(error) => last_error = error, // the port was taken meanwhile: try another
            }
        }
        panic!("anvil did not start: {last_error}");
    }

    async fn connect(child: Child, url: String) -> Self {
        let mut wallet: Option<EthereumWallet> = None;
        let mut accounts = Vec::new();
        for index in 0..ACCOUNTS {
            let signer = MnemonicBuilder::<English>::from_phrase_nth(TEST_MNEMONIC, index);
            accounts.push(signer.address());
            match &mut wallet {
                None => wallet = Some(EthereumWallet::new(signer)),
                Some(wallet) => wallet.register_signer(signer),
            }
        }
        let provider =
            ProviderBuilder::new().wallet(wallet.expect("at least one account")).connect_http(url.parse().expect("a URL")).erased();
        Self { child, url, provider, accounts, market: Address::ZERO, deployment_block: 0 }
    }

    async fn wait_ready(&mut self) -> Result<(), String> {
        let started = Instant::now();
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(format!("anvil exited with {status}"));
            }
            match self.provider.get_chain_id().await {
                Ok(id) if id == CHAIN_ID => return Ok(()),
                Ok(id) => return Err(format!("chain id {id}")),
                Err(_) if started.elapsed() < Duration::from_secs(20) => tokio::time::sleep(Duration::from_millis(50)).await,
                Err(error) => return Err(error.to_string()),
            }
        }
    }

    async fn deploy(&mut self) {
        let tx = TransactionRequest::default().from(self.accounts[0]).with_deploy_code(Marketplace::BYTECODE.clone());
        let receipt = self.provider.send_transaction(tx).await.expect("deploy").get_receipt().await.expect("receipt");
        assert!(receipt.status(), "deployment reverted");
        self.market = receipt.contract_address.expect("a contract address");
        self.deployment_block = receipt.block_number.expect("mined");
    }

    /// An indexer configuration for this chain, polling fast and retrying briefly.
    pub fn indexer_config(&self) -> IndexerConfig {
        let mut config = IndexerConfig::new(&self.url, CHAIN_ID, self.market, self.deployment_block);
        config.poll_interval = Duration::from_millis(20);
        config.sync_timeout = Duration::from_secs(20);
        config.retry_initial_delay = Duration::from_millis(20);
        config.retry_max_delay = Duration::from_millis(200);
        config.max_attempts = 5;
        config
    }

    /// The contract's bindings on this chain.
    pub fn contract(&self) -> Marketplace::MarketplaceInstance<DynProvider> {
        Marketplace::new(self.market, self.provider.clone())
    }

    /// Sends `call` to the marketplace from `from` with `value` wei, waits for it to be mined,
    /// and panics if it reverted.
    pub async fn transact<C: SolCall>(&self, from: Address, call: C, value: U256) -> TransactionReceipt {
        let tx = self.call_request(from, &call, value);
        let receipt = self.provider.send_transaction(tx).await.expect("send").get_receipt().await.expect("receipt");
        assert!(receipt.status(), "{} reverted", C::SIGNATURE);
        receipt
    }

    /// The transaction that calls the marketplace with `call` (for `anvil_reorg` replacements).
    /// The gas limit is set: anvil would estimate a reorg's replacement against the chain it is
    /// about to replace.
    pub fn call_request(&self, from: Address, call: &impl SolCall, value: U256) -> TransactionRequest {
        TransactionRequest::default()
            .from(from)
            .with_gas_limit(1_000_000)
            .to(self.market)
            .input(Bytes::from(call.abi_encode()).into())
            .value(value)
    }

    /// The latest block's number and timestamp.
    pub async fn latest(&self) -> (u64, u64) {
        let block =
            self.provider.get_block_by_number(alloy::eips::BlockNumberOrTag::Latest).await.expect("latest block").expect("a latest block");
        (block.header.number, block.header.timestamp)
    }

    /// Moves time forward and mines a block.
    pub async fn advance_time(&self, seconds: u64) {
        self.provider.anvil_increase_time(seconds).await.expect("increase time");
        self.mine().await;
    }

    /// Mines one (empty unless transactions wait) block.
    pub async fn mine(&self) {
        self.provider.evm_mine(None).await.expect("mine");
    }
}

/// A fresh SQLite event store in `dir`.
pub async fn sqlite_store(dir: &tempfile::TempDir, name: &str) -> Arc<dyn EventStore> {
    Arc::new(SqliteEventStore::open(&dir.path().join(name)).await.expect("open the SQLite store"))
}

/// Every event of the log, in position order.
pub async fn read_log(store: &dyn EventStore) -> Vec<RecordedEvent> {
    let mut events = Vec::new();
    loop {
        let after = events.last().map_or(0, |e: &RecordedEvent| e.position);
        let page = store.read_all(after, 1_000).await.expect("read the log");
        if page.is_empty() {
            return events;
        }
        events.extend(page);
    }
}

/// A call taking a token off sale.
pub fn stop_sale_call(token: u64) -> Marketplace::toggleForSaleCall {
    Marketplace::toggleForSaleCall { tokenId: U256::from(token), saleType: 0, price: U256::ZERO, auctionEndTime: 0, basePrice: U256::ZERO }
}

/// A mint call with the given sale (`0` not for sale, `1` fixed price, `2` auction) and royalties.
pub fn mint_call(
    uri: &str,
    sale_type: u8,
    royalties: &[(Address, u16)],
    auction_end: u64,
    base_price: U256,
    price: U256,
) -> Marketplace::mintCall {
    Marketplace::mintCall {
        uri: uri.to_owned(),
        saleType: sale_type,
        royaltyReceivers: royalties.iter().map(|(a, _)| *a).collect(),
        royaltyBps: royalties.iter().map(|(_, bps)| alloy::primitives::Uint::<96, 2>::from(*bps)).collect(),
        auctionEndTime: auction_end,
        basePrice: base_price,
        price,
    }
}
