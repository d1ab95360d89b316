//! A fresh marketplace per test: SQLite log and read database in a temporary folder, the
//! projector running, the dev mailbox as the mailer; plus a fake Google and a wallet key.

use std::net::SocketAddr;

use api::http::AppState;
use axum::{
    Router,
    body::Body,
    http::{Request, StatusCode, header},
};
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use serde_json::{Value, json};
use tower::ServiceExt;

use crate::support::{self, ProjectorTask};

/// The app under test.
pub struct TestApp {
    pub state: AppState,
    pub router: Router,
    pub dir: tempfile::TempDir,
    _projector: ProjectorTask,
}

/// A response: status and the parsed envelope.
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

    /// Asserts the status, that the envelope's statuscode equals it, and returns self.
    #[track_caller]
    pub fn expect(self, status: u16) -> Self {
        assert_eq!(self.status.as_u16(), status, "unexpected answer: {}", self.json);
        assert_eq!(self.json["statuscode"], json!(status), "envelope statuscode differs: {}", self.json);
        self
    }
}

pub const PASSWORD: &str = "correct horse battery";

impl TestApp {
    /// With generous rate limits, so tests measure rules, not budgets.
    pub async fn new() -> Self {
        Self::with_args(&[]).await
    }

    /// With extra command-line settings (they override the defaults here).
    pub async fn with_args(extra: &[&str]) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let defaults = [("--jwt-secret", "test-secret"), ("--rate-limit-per-ip", "1000"), ("--rate-limit-per-account", "1000")];
        let mut args = vec![];
        for (flag, value) in defaults {
            if !extra.contains(&flag) {
                args.extend([flag, value]);
            }
        }
        args.extend_from_slice(extra);
        let (state, projector) = support::fresh_state(support::config(&dir, &args), false).await;
        let router = api::http::app(state.clone(), std::path::Path::new("no-ui"));
        Self { state, router, dir, _projector: projector }
    }

    /// On the local dev chain (`marketplace dev` with its own anvil): the dev wallet's routes are
    /// served.
    pub async fn on_dev_chain() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let args = ["--jwt-secret", "test-secret", "--rate-limit-per-ip", "1000", "--rate-limit-per-account", "1000"];
        let (state, projector) = support::fresh_state(support::config(&dir, &args), false).await;
        let chain = api::chain::ChainInfo { dev_wallet: true, ..support::no_chain() };
        let state = state.with_chain(chain, None);
        let router = api::http::app(state.clone(), std::path::Path::new("no-ui"));
        Self { state, router, dir, _projector: projector }
    }

    /// Sends a request and parses the envelope (a body that is not JSON becomes `null`).
    pub async fn send(&self, request: Request<Body>) -> Answer {
        let response = self.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
        Answer { status, json: serde_json::from_slice(&bytes).unwrap_or(Value::Null) }
    }

    fn request(method: &str, uri: &str, token: Option<&str>) -> axum::http::request::Builder {
        let mut builder = Request::builder().method(method).uri(uri);
        if let Some(token) = token {
            builder = builder.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        builder
    }

    pub async fn get(&self, uri: &str, token: Option<&str>) -> Answer {
        self.send(Self::request("GET", uri, token).body(Body::empty()).unwrap()).await
    }

    pub async fn json(&self, method: &str, uri: &str, token: Option<&str>, body: Value) -> Answer {
        self.raw(method, uri, token, "application/json", body.to_string()).await
    }

    pub async fn raw(&self, method: &str, uri: &str, token: Option<&str>, content_type: &str, body: impl Into<Body>) -> Answer {
        self.send(Self::request(method, uri, token).header(header::CONTENT_TYPE, content_type).body(body.into()).unwrap()).await
    }

    pub async fn register(&self, email: &str, username: &str) -> Answer {
        self.json(
            "POST",
            "/api/auth/register",
            None,
            json!({ "email": email, "fullName": "Test User", "username": username, "password": PASSWORD, "confirmPassword": PASSWORD }),
        )
        .await
    }

    /// The messages the dev mailbox holds for `email`, newest first.
    pub async fn mails(&self, email: &str) -> Vec<Value> {
        let answer = self.get(&format!("/api/dev/mailbox?to={}", urlencode(email)), None).await.expect(200);
        answer.body().as_array().cloned().unwrap_or_default()
    }

    /// The latest code mailed to `email`.
    pub async fn code(&self, email: &str) -> String {
        let mails = self.mails(email).await;
        mails.first().and_then(|m| m["code"].as_str()).unwrap_or_else(|| panic!("no code mailed to {email}")).to_owned()
    }

    /// Registers, verifies with the mailed code, and returns the access token.
    pub async fn signed_up(&self, email: &str, username: &str) -> String {
        self.register(email, username).await.expect(200);
        let code = self.code(email).await;
        let answer =
            self.json("POST", "/api/auth/verifyaccount", None, json!({ "verificationCode": code, "email": email })).await.expect(200);
        answer.body()["accessToken"].as_str().unwrap().to_owned()
    }

    pub async fn login(&self, email: &str, password: &str) -> Answer {
        self.json("POST", "/api/auth/login", None, json!({ "email": email, "password": password })).await
    }

    pub async fn my_profile(&self, token: &str) -> Value {
        self.get("/api/account/myprofile", Some(token)).await.expect(200).body().clone()
    }

    /// How many events the log holds.
    pub async fn event_count(&self) -> u64 {
        self.state.store.head().await.unwrap().0
    }

    /// How many files the file store holds.
    pub fn file_count(&self) -> usize {
        std::fs::read_dir(self.state.config.files_dir()).map(|d| d.count()).unwrap_or(0)
    }
}

pub fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}

/// A multipart body built by hand: text fields and files.
pub struct Form {
    boundary: String,
    body: Vec<u8>,
}

