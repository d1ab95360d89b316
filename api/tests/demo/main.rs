//! `marketplace demo` on a real stack: anvil, the indexer and the projector, the API served
//! over TCP. A smaller plan than the full demo, through the same code: a second run adds
//! nothing, and the read models agree with the contract; a run killed between a transaction
//! and its record is resumed without doing anything twice. And `marketplace dev` runs the demo
//! on a fresh market, on SQLite and on Postgres alike.

use std::{
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use alloy::providers::Provider;
use api::{
    chain::ChainInfo,
    demo::{
        Crash, Crashed, Options, Summary,
        plan::{Plan, Size},
    },
    http::AppState,
};
use clap::Parser;
use domain::test_utils::TestPostgres;
use indexer::{
    bindings::Marketplace,
    test_utils::{TestChain, read_log},
};
use support::ChainStack;

#[path = "../support/mod.rs"]
mod support;

const SIZE: Size = Size { users: 3, nfts_per_user: 8 };

/// The smallest market with an auction outbid twice (each person's fourth NFT).
const SMALL: Size = Size { users: 3, nfts_per_user: 4 };

struct Stack {
    chain: TestChain,
    state: AppState,
    url: String,
    _dir: tempfile::TempDir,
}

impl Stack {
    async fn start() -> Self {
        let stack = ChainStack::start(true).await;
        let config = support::config(&stack.dir, &["--jwt-secret", "test-secret"]);
        let state = stack.state(config, ChainInfo { dev_wallet: true, ..stack.chain_info() });
        let app = api::http::app(state.clone(), &stack.dir.path().join("ui"));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move {
            axum::serve(listener, app.into_make_service_with_connect_info::<std::net::SocketAddr>()).await.unwrap();
        });
        Self { chain: stack.chain, state, url, _dir: stack.dir }
    }

    async fn demo(&self) -> Summary {
        self.run(SIZE, None).await.unwrap()
    }

    async fn run(&self, size: Size, crash: Option<Crash>) -> anyhow::Result<Summary> {
        let options = Options { api_url: self.url.clone(), rpc_url: self.chain.url.clone(), size, log: None };
        tokio::time::timeout(Duration::from_secs(600), api::demo::run_until_crash(&options, crash))
            .await
            .expect("the demo took over 10 minutes")
    }

    /// Runs the demo until `crash`, which it must reach.
    async fn crash(&self, size: Size, crash: Crash) {
        let error = self.run(size, Some(crash)).await.expect_err("the run reaches its crash");
        assert!(error.chain().any(|e| e.downcast_ref::<Crashed>().is_some()), "{error:#}");
    }

    /// The contract's last token id: how many tokens were ever minted.
    async fn last_token(&self) -> u64 {
        Marketplace::new(self.chain.market, &self.chain.provider).lastTokenId().call().await.unwrap().to::<u64>()
    }

    /// Every bid ever placed (the contract's `BidPlaced` logs).
    async fn bids_on_chain(&self) -> usize {
        let market = Marketplace::new(self.chain.market, &self.chain.provider);
        market.BidPlaced_filter().from_block(0).query().await.unwrap().len()
    }

    async fn reconciled(&self, tokens: u64) {
        let target = api::node::reconcile::Target::connect(&self.chain.url, 80001, self.chain.market).unwrap();
        let report = api::node::reconcile::reconcile(self.state.store.as_ref(), &self.state.read, &target).await.unwrap();
        assert_eq!(report.tokens, tokens);
        assert!(report.differences.is_empty(), "{:?}", report.differences.iter().map(ToString::to_string).collect::<Vec<_>>());
    }

    async fn count(&self, sql: &str) -> i64 {
        sqlx::query_scalar::<_, i64>(sql).fetch_one(&self.state.read.pool()).await.unwrap()
    }

    /// What the market holds: read tables, the log's records and the chain's head.
    async fn census(&self) -> Vec<(&'static str, i64)> {
        let log = read_log(self.state.store.as_ref()).await;
        let events = |kind: &str| log.iter().filter(|e| e.event_type == kind).count() as i64;
        vec![
            ("users", events("UserRegistered")),
            ("nfts", self.count("SELECT COUNT(*) FROM nfts").await),
            ("bids", events("BidPlaced")),
            ("sales", events("NftSold")),
            ("records", events("ChainActionRecorded")),
            ("likes", self.count("SELECT COUNT(*) FROM likes").await),
            ("bookmarks", self.count("SELECT COUNT(*) FROM bookmarks").await),
            ("collections", self.count("SELECT COUNT(*) FROM collections").await),
            ("collection likes", events("CollectionLiked")),
            ("collection items", events("NftAddedToCollection")),
            ("block", self.chain.provider.get_block_number().await.unwrap() as i64),
        ]
    }
}

