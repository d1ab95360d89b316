//! Browse under load: `/api/nft/explore/` with a full-text search and a price sort over the read
//! tables of 100,000 NFTs, against `/healthz` on the same server in the same run (the cost of
//! HTTP alone); prints requests/s, p50/p99 and the ratio to `/healthz`. Goals: ratio >= 0.3,
//! explore p99 < 25 ms.
//!
//! Three workloads: popular pages (48 searches and pages many visitors open; answered from the
//! read cache once computed, as between two blocks), the same pages for a signed-in visitor who
//! likes a third of the NFTs and bookmarked a fifth (the shared cached answer with the visitor's
//! flags laid over it: one query over the page's ids), and distinct queries (every request a
//! search, category, sale type, order and page not asked before: each one runs its SQL).
//!
//! Then trending, on the same server: `/api/nft/trendingnfts` pages 1-3 of each sale type and
//! `/api/trendingcreators` (SELLER, CREATOR), as the home page asks them (between two blocks);
//! and trending pages not asked before (sale types, pages 1-10 and page sizes 5-30: each one
//! computes its list). The market's sales are old; the visitor's likes, a third of the NFTs,
//! are in the trending window, so a third of the NFTs have a score.
//!
//! A market open to the public hides some of what is minted: 1% of the NFTs (`HIDDEN_EVERY=100`)
//! are hidden by a moderator before the load, so every workload answers around them. Last, the
//! time a hiding takes to reach the lists: rounds of hiding the first NFT of a browse page and
//! polling that page until it is gone, beside the projector's own lag for the same event (goal:
//! the same, p50 < 10 ms).
//!
//! `cargo bench -p api --bench explore` (NFTS=10000 for a quicker run; REQUESTS and
//! CONCURRENCY to change the load, TRENDING_REQUESTS the trending workloads'; BENCH_DATA_DIR=dir keeps the marketplace there and reuses
//! it on the next run instead of writing it again).

mod support;

use domain::EventStore as _;
use std::time::{Duration, Instant};

/// The searches: each word is in the titles or descriptions of a share of the tokens.
const SEARCHES: [&str; 8] = ["cosmic", "golden tiger", "neon", "dragon", "lunar", "velvet mask", "river", "solar"];

