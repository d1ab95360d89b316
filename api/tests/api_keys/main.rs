//! API keys for bots end to end: made, listed and revoked through the API by a person signed in
//! with a password; used as `Authorization: Bearer` or `X-API-Key` within their scopes; their
//! budget announced in `RateLimit` headers; only their hash in the log and the read model; and
//! rebuilt by a replay. Real SQLite log and read database, the projector running.

#[path = "../accounts/helpers.rs"]
#[allow(dead_code)]
mod helpers;
#[path = "../support/mod.rs"]
mod support;

use axum::{
    body::Body,
    http::{Request, header},
};
use helpers::*;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tower::ServiceExt;

/// How a request presents a key.
#[derive(Clone, Copy)]
enum As {
    Bearer,
    Header,
}

impl TestApp {
    async fn create_key(&self, token: &str, name: &str, scopes: &[&str]) -> Answer {
        self.json("POST", "/api/account/keys", Some(token), json!({ "name": name, "scopes": scopes })).await
    }

    async fn key(&self, token: &str, scopes: &[&str]) -> (String, String) {
        let made = self.create_key(token, "bot", scopes).await.expect(200);
        (made.body()["key"].as_str().unwrap().to_owned(), made.body()["keyId"].as_str().unwrap().to_owned())
    }

    async fn keys(&self, token: &str) -> Vec<Value> {
        self.get("/api/account/keys", Some(token)).await.expect(200).body().as_array().unwrap().clone()
    }

    fn with_key(method: &str, uri: &str, key: &str, how: As) -> axum::http::request::Builder {
        let builder = Request::builder().method(method).uri(uri);
        match how {
            As::Bearer => builder.header(header::AUTHORIZATION, format!("Bearer {key}")),
            As::Header => builder.header("X-API-Key", key),
        }
    }

    async fn key_get(&self, uri: &str, key: &str, how: As) -> Answer {
        self.send(Self::with_key("GET", uri, key, how).body(Body::empty()).unwrap()).await
    }

    async fn key_json(&self, method: &str, uri: &str, key: &str, body: Value) -> Answer {
        let request = Self::with_key(method, uri, key, As::Header).header(header::CONTENT_TYPE, "application/json");
        self.send(request.body(Body::from(body.to_string())).unwrap()).await
    }

    async fn user_id(&self, token: &str) -> String {
        self.my_profile(token).await["userId"].as_str().unwrap().to_owned()
    }
}

fn sha256(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

#[tokio::test]
async fn a_key_is_made_shown_once_listed_without_its_secret_and_revoked() {
    let app = TestApp::new().await;
    let token = app.signed_up("ada@example.com", "ada").await;

    let made = app.create_key(&token, "  Price bot ", &["trades", "read"]).await.expect(200);

    let key = made.body()["key"].as_str().unwrap();
    assert!(key.starts_with("mk_live_") && key.len() == 48, "{key}");
    assert_eq!(made.body()["name"], "Price bot");
    assert_eq!(made.body()["scopes"], json!(["read", "trades"]));
    assert_eq!(made.body()["prefix"], &key[..12]);
    assert_eq!(made.body()["lastUsedAt"], Value::Null);
    let listed = app.keys(&token).await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["keyId"], made.body()["keyId"]);
    assert_eq!(listed[0]["createdAt"], made.body()["createdAt"]);
    assert!(listed[0].get("key").is_none() && !listed[0].to_string().contains(key), "{}", listed[0]);

    let key_id = made.body()["keyId"].as_str().unwrap();
    app.get("/api/account/myprofile", None).await.expect(401);
    assert_eq!(app.key_get("/api/account/myprofile", key, As::Header).await.expect(200).body()["email"], "ada@example.com");
    app.json("DELETE", &format!("/api/account/keys/{key_id}"), Some(&token), json!({})).await.expect(200);

    assert_eq!(app.keys(&token).await, Vec::<Value>::new());
    let refused = app.key_get("/api/account/myprofile", key, As::Header).await.expect(401);
    assert_eq!(refused.body(), &Value::Null);
    app.key_get("/api/account/getuserprofile/00000000-0000-0000-0000-000000000000", key, As::Bearer).await.expect(401);
    app.json("DELETE", &format!("/api/account/keys/{key_id}"), Some(&token), json!({})).await.expect(200);
}

