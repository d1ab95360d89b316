//! Collection statistics under load: `/api/stats/collections` (the `/stats` page) over 1,000
//! collections of 20 NFTs each (a market of 20,000 NFTs and their trades), against `/healthz` on
//! the same server in the same run; prints requests/s, p50/p99 and the ratio to `/healthz`.
//! Goal: `/stats` p99 < 25 ms.
//!
//! Workloads:
//! * the ranking between two blocks: every period, sort, order and pages 1-3 (each request ranks
//!   the 1,000 collections from the kept figures and writes its page);
//! * the same while the market moves: a like is appended every `BLOCK_MS` (2 s, a Polygon block),
//!   so the projector changes the read tables and the first request after each change reads every
//!   collection's figures again;
//! * a collection's page (`/api/stats/collection/{id}`: figures and its daily history, read from
//!   its members' activity rows on every request) and the collection grid with floor and volume;
//! * the pass itself: every collection's figures read from a fresh read database, timed alone.
//!
//! `cargo bench -p api --bench stats` (COLLECTIONS, REQUESTS, CONCURRENCY, BLOCK_MS to change it).

mod support;

use domain::EventStore as _;
use std::time::{Duration, Instant};

use domain::{ExpectedVersion, Metadata};
use projections::{
    queries::{
        Page,
        insight::{self, Period, Ranking, StatsSort},
    },
    test_utils::CHAIN_ID,
};

/// Members per collection.
const MEMBERS: u64 = 20;

fn main() {
    let count = support::env("COLLECTIONS", 1_000) as u64;
    let nfts = count * MEMBERS;
    let requests = support::env("REQUESTS", 10_000);
    let concurrency = support::env("CONCURRENCY", 32);
    let block = Duration::from_millis(support::env("BLOCK_MS", 2_000) as u64);
    let temporary = tempfile::tempdir().unwrap();
    let dir = temporary.path().to_owned();
    let config = support::config(&dir);
    let server = support::server_runtime();

    let (state, store) = server.block_on(async {
        let started = Instant::now();
        let store = api::log::open(&config).await.unwrap();
        support::write_market(store.as_ref(), nfts).await;
        let members = support::collections(store.as_ref(), count, MEMBERS, nfts).await;
        let read = projections::ReadDb::open(&config.read_database_url()).await.unwrap();
        let projector = projections::Projector::new(store.clone(), read.clone()).await.unwrap();
        projector.catch_up().await.unwrap();
        let handle = projector.handle();
        tokio::spawn(projector.run());
        let sales: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sales s JOIN collection_nfts cn ON cn.nft_id = s.nft_id")
            .fetch_one(&read.pool())
            .await
            .unwrap();
        println!(
            "{count} collections ({members} members, {sales} of their sales) over {nfts} NFTs written and projected in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        (api::http::AppState::new(config.clone(), store.clone(), read, handle).unwrap(), store)
    });

    // The pass alone: every collection's figures, from a read database that has kept none.
    let passes: Vec<Duration> = server.block_on(async {
        let mut passes = Vec::new();
        for _ in 0..10 {
            let fresh = projections::ReadDb::open(&config.read_database_url()).await.unwrap();
            let request = Ranking { period: Period::Day, sort: StatsSort::Volume, ascending: false };
            let started = Instant::now();
            let page = insight::ranking(&fresh, request, Page { page: 1, limit: 20 }, chrono::Utc::now().timestamp()).await.unwrap();
            passes.push(started.elapsed());
            assert_eq!(page.total_items, count as i64);
        }
        passes
    });
    let passes = support::Latencies::new(passes);
    let address = support::serve(&server, api::http::app(state, &dir));

    let mut ranking = Vec::new();
    for period in ["24H", "7D", "30D", "ALL"] {
        for sort in ["VOLUME", "CHANGE", "FLOOR", "SALES", "OWNERS", "ITEMS", "LISTED", "TITLE"] {
            for order in ["0", "1"] {
                for page in 1..=3 {
                    ranking.push(format!("/api/stats/collections?period={period}&sortBy={sort}&orderBy={order}&page={page}"));
                }
            }
        }
    }
    let one: Vec<String> = (0..count).step_by(7).map(|c| format!("/api/stats/collection/{}", support::collection_id(c))).collect();
    let grid: Vec<String> = (1..=5).map(|page| format!("/api/collection/browse?page={page}")).collect();
    let health = vec!["/healthz".to_owned()];
    let limit = Duration::from_secs(600);
    let client = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    client.block_on(async {
        support::load(address, &ranking, 500, concurrency, limit).await;
        support::load(address, &health, 2_000, concurrency, limit).await;
        let healthz = support::load(address, &health, requests, concurrency, limit).await;
        let still = support::load(address, &ranking, requests, concurrency, limit).await;
        // A block every BLOCK_MS: one like appended, folded by the running projector.
        let writer = {
            let store = store.clone();
            tokio::spawn(async move {
                let user = support::creator_user(1);
                let mut n = 0u64;
                loop {
                    tokio::time::sleep(block).await;
                    n += 1;
                    let nft_id = format!("{CHAIN_ID}-{}", 1 + n % nfts);
                    let event = domain::social::SocialEvent::NftLiked { user_id: user, nft_id, at: chrono::Utc::now() };
                    let event = event.to_new_event(Metadata::default()).unwrap();
                    store.append(&domain::social::social_stream(user), ExpectedVersion::Any, vec![event]).await.unwrap();
                }
            })
        };
        let moving_started = Instant::now();
        let moving = support::load(address, &ranking, requests * 2, concurrency, limit).await;
        let blocks = moving_started.elapsed().as_secs_f64() / block.as_secs_f64();
        writer.abort();
        let pages = support::load(address, &one, requests / 4, concurrency, limit).await;
        let cards = support::load(address, &grid, requests / 4, concurrency, limit).await;
        println!("---");
        println!("{concurrency} concurrent requests over {count} collections:");
        support::print_row("/healthz", &healthz, &healthz);
        support::print_row("/stats, between blocks", &still, &healthz);
        support::print_row(&format!("/stats, a block / {} ms", block.as_millis()), &moving, &healthz);
        support::print_row("a collection's stats", &pages, &healthz);
        support::print_row("collection grid", &cards, &healthz);
        println!("  ({blocks:.0} blocks during the moving workload)");
        println!(
            "every collection's figures read (a fresh read database, 10 times): p50 {:.1} ms, max {:.1} ms",
            passes.ms(50.0),
            passes.ms(100.0)
        );
        println!("  goal: /stats p99 < 25 ms");
    });
}
