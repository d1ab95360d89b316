//! What the browser needs to reach the chain: the app's chain settings (`/api/config`) and a
//! same-origin JSON-RPC proxy (`/rpc`) to the node the server uses, so a wallet in the page
//! talks to the same chain without CORS or a second port.

use axum::{
    body::Bytes,
    extract::{DefaultBodyLimit, State},
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;
use utoipa_axum::{
    router::{OpenApiRouter, UtoipaMethodRouterExt},
    routes,
};

use super::openapi::{BadRequest, NotFound};
use crate::http::{
    AppState,
    error::{ApiError, Envelope, ok},
};

/// The largest JSON-RPC request the proxy forwards.
const MAX_RPC_BODY: usize = 1 << 20;

/// `/api/config` and `/rpc`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(app_config)).routes(routes!(proxy).layer(DefaultBodyLimit::max(MAX_RPC_BODY)))
}

/// What the browser needs to reach the chain and the sign-in providers.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct AppConfig {
    /// EIP-155 chain id.
    chain_id: u64,
    /// The network's display name.
    chain_name: &'static str,
    /// The JSON-RPC URL browsers use (`/rpc` unless configured otherwise).
    rpc_url: String,
    /// The marketplace contract ("" when none).
    contract_address: String,
    /// Its deployment block.
    deployment_block: u64,
    /// Where its ABI is served (a JSON list, as viem takes it).
    #[schema(example = "/api/contract/abi")]
    contract_abi_url: &'static str,
    /// Block explorer base URL ("" when none).
    explorer_url: String,
    /// The prefix file URLs start with.
    ipfs_gateway: &'static str,
    /// Google sign-in client id ("" hides Google sign-in).
    google_client_id: String,
    /// WalletConnect project id ("" hides WalletConnect).
    wallet_connect_project_id: String,
    /// True only on the local dev chain: the UI then offers the dev wallet.
    dev_wallet: bool,
    /// The public test mnemonic of the dev wallet; only on the local dev chain.
    #[serde(skip_serializing_if = "Option::is_none")]
    dev_mnemonic: Option<&'static str>,
}

/// The app's chain settings, as the server resolved them at start.
#[utoipa::path(get, path = "/api/config", tag = "chain", security(()), responses((status = 200, description = "The settings", body = Envelope<AppConfig>)))]
async fn app_config(State(state): State<AppState>) -> Response {
    let chain = &state.chain;
    ok(
        AppConfig {
            chain_id: chain.chain_id,
            chain_name: "Matic Testnet",
            rpc_url: chain.public_rpc_url.clone(),
            contract_address: chain.contract_address.clone().unwrap_or_default(),
            deployment_block: chain.deployment_block,
            contract_abi_url: super::contract::ABI_PATH,
            explorer_url: chain.explorer_url.clone(),
            ipfs_gateway: "/ipfs/",
            google_client_id: state.config.google_client_id.clone().unwrap_or_default(),
            wallet_connect_project_id: chain.walletconnect_project_id.clone(),
            dev_wallet: chain.dev_wallet,
            // The public anvil mnemonic, and only for the local chain: its keys hold test coins.
            dev_mnemonic: chain.dev_wallet.then_some(crate::chain::local::DEV_MNEMONIC),
        },
        "Configuration fetched",
    )
}

/// The JSON-RPC methods `/rpc` forwards: what wallets and the UI's wagmi/viem send to read the
/// chain and submit transactions they signed themselves (the dev wallet signs locally too).
/// Everything else is refused: the node's own methods (`anvil_*`, `evm_*`, `debug_*`, ...) would
/// let any visitor rewrite a dev chain, and `eth_sendTransaction` would spend its unlocked
/// accounts.
pub const FORWARDED_METHODS: [&str; 21] = [
    "eth_chainId",
    "eth_blockNumber",
    "eth_call",
    "eth_estimateGas",
    // viem fills a transaction with it first (nonce, gas, fees; nothing signed), then falls back
    // to the single calls on nodes without it.
    "eth_fillTransaction",
    "eth_gasPrice",
    "eth_maxPriorityFeePerGas",
    "eth_feeHistory",
    "eth_getBalance",
    "eth_getCode",
    "eth_getStorageAt",
    "eth_getTransactionCount",
    "eth_getTransactionReceipt",
    "eth_getTransactionByHash",
    "eth_getBlockByNumber",
    "eth_getBlockByHash",
    "eth_getLogs",
    "eth_sendRawTransaction",
    "eth_syncing",
    "net_version",
    "web3_clientVersion",
];

