//! A client of Kubo's RPC (`/api/v0/...`): adds and pins files, and reads them back. An IPFS
//! Cluster's Kubo proxy speaks the same protocol and pins cluster-wide.

use axum::body::Bytes;
use reqwest::{Client, Response, Url, header::HeaderValue, multipart};
use serde::Deserialize;

use super::{FileError, shorten, unreachable_error};

/// What errors and logs call this service.
const SERVICE: &str = "Kubo RPC";

/// The `add` parameters that make Kubo import a file exactly as [`super::cid::cid_v1`] computes
/// it, whatever the node's `Import.*` settings or profile: CIDv1 in base32, SHA-256, raw leaves,
/// 256 KiB chunks, a balanced tree of at most 174 links, no inlined blocks, no wrapping
/// directory. Kubo ignores options it does not know, so older versions (whose file width is
/// always 174) accept `max-file-links` too.
const ADD_PARAMS: &[(&str, &str)] = &[
    ("cid-version", "1"),
    ("cid-base", "base32"),
    ("hash", "sha2-256"),
    ("raw-leaves", "true"),
    ("chunker", "size-262144"),
    ("trickle", "false"),
    ("max-file-links", "174"),
    ("inline", "false"),
    ("wrap-with-directory", "false"),
    ("pin", "true"),
    ("quieter", "true"),
    ("progress", "false"),
];

/// A Kubo node (or cluster proxy) reached over its RPC.
pub(super) struct KuboRpc {
    api: Url,
    authorization: Option<HeaderValue>,
    fetch_from_network: bool,
    http: Client,
}

/// One line of `add`'s output.
#[derive(Deserialize)]
struct AddedEntry {
    #[serde(rename = "Hash")]
    hash: Option<String>,
    /// Set instead when the stream ended in an error.
    #[serde(rename = "Message")]
    message: Option<String>,
}

impl KuboRpc {
    /// A client of the RPC at `api` (its base, e.g. `http://127.0.0.1:5001`), sending
    /// `authorization` with each call. Reads only what the node holds unless
    /// `fetch_from_network`.
    pub(super) fn new(api: Url, authorization: Option<HeaderValue>, fetch_from_network: bool, http: Client) -> Self {
        Self { api, authorization, fetch_from_network, http }
    }

    /// Adds and pins `bytes`; returns the CID Kubo gave them.
    pub(super) async fn add(&self, bytes: Bytes) -> Result<String, FileError> {
        let size = bytes.len() as u64;
        let part = multipart::Part::stream_with_length(bytes, size)
            .file_name("file")
            .mime_str("application/octet-stream")
            .expect("a valid MIME type");
        let request = self.call("add").query(ADD_PARAMS).multipart(multipart::Form::new().part("file", part));
        let response = self.send(request, "add").await?;
        let body = response.text().await.map_err(|e| unreachable(e, "add"))?;
        // Newline-delimited JSON; with `quieter` only the root's line. An error after the stream
        // began comes as a last line with a message (and a trailer reqwest does not surface).
        let mut cid = None;
        for line in body.lines().filter(|l| !l.trim().is_empty()) {
            let entry: AddedEntry = serde_json::from_str(line).map_err(|e| FileError::BadAnswer {
                service: SERVICE,
                operation: "add",
                detail: e.to_string(),
            })?;
            if let Some(message) = entry.message {
                return Err(FileError::Refused { service: SERVICE, operation: "add", status: 200, message });
            }
            cid = entry.hash.filter(|h| !h.is_empty()).or(cid);
        }
        cid.ok_or_else(|| FileError::BadAnswer {
            service: SERVICE,
            operation: "add",
            detail: "no CID in the answer (the stream may have been cut)".into(),
        })
    }

    /// The bytes of `cid`, at most `limit` of them, or `None` if the node does not have it.
    pub(super) async fn cat(&self, cid: &str, limit: u64) -> Result<Option<Vec<u8>>, FileError> {
        // One byte past the limit tells a file at the limit from a larger one.
        let length = (limit + 1).to_string();
        let mut request = self.call("cat").query(&[("arg", cid), ("length", length.as_str())]);
        if !self.fetch_from_network {
            // Only local blocks: a visitor naming any CID must not make the node search the network.
            request = request.query(&[("offline", "true")]);
        }
        let mut response = match self.send(request, "cat").await {
            // Only Kubo's own errors (500): a 404 means the URL is not a Kubo RPC at all.
            Err(FileError::Refused { status: 500, message, .. }) if is_not_found(&message) => return Ok(None),
            other => other?,
        };
        let mut bytes = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|e| unreachable(e, "cat"))? {
            bytes.extend_from_slice(&chunk);
            if bytes.len() as u64 > limit {
                return Err(FileError::TooLarge { cid: cid.to_owned(), limit });
            }
        }
        Ok(Some(bytes))
    }

    /// A POST (the RPC refuses GET) to `/api/v0/<command>`.
    fn call(&self, command: &str) -> reqwest::RequestBuilder {
        let mut url = self.api.clone();
        url.path_segments_mut().expect("an http(s) URL has a path").pop_if_empty().extend(["api", "v0", command]);
        let request = self.http.post(url);
        match &self.authorization {
            Some(value) => request.header(reqwest::header::AUTHORIZATION, value.clone()),
            None => request,
        }
    }

    /// Sends `request`; an answer other than 200 becomes [`FileError::Refused`] with Kubo's
    /// message (`{"Message": ..., "Type": "error"}`, or plain text).
    async fn send(&self, request: reqwest::RequestBuilder, operation: &'static str) -> Result<Response, FileError> {
        let response = request.send().await.map_err(|e| unreachable(e, operation))?;
        if response.status().is_success() {
            return Ok(response);
        }
        let status = response.status().as_u16();
        let body = response.text().await.unwrap_or_default();
        let message =
            serde_json::from_str::<serde_json::Value>(&body).ok().and_then(|v| v["Message"].as_str().map(str::to_owned)).unwrap_or(body);
        Err(FileError::Refused { service: SERVICE, operation, status, message: shorten(message) })
    }
}

/// Kubo answers a missing block with a 500 whose message says so: "block was not found locally
/// (offline): ipld: could not find <cid>", or "merkledag: not found" from older versions.
fn is_not_found(message: &str) -> bool {
    let message = message.to_ascii_lowercase();
    message.contains("not found") || message.contains("could not find")
}

fn unreachable(err: reqwest::Error, operation: &'static str) -> FileError {
    unreachable_error(SERVICE, operation, err)
}
