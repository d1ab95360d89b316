//! `GET /ipfs/{cid}?w=`: card-sized renditions of stored images, through the server's own
//! wiring (`AppState::new`, `api::http::app`) over the embedded file store.

use std::{
    io::Cursor,
    time::{Duration, Instant},
};

use api::http::AppState;
use axum::{
    Router,
    body::Body,
    http::{Request, StatusCode, header},
};
use image::{DynamicImage, ImageFormat, Rgb, RgbImage, Rgba, RgbaImage};
use serde_json::Value;
use tower::ServiceExt;

struct Gateway {
    app: Router,
    state: AppState,
    projector: projections::Projector,
    _dir: tempfile::TempDir,
}

struct Answer {
    status: StatusCode,
    content_type: String,
    etag: String,
    cache_control: String,
    body: Vec<u8>,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    fn image(&self) -> DynamicImage {
        image::load_from_memory(&self.body).unwrap()
    }
}

impl Gateway {
    async fn start() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let config = super::config(&dir, &["--jwt-secret", "test-secret"]);
        let store = api::log::open(&config).await.unwrap();
        let read = projections::ReadDb::open(&config.read_database_url()).await.unwrap();
        let projector = projections::Projector::new(store.clone(), read.clone()).await.unwrap();
        let state = AppState::new(config, store, read, projector.handle()).unwrap();
        let app = api::http::app(state.clone(), std::path::Path::new("no-ui"));
        Self { app, state, projector, _dir: dir }
    }

    /// Stores `bytes` as an upload does, and answers their CID.
    async fn upload(&self, bytes: Vec<u8>) -> String {
        self.state.files.put(bytes).await.unwrap().cid
    }

    async fn get(&self, uri: &str) -> Answer {
        let response = self.app.clone().oneshot(Request::get(uri).body(Body::empty()).unwrap()).await.unwrap();
        let header = |name| response.headers().get(name).map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
        let (status, content_type, etag, cache_control) =
            (response.status(), header(header::CONTENT_TYPE), header(header::ETAG), header(header::CACHE_CONTROL));
        let body = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap().to_vec();
        Answer { status, content_type, etag, cache_control, body }
    }

    /// The files in the renditions folder.
    fn renditions(&self) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(self.state.renditions.dir()) else { return Vec::new() };
        let mut names: Vec<String> = entries.map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        names.sort();
        names
    }
}

/// A noisy picture: it compresses like a photo, so a rendition is much smaller than the upload.
fn photo(width: u32, height: u32) -> DynamicImage {
    DynamicImage::ImageRgb8(RgbImage::from_fn(width, height, |x, y| {
        let n = x.wrapping_mul(2_654_435_761).wrapping_add(y.wrapping_mul(40_503)) >> 7;
        Rgb([(n & 0xFF) as u8, ((x * 255) / width) as u8, ((y * 255) / height) as u8])
    }))
}

fn encoded(image: &DynamicImage, format: ImageFormat) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    image.write_to(&mut out, format).unwrap();
    out.into_inner()
}

/// A PNG whose header claims `width` x `height` pixels, in a few dozen bytes: a decoder that
/// believed it would allocate gigabytes.
fn png_bomb(width: u32, height: u32) -> Vec<u8> {
    fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
        let mut out = (data.len() as u32).to_be_bytes().to_vec();
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        let crc = crc32(&[kind.as_slice(), data].concat());
        out.extend_from_slice(&crc.to_be_bytes());
        out
    }
    let mut header = width.to_be_bytes().to_vec();
    header.extend_from_slice(&height.to_be_bytes());
    header.extend_from_slice(&[8, 0, 0, 0, 0]); // 8-bit greyscale, deflate, no interlace
    // A zlib stream of a few zero bytes: what follows would be billions more.
    let idat = [0x78, 0x9c, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01];
    [b"\x89PNG\r\n\x1a\n".to_vec(), chunk(b"IHDR", &header), chunk(b"IDAT", &idat), chunk(b"IEND", &[])].concat()
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

#[tokio::test]
async fn a_png_upload_is_answered_as_a_jpeg_of_the_asked_width_made_once_then_kept() {
    let gateway = Gateway::start().await;
    let upload = encoded(&photo(1600, 1000), ImageFormat::Png);
    let cid = gateway.upload(upload.clone()).await;

    let first = gateway.get(&format!("/ipfs/{cid}?w=480")).await;

    assert_eq!(first.status, StatusCode::OK);
    assert_eq!(first.content_type, "image/jpeg");
    assert_eq!(first.cache_control, "public, max-age=31536000, immutable");
    assert_eq!(first.etag, format!("\"{cid}-w480\""));
    let image = first.image();
    assert_eq!((image.width(), image.height()), (480, 300), "the asked width, the upload's aspect ratio");
    assert!(first.body.len() * 10 < upload.len(), "{} bytes for a {}-byte upload", first.body.len(), upload.len());
    assert_eq!(gateway.renditions(), [format!("{cid}.w480")], "kept on disk, no temporary file left");

    let again = gateway.get(&format!("/ipfs/{cid}?w=480")).await;
    assert_eq!((again.status, again.content_type.as_str(), again.etag.as_str()), (StatusCode::OK, "image/jpeg", first.etag.as_str()));
    assert_eq!(again.body, first.body, "the kept rendition answers the second request");

    let original = gateway.get(&format!("/ipfs/{cid}")).await;
    assert_eq!((original.content_type.as_str(), original.etag), ("image/png", format!("\"{cid}\"")));
    assert_eq!(original.body, upload, "without w: the upload itself");
}