fn main() {
    let nfts = support::env("NFTS", 100_000) as u64;
    let requests = support::env("REQUESTS", 20_000);
    let concurrency = support::env("CONCURRENCY", 32);
    let (_temporary, dir) = support::data_dir();
    let config = support::config(&dir);
    let server = support::server_runtime();

    // The marketplace after `nfts` tokens were minted and traded, folded into its read tables.
    let state = server.block_on(async {
        let started = Instant::now();
        let store = api::log::open(&config).await.unwrap();
        let mut events = store.head().await.unwrap().0;
        if !support::holds_market(store.as_ref()).await {
            support::write_market(store.as_ref(), nfts).await;
            events = signed_in_visitor(store.as_ref(), nfts).await;
            let every = support::env("HIDDEN_EVERY", 100).max(1);
            for token in ((every as u64 / 2).max(1)..=nfts).step_by(every) {
                events = hide(store.as_ref(), &format!("{}-{token}", projections::test_utils::CHAIN_ID)).await;
            }
        }
        let read = projections::ReadDb::open(&config.read_database_url()).await.unwrap();
        let projector = projections::Projector::new(store.clone(), read.clone()).await.unwrap();
        projector.catch_up().await.unwrap();
        println!("{nfts} NFTs ({events} events) written and projected in {:.1} s", started.elapsed().as_secs_f64());
        let handle = projector.handle();
        tokio::spawn(projector.run());
        api::http::AppState::new(config.clone(), store, read, handle).unwrap()
    });
    let (store, projector) = (state.store.clone(), state.projector.clone());
    let token = state.accounts.tokens.issue(VISITOR).unwrap();
    let address = support::serve(&server, api::http::app(state, &dir));

    let client = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let explore: Vec<String> = SEARCHES
        .iter()
        .flat_map(|search| {
            (1..=3).flat_map(move |page| {
                ["0", "1"].map(|order| {
                    format!(
                        "/api/nft/explore/?formOfSale=ALL&sortBy=PRICE&orderBy={order}&page={page}&search={}",
                        search.replace(' ', "%20")
                    )
                })
            })
        })
        .collect();
    let mut categories = vec!["all"];
    categories.extend(domain::catalog::DEFAULT_CATEGORIES.iter().map(|(id, _)| *id));
    let mut distinct = Vec::new();
    for page in 1..=10 {
        for search in SEARCHES {
            for category in &categories {
                for sale in ["ALL", "FIXEDPRICE", "AUCTION", "NOT_FOR_SALE"] {
                    for order in ["0", "1"] {
                        distinct.push(format!(
                            "/api/nft/explore/?nftCategory={category}&formOfSale={sale}&sortBy=PRICE&orderBy={order}&page={page}&search={}",
                            search.replace(' ', "%20")
                        ));
                    }
                }
            }
        }
    }
    let distinct_requests = distinct.len().min(requests);
    let trending_requests = support::env("TRENDING_REQUESTS", 1_000);
    let trending_nfts: Vec<String> = ["ALL", "FIXEDPRICE", "AUCTION", "NOT_FOR_SALE"]
        .iter()
        .flat_map(|sale| (1..=3).map(move |page| format!("/api/nft/trendingnfts?formOfSale={sale}&page={page}")))
        .collect();
    let trending_people: Vec<String> = ["SELLER", "CREATOR"].iter().map(|kind| format!("/api/trendingcreators?type={kind}")).collect();
    let mut trending_distinct = Vec::new();
    for limit in 5..=30 {
        for page in 1..=10 {
            for sale in ["ALL", "FIXEDPRICE", "AUCTION", "NOT_FOR_SALE"] {
                trending_distinct.push(format!("/api/nft/trendingnfts?formOfSale={sale}&page={page}&limit={limit}"));
            }
        }
    }
    // Spread over sale types and pages rather than the first few of one.
    trending_distinct.sort_by_key(|path| {
        let hash = path.bytes().fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
        hash.wrapping_mul(0x9e37_79b9_7f4a_7c15)
    });
    let trending_distinct_requests = trending_distinct.len().min(trending_requests);
    let health = vec!["/healthz".to_owned()];
    let limit = Duration::from_secs(300);
    client.block_on(async {
        // Warm both paths (connections, caches), then measure each.
        support::load(address, &explore, 500, concurrency, limit).await;
        support::load(address, &health, 2_000, concurrency, limit).await;
        let healthz = support::load(address, &health, requests, concurrency, limit).await;
        let popular = support::load(address, &explore, requests, concurrency, limit).await;
        let signed_in = support::load_as(address, &explore, Some(&token), requests, concurrency, limit).await;
        let cold = support::load(address, &distinct, distinct_requests, concurrency, limit).await;
        let trending_limit = Duration::from_secs(1_800);
        let trending = support::load(address, &trending_nfts, trending_requests, concurrency, trending_limit).await;
        let people = support::load(address, &trending_people, trending_requests, concurrency, trending_limit).await;
        let trending_cold = support::load(address, &trending_distinct, trending_distinct_requests, concurrency, trending_limit).await;
        let healthz_after = support::load(address, &health, requests, concurrency, limit).await;
        println!("---");
        println!("{concurrency} concurrent requests over {nfts} NFTs (search + price sort):");
        for (name, result) in [
            ("/healthz", &healthz),
            ("explore, popular pages", &popular),
            ("  the same, signed in", &signed_in),
            ("explore, distinct queries", &cold),
        ] {
            support::print_row(name, result, &healthz);
        }
        println!("  goals: ratio >= 0.3, p99 < 25 ms");
        println!("trending over the same {nfts} NFTs ({:.0} req/s on /healthz after them):", healthz_after.per_second);
        for (name, result) in
            [("trendingnfts, pages 1-3", &trending), ("trendingcreators", &people), ("trendingnfts, distinct", &trending_cold)]
        {
            support::print_row(name, result, &healthz);
        }

        let rounds = support::env("HIDE_ROUNDS", 50);
        let (hiding, projected) = hiding_lag(address, store.as_ref(), &projector, rounds).await;
        println!("hiding the first NFT of a browse page, {rounds} rounds, from the append:");
        println!("  gone from the page : p50 {:>7.2} ms  p99 {:>7.2} ms  (goal p50 < 10 ms)", hiding.ms(50.0), hiding.ms(99.0));
        println!("  projector applied  : p50 {:>7.2} ms  p99 {:>7.2} ms  (the same event's lag)", projected.ms(50.0), projected.ms(99.0));
    });
}

