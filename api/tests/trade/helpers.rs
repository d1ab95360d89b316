//! A marketplace on a real anvil for the trading calls: the indexer and the projector running,
//! the API in process, users signed up through the dev mailbox with their anvil wallets linked
//! by Sign-In with Ethereum, as the UI does it.

use std::time::Duration;

use alloy::{
    network::TransactionBuilder,
    primitives::{Address, B256, U256},
    providers::Provider,
    rpc::types::{TransactionReceipt, TransactionRequest},
    signers::{
        SignerSync,
        local::{MnemonicBuilder, coins_bip39::English},
    },
    sol_types::SolCall,
};
use api::http::AppState;
use axum::{
    Router,
    body::Body,
    http::{Request, StatusCode, header},
};
use indexer::{
    IndexerHandle,
    test_utils::{TEST_MNEMONIC, TestChain, read_log},
};
use projections::ProjectorHandle;
use serde_json::{Value, json};
use tower::ServiceExt;

use crate::support::{self, ChainStack};

pub const MATIC: u128 = 1_000_000_000_000_000_000;
pub const PUBLIC_URL: &str = "https://market.example";
/// The largest NFT image the tests' server takes.
pub const MAX_FILE: usize = 64 * 1024;
const HOST: &str = "localhost:5173";

/// `tenths` tenths of a MATIC in wei.
pub fn matic(tenths: u128) -> U256 {
    U256::from(tenths * MATIC / 10)
}

pub struct Market {
    pub chain: TestChain,
    pub state: AppState,
    pub router: Router,
    pub indexer: IndexerHandle,
    pub projector: ProjectorHandle,
    _dir: tempfile::TempDir,
}

/// A signed-up user with anvil account `account` linked.
pub struct User {
    pub token: String,
    pub id: String,
    pub account: usize,
}

/// An answer: status and envelope.
pub struct Answer {
    pub status: StatusCode,
    pub json: Value,
}

impl Answer {
    pub fn message(&self) -> &str {
        self.json["message"].as_str().unwrap_or_default()
    }

    pub fn body(&self) -> &Value {
        &self.json["body"]
    }

    /// Asserts the status and the envelope's statuscode.
    #[track_caller]
    pub fn expect(self, status: u16) -> Self {
        assert_eq!(self.status.as_u16(), status, "unexpected answer: {}", self.json);
        assert_eq!(self.json["statuscode"], json!(status), "envelope: {}", self.json);
        self
    }

    /// Asserts a 400 whose message contains `text`.
    #[track_caller]
    pub fn refused(self, text: &str) -> Self {
        let answer = self.expect(400);
        assert!(answer.message().contains(text), "message {:?} does not say {text:?}", answer.message());
        answer
    }
}

impl Market {
    pub async fn start() -> Self {
        let stack = ChainStack::start(true).await;
        let max = MAX_FILE.to_string();
        let config = support::config(
            &stack.dir,
            &[
                "--jwt-secret",
                "test-secret",
                "--rate-limit-per-ip",
                "1000",
                "--rate-limit-per-account",
                "1000",
                "--max-nft-file-bytes",
                &max,
                "--public-url",
                PUBLIC_URL,
            ],
        );
        let state = stack.state(config, stack.chain_info());
        // A built UI's entry page, for the social-preview tags.
        let ui = stack.dir.path().join("ui");
        std::fs::create_dir_all(&ui).unwrap();
        std::fs::write(ui.join("index.html"), "<!doctype html><html><head><title>NFT Marketplace</title></head><body></body></html>")
            .unwrap();
        let router = api::http::app(state.clone(), &ui);
        Self { chain: stack.chain, state, router, indexer: stack.indexer, projector: stack.projector, _dir: stack.dir }
    }

    pub async fn send(&self, request: Request<Body>) -> Answer {
        let response = self.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
        Answer { status, json: serde_json::from_slice(&bytes).unwrap_or(Value::Null) }
    }

