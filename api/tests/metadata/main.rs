//! Metadata of tokens minted elsewhere: the guarded client against every way into the private
//! network (addresses, names, redirects, the operator's denied ranges) and what its refusals
//! tell the public, the fetcher's reading and checks (IPFS, HTTP, too large, too slow, invalid
//! JSON, wrong types, images that must decode), the file store under a hostile minter (no growth
//! from junk or repeats, the quota, the collector of unused images), a host that never answers,
//! the read model on SQLite and Postgres, and the status and refresh calls.
//!
//! The "HTTPS" success path runs on plain `http://` with the operator's `METADATA_ALLOW_HTTP`
//! (a local TLS server would need a certificate the client trusts): the guard applies the same
//! rules to both schemes. The local test server is on loopback, which the guard refuses: each
//! test allows exactly `127.0.0.1:<its port>` (`METADATA_ALLOWED_HOSTS`), so the refusals of
//! `127.0.0.1` on another port, `localhost` and `[::1]` still prove the rule.

use std::{
    collections::HashMap,
    io::Cursor,
    net::SocketAddr,
    path::Path,
    sync::{
        Arc,
        atomic::{AtomicU64, AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use api::{
    http::AppState,
    net::guard::FetchError,
    node::metadata::{Fetcher, MAX_ATTEMPTS},
};
use axum::{
    Router,
    body::Body,
    extract::{Query, State},
    http::{Request, StatusCode, header},
    response::{IntoResponse, Response},
    routing::get,
};
use chrono::Utc;
use domain::{
    ExpectedVersion, Metadata, StreamAppend,
    catalog::{CatalogEvent, Property},
    chain::{ChainEvent, Origin},
    metadata::MetadataEvent,
    test_utils::TestPostgres,
};
use serde_json::{Value, json};
use support::ProjectorTask;
use tower::ServiceExt;

#[path = "../support/mod.rs"]
mod support;

/// A tiny real PNG.
fn png() -> Vec<u8> {
    png_of(4, 4, 40)
}

/// A real PNG of `width` × `height` pixels, its colour from `shade`.
fn png_of(width: u32, height: u32, shade: u8) -> Vec<u8> {
    let mut bytes = Vec::new();
    image::RgbImage::from_pixel(width, height, image::Rgb([200, shade, 40]))
        .write_to(&mut Cursor::new(&mut bytes), image::ImageFormat::Png)
        .unwrap();
    bytes
}

/// `len` bytes that start like a PNG and are random after: new ones each call (a hostile
/// server's "image").
fn noise_png(len: usize) -> Vec<u8> {
    static SEED: AtomicU64 = AtomicU64::new(0x9e37_79b9_7f4a_7c15);
    let mut x = SEED.fetch_add(0x9e37_79b9_7f4a_7c15, Ordering::Relaxed) | 1;
    let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
    while bytes.len() < len {
        // xorshift64
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        bytes.extend_from_slice(&x.to_le_bytes());
    }
    bytes.truncate(len);
    bytes
}

/// The strangers' server: metadata good and bad, images, redirects, slowness.
async fn strangers_server() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let base = Arc::new(format!("http://{addr}"));
    let app = Router::new()
        .route(
            "/ok.json",
            get(|State(base): State<Arc<String>>| async move {
                json!({"name": "Web Fox", "description": "From the web", "image": format!("{base}/fox.png"),
                    "attributes": [{"trait_type": "Fur", "value": "Red"}, {"trait_type": "Level", "value": 3}]})
                .to_string()
            }),
        )
        .route("/fox.png", get(|| async { ([(header::CONTENT_TYPE, "image/png")], png()) }))
        .route(
            "/noise.json",
            get(
                |State(base): State<Arc<String>>| async move { json!({"name": "Noise", "image": format!("{base}/noise.png")}).to_string() },
            ),
        )
        .route("/noise.png", get(|| async { ([(header::CONTENT_TYPE, "image/png")], noise_png(64 * 1024)) }))
        .route(
            "/wide.json",
            get(|State(base): State<Arc<String>>| async move { json!({"name": "Wide", "image": format!("{base}/wide.png")}).to_string() }),
        )
        .route("/wide.png", get(|| async { ([(header::CONTENT_TYPE, "image/png")], png_of(20, 20, 90)) }))
        .route(
            "/local-image.json",
            get(|State(base): State<Arc<String>>| async move {
                let port = base.rsplit(':').next().unwrap().to_owned();
                json!({"name": "x", "image": format!("http://localhost:{port}/fox.png")}).to_string()
            }),
        )
        .route(
            "/not-image.json",
            get(|State(base): State<Arc<String>>| async move { json!({"name": "x", "image": format!("{base}/ok.json")}).to_string() }),
        )
        .route(
            "/script.json",
            get(|State(base): State<Arc<String>>| async move { json!({"name": "x", "image": format!("{base}/script.svg")}).to_string() }),
        )
        .route("/script.svg", get(|| async { r#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"# }))
        .route("/invalid.json", get(|| async { "{\"name\": \"cut" }))
        .route("/wrong.json", get(|| async { r#"{"name": "x", "attributes": [{"trait_type": "Fur", "value": ["Red"]}]}"# }))
        .route("/big.json", get(|| async { format!(r#"{{"name": "{}"}}"#, "x".repeat(400 * 1024)) }))
        .route(
            "/big-stream.json",
            get(|| async {
                // No Content-Length: the cap must hold while the body streams.
                let chunks = (0..100).map(|_| Ok::<_, std::io::Error>(axum::body::Bytes::from(vec![b' '; 8 * 1024])));
                Body::from_stream(futures::stream::iter(chunks))
            }),
        )
        .route(
            "/slow.json",
            get(|| async {
                tokio::time::sleep(Duration::from_secs(5)).await;
                r#"{"name": "late"}"#
            }),
        )
        .route("/missing.json", get(|| async { StatusCode::NOT_FOUND }))
        .route("/broken.json", get(|| async { StatusCode::BAD_GATEWAY }))
        .route("/loop", get(|| async { redirect("/loop") }))
        .route("/redirect", get(|Query(q): Query<HashMap<String, String>>| async move { redirect(&q["to"]) }))
        .with_state(base);
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    addr
}

fn redirect(to: &str) -> Response {
    (StatusCode::FOUND, [(header::LOCATION, to.to_owned())]).into_response()
}

/// A port nothing listens on (a refusal must come before any connection anyway).
const CLOSED: u16 = 9;

/// A server that accepts connections and never answers: the number accepted so far.
async fn silent_server() -> (SocketAddr, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            count.fetch_add(1, Ordering::SeqCst);
            held.push(socket);
        }
    });
    (addr, accepted)
}

struct TestApp {
    state: AppState,
    server: SocketAddr,
    _projector: ProjectorTask,
    _dir: tempfile::TempDir,
    _postgres: Option<TestPostgres>,
}

impl TestApp {
    async fn new() -> Self {
        Self::with(None, &[], &[]).await
    }

    async fn postgres() -> Self {
        Self::with(Some(TestPostgres::create().await), &[], &[]).await
    }

    /// With `args` added (in place of the defaults they name) and `also_allowed` hosts allowed beside the strangers'
    /// server.
    async fn with(postgres: Option<TestPostgres>, args: &[&str], also_allowed: &[SocketAddr]) -> Self {
        let server = strangers_server().await;
        let dir = tempfile::tempdir().unwrap();
        let allowed = std::iter::once(server).chain(also_allowed.iter().copied()).map(|a| a.to_string()).collect::<Vec<_>>().join(",");
        let mut all = vec!["--metadata-allow-http"];
        for (flag, value) in [
            ("--jwt-secret", "test-secret"),
            ("--metadata-allowed-hosts", allowed.as_str()),
            ("--metadata-timeout-secs", "2"),
            ("--metadata-delay-secs", "0"),
            ("--rate-limit-per-ip", "1000"),
        ] {
            if !args.contains(&flag) {
                all.extend([flag, value]);
            }
        }
        if let Some(db) = &postgres {
            all.extend(["--database-url", db.url.as_str()]);
        }
        all.extend_from_slice(args);
        let config = support::config(&dir, &all);
        let (state, projector) = support::fresh_state(config, true).await;
        Self { state: state.with_chain(support::no_chain(), None), server, _projector: projector, _dir: dir, _postgres: postgres }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.server)
    }

    fn fetcher(&self) -> Fetcher {
        Fetcher::new(self.state.node.clone())
    }

    async fn projected(&self) {
        let head = self.state.store.head().await.unwrap().0;
        self.state.projector.wait_for(head, Duration::from_secs(10)).await.unwrap();
    }

    /// Token `token` minted on chain with `uri`, as a script minting on the contract leaves it.
    async fn mint(&self, token: u64, uri: &str) -> String {
        let event = ChainEvent::NftMinted {
            token_id: token.to_string(),
            creator: "0x00000000000000000000000000000000000000aa".into(),
            token_uri: uri.into(),
            royalties: vec![],
            origin: Origin { block_number: token, block_time: 1_767_225_600, tx_hash: format!("0x{token:064x}"), log_index: 0 },
        };
        let append = StreamAppend {
            stream_id: event.stream_id(support::CHAIN_ID),
            expected: ExpectedVersion::Any,
            events: vec![event.to_new_event(uuid::Uuid::new_v4(), Metadata::default()).unwrap()],
        };
        self.state.store.append_streams(vec![append]).await.unwrap();
        self.projected().await;
        format!("{}-{token}", support::CHAIN_ID)
    }

    /// Reads every due token once.
    async fn fetch_due(&self) -> usize {
        let count = self.fetcher().run_once(&mut HashMap::new()).await.unwrap();
        self.projected().await;
        count
    }

    async fn call(&self, method: &str, uri: &str) -> (StatusCode, Value) {
        let request = Request::builder().method(method).uri(uri).body(Body::empty()).unwrap();
        let response = api::http::app(self.state.clone(), std::path::Path::new("/nonexistent")).oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
        (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
    }

    async fn nft(&self, id: &str) -> Value {
        let (status, json) = self.call("GET", &format!("/api/nft/detail/{id}")).await;
        assert_eq!(status, StatusCode::OK, "{json}");
        json["body"].clone()
    }

    async fn metadata(&self, id: &str) -> Value {
        let (status, json) = self.call("GET", &format!("/api/nft/{id}/metadata")).await;
        assert_eq!(status, StatusCode::OK, "{json}");
        json["body"].clone()
    }

    /// A JSON document put in the file store: its `ipfs://` URI.
    async fn ipfs(&self, bytes: Vec<u8>) -> String {
        format!("ipfs://{}", self.state.files.put(bytes).await.unwrap().cid)
    }

    /// Asks for token `id`'s metadata to be read again, as the refresh call records it (without
    /// its rate limit).
    async fn refresh(&self, token: u64) {
        let event =
            MetadataEvent::TokenMetadataRefreshRequested { chain_id: support::CHAIN_ID, token_id: token.to_string(), at: Utc::now() };
        event.record(self.state.store.as_ref(), Metadata::default()).await.unwrap();
        self.projected().await;
    }

    /// The bytes on disk of the file store and the renditions, and the number of files.
    fn stored(&self) -> (u64, usize) {
        let mut total = (0, 0);
        for dir in [self.state.config.files_dir(), self.state.renditions.dir().to_owned()] {
            let (bytes, files) = disk_usage(&dir);
            total = (total.0 + bytes, total.1 + files);
        }
        total
    }

    async fn version(&self, token: u64) -> u64 {
        self.state.store.stream_version(&domain::metadata::metadata_stream(support::CHAIN_ID, &token.to_string())).await.unwrap()
    }
}

/// The bytes and files under `dir`, recursively (0 if it does not exist).
fn disk_usage(dir: &Path) -> (u64, usize) {
    let Ok(entries) = std::fs::read_dir(dir) else { return (0, 0) };
    let mut total = (0, 0);
    for entry in entries.flatten() {
        let meta = entry.metadata().unwrap();
        if meta.is_dir() {
            let (bytes, files) = disk_usage(&entry.path());
            total = (total.0 + bytes, total.1 + files);
        } else {
            total = (total.0 + meta.len(), total.1 + 1);
        }
    }
    total
}

// The guarded client.

async fn guarded(app: &TestApp, url: &str) -> Result<Vec<u8>, FetchError> {
    api::net::guard::Guard::new(true, &[app.server.to_string()], Duration::from_secs(2)).get(url, "*/*", 64 * 1024).await
}

#[tokio::test]
async fn the_allowed_test_server_is_reached() {
    let app = TestApp::new().await;
    assert!(guarded(&app, &app.url("/ok.json")).await.unwrap().starts_with(b"{"));
}

#[tokio::test]
async fn loopback_private_link_local_and_metadata_addresses_are_refused() {
    let app = TestApp::new().await;
    for (url, says) in [
        (format!("http://127.0.0.1:{}/ok.json", app.server.port() ^ 1), "127.0.0.1 is a loopback address"),
        (format!("http://127.0.0.1:{CLOSED}/"), "127.0.0.1 is a loopback address"),
        ("http://169.254.169.254/latest/meta-data/".into(), "169.254.169.254 is a cloud metadata service address"),
        ("http://10.0.0.1/".into(), "10.0.0.1 is a private address"),
        (format!("http://[::1]:{}/ok.json", app.server.port()), "::1 is a loopback address"),
        ("http://[fd00:ec2::254]/".into(), "a cloud metadata service address"),
        ("http://0x7f.1/".into(), "127.0.0.1 is a loopback address"),
        ("http://100.64.0.1/".into(), "a shared (CGNAT) address"),
        ("http://[::ffff:127.0.0.1]/".into(), "a loopback address"),
    ] {
        match guarded(&app, &url).await {
            Err(FetchError::Refused(why)) => assert!(why.contains(says), "{url}: {why}"),
            other => panic!("{url} was not refused: {other:?}"),
        }
    }
}

#[tokio::test]
async fn a_name_that_resolves_to_loopback_is_refused_without_naming_the_address() {
    let app = TestApp::new().await;
    // The allowed entry is the address, not this name for it.
    let url = format!("http://localhost:{}/ok.json", app.server.port());
    match guarded(&app, &url).await {
        Err(FetchError::Refused(why)) => assert_eq!(why, "localhost resolves to a private or reserved address"),
        other => panic!("localhost was not refused: {other:?}"),
    }
    // Nor does the reason the NFT's page shows, for the metadata or its image.
    let fetcher = app.fetcher();
    let failure = fetcher.read(&url).await.unwrap_err();
    assert_eq!(failure.reason, "metadata: refused: localhost resolves to a private or reserved address");
    let failure = fetcher.read(&app.url("/local-image.json")).await.unwrap_err();
    assert_eq!(failure.reason, "image: refused: localhost resolves to a private or reserved address");
    for address in ["127.0.0.1", "::1", "loopback"] {
        assert!(!failure.reason.contains(address), "{failure:?}");
    }
}

#[tokio::test]
async fn the_operators_denied_ranges_are_refused_even_for_allowed_hosts() {
    use api::net::guard::{Guard, IpRange};
    let app = TestApp::new().await;
    let ranges = |text: &[&str]| text.iter().map(|t| t.parse::<IpRange>().unwrap()).collect::<Vec<_>>();
    let allowed = [app.server.to_string(), format!("localhost:{}", app.server.port())];
    let guard = Guard::new(true, &allowed, Duration::from_secs(2));
    assert!(guard.get(&app.url("/ok.json"), "*/*", 64 * 1024).await.is_ok());

    // The address written in the URL, and a name resolving into a range.
    let denied = guard.clone().with_denied(&ranges(&["198.51.100.7", "127.0.0.0/8", "::1/128"]));
    assert_eq!(
        denied.get(&app.url("/ok.json"), "*/*", 64 * 1024).await,
        Err(FetchError::Refused("127.0.0.1 is an address this server does not fetch from".into()))
    );
    let by_name = format!("http://localhost:{}/ok.json", app.server.port());
    assert_eq!(
        denied.get(&by_name, "*/*", 64 * 1024).await,
        Err(FetchError::Refused("localhost resolves to a private or reserved address".into()))
    );
    // A range elsewhere leaves the host alone.
    let elsewhere = guard.with_denied(&ranges(&["127.0.0.2", "10.0.0.0/8"]));
    assert!(elsewhere.get(&app.url("/ok.json"), "*/*", 64 * 1024).await.is_ok());

    // From the configuration (flag or METADATA_DENIED_RANGES) to the fetcher.
    let app = TestApp::with(None, &["--metadata-denied-ranges", "203.0.113.0/24,127.0.0.1"], &[]).await;
    assert_eq!(app.state.config.metadata_denied_ranges, ranges(&["203.0.113.0/24", "127.0.0.1/32"]));
    let failure = app.fetcher().read(&app.url("/ok.json")).await.unwrap_err();
    assert_eq!(
        failure,
        api::node::metadata::Failure {
            reason: "metadata: refused: 127.0.0.1 is an address this server does not fetch from".into(),
            transient: false
        }
    );
}

#[test]
fn a_denied_range_that_is_no_range_fails_at_start() {
    use clap::{Args, FromArgMatches};
    let command = api::config::Config::augment_args(clap::Command::new("test"));
    for bad in ["10.0.0.0/33", "vm.internal", "10.0.0.1,fe80::/200"] {
        let matches = command.clone().try_get_matches_from(["test", "--metadata-denied-ranges", bad]);
        assert!(matches.is_err(), "{bad} must be refused");
    }
    let matches = command.try_get_matches_from(["test", "--metadata-denied-ranges", "10.0.0.0/8,2001:db8::/32"]).unwrap();
    assert_eq!(api::config::Config::from_arg_matches(&matches).unwrap().metadata_denied_ranges.len(), 2);
}

#[tokio::test]
async fn a_redirect_to_each_forbidden_address_is_refused() {
    let app = TestApp::new().await;
    let port = app.server.port();
    for target in [
        format!("http://127.0.0.1:{}/ok.json", port ^ 1),
        "http://169.254.169.254/latest/meta-data/".into(),
        "http://10.0.0.1/".into(),
        format!("http://[::1]:{port}/ok.json"),
        format!("http://localhost:{port}/ok.json"),
    ] {
        let url = app.url(&format!("/redirect?to={}", urlencode(&target)));
        match guarded(&app, &url).await {
            Err(FetchError::Refused(why)) => assert!(why.contains("is a") || why.contains("resolves to"), "{target}: {why}"),
            other => panic!("a redirect to {target} was not refused: {other:?}"),
        }
    }
    // A redirect to the allowed server itself is followed.
    let url = app.url(&format!("/redirect?to={}", urlencode(&app.url("/ok.json"))));
    assert!(guarded(&app, &url).await.is_ok());
}

#[tokio::test]
async fn redirects_are_capped_and_schemes_checked() {
    let app = TestApp::new().await;
    assert_eq!(guarded(&app, &app.url("/loop")).await, Err(FetchError::TooManyRedirects));
    let to_file = app.url(&format!("/redirect?to={}", urlencode("file:///etc/passwd")));
    assert!(matches!(guarded(&app, &to_file).await, Err(FetchError::BadUrl(why)) if why.contains("file:")));
    let strict = api::net::guard::Guard::new(false, &[app.server.to_string()], Duration::from_secs(2));
    assert!(matches!(strict.get(&app.url("/ok.json"), "*/*", 1024).await, Err(FetchError::BadUrl(why)) if why.contains("http://")));
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| if b.is_ascii_alphanumeric() || b"-._~".contains(&b) { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}

// Reading and checking.

#[tokio::test]
async fn https_metadata_is_read_and_its_image_checked_and_stored() {
    let app = TestApp::new().await;
    let metadata = app.fetcher().read(&app.url("/ok.json")).await.unwrap();
    assert_eq!(metadata.name, "Web Fox");
    let cid = metadata.image.strip_prefix("/ipfs/").expect("the image is served from the file store");
    assert_eq!(app.state.files.get(cid).await.unwrap().unwrap(), png());
    assert_eq!(metadata.properties[1], Property { key: "Level".into(), value: "3".into() });
}

#[tokio::test]
async fn ipfs_metadata_is_read_from_the_file_store() {
    let app = TestApp::new().await;
    let image = app.ipfs(png()).await;
    let uri = app
        .ipfs(json!({"name": "Ipfs Fox", "image": image, "attributes": [{"trait_type": "Eyes", "value": "Blue"}]}).to_string().into_bytes())
        .await;
    let metadata = app.fetcher().read(&uri).await.unwrap();
    assert_eq!((metadata.name.as_str(), metadata.image.as_str()), ("Ipfs Fox", image.replace("ipfs://", "/ipfs/").as_str()));
}

#[tokio::test]
async fn bad_documents_and_bad_hosts_fail_with_their_reason() {
    let app = TestApp::new().await;
    let fetcher = app.fetcher();
    for (uri, says, transient) in [
        (app.url("/invalid.json"), "metadata: not valid JSON", false),
        (app.url("/wrong.json"), "metadata: attributes[0].value must be a string, number or boolean", false),
        (app.url("/big.json"), "metadata: larger than 262144 bytes", false),
        (app.url("/big-stream.json"), "metadata: larger than 262144 bytes", false),
        (app.url("/slow.json"), "metadata: no complete answer within 2 s", true),
        (app.url("/broken.json"), "metadata: the server answered HTTP 502", true),
        (app.url("/not-image.json"), "image: not an image by its content", false),
        (app.url("/script.json"), "image: this SVG is not shown", false),
        (
            "http://169.254.169.254/latest/meta-data/".into(),
            "metadata: refused: 169.254.169.254 is a cloud metadata service address",
            false,
        ),
        ("data:application/json,{}".into(), "metadata: data: URIs are not read", false),
        ("ipfs://bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy".into(), "is not in the file store", true),
        ("".into(), "the token has no URI", false),
    ] {
        let failure = fetcher.read(&uri).await.expect_err(&uri);
        assert!(failure.reason.contains(says), "{uri}: {failure:?}");
        assert_eq!(failure.transient, transient, "{uri}: {failure:?}");
    }
}

// Images under a hostile minter.

#[tokio::test]
async fn an_image_that_only_starts_like_a_png_is_refused_and_not_stored() {
    let app = TestApp::new().await;
    let before = app.stored();
    let failure = app.fetcher().read(&app.url("/noise.json")).await.unwrap_err();
    assert!(failure.reason.starts_with("image: cannot be decoded"), "{failure:?}");
    assert!(!failure.transient, "undecodable stays undecodable");
    assert_eq!(app.stored(), before, "nothing stored");
}

#[tokio::test]
async fn images_over_the_pixel_or_size_limit_are_refused() {
    let app = TestApp::with(None, &["--metadata-max-pixels", "100"], &[]).await;
    let failure = app.fetcher().read(&app.url("/wide.json")).await.unwrap_err();
    assert_eq!(failure, api::node::metadata::Failure { reason: "image: 20×20 pixels, more than 100".into(), transient: false });
    // 4 × 4 passes.
    assert!(app.fetcher().read(&app.url("/ok.json")).await.is_ok());

    let app = TestApp::with(None, &["--metadata-max-image-bytes", "1000"], &[]).await;
    let failure = app.fetcher().read(&app.url("/noise.json")).await.unwrap_err();
    assert_eq!(failure, api::node::metadata::Failure { reason: "image: larger than 1000 bytes".into(), transient: false });
    assert_eq!(app.stored(), (0, 0));
}

#[tokio::test]
async fn fifty_refreshes_of_a_random_png_grow_the_store_by_zero_bytes() {
    let app = TestApp::new().await;
    let id = app.mint(40, &app.url("/noise.json")).await;
    app.fetch_due().await;
    let before = app.stored();
    for _ in 0..50 {
        app.refresh(40).await;
        assert_eq!(app.fetch_due().await, 1);
    }
    let state = app.metadata(&id).await;
    assert_eq!(state["status"], "FAILED", "{state}");
    assert_eq!(app.stored(), before, "50 refreshes of new random bytes grew the file store");
}

#[tokio::test]
async fn the_same_image_fetched_again_writes_nothing() {
    let app = TestApp::new().await;
    let id = app.mint(41, &app.url("/ok.json")).await;
    app.fetch_due().await;
    app.state.renditions.made_ahead().await;
    let after_first = app.stored();
    let image = app.nft(&id).await["file"].as_str().unwrap().to_owned();
    for _ in 0..5 {
        app.refresh(41).await;
        assert_eq!(app.fetch_due().await, 1);
        app.state.renditions.made_ahead().await;
    }
    assert_eq!(app.stored(), after_first, "the same bytes are stored once");
    assert_eq!(app.nft(&id).await["file"], image.as_str());

    // A read the tables had not seen recorded yet (a lagging projection, a new leader) says
    // nothing new: no event.
    let due = projections::queries::metadata::Due {
        nft_id: id.clone(),
        chain_id: support::CHAIN_ID,
        token_id: "41".into(),
        token_uri: app.url("/ok.json"),
        attempts: 0,
        fresh: false,
    };
    let version = app.version(41).await;
    assert_eq!(app.fetcher().attempt(&due, Utc::now()).await.unwrap(), None);
    assert_eq!(app.version(41).await, version, "an unchanged outcome appends no event");
    assert_eq!(app.stored(), after_first);
}

#[tokio::test]
async fn past_the_quota_new_foreign_images_are_not_stored_and_the_state_says_why() {
    let app = TestApp::with(None, &["--metadata-files-quota-bytes", "50"], &[]).await;
    assert!(png().len() > 50);
    let id = app.mint(42, &app.url("/ok.json")).await;
    app.fetch_due().await;
    let state = app.metadata(&id).await;
    assert_eq!(state["status"], "RETRYING", "space may be freed: {state}");
    assert_eq!(state["reason"], "image: not stored: the server's space for images of tokens minted elsewhere is full");
    assert_eq!(app.stored(), (0, 0));
    // Images already in the store are no new foreign files: an ipfs:// one still shows.
    let image = app.ipfs(png()).await;
    let uri = app.ipfs(json!({"name": "Stored", "image": image}).to_string().into_bytes()).await;
    assert!(app.fetcher().read(&uri).await.is_ok());
}

async fn unused_foreign_images_are_collected_and_uploads_kept(app: TestApp) {
    let files = &app.state.files;
    // In use: the image of a token read from the web.
    let id = app.mint(43, &app.url("/ok.json")).await;
    app.fetch_due().await;
    let in_use = app.nft(&id).await["file"].as_str().unwrap().trim_start_matches("/ipfs/").to_owned();
    // Unused: a foreign image no record names (its token read other metadata since).
    let (orphan, written) = files.put_foreign(png_of(6, 6, 1).into(), 0).await.unwrap();
    assert!(written);
    // Uploads named by nothing yet (not minted): one of them the same bytes as a foreign image.
    let upload = files.put(png_of(7, 7, 2)).await.unwrap();
    let (shared, _) = files.put_foreign(png_of(8, 8, 3).into(), 0).await.unwrap();
    files.put(png_of(8, 8, 3)).await.unwrap();
    let foreign = files.foreign_bytes().await.unwrap();

    // Within the grace period nothing goes.
    let collected = api::node::metadata::collect_unused_images(&app.state, api::node::metadata::COLLECT_GRACE).await.unwrap();
    assert_eq!(collected.files, 0);

    let collected = api::node::metadata::collect_unused_images(&app.state, Duration::ZERO).await.unwrap();
    assert_eq!((collected.files, collected.bytes), (1, orphan.size));
    assert_eq!(files.get(&orphan.cid).await.unwrap(), None);
    for kept in [&in_use, &upload.cid, &shared.cid] {
        assert!(files.get(kept).await.unwrap().is_some(), "{kept} must stay");
    }
    assert_eq!(files.foreign_bytes().await.unwrap(), foreign - orphan.size);
    assert_eq!(app.nft(&id).await["file"], format!("/ipfs/{in_use}"));
}

#[tokio::test]
async fn unused_foreign_images_are_collected_and_uploads_kept_on_sqlite() {
    unused_foreign_images_are_collected_and_uploads_kept(TestApp::new().await).await;
}

#[tokio::test]
async fn unused_foreign_images_are_collected_and_uploads_kept_on_postgres() {
    unused_foreign_images_are_collected_and_uploads_kept(TestApp::postgres().await).await;
}

// A host that never answers.

#[tokio::test]
async fn a_host_that_never_answers_holds_its_share_not_the_fetcher() {
    const SLOW: u64 = 48;
    let (silent, accepted) = silent_server().await;
    let app = TestApp::with(None, &["--metadata-timeout-secs", "5"], &[silent]).await;
    let mut slow = Vec::new();
    for token in 1..=SLOW {
        slow.push(app.mint(100 + token, &format!("http://{silent}/{token}.json")).await);
    }
    let running = tokio::spawn(api::node::metadata::Fetcher::new(app.state.node.clone()).run());
    // The slow ones are being read.
    tokio::time::timeout(Duration::from_secs(5), async {
        while accepted.load(Ordering::SeqCst) < 2 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the fetcher reads the slow host");

    let minted = Instant::now();
    let good = app.mint(200, &app.url("/ok.json")).await;
    while app.metadata(&good).await["status"] != "FETCHED" {
        assert!(minted.elapsed() < Duration::from_secs(10), "the good token waited for the slow host");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let seconds = minted.elapsed().as_secs_f64();
    let slow_reads = accepted.load(Ordering::SeqCst);
    println!("good token after {SLOW} tokens on a host that never answers: fetched {seconds:.2} s after its mint");

    // Before any slow one timed out (5 s), and the slow host never had more than its share.
    assert_eq!(slow_reads, 2, "METADATA_PER_HOST (2) reads of the slow host at once");
    let mut still_pending = 0;
    for id in &slow {
        let state = projections::queries::metadata::status(&app.state.read, id).await.unwrap().unwrap();
        still_pending += usize::from(state.status == "PENDING");
    }
    assert!(still_pending >= SLOW as usize - 2, "only the two being read may have timed out since: {still_pending} pending");
    assert_eq!(app.nft(&good).await["title"], "Web Fox");
    running.abort();
}

// The fetcher and the read model.

async fn a_script_minted_token_gets_its_metadata(app: TestApp) {
    let image = app.ipfs(png()).await;
    let uri = app
        .ipfs(
            json!({"name": "Script Fox", "description": "Minted by a script", "image": image,
            "attributes": [{"trait_type": "Fur", "value": "Red"}]})
            .to_string()
            .into_bytes(),
        )
        .await;
    let id = app.mint(1, &uri).await;
    assert_eq!(app.metadata(&id).await["status"], "PENDING");
    assert_eq!(app.nft(&id).await["title"], "");

    assert_eq!(app.fetch_due().await, 1);
    let nft = app.nft(&id).await;
    assert_eq!(nft["title"], "Script Fox");
    assert_eq!(nft["description"], "Minted by a script");
    assert_eq!(nft["file"], image.replace("ipfs://", "/ipfs/"));
    assert_eq!(nft["properties"], json!([{"key": "Fur", "value": "Red"}]));
    let state = app.metadata(&id).await;
    assert_eq!((state["status"].as_str(), state["attempts"].as_i64()), (Some("FETCHED"), Some(1)));
    // Nothing is due any more.
    assert_eq!(app.fetch_due().await, 0);
}

#[tokio::test]
async fn a_script_minted_token_gets_its_metadata_on_sqlite() {
    a_script_minted_token_gets_its_metadata(TestApp::new().await).await;
}

#[tokio::test]
async fn a_script_minted_token_gets_its_metadata_on_postgres() {
    a_script_minted_token_gets_its_metadata(TestApp::postgres().await).await;
}

async fn failures_retry_then_give_up(app: TestApp) {
    let missing = "ipfs://bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy";
    let id = app.mint(2, missing).await;
    let wrong = app.mint(3, &app.url("/wrong.json")).await;
    assert_eq!(app.fetch_due().await, 2);

    let state = app.metadata(&id).await;
    assert_eq!(state["status"], "RETRYING", "{state}");
    assert!(state["reason"].as_str().unwrap().contains("is not in the file store"));
    assert!(state["nextAttemptAt"].is_string());
    let state = app.metadata(&wrong).await;
    assert_eq!(state["status"], "FAILED", "a refusal is final at once: {state}");
    assert_eq!(state["reason"], "metadata: attributes[0].value must be a string, number or boolean");

    // Not due again before its time; at the last attempt it gives up.
    assert_eq!(app.fetch_due().await, 0);
    let due = projections::queries::metadata::Due {
        nft_id: id.clone(),
        chain_id: support::CHAIN_ID,
        token_id: "2".into(),
        token_uri: missing.into(),
        attempts: i64::from(MAX_ATTEMPTS - 1),
        fresh: false,
    };
    app.fetcher().attempt(&due, Utc::now()).await.unwrap();
    app.projected().await;
    let state = app.metadata(&id).await;
    assert_eq!(state["status"], "FAILED", "{state}");
    assert!(state["reason"].as_str().unwrap().ends_with(&format!("(gave up after {MAX_ATTEMPTS} attempts)")), "{state}");
}

#[tokio::test]
async fn failures_retry_then_give_up_on_sqlite() {
    failures_retry_then_give_up(TestApp::new().await).await;
}

#[tokio::test]
async fn failures_retry_then_give_up_on_postgres() {
    failures_retry_then_give_up(TestApp::postgres().await).await;
}

async fn the_creators_own_details_win(app: TestApp) {
    let uri = app.ipfs(json!({"name": "From the URI"}).to_string().into_bytes()).await;
    let id = app.mint(4, &uri).await;
    let details = CatalogEvent::NftDetailsRecorded {
        chain_id: support::CHAIN_ID,
        token_id: "4".into(),
        title: "The creator's title".into(),
        description: String::new(),
        category_id: "art".into(),
        file: "/ipfs/bafy".into(),
        metadata_url: "/ipfs/bafy".into(),
        properties: vec![],
        creator_user_id: None,
    };
    let append = StreamAppend {
        stream_id: details.stream_id(),
        expected: ExpectedVersion::Any,
        events: vec![details.to_new_event(Metadata::default()).unwrap()],
    };
    app.state.store.append_streams(vec![append]).await.unwrap();
    app.projected().await;
    assert_eq!(app.fetch_due().await, 0, "a described token is not fetched");
    assert_eq!(app.metadata(&id).await["status"], "CREATOR");

    // Even metadata recorded after the creator's details (a fetch that raced them) loses.
    let due = projections::queries::metadata::Due {
        nft_id: id.clone(),
        chain_id: support::CHAIN_ID,
        token_id: "4".into(),
        token_uri: uri,
        attempts: 0,
        fresh: false,
    };
    app.fetcher().attempt(&due, Utc::now()).await.unwrap();
    app.projected().await;
    assert_eq!(app.nft(&id).await["title"], "The creator's title");
    let (status, json) = app.call("POST", &format!("/api/nft/{id}/metadata/refresh")).await;
    assert_eq!((status, &json["statuscode"]), (StatusCode::CONFLICT, &json!(409)), "{json}");
}

#[tokio::test]
async fn the_creators_own_details_win_on_sqlite() {
    the_creators_own_details_win(TestApp::new().await).await;
}

#[tokio::test]
async fn the_creators_own_details_win_on_postgres() {
    the_creators_own_details_win(TestApp::postgres().await).await;
}

// The API.

#[tokio::test]
async fn refreshing_reads_again_and_is_rate_limited_per_nft() {
    let app = TestApp::new().await;
    let id = app.mint(5, &app.url("/invalid.json")).await;
    app.fetch_due().await;
    assert_eq!(app.metadata(&id).await["status"], "FAILED");

    let (status, json) = app.call("POST", &format!("/api/nft/{id}/metadata/refresh")).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!(json["body"]["status"], "PENDING");
    assert_eq!(json["body"]["attempts"], 0);
    let (status, json) = app.call("POST", &format!("/api/nft/{id}/metadata/refresh")).await;
    assert_eq!((status, &json["statuscode"]), (StatusCode::TOO_MANY_REQUESTS, &json!(429)), "{json}");
    // Another NFT is not limited by this one.
    let other = app.mint(6, &app.url("/ok.json")).await;
    let (status, _) = app.call("POST", &format!("/api/nft/{other}/metadata/refresh")).await;
    assert_eq!(status, StatusCode::OK);

    // The refresh makes it due at once.
    assert_eq!(app.fetch_due().await, 2);
    assert_eq!(app.metadata(&id).await["status"], "FAILED");
    assert_eq!(app.nft(&other).await["title"], "Web Fox");
}

#[tokio::test]
async fn an_unknown_nft_has_no_metadata_to_show_or_refresh() {
    let app = TestApp::new().await;
    for (method, uri) in [("GET", "/api/nft/80001-404/metadata"), ("POST", "/api/nft/80001-404/metadata/refresh")] {
        let (status, json) = app.call(method, uri).await;
        assert_eq!((status, &json["statuscode"]), (StatusCode::NOT_FOUND, &json!(404)), "{method} {uri}: {json}");
    }
}

// On a real chain.

#[tokio::test]
async fn a_token_minted_by_a_script_on_anvil_gets_its_title_image_and_attributes() {
    use alloy::primitives::U256;
    use indexer::test_utils::mint_call;

    let stack = support::ChainStack::start(true).await;
    let config = support::config(&stack.dir, &["--jwt-secret", "test-secret", "--metadata-delay-secs", "0"]);
    let state = stack.state(config, stack.chain_info());
    let image = format!("ipfs://{}", state.files.put(png()).await.unwrap().cid);
    let metadata = json!({"name": "Anvil Fox", "description": "Minted by cast", "image": image,
        "attributes": [{"trait_type": "Fur", "value": "Silver"}, {"trait_type": "Speed", "value": 9}]});
    let uri = format!("ipfs://{}", state.files.put(metadata.to_string().into_bytes()).await.unwrap().cid);

    // A script calling the contract directly: no record call, no creator's details.
    let receipt = stack.chain.transact(stack.chain.accounts[3], mint_call(&uri, 0, &[], 0, U256::ZERO, U256::ZERO), U256::ZERO).await;
    let (head, _) = stack.chain.latest().await;
    let position = stack.indexer.sync_to(head).await.unwrap();
    stack.projector.wait_for(position, Duration::from_secs(10)).await.unwrap();
    let token = projections::queries::metadata::due(&state.read, Utc::now().timestamp(), 10).await.unwrap();
    assert_eq!(token.len(), 1, "the mint is due: {token:?}");
    assert_eq!(token[0].token_uri, uri, "the token URI recorded from the chain ({:?})", receipt.transaction_hash);

    Fetcher::new(state.node.clone()).run_once(&mut HashMap::new()).await.unwrap();
    let head = state.store.head().await.unwrap().0;
    state.projector.wait_for(head, Duration::from_secs(10)).await.unwrap();
    let nft = projections::queries::nft::detail(&state.read, &token[0].nft_id).await.unwrap().expect("the NFT");
    assert_eq!((nft.title.as_str(), nft.description.as_str()), ("Anvil Fox", "Minted by cast"));
    assert_eq!(nft.file, image.replace("ipfs://", "/ipfs/"));
    assert_eq!(nft.properties, json!([{"key": "Fur", "value": "Silver"}, {"key": "Speed", "value": "9"}]));
    assert_eq!(projections::queries::metadata::status(&state.read, &token[0].nft_id).await.unwrap().unwrap().status, "FETCHED");
}
