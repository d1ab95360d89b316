//! A hostile caller, driven by the document so that every call is covered as soon as it is
//! documented: over-long text in each field of each call, empty query values, malformed JSON,
//! wrong types, unknown `/api` paths. Each is a 400 (or 404) in the envelope, and nothing is
//! appended to the event log.

use std::collections::BTreeSet;

use axum::{
    body::Body,
    http::{Method, Request, StatusCode, header},
};
use chrono::Utc;
use domain::{
    ExpectedVersion, Metadata,
    accounts::{AuthProvider, UserEvent, user_stream},
};
use serde_json::{Map, Value, json};

use super::helpers::{Answer, TestApp, operations};

/// The limits table in the API docs, checked against the document (`UPDATE_LIMITS_DOC=1`
/// rewrites it).
const LIMITS_DOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/api-limits.md");

/// A verified user, and their access token.
async fn signed_in(app: &TestApp) -> String {
    let id = uuid::Uuid::now_v7();
    let at = Utc::now();
    let events = [
        UserEvent::UserRegistered {
            user_id: id,
            email: format!("{}@example.com", id.simple()),
            username: format!("u{}", &id.simple().to_string()[20..]),
            full_name: "Mallory".into(),
            password_hash: "$argon2id$unused".into(),
            auth_provider: AuthProvider::Email,
            at,
        },
        UserEvent::AccountVerified { at },
    ];
    let events = events.iter().map(|e| e.to_new_event(Metadata::default()).unwrap()).collect();
    let position = app.state.store.append(&user_stream(id), ExpectedVersion::NoStream, events).await.unwrap().last_position;
    app.state.projector.wait_for(position, std::time::Duration::from_secs(10)).await.unwrap();
    app.state.accounts.tokens.issue(id).unwrap()
}

/// A path with values that reach the handler (collections are named by UUIDs).
fn concrete(path: &str) -> String {
    let collection = path.starts_with("/api/collection");
    path.split('/')
        .map(|segment| match segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            Some("id") if collection => uuid::Uuid::now_v7().to_string(),
            Some("collectionId" | "collectionid" | "userid" | "userId" | "keyId" | "endpointId") => uuid::Uuid::now_v7().to_string(),
            Some("nftid" | "nftId" | "id") => "80001-1".into(),
            Some("auctionid" | "auctionId") => "1".into(),
            Some("cid") => "bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku".into(),
            Some("targetKind") => "nft".into(),
            Some("targetId") => "80001-1".into(),
            Some("action") => "hide".into(),
            Some("role") => "moderator".into(),
            Some(other) => panic!("no value for path parameter {other}"),
            None => segment.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// `schema` with its `$ref` followed.
fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(pointer) => resolve(doc, doc.pointer(&pointer[1..]).unwrap_or_else(|| panic!("dangling {pointer}"))),
        None => schema,
    }
}

fn is_string(schema: &Value) -> bool {
    schema["type"] == "string" || schema["type"].as_array().is_some_and(|types| types.contains(&json!("string")))
}

/// Every text field under `schema`: its path as a 400 names it, its `maxLength` (`None`: no
/// limit), and the smallest body holding it with `text` in it.
fn text_fields(doc: &Value, schema: &Value, text: &dyn Fn(u64) -> String) -> Vec<(String, Option<u64>, Value)> {
    let schema = resolve(doc, schema);
    let mut found = Vec::new();
    for key in ["oneOf", "anyOf", "allOf"] {
        for alternative in schema[key].as_array().into_iter().flatten() {
            found.extend(text_fields(doc, alternative, text));
        }
    }
    // Files (`format: binary`) are bounded in bytes, choices by their values.
    if is_string(schema) && schema["format"] != "binary" && schema.get("enum").is_none() {
        let max = schema["maxLength"].as_u64();
        found.push((String::new(), max, Value::String(text(max.unwrap_or(0)))));
    }
    for (name, property) in schema["properties"].as_object().into_iter().flatten() {
        for (path, max, body) in text_fields(doc, property, text) {
            // An array's items are named as the server names them: `topics[0]`.
            let path = match path.as_str() {
                "" => name.clone(),
                p if p.starts_with('[') => format!("{name}{p}"),
                p => format!("{name}.{p}"),
            };
            found.push((path, max, json!({ name: body })));
        }
    }
    if schema.get("items").is_some() {
        for (path, max, body) in text_fields(doc, &schema["items"], text) {
            let path = if path.is_empty() { "[0]".to_owned() } else { format!("[0].{path}") };
            found.push((path, max, json!([body])));
        }
    }
    found
}

