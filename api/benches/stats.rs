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

use domain::{
    ExpectedVersion, Metadata,
    collections::{CollectionEvent, collection_stream},
};
use projections::{
    queries::{
        Page,
        insight::{self, Period, Ranking, StatsSort},
    },
    test_utils::{CHAIN_ID, address, market_history, register_user},
};

/// Members per collection.
const MEMBERS: u64 = 20;
/// The synthetic history's creators (`test_utils`: token `t` is created by `address(1 + t % 97)`).
const CREATORS: u64 = 97;

fn creator_user(k: u64) -> uuid::Uuid {
    uuid::Uuid::from_u128(0xc0_0000 + u128::from(k))
}

fn collection_id(c: u64) -> uuid::Uuid {
    uuid::Uuid::from_u128(0xc011_0000_0000 + u128::from(c))
}

/// `collections` collections: the `i`-th of creator `k` holds `MEMBERS` of the tokens `k` created.
async fn collections(store: &dyn domain::EventStore, collections: u64, nfts: u64) -> usize {
    let at = chrono::Utc::now();
    for k in 1..=CREATORS {
        register_user(store, creator_user(k), &format!("creator{k}"), &address(k), at).await;
    }
    let mut members = 0;
    for c in 0..collections {
        let k = 1 + c % CREATORS;
        let i = c / CREATORS;
        let id = collection_id(c);
        let mut events = vec![CollectionEvent::CollectionCreated {
            collection_id: id,
            creator_user_id: creator_user(k),
            title: format!("Collection {c}"),
            image: "bafyimage".into(),
            at,
        }];
        for m in 0..MEMBERS {
            let token = (k - 1) + CREATORS * (i * MEMBERS + m);
            if (1..=nfts).contains(&token) {
                events.push(CollectionEvent::NftAddedToCollection { nft_id: format!("{CHAIN_ID}-{token}"), at });
                members += 1;
            }
        }
        let events = events.iter().map(|e| e.to_new_event(Metadata::default()).unwrap()).collect();
        store.append(&collection_stream(id), ExpectedVersion::NoStream, events).await.unwrap();
    }
    members
}

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
        api::node::bootstrap::seed_categories(store.as_ref()).await.unwrap();
        for writes in market_history(nfts) {
            store.append_streams(writes).await.unwrap();
        }
        let members = collections(store.as_ref(), count, nfts).await;
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
    let one: Vec<String> = (0..count).step_by(7).map(|c| format!("/api/stats/collection/{}", collection_id(c))).collect();
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
                let user = creator_user(1);
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
