//! The content-addressed file store behind `/ipfs/{cid}`: images, avatars and NFT metadata.
//!
//! Files are kept under their IPFS CIDv1 ([`cid::cid_v1`]). The address is the hash of the
//! content, so a stored file never changes: it is served with immutable caching, and storing the
//! same bytes twice stores them once. Where they live is configuration:
//!
//! - a local folder (the embedded default);
//! - a Kubo node or an IPFS Cluster's Kubo proxy: it stores and pins each file, and must name
//!   it by the CID computed here, else the upload fails. The folder then caches files: the
//!   gateway serves hot ones without a round trip, and being immutable they are never stale;
//! - an IPFS Pinning Services API endpoint, alone or with Kubo: each new file is pinned there too, and
//!   an upload fails when the service refuses the pin.
//!
//! The local copy is written last, so a failed upload leaves nothing the gateway would serve.
//!
//! Images fetched for tokens minted elsewhere ([`FileStore::put_foreign`]) are strangers' files:
//! they count against the operator's quota (`METADATA_FILES_QUOTA_BYTES`) and, once no record
//! uses them, are removed ([`FileStore::collect_foreign`]). Uploads are never removed: the same
//! bytes uploaded make the file an upload.

pub mod cid;
mod kubo;
mod local;
mod pinning;
pub mod renditions;
pub mod svg;

use std::{collections::HashSet, io, path::Path, sync::Arc, time::Duration};

use axum::body::Bytes;
use reqwest::{Url, header::HeaderValue};

use crate::config::Config;

/// The largest file read back from Kubo: the gateway holds a file in memory to check its hash.
pub const MAX_FETCHED_BYTES: u64 = 64 * 1024 * 1024;

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

/// Why a file could not be stored or read.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The local folder could not be read or written.
    #[error("file store folder: {0}")]
    Io(#[from] io::Error),
    /// A file-store setting is wrong (found at start).
    #[error("file store settings: {0}")]
    Misconfigured(String),
    /// The Kubo node or pinning service could not be reached, or did not answer in time.
    #[error("{service} did not answer the {operation}")]
    Unreachable {
        /// Which service.
        service: &'static str,
        /// What was asked.
        operation: &'static str,
        /// The transport's error (without the URL).
        #[source]
        source: reqwest::Error,
    },
    /// The service answered with an error.
    #[error("{service} refused the {operation} (HTTP {status}): {message}")]
    Refused {
        /// Which service.
        service: &'static str,
        /// What was asked.
        operation: &'static str,
        /// Its HTTP status.
        status: u16,
        /// Its message, shortened.
        message: String,
    },
    /// The service answered something this client cannot read.
    #[error("{service} answered the {operation} unexpectedly: {detail}")]
    BadAnswer {
        /// Which service.
        service: &'static str,
        /// What was asked.
        operation: &'static str,
        /// What was wrong with the answer.
        detail: String,
    },
    /// Kubo named the file by another CID than ours: its import settings differ, and links
    /// to the file would not resolve on IPFS.
    #[error("Kubo stored the file as {theirs}, but its CID is {ours}: the node imports with other settings")]
    CidMismatch {
        /// The CID computed here.
        ours: String,
        /// The CID Kubo answered.
        theirs: String,
    },
    /// The bytes read for a CID do not hash to it: corrupted, cut short, or imported with other
    /// settings. They are not served.
    #[error("the bytes Kubo returned for {cid} do not hash to that CID")]
    Corrupt {
        /// The CID asked for.
        cid: String,
    },
    /// The foreign images stored would pass the operator's quota with this one.
    #[error("not stored: the server's space for images of tokens minted elsewhere is full")]
    QuotaFull,
    /// The file is larger than [`MAX_FETCHED_BYTES`].
    #[error("{cid} is larger than {limit} bytes")]
    TooLarge {
        /// The CID asked for.
        cid: String,
        /// The limit.
        limit: u64,
    },
}

