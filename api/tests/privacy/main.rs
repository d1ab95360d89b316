//! A person's data exported and their account erased, through the API on a real SQLite log:
//! what the export holds (and holds of no one else), what the deletion asks and does, and that
//! afterwards the log still verifies, holds nothing readable of them, and a replay agrees.

#[path = "../accounts/helpers.rs"]
#[allow(dead_code, reason = "shared with the accounts tests, which use all of it")]
mod helpers;
#[path = "../support/mod.rs"]
mod support;

use axum::http::{Request, header};
use helpers::*;
use serde_json::{Value, json};

const HOST: &str = "localhost:5173";
const CLIENT_ID: &str = "test-client.apps.googleusercontent.com";

/// Alice with a profile, an avatar and a contact message; Bob beside her.
async fn alice_and_bob(app: &TestApp) -> (String, String, String) {
    let alice = app.signed_up("alice@example.com", "alice").await;
    let (content_type, body) = Form::new()
        .text("fullName", "Alice Liddell")
        .text("username", "alice")
        .text("bio", "Down the rabbit hole")
        .text("mobileNumber", "+44 20 7946 0000")
        .file("avatar", "me.png", "image/png", &png(300))
        .finish();
    app.raw("PUT", "/api/account/myprofile", Some(&alice), &content_type, body).await.expect(200);
    let message = json!({ "name": "Alice Liddell", "email": "alice@example.com", "subject": "Help", "message": "Please help with my NFT" });
    app.json("POST", "/api/misc/contactus", Some(&alice), message).await.expect(200);
    let bob = app.signed_up("bob@example.com", "bobby").await;
    let alice_id = app.my_profile(&alice).await["userId"].as_str().unwrap().to_owned();
    (alice, bob, alice_id)
}

async fn export(app: &TestApp, token: &str) -> (u16, Value) {
    let answer = app.get("/api/account/export", Some(token)).await;
    (answer.status.as_u16(), answer.json)
}

#[tokio::test]
async fn the_export_holds_the_persons_data_and_nothing_of_anyone_else() {
    let app = TestApp::new().await;
    let (alice, bob, alice_id) = alice_and_bob(&app).await;
    let (status, document) = export(&app, &alice).await;
    assert_eq!(status, 200, "{document}");
    assert_eq!(document["userId"], json!(alice_id));
    assert_eq!(document["profile"]["email"], "alice@example.com");
    assert_eq!(document["profile"]["bio"], "Down the rabbit hole");
    assert_eq!(document["contactMessages"][0]["message"], "Please help with my NFT");
    let history = document["accountHistory"].as_array().unwrap();
    assert!(history.iter().any(|e| e["event"]["type"] == "ProfileUpdated"));
    for section in ["wallets", "likes", "bookmarks", "collections", "bids", "offers", "notifications", "apiKeys", "webhookEndpoints"] {
        assert!(document[section].is_array(), "{section}");
    }
    let text = document.to_string();
    assert!(!text.contains("bob@example.com") && !text.contains("bobby"), "nothing of Bob");
    assert!(!text.contains("argon2") && !text.contains("passwordHash") && !text.contains("codeHash"), "no secret's hash");
    // Bob's export is his.
    let (_, bobs) = export(&app, &bob).await;
    assert!(!bobs.to_string().contains("alice"));
}

#[tokio::test]
async fn the_export_comes_by_an_e_mailed_link_that_cannot_be_forged() {
    let app = TestApp::new().await;
    let (alice, _, alice_id) = alice_and_bob(&app).await;
    let sent = app.json("POST", "/api/account/export/email", Some(&alice), json!({})).await.expect(202);
    assert_eq!(sent.message(), "A link to your data was sent to your e-mail address");
    let mail = app.mails("alice@example.com").await.into_iter().find(|m| m["subject"] == "Your data").unwrap();
    let link = mail["link"].as_str().unwrap();
    let path = &link[link.find("/api/").unwrap()..];
    let downloaded = app.get(path, None).await;
    assert_eq!(downloaded.status.as_u16(), 200);
    assert_eq!(downloaded.json["userId"], json!(alice_id));
    // Another person's id under Alice's signature, or a changed expiry: refused.
    let token = path.split("token=").nth(1).unwrap();
    let mut parts: Vec<&str> = token.split('.').collect();
    let other = uuid::Uuid::now_v7().to_string();
    parts[0] = &other;
    let forged = app.get(&format!("/api/account/export/download?token={}", parts.join(".")), None).await.expect(400);
    assert_eq!(forged.message(), "token: the link is invalid or has expired");
    app.get("/api/account/export/download?token=nonsense", None).await.expect(400);
}