/// `(METHOD, path, content type, schema)` of every documented request body.
fn bodies(doc: &Value) -> Vec<(String, String, String, Value)> {
    let mut found = Vec::new();
    for (method, path) in operations(doc) {
        let operation = &doc["paths"][&path][method.to_lowercase()];
        for (content_type, content) in operation["requestBody"]["content"].as_object().into_iter().flatten() {
            found.push((method.clone(), path.clone(), content_type.clone(), content["schema"].clone()));
        }
    }
    found
}

/// `(METHOD, path, parameter)` of every documented query parameter.
fn query_parameters(doc: &Value) -> Vec<(String, String, Value)> {
    let mut found = Vec::new();
    for (method, path) in operations(doc) {
        let operation = &doc["paths"][&path][method.to_lowercase()];
        for parameter in operation["parameters"].as_array().into_iter().flatten().filter(|p| p["in"] == "query") {
            found.push((method.clone(), path.clone(), parameter.clone()));
        }
    }
    found
}

fn request(method: &str, uri: &str, token: &str) -> axum::http::request::Builder {
    Request::builder()
        .method(Method::from_bytes(method.as_bytes()).unwrap())
        .uri(uri)
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
}

/// `fields` (text only) as a `multipart/form-data` body.
fn multipart(fields: &Map<String, Value>) -> (String, Vec<u8>) {
    let boundary = "hostile-boundary";
    let mut body = String::new();
    for (name, value) in fields {
        body.push_str(&format!("--{boundary}\r\ncontent-disposition: form-data; name=\"{name}\"\r\n\r\n{}\r\n", value.as_str().unwrap()));
    }
    body.push_str(&format!("--{boundary}--\r\n"));
    (format!("multipart/form-data; boundary={boundary}"), body.into_bytes())
}

/// Sends `build(...)` and checks the answer is a 400 in the envelope whose message starts with
/// `names` and that the event log did not grow.
async fn assert_refused(app: &TestApp, what: &str, names: &str, request: Request<Body>) -> Answer {
    let head = app.state.store.head().await.unwrap().0;
    let answer = app.send(request).await;
    let body = answer.json();
    assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{what}: {body}");
    assert_eq!((&body["statuscode"], &body["body"]), (&json!(400), &Value::Null), "{what}: the envelope");
    let message = body["message"].as_str().unwrap_or_default();
    assert!(message.starts_with(names), "{what}: the 400 names {names}: {message}");
    assert_eq!(app.state.store.head().await.unwrap().0, head, "{what}: nothing appended");
    answer
}

#[tokio::test]
async fn every_text_field_of_every_call_has_a_documented_limit_and_the_docs_table_lists_them_all() {
    let doc = TestApp::new().await.document().await;
    let mut unlimited = BTreeSet::new();
    let mut rows = BTreeSet::new();
    for (method, path, _, schema) in bodies(&doc) {
        for (field, max, _) in text_fields(&doc, &schema, &|_| String::new()) {
            match max {
                Some(max) => rows.insert(format!("| `{method} {path}` | body | `{field}` | {max} |")),
                None => unlimited.insert(format!("{method} {path}: body field {field}")),
            };
        }
    }
    for (method, path, parameter) in query_parameters(&doc) {
        let name = parameter["name"].as_str().unwrap();
        for (_, max, _) in text_fields(&doc, &parameter["schema"], &|_| String::new()) {
            match max {
                Some(max) => rows.insert(format!("| `{method} {path}` | query | `{name}` | {max} |")),
                None => unlimited.insert(format!("{method} {path}: query parameter {name}")),
            };
        }
    }
    assert!(unlimited.is_empty(), "text without a documented maxLength:\n{}", unlimited.into_iter().collect::<Vec<_>>().join("\n"));

    let table =
        format!("| Call | In | Field | Most characters |\n|---|---|---|---|\n{}\n", rows.into_iter().collect::<Vec<_>>().join("\n"));
    let text = std::fs::read_to_string(LIMITS_DOC).unwrap_or_default();
    let (before, rest) = text.split_once("<!-- limits -->\n").unwrap_or((&text, ""));
    let after = rest.split_once("<!-- /limits -->").map_or("", |(_, after)| after);
    let expected = format!("{before}<!-- limits -->\n{table}<!-- /limits -->{after}");
    if std::env::var_os("UPDATE_LIMITS_DOC").is_some() {
        std::fs::write(LIMITS_DOC, &expected).unwrap();
    }
    assert_eq!(text, expected, "{LIMITS_DOC} is out of date: run this test with UPDATE_LIMITS_DOC=1");
}