/// The content-addressed store: the local folder, and the remote services configured.
pub struct FileStore {
    local: local::LocalDir,
    kubo: Option<kubo::KuboRpc>,
    pinning: Option<pinning::PinningService>,
    /// The bytes of foreign images stored (counted from `.foreign/` on first use), held while
    /// one is stored or removed so that the quota is checked against the true total.
    foreign_bytes: tokio::sync::Mutex<Option<u64>>,
}

/// What [`FileStore::collect_foreign`] removed.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Collected {
    /// Files removed.
    pub files: usize,
    /// Their bytes.
    pub bytes: u64,
}

impl FileStore {
    /// A store in the local folder `dir` only (created if missing).
    pub fn open(dir: &Path) -> io::Result<Self> {
        Ok(Self { local: local::LocalDir::open(dir)?, kubo: None, pinning: None, foreign_bytes: tokio::sync::Mutex::new(None) })
    }

    /// The store `config` describes: the files folder, plus Kubo (`IPFS_API_URL`) and a pinning
    /// service (`PINNING_SERVICE_URL`) when set. Bad settings fail here, at start.
    pub fn from_config(config: &Config) -> Result<Self, FileError> {
        let mut store = Self::open(&config.files_dir())?;
        if config.ipfs_api_url.is_none() && config.pinning_service_url.is_none() {
            return Ok(store);
        }
        let timeout = Duration::from_secs(config.ipfs_timeout_secs.max(1));
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout.min(Duration::from_secs(5)))
            .build()
            .map_err(|e| FileError::Misconfigured(format!("HTTP client: {e}")))?;
        if let Some(url) = &config.ipfs_api_url {
            let api = service_url(url, "IPFS_API_URL")?;
            let authorization = match config.ipfs_api_auth.as_ref().filter(|a| !a.expose().is_empty()) {
                Some(value) => {
                    let mut value = HeaderValue::try_from(value.expose())
                        .map_err(|_| FileError::Misconfigured("IPFS_API_AUTH is not a valid header value".into()))?;
                    value.set_sensitive(true);
                    Some(value)
                }
                None => None,
            };
            tracing::info!(api = %api, fetch_from_network = config.ipfs_fetch_from_network, "files: stored and pinned by Kubo, cached locally");
            store.kubo = Some(kubo::KuboRpc::new(api, authorization, config.ipfs_fetch_from_network, http.clone()));
        }
        if let Some(url) = &config.pinning_service_url {
            let endpoint = service_url(url, "PINNING_SERVICE_URL")?;
            let token = config
                .pinning_service_token
                .as_ref()
                .filter(|t| !t.expose().is_empty())
                .ok_or_else(|| FileError::Misconfigured("PINNING_SERVICE_URL needs PINNING_SERVICE_TOKEN".into()))?;
            if store.kubo.is_none() && config.pinning_origins.is_empty() {
                tracing::warn!(
                    "files: pins are requested but no IPFS node provides the files (set IPFS_API_URL or \
                     PINNING_ORIGINS): the service will not find their content"
                );
            }
            tracing::info!(endpoint = %endpoint, "files: each new file is pinned by the pinning service");
            store.pinning = Some(pinning::PinningService::new(&endpoint, token.expose(), config.pinning_origins.clone(), http)?);
        }
        Ok(store)
    }

    /// Stores `bytes` and returns their CID: in Kubo (which must agree on the CID), then pinned
    /// remotely, then in the local folder. Any failure fails the whole upload.
    pub async fn put(&self, bytes: impl Into<Bytes>) -> Result<StoredFile, FileError> {
        let file = self.store(bytes.into()).await?;
        // An upload is the uploader's: never collected, whoever stored the bytes first.
        if let Some(entry) = self.local.foreign_entry(&file.cid).await? {
            let mut total = self.foreign_bytes.lock().await;
            self.local.unmark_foreign(&file.cid).await?;
            if let Some(total) = total.as_mut() {
                *total = total.saturating_sub(entry.size);
            }
        }
        Ok(file)
    }

    /// [`Self::put`] without a word to the foreign-image list.
    async fn store(&self, bytes: Bytes) -> Result<StoredFile, FileError> {
        let file = StoredFile { cid: compute_cid(bytes.clone()).await?, content_type: sniff(&bytes), size: bytes.len() as u64 };
        if let Some(kubo) = &self.kubo {
            let theirs = kubo.add(bytes.clone()).await?;
            if theirs != file.cid {
                // Kubo keeps its pin: on a shared node the same CID may be someone else's pin,
                // and unpinning it would drop their file.
                return Err(FileError::CidMismatch { ours: file.cid, theirs });
            }
        }
        if let Some(pinning) = &self.pinning {
            pinning.ensure_pinned(&file).await?;
        }
        self.local.write(&file.cid, &bytes).await?;
        Ok(file)
    }

    /// Stores `bytes` as the image of a token minted elsewhere, unless the same bytes are stored
    /// already (then nothing is written). A new file must fit in `quota` bytes of foreign images
    /// (0: no limit). The file, and whether it was written.
    pub async fn put_foreign(&self, bytes: Bytes, quota: u64) -> Result<(StoredFile, bool), FileError> {
        let file = StoredFile { cid: compute_cid(bytes.clone()).await?, content_type: sniff(&bytes), size: bytes.len() as u64 };
        let mut total = self.foreign_bytes.lock().await;
        if self.local.contains(&file.cid).await? {
            // Stored again now: the collector's grace starts over (a record naming it may be on
            // its way). An upload stays an upload.
            if self.local.foreign_entry(&file.cid).await?.is_some() {
                self.local.mark_foreign(&file.cid, file.size).await?;
            }
            return Ok((file, false));
        }
        let stored = match *total {
            Some(total) => total,
            None => self.local.foreign().await?.iter().map(|entry| entry.size).sum(),
        };
        *total = Some(stored);
        if quota > 0 && stored + file.size > quota {
            return Err(FileError::QuotaFull);
        }
        // Listed before it is written: a file is never stored unlisted, so never kept for good.
        self.local.mark_foreign(&file.cid, file.size).await?;
        if let Err(err) = self.store(bytes).await {
            self.local.unmark_foreign(&file.cid).await?;
            return Err(err);
        }
        *total = Some(stored + file.size);
        Ok((file, true))
    }

    /// The bytes of foreign images stored.
    pub async fn foreign_bytes(&self) -> Result<u64, FileError> {
        let mut total = self.foreign_bytes.lock().await;
        let bytes = self.local.foreign().await?.iter().map(|entry| entry.size).sum();
        *total = Some(bytes);
        Ok(bytes)
    }

    /// Removes the foreign images last stored at or before `stored_before` (Unix seconds) whose CID is not
    /// in `in_use`; `renditions` loses theirs. Only foreign images are candidates: an upload not
    /// minted yet is referenced by nothing and must stay. Kubo's and the pinning service's pins
    /// are left: on a shared node the same CID may be someone else's.
    pub async fn collect_foreign(
        &self,
        in_use: &HashSet<String>,
        stored_before: i64,
        renditions: &renditions::Renditions,
    ) -> Result<Collected, FileError> {
        let mut collected = Collected::default();
        for entry in self.local.foreign().await? {
            if entry.stored_at > stored_before || in_use.contains(&entry.cid) {
                continue;
            }
            let mut total = self.foreign_bytes.lock().await;
            // Read again under the lock: stored again meanwhile means wanted again.
            match self.local.foreign_entry(&entry.cid).await? {
                Some(now) if now.stored_at <= stored_before => {}
                _ => continue,
            }
            self.local.remove(&entry.cid).await?;
            self.local.unmark_foreign(&entry.cid).await?;
            renditions.remove(&entry.cid).await?;
            if let Some(total) = total.as_mut() {
                *total = total.saturating_sub(entry.size);
            }
            collected.files += 1;
            collected.bytes += entry.size;
        }
        Ok(collected)
    }

    /// Removes a file of the local store and its renditions (an erased person's avatar or cover).
    /// Kubo's and the pinning service's pins are left: on a shared node the same CID may be
    /// someone else's, and an erased person's file there is only reachable by its CID.
    pub async fn remove(&self, cid: &str, renditions: &renditions::Renditions) -> Result<(), FileError> {
        if !cid::is_cid_v1(cid) {
            return Ok(());
        }
        self.local.remove(cid).await?;
        renditions.remove(cid).await?;
        Ok(())
    }

    /// The bytes stored under `cid`, if any: from the local folder, else from Kubo (checked
    /// against the CID, then cached).
    pub async fn get(&self, cid: &str) -> Result<Option<Vec<u8>>, FileError> {
        if !cid::is_cid_v1(cid) {
            return Ok(None);
        }
        if let Some(bytes) = self.local.read(cid).await? {
            return Ok(Some(bytes));
        }
        let Some(kubo) = &self.kubo else { return Ok(None) };
        let Some(bytes) = kubo.cat(cid, MAX_FETCHED_BYTES).await? else { return Ok(None) };
        let bytes = Bytes::from(bytes);
        if compute_cid(bytes.clone()).await? != cid {
            return Err(FileError::Corrupt { cid: cid.to_owned() });
        }
        // A cache: failing to keep a copy only costs the next round trip.
        if let Err(err) = self.local.write(cid, &bytes).await {
            tracing::warn!(%err, cid, "could not cache a file read from Kubo");
        }
        Ok(Some(bytes.into()))
    }
}

