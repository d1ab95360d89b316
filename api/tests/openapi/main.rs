//! The OpenAPI document at `/api/openapi.json`: valid OpenAPI 3.1, covering exactly the routes
//! the server registers, at the spec's paths, with the security the handlers enforce.

mod helpers;
mod sources;

use std::collections::{BTreeMap, BTreeSet};

use axum::{
    body::Body,
    http::{Method, Request, StatusCode, header},
};
use helpers::{TestApp, operations, shape};
use serde_json::{Value, json};

#[tokio::test]
async fn the_document_is_served_as_json_at_api_openapi_json() {
    let app = TestApp::new().await;

    let answer = app.get("/api/openapi.json").await;

    assert_eq!(answer.status, StatusCode::OK);
    assert!(answer.content_type.starts_with("application/json"), "content type {}", answer.content_type);
    let doc = answer.json();
    assert_eq!(doc["openapi"], "3.1.0");
    assert!(doc["paths"]["/api/openapi.json"]["get"].is_object(), "the document describes itself");
}

#[tokio::test]
async fn the_document_parses_as_openapi_3_1_and_every_reference_resolves() {
    let doc = TestApp::new().await.document().await;

    let spec = oas3::from_json(doc.to_string()).expect("the document deserialises as OpenAPI 3.1");
    let version = spec.validate_version().expect("a supported OpenAPI version");
    assert_eq!((version.major, version.minor), (3, 1));
    for (path, method, operation) in spec.operations() {
        operation.parameters(&spec).unwrap_or_else(|e| panic!("{method} {path}: parameters: {e}"));
        if operation.request_body.is_some() {
            operation.request_body(&spec).unwrap_or_else(|e| panic!("{method} {path}: request body: {e}"));
        }
        let responses = operation.responses(&spec);
        assert!(responses.keys().any(|status| status.starts_with('2')), "{method} {path}: no success response");
        for (status, response) in responses {
            assert!(response.description.is_some_and(|d| !d.is_empty()), "{method} {path}: the {status} response has no description");
        }
    }

    let mut refs = Vec::new();
    collect_refs(&doc, &mut refs);
    assert!(!refs.is_empty());
    for reference in refs {
        let pointer = reference.strip_prefix('#').unwrap_or_else(|| panic!("external reference {reference}"));
        assert!(doc.pointer(pointer).is_some(), "dangling reference {reference}");
    }

    let mut ids = BTreeSet::new();
    for (method, path) in operations(&doc) {
        let operation = &doc["paths"][&path][method.to_lowercase()];
        let id = operation["operationId"].as_str().unwrap_or_else(|| panic!("{method} {path}: no operationId"));
        assert!(ids.insert(id.to_owned()), "operationId {id} is used twice");

        let in_template: BTreeSet<&str> = path.split('{').skip(1).filter_map(|s| s.split_once('}')).map(|(name, _)| name).collect();
        let declared: BTreeSet<&str> = operation["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|p| p["in"] == "path")
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert_eq!(in_template, declared, "{method} {path}: path parameters");
    }
}

/// Every `$ref` in `value`.
fn collect_refs(value: &Value, refs: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get("$ref") {
                refs.push(reference.clone());
            }
            map.values().for_each(|v| collect_refs(v, refs));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, refs)),
        _ => {}
    }
}