#[tokio::test]
async fn text_over_its_limit_in_any_field_of_any_call_is_400_naming_it_and_appends_nothing() {
    let app = TestApp::new().await;
    let doc = app.document().await;
    let token = signed_in(&app).await;
    let over = |max: u64| "x".repeat(max as usize + 1);
    let mut checked = 0;

    for (method, path, content_type, schema) in bodies(&doc) {
        for (field, max, body) in text_fields(&doc, &schema, &over) {
            let what = format!("{method} {path} ({content_type}) with {field} over {max:?} characters");
            let builder = request(&method, &concrete(&path), &token);
            let request = match content_type.as_str() {
                "application/json" => builder.header(header::CONTENT_TYPE, "application/json").body(Body::from(body.to_string())),
                "multipart/form-data" => {
                    let (content_type, bytes) = multipart(body.as_object().unwrap());
                    builder.header(header::CONTENT_TYPE, content_type).body(Body::from(bytes))
                }
                "application/x-www-form-urlencoded" => {
                    let (name, value) = body.as_object().unwrap().iter().next().unwrap();
                    // A form sends text only: a field inside a JSON value is tested as JSON.
                    let Some(value) = value.as_str() else { continue };
                    let form = format!("{name}={value}");
                    builder.header(header::CONTENT_TYPE, "application/x-www-form-urlencoded").body(Body::from(form))
                }
                other => panic!("{what}: no test body for {other}"),
            };
            assert_refused(&app, &what, &field, request.unwrap()).await;
            checked += 1;
        }
    }
    for (method, path, parameter) in query_parameters(&doc) {
        let name = parameter["name"].as_str().unwrap();
        for (_, max, _) in text_fields(&doc, &parameter["schema"], &over) {
            let what = format!("{method} {path}?{name} over {max:?} characters");
            let uri = format!("{}?{name}={}", concrete(&path), over(max.unwrap()));
            assert_refused(&app, &what, name, request(&method, &uri, &token).body(Body::empty()).unwrap()).await;
            checked += 1;
        }
    }
    assert!(checked > 60, "only {checked} fields checked");
}

#[tokio::test]
async fn a_million_character_collection_title_is_refused_and_nothing_is_stored() {
    let app = TestApp::new().await;
    let token = signed_in(&app).await;
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR a tiny picture";
    let boundary = "hostile-boundary";
    let mut body = format!(
        "--{boundary}\r\ncontent-disposition: form-data; name=\"title\"\r\n\r\n{}\r\n--{boundary}\r\ncontent-disposition: form-data; name=\"image\"; filename=\"a.png\"\r\ncontent-type: image/png\r\n\r\n",
        "t".repeat(1_000_000)
    )
    .into_bytes();
    body.extend_from_slice(png);
    let files_before = std::fs::read_dir(&app.state.config.data_dir).map(|d| d.count()).unwrap_or(0);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    let request = request("POST", "/api/collection", &token)
        .header(header::CONTENT_TYPE, format!("multipart/form-data; boundary={boundary}"))
        .body(Body::from(body))
        .unwrap();

    let answer = assert_refused(&app, "a 1,000,000-character title", "title", request).await;

    assert_eq!(answer.json()["message"], "title: at most 100 characters");
    assert_eq!(std::fs::read_dir(&app.state.config.data_dir).map(|d| d.count()).unwrap_or(0), files_before, "no file stored");
}