/// Hides `nft_id` as a moderator would (a `TargetHidden` event); the log's position after it.
async fn hide(store: &dyn domain::EventStore, nft_id: &str) -> domain::Position {
    use domain::moderation::{ModerationEvent, TargetKind, target_stream};
    let event = ModerationEvent::TargetHidden {
        target_kind: TargetKind::Nft,
        target_id: nft_id.to_owned(),
        moderator_id: MODERATOR,
        reason: "Reported and found to be a scam".into(),
        report_ids: Vec::new(),
        at: chrono::Utc::now(),
    };
    let events = vec![event.to_new_event(domain::Metadata::default()).unwrap()];
    store.append(&target_stream(TargetKind::Nft, nft_id), domain::ExpectedVersion::Any, events).await.unwrap().last_position
}

/// The moderator of the hidden NFTs.
const MODERATOR: uuid::Uuid = uuid::Uuid::from_u128(0x0d);

/// `rounds` times: hides the first NFT of a browse page and polls the page (every 0.2 ms) until
/// it is gone; the times from the append to that, and to the projector having applied it.
async fn hiding_lag(
    address: std::net::SocketAddr,
    store: &dyn domain::EventStore,
    projector: &projections::ProjectorHandle,
    rounds: usize,
) -> (support::Latencies, support::Latencies) {
    let url = format!("http://{address}/api/nft/explore/?formOfSale=ALL&sortBy=PRICE&orderBy=1&page=1");
    let client = reqwest::Client::new();
    let first = |body: &serde_json::Value| body["body"]["data"][0]["_id"].as_str().map(str::to_owned);
    let (mut gone, mut applied) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let page: serde_json::Value = client.get(&url).send().await.unwrap().json().await.unwrap();
        let nft_id = first(&page).expect("a page with NFTs");
        let mut watch = projector.subscribe();
        let started = Instant::now();
        let at = hide(store, &nft_id).await;
        let projected = async {
            watch.wait_for(|p| *p >= at).await.unwrap();
            started.elapsed()
        };
        let left = async {
            loop {
                let page: serde_json::Value = client.get(&url).send().await.unwrap().json().await.unwrap();
                if first(&page).as_deref() != Some(nft_id.as_str()) {
                    return started.elapsed();
                }
                assert!(started.elapsed() < Duration::from_secs(10), "{nft_id} still listed 10 s after its hiding");
                tokio::time::sleep(Duration::from_micros(200)).await;
            }
        };
        let (projected, left) = tokio::join!(projected, left);
        applied.push(projected);
        gone.push(left);
    }
    (support::Latencies::new(gone), support::Latencies::new(applied))
}

/// The signed-in visitor of the third workload.
const VISITOR: uuid::Uuid = uuid::Uuid::from_u128(0x5eed);

/// A verified user who likes every third NFT and bookmarked every fifth; the log's last position.
async fn signed_in_visitor(store: &dyn domain::EventStore, nfts: u64) -> domain::Position {
    use domain::{ExpectedVersion, Metadata, accounts::UserEvent, social::SocialEvent};
    let at = chrono::Utc::now();
    let registered = UserEvent::UserRegistered {
        user_id: VISITOR,
        email: "visitor@example.com".into(),
        username: "visitor".into(),
        full_name: "Visitor".into(),
        password_hash: "$argon2id$unused".into(),
        auth_provider: domain::accounts::AuthProvider::Email,
        at,
    };
    let events = [registered, UserEvent::AccountVerified { at }].map(|e| e.to_new_event(Metadata::default()).unwrap()).to_vec();
    let mut last = store.append(&domain::accounts::user_stream(VISITOR), ExpectedVersion::NoStream, events).await.unwrap().last_position;
    let social: Vec<SocialEvent> = (1..=nfts)
        .flat_map(|token| {
            let nft_id = format!("{}-{token}", projections::test_utils::CHAIN_ID);
            let like = (token % 3 == 0).then(|| SocialEvent::NftLiked { user_id: VISITOR, nft_id: nft_id.clone(), at });
            let bookmark = (token % 5 == 0).then_some(SocialEvent::NftBookmarked { user_id: VISITOR, nft_id, at });
            like.into_iter().chain(bookmark)
        })
        .collect();
    for chunk in social.chunks(1_000) {
        let events = chunk.iter().map(|e| e.to_new_event(Metadata::default()).unwrap()).collect();
        last = store.append(&domain::social::social_stream(VISITOR), ExpectedVersion::Any, events).await.unwrap().last_position;
    }
    last
}