#[tokio::test]
async fn the_demo_fills_the_market_once_and_the_read_models_agree_with_the_chain() {
    let stack = Stack::start().await;

    let first = stack.demo().await;

    assert_eq!(first.created_count("users"), 3, "{first}");
    assert_eq!(first.created_count("nfts"), 24, "{first}");
    assert!(first.created_count("bids") >= 6 && first.created_count("purchases") == 3, "{first}");
    assert_eq!(first.created_count("collections"), 3, "{first}");
    assert!(first.created_count("likes") > 0 && first.created_count("bookmarks") > 0, "{first}");
    let census = stack.census().await;
    let get = |name: &str| census.iter().find(|(n, _)| *n == name).unwrap().1;
    assert_eq!(get("users"), 3);
    assert_eq!(get("nfts"), 24);
    assert_eq!(get("bids") as usize, first.created_count("bids"));
    assert_eq!(get("sales"), 3);
    assert_eq!(get("likes") as usize, first.created_count("likes"));
    assert_eq!(get("bookmarks") as usize, first.created_count("bookmarks"));
    // Every category has NFTs, each with its uploaded image.
    let categories = stack.count("SELECT COUNT(DISTINCT category_id) FROM nft_details").await;
    assert_eq!(categories, 8);
    let per_category = stack.count("SELECT MIN(n) FROM (SELECT COUNT(*) AS n FROM nft_details GROUP BY category_id) AS c").await;
    assert!(per_category >= 3, "{per_category}");

    let second = stack.demo().await;

    assert_eq!(second.total_created(), 0, "the second run created {second}");
    assert_eq!(second.existing_count("nfts"), 24, "{second}");
    assert_eq!(stack.census().await, census, "the second run changed the market");

    stack.reconciled(24).await;
}

#[tokio::test]
async fn a_run_killed_between_a_mint_and_its_record_is_resumed_without_minting_again() {
    let stack = Stack::start().await;
    // The second person's auction outbid twice: seven NFTs made, the eighth minted, unrecorded.
    stack.crash(SMALL, Crash::AfterMint { nft: 7 }).await;
    assert_eq!(stack.last_token().await, 8);
    assert_eq!(stack.count("SELECT COUNT(*) FROM nft_details").await, 7);

    let resumed = stack.run(SMALL, None).await.unwrap();

    assert_eq!(resumed.existing_count("nfts"), 7, "{resumed}");
    assert_eq!(resumed.created_count("mints resumed"), 1, "{resumed}");
    assert_eq!(resumed.created_count("nfts"), 4, "{resumed}");
    assert_eq!(stack.last_token().await, 12, "one token per planned NFT");
    assert_eq!(stack.count("SELECT COUNT(*) FROM nfts").await, 12);
    assert_eq!(stack.count("SELECT COUNT(DISTINCT token_uri) FROM nfts").await, 12);
    assert_eq!(stack.count("SELECT COUNT(*) FROM nfts JOIN nft_details USING (nft_id) WHERE title <> ''").await, 12, "every NFT titled");
    // The recovered auction got its bids, as if nothing had happened.
    let outbid = stack.count("SELECT bid_count FROM nfts WHERE token_id = '8'").await;
    assert_eq!(outbid, 3);
    let again = stack.run(SMALL, None).await.unwrap();
    assert_eq!(again.total_created(), 0, "{again}");
    stack.reconciled(12).await;
}

#[tokio::test]
async fn a_run_killed_in_the_middle_of_an_auctions_bids_places_the_missing_ones_once() {
    let stack = Stack::start().await;
    let planned: usize = Plan::new(SMALL, &[]).nfts.iter().map(|n| n.bids.len()).sum();
    // The first person's auction outbid twice: its first bid recorded, its second on chain only.
    stack.crash(SMALL, Crash::AfterBid { nft: 3, bid: 1 }).await;
    assert_eq!(stack.bids_on_chain().await, 2);

    let resumed = stack.run(SMALL, None).await.unwrap();

    assert_eq!(resumed.existing_count("bids"), 2, "{resumed}");
    assert_eq!(resumed.created_count("bids"), planned - 2, "{resumed}");
    assert_eq!(stack.bids_on_chain().await, planned, "each planned bid once on chain");
    let log = read_log(stack.state.store.as_ref()).await;
    let records = log.iter().filter(|e| e.event_type == "ChainActionRecorded" && e.payload.contains("\"BID\"")).count();
    assert_eq!(records, planned, "each bid recorded once");
    assert_eq!(stack.count("SELECT bid_count FROM nfts WHERE token_id = '4'").await, 3);
    let again = stack.run(SMALL, None).await.unwrap();
    assert_eq!(again.total_created(), 0, "{again}");
    assert_eq!(read_log(stack.state.store.as_ref()).await.len(), log.len(), "a third run changed the log");
    stack.reconciled(12).await;
}