#[tokio::test]
async fn a_jpeg_upload_has_a_rendition_at_each_width_and_concurrent_requests_agree() {
    let gateway = Gateway::start().await;
    let cid = gateway.upload(encoded(&photo(2000, 3000), ImageFormat::Jpeg)).await;

    for (width, height) in [(240, 360), (480, 720), (960, 1440)] {
        let answer = gateway.get(&format!("/ipfs/{cid}?w={width}")).await;
        assert_eq!((answer.status, answer.content_type.as_str()), (StatusCode::OK, "image/jpeg"), "w={width}");
        let image = answer.image();
        assert_eq!((image.width(), image.height()), (width, height));
    }
    assert_eq!(gateway.renditions().len(), 3, "one file per width");

    let other = gateway.upload(encoded(&photo(1200, 1200), ImageFormat::Jpeg)).await;
    let uri = format!("/ipfs/{other}?w=240");
    let answers = futures::future::join_all((0..6).map(|_| gateway.get(&uri))).await;
    assert!(answers.iter().all(|a| a.status == StatusCode::OK && a.body == answers[0].body), "six requests, one rendition");
}

#[tokio::test]
async fn transparency_is_kept_as_lossless_webp() {
    let gateway = Gateway::start().await;
    let sticker = DynamicImage::ImageRgba8(RgbaImage::from_fn(1000, 1000, |x, y| {
        let n = (x.wrapping_mul(2_654_435_761) ^ y.wrapping_mul(40_503)) >> 9;
        Rgba([(n & 0xFF) as u8, (x % 256) as u8, (y % 256) as u8, if (x / 100 + y / 100) % 2 == 0 { 0 } else { 255 }])
    }));
    let cid = gateway.upload(encoded(&sticker, ImageFormat::Png)).await;

    let answer = gateway.get(&format!("/ipfs/{cid}?w=240")).await;

    assert_eq!((answer.status, answer.content_type.as_str()), (StatusCode::OK, "image/webp"));
    let image = answer.image().to_rgba8();
    assert_eq!(image.dimensions(), (240, 240));
    assert_eq!(image.get_pixel(5, 5).0[3], 0, "a transparent square stays transparent");
    assert_eq!(image.get_pixel(30, 5).0[3], 255, "an opaque one stays opaque");
}

#[tokio::test]
async fn a_width_outside_the_set_is_a_400_in_the_envelope_and_makes_nothing() {
    let gateway = Gateway::start().await;
    let cid = gateway.upload(encoded(&photo(800, 800), ImageFormat::Png)).await;

    for bad in ["500", "0", "-240", "wide", "240.5"] {
        let answer = gateway.get(&format!("/ipfs/{cid}?w={bad}")).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "w={bad}");
        let envelope = answer.json();
        assert_eq!(envelope["statuscode"], 400);
        assert_eq!(envelope["body"], Value::Null);
        assert_eq!(envelope["message"], "w must be one of 64, 240, 480, 960, 1920 (pixels); leave it out for the original file");
    }
    assert!(gateway.renditions().is_empty());
    let missing = gateway.get(&format!("/ipfs/{}?w=240", api::files::cid::cid_v1(b"nobody stored this"))).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_decompression_bomb_is_refused_without_being_decoded() {
    let gateway = Gateway::start().await;
    // Over the 16384-pixel side (the decoder's own limit), and under it but over 40 megapixels.
    for (width, height) in [(100_000, 100_000), (10_000, 10_000)] {
        let bomb = png_bomb(width, height);
        assert!(bomb.len() < 100);
        let cid = gateway.upload(bomb.clone()).await;

        let answer = gateway.get(&format!("/ipfs/{cid}?w=240")).await;

        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{width}x{height}");
        let message = answer.json()["message"].as_str().unwrap_or_default().to_owned();
        assert!(message.contains("too large to resize"), "{message}");
        assert_eq!(gateway.get(&format!("/ipfs/{cid}")).await.body, bomb, "the file itself is still served as stored");
    }
    assert!(gateway.renditions().is_empty(), "nothing kept");
}