#[tokio::test]
async fn an_api_key_can_neither_export_nor_delete() {
    let app = TestApp::new().await;
    let (alice, _, _) = alice_and_bob(&app).await;
    let key = app.json("POST", "/api/account/keys", Some(&alice), json!({ "name": "bot", "scopes": ["read", "trades"] })).await.expect(200);
    let key = key.body()["key"].as_str().unwrap().to_owned();
    assert_eq!(app.get("/api/account/export", Some(&key)).await.status.as_u16(), 403);
    assert_eq!(app.json("POST", "/api/account/delete", Some(&key), json!({ "password": PASSWORD })).await.status.as_u16(), 403);
}

#[tokio::test]
async fn deleting_an_account_forgets_the_person_and_edits_nothing() {
    let app = TestApp::new().await;
    let (alice, bob, alice_id) = alice_and_bob(&app).await;
    let avatar = app.my_profile(&alice).await["avatar"].as_str().unwrap().trim_start_matches("/ipfs/").to_owned();
    let raw = domain::store::open(&app.state.config.database_url()).await.unwrap();
    let before = raw.read_all(0, 10_000).await.unwrap();

    let deletion = app.get("/api/account/deletion", Some(&alice)).await.expect(200);
    assert_eq!(deletion.body()["hasPassword"], json!(true));
    assert_eq!(deletion.body()["openOnChain"], json!([]));
    // Bad input changes nothing.
    let events = app.event_count().await;
    let missing = app.json("POST", "/api/account/delete", Some(&alice), json!({})).await.expect(400);
    assert_eq!(missing.message(), "password: Required");
    app.json("POST", "/api/account/delete", Some(&alice), json!({ "password": "wrong password" })).await.expect(401);
    app.raw("POST", "/api/account/delete", Some(&alice), "application/json", "{not json").await.expect(400);
    app.json("POST", "/api/account/delete", Some(&alice), json!({ "password": 42 })).await.expect(400);
    assert_eq!(app.event_count().await, events, "nothing written");

    let deleted = app.json("POST", "/api/account/delete", Some(&alice), json!({ "password": PASSWORD })).await.expect(200);
    assert_eq!(deleted.message(), "Account deleted");
    assert!(deleted.body()["forgottenKeys"].as_u64().unwrap() >= 2, "the person's key and their message's");

    // Signed out everywhere, unable to sign in, shown as a deleted user.
    app.get("/api/account/myprofile", Some(&alice)).await.expect(401);
    app.login("alice@example.com", PASSWORD).await.expect(401);
    let profile = app.get(&format!("/api/account/getuserprofile/{alice_id}"), None).await.expect(200);
    let profile = profile.body();
    assert_eq!(profile["erased"], json!(true));
    assert!(profile["username"].as_str().unwrap().starts_with("deleted-"), "{profile}");
    assert_eq!((profile["fullName"].as_str(), profile["bio"].as_str(), profile["avatar"].as_str()), (Some(""), Some(""), Some("")));
    assert!(app.state.files.get(&avatar).await.unwrap().is_none(), "the avatar left the file store");
    assert!(app.mails("alice@example.com").await.iter().any(|m| m["subject"] == "Your account was deleted"));

    // The log: every earlier event byte for byte, the erasure appended, the chain whole, and
    // nothing of Alice readable through the store.
    let after = raw.read_all(0, 10_000).await.unwrap();
    assert_eq!(&after[..before.len()], &before[..]);
    assert!(after[before.len()..].iter().any(|e| e.event_type == "AccountErased"));
    domain::store::verify::verify(raw.as_ref(), 1_000).await.unwrap();
    let opened = app.state.store.read_all(0, 10_000).await.unwrap();
    for secret in ["alice@example.com", "Alice Liddell", "Down the rabbit hole", "+44 20 7946", "Please help with my NFT"] {
        assert!(!after.iter().any(|e| e.payload.contains(secret) || e.stream_id.contains(secret)), "{secret} stored in clear");
        assert!(!opened.iter().any(|e| e.payload.contains(secret)), "{secret} still readable");
    }

    // A replay from the log builds the same deleted user.
    let generation = projections::ReadDb::open_generation(&app.state.config.read_database_url(), "g_replay").await.unwrap();
    projections::Projector::new(app.state.store.clone(), generation.clone()).await.unwrap().catch_up().await.unwrap();
    let replayed = projections::accounts::own_profile(&generation, &alice_id).await.unwrap().unwrap();
    assert_eq!((replayed.email.as_str(), replayed.full_name.as_str(), replayed.bio.as_str()), (alice_id.as_str(), "", ""));
    assert!(replayed.username.starts_with("deleted-") && replayed.erased_at.is_some() && replayed.avatar.is_none());
    let bob_id = app.my_profile(&bob).await["userId"].as_str().unwrap().to_owned();
    assert_eq!(projections::accounts::own_profile(&generation, &bob_id).await.unwrap().unwrap().email, "bob@example.com");

    // The address and the name are free again.
    let again = app.signed_up("alice@example.com", "alice").await;
    assert_ne!(app.my_profile(&again).await["userId"], json!(alice_id));
}

