//! A hostile minter's image: the file store's growth over `REFRESHES` (1,000) refreshes of one
//! token whose image is `IMAGE_BYTES` (1 MiB) of random bytes behind a PNG header, new random
//! bytes at each request, as a server that wants to fill the disk answers.
//!
//! The token is minted as the indexer appends a mint, then each refresh is appended as the
//! refresh call appends it (without the call's one-a-minute limit) and the fetcher reads the
//! token as the elected process does (`Fetcher::run_once`). The store is measured on disk (the
//! files folder with its foreign-image list, and the renditions folder) before the first refresh
//! and after the last; beside the growth, the bytes the server sent: what the store grew by when
//! anything that started like a PNG was stored.
//!
//! `cargo bench -p api --bench foreign_files` (`REFRESHES`, `IMAGE_BYTES`).

mod support;

use domain::EventStore as _;
use std::{collections::HashMap, path::Path, time::Instant};

use axum::{Router, extract::State, http::header, routing::get};
use chrono::Utc;
use domain::{
    ExpectedVersion, Metadata, StreamAppend,
    chain::{ChainEvent, Origin},
    metadata::MetadataEvent,
};

const CHAIN_ID: u64 = 80001;

/// `len` bytes: a PNG header, then random bytes (xorshift from `seed`).
fn noise_png(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
    while bytes.len() < len {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        bytes.extend_from_slice(&x.to_le_bytes());
    }
    bytes.truncate(len);
    bytes
}

/// Bytes and files under `dir`, recursively.
fn disk_usage(dir: &Path) -> (u64, usize) {
    let Ok(entries) = std::fs::read_dir(dir) else { return (0, 0) };
    entries.flatten().fold((0, 0), |(bytes, files), entry| {
        let meta = entry.metadata().unwrap();
        if meta.is_dir() {
            let (b, f) = disk_usage(&entry.path());
            (bytes + b, files + f)
        } else {
            (bytes + meta.len(), files + 1)
        }
    })
}

fn main() {
    let refreshes = support::env("REFRESHES", 1_000);
    let image_bytes = support::env("IMAGE_BYTES", 1024 * 1024);
    let dir = tempfile::tempdir().unwrap();
    let runtime = support::server_runtime();
    runtime.block_on(async move {
        // The hostile server: new random bytes behind a PNG header at each request.
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let server = listener.local_addr().unwrap();
        let served = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let app = Router::new()
            .route("/token.json", get(move || async move { format!(r#"{{"name": "Noise", "image": "http://{server}/image.png"}}"#) }))
            .route(
                "/image.png",
                get(move |State(served): State<std::sync::Arc<std::sync::atomic::AtomicU64>>| async move {
                    let n = served.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    (
                        [(header::CONTENT_TYPE, "image/png")],
                        noise_png(image_bytes, 0x9e37_79b9_7f4a_7c15 ^ n.wrapping_mul(0x2545_f491_4f6c_dd1d)),
                    )
                }),
            )
            .with_state(served.clone());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });

        let mut config = support::config(dir.path());
        config.metadata_delay_secs = 0;
        config.metadata_allow_http = true;
        config.metadata_allowed_hosts = vec![server.to_string()];
        let store = api::log::open(&config).await.unwrap();
        let read = projections::ReadDb::open(&config.read_database_url()).await.unwrap();
        let projector = projections::Projector::new(store.clone(), read.clone()).await.unwrap();
        let handle = projector.handle();
        tokio::spawn(projector.run());
        let state = api::http::AppState::new(config, store.clone(), read.clone(), handle.clone()).unwrap();
        let folders = [state.config.files_dir(), state.renditions.dir().to_owned()];
        let on_disk = || folders.iter().map(|dir| disk_usage(dir)).fold((0, 0), |(b, f), (db, df)| (b + db, f + df));

        let mint = ChainEvent::NftMinted {
            token_id: "1".into(),
            creator: "0x00000000000000000000000000000000000000aa".into(),
            token_uri: format!("http://{server}/token.json"),
            royalties: vec![],
            origin: Origin { block_number: 1, block_time: 1_767_225_600, tx_hash: format!("0x{:064x}", 1), log_index: 0 },
        };
        let append = StreamAppend {
            stream_id: mint.stream_id(CHAIN_ID),
            expected: ExpectedVersion::Any,
            events: vec![mint.to_new_event(uuid::Uuid::new_v4(), Metadata::default()).unwrap()],
        };
        state.projected(store.append_streams(vec![append]).await.unwrap().last_position).await;

        let fetcher = api::node::metadata::Fetcher::new(state.node.clone());
        let mut seen = HashMap::new();
        let (before, files_before) = on_disk();
        let started = Instant::now();
        for _ in 0..refreshes {
            let refresh = MetadataEvent::TokenMetadataRefreshRequested { chain_id: CHAIN_ID, token_id: "1".into(), at: Utc::now() };
            state.projected(refresh.record(store.as_ref(), Metadata::default()).await.unwrap()).await;
            assert_eq!(fetcher.run_once(&mut seen).await.unwrap(), 1, "the refreshed token is read");
        }
        let elapsed = started.elapsed();
        let (after, files_after) = on_disk();
        let status = projections::queries::metadata::status(&read, &format!("{CHAIN_ID}-1")).await.unwrap().unwrap();
        let fetched = served.load(std::sync::atomic::Ordering::Relaxed);

        println!("{refreshes} refreshes of a token whose image is {image_bytes} random bytes behind a PNG header");
        println!(
            "  file store growth:        {:>12} bytes  ({} files before, {} after)",
            after as i128 - before as i128,
            files_before,
            files_after
        );
        println!("  bytes the server sent:    {:>12} bytes  ({fetched} images)", fetched * image_bytes as u64);
        println!("  time per refresh:         {:>12.2} ms", elapsed.as_secs_f64() * 1e3 / refreshes as f64);
        println!("  the token's state:        {} ({})", status.status, status.reason);
    });
}
