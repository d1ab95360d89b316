//! Trait filters and facets under load: `/api/nft/explore/` with two trait filters (a
//! background and a frame) over the read tables of 100,000 NFTs, and `/api/nft/facets` for the
//! same filters, against `/healthz` on the same server in the same run (the cost of HTTP
//! alone); prints requests/s, p50/p99 and the ratio to `/healthz`. Goals (issue 19): ratio >=
//! 0.3, p99 < 25 ms, as plain explore.
//!
//! Workloads: explore with two trait filters, popular pages (a few filters many visitors open:
//! the read cache answers them once computed) and distinct queries (every request a background,
//! frame, sale type, sort, order and page not asked before: each one intersects its bitmaps and
//! reads its rows); facets, distinct (every request a scope's filters not asked before: sale
//! type, category, one or two traits; facets are not cached, so each one counts every value of
//! every trait against the other filters' matches).
//!
//! `cargo bench -p api --bench traits` (NFTS=10000 for a quicker run; REQUESTS and CONCURRENCY
//! to change the load; BENCH_DATA_DIR=dir keeps the marketplace there and reuses it).

mod support;

use domain::EventStore as _;
use std::time::{Duration, Instant};

use projections::test_utils::{BACKGROUNDS, FRAMES};

fn main() {
    let nfts = support::env("NFTS", 100_000) as u64;
    let requests = support::env("REQUESTS", 20_000);
    let concurrency = support::env("CONCURRENCY", 32);
    let (_temporary, dir) = support::data_dir();
    let config = support::config(&dir);
    let server = support::server_runtime();

    let state = server.block_on(async {
        let started = Instant::now();
        let store = api::log::open(&config).await.unwrap();
        if !support::holds_market(store.as_ref()).await {
            support::write_market(store.as_ref(), nfts).await;
        }
        let events = store.head().await.unwrap().0;
        let read = projections::ReadDb::open(&config.read_database_url()).await.unwrap();
        let projector = projections::Projector::new(store.clone(), read.clone()).await.unwrap();
        let at = projector.catch_up().await.unwrap();
        println!("{nfts} NFTs ({events} events) written and projected in {:.1} s", started.elapsed().as_secs_f64());
        // The browse index from the read tables (traits and memberships included), as a server
        // builds it at start.
        let indexing = Instant::now();
        projections::queries::nft::prepare_browse(&read, at).await.unwrap();
        println!("browse index built in {:.2} s", indexing.elapsed().as_secs_f64());
        api::http::AppState::new(config.clone(), store, read, projector.handle()).unwrap()
    });
    let address = support::serve(&server, api::http::app(state, &dir));
    let client = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();

    let two = |background: &str, frame: &str| format!("trait=background:{background}&trait=frame:{frame}");
    // Popular: the first page of a few filters, both orders.
    let popular: Vec<String> = BACKGROUNDS[..4]
        .iter()
        .flat_map(|b| {
            FRAMES
                .iter()
                .flat_map(move |f| ["0", "1"].map(|o| format!("/api/nft/explore/?formOfSale=ALL&sortBy=PRICE&orderBy={o}&{}", two(b, f))))
        })
        .collect();
    let mut distinct = Vec::new();
    for page in 1..=5 {
        for background in BACKGROUNDS {
            for frame in FRAMES {
                for sale in ["ALL", "FIXEDPRICE", "AUCTION", "NOT_FOR_SALE"] {
                    for sort in ["DATE", "PRICE"] {
                        for order in ["0", "1"] {
                            distinct.push(format!(
                                "/api/nft/explore/?formOfSale={sale}&sortBy={sort}&orderBy={order}&page={page}&{}",
                                two(background, frame)
                            ));
                        }
                    }
                }
            }
        }
    }
    let mut categories = vec!["all"];
    categories.extend(domain::catalog::DEFAULT_CATEGORIES.iter().map(|(id, _)| *id));
    let mut facets = Vec::new();
    for category in &categories {
        for sale in ["ALL", "FIXEDPRICE", "AUCTION", "NOT_FOR_SALE"] {
            for background in BACKGROUNDS {
                facets.push(format!("/api/nft/facets?nftCategory={category}&formOfSale={sale}&trait=background:{background}"));
                for frame in FRAMES {
                    facets.push(format!("/api/nft/facets?nftCategory={category}&formOfSale={sale}&{}", two(background, frame)));
                }
            }
        }
    }
    // Spread over filters rather than the first few of one.
    let spread = |paths: &mut Vec<String>| {
        paths.sort_by_key(|path| {
            path.bytes().fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b))).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        })
    };
    spread(&mut distinct);
    spread(&mut facets);
    let distinct_requests = distinct.len().min(requests);
    let health = vec!["/healthz".to_owned()];
    let limit = Duration::from_secs(300);
    client.block_on(async {
        // Warm both paths (connections, caches), then measure each.
        support::load(address, &popular, 500, concurrency, limit).await;
        support::load(address, &health, 2_000, concurrency, limit).await;
        let healthz = support::load(address, &health, requests, concurrency, limit).await;
        let popular_result = support::load(address, &popular, requests, concurrency, limit).await;
        let cold = support::load(address, &distinct, distinct_requests, concurrency, limit).await;
        let facets_result = support::load(address, &facets, requests, concurrency, limit).await;
        let healthz_after = support::load(address, &health, requests, concurrency, limit).await;
        println!("---");
        println!("{concurrency} concurrent requests over {nfts} NFTs (two trait filters):");
        for (name, result) in [
            ("/healthz", &healthz),
            ("explore, 2 traits, popular", &popular_result),
            ("explore, 2 traits, distinct", &cold),
            ("facets (not cached)", &facets_result),
            ("/healthz after", &healthz_after),
        ] {
            support::print_row(name, result, &healthz);
        }
        println!("  goals: ratio >= 0.3, p99 < 25 ms ({} distinct explore queries, {} facet queries)", distinct_requests, facets.len());
    });
}