#[tokio::test]
async fn a_key_acts_as_its_person_as_a_bearer_or_in_x_api_key_and_its_use_is_shown() {
    let app = TestApp::new().await;
    let token = app.signed_up("ada@example.com", "ada").await;
    let (key, _) = app.key(&token, &["read"]).await;

    for how in [As::Bearer, As::Header] {
        let profile = app.key_get("/api/account/myprofile", &key, how).await.expect(200);
        assert_eq!(profile.body()["username"], "ada");
    }
    app.key_get("/api/account/myprofile", "mk_live_0000000000000000000000000000000000000000", As::Header).await.expect(401);
    app.key_get("/api/account/myprofile", "not-a-key", As::Header).await.expect(401);

    let listed = app.keys(&token).await;
    let used = listed[0]["lastUsedAt"].as_str().expect("the use is shown");
    let used = chrono::DateTime::parse_from_rfc3339(used).unwrap();
    assert!((chrono::Utc::now() - used.to_utc()).num_seconds().abs() < 60, "{used}");
}

#[tokio::test]
async fn a_route_outside_the_keys_scopes_is_403_naming_the_scope_and_public_data_answers_any_key() {
    let app = TestApp::new().await;
    let token = app.signed_up("ada@example.com", "ada").await;
    let user = app.user_id(&token).await;
    let (key, _) = app.key(&token, &["notifications"]).await;

    let read = app.key_get("/api/account/myprofile", &key, As::Bearer).await.expect(403);
    assert!(read.message().contains("\"read\""), "{}", read.message());
    let trade = app.key_json("PUT", "/api/nft/like/80001-1", &key, json!({})).await.expect(403);
    assert!(trade.message().contains("\"trades\""), "{}", trade.message());
    let purchase = app.key_json("POST", "/api/nft/fixedsale/purchase", &key, json!({})).await.expect(403);
    assert!(purchase.message().contains("\"trades\""), "{}", purchase.message());
    assert_eq!(read.body(), &Value::Null);

    app.key_get("/api/notifications", &key, As::Header).await.expect(200);
    let public = app.key_get(&format!("/api/account/getuserprofile/{user}"), &key, As::Header).await.expect(200);
    assert_eq!(public.body()["username"], "ada");
}

#[tokio::test]
async fn a_key_cannot_manage_keys_nor_the_account_whatever_its_scopes() {
    let app = TestApp::new().await;
    let token = app.signed_up("ada@example.com", "ada").await;
    let (key, key_id) = app.key(&token, &["read", "trades", "notifications", "webhooks"]).await;
    let before = app.event_count().await;

    let attempts = [
        ("POST", "/api/account/keys".to_owned(), json!({ "name": "child", "scopes": ["read"] })),
        ("DELETE", format!("/api/account/keys/{key_id}"), json!({})),
        (
            "PUT",
            "/api/auth/change-account-password".to_owned(),
            json!({ "currentPassword": PASSWORD, "newPassword": "another horse 1", "confirmPassword": "another horse 1" }),
        ),
        ("PUT", "/api/auth/changeemail".to_owned(), json!({ "newEmail": "evil@example.com" })),
        ("PUT", "/api/account/disconnectwallet".to_owned(), json!({ "walletAddress": "0x0000000000000000000000000000000000000001" })),
    ];
    for (method, uri, body) in attempts {
        let answer = app.key_json(method, &uri, &key, body).await.expect(403);
        assert!(answer.message().contains("cannot manage the account"), "{method} {uri}: {}", answer.message());
    }
    app.key_get("/api/account/keys", &key, As::Bearer).await.expect(403);

    assert_eq!(app.event_count().await, before, "nothing was recorded");
    assert_eq!(app.keys(&token).await.len(), 1);
}