async fn nonce(app: &TestApp, token: &str) -> String {
    app.get("/api/account/walletnonce", Some(token)).await.expect(200).body()["nonce"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn an_account_without_a_password_confirms_with_a_linked_wallets_signature() {
    let google = FakeGoogle::start().await;
    let app = TestApp::with_args(&["--google-client-id", CLIENT_ID, "--google-jwks-url", &google.jwks_url]).await;
    let signed_in =
        app.json("POST", "/api/auth/googlelogin", None, json!({ "idToken": google.token(&FakeGoogle::claims("gina@gmail.com")) }));
    let token = signed_in.await.expect(200).body()["accessToken"].as_str().unwrap().to_owned();
    let wallet = Wallet::new(7);
    let send = |uri: &str, body: Value| {
        Request::builder()
            .method(if uri.ends_with("connectwallet") { "PUT" } else { "POST" })
            .uri(uri)
            .header("host", HOST)
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .body(axum::body::Body::from(body.to_string()))
            .unwrap()
    };
    let message = siwe_message(HOST, &wallet.address(), &nonce(&app, &token).await);
    let link =
        json!({ "walletProvider": "Metamask", "walletAddress": wallet.address(), "message": message, "signature": wallet.sign(&message) });
    app.send(send("/api/account/connectwallet", link)).await.expect(200);

    let deletion = app.get("/api/account/deletion", Some(&token)).await.expect(200);
    assert_eq!(deletion.body()["hasPassword"], json!(false));
    assert_eq!(deletion.body()["wallets"], json!([wallet.address().to_lowercase()]));
    let missing = app.send(send("/api/account/delete", json!({}))).await.expect(400);
    assert_eq!(missing.message(), "wallet: Required (a signature of a linked wallet)");
    // Another wallet's signature, or one over a stale nonce, does not confirm.
    let stranger = Wallet::new(8);
    let message = siwe_message(HOST, &stranger.address(), &nonce(&app, &token).await);
    let foreign = json!({ "wallet": { "address": stranger.address(), "message": message, "signature": stranger.sign(&message) } });
    app.send(send("/api/account/delete", foreign)).await.expect(400);
    let message = siwe_message(HOST, &wallet.address(), &nonce(&app, &token).await);
    let confirm = json!({ "wallet": { "address": wallet.address(), "message": message, "signature": wallet.sign(&message) } });
    app.send(send("/api/account/delete", confirm)).await.expect(200);
    app.get("/api/account/myprofile", Some(&token)).await.expect(401);
}

#[tokio::test]
async fn deleting_on_postgres_keeps_the_log_verifiable_and_the_person_unreadable() {
    let pg = domain::test_utils::TestPostgres::create().await;
    let app = TestApp::with_args(&["--database-url", &pg.url]).await;
    let (alice, _, alice_id) = alice_and_bob(&app).await;
    app.json("POST", "/api/account/delete", Some(&alice), json!({ "password": PASSWORD })).await.expect(200);
    let raw = domain::store::open(&pg.url).await.unwrap();
    domain::store::verify::verify(raw.as_ref(), 1_000).await.unwrap();
    let opened = app.state.store.read_all(0, 10_000).await.unwrap();
    assert!(!opened.iter().any(|e| e.payload.contains("alice@example.com") || e.payload.contains("Down the rabbit hole")));
    let profile = app.get(&format!("/api/account/getuserprofile/{alice_id}"), None).await.expect(200);
    assert_eq!(profile.body()["erased"], json!(true));
    app.signed_up("alice@example.com", "alice").await;
}
