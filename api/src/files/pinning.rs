//! A client of the IPFS Pinning Services API (`/pins`, bearer token): asks a remote service to
//! keep a copy of each new file.

use std::collections::BTreeMap;

use reqwest::{Client, RequestBuilder, Response, Url, header::HeaderValue};
use serde::{Deserialize, Serialize};

use super::{FileError, StoredFile, shorten, unreachable_error};

/// What errors and logs call this service.
const SERVICE: &str = "pinning service";

/// A remote pinning service.
pub(super) struct PinningService {
    pins: Url,
    bearer: HeaderValue,
    origins: Vec<String>,
    http: Client,
}

/// A pin request (the spec's `Pin` object).
#[derive(Serialize)]
struct Pin<'a> {
    cid: &'a str,
    name: &'a str,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    origins: &'a [String],
    meta: BTreeMap<&'static str, String>,
}

/// The spec's `PinStatus`, as far as we read it.
#[derive(Deserialize)]
struct PinStatus {
    requestid: String,
    status: String,
}

/// The spec's `PinResults`.
#[derive(Deserialize)]
struct PinResults {
    count: u64,
}

/// The spec's `Failure`: `{"error": {"reason": ..., "details": ...}}`.
#[derive(Deserialize)]
struct Failure {
    error: FailureReason,
}

#[derive(Deserialize)]
struct FailureReason {
    reason: String,
    details: Option<String>,
}

impl PinningService {
    /// A client of the service at `endpoint` (its base URL, `/pins` below it) with `token`;
    /// `origins` are the multiaddrs of nodes that hold the files, sent with each request.
    pub(super) fn new(endpoint: &Url, token: &str, origins: Vec<String>, http: Client) -> Result<Self, FileError> {
        let mut pins = endpoint.clone();
        pins.path_segments_mut().expect("an http(s) URL has a path").pop_if_empty().push("pins");
        let mut bearer = HeaderValue::try_from(format!("Bearer {token}"))
            .map_err(|_| FileError::Misconfigured("PINNING_SERVICE_TOKEN is not a valid header value".into()))?;
        // Kept out of hyper's and reqwest's debug output.
        bearer.set_sensitive(true);
        Ok(Self { pins, bearer, origins, http })
    }

    /// Makes sure the service keeps `file`. Nothing is requested when a pin of its CID is
    /// already queued, pinning or pinned, so uploading the same bytes again does not pile up
    /// pins the service bills for; a failed pin is requested again. Returns once the service
    /// has accepted the request (it then fetches the content in its own time).
    pub(super) async fn ensure_pinned(&self, file: &StoredFile) -> Result<(), FileError> {
        let lookup =
            self.http.get(self.pins.clone()).query(&[("cid", file.cid.as_str()), ("status", "queued,pinning,pinned"), ("limit", "1")]);
        let existing: PinResults = read_json(self.send(lookup, "pin lookup").await?, "pin lookup").await?;
        if existing.count > 0 {
            tracing::debug!(cid = %file.cid, "already pinned remotely");
            return Ok(());
        }
        let meta = BTreeMap::from([
            ("app", "marketplace".to_owned()),
            ("contentType", file.content_type.to_owned()),
            ("size", file.size.to_string()),
        ]);
        let pin = Pin { cid: &file.cid, name: &file.cid, origins: &self.origins, meta };
        let request = self.http.post(self.pins.clone()).json(&pin);
        let accepted: PinStatus = read_json(self.send(request, "pin request").await?, "pin request").await?;
        if accepted.status == "failed" {
            return Err(FileError::Refused {
                service: SERVICE,
                operation: "pin request",
                status: 202,
                message: format!("pin {} failed at once", accepted.requestid),
            });
        }
        tracing::info!(cid = %file.cid, request = %accepted.requestid, status = %accepted.status, "pin requested");
        Ok(())
    }

    /// Sends `request` with the token; an answer other than 2xx becomes [`FileError::Refused`]
    /// with the service's reason and details.
    async fn send(&self, request: RequestBuilder, operation: &'static str) -> Result<Response, FileError> {
        let response = request
            .header(reqwest::header::AUTHORIZATION, self.bearer.clone())
            .send()
            .await
            .map_err(|e| unreachable_error(SERVICE, operation, e))?;
        if response.status().is_success() {
            return Ok(response);
        }
        let status = response.status().as_u16();
        let body = response.text().await.unwrap_or_default();
        let message = match serde_json::from_str::<Failure>(&body) {
            Ok(Failure { error: FailureReason { reason, details: Some(details) } }) => format!("{reason}: {details}"),
            Ok(Failure { error: FailureReason { reason, details: None } }) => reason,
            Err(_) => body,
        };
        Err(FileError::Refused { service: SERVICE, operation, status, message: shorten(message) })
    }
}

async fn read_json<T: serde::de::DeserializeOwned>(response: Response, operation: &'static str) -> Result<T, FileError> {
    let body = response.bytes().await.map_err(|e| unreachable_error(SERVICE, operation, e))?;
    serde_json::from_slice(&body).map_err(|e| FileError::BadAnswer { service: SERVICE, operation, detail: e.to_string() })
}