/// Stores an upload with [`FileStore::put`] and, once stored, has its renditions made in the
/// background ([`renditions::Renditions::make_ahead`]): the upload's answer never waits for
/// them nor fails with them.
pub async fn store_upload(files: &FileStore, renditions: &Arc<renditions::Renditions>, bytes: Vec<u8>) -> Result<StoredFile, FileError> {
    let bytes = Bytes::from(bytes);
    let file = files.put(bytes.clone()).await?;
    renditions.make_ahead(&file.cid, bytes);
    Ok(file)
}

/// The CID of `bytes`, hashed off the async threads (a few milliseconds per megabyte).
async fn compute_cid(bytes: Bytes) -> io::Result<String> {
    tokio::task::spawn_blocking(move || cid::cid_v1(&bytes)).await.map_err(io::Error::other)
}

/// A service's base URL from setting `name`: http(s), and without credentials, which belong in
/// the secret settings (URLs are logged).
fn service_url(text: &str, name: &str) -> Result<Url, FileError> {
    let url = Url::parse(text).map_err(|e| FileError::Misconfigured(format!("{name}: {e}")))?;
    if !matches!(url.scheme(), "http" | "https") || url.cannot_be_a_base() {
        return Err(FileError::Misconfigured(format!("{name} must be an http(s) URL")));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(FileError::Misconfigured(format!(
            "{name} must not hold credentials: they would be logged; use the token or auth setting"
        )));
    }
    Ok(url)
}

