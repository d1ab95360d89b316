//! A small JSON-RPC proxy in front of anvil that behaves like a hosted provider: it refuses
//! `eth_getLogs` answers with more than a given number of logs (with Infura's message) and can
//! add latency to every call.

use std::{
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use alloy::{
    providers::{DynProvider, Provider, ProviderBuilder},
    transports::{RpcError, TransportErrorKind},
};
use serde_json::{Value, json};
use tokio::{
    io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader},
    net::{TcpListener, TcpStream},
    task::JoinHandle,
};

/// A running proxy; stops when dropped.
pub struct Proxy {
    pub url: String,
    /// `eth_getLogs` calls refused as too large.
    pub refused: Arc<AtomicU64>,
    /// `eth_getLogs` calls answered.
    pub answered: Arc<AtomicU64>,
    task: JoinHandle<()>,
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

#[derive(Clone)]
struct Behaviour {
    upstream: DynProvider,
    max_logs: usize,
    latency: Duration,
    batches: bool,
    /// `eth_getLogs` calls still to fail with a server error.
    failing: Arc<AtomicU64>,
    refused: Arc<AtomicU64>,
    answered: Arc<AtomicU64>,
}

impl Proxy {
    /// Proxies `upstream`, refusing `eth_getLogs` results above `max_logs` logs and delaying
    /// every answer by `latency`.
    pub async fn start(upstream: &str, max_logs: usize, latency: Duration) -> Self {
        Self::start_with(upstream, max_logs, latency, true).await
    }

    /// Like [`Proxy::start`]; with `batches` false, JSON-RPC batches are refused as some
    /// providers do.
    pub async fn start_with(upstream: &str, max_logs: usize, latency: Duration, batches: bool) -> Self {
        Self::start_full(upstream, max_logs, latency, batches, 0).await
    }

    /// Like [`Proxy::start_with`]; the first `failures` `eth_getLogs` calls fail with a server
    /// error (a provider having a bad minute).
    pub async fn start_full(upstream: &str, max_logs: usize, latency: Duration, batches: bool, failures: u64) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind the proxy");
        let url = format!("http://{}", listener.local_addr().unwrap());
        let behaviour = Behaviour {
            upstream: ProviderBuilder::new().disable_recommended_fillers().connect_http(upstream.parse().unwrap()).erased(),
            max_logs,
            latency,
            batches,
            failing: Arc::new(AtomicU64::new(failures)),
            refused: Arc::default(),
            answered: Arc::default(),
        };
        let (refused, answered) = (behaviour.refused.clone(), behaviour.answered.clone());
        let task = tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                tokio::spawn(serve(socket, behaviour.clone()));
            }
        });
        Self { url, refused, answered, task }
    }
}

/// HTTP/1.1 keep-alive: one JSON-RPC request per HTTP request.
async fn serve(socket: TcpStream, behaviour: Behaviour) {
    let (read, mut write) = socket.into_split();
    let mut reader = BufReader::new(read);
    loop {
        let mut length = 0usize;
        let mut line = String::new();
        loop {
            line.clear();
            match reader.read_line(&mut line).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).await.is_err() {
            return;
        }
        let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        tokio::time::sleep(behaviour.latency).await;
        let response = match request {
            // A JSON-RPC batch: every call answered, in order.
            Value::Array(_) if !behaviour.batches => {
                json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "batch requests are not supported"}})
            }
            Value::Array(calls) => {
                let mut answers = Vec::with_capacity(calls.len());
                for call in calls {
                    answers.push(answer(&behaviour, call).await);
                }
                Value::Array(answers)
            }
            call => answer(&behaviour, call).await,
        };
        let body = serde_json::to_vec(&response).unwrap();
        let head = format!("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n", body.len());
        if write.write_all(head.as_bytes()).await.is_err() || write.write_all(&body).await.is_err() {
            return;
        }
    }
}

async fn answer(behaviour: &Behaviour, request: Value) -> Value {
    let id = request["id"].clone();
    let method = request["method"].as_str().unwrap_or_default().to_owned();
    if method == "eth_getLogs" && behaviour.failing.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1)).is_ok() {
        return json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32000, "message": "internal server error"}});
    }
    let params = request.get("params").cloned().unwrap_or(Value::Array(vec![]));
    let result: Result<Value, RpcError<TransportErrorKind>> = behaviour.upstream.raw_request(method.clone().into(), params).await;
    match result {
        Ok(value) if method == "eth_getLogs" && value.as_array().is_some_and(|logs| logs.len() > behaviour.max_logs) => {
            behaviour.refused.fetch_add(1, Ordering::Relaxed);
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32005, "message": format!("query returned more than {} results", behaviour.max_logs)}})
        }
        Ok(value) => {
            if method == "eth_getLogs" {
                behaviour.answered.fetch_add(1, Ordering::Relaxed);
            }
            json!({"jsonrpc": "2.0", "id": id, "result": value})
        }
        Err(RpcError::ErrorResp(payload)) => json!({"jsonrpc": "2.0", "id": id, "error": payload}),
        Err(other) => json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32603, "message": other.to_string()}}),
    }
}