    /// The raw body of a GET (for HTML and files).
    pub async fn get_bytes(&self, uri: &str) -> (StatusCode, Vec<u8>) {
        let response = self.router.clone().oneshot(Request::get(uri).body(Body::empty()).unwrap()).await.unwrap();
        let status = response.status();
        (status, axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap().to_vec())
    }

    pub fn request(method: &str, uri: &str, token: Option<&str>) -> axum::http::request::Builder {
        let mut builder = Request::builder().method(method).uri(uri).header(header::HOST, HOST);
        if let Some(token) = token {
            builder = builder.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        builder
    }

    pub async fn get(&self, uri: &str, token: Option<&str>) -> Answer {
        self.send(Self::request("GET", uri, token).body(Body::empty()).unwrap()).await
    }

    pub async fn raw(&self, method: &str, uri: &str, token: Option<&str>, content_type: &str, body: impl Into<Body>) -> Answer {
        self.send(Self::request(method, uri, token).header(header::CONTENT_TYPE, content_type).body(body.into()).unwrap()).await
    }

    pub async fn json(&self, method: &str, uri: &str, token: Option<&str>, body: Value) -> Answer {
        self.raw(method, uri, token, "application/json", body.to_string()).await
    }

    pub async fn form(&self, method: &str, uri: &str, token: Option<&str>, fields: &[(&str, &str)]) -> Answer {
        let body = fields.iter().map(|(k, v)| format!("{}={}", urlencode(k), urlencode(v))).collect::<Vec<_>>().join("&");
        self.raw(method, uri, token, "application/x-www-form-urlencoded", body).await
    }

    /// Signs up `name` (verified through the dev mailbox) and links anvil account `account`.
    pub async fn user(&self, name: &str, account: usize) -> User {
        let email = format!("{name}@example.com");
        let password = "correct horse battery";
        let registration = json!({ "email": email, "fullName": name, "username": name, "password": password, "confirmPassword": password });
        self.json("POST", "/api/auth/register", None, registration).await.expect(200);
        let mails = self.get(&format!("/api/dev/mailbox?to={}", urlencode(&email)), None).await.expect(200);
        let code = mails.body()[0]["code"].as_str().unwrap().to_owned();
        let verified =
            self.json("POST", "/api/auth/verifyaccount", None, json!({ "email": email, "verificationCode": code })).await.expect(200);
        let token = verified.body()["accessToken"].as_str().unwrap().to_owned();
        let nonce = self.get("/api/account/walletnonce", Some(&token)).await.expect(200).body()["nonce"].as_str().unwrap().to_owned();
        let signer = MnemonicBuilder::<English>::from_phrase_nth(TEST_MNEMONIC, account as u32);
        let address = signer.address().to_checksum(None);
        let issued = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        let message = format!(
            "{HOST} wants you to sign in with your Ethereum account:\n{address}\n\nLink this wallet to your marketplace account.\n\n\
             URI: http://{HOST}\nVersion: 1\nChain ID: 80001\nNonce: {nonce}\nIssued At: {issued}"
        );
        let signature = signer.sign_message_sync(message.as_bytes()).unwrap().to_string();
        let body = json!({ "walletProvider": "Metamask", "walletAddress": address, "message": message, "signature": signature });
        let profile = self.json("PUT", "/api/account/connectwallet", Some(&token), body).await.expect(200);
        let id = profile.body()["userId"].as_str().unwrap().to_owned();
        User { token, id, account }
    }

    /// Asks to link `address` to `user` with a fresh nonce's sign-in message, signed by `sign`
    /// (the message in, the signature's 0x hex out).
    pub async fn link(&self, user: &User, address: Address, sign: impl FnOnce(&str) -> String) -> Answer {
        let nonce = self.get("/api/account/walletnonce", Some(&user.token)).await.expect(200).body()["nonce"].as_str().unwrap().to_owned();
        let issued = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        let address = address.to_checksum(None);
        let message = format!(
            "{HOST} wants you to sign in with your Ethereum account:\n{address}\n\nLink this wallet to your marketplace account.\n\n\
             URI: http://{HOST}\nVersion: 1\nChain ID: 80001\nNonce: {nonce}\nIssued At: {issued}"
        );
        let body = json!({ "walletProvider": "Coinbase", "walletAddress": address, "message": message, "signature": sign(&message) });
        self.json("PUT", "/api/account/connectwallet", Some(&user.token), body).await
    }

    pub fn address(&self, user: &User) -> Address {
        self.chain.accounts[user.account]
    }

    /// Sends `call` to the marketplace from `user`'s wallet; panics if it reverts.
    pub async fn transact<C: SolCall>(&self, user: &User, call: C, value: U256) -> TransactionReceipt {
        self.chain.transact(self.address(user), call, value).await
    }

    /// Sends `call` with a fixed gas limit, so a call the contract refuses is mined and
    /// reverts (instead of failing the node's gas estimate); returns its hash.
    pub async fn transact_failing<C: SolCall>(&self, user: &User, call: C, value: U256) -> String {
        let tx = self.chain.call_request(self.address(user), &call, value);
        let receipt = self.chain.provider.send_transaction(tx).await.unwrap().get_receipt().await.unwrap();
        assert!(!receipt.status(), "{} was expected to revert", C::SIGNATURE);
        hash(&receipt)
    }

    /// A plain transfer of value from `user` to `to`: a transaction not sent to the market.
    pub async fn transfer(&self, user: &User, to: Address) -> String {
        let tx = TransactionRequest::default().from(self.address(user)).with_to(to).with_value(U256::from(1u64));
        let receipt = self.chain.provider.send_transaction(tx).await.unwrap().get_receipt().await.unwrap();
        assert!(receipt.status());
        hash(&receipt)
    }

    /// Waits until the read tables show everything the chain has mined so far.
    pub async fn indexed(&self) {
        let (head, _) = self.chain.latest().await;
        let position = self.indexer.sync_to(head).await.unwrap();
        self.projector.wait_for(position, Duration::from_secs(10)).await.unwrap();
    }

    /// How many record events the log holds.
    pub async fn records(&self) -> usize {
        self.events_of_type("ChainActionRecorded").await
    }

    /// How many events of this type the log holds.
    pub async fn events_of_type(&self, event_type: &str) -> usize {
        read_log(self.state.store.as_ref()).await.iter().filter(|e| e.event_type == event_type).count()
    }

    pub fn file_count(&self) -> usize {
        std::fs::read_dir(self.state.config.files_dir()).map(|d| d.count()).unwrap_or(0)
    }
}

pub fn hash(receipt: &TransactionReceipt) -> String {
    format!("{:#x}", receipt.transaction_hash)
}

/// A transaction hash no node has seen.
pub fn forged_hash() -> String {
    format!("{:#x}", B256::repeat_byte(0x42))
}

pub fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}

/// A multipart body built by hand.
pub struct Form {
    body: Vec<u8>,
}

const BOUNDARY: &str = "X-TRADE-BOUNDARY-51c3";

impl Form {
    pub fn new() -> Self {
        Self { body: Vec::new() }
    }

    pub fn text(mut self, name: &str, value: &str) -> Self {
        self.body
            .extend_from_slice(format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n").as_bytes());
        self
    }

    pub fn file(mut self, name: &str, filename: &str, content_type: &str, bytes: &[u8]) -> Self {
        self.body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"{filename}\"\r\nContent-Type: {content_type}\r\n\r\n"
            )
            .as_bytes(),
        );
        self.body.extend_from_slice(bytes);
        self.body.extend_from_slice(b"\r\n");
        self
    }

    pub fn finish(mut self) -> (String, Vec<u8>) {
        self.body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
        (format!("multipart/form-data; boundary={BOUNDARY}"), self.body)
    }
}

/// A 1x1 PNG, padded to `size` bytes.
pub fn png(size: usize) -> Vec<u8> {
    let mut bytes = vec![
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
        0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89,
    ];
    while bytes.len() < size {
        bytes.push((bytes.len() % 251) as u8);
    }
    bytes
}