#[tokio::test]
async fn only_the_hash_of_a_key_is_in_the_log_and_the_read_model() {
    let app = TestApp::new().await;
    let token = app.signed_up("ada@example.com", "ada").await;
    let (key, key_id) = app.key(&token, &["read"]).await;

    let events = app.state.store.read_all(0, 10_000).await.unwrap();
    let created: Vec<_> = events.iter().filter(|e| e.event_type == "ApiKeyCreated").collect();
    assert_eq!(created.len(), 1);
    let payload: Value = serde_json::from_str(&created[0].payload).unwrap();
    assert_eq!(payload["keyHash"], sha256(&key));
    assert_eq!(payload["keyId"], key_id);
    assert!(events.iter().all(|e| !e.payload.contains(&key[8..]) && !e.metadata.contains(&key[8..])), "the key is in the log");

    let rows: Vec<(String, String, String)> =
        sqlx::query_as("SELECT key_id, key_hash, prefix FROM api_keys").fetch_all(&app.state.read.pool()).await.unwrap();
    assert_eq!(rows, vec![(key_id, sha256(&key), key[..12].to_owned())]);
    let everything: Vec<(String,)> = sqlx::query_as(
        "SELECT key_id || user_id || name || scopes || key_hash || prefix || created_at || COALESCE(revoked_at, '') FROM api_keys",
    )
    .fetch_all(&app.state.read.pool())
    .await
    .unwrap();
    assert!(!everything[0].0.contains(&key[12..]), "the key is in the read model");
}

#[tokio::test]
async fn every_answer_to_a_key_announces_its_budget_and_past_it_is_429_with_retry_after() {
    let app = TestApp::with_args(&["--api-key-rate-limit", "3"]).await;
    let token = app.signed_up("ada@example.com", "ada").await;
    let (key, _) = app.key(&token, &["read"]).await;

    let mut remaining = Vec::new();
    for _ in 0..3 {
        let request = TestApp::with_key("GET", "/api/account/myprofile", &key, As::Header).body(Body::empty()).unwrap();
        let response = app.router.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["ratelimit-policy"], "\"default\";q=3;w=60");
        remaining.push(response.headers()["ratelimit"].to_str().unwrap().to_owned());
    }
    assert_eq!(remaining, ["\"default\";r=2;t=20", "\"default\";r=1;t=40", "\"default\";r=0;t=60"]);

    let request = TestApp::with_key("GET", "/api/account/myprofile", &key, As::Bearer).body(Body::empty()).unwrap();
    let response = app.router.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), 429);
    let retry: u64 = response.headers()[header::RETRY_AFTER].to_str().unwrap().parse().unwrap();
    assert!((1..=20).contains(&retry), "{retry}");
    assert!(response.headers()["ratelimit"].to_str().unwrap().starts_with("\"default\";r=0;"));
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 16).await.unwrap();
    let envelope: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!((envelope["statuscode"].as_u64(), envelope["body"].is_null()), (Some(429), true));

    // A person's own token is not a key: no key budget, no headers.
    let response = app.router.clone().oneshot(
        Request::get("/api/account/myprofile").header(header::AUTHORIZATION, format!("Bearer {token}")).body(Body::empty()).unwrap(),
    );
    let response = response.await.unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.headers().get("ratelimit").is_none());
}

#[tokio::test]
async fn bad_requests_to_make_a_key_are_400_in_the_envelope_and_store_nothing() {
    let app = TestApp::new().await;
    let token = app.signed_up("ada@example.com", "ada").await;
    let before = app.event_count().await;

    let malformed = app.raw("POST", "/api/account/keys", Some(&token), "application/json", "{\"name\": \"bot\", ").await.expect(400);
    assert!(!malformed.message().is_empty());
    let unknown = app.create_key(&token, "bot", &["read", "admin"]).await.expect(400);
    assert!(unknown.message().contains("admin"), "{}", unknown.message());
    let empty = app.create_key(&token, "   ", &["read"]).await.expect(400);
    assert!(empty.message().starts_with("name"), "{}", empty.message());
    let long = app.create_key(&token, &"n".repeat(65), &["read"]).await.expect(400);
    assert!(long.message().contains("name"), "{}", long.message());
    let none = app.create_key(&token, "bot", &[]).await.expect(400);
    assert!(none.message().starts_with("scopes"), "{}", none.message());
    app.json("POST", "/api/account/keys", Some(&token), json!({ "name": "bot", "scopes": "read" })).await.expect(400);
    for answer in [&malformed, &unknown, &empty, &long, &none] {
        assert_eq!(answer.body(), &Value::Null);
    }

    assert_eq!(app.event_count().await, before);
    assert_eq!(app.keys(&token).await, Vec::<Value>::new());
    app.create_key(&token, &"n".repeat(64), &["read"]).await.expect(200);
}