#[tokio::test]
async fn every_route_the_source_registers_is_documented_and_nothing_else_is() {
    // A development server: the dev mailbox is mounted, so every route in the source is served.
    let doc = TestApp::new().await.document().await;
    let registrations = sources::registrations(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let documented = operations(&doc);

    let undocumented: Vec<String> = registrations
        .iter()
        .filter(|r| !documented.contains(&(r.method.clone(), r.path.clone())))
        .map(|r| format!("{} {} ({})", r.method, r.path, r.origin))
        .collect();
    let served = sources::routes(&registrations);
    let unserved: Vec<_> = documented.difference(&served).collect();

    assert!(undocumented.is_empty(), "served but not documented:\n{}", undocumented.join("\n"));
    assert!(unserved.is_empty(), "documented but registered nowhere in api/src: {unserved:?}");
    assert!(served.len() >= 30, "the source reader found only {} routes", served.len());
}

/// Spec routes the server does not serve yet. When one is implemented, take it off this list;
/// the test fails until then so the list stays true.
const NOT_YET_SERVED: &[&str] = &[
    "DELETE /api/collection/{id}",
    "DELETE /api/nft/burnnft/{nftid}",
    "GET /api/collection",
    "GET /api/collection/browse",
    "GET /api/collection/browsebyid/{id}",
    "GET /api/nft/browsebookmarked",
    "GET /api/nft/browsebycollection/{collectionid}",
    "GET /api/nft/mybids",
    "GET /api/nft/mycreatednft",
    "GET /api/nft/mynftartwork",
    "GET /api/nft/usercreatednft/{userid}",
    "GET /api/nft/usersnftartwork/{userid}",
    "GET /api/trendingcreators",
    "POST /api/collection",
    "POST /api/nft/auction/placebid",
    "POST /api/nft/fixedsale/purchase",
    "POST /api/nft/generation",
    "POST /api/nft/ipfsupload",
    "PUT /api/collection/like/{id}",
    "PUT /api/collection/nft/{collectionId}",
    "PUT /api/collection/nft/{collectionId}/{nftId}",
    "PUT /api/collection/{id}",
    "PUT /api/nft/bookmark/{nftid}",
    "PUT /api/nft/like/{nftid}",
    "PUT /api/nft/stopsale/{nftId}",
    "PUT /api/nft/update/{id}",
];

#[tokio::test]
async fn every_spec_route_the_server_serves_is_documented_at_the_spec_path() {
    let doc = TestApp::new().await.document().await;
    let documented = operations(&doc);
    let spec_routes = spec_routes();
    assert!(spec_routes.len() >= 50, "read only {} routes from the spec", spec_routes.len());

    let mut not_served = BTreeSet::new();
    let mut misplaced = Vec::new();
    for (method, path) in spec_routes.iter().filter(|(_, path)| path.starts_with("/api/")) {
        if documented.contains(&(method.clone(), path.clone())) {
            continue;
        }
        // Served under another spelling (parameter names, trailing slash) is a mismatch.
        let loose = |p: &str| shape(p).trim_end_matches('/').to_owned();
        match documented.iter().find(|(m, p)| m == method && loose(p) == loose(path)) {
            Some((_, served_at)) => misplaced.push(format!("{method} {path} is documented as {served_at}")),
            None => {
                not_served.insert(format!("{method} {path}"));
            }
        }
    }

    assert!(misplaced.is_empty(), "not at the spec's exact path:\n{}", misplaced.join("\n"));
    eprintln!("spec routes not served yet:\n  {}", not_served.iter().cloned().collect::<Vec<_>>().join("\n  "));
    let expected: BTreeSet<String> = NOT_YET_SERVED.iter().map(|r| r.to_string()).collect();
    let now_served: Vec<_> = expected.difference(&not_served).collect();
    let newly_missing: Vec<_> = not_served.difference(&expected).collect();
    assert!(now_served.is_empty(), "served now, take them off NOT_YET_SERVED: {now_served:?}");
    assert!(newly_missing.is_empty(), "spec routes neither served nor in NOT_YET_SERVED: {newly_missing:?}");
}

/// `(METHOD, path)` of every call in the spec's API tables and lists (`GET /x` or `| GET | /x |`).
fn spec_routes() -> BTreeSet<(String, String)> {
    let dir = std::env::var("MARKETPLACE_SPEC_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/spec"));
    let mut routes = BTreeSet::new();
    for name in ["accounts-wallet-shell.md", "marketplace.md"] {
        let text = std::fs::read_to_string(dir.join(name))
            .unwrap_or_else(|e| panic!("the spec {name} in {} (set MARKETPLACE_SPEC_DIR): {e}", dir.display()));
        for line in text.lines() {
            let words: Vec<&str> = line.split(|c: char| c.is_whitespace() || c == '|' || c == ',').filter(|w| !w.is_empty()).collect();
            for pair in words.windows(2) {
                if ["GET", "POST", "PUT", "DELETE", "PATCH"].contains(&pair[0]) && pair[1].starts_with('/') {
                    routes.insert((pair[0].to_owned(), pair[1].trim_end_matches([':', ';']).to_owned()));
                }
            }
        }
    }
    routes
}