/// A same-origin JSON-RPC proxy to the chain node the server uses.
///
/// Only the methods wallets need are forwarded (`eth_chainId`, `eth_call`, `eth_estimateGas`,
/// `eth_sendRawTransaction`, the block, transaction, receipt, balance and log reads: see
/// docs/security.md); any other is answered here with JSON-RPC error -32601, each call of a
/// batch judged on its own.
/// The node's answer is passed through as it is (not in the envelope); 404 when the server has
/// no chain.
#[utoipa::path(
    post,
    path = "/rpc",
    tag = "chain",
    security(()),
    request_body(content = Object, description = "A JSON-RPC 2.0 request or batch (at most 1 MiB)", content_type = "application/json"),
    responses(
        (status = 200, description = "The node's JSON-RPC answer, with the node's HTTP status; a method not forwarded gets error -32601", content_type = "application/json", body = Object),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 413, description = "Over 1 MiB (a plain-text answer, not the envelope)", content_type = "text/plain", body = String),
    ),
)]
async fn proxy(State(state): State<AppState>, body: Bytes) -> Result<Response, ApiError> {
    let Some(url) = state.chain.rpc_url.clone() else {
        return Err(ApiError::NotFound("No chain is configured on this server".into()));
    };
    let request: Value = serde_json::from_slice(&body).map_err(|_| ApiError::BadRequest("body must be a JSON-RPC request".into()))?;
    // What goes to the node (the body as sent while nothing is refused), and the errors of the
    // calls refused here.
    let (forwarded, refused) = match request {
        Value::Array(calls) if !calls.is_empty() => {
            let refused: Vec<Value> = calls.iter().filter_map(refusal).collect();
            let forwarded = match refused.len() {
                0 => Some(body),
                n if n == calls.len() => None,
                _ => Some(json_bytes(&calls.into_iter().filter(|call| refusal(call).is_none()).collect::<Vec<_>>())?),
            };
            (forwarded, refused)
        }
        call => match refusal(&call) {
            Some(error) => return Ok(rpc_answer(StatusCode::OK, json_bytes(&error)?)),
            None => (Some(body), Vec::new()),
        },
    };
    let Some(forwarded) = forwarded else { return Ok(rpc_answer(StatusCode::OK, json_bytes(&refused)?)) };
    let answer = state
        .http
        .post(url)
        .header(header::CONTENT_TYPE, "application/json")
        .body(forwarded)
        .send()
        .await
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("the chain node did not answer: {e}")))?;
    let status = StatusCode::from_u16(answer.status().as_u16()).unwrap_or(StatusCode::BAD_GATEWAY);
    let mut bytes = answer.bytes().await.map_err(|e| ApiError::Internal(e.into()))?;
    // A batch with refused calls: their errors join the node's answers (matched by id, in any order).
    if !refused.is_empty()
        && let Ok(Value::Array(mut answers)) = serde_json::from_slice::<Value>(&bytes)
    {
        answers.extend(refused);
        bytes = json_bytes(&answers)?;
    }
    Ok(rpc_answer(status, bytes))
}

fn json_bytes(value: &impl Serialize) -> Result<Bytes, ApiError> {
    serde_json::to_vec(value).map(Bytes::from).map_err(|e| ApiError::Internal(e.into()))
}

/// The JSON-RPC error answering `call`, if it is not forwarded: -32600 when it is no request,
/// -32601 when its method is not one wallets need.
fn refusal(call: &Value) -> Option<Value> {
    let id = call.get("id").cloned().unwrap_or(Value::Null);
    let error = |code: i32, message: String| Some(json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } }));
    match call.get("method").and_then(Value::as_str) {
        None => error(-32600, "Invalid request: each call needs a method".into()),
        Some(method) if FORWARDED_METHODS.contains(&method) => None,
        Some(method) => error(
            -32601,
            format!(
                "Method {method} is not available through this proxy: it forwards only the methods wallets need to read the chain and send signed transactions"
            ),
        ),
    }
}

fn rpc_answer(status: StatusCode, bytes: Bytes) -> Response {
    (status, [(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))], bytes).into_response()
}
