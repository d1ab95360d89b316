//! Metadata of tokens minted elsewhere: the time until the last of `TOKENS` (10,000) tokens
//! minted by a script shows its metadata, each an `ipfs://` JSON in the local file store naming
//! its own `ipfs://` image, against the bare reads of the same files from the same store in the
//! same run (the floor: what reading them costs without checking, recording and projecting).
//!
//! The mints are appended as the indexer appends them (`NftMinted` in the token's chain stream,
//! 100 tokens per block write) rather than sent to anvil, so the figure is the fetcher's alone.
//! The fetcher then runs as the elected process runs it (`Fetcher::run_once` until nothing is
//! due, `METADATA_CONCURRENCY` reads at a time, the projector folding its events meanwhile); the
//! clock stops when the read tables show the last token `FETCHED`.
//!
//! `cargo bench -p api --bench metadata` (TOKENS=1000 for a quicker run).

mod support;

use domain::EventStore as _;
use std::{
    collections::HashMap,
    io::Cursor,
    time::{Duration, Instant},
};

use domain::{
    ExpectedVersion, Metadata, StreamAppend,
    chain::{ChainEvent, Origin},
};
use futures::StreamExt as _;

const CHAIN_ID: u64 = 80001;

/// A small PNG of its own for token `n` (4x4, its colour from `n`).
fn png(n: usize) -> Vec<u8> {
    let colour = image::Rgb([(n % 251) as u8, (n / 251 % 251) as u8, (n / 63_001) as u8]);
    let mut bytes = Vec::new();
    image::RgbImage::from_pixel(4, 4, colour).write_to(&mut Cursor::new(&mut bytes), image::ImageFormat::Png).unwrap();
    bytes
}

fn main() {
    let tokens = support::env("TOKENS", 10_000);
    let dir = tempfile::tempdir().unwrap();
    let mut config = support::config(dir.path());
    config.metadata_delay_secs = 0;
    let concurrency = config.metadata_concurrency;
    let runtime = support::server_runtime();
    runtime.block_on(async move {
        let store = api::log::open(&config).await.unwrap();
        let read = projections::ReadDb::open(&config.read_database_url()).await.unwrap();
        let projector = projections::Projector::new(store.clone(), read.clone()).await.unwrap();
        let handle = projector.handle();
        tokio::spawn(projector.run());
        let state = api::http::AppState::new(config, store.clone(), read.clone(), handle.clone()).unwrap();

        // The files, as a script's author would have put them on IPFS.
        let mut files = Vec::with_capacity(tokens);
        for n in 1..=tokens {
            let image = state.files.put(png(n)).await.unwrap().cid;
            let metadata = serde_json::json!({
                "name": format!("Script token {n}"),
                "description": format!("Token {n}, minted without the UI."),
                "image": format!("ipfs://{image}"),
                "attributes": [{"trait_type": "Colour", "value": format!("#{:06x}", n)}, {"trait_type": "Rank", "value": n % 100}],
            });
            let metadata = state.files.put(metadata.to_string().into_bytes()).await.unwrap().cid;
            files.push((metadata, image));
        }

        // The mints, as the indexer appends them.
        for (block, chunk) in files.chunks(100).enumerate() {
            let writes = chunk
                .iter()
                .enumerate()
                .map(|(i, (metadata, _))| {
                    let token = block * 100 + i + 1;
                    let event = ChainEvent::NftMinted {
                        token_id: token.to_string(),
                        creator: "0x00000000000000000000000000000000000000aa".into(),
                        token_uri: format!("ipfs://{metadata}"),
                        royalties: vec![],
                        origin: Origin {
                            block_number: block as u64 + 1,
                            block_time: 1_767_225_600,
                            tx_hash: format!("0x{token:064x}"),
                            log_index: i as u64,
                        },
                    };
                    StreamAppend {
                        stream_id: event.stream_id(CHAIN_ID),
                        expected: ExpectedVersion::Any,
                        events: vec![event.to_new_event(uuid::Uuid::new_v4(), Metadata::default()).unwrap()],
                    }
                })
                .collect();
            store.append_streams(writes).await.unwrap();
        }
        let head = store.head().await.unwrap().0;
        handle.wait_for(head, Duration::from_secs(300)).await.unwrap();

        // The floor: the same files read from the store, as many at a time.
        let started = Instant::now();
        let bytes: usize = futures::stream::iter(files.iter().map(|(metadata, image)| {
            let files = state.files.clone();
            async move { files.get(metadata).await.unwrap().unwrap().len() + files.get(image).await.unwrap().unwrap().len() }
        }))
        .buffer_unordered(concurrency)
        .fold(0, |sum, n| async move { sum + n })
        .await;
        let bare = started.elapsed();

        // The fetcher, until the last token shows its metadata.
        let fetcher = api::node::metadata::Fetcher::new(state.node.clone());
        let mut seen = HashMap::new();
        let started = Instant::now();
        while fetcher.run_once(&mut seen).await.unwrap() > 0 {}
        let head = store.head().await.unwrap().0;
        handle.wait_for(head, Duration::from_secs(300)).await.unwrap();
        let fetched = started.elapsed();

        let count: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM nft_metadata WHERE status = 'FETCHED'").fetch_one(&read.pool()).await.unwrap();
        assert_eq!(count as usize, tokens, "every token's metadata fetched");
        let last = projections::queries::nft::detail(&read, &format!("{CHAIN_ID}-{tokens}")).await.unwrap().unwrap();
        assert_eq!(last.title, format!("Script token {tokens}"));

        let ratio = fetched.as_secs_f64() / bare.as_secs_f64();
        println!("metadata of {tokens} script-minted tokens from local IPFS files ({concurrency} at a time)");
        println!(
            "  time to the last one:        {:>8.2} s  ({:.0} tokens/s)",
            fetched.as_secs_f64(),
            tokens as f64 / fetched.as_secs_f64()
        );
        println!("  bare reads of the same files: {:>8.3} s  ({} files, {:.1} MB)", bare.as_secs_f64(), tokens * 2, bytes as f64 / 1e6);
        println!("  ratio (fetch / bare reads):   {ratio:>8.1}");
    });
}