#[tokio::test]
async fn a_run_killed_between_a_purchase_and_its_record_records_it_on_resuming() {
    let stack = Stack::start().await;
    let market = Marketplace::new(stack.chain.market, &stack.chain.provider);
    // The first person's sold NFT (token 8): bought on chain, not recorded.
    stack.crash(SIZE, Crash::AfterPurchase { nft: 7 }).await;
    let sold = market.Sold_filter().from_block(0).query().await.unwrap();
    assert_eq!(sold.len(), 1);
    let (sale, log) = &sold[0];
    assert_eq!(sale.tokenId.to::<u64>(), 8);
    let hash = format!("{:#x}", log.transaction_hash.unwrap());
    let purchases = |log: &[domain::RecordedEvent]| {
        log.iter()
            .filter(|e| e.event_type == "ChainActionRecorded" && e.payload.contains("\"PURCHASE\""))
            .map(|e| e.payload.clone())
            .collect::<Vec<_>>()
    };
    assert!(purchases(&read_log(stack.state.store.as_ref()).await).is_empty());

    let resumed = stack.run(SIZE, None).await.unwrap();

    assert_eq!(resumed.existing_count("purchases"), 1, "{resumed}");
    assert_eq!(resumed.created_count("purchases"), 2, "{resumed}");
    assert_eq!(market.Sold_filter().from_block(0).query().await.unwrap().len(), 3, "each planned purchase once on chain");
    // Recorded once, by the buyer's account.
    let log = read_log(stack.state.store.as_ref()).await;
    let records = purchases(&log);
    assert_eq!(records.len(), 3, "each purchase recorded once");
    let record = records.iter().find(|p| p.contains(&hash)).expect("the interrupted purchase is recorded");
    let buyer: String = sqlx::query_scalar("SELECT user_id FROM user_wallets WHERE address = $1")
        .bind(format!("{:#x}", sale.buyer))
        .fetch_one(&stack.state.read.pool())
        .await
        .unwrap();
    assert!(record.contains(&buyer), "{record}");
    // The NFT's history shows the purchase, once, by the buyer's wallet.
    let history: serde_json::Value = reqwest::get(format!("{}/api/nft/nfthistory/80001-8", stack.url)).await.unwrap().json().await.unwrap();
    let bought: Vec<&serde_json::Value> =
        history["body"]["data"].as_array().unwrap().iter().filter(|h| h["typeOfEvent"] == "PURCHASED").collect();
    assert_eq!(bought.len(), 1, "{history}");
    assert_eq!(bought[0]["transactionHash"], hash.as_str());
    assert!(bought[0]["address"].as_str().unwrap().eq_ignore_ascii_case(&sale.buyer.to_string()), "{history}");
    let again = stack.run(SIZE, None).await.unwrap();
    assert_eq!(again.total_created(), 0, "{again}");
    assert_eq!(read_log(stack.state.store.as_ref()).await.len(), log.len(), "a third run changed the log");
    stack.reconciled(24).await;
}

/// A config for `dir` (and a Postgres log when `database`).
fn config(dir: &std::path::Path, database: Option<&str>) -> api::config::Config {
    let mut args = vec!["test".to_owned(), "--data-dir".to_owned(), dir.display().to_string()];
    if let Some(url) = database {
        args.extend(["--database-url".to_owned(), url.to_owned()]);
    }
    support::Cli::parse_from(args).config
}

#[tokio::test]
async fn dev_wants_the_demo_on_an_empty_log_on_sqlite_and_postgres_alike() {
    let postgres = TestPostgres::create().await;
    for database in [None, Some(postgres.url.as_str())] {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let config = config(&data, database);
        let pending = data.join(api::demo::DEMO_PENDING);

        assert!(!api::demo::wants_demo(&config, true).await.unwrap(), "--empty: no demo ({database:?})");
        assert!(!pending.exists());
        assert!(api::demo::wants_demo(&config, false).await.unwrap(), "a fresh market gets the demo ({database:?})");
        assert!(pending.exists(), "and is marked pending at once");
        // A market with events whose demo finished (the marker removed): no demo.
        let store = api::log::open(&config).await.unwrap();
        api::node::bootstrap::seed_categories(store.as_ref()).await.unwrap();
        std::fs::remove_file(&pending).unwrap();
        assert!(!api::demo::wants_demo(&config, false).await.unwrap(), "a used market gets no demo ({database:?})");
        assert!(!pending.exists());
        // An interrupted demo resumes.
        std::fs::write(&pending, b"").unwrap();
        assert!(api::demo::wants_demo(&config, false).await.unwrap(), "an interrupted demo resumes ({database:?})");
    }
}

