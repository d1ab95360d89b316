//! `marketplace demo` on a real stack: anvil, the indexer and the projector, the API served
//! over TCP. A smaller plan than the full demo, through the same code: a second run adds
//! nothing, and the read models agree with the contract.

use std::time::Duration;

use alloy::providers::Provider;
use api::{
    AppState,
    demo::{Options, Summary, plan::Size},
    routes::chain::ChainInfo,
};
use indexer::test_utils::{TestChain, read_log};
use support::ChainStack;

#[path = "../support/mod.rs"]
mod support;

const SIZE: Size = Size { users: 3, nfts_per_user: 8 };

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
        let app = api::app(state.clone(), &stack.dir.path().join("ui"));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move {
            axum::serve(listener, app.into_make_service_with_connect_info::<std::net::SocketAddr>()).await.unwrap();
        });
        Self { chain: stack.chain, state, url, _dir: stack.dir }
    }

    async fn demo(&self) -> Summary {
        let options = Options { api_url: self.url.clone(), rpc_url: self.chain.url.clone(), size: SIZE };
        tokio::time::timeout(Duration::from_secs(600), api::demo::run(&options)).await.expect("the demo took over 10 minutes").unwrap()
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

    let target = api::reconcile::Target::connect(&stack.chain.url, 80001, stack.chain.market).unwrap();
    let report = api::reconcile::reconcile(stack.state.store.as_ref(), &stack.state.read, &target).await.unwrap();
    assert_eq!(report.tokens, 24);
    assert!(report.differences.is_empty(), "{:?}", report.differences.iter().map(ToString::to_string).collect::<Vec<_>>());
}

#[tokio::test]
async fn an_unreachable_chain_stops_the_demo_before_it_changes_anything() {
    let stack = Stack::start().await;
    let options = Options { api_url: stack.url.clone(), rpc_url: "http://127.0.0.1:9".into(), size: SIZE };

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
    let options =
        Options { api_url: "http://127.0.0.1:9".into(), rpc_url: "http://127.0.0.1:9".into(), size: Size { users: 3, nfts_per_user: 0 } };

    let error = api::demo::run(&options).await.expect_err("a plan without NFTs is refused");

    assert!(format!("{error:#}").contains("at least one NFT"), "{error:#}");
}
