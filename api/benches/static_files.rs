//! The UI's files on one kept-alive connection, beside `/healthz` on the same server and the
//! same kind of connection: `/`, a client route (`/explore`, answered with `index.html`) and a
//! hashed script under `/assets/`, each asked REQUESTS times in a row, one request at a time, as
//! a browser loading pages over one connection does. Prints requests/s, p50 and p99 and the ratio
//! of each p50 to `/healthz`'s. Goal: p50 within 3x of `/healthz`. (Files are sent with their
//! headers first and the body after: without `TCP_NODELAY` the body's last segment waited for
//! the client's delayed ACK, about 40 ms a request.)
//!
//! `cargo bench -p api --bench static_files` (UI_DIR=ui/dist serves the built UI; by default a
//! generated one: an `index.html` and a 180 KB script; REQUESTS per path, default 300).

mod support;

use std::time::{Duration, Instant};

fn main() {
    let requests: usize = std::env::var("REQUESTS").ok().and_then(|v| v.parse().ok()).unwrap_or(300);
    let data = tempfile::tempdir().unwrap();
    let generated = tempfile::tempdir().unwrap();
    let ui_dir = std::env::var("UI_DIR").map(std::path::PathBuf::from).unwrap_or_else(|_| generate_ui(generated.path()));
    let asset = hashed_script(&ui_dir);
    let config = support::config(data.path());
    let server = support::server_runtime();
    let state = server.block_on(async {
        let store = api::log::open(&config).await.unwrap();
        let read = projections::ReadDb::open(&config.read_database_url()).await.unwrap();
        let projector = projections::Projector::new(store.clone(), read.clone()).await.unwrap();
        api::http::AppState::new(config.clone(), store, read, projector.handle()).unwrap()
    });
    let address = support::serve(&server, api::http::app(state, &ui_dir));

    let client_runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    println!("{requests} sequential GETs per path over one kept-alive connection (UI from {})", ui_dir.display());
    println!("{:<34} {:>9} {:>9} {:>9} {:>12}", "path", "req/s", "p50 ms", "p99 ms", "p50 / healthz");
    let mut healthz_p50 = None;
    for path in ["/healthz".to_owned(), "/".to_owned(), "/explore".to_owned(), asset] {
        let (per_second, latencies) = client_runtime.block_on(one_connection(address, &path, requests));
        let p50 = latencies.ms(50.0);
        let base = *healthz_p50.get_or_insert(p50);
        println!("{path:<34} {per_second:>9.0} {p50:>9.3} {:>9.3} {:>11.1}x", latencies.ms(99.0), p50 / base);
    }
}

/// `requests` GETs of `path`, one after the other on a single HTTP/1.1 connection kept alive,
/// accepting Brotli and gzip as browsers do (the UI's files are served precompressed); every
/// answer must be a 200.
async fn one_connection(address: std::net::SocketAddr, path: &str, requests: usize) -> (f64, support::Latencies) {
    let client = reqwest::Client::builder().http1_only().pool_max_idle_per_host(1).build().unwrap();
    let url = format!("http://{address}{path}");
    // The connection is opened (and the file cached by the OS) before the measured requests.
    let get = || client.get(&url).header("accept-encoding", "br, gzip");
    get().send().await.unwrap().bytes().await.unwrap();
    let started = Instant::now();
    let mut samples = Vec::with_capacity(requests);
    for _ in 0..requests {
        let t = Instant::now();
        let response = get().send().await.expect("request");
        assert_eq!(response.status(), 200, "{path}");
        response.bytes().await.expect("body");
        samples.push(t.elapsed());
        assert!(started.elapsed() < Duration::from_secs(120), "{path}: over two minutes");
    }
    (requests as f64 / started.elapsed().as_secs_f64(), support::Latencies::new(samples))
}

/// A UI build's shape: `index.html` loading a hashed script of about the size of the app's own.
fn generate_ui(dir: &std::path::Path) -> std::path::PathBuf {
    let assets = dir.join("assets");
    std::fs::create_dir_all(&assets).unwrap();
    let script: String = (0..3_000).map(|i| format!("export const value{i} = () => ({{ id: {i}, label: 'item {i}' }});\n")).collect();
    std::fs::write(assets.join("index-Bq3x9f2K.js"), script).unwrap();
    let index = format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"UTF-8\" />\n<title>NFT Marketplace</title>\n\
         <script type=\"module\" crossorigin src=\"/assets/index-Bq3x9f2K.js\"></script>\n{}</head>\n<body><div id=\"root\"></div></body>\n</html>\n",
        "<meta name=\"description\" content=\"Discover, collect and sell NFTs.\" />\n".repeat(12)
    );
    std::fs::write(dir.join("index.html"), index).unwrap();
    dir.to_owned()
}

/// The path of a hashed script under `<ui_dir>/assets` (the largest: the app's entry chunk).
fn hashed_script(ui_dir: &std::path::Path) -> String {
    let largest = std::fs::read_dir(ui_dir.join("assets"))
        .expect("the UI has an assets folder")
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".js"))
        .max_by_key(|e| e.metadata().map(|m| m.len()).unwrap_or(0))
        .expect("the UI has a script under assets/");
    format!("/assets/{}", largest.file_name().to_string_lossy())
}
