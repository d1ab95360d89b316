//! Every list the API serves, at ten times the market's size: 100,000 NFTs and their trades,
//! 10,000 collections, and a signed-in visitor with a wallet that bought about 1,100 of them and
//! bid on about 900, who likes a third of the NFTs and bookmarked a fifth (an admin, so the
//! moderation queue answers too). Against `/healthz` on the same server in the same run; prints
//! each list's requests/s, p50/p99 and ratio to `/healthz`. Goals: p99 < 25 ms, ratio >= 0.3.
//!
//! The lists are not named here: they are read from the server's own OpenAPI document, every GET
//! operation that takes a `page` or a `limit`, so a list added to the router is measured by the
//! next run (one whose path names a parameter this bench has no sample for stops it, naming it).
//! Each list gets two workloads: distinct requests (every combination of its documented values,
//! pages 1-5, and its id filters unset or set, up to `DISTINCT` of them, each asked once, and
//! asked again up to 200 requests when there are fewer) and
//! popular pages (pages 1-3 with the defaults, asked again and again, as between two blocks).
//! Every request is the visitor's (a list that shows signed-in flags does the most work).
//!
//! `cargo bench -p api --bench lists` (NFTS, COLLECTIONS, MEMBERS, REQUESTS, DISTINCT,
//! CONCURRENCY to change it; LISTS=path,path to measure some only; BENCH_DATA_DIR=dir keeps the
//! market there and reuses it). With `DATABASE_URL`/`READ_DATABASE_URL` set it runs on Postgres,
//! and reuses the market a database already holds.

mod support;

use std::{
    collections::BTreeMap,
    time::{Duration, Instant},
};

use domain::{EventStore as _, ExpectedVersion, Metadata};
use projections::test_utils::{CHAIN_ID, address, register_user};
use serde_json::Value;

/// The signed-in visitor.
const VISITOR: uuid::Uuid = uuid::Uuid::from_u128(0x5eed);
/// The visitor's wallets: a buyer's and a first bidder's of the synthetic history (`test_utils::trade`).
const VISITOR_WALLETS: [u64; 2] = [200, 300];
/// The distinct workload's fewest requests (its combinations asked again when fewer).
const MIN_DISTINCT: usize = 200;
/// Goals: p99 under this, in milliseconds ...
const GOAL_P99_MS: f64 = 25.0;
/// ... and at least this share of `/healthz`'s requests/s.
const GOAL_RATIO: f64 = 0.3;

