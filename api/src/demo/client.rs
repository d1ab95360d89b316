//! The demo's HTTP client: the marketplace API as the UI calls it (JSON, forms, multipart), its
//! envelope unwrapped, a 429 waited out as a patient user would.

use std::time::Duration;

use anyhow::{Context, bail};
use reqwest::{Method, RequestBuilder, StatusCode, multipart};
use serde_json::Value;

use super::artwork::Artwork;

/// How long a rate-limited call is retried for before the demo gives up.
const RATE_LIMIT_PATIENCE: Duration = Duration::from_secs(180);

/// An answer the API refused: its status and message.
#[derive(Debug, thiserror::Error)]
#[error("{method} {path}: {status} {message}")]
pub struct Refused {
    /// The call's method.
    pub method: Method,
    /// The call's path.
    pub path: String,
    /// The HTTP status.
    pub status: StatusCode,
    /// The envelope's message.
    pub message: String,
}

/// A body to send.
pub enum Body {
    /// No body.
    Empty,
    /// `application/json`.
    Json(Value),
    /// `application/x-www-form-urlencoded`.
    Form(Vec<(&'static str, String)>),
    /// `multipart/form-data`: text fields and image files.
    Multipart(Vec<(&'static str, String)>, Vec<(&'static str, Artwork)>),
}

/// The marketplace API at a base URL.
#[derive(Clone)]
pub struct Api {
    http: reqwest::Client,
    base: String,
}

impl Api {
    /// A client of the server at `base` (e.g. `http://127.0.0.1:8080`).
    pub fn new(base: &str) -> anyhow::Result<Self> {
        let http = reqwest::Client::builder().timeout(Duration::from_secs(120)).build().context("building the HTTP client")?;
        Ok(Self { http, base: base.trim_end_matches('/').to_owned() })
    }

    /// The base URL.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// The `Host` this client sends: the domain a wallet-link message must name.
    pub fn host(&self) -> anyhow::Result<String> {
        let url = reqwest::Url::parse(&self.base).context("the API URL")?;
        let host = url.host_str().context("the API URL has no host")?;
        Ok(match url.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_owned(),
        })
    }

    /// Waits until the server answers `/healthz` (at most `limit`).
    pub async fn wait_until_up(&self, limit: Duration) -> anyhow::Result<()> {
        let started = std::time::Instant::now();
        loop {
            match self.http.get(format!("{}/healthz", self.base)).send().await {
                Ok(response) if response.status().is_success() => return Ok(()),
                _ if started.elapsed() < limit => tokio::time::sleep(Duration::from_millis(250)).await,
                Ok(response) => bail!("{} answers /healthz with {}", self.base, response.status()),
                Err(err) => bail!("{} does not answer: {err}", self.base),
            }
        }
    }

    fn request(&self, method: &Method, path: &str, token: Option<&str>, body: &Body) -> anyhow::Result<RequestBuilder> {
        let mut request = self.http.request(method.clone(), format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        Ok(match body {
            Body::Empty => request,
            Body::Json(value) => request.json(value),
            Body::Form(fields) => {
                let text: Vec<String> = fields.iter().map(|(name, value)| format!("{}={}", encode(name), encode(value))).collect();
                request.header(reqwest::header::CONTENT_TYPE, "application/x-www-form-urlencoded").body(text.join("&"))
            }
            Body::Multipart(fields, files) => {
                let mut form = multipart::Form::new();
                for (name, value) in fields {
                    form = form.text(*name, value.clone());
                }
                for (name, art) in files {
                    let part = multipart::Part::bytes(art.bytes.clone()).file_name(art.file_name.clone()).mime_str(art.content_type)?;
                    form = form.part(*name, part);
                }
                request.multipart(form)
            }
        })
    }

    /// Sends a call and answers the envelope's body; a non-2xx answer is a [`Refused`] error.
    pub async fn call(&self, method: Method, path: &str, token: Option<&str>, body: Body) -> anyhow::Result<Value> {
        Ok(self.call_with_message(method, path, token, body).await?.0)
    }

    /// [`Api::call`], answering the envelope's message too.
    pub async fn call_with_message(&self, method: Method, path: &str, token: Option<&str>, body: Body) -> anyhow::Result<(Value, String)> {
        let started = std::time::Instant::now();
        loop {
            let response = self.request(&method, path, token, &body)?.send().await.with_context(|| format!("{method} {path}"))?;
            let status = response.status();
            let text = response.text().await.with_context(|| format!("{method} {path}: reading the answer"))?;
            let envelope: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
            if status.is_success() {
                return Ok((envelope["body"].clone(), envelope["message"].as_str().unwrap_or_default().to_owned()));
            }
            if status == StatusCode::TOO_MANY_REQUESTS && started.elapsed() < RATE_LIMIT_PATIENCE {
                tracing::info!(path, "demo: rate limited; waiting before trying again");
                tokio::time::sleep(Duration::from_secs(7)).await;
                continue;
            }
            let message = envelope["message"].as_str().map_or_else(|| text.chars().take(200).collect(), str::to_owned);
            return Err(Refused { method, path: path.to_owned(), status, message }.into());
        }
    }

    /// `GET path`.
    pub async fn get(&self, path: &str, token: Option<&str>) -> anyhow::Result<Value> {
        self.call(Method::GET, path, token, Body::Empty).await
    }

    /// Every row of a paged list (`page`, `limit` appended to `path`).
    pub async fn all_pages(&self, path: &str, token: Option<&str>) -> anyhow::Result<Vec<Value>> {
        let separator = if path.contains('?') { '&' } else { '?' };
        let mut rows = Vec::new();
        for page in 1.. {
            let body = self.get(&format!("{path}{separator}page={page}&limit=50"), token).await?;
            let data = body["data"].as_array().cloned().unwrap_or_default();
            let empty = data.is_empty();
            rows.extend(data);
            if empty || body["lastPage"].as_bool().unwrap_or(true) {
                break;
            }
        }
        Ok(rows)
    }
}

/// Whether `error` is the API refusing with `status`.
pub fn refused_with(error: &anyhow::Error, status: StatusCode) -> bool {
    error.downcast_ref::<Refused>().is_some_and(|r| r.status == status)
}

/// Percent-encodes a query value.
pub fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}
