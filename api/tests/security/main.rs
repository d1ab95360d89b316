//! What other sites and visitors can reach: the `/rpc` proxy's allow-list (against a real
//! anvil) and cross-origin access (CORS). The SVG rules are tested in `api::files::svg` and,
//! through the uploads, in the `trade` and `accounts` binaries.

use std::path::Path;

use alloy::{
    eips::eip2718::Encodable2718,
    network::{EthereumWallet, NetworkTransactionBuilder, TransactionBuilder},
    primitives::U256,
    rpc::types::TransactionRequest,
    signers::local::{MnemonicBuilder, coins_bip39::English},
};
use api::chain::ChainInfo;
use axum::{
    Router,
    body::Body,
    http::{HeaderMap, Request, StatusCode, header},
};
use indexer::test_utils::{TEST_MNEMONIC, TestChain};
use serde_json::{Value, json};
use support::CHAIN_ID;
use tower::ServiceExt;

#[path = "../support/mod.rs"]
mod support;

/// An answer: status, headers and the body as JSON (`null` when empty).
struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    body: Value,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(|v| v.to_str().unwrap())
    }
}

async fn send(app: &Router, request: Request<Body>) -> Answer {
    let response = app.clone().oneshot(request).await.unwrap();
    let (status, headers) = (response.status(), response.headers().clone());
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20).await.unwrap();
    Answer { status, headers, body: serde_json::from_slice(&bytes).unwrap_or(Value::Null) }
}

async fn rpc(app: &Router, call: Value) -> Value {
    let request = Request::post("/rpc").header(header::CONTENT_TYPE, "application/json").body(Body::from(call.to_string())).unwrap();
    let answer = send(app, request).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    answer.body
}