fn main() {
    let nfts = support::env("NFTS", 100_000) as u64;
    let collections = support::env("COLLECTIONS", 10_000) as u64;
    let members = support::env("MEMBERS", 10) as u64;
    let requests = support::env("REQUESTS", 2_000);
    let distinct_cap = support::env("DISTINCT", 400);
    let concurrency = support::env("CONCURRENCY", 32);
    let only: Option<Vec<String>> = std::env::var("LISTS").ok().map(|v| v.split(',').map(str::to_owned).collect());
    let (_temporary, dir) = support::data_dir();
    let config = support::config(&dir);
    let server = support::server_runtime();

    let state = server.block_on(async {
        let started = Instant::now();
        let store = api::log::open(&config).await.unwrap();
        if !support::holds_market(store.as_ref()).await {
            support::write_market(store.as_ref(), nfts).await;
            support::collections(store.as_ref(), collections, members, nfts).await;
            visitor(store.as_ref(), nfts).await;
        }
        let events = store.head().await.unwrap().0;
        let read = projections::ReadDb::open(&config.read_database_url()).await.unwrap();
        let projector = projections::Projector::new(store.clone(), read.clone()).await.unwrap();
        projector.catch_up().await.unwrap();
        println!(
            "{nfts} NFTs, {collections} collections ({events} events) written and projected in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        let handle = projector.handle();
        tokio::spawn(projector.run());
        api::http::AppState::new(config.clone(), store, read, handle).unwrap()
    });
    let token = state.accounts.tokens.issue(VISITOR).unwrap();
    let address = support::serve(&server, api::http::app(state, &dir));
    let samples = Samples { collections };

    let client = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    client.block_on(async {
        let doc: Value = reqwest::get(format!("http://{address}/api/openapi.json")).await.unwrap().json().await.unwrap();
        let mut lists = list_operations(&doc);
        if let Some(only) = &only {
            lists.retain(|(path, _)| only.contains(path));
        }
        println!("{} lists in the OpenAPI document (GET operations taking page or limit)", lists.len());
        let health = vec!["/healthz".to_owned()];
        let limit = Duration::from_secs(900);
        support::load(address, &health, 2_000, concurrency, limit).await;
        let healthz = support::load(address, &health, requests * 2, concurrency, limit).await;
        println!("---");
        println!("{concurrency} concurrent requests, signed in; goals: p99 < {GOAL_P99_MS} ms, ratio >= {GOAL_RATIO}");
        support::print_row("/healthz", &healthz, &healthz);
        let mut missed = Vec::new();
        for (path, parameters) in &lists {
            let distinct = distinct_requests(&doc, path, parameters, &samples, distinct_cap);
            let popular: Vec<String> = (1..=3).map(|page| with_query(&samples.path(path, page), &[("page", page.to_string())])).collect();
            // Warm the connections and what a first request builds (indexes, kept figures).
            support::load_as(address, &popular, Some(&token), 50, concurrency, limit).await;
            // A list with few combinations asks them over again, up to a rate worth reading.
            let cold = support::load_as(address, &distinct, Some(&token), distinct.len().max(MIN_DISTINCT), concurrency, limit).await;
            let warm = support::load_as(address, &popular, Some(&token), requests, concurrency, limit).await;
            println!("{path}");
            support::print_row(&format!("  distinct ({})", distinct.len()), &cold, &healthz);
            support::print_row("  pages 1-3", &warm, &healthz);
            for (what, result) in [("distinct", &cold), ("pages 1-3", &warm)] {
                let ratio = result.per_second / healthz.per_second;
                if result.latencies.ms(99.0) >= GOAL_P99_MS || ratio < GOAL_RATIO {
                    missed.push(format!("{path} {what}: p99 {:.2} ms, ratio {ratio:.3}", result.latencies.ms(99.0)));
                }
            }
        }
        let after = support::load(address, &health, requests * 2, concurrency, limit).await;
        println!("---");
        println!("/healthz after the lists: {:.0} req/s (before: {:.0})", after.per_second, healthz.per_second);
        if missed.is_empty() {
            println!("every list met both goals");
        } else {
            println!("{} of {} workloads missed a goal:", missed.len(), lists.len() * 2);
            for line in missed {
                println!("  {line}");
            }
        }
    });
}

/// The GET operations that take a `page` or a `limit`, with their parameters, by path.
fn list_operations(doc: &Value) -> Vec<(String, Vec<Value>)> {
    let mut lists = BTreeMap::new();
    for (path, operations) in doc["paths"].as_object().expect("paths") {
        let Some(get) = operations.get("get") else { continue };
        let parameters = get["parameters"].as_array().cloned().unwrap_or_default();
        let paged = parameters.iter().any(|p| p["in"] == "query" && matches!(p["name"].as_str(), Some("page" | "limit")));
        if paged {
            lists.insert(path.clone(), parameters);
        }
    }
    lists.into_iter().collect()
}

/// Values for the ids a path or a filter names.
struct Samples {
    collections: u64,
}

impl Samples {
    /// `path` with its `{parameters}` filled by the `i`-th sample of each.
    fn path(&self, path: &str, i: usize) -> String {
        let mut out = String::new();
        let mut rest = path;
        while let Some(open) = rest.find('{') {
            let close = rest[open..].find('}').expect("a closed parameter") + open;
            out.push_str(&rest[..open]);
            out.push_str(
                &self.value(&rest[open + 1..close], i).unwrap_or_else(|| panic!("no sample for {path}'s {}", &rest[open..=close])),
            );
            rest = &rest[close + 1..];
        }
        out + rest
    }

    /// The `i`-th sample of an id parameter, if it is one this bench knows.
    fn value(&self, name: &str, i: usize) -> Option<String> {
        // Auctions of the synthetic history: tokens t with t % 7 in {4, 5}, auction id t.
        let auction_token = 4 + (i as u64 / 2) * 7 + (i as u64 % 2);
        Some(match name {
            "userId" => if i.is_multiple_of(2) { VISITOR } else { support::creator_user(1 + i as u64 % support::CREATORS) }.to_string(),
            "collectionId" => support::collection_id(i as u64 * 7 % self.collections).to_string(),
            "nftId" => format!("{CHAIN_ID}-{auction_token}"),
            "auctionId" => auction_token.to_string(),
            _ => return None,
        })
    }
}

/// `path` with `query` appended.
fn with_query(path: &str, query: &[(&str, String)]) -> String {
    if query.is_empty() {
        return path.to_owned();
    }
    let pairs: Vec<String> = query.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!("{path}?{}", pairs.join("&"))
}

/// The schema of a parameter with its `$ref` followed.
fn schema<'a>(doc: &'a Value, parameter: &'a Value) -> &'a Value {
    let mut schema = &parameter["schema"];
    while let Some(reference) = schema["$ref"].as_str() {
        let name = reference.rsplit('/').next().unwrap();
        schema = &doc["components"]["schemas"][name];
    }
    schema
}

/// The values a query parameter takes in the distinct workload (`None`: left unset).
fn values(doc: &Value, parameter: &Value, samples: &Samples) -> Vec<Option<String>> {
    let name = parameter["name"].as_str().unwrap();
    let schema = schema(doc, parameter);
    if name == "page" {
        return (1..=5).map(|p| Some(p.to_string())).collect();
    }
    if let Some(values) = schema["enum"].as_array() {
        return values.iter().map(|v| Some(v.as_str().map(str::to_owned).unwrap_or_else(|| v.to_string()))).collect();
    }
    if schema["type"] == "boolean" {
        return vec![None, Some("true".into())];
    }
    match samples.value(name, 0) {
        // An id filter: unset, or one of a few.
        Some(_) => std::iter::once(None).chain((0..3).map(|i| samples.value(name, i))).collect(),
        // `limit` keeps its default; free text (search, trait) is explore's bench's.
        None => vec![None],
    }
}

/// Every combination of the list's query values with its path samples, spread and cut to `cap`.
fn distinct_requests(doc: &Value, path: &str, parameters: &[Value], samples: &Samples, cap: usize) -> Vec<String> {
    let query: Vec<(&str, Vec<Option<String>>)> =
        parameters.iter().filter(|p| p["in"] == "query").map(|p| (p["name"].as_str().unwrap(), values(doc, p, samples))).collect();
    let mut combinations: Vec<Vec<(&str, String)>> = vec![Vec::new()];
    for (name, values) in &query {
        combinations = combinations
            .into_iter()
            .flat_map(|chosen| {
                values.iter().map(move |value| {
                    let mut next = chosen.clone();
                    if let Some(value) = value {
                        next.push((*name, value.clone()));
                    }
                    next
                })
            })
            .collect();
    }
    let mut requests: Vec<String> =
        combinations.iter().enumerate().map(|(i, query)| with_query(&samples.path(path, i % 8), query)).collect();
    requests.sort_by_key(|path| {
        path.bytes().fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b))).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    });
    requests.dedup();
    requests.truncate(cap);
    requests
}