#[tokio::test]
async fn an_empty_number_or_choice_in_any_query_is_400_naming_it() {
    let app = TestApp::new().await;
    app.seed_nft().await;
    let doc = app.document().await;
    let token = signed_in(&app).await;
    let mut calls = BTreeSet::new();

    for (method, path, parameter) in query_parameters(&doc) {
        let schema = &parameter["schema"];
        if schema["type"] != "integer" && schema.get("enum").is_none() {
            continue;
        }
        let name = parameter["name"].as_str().unwrap();
        for empty in ["", "%20"] {
            let uri = format!("{}?{name}={empty}", concrete(&path));
            assert_refused(&app, &format!("{method} {uri}"), name, request(&method, &uri, &token).body(Body::empty()).unwrap()).await;
        }
        calls.insert(format!("{method} {path}"));
    }
    // Every list call: explore (and its alias), trending, bids, my bids, the four profile tabs,
    // bookmarks, the collection grids and a collection's NFTs, trending people.
    assert!(calls.len() >= 14, "only {} calls have numbers or choices: {calls:?}", calls.len());
}

#[tokio::test]
async fn malformed_json_and_wrong_types_in_any_json_body_are_400_in_the_envelope_and_append_nothing() {
    let app = TestApp::new().await;
    let doc = app.document().await;
    let token = signed_in(&app).await;

    for (method, path, content_type, schema) in bodies(&doc) {
        // `/rpc` answers in JSON-RPC's own envelope.
        if content_type != "application/json" || !path.starts_with("/api/") {
            continue;
        }
        let schema = resolve(&doc, &schema);
        // Every field given a value of no documented type: a boolean where text, numbers or
        // lists are expected (or an object where a list is).
        let wrong = match schema.get("items") {
            Some(_) => json!({ "not": "a list" }),
            None => Value::Object(schema["properties"].as_object().unwrap().keys().map(|k| (k.clone(), json!(true))).collect()),
        };
        for (kind, body) in
            [("malformed JSON", "{\"broken".to_owned()), ("wrong types", wrong.to_string()), ("a bare number", "42".to_owned())]
        {
            let request =
                request(&method, &concrete(&path), &token).header(header::CONTENT_TYPE, "application/json").body(Body::from(body));
            assert_refused(&app, &format!("{method} {path} with {kind}"), "", request.unwrap()).await;
        }
    }
}

#[tokio::test]
async fn an_unknown_api_path_is_404_in_the_envelope_for_any_method_while_client_routes_get_the_ui() {
    let ui = tempfile::tempdir().unwrap();
    std::fs::write(ui.path().join("index.html"), "<!doctype html><title>Marketplace</title>").unwrap();
    let app = TestApp::new().await;
    let with_ui = api::http::app(app.state.clone(), ui.path());
    let without_ui = api::http::app(app.state.clone(), std::path::Path::new("no-ui"));

    for router in [&with_ui, &without_ui] {
        for (method, uri) in
            [("GET", "/api/nope"), ("POST", "/api/nft/nope/1"), ("PUT", "/api"), ("DELETE", "/api/collection/x/y/z"), ("GET", "/api/")]
        {
            let request = Request::builder().method(method).uri(uri).body(Body::empty()).unwrap();
            let response = tower::ServiceExt::oneshot(router.clone(), request).await.unwrap();
            let status = response.status();
            let bytes = axum::body::to_bytes(response.into_body(), 1 << 20).await.unwrap();
            let body: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
            assert_eq!(status, StatusCode::NOT_FOUND, "{method} {uri}: {}", String::from_utf8_lossy(&bytes));
            assert_eq!((&body["statuscode"], &body["body"]), (&json!(404), &Value::Null), "{method} {uri}");
            assert_eq!(body["message"], format!("No route {method} {uri}"));
        }
    }
    for uri in ["/", "/explore", "/profile/user-profile", "/apiary"] {
        let response = tower::ServiceExt::oneshot(with_ui.clone(), Request::get(uri).body(Body::empty()).unwrap()).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{uri}");
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 20).await.unwrap();
        assert!(String::from_utf8_lossy(&bytes).contains("<title>Marketplace</title>"), "{uri} serves the UI");
    }
}