#[tokio::test]
async fn someone_elses_key_cannot_be_revoked() {
    let app = TestApp::new().await;
    let ada = app.signed_up("ada@example.com", "ada").await;
    let bob = app.signed_up("bob@example.com", "bob").await;
    let (key, key_id) = app.key(&ada, &["read"]).await;
    let before = app.event_count().await;

    app.json("DELETE", &format!("/api/account/keys/{key_id}"), Some(&bob), json!({})).await.expect(404);
    app.json("DELETE", "/api/account/keys/not-a-uuid", Some(&bob), json!({})).await.expect(404);
    app.json("DELETE", &format!("/api/account/keys/{key_id}"), None, json!({})).await.expect(401);

    assert_eq!(app.event_count().await, before);
    assert_eq!(app.keys(&bob).await, Vec::<Value>::new());
    app.key_get("/api/account/myprofile", &key, As::Header).await.expect(200);
}

#[tokio::test]
async fn a_replay_rebuilds_the_keys_as_they_were() {
    let app = TestApp::new().await;
    let token = app.signed_up("ada@example.com", "ada").await;
    let (kept, _) = app.key(&token, &["read"]).await;
    let (revoked, revoked_id) = app.key(&token, &["trades"]).await;
    app.json("DELETE", &format!("/api/account/keys/{revoked_id}"), Some(&token), json!({})).await.expect(200);
    app.key_get("/api/account/myprofile", &kept, As::Header).await.expect(200);
    let listed = app.keys(&token).await;
    let live = app.state.read.checksum().await.unwrap();

    api::ops::replay((*app.state.config).clone()).await.unwrap();
    assert!(app.state.read.refresh().await.unwrap(), "the replay published a new generation");

    assert_eq!(app.state.read.checksum().await.unwrap(), live, "the replay equals the live read models");
    let rows: Vec<(String,)> = sqlx::query_as("SELECT key_id FROM api_keys").fetch_all(&app.state.read.pool()).await.unwrap();
    assert_eq!(rows.len(), 2, "both keys, the revoked one included");
    assert_eq!(app.keys(&token).await, listed, "the same list, last use included");
    app.key_get("/api/account/myprofile", &kept, As::Bearer).await.expect(200);
    app.key_get("/api/account/myprofile", &revoked, As::Bearer).await.expect(401);
}

#[tokio::test]
async fn the_document_lists_the_key_scheme_and_names_a_scope_on_every_operation_behind_a_token() {
    let app = TestApp::new().await;

    let doc = app.get("/api/openapi.json", None).await;

    let doc = &doc.json;
    assert_eq!(doc["components"]["securitySchemes"]["apiKey"]["type"], "apiKey");
    assert_eq!(doc["components"]["securitySchemes"]["apiKey"]["in"], "header");
    assert_eq!(doc["components"]["securitySchemes"]["apiKey"]["name"], "X-API-Key");
    let mut behind_a_token = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let bearer = operation["security"].as_array().is_some_and(|list| list.iter().any(|r| r.get("bearer").is_some()));
            let scope = operation["x-api-key-scope"].as_str();
            if !bearer {
                assert_eq!(scope, None, "{method} {path}: a public operation answers any key");
                continue;
            }
            behind_a_token += 1;
            let scope = scope.unwrap_or_else(|| panic!("{method} {path}: no x-api-key-scope"));
            assert!(["read", "trades", "notifications", "webhooks", "none"].contains(&scope), "{method} {path}: {scope}");
            if path.starts_with("/api/account/keys") || path.starts_with("/api/auth/") {
                assert_eq!(scope, "none", "{method} {path}");
            }
        }
    }
    assert!(behind_a_token > 20, "{behind_a_token}");
    assert_eq!(doc["paths"]["/api/nft/fixedsale/purchase"]["post"]["x-api-key-scope"], "trades");
    assert_eq!(doc["paths"]["/api/nft/mybids"]["get"]["x-api-key-scope"], "read");
    assert_eq!(doc["paths"]["/api/notifications"]["get"]["x-api-key-scope"], "notifications");
    for (method, path) in [("get", "/api/account/keys"), ("post", "/api/account/keys"), ("delete", "/api/account/keys/{keyId}")] {
        assert!(doc["paths"][path][method].is_object(), "{method} {path} is documented");
    }
}
