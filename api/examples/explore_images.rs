//! A data directory for issue 11's image figure: `NFTS` NFTs (default 100,000), minted as
//! `benches/explore.rs` writes them, half of them traded and half still listed as minted (so
//! /explore, which lists fixed-price sales, shows about 28,500), whose images are real files in the file store: `IMAGES`
//! distinct generated pictures (default 36) at upload size (1600 x 1600; two in three JPEG, one in
//! three PNG), reused across the tokens (token `t` shows picture `t % IMAGES`, so neighbouring
//! cards differ). The pictures are stored as the API stores an upload (`files::store_upload`), so
//! their renditions are made right after each is stored, as on a real server, and the program
//! waits for them. The read tables are projected before it ends, so a server starts on it at once.
//!
//!   cargo run --release -p api --example explore_images -- <data dir>
//!   target/release/marketplace --data-dir <data dir> --listen 127.0.0.1:8080 --ui-dir ui/dist serve
//!
//! (`scripts/explore-image-figure` does both and runs `ui/scripts/image-figures.mjs` on /explore.)

use std::{io::Cursor, path::PathBuf, sync::Arc, time::Instant};

use image::{DynamicImage, ImageFormat, Rgb, RgbImage};
use projections::test_utils::market_history_with_files;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Picture `n`: a diagonal gradient in its own hues, rings around a centre of its own, and
/// grain (so it compresses like a photo or a painting, not like a flat logo).
fn picture(n: u64, side: u32) -> DynamicImage {
    let hue = |shift: u64| ((n * 47 + shift) % 256) as f32;
    let (a, b, c) = (hue(0), hue(85), hue(170));
    let (cx, cy) = ((side as f32) * (0.3 + 0.4 * ((n % 5) as f32 / 4.0)), (side as f32) * (0.3 + 0.4 * ((n % 7) as f32 / 6.0)));
    let mut seed = n.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    DynamicImage::ImageRgb8(RgbImage::from_fn(side, side, |x, y| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let grain = (seed % 24) as f32 - 12.0;
        let t = (x + y) as f32 / (2 * side) as f32;
        let ring = (((x as f32 - cx).hypot(y as f32 - cy) / (18.0 + (n % 9) as f32 * 6.0)).sin() + 1.0) * 40.0;
        let channel = |base: f32| (base * (1.0 - t) + (255.0 - base) * t + ring + grain).clamp(0.0, 255.0) as u8;
        Rgb([channel(a), channel(b), channel(c)])
    }))
}

fn main() {
    let dir: PathBuf = std::env::args().nth(1).expect("usage: explore_images <data dir>").into();
    let nfts = env("NFTS", 100_000);
    let images = env("IMAGES", 36);
    assert!(!dir.join("events.db").exists(), "{} already holds a marketplace: give an empty directory", dir.display());
    std::fs::create_dir_all(&dir).expect("creating the data directory");
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    runtime.block_on(async {
        let started = Instant::now();
        // The data directory's layout, as `AppState::new` opens it.
        let files = api::files::FileStore::open(&dir.join("files")).expect("file store");
        let renditions = Arc::new(api::files::renditions::Renditions::new(dir.join("renditions")));
        let mut cids = Vec::new();
        let mut stored_bytes = 0;
        for n in 0..images {
            let format = if n % 3 == 2 { ImageFormat::Png } else { ImageFormat::Jpeg };
            let mut bytes = Cursor::new(Vec::new());
            picture(n, 1600).write_to(&mut bytes, format).expect("encoding");
            let stored = api::files::store_upload(&files, &renditions, bytes.into_inner()).await.expect("storing");
            stored_bytes += stored.size;
            cids.push(stored.cid);
        }
        renditions.made_ahead().await;
        println!(
            "{images} pictures stored ({:.1} MB) with their renditions in {:.1} s",
            stored_bytes as f64 / 1e6,
            started.elapsed().as_secs_f64()
        );

        let database_url = format!("sqlite://{}", dir.join("events.db").display());
        let store = domain::store::open(&database_url).await.expect("event log");
        api::node::bootstrap::seed_categories(store.as_ref()).await.expect("categories");
        for writes in market_history_with_files(nfts, cids, |token| (token / 7) % 2 == 1) {
            store.append_streams(writes).await.expect("append");
        }
        let read = projections::ReadDb::open(&format!("sqlite://{}", dir.join("read.db").display())).await.expect("read database");
        let projector = projections::Projector::new(store.clone(), read).await.expect("projector");
        projector.catch_up().await.expect("projecting");
        println!("{nfts} NFTs written and projected into {} in {:.1} s", dir.display(), started.elapsed().as_secs_f64());
    });
}