/// A value for a path parameter that reaches the handler.
fn sample(parameter: &str) -> String {
    match parameter {
        "nftid" => "80001-1".into(),
        "auctionid" => "1".into(),
        "userid" => uuid::Uuid::now_v7().to_string(),
        "cid" => "bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku".into(),
        other => panic!("no sample value for path parameter {other}"),
    }
}

fn concrete(path: &str) -> String {
    path.split('/')
        .map(|segment| match segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            Some(name) => sample(name),
            None => segment.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Whether the operation can only be called with a bearer token.
fn requires_bearer(operation: &Value) -> bool {
    let requirements = operation["security"].as_array().cloned().unwrap_or_default();
    !requirements.is_empty() && requirements.iter().all(|r| r.get("bearer").is_some())
}

#[tokio::test]
async fn every_documented_operation_is_served_and_enforces_the_documented_security() {
    let app = TestApp::new().await;
    let doc = app.document().await;
    let now = chrono::Utc::now().timestamp();
    let claims = api::auth::tokens::Claims { sub: uuid::Uuid::now_v7().to_string(), iat: now - 90_000, exp: now - 3_600 };
    let expired = app.state.accounts.tokens.sign(&claims).unwrap();

    for (method, path) in operations(&doc) {
        let operation = &doc["paths"][&path][method.to_lowercase()];
        let uri = concrete(&path);
        let request = |token: Option<&str>| {
            let mut builder = Request::builder().method(Method::from_bytes(method.as_bytes()).unwrap()).uri(&uri);
            if let Some(token) = token {
                builder = builder.header(header::AUTHORIZATION, format!("Bearer {token}"));
            }
            if operation.get("requestBody").is_some() {
                builder.header(header::CONTENT_TYPE, "application/json").body(Body::from("{}")).unwrap()
            } else {
                builder.body(Body::empty()).unwrap()
            }
        };

        let answer = app.send(request(None)).await;
        let routed = answer.status != StatusCode::METHOD_NOT_ALLOWED && !(answer.status == StatusCode::NOT_FOUND && answer.bytes.is_empty());
        assert!(routed, "{method} {path} is documented but not served ({})", answer.status);

        if requires_bearer(operation) {
            assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{method} {path} documents a bearer token but answers without one");
            assert_eq!(answer.json()["statuscode"], 401, "{method} {path}: the envelope");
            let answer = app.send(request(Some(&expired))).await;
            assert_eq!(answer.status, StatusCode::GONE, "{method} {path}: an expired token");
            for status in ["401", "410"] {
                assert!(operation["responses"][status].is_object(), "{method} {path}: {status} undocumented");
            }
        } else {
            assert!(
                ![StatusCode::UNAUTHORIZED, StatusCode::GONE].contains(&answer.status),
                "{method} {path} answers {} without a token but documents no bearer requirement",
                answer.status
            );
        }
    }
}

#[tokio::test]
async fn the_dev_mailbox_is_documented_as_dev_only_and_only_where_it_is_served() {
    let dev = TestApp::new().await;
    let with_smtp = TestApp::with_args(&["--smtp-url", "smtp://127.0.0.1:2525", "--mail-from", "Marketplace <no-reply@example.com>"]).await;

    let dev_doc = dev.document().await;
    let mailbox = &dev_doc["paths"]["/api/dev/mailbox"]["get"];
    assert_eq!(mailbox["tags"], json!(["dev"]));
    assert_eq!(mailbox["x-dev-only"], true);
    assert!(mailbox["description"].as_str().unwrap().contains("Dev only"));

    let smtp_doc = with_smtp.document().await;
    assert!(smtp_doc["paths"].get("/api/dev/mailbox").is_none());
    assert_eq!(with_smtp.get("/api/dev/mailbox?to=a@example.com").await.status, StatusCode::NOT_FOUND);
    let dev_only: BTreeSet<_> = operations(&dev_doc).difference(&operations(&smtp_doc)).cloned().collect();
    assert_eq!(dev_only, BTreeSet::from([("GET".to_owned(), "/api/dev/mailbox".to_owned())]));
}

#[tokio::test]
async fn query_parameters_are_documented_with_their_types_defaults_bounds_and_values() {
    let doc = TestApp::new().await.document().await;
    let parameters = |path: &str| -> BTreeMap<String, Value> {
        doc["paths"][path]["get"]["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["in"] == "query")
            .map(|p| (p["name"].as_str().unwrap().to_owned(), p["schema"].clone()))
            .collect()
    };

    let explore = parameters("/api/nft/explore/");
    assert_eq!(
        explore.keys().map(String::as_str).collect::<Vec<_>>(),
        ["formOfSale", "limit", "nftCategory", "orderBy", "page", "search", "sortBy"]
    );
    assert_eq!(explore["limit"], json!({ "type": "integer", "minimum": 1, "maximum": 100, "default": 9 }));
    assert_eq!(explore["page"]["minimum"], 1);
    assert_eq!(explore["formOfSale"]["enum"], json!(["ALL", "FIXEDPRICE", "AUCTION", "NOT_FOR_SALE"]));
    assert_eq!(explore["formOfSale"]["default"], "FIXEDPRICE");
    assert_eq!(explore["sortBy"]["enum"], json!(["DATE", "PRICE", "POPULARITY"]));
    assert_eq!(explore["orderBy"]["enum"], json!(["0", "1"]));
    assert_eq!(parameters("/api/nft/bidhistory/{nftid}/{auctionid}/")["limit"]["default"], 10);
    assert_eq!(parameters("/api/nft/trendingnfts")["limit"]["default"], 10);
    assert_eq!(parameters("/api/nft/explore"), explore, "the alias documents the same parameters");
}

#[tokio::test]
async fn documented_query_values_are_accepted_and_values_outside_them_answer_400_naming_the_field() {
    let app = TestApp::new().await;
    app.seed_nft().await;
    let doc = app.document().await;
    for path in ["/api/nft/explore/", "/api/nft/trendingnfts", "/api/nft/bidhistory/{nftid}/{auctionid}/"] {
        for parameter in doc["paths"][path]["get"]["parameters"].as_array().unwrap().iter().filter(|p| p["in"] == "query") {
            let name = parameter["name"].as_str().unwrap();
            let schema = &parameter["schema"];
            let uri = |value: &str| format!("{}?{name}={value}", concrete(path));
            let mut good: Vec<String> = schema["enum"].as_array().into_iter().flatten().map(|v| v.as_str().unwrap().to_owned()).collect();
            let mut bad = vec![];
            if let Some(max) = schema["maximum"].as_u64() {
                good.push(max.to_string());
                bad.push((max + 1).to_string());
                bad.push(schema["minimum"].as_u64().unwrap().saturating_sub(1).to_string());
            }
            if !good.is_empty() && schema.get("enum").is_some() {
                bad.push("NOT_A_VALUE".into());
            }
            for value in good {
                let answer = app.get(&uri(&value)).await;
                assert!(answer.status != StatusCode::BAD_REQUEST, "{path}: documented {name}={value} refused: {}", answer.json());
            }
            for value in bad {
                let answer = app.get(&uri(&value)).await;
                assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{path}: {name}={value} accepted");
                assert!(answer.json()["message"].as_str().unwrap().starts_with(name), "{path}: the 400 names {name}");
            }
        }
    }
}