/// The document lists the 4xx answers each operation gives: every operation with a query or a
/// body lists 400, and a malformed or unknown id in any path answers a status its operation
/// lists (a signed-in caller, an empty JSON body where one is documented).
#[tokio::test]
async fn every_operation_lists_the_4xx_answers_it_gives() {
    let app = TestApp::new().await;
    let doc = app.document().await;
    let token = signed_in(&app).await;
    let mut unlisted = BTreeSet::new();
    let mut probed = 0;

    for (method, path) in operations(&doc) {
        let operation = &doc["paths"][&path][method.to_lowercase()];
        let parameters: Vec<&Value> = operation["parameters"].as_array().into_iter().flatten().collect();
        let takes_input = operation.get("requestBody").is_some() || parameters.iter().any(|p| p["in"] == "query");
        if takes_input && operation["responses"]["400"].is_null() {
            unlisted.insert(format!("{method} {path}: takes input but lists no 400"));
        }
        if !parameters.iter().any(|p| p["in"] == "path") || path.starts_with("/ipfs/") {
            continue;
        }
        for (what, uri) in [("an unknown id", concrete(&path)), ("a malformed id", malformed(&path))] {
            let builder = request(&method, &uri, &token);
            let request = if operation.get("requestBody").is_some() {
                builder.header(header::CONTENT_TYPE, "application/json").body(Body::from("{}"))
            } else {
                builder.body(Body::empty())
            };
            let answer = app.send(request.unwrap()).await;
            probed += 1;
            let status = answer.status.as_str().to_owned();
            if answer.status.is_client_error() && operation["responses"][&status].is_null() {
                unlisted.insert(format!("{method} {path} with {what} ({uri}) answers {status}, not listed: {}", answer.json()["message"]));
            }
        }
    }

    assert!(unlisted.is_empty(), "4xx answers the document does not list:\n{}", unlisted.into_iter().collect::<Vec<_>>().join("\n"));
    assert!(probed >= 40, "only {probed} probes");
}

/// `path` with every path parameter a malformed value.
fn malformed(path: &str) -> String {
    path.split('/').map(|segment| if segment.starts_with('{') { "not-an-id!" } else { segment }).collect::<Vec<_>>().join("/")
}

/// Numbers past their documented range and lists longer than their `maxItems` are 400s naming
/// the field, like text over its limit, and nothing changes (a signed-in fuzzer's finds: a
/// notice position above int64's maximum, a muted list of 12 kinds).
#[tokio::test]
async fn a_position_past_its_range_and_a_list_past_its_max_items_are_400_and_append_nothing() {
    let app = TestApp::new().await;
    let token = signed_in(&app).await;
    let json = |method: &str, uri: &str, body: Value| {
        request(method, uri, &token).header(header::CONTENT_TYPE, "application/json").body(Body::from(body.to_string())).unwrap()
    };
    let above = i64::MAX as u64 + 1;
    for (uri, name, value) in [
        ("/api/notifications/read", "position", json!(above)),
        ("/api/notifications/read", "position", json!(-1)),
        ("/api/notifications/readall", "upTo", json!(above)),
    ] {
        assert_refused(
            &app,
            &format!("{uri} {name} {value}"),
            &format!("{name}: must be a whole number from 0 to"),
            json("POST", uri, json!({ name: value })),
        )
        .await;
    }
    // Every kind once, and one again: one more than there are kinds.
    let kinds = domain::notices::KINDS;
    let too_many: Vec<&str> = kinds.iter().chain(&kinds[..1]).copied().collect();
    for field in ["muted", "email"] {
        let mut body = json!({ "muted": [], "email": [] });
        body[field] = json!(too_many);
        let limit = format!("{field}: at most {} items", kinds.len());
        assert_refused(&app, field, &limit, json("PUT", "/api/notifications/settings", body)).await;
    }
    let settings = app.send(request("GET", "/api/notifications/settings", &token).body(Body::empty()).unwrap()).await.json();
    assert_eq!((&settings["body"]["muted"], &settings["body"]["email"]), (&json!([]), &json!([])), "the settings unchanged: {settings}");
    // In range, the same calls go through.
    let answer = app.send(json("POST", "/api/notifications/read", json!({ "position": i64::MAX }))).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.json());
}