/// A free port of this suite's range (`range`), for a process the test starts.
fn free_port(range: std::ops::RangeInclusive<u16>) -> u16 {
    range.into_iter().find(|port| std::net::TcpListener::bind(("127.0.0.1", *port)).is_ok()).expect("a free port in the suite's range")
}

/// Stops the child with SIGINT (so anvil saves its state and stops), killing it if it lingers.
struct Dev(std::process::Child);

impl Drop for Dev {
    fn drop(&mut self) {
        let _ = Command::new("kill").args(["-INT", &self.0.id().to_string()]).status();
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(30) {
            if let Ok(Some(_)) = self.0.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test]
async fn dev_on_a_fresh_postgres_database_fills_the_market_with_the_demo() {
    let postgres = TestPostgres::create().await;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (listen, anvil) = (free_port(18400..=18499), free_port(18840..=18849));
    let log = std::fs::File::create(dir.path().join("dev.log")).unwrap();
    let dev = Dev(Command::new(env!("CARGO_BIN_EXE_marketplace"))
        .arg("dev")
        .env("DATABASE_URL", &postgres.url)
        .env("DATA_DIR", &data)
        .env("LISTEN_ADDR", format!("127.0.0.1:{listen}"))
        .env("ANVIL_PORT", anvil.to_string())
        .env("JWT_SECRET", "demo-dev-test-secret-0123456789abcdef")
        .env("RECONCILE_INTERVAL_SECS", "0")
        .env("RUST_LOG", "info,sqlx=warn")
        .env_remove("RPC_URL")
        .env_remove("CONTRACT_ADDRESS")
        .env_remove("READ_DATABASE_URL")
        .stdin(Stdio::null())
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .expect("start marketplace dev"));

    // The demo's first person signs up in the Postgres log: the demo runs. (Read raw, the log
    // holds their name sealed: the dev mailbox shows it was ada_lumen.)
    let store = domain::store::open(&postgres.url).await.unwrap();
    let started = Instant::now();
    let registered = loop {
        let registered =
            read_log(store.as_ref()).await.iter().any(|e| e.event_type == "UserRegistered" && !e.payload.contains("ada_lumen"));
        if registered || started.elapsed() > Duration::from_secs(240) {
            break registered;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    drop(dev);

    let output = std::fs::read_to_string(dir.path().join("dev.log")).unwrap();
    assert!(registered, "the demo did not sign anyone up within 240 s; dev's log:\n{output}");
    assert!(output.contains("demo: filling the fresh market"), "{output}");
    assert!(output.contains("code for ada_lumen@demo.example.com"), "the first person was ada_lumen: {output}");
    assert!(data.join(api::demo::DEMO_PENDING).exists(), "the unfinished demo is pending for the next start");
}

#[tokio::test]
async fn an_unreachable_chain_stops_the_demo_before_it_changes_anything() {
    let stack = Stack::start().await;
    let options = Options { api_url: stack.url.clone(), rpc_url: "http://127.0.0.1:9".into(), size: SIZE, log: None };

    let error = api::demo::run(&options).await.expect_err("an unreachable chain is an error");

    assert!(format!("{error:#}").contains("127.0.0.1:9"), "{error:#}");
    assert_eq!(read_log(stack.state.store.as_ref()).await.iter().filter(|e| e.event_type == "UserRegistered").count(), 0);
}

#[test]
fn the_command_refuses_a_market_too_small_for_its_bids() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_marketplace"))
        .args(["--data-dir", "/nonexistent", "demo", "--users", "2"])
        .output()
        .expect("run marketplace");

    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("3..=8"), "{}", String::from_utf8_lossy(&out.stderr));
}

#[tokio::test]
async fn the_library_refuses_a_plan_without_nfts_before_calling_anything() {
    let options = Options {
        api_url: "http://127.0.0.1:9".into(),
        rpc_url: "http://127.0.0.1:9".into(),
        size: Size { users: 3, nfts_per_user: 0 },
        log: None,
    };

    let error = api::demo::run(&options).await.expect_err("a plan without NFTs is refused");

    assert!(format!("{error:#}").contains("at least one NFT"), "{error:#}");
}