impl Form {
    pub fn new() -> Self {
        Self { boundary: "X-TEST-BOUNDARY-7d1f".into(), body: Vec::new() }
    }

    pub fn text(mut self, name: &str, value: &str) -> Self {
        self.body.extend_from_slice(
            format!("--{}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n", self.boundary).as_bytes(),
        );
        self
    }

    pub fn file(mut self, name: &str, filename: &str, content_type: &str, bytes: &[u8]) -> Self {
        self.body.extend_from_slice(
            format!(
                "--{}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"{filename}\"\r\nContent-Type: {content_type}\r\n\r\n",
                self.boundary
            )
            .as_bytes(),
        );
        self.body.extend_from_slice(bytes);
        self.body.extend_from_slice(b"\r\n");
        self
    }

    pub fn content_type(&self) -> String {
        format!("multipart/form-data; boundary={}", self.boundary)
    }

    pub fn finish(mut self) -> (String, Vec<u8>) {
        self.body.extend_from_slice(format!("--{}--\r\n", self.boundary).as_bytes());
        (self.content_type(), self.body)
    }
}

/// A tiny valid PNG (1x1), padded to `size` bytes with an ancillary chunk-free tail.
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

/// A stand-in for Google: an RSA key the test made, its JWKS served on 127.0.0.1:0.
pub struct FakeGoogle {
    pub jwks_url: String,
    key: aws_lc_rs::rsa::KeyPair,
    pub kid: String,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for FakeGoogle {
    fn drop(&mut self) {
        self.server.abort();
    }
}

pub const CLIENT_ID: &str = "test-client.apps.googleusercontent.com";

impl FakeGoogle {
    pub async fn start() -> Self {
        use aws_lc_rs::signature::KeyPair as _;
        let key = aws_lc_rs::rsa::KeyPair::generate(aws_lc_rs::rsa::KeySize::Rsa2048).unwrap();
        let kid = "test-key-1".to_owned();
        let public = key.public_key();
        let jwks = json!({ "keys": [{
            "kty": "RSA",
            "alg": "RS256",
            "use": "sig",
            "kid": kid,
            "n": URL_SAFE_NO_PAD.encode(public.modulus().big_endian_without_leading_zero()),
            "e": URL_SAFE_NO_PAD.encode(public.exponent().big_endian_without_leading_zero()),
        }]});
        let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await.unwrap();
        let address = listener.local_addr().unwrap();
        let app = Router::new().route("/certs", axum::routing::get(move || async move { axum::Json(jwks) }));
        let server = tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        Self { jwks_url: format!("http://{address}/certs"), key, kid, server }
    }

    /// The standard claims of a good token for `email`.
    pub fn claims(email: &str) -> Value {
        let now = chrono::Utc::now().timestamp();
        json!({
            "iss": "https://accounts.google.com",
            "aud": CLIENT_ID,
            "sub": format!("google-{email}"),
            "email": email,
            "email_verified": true,
            "name": "Gina Google",
            "iat": now,
            "exp": now + 3600,
        })
    }

    /// An RS256 token over `claims`, signed with this key (or `other_key`) under our kid.
    pub fn token_signed_by(&self, key: &aws_lc_rs::rsa::KeyPair, claims: &Value) -> String {
        let header = json!({ "alg": "RS256", "typ": "JWT", "kid": self.kid });
        let signing_input = format!("{}.{}", URL_SAFE_NO_PAD.encode(header.to_string()), URL_SAFE_NO_PAD.encode(claims.to_string()));
        let mut signature = vec![0; key.public_modulus_len()];
        key.sign(&aws_lc_rs::signature::RSA_PKCS1_SHA256, &aws_lc_rs::rand::SystemRandom::new(), signing_input.as_bytes(), &mut signature)
            .unwrap();
        format!("{signing_input}.{}", URL_SAFE_NO_PAD.encode(signature))
    }

    pub fn token(&self, claims: &Value) -> String {
        self.token_signed_by(&self.key, claims)
    }
}

/// A wallet: a secp256k1 key that signs EIP-191 personal messages.
pub struct Wallet {
    key: k256::ecdsa::SigningKey,
}

impl Wallet {
    pub fn new(seed: u8) -> Self {
        Self { key: k256::ecdsa::SigningKey::from_slice(&[seed; 32]).unwrap() }
    }

    /// The dev mnemonic's account `index`, as the dev wallet derives it.
    pub fn dev(index: u32) -> Self {
        use alloy::signers::local::{MnemonicBuilder, coins_bip39::English};
        let signer = MnemonicBuilder::<English>::from_phrase_nth(api::chain::local::DEV_MNEMONIC, index);
        Self { key: k256::ecdsa::SigningKey::from_slice(&signer.credential().to_bytes()).unwrap() }
    }

    /// EIP-55 checksummed, as wallets report it.
    pub fn address(&self) -> String {
        alloy::primitives::Address::from_private_key(&self.key).to_checksum(None)
    }

    pub fn sign(&self, message: &str) -> String {
        let hash = alloy::primitives::eip191_hash_message(message);
        let (sig, recid) = self.key.sign_prehash_recoverable(hash.as_slice()).unwrap();
        alloy::primitives::Signature::from_signature_and_parity(sig, recid.is_y_odd()).to_string()
    }
}

/// The SIWE message the UI builds (viem's `createSiweMessage`).
pub fn siwe_message(domain: &str, address: &str, nonce: &str) -> String {
    let issued = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    format!(
        "{domain} wants you to sign in with your Ethereum account:\n{address}\n\nLink this wallet to your marketplace account.\n\n\
         URI: http://{domain}\nVersion: 1\nChain ID: 80001\nNonce: {nonce}\nIssued At: {issued}"
    )
}