/// The answer to the call with `id` in a batch's answers.
fn by_id(answers: &Value, id: u64) -> &Value {
    answers.as_array().unwrap().iter().find(|a| a["id"] == id).unwrap_or_else(|| panic!("no answer {id} in {answers}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rpc_proxy_forwards_what_wallets_need_and_refuses_the_rest_call_by_call() {
    let chain = TestChain::start().await;
    let dir = tempfile::tempdir().unwrap();
    let (state, _projector) = support::fresh_state(support::config(&dir, &[]), false).await;
    let state = state.with_chain(ChainInfo { chain_id: CHAIN_ID, rpc_url: Some(chain.url.clone()), ..ChainInfo::default() }, None);
    let app = api::http::app(state, Path::new("no-ui"));
    let (sender, receiver) = (chain.accounts[2], chain.accounts[3]);
    let balance = |address| json!({ "jsonrpc": "2.0", "id": 9, "method": "eth_getBalance", "params": [address, "latest"] });
    let before = rpc(&app, balance(receiver)).await["result"].clone();
    assert!(before.is_string(), "{before}");

    let chain_id = rpc(&app, json!({ "jsonrpc": "2.0", "id": 1, "method": "eth_chainId", "params": [] })).await;
    assert_eq!(chain_id, json!({ "jsonrpc": "2.0", "id": 1, "result": format!("{CHAIN_ID:#x}") }));

    // The node's own methods, and spending its unlocked accounts, never reach it.
    let set_balance = rpc(&app, json!({ "jsonrpc": "2.0", "id": "a", "method": "anvil_setBalance", "params": [receiver, "0x1"] })).await;
    assert_eq!(set_balance["id"], "a");
    assert_eq!(set_balance["error"]["code"], -32601);
    assert!(set_balance["error"]["message"].as_str().unwrap().contains("anvil_setBalance is not available"), "{set_balance}");
    let spend = json!({ "jsonrpc": "2.0", "id": 2, "method": "eth_sendTransaction", "params": [{ "from": sender, "to": receiver, "value": "0x1" }] });
    assert_eq!(rpc(&app, spend).await["error"]["code"], -32601);
    assert_eq!(rpc(&app, balance(receiver)).await["result"], before, "the balance was not set");

    // A batch: each call judged on its own, the refused ones answered here.
    let block = rpc(&app, json!({ "jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber" })).await["result"].clone();
    let batch = json!([
        { "jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber" },
        { "jsonrpc": "2.0", "id": 2, "method": "anvil_mine", "params": ["0x5"] },
        { "jsonrpc": "2.0", "id": 3, "method": "evm_snapshot" },
        { "jsonrpc": "2.0", "id": 4, "method": "eth_getBalance", "params": [receiver, "latest"] },
        { "jsonrpc": "2.0", "id": 5 },
    ]);
    let answers = rpc(&app, batch).await;
    assert_eq!(answers.as_array().unwrap().len(), 5, "{answers}");
    assert_eq!(by_id(&answers, 1)["result"], block);
    assert_eq!(by_id(&answers, 4)["result"], before);
    assert_eq!(by_id(&answers, 2)["error"]["code"], -32601);
    assert_eq!(by_id(&answers, 3)["error"]["code"], -32601);
    assert_eq!(by_id(&answers, 5)["error"]["code"], -32600);
    let only_refused = rpc(
        &app,
        json!([{ "jsonrpc": "2.0", "id": 7, "method": "anvil_mine" }, { "jsonrpc": "2.0", "id": 8, "method": "debug_traceCall" }]),
    )
    .await;
    assert_eq!(
        only_refused.as_array().unwrap().iter().map(|a| a["error"]["code"].clone()).collect::<Vec<_>>(),
        [json!(-32601), json!(-32601)]
    );
    assert_eq!(rpc(&app, json!({ "jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber" })).await["result"], block, "nothing was mined");

    // What a wallet does (the dev wallet too): sign locally, send the raw transaction, wait for its receipt.
    let wallet = EthereumWallet::new(MnemonicBuilder::<English>::from_phrase_nth(TEST_MNEMONIC, 2));
    let nonce = rpc(&app, json!({ "jsonrpc": "2.0", "id": 1, "method": "eth_getTransactionCount", "params": [sender, "pending"] })).await;
    let transfer = TransactionRequest::default()
        .with_from(sender)
        .with_to(receiver)
        .with_value(U256::from(1_000))
        .with_nonce(u64::from_str_radix(nonce["result"].as_str().unwrap().trim_start_matches("0x"), 16).unwrap())
        .with_chain_id(CHAIN_ID)
        .with_gas_limit(21_000)
        .with_max_fee_per_gas(20_000_000_000)
        .with_max_priority_fee_per_gas(1_000_000_000);
    let raw = format!("0x{}", alloy::hex::encode(transfer.build(&wallet).await.unwrap().encoded_2718()));
    let sent = rpc(&app, json!({ "jsonrpc": "2.0", "id": 1, "method": "eth_sendRawTransaction", "params": [raw] })).await;
    let hash = sent["result"].as_str().unwrap_or_else(|| panic!("{sent}")).to_owned();
    // anvil mines the transaction as it arrives, but its receipt may show a moment later.
    let mut receipt = Value::Null;
    for _ in 0..100 {
        receipt = rpc(&app, json!({ "jsonrpc": "2.0", "id": 1, "method": "eth_getTransactionReceipt", "params": [hash] })).await;
        if !receipt["result"].is_null() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(receipt["result"]["status"], "0x1", "{receipt}");
    assert_ne!(rpc(&app, balance(receiver)).await["result"], before, "the signed transfer went through");
}

/// A preflight from `origin` for `method` on `path`, asking for `headers`.
fn preflight(path: &str, origin: &str, method: &str, headers: Option<&str>) -> Request<Body> {
    let mut request =
        Request::builder().method("OPTIONS").uri(path).header(header::ORIGIN, origin).header(header::ACCESS_CONTROL_REQUEST_METHOD, method);
    if let Some(headers) = headers {
        request = request.header(header::ACCESS_CONTROL_REQUEST_HEADERS, headers);
    }
    request.body(Body::empty()).unwrap()
}

fn get(path: &str, origin: &str, token: Option<&str>) -> Request<Body> {
    let mut request = Request::get(path).header(header::ORIGIN, origin);
    if let Some(token) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    request.body(Body::empty()).unwrap()
}

const ELSEWHERE: &str = "https://elsewhere.example";

async fn server(args: &[&str]) -> (Router, support::ProjectorTask, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let (state, projector) = support::fresh_state(support::config(&dir, args), true).await;
    (api::http::app(state.with_chain(support::no_chain(), None), Path::new("no-ui")), projector, dir)
}

#[tokio::test]
async fn any_origin_may_read_the_public_calls_without_credentials() {
    let (app, _projector, _dir) = server(&[]).await;

    for path in ["/api/nft/explore/?page=1", "/api/config", "/ipfs/bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e"] {
        let allowed = send(&app, preflight(path, ELSEWHERE, "GET", Some("content-type"))).await;
        assert_eq!(allowed.status, StatusCode::NO_CONTENT, "{path}");
        assert_eq!(allowed.header("access-control-allow-origin"), Some("*"), "{path}");
        assert_eq!(allowed.header("access-control-allow-credentials"), None, "{path}");
        assert_eq!(allowed.header("access-control-allow-methods"), Some("GET, HEAD"));
    }
    let list = send(&app, get("/api/nft/explore/?page=1", ELSEWHERE, None)).await;
    assert_eq!(list.status, StatusCode::OK);
    assert_eq!(list.header("access-control-allow-origin"), Some("*"));
    assert_eq!(list.header("access-control-allow-credentials"), None);
    assert_eq!(send(&app, get("/api/config", ELSEWHERE, None)).await.header("access-control-allow-origin"), Some("*"));

    // Not as the visitor: a read with the user's token is for the site's own pages.
    let with_token = send(&app, preflight("/api/account/myprofile", ELSEWHERE, "GET", Some("authorization"))).await;
    assert_eq!(with_token.status, StatusCode::FORBIDDEN);
    assert_eq!(with_token.header("access-control-allow-origin"), None);
    assert_eq!(with_token.body["statuscode"], 403);
    assert!(with_token.body["message"].as_str().unwrap().contains("ALLOWED_ORIGINS"), "{}", with_token.body);
    let answered = send(&app, get("/api/account/myprofile", ELSEWHERE, Some("a-token"))).await;
    assert_eq!(answered.header("access-control-allow-origin"), None);
}

#[tokio::test]
async fn writes_from_another_origin_are_refused_unless_an_operator_lists_it() {
    let (app, _projector, _dir) = server(&[]).await;
    for (method, path) in
        [("POST", "/api/nft/ipfsupload"), ("PUT", "/api/nft/like/80001-1"), ("POST", "/rpc"), ("DELETE", "/api/collection/x")]
    {
        let refused = send(&app, preflight(path, ELSEWHERE, method, Some("authorization, content-type"))).await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN, "{method} {path}");
        assert_eq!(refused.header("access-control-allow-origin"), None);
        assert!(refused.body["message"].as_str().unwrap().starts_with("Origin https://elsewhere.example may not send this method"));
    }
    // Same-origin pages send no preflight and are unaffected.
    let same_origin = Request::put("/api/nft/like/80001-1").body(Body::empty()).unwrap();
    assert_eq!(send(&app, same_origin).await.status, StatusCode::UNAUTHORIZED);

    let listed = "https://app.example.com";
    let (app, _projector, _dir) = server(&["--allowed-origins", "https://app.example.com/, https://admin.example.com"]).await;
    let allowed = send(&app, preflight("/api/nft/like/80001-1", listed, "PUT", Some("authorization, content-type"))).await;
    assert_eq!(allowed.status, StatusCode::NO_CONTENT);
    assert_eq!(allowed.header("access-control-allow-origin"), Some(listed));
    assert_eq!(allowed.header("access-control-allow-credentials"), Some("true"));
    assert!(allowed.header("access-control-allow-methods").unwrap().contains("PUT"));
    assert_eq!(allowed.header("access-control-allow-headers"), Some("authorization, content-type"));
    assert_eq!(allowed.header("vary"), Some("origin"));
    let write = Request::put("/api/nft/like/80001-1")
        .header(header::ORIGIN, listed)
        .header(header::AUTHORIZATION, "Bearer x")
        .body(Body::empty())
        .unwrap();
    let written = send(&app, write).await;
    assert_eq!(written.status, StatusCode::UNAUTHORIZED, "the call itself is checked as ever");
    assert_eq!(written.header("access-control-allow-origin"), Some(listed));
    assert_eq!(written.header("access-control-allow-credentials"), Some("true"));
    // Its scripts may read a write's log position, to name it on the reads after it.
    assert_eq!(written.header("access-control-expose-headers"), Some("log-position"));
    // A listed origin reads as itself (with credentials); the others still only read.
    assert_eq!(send(&app, get("/api/config", listed, None)).await.header("access-control-allow-origin"), Some(listed));
    let read = send(&app, get("/api/config", ELSEWHERE, None)).await;
    assert_eq!(read.header("access-control-allow-origin"), Some("*"));
    assert!(read.headers.get_all(header::VARY).iter().any(|v| v == "origin"), "answers depend on the origin");
    assert_eq!(send(&app, preflight("/rpc", ELSEWHERE, "POST", Some("content-type"))).await.status, StatusCode::FORBIDDEN);
}

/// The policy's directives by name.
fn directives(policy: &str) -> std::collections::HashMap<String, Vec<String>> {
    policy
        .split(';')
        .filter_map(|d| {
            let mut words = d.split_whitespace();
            Some((words.next()?.to_owned(), words.map(str::to_owned).collect()))
        })
        .collect()
}

/// The headers a page that trusts no stranger carries, on `answer` (`what` names it).
fn assert_security_headers(answer: &Answer, what: &str, hsts: bool) {
    let policy = directives(answer.header("content-security-policy").unwrap_or_else(|| panic!("{what}: no policy")));
    let has = |name: &str, sources: &[&str]| {
        let got = policy.get(name).unwrap_or_else(|| panic!("{what}: no {name} in {policy:?}"));
        for source in sources {
            assert!(got.iter().any(|s| s == source), "{what}: {name} {got:?} lacks {source}");
        }
        got.clone()
    };
    let script = has("script-src", &["'self'"]);
    assert!(!script.iter().any(|s| s == "'unsafe-inline'" || s == "'unsafe-eval'" || s == "*"), "{what}: {script:?}");
    let style = has("style-src", &["'self'"]);
    assert!(!style.iter().any(|s| s == "*" || s == "data:"), "{what}: {style:?}");
    has("default-src", &["'self'"]);
    has("connect-src", &["'self'"]);
    assert_eq!(has("img-src", &[]), ["'self'", "data:", "blob:"], "{what}");
    assert_eq!(has("frame-ancestors", &[]), ["'none'"], "{what}");
    assert_eq!(has("object-src", &[]), ["'none'"], "{what}");
    assert_eq!(has("base-uri", &[]), ["'self'"], "{what}");
    assert_eq!(has("form-action", &[]), ["'self'"], "{what}");
    assert_eq!(answer.header("x-content-type-options"), Some("nosniff"), "{what}");
    assert_eq!(answer.header("x-frame-options"), Some("DENY"), "{what}");
    assert_eq!(answer.header("referrer-policy"), Some("strict-origin-when-cross-origin"), "{what}");
    let permissions = answer.header("permissions-policy").unwrap_or_else(|| panic!("{what}: no permissions policy"));
    for feature in ["camera=()", "microphone=()", "geolocation=()"] {
        assert!(permissions.contains(feature), "{what}: {permissions}");
    }
    assert_eq!(answer.header("strict-transport-security").is_some(), hsts, "{what}: HSTS only behind https");
}

/// A built UI in a temporary folder: an index page with one inline script, a hashed asset.
fn built_ui(dir: &tempfile::TempDir) -> std::path::PathBuf {
    let ui = dir.path().join("dist");
    std::fs::create_dir_all(ui.join("assets")).unwrap();
    std::fs::write(
        ui.join("index.html"),
        "<!doctype html><html><head><title>NFT Marketplace</title><script type=\"module\" src=\"/assets/index-abc.js\"></script>\
         <script>window.boot=1</script></head><body><div id=\"root\"></div></body></html>",
    )
    .unwrap();
    std::fs::write(ui.join("assets/index-abc.js"), "console.log(1)").unwrap();
    ui
}

async fn server_with_ui(args: &[&str]) -> (Router, support::ProjectorTask, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let ui = built_ui(&dir);
    let (state, projector) = support::fresh_state(support::config(&dir, args), true).await;
    (api::http::app(state.with_chain(support::no_chain(), None), &ui), projector, dir)
}

#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let (app, _projector, _dir) = server_with_ui(&[]).await;
    let plain = |path: &str| Request::get(path).body(Body::empty()).unwrap();

    let api = send(&app, plain("/api/config")).await;
    assert_eq!(api.status, StatusCode::OK);
    assert_security_headers(&api, "an API answer", false);
    let refused = send(&app, plain("/api/nope")).await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND);
    assert_security_headers(&refused, "an API error", false);
    let cors_refusal = send(&app, preflight("/rpc", ELSEWHERE, "POST", None)).await;
    assert_eq!(cors_refusal.status, StatusCode::FORBIDDEN);
    assert_security_headers(&cors_refusal, "a refused preflight", false);
    // A script is never a page: nosniff, and none of the page's headers (half a kilobyte each).
    let file = send(&app, plain("/assets/index-abc.js")).await;
    assert_eq!(file.status, StatusCode::OK);
    assert_eq!(file.header("x-content-type-options"), Some("nosniff"));
    for header in ["content-security-policy", "x-frame-options", "referrer-policy", "permissions-policy"] {
        assert_eq!(file.header(header), None, "a script: {header}");
    }
    // Nor is it for other sites: no CORS header on the UI's own assets, whoever asks.
    let elsewhere = send(&app, Request::get("/assets/index-abc.js").header("origin", ELSEWHERE).body(Body::empty()).unwrap()).await;
    assert_eq!((elsewhere.status, elsewhere.header("access-control-allow-origin")), (StatusCode::OK, None));
    for page in ["/", "/explore", "/nft/80001-1", "/profile/someone"] {
        let index = send(&app, plain(page)).await;
        assert_eq!(index.status, StatusCode::OK, "{page}");
        assert_security_headers(&index, page, false);
        // The one inline script of the built page is allowed by its hash, and nothing else inline is.
        let policy = directives(index.header("content-security-policy").unwrap());
        let hash = "'sha256-jajxeYVIwRnpYeIdQAnrCVaykHVFfL+sKIgsbVjP93M='";
        assert!(policy["script-src"].iter().any(|s| s == hash), "{page}: {:?}", policy["script-src"]);
    }
    // An uploaded file keeps its own sandbox, with the other headers beside it.
    let upload = send(&app, plain("/ipfs/bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e")).await;
    assert_eq!(upload.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(upload.header("referrer-policy"), Some("strict-origin-when-cross-origin"));
    if upload.status == StatusCode::OK {
        assert!(upload.header("content-security-policy").unwrap().contains("sandbox"));
    }
}

#[tokio::test]
async fn the_policy_names_the_rpc_and_relays_the_operator_configures_and_hsts_follows_https() {
    let (app, _projector, _dir) = server_with_ui(&[
        "--public-url",
        "https://market.example.com/",
        "--public-rpc-url",
        "https://rpc.example.net/v2/secret-key",
        "--csp-connect-src",
        "wss://relay.walletconnect.com, https://rpc.walletconnect.com",
    ])
    .await;
    let script = send(&app, Request::get("/assets/index-abc.js").body(Body::empty()).unwrap()).await;
    assert_eq!(script.header("strict-transport-security"), Some("max-age=31536000"), "a script too");
    for path in ["/api/config", "/"] {
        let answer = send(&app, Request::get(path).body(Body::empty()).unwrap()).await;
        assert_security_headers(&answer, path, true);
        assert_eq!(answer.header("strict-transport-security"), Some("max-age=31536000"));
        let policy = directives(answer.header("content-security-policy").unwrap());
        assert_eq!(
            policy["connect-src"],
            [
                "'self'",
                "https://rpc.example.net",
                "https://www.walletlink.org",
                "wss://www.walletlink.org",
                "https://rpc.wallet.coinbase.com",
                "wss://relay.walletconnect.com",
                "https://rpc.walletconnect.com"
            ],
            "the RPC's origin only, never its path's key; Coinbase Wallet's relay (always offered); the operator's"
        );
        assert!(!policy["script-src"].iter().any(|s| s.contains("walletconnect")), "connect-src only");
    }
    // Google's sign-in button: its script, styles, frame and calls, only when configured.
    let (app, _projector, _dir) = server_with_ui(&["--google-client-id", "id.apps.googleusercontent.com"]).await;
    let policy = directives(send(&app, Request::get("/").body(Body::empty()).unwrap()).await.header("content-security-policy").unwrap());
    for directive in ["script-src", "style-src", "connect-src", "frame-src"] {
        assert!(policy[directive].iter().any(|s| s == "https://accounts.google.com/gsi/"), "{directive}: {:?}", policy[directive]);
    }
    let (app, _projector, _dir) = server_with_ui(&[]).await;
    let policy = directives(send(&app, Request::get("/").body(Body::empty()).unwrap()).await.header("content-security-policy").unwrap());
    assert!(!policy.values().flatten().any(|s| s.contains("google")), "{policy:?}");
    assert!(!policy.values().flatten().any(|s| s.contains("walletconnect") || s.contains("web3modal")), "no project id: {policy:?}");
    // WalletConnect, once it has a project id: its relay and services, its wallet list's icons and
    // fonts, and its verify frame (nothing else may frame or be framed).
    let (app, _projector, _dir) = server_with_ui(&["--walletconnect-project-id", "0123abcd"]).await;
    let policy = directives(send(&app, Request::get("/").body(Body::empty()).unwrap()).await.header("content-security-policy").unwrap());
    for (directive, source) in [
        ("connect-src", "wss://relay.walletconnect.org"),
        ("connect-src", "https://rpc.walletconnect.org"),
        ("connect-src", "https://api.web3modal.org"),
        ("img-src", "https://api.web3modal.org"),
        ("font-src", "https://fonts.reown.com"),
        ("frame-src", "https://verify.walletconnect.org"),
        ("frame-src", "https://verify.walletconnect.com"),
    ] {
        assert!(policy[directive].iter().any(|s| s == source), "{directive} lacks {source}: {:?}", policy[directive]);
    }
    assert!(!policy["script-src"].iter().any(|s| s.contains("walletconnect")), "no script from elsewhere");
    assert_eq!(policy["frame-ancestors"], ["'none'"]);
}

#[test]
fn a_connect_source_that_would_widen_the_policy_is_refused_at_start() {
    use clap::Parser as _;
    for bad in ["*", "wss://relay.walletconnect.com; script-src *", "'unsafe-inline'", "relay.walletconnect.com", "https://", "wss://a b"] {
        let parsed = support::Cli::try_parse_from(["test", "--csp-connect-src", bad]);
        let err = parsed.err().unwrap_or_else(|| panic!("{bad} was accepted")).to_string();
        assert!(err.contains("is not a content security policy source"), "{bad}: {err}");
    }
    for good in ["wss:", "wss://relay.walletconnect.com", "https://*.walletconnect.org", "https://rpc.example:8443/path"] {
        assert_eq!(api::config::csp_source(good).as_deref(), Ok(good));
    }
}

/// A login attempt for `email` as a proxy forwards it, with `forwarded` as `X-Forwarded-For`.
fn login_via_proxy(email: &str, forwarded: &str) -> Request<Body> {
    Request::post("/api/auth/login")
        .header(header::CONTENT_TYPE, "application/json")
        .header("x-forwarded-for", forwarded)
        .body(Body::from(json!({ "email": email, "password": "not the password" }).to_string()))
        .unwrap()
}

#[tokio::test]
async fn behind_a_proxy_the_per_address_limit_counts_what_the_proxy_appended_in_every_form() {
    let args = ["--trust-forwarded-for", "--rate-limit-per-ip", "2", "--rate-limit-per-account", "0"];
    // The proxy appends `ip`, `ip:port`, `[v6]` or `[v6]:port`; the client writes a new address
    // before it on every try. Each form is one client, limited after two tries.
    for (n, appended) in ["203.0.113.9", "203.0.113.9:51234", "[2001:db8::7]", "[2001:db8::7]:443"].into_iter().enumerate() {
        let (app, _projector, _dir) = server(&args).await;
        for attempt in 0..3 {
            let forwarded = format!("10.9.{n}.{attempt}, {appended}");
            let answer = send(&app, login_via_proxy(&format!("p{attempt}@example.com"), &forwarded)).await;
            let expected = if attempt < 2 { StatusCode::UNAUTHORIZED } else { StatusCode::TOO_MANY_REQUESTS };
            assert_eq!(answer.status, expected, "{appended}, try {attempt}: {}", answer.body);
        }
    }
    // A rightmost entry that is no address: the header is not trusted (the socket's address is
    // used, one for every in-process request), never the client's own entry before it.
    let (app, _projector, _dir) = server(&args).await;
    for attempt in 0..3 {
        let answer = send(&app, login_via_proxy(&format!("q{attempt}@example.com"), &format!("10.8.0.{attempt}, unknown"))).await;
        let expected = if attempt < 2 { StatusCode::UNAUTHORIZED } else { StatusCode::TOO_MANY_REQUESTS };
        assert_eq!(answer.status, expected, "try {attempt}: {}", answer.body);
    }
}