/// A transport error as a [`FileError`], stripped of its URL.
fn unreachable_error(service: &'static str, operation: &'static str, err: reqwest::Error) -> FileError {
    FileError::Unreachable { service, operation, source: err.without_url() }
}

/// A remote message cut to a length fit for a log line.
fn shorten(mut message: String) -> String {
    const MAX: usize = 300;
    if message.len() > MAX {
        let mut end = MAX;
        while !message.is_char_boundary(end) {
            end -= 1;
        }
        message.truncate(end);
        message.push('…');
    }
    message.trim().to_owned()
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
        } else if let Some(doctype) = rest.strip_prefix("<!DOCTYPE") {
            // Past its internal subset (`[...]`, where `>` ends each declaration), if any.
            let Some((head, tail)) = doctype.split_once('>') else { break };
            let after =
                if head.contains('[') { doctype.split_once(']').and_then(|(_, t)| t.split_once('>')).map(|(_, t)| t) } else { Some(tail) };
            let Some(after) = after else { break };
            rest = after.trim_start();
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
        // A doctype with entities is still an SVG by content (and refused by `svg::problem`).
        assert_eq!(
            image_type(br#"<!DOCTYPE svg [<!ENTITY s "x">]><svg xmlns="http://www.w3.org/2000/svg">&s;</svg>"#),
            Some("image/svg+xml")
        );
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
