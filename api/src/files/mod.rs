//! The content-addressed file store behind `/ipfs/{cid}`: images, avatars and NFT metadata.
//!
//! Files are kept under their IPFS CIDv1 ([`cid::cid_v1`]) in a local folder (the embedded
//! default). The address is the hash of the content, so a stored file never changes: it is served
//! with immutable caching, and storing the same bytes twice stores them once.

pub mod cid;

use std::{
    io,
    path::{Path, PathBuf},
};

/// A file as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredFile {
    /// Its CIDv1.
    pub cid: String,
    /// The type its content shows.
    pub content_type: &'static str,
    /// Its size in bytes.
    pub size: u64,
}

impl StoredFile {
    /// The path it is served at (`/ipfs/<cid>`).
    pub fn url(&self) -> String {
        format!("/ipfs/{}", self.cid)
    }
}

/// The local content-addressed store.
pub struct FileStore {
    dir: PathBuf,
}

impl FileStore {
    /// A store in `dir` (created if missing).
    pub fn open(dir: &Path) -> io::Result<Self> {
        std::fs::create_dir_all(dir)?;
        Ok(Self { dir: dir.to_owned() })
    }

    /// Stores `bytes` and returns their CID. Written to a temporary file and renamed, so a crash
    /// never leaves a half-written file under a valid address.
    pub async fn put(&self, bytes: Vec<u8>) -> io::Result<StoredFile> {
        let dir = self.dir.clone();
        tokio::task::spawn_blocking(move || {
            let cid = cid::cid_v1(&bytes);
            let path = dir.join(&cid);
            if !path.exists() {
                let tmp = dir.join(format!(".{cid}.{}", uuid_like()));
                std::fs::write(&tmp, &bytes)?;
                std::fs::rename(&tmp, &path)?;
            }
            Ok(StoredFile { content_type: sniff(&bytes), size: bytes.len() as u64, cid })
        })
        .await
        .map_err(io::Error::other)?
    }

    /// The bytes stored under `cid`, if any.
    pub async fn get(&self, cid: &str) -> io::Result<Option<Vec<u8>>> {
        if !cid::is_cid_v1(cid) {
            return Ok(None);
        }
        match tokio::fs::read(self.dir.join(cid)).await {
            Ok(bytes) => Ok(Some(bytes)),
            Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(err) => Err(err),
        }
    }
}

fn uuid_like() -> String {
    format!("{}-{:?}", std::process::id(), std::thread::current().id()).replace(['(', ')'], "")
}

/// The content type the bytes themselves show (never the file name).
pub fn sniff(bytes: &[u8]) -> &'static str {
    image_type(bytes).unwrap_or_else(|| {
        let text = std::str::from_utf8(bytes).map(str::trim_start);
        match text {
            Ok(t) if (t.starts_with('{') || t.starts_with('[')) && serde_json::from_slice::<serde_json::Value>(bytes).is_ok() => {
                "application/json"
            }
            _ => "application/octet-stream",
        }
    })
}

/// The image type of `bytes` by their magic numbers, or `None` if they are no image we accept
/// (PNG, JPEG, GIF, WebP, SVG).
pub fn image_type(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        Some("image/gif")
    } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some("image/webp")
    } else if is_svg(bytes) {
        Some("image/svg+xml")
    } else {
        None
    }
}

fn is_svg(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(&bytes[..bytes.len().min(4096)]) else { return false };
    let mut rest = text.trim_start_matches('\u{feff}').trim_start();
    // Skip an XML declaration, comments and a doctype before the root element.
    loop {
        if let Some(after) = rest.strip_prefix("<?xml").and_then(|r| r.split_once("?>")) {
            rest = after.1.trim_start();
        } else if let Some(after) = rest.strip_prefix("<!--").and_then(|r| r.split_once("-->")) {
            rest = after.1.trim_start();
        } else if let Some(after) = rest.strip_prefix("<!DOCTYPE").and_then(|r| r.split_once('>')) {
            rest = after.1.trim_start();
        } else {
            break;
        }
    }
    rest.starts_with("<svg") && rest[4..].starts_with(|c: char| c.is_whitespace() || c == '>')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_recognised_by_content() {
        assert_eq!(image_type(b"\x89PNG\r\n\x1a\n...."), Some("image/png"));
        assert_eq!(image_type(&[0xFF, 0xD8, 0xFF, 0xE0]), Some("image/jpeg"));
        assert_eq!(image_type(b"RIFF\0\0\0\0WEBPVP8 "), Some("image/webp"));
        assert_eq!(image_type(b"<?xml version=\"1.0\"?>\n<!-- x --><svg xmlns=\"http://www.w3.org/2000/svg\"/>"), Some("image/svg+xml"));
        assert_eq!(image_type(b"%PDF-1.7"), None);
        assert_eq!(image_type(b"<svgx>"), None);
        assert_eq!(image_type(b"MZ\x90\0 not an image.png"), None);
        assert_eq!(sniff(br#"{"name":"x"}"#), "application/json");
    }

    #[tokio::test]
    async fn the_same_bytes_are_stored_once_under_their_cid() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::open(dir.path()).unwrap();

        let first = store.put(b"hello world".to_vec()).await.unwrap();
        let again = store.put(b"hello world".to_vec()).await.unwrap();

        assert_eq!(first, again);
        assert_eq!(first.cid, "bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e");
        assert_eq!(store.get(&first.cid).await.unwrap().as_deref(), Some(&b"hello world"[..]));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file left");
        assert_eq!(store.get("../../etc/passwd").await.unwrap(), None);
    }
}