/// The visitor: registered with a buyer's and a bidder's wallets, an admin, liking every third
/// NFT and bookmarking every fifth.
async fn visitor(store: &dyn domain::EventStore, nfts: u64) {
    use domain::{
        accounts::{WalletProvider, user_stream},
        moderation::{ModerationEvent, ROLES_STREAM, Role},
        social::{SocialEvent, social_stream},
    };
    let at = chrono::Utc::now();
    register_user(store, VISITOR, "visitor", &address(VISITOR_WALLETS[0]), at).await;
    let second = domain::accounts::UserEvent::WalletLinked { provider: WalletProvider::Other, address: address(VISITOR_WALLETS[1]), at };
    store.append(&user_stream(VISITOR), ExpectedVersion::Any, vec![second.to_new_event(Metadata::default()).unwrap()]).await.unwrap();
    let admin = ModerationEvent::RoleGranted { user_id: VISITOR, role: Role::Admin, by: None, at };
    store.append(ROLES_STREAM, ExpectedVersion::Any, vec![admin.to_new_event(Metadata::default()).unwrap()]).await.unwrap();
    let social: Vec<SocialEvent> = (1..=nfts)
        .flat_map(|token| {
            let nft_id = format!("{CHAIN_ID}-{token}");
            let like = (token % 3 == 0).then(|| SocialEvent::NftLiked { user_id: VISITOR, nft_id: nft_id.clone(), at });
            let bookmark = (token % 5 == 0).then_some(SocialEvent::NftBookmarked { user_id: VISITOR, nft_id, at });
            like.into_iter().chain(bookmark)
        })
        .collect();
    for chunk in social.chunks(1_000) {
        let events = chunk.iter().map(|e| e.to_new_event(Metadata::default()).unwrap()).collect();
        store.append(&social_stream(VISITOR), ExpectedVersion::Any, events).await.unwrap();
    }
}