#[tokio::test]
async fn an_svg_and_an_image_no_wider_than_asked_are_answered_as_stored_and_a_non_image_is_a_400() {
    let gateway = Gateway::start().await;
    let svg = br#"<svg xmlns="http://www.w3.org/2000/svg" width="3000" height="3000"><circle r="9"/></svg>"#.to_vec();
    let small = encoded(&photo(200, 150), ImageFormat::Png);
    for (upload, content_type) in [(svg, "image/svg+xml"), (small, "image/png")] {
        let cid = gateway.upload(upload.clone()).await;

        let answer = gateway.get(&format!("/ipfs/{cid}?w=240")).await;

        assert_eq!((answer.status, answer.content_type.as_str()), (StatusCode::OK, content_type));
        assert_eq!(answer.body, upload, "unchanged, never upscaled");
        assert_eq!(answer.etag, format!("\"{cid}\""), "the stored file's own tag");
    }

    let metadata = gateway.upload(br#"{"name":"Sunset","image":"/ipfs/x"}"#.to_vec()).await;
    let answer = gateway.get(&format!("/ipfs/{metadata}?w=240")).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(answer.json()["message"], format!("{metadata} is not an image: ask for it without w"));
}

/// A multipart form of text fields and one file field, and its content type.
fn form(fields: &[(&str, &str)], file: (&str, &[u8])) -> (String, Vec<u8>) {
    const BOUNDARY: &str = "renditions-ahead-boundary";
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n").as_bytes());
    }
    let (name, bytes) = file;
    body.extend_from_slice(
        format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"upload\"\r\nContent-Type: application/octet-stream\r\n\r\n")
            .as_bytes(),
    );
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={BOUNDARY}"), body)
}

#[tokio::test]
async fn an_uploaded_image_has_its_renditions_made_without_being_asked_and_other_files_none() {
    let gateway = Gateway::start().await;
    let user = uuid::Uuid::from_u128(0xa11ce);
    projections::test_utils::register_user(gateway.state.store.as_ref(), user, "alice", "0xa11ce", chrono::Utc::now()).await;
    api::node::bootstrap::seed_categories(gateway.state.store.as_ref()).await.unwrap();
    gateway.projector.catch_up().await.unwrap();
    let token = gateway.state.accounts.tokens.issue(user).unwrap();
    let upload = |file: Vec<u8>| {
        let (content_type, body) = form(&[("title", "Dunes"), ("description", "Sand at dusk"), ("nftCategory", "art")], ("file", &file));
        let request = Request::post("/api/nft/ipfsupload")
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .header(header::CONTENT_TYPE, content_type)
            .body(Body::from(body))
            .unwrap();
        let app = gateway.app.clone();
        async move {
            let response = app.oneshot(request).await.unwrap();
            let status = response.status();
            let body: Value = serde_json::from_slice(&axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap()).unwrap();
            assert_eq!(status, StatusCode::OK, "{body}");
            body["body"]["metaData"].as_str().unwrap().trim_start_matches("ipfs://").to_owned()
        }
    };

    // An SVG first (already scalable: no renditions), then a photo wider than every width but
    // the largest; each upload also stores its metadata, a JSON file (no image).
    let svg = br#"<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="3000"><rect width="10" height="10"/></svg>"#.to_vec();
    let svg_metadata = upload(svg.clone()).await;
    let photo = encoded(&photo(1600, 1000), ImageFormat::Png);
    let photo_metadata = upload(photo.clone()).await;
    let (svg, photo) = (api::files::cid::cid_v1(&svg), api::files::cid::cid_v1(&photo));
    // Not through a route (each route refuses what is no image), but the same path.
    let text = api::files::store_upload(&gateway.state.files, &gateway.state.renditions, b"just some text".to_vec()).await.unwrap().cid;

    // Made in the background: wait for them (bounded), asking for none.
    let expected: Vec<String> = [1920, 240, 480, 64, 960].iter().map(|w| format!("{photo}.w{w}")).collect();
    let deadline = Instant::now() + Duration::from_secs(60);
    while gateway.renditions() != expected {
        assert!(Instant::now() < deadline, "renditions on disk after 60 s: {:?}", gateway.renditions());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    gateway.state.renditions.made_ahead().await;
    assert_eq!(gateway.renditions(), expected, "nothing for the SVG {svg}, the metadata {svg_metadata} {photo_metadata}, the text {text}");
    let dir = gateway.state.renditions.dir();
    assert_eq!(
        std::fs::metadata(dir.join(format!("{photo}.w1920"))).unwrap().len(),
        0,
        "1920 is wider than the photo: the original answers"
    );

    // A request finds them made: the kept bytes answer.
    let kept = std::fs::read(dir.join(format!("{photo}.w480"))).unwrap();
    let answer = gateway.get(&format!("/ipfs/{photo}?w=480")).await;
    assert_eq!((answer.status, answer.content_type.as_str()), (StatusCode::OK, "image/jpeg"));
    assert_eq!(answer.body, kept);
    assert_eq!((answer.image().width(), answer.image().height()), (480, 300));
}
