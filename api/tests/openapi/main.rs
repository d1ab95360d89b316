//! The OpenAPI document at `/api/openapi.json`: valid OpenAPI 3.1, covering exactly the routes
//! the server registers, at the spec's paths, with the security the handlers enforce.

mod helpers;
mod hostile;
mod hygiene;
mod promise;
mod sources;
#[path = "../support/mod.rs"]
mod support;

use std::collections::{BTreeMap, BTreeSet};

use axum::{
    body::Body,
    http::{Method, Request, StatusCode, header},
};
use helpers::{TestApp, operations, shape};
use serde_json::{Value, json};
use tower::ServiceExt;

#[tokio::test]
async fn the_document_is_served_as_json_at_api_openapi_json() {
    let app = TestApp::new().await;

    let answer = app.get("/api/openapi.json").await;

    assert_eq!(answer.status, StatusCode::OK);
    assert!(answer.content_type.starts_with("application/json"), "content type {}", answer.content_type);
    let doc = answer.json();
    assert_eq!(doc["openapi"], "3.1.0");
    assert!(doc["paths"]["/api/openapi.json"]["get"].is_object(), "the document describes itself");
    // `OPENAPI_OUT=file cargo test -p api --test openapi served_as_json` writes it out (to generate a client offline).
    if let Ok(out) = std::env::var("OPENAPI_OUT") {
        std::fs::write(out, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    }
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

        for requirement in operation["security"].as_array().into_iter().flatten() {
            for scheme in requirement.as_object().unwrap().keys() {
                assert!(doc["components"]["securitySchemes"][scheme].is_object(), "{method} {path}: unknown security scheme {scheme}");
            }
        }
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
    // A development server: the dev mailbox and the dev wallet's routes are mounted, so every route in the source is served.
    let app = TestApp::new().await;
    let doc = app.document().await;
    let registrations = sources::registrations(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let documented = operations(&doc);

    // An alias is documented once, in the description of the operation it serves.
    let names_alias = |r: &sources::Registration, of: &str| {
        let description = doc["paths"][of][r.method.to_lowercase()]["description"].as_str().unwrap_or_default();
        description.contains(&format!("Also served at `{}`", r.path))
    };
    let undocumented: Vec<String> = registrations
        .iter()
        .filter(|r| match &r.alias_of {
            Some(of) => !names_alias(r, of),
            None => !documented.contains(&(r.method.clone(), r.path.clone())),
        })
        .map(|r| format!("{} {} ({})", r.method, r.path, r.origin))
        .collect();
    let aliases: BTreeSet<&str> = registrations.iter().filter(|r| r.alias_of.is_some()).map(|r| r.path.as_str()).collect();
    assert_eq!(aliases, BTreeSet::from(["/api/nft/bidhistory/{nftId}/{auctionId}", "/api/nft/explore"]), "the aliases");
    for alias in aliases {
        assert!(doc["paths"][alias].is_null(), "{alias} is an alias: documented once, at the operation's own path");
        let answer = app.get(&concrete(alias)).await;
        let unrouted =
            answer.status == StatusCode::NOT_FOUND && answer.json()["message"].as_str().is_some_and(|m| m.starts_with("No route"));
        assert!(!unrouted && answer.status != StatusCode::METHOD_NOT_ALLOWED, "{alias} is served: {}", answer.status);
    }
    let served = sources::routes(&registrations);
    let unserved: Vec<_> = documented.difference(&served).collect();
    let twice: Vec<_> =
        documented.iter().filter(|(m, p)| p.ends_with('/') && documented.contains(&(m.clone(), p[..p.len() - 1].to_owned()))).collect();
    assert!(twice.is_empty(), "documented with and without a trailing slash: {twice:?}");

    assert!(undocumented.is_empty(), "served but not documented:\n{}", undocumented.join("\n"));
    assert!(unserved.is_empty(), "documented but registered nowhere in api/src: {unserved:?}");
    assert!(served.len() >= 30, "the source reader found only {} routes", served.len());
}

/// Spec routes the server does not serve yet. When one is implemented, take it off this list;
/// the test fails until then so the list stays true.
const NOT_YET_SERVED: &[&str] = &[];

#[tokio::test]
async fn every_spec_route_the_server_serves_is_documented_at_the_spec_path() {
    let doc = TestApp::new().await.document().await;
    let documented = operations(&doc);
    let spec_routes = spec_routes();
    assert!(spec_routes.len() >= 50, "read only {} routes from the spec", spec_routes.len());

    let mut not_served = BTreeSet::new();
    let mut misplaced = Vec::new();
    for (method, path) in spec_routes.iter().filter(|(_, path)| path.starts_with("/api/")) {
        // The document names path parameters one way (`{nftId}`, `{userId}`, ...) where the spec
        // mixes spellings; a parameter's name is no part of the URL, so that is the same path.
        if documented.iter().any(|(m, p)| m == method && shape(p) == shape(path)) {
            continue;
        }
        // Served under another spelling (a trailing slash) is a mismatch.
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
        .unwrap_or_else(|_| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/spec"));
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
        "nftId" => "80001-1".into(),
        "auctionId" => "1".into(),
        "userId" => uuid::Uuid::now_v7().to_string(),
        "cid" => "bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku".into(),
        "collectionId" | "keyId" | "endpointId" => uuid::Uuid::now_v7().to_string(),
        "targetKind" => "nft".into(),
        "targetId" => "80001-1".into(),
        "action" => "hide".into(),
        "role" => "moderator".into(),
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
    let claims = api::http::auth::tokens::Claims { sub: uuid::Uuid::now_v7().to_string(), iat: now - 90_000, exp: now - 3_600 };
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
        // An unrouted path answers the envelope's 404 "No route ...".
        let unrouted =
            answer.status == StatusCode::NOT_FOUND && answer.json()["message"].as_str().is_some_and(|m| m.starts_with("No route"));
        let routed = answer.status != StatusCode::METHOD_NOT_ALLOWED && !unrouted;
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
        ["formOfSale", "limit", "nftCategory", "orderBy", "page", "search", "sortBy", "trait", "verifiedOnly"]
    );
    assert_eq!(explore["trait"]["type"], "array");
    assert_eq!(explore["trait"]["maxItems"], 16);
    assert_eq!(explore["trait"]["items"]["maxLength"], 200);
    assert_eq!(explore["limit"], json!({ "type": "integer", "minimum": 1, "maximum": 100, "default": 9 }));
    assert_eq!(explore["page"]["minimum"], 1);
    assert_eq!(explore["formOfSale"]["enum"], json!(["ALL", "FIXEDPRICE", "AUCTION", "NOT_FOR_SALE"]));
    assert_eq!(explore["formOfSale"]["default"], "FIXEDPRICE");
    assert_eq!(explore["sortBy"]["enum"], json!(["DATE", "PRICE", "POPULARITY", "ENDING"]));
    assert_eq!(explore["orderBy"]["enum"], json!(["0", "1"]));
    assert_eq!(parameters("/api/nft/bidhistory/{nftId}/{auctionId}/")["limit"]["default"], 10);
    assert_eq!(parameters("/api/nft/trendingnfts")["limit"]["default"], 10);
}

#[tokio::test]
async fn documented_query_values_are_accepted_and_values_outside_them_answer_400_naming_the_field() {
    let app = TestApp::new().await;
    app.seed_nft().await;
    let doc = app.document().await;
    for path in [
        "/api/nft/explore/",
        "/api/nft/trendingnfts",
        "/api/nft/bidhistory/{nftId}/{auctionId}/",
        "/api/activity",
        "/api/stats/collections",
    ] {
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

/// Every answer must be documented: its status among the operation's responses, its content
/// type among that response's, and a JSON body valid against that content's schema, with no
/// field the schema leaves out. Returns an error per mismatch.
fn check_answer(doc: &Value, method: &str, path: &str, answer: &helpers::Answer) -> Result<(), String> {
    let here = format!("{method} {path} answered {}", answer.status.as_u16());
    let operation = &doc["paths"][path][method.to_lowercase()];
    let mut response = &operation["responses"][answer.status.as_str()];
    if let Some(reference) = response["$ref"].as_str() {
        response = doc.pointer(&reference[1..]).ok_or_else(|| format!("{here}: dangling {reference}"))?;
    }
    if response.is_null() {
        return Err(format!("{here}, an undocumented status: {}", String::from_utf8_lossy(&answer.bytes)));
    }
    let content_type = answer.content_type.as_str();
    let content = response["content"]
        .as_object()
        .and_then(|c| c.get(content_type).or_else(|| c.get(content_type.split(';').next().unwrap())))
        .or_else(|| response["content"].get(format!("{}/*", content_type.split('/').next().unwrap())))
        .ok_or_else(|| format!("{here} with undocumented content type {content_type}"))?;
    if !content_type.starts_with("application/json") || content["schema"].is_null() {
        return Ok(());
    }
    let mut schema = content["schema"].clone();
    close_objects(&mut schema);
    let mut components = doc["components"].clone();
    close_objects(&mut components);
    schema["components"] = components;
    let validator = jsonschema::draft202012::new(&schema).map_err(|e| format!("{here}: the schema does not compile: {e}"))?;
    let body = answer.json();
    let errors: Vec<String> = validator.iter_errors(&body).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    if errors.is_empty() { Ok(()) } else { Err(format!("{here}, not as documented: {}\n  body: {body}", errors.join("; "))) }
}

/// Makes every object schema with properties refuse other properties, so an answer with a field
/// the document lacks fails.
fn close_objects(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            if map.contains_key("properties") && !map.contains_key("additionalProperties") {
                map.insert("additionalProperties".into(), Value::Bool(false));
            }
            map.values_mut().for_each(close_objects);
        }
        Value::Array(items) => items.iter_mut().for_each(close_objects),
        _ => {}
    }
}

/// Operations the schema test cannot reach a success of here, and why.
const NO_SUCCESS_HERE: &[(&str, &str)] = &[
    ("POST /rpc", "needs a chain node (the spine tests drive it against anvil)"),
    ("GET /api/stream", "an endless event stream: tests/stream reads it event by event"),
    (
        "POST /api/nft/{nftId}/metadata/refresh",
        "the seeded NFT has its creator's details (409): tests/metadata refreshes tokens minted without",
    ),
    ("POST /api/auth/googlelogin", "needs Google's keys (tests/accounts fakes them)"),
    ("PUT /api/account/connectwallet", "needs a SIWE signature (tests/accounts signs one)"),
    ("PUT /api/account/disconnectwallet", "needs a linked wallet"),
    ("POST /api/nft/generation", "needs a mined transaction (tests/trade records real ones on anvil)"),
    ("POST /api/nft/fixedsale/purchase", "needs a mined transaction (tests/trade)"),
    ("POST /api/nft/auction/placebid", "needs a mined transaction (tests/trade)"),
    ("PUT /api/nft/update/{nftId}", "needs a mined transaction (tests/trade)"),
    ("PUT /api/nft/stopsale/{nftId}", "needs a mined transaction (tests/trade)"),
    ("DELETE /api/nft/burnnft/{nftId}", "needs a mined transaction (tests/trade)"),
    ("POST /api/nft/offer/make", "needs a mined transaction (tests/trade/offers.rs)"),
    ("POST /api/nft/offer/cancel", "needs a mined transaction (tests/trade/offers.rs)"),
    ("POST /api/nft/offer/accept", "needs a mined transaction (tests/trade/offers.rs)"),
    ("POST /api/nft/offer/reject", "needs a mined transaction (tests/trade/offers.rs)"),
    ("POST /api/nft/cart/purchase", "needs a mined transaction (tests/trade/offers.rs)"),
    ("POST /api/webhooks/{endpointId}/test", "waits for a receiver (tests/webhooks sends tests to one on loopback)"),
];

#[tokio::test]
async fn answers_match_their_documented_statuses_content_types_and_schemas() {
    let app = TestApp::new().await;
    app.seed_nft().await;
    let cid = app.state.files.put(b"\x89PNG\r\n\x1a\n a picture".to_vec()).await.unwrap().cid;
    let doc = app.document().await;
    let mut checked: BTreeMap<(String, String), BTreeSet<u16>> = BTreeMap::new();
    let mut failures = Vec::new();

    let (email, new_email) = ("ada@example.com", "ada2@example.com");
    let password = "correct horse battery";
    let registration = json!({ "email": email, "fullName": "Ada L", "username": "ada", "password": password, "confirmPassword": password });
    let login = json!({ "email": email, "password": password });
    let mut token = String::new();
    // (method, documented path, uri, body), in order; each call carries the latest access token.
    let calls: Vec<(&str, &str, String, Option<Value>)> = vec![
        ("GET", "/healthz", "/healthz".into(), None),
        ("GET", "/metrics", "/metrics".into(), None),
        ("GET", "/api/openapi.json", "/api/openapi.json".into(), None),
        ("GET", "/api/config", "/api/config".into(), None),
        ("GET", "/api/contract/abi", "/api/contract/abi".into(), None),
        ("GET", "/ipfs/{cid}", format!("/ipfs/{cid}"), None),
        ("GET", "/ipfs/{cid}", concrete("/ipfs/{cid}"), None),
        ("GET", "/ipfs/{cid}", format!("/ipfs/{cid}?w=7"), None),
        ("POST", "/rpc", "/rpc".into(), Some(json!({ "jsonrpc": "2.0", "id": 1, "method": "eth_chainId" }))),
        ("GET", "/api/misc/category", "/api/misc/category".into(), None),
        ("GET", "/api/misc/coin", "/api/misc/coin".into(), None),
        ("POST", "/api/misc/clienterror", "/api/misc/clienterror".into(), Some(json!({ "message": "boom", "url": "/x" }))),
        ("POST", "/api/misc/clienterror", "/api/misc/clienterror".into(), Some(json!({ "message": " " }))),
        (
            "POST",
            "/api/misc/contactus",
            "/api/misc/contactus".into(),
            Some(json!({ "name": "Ada", "email": email, "subject": "Hi", "message": "Hello" })),
        ),
        ("GET", "/api/nft/explore/", "/api/nft/explore/?formOfSale=AUCTION".into(), None),
        ("GET", "/api/nft/explore/", "/api/nft/explore/?limit=0".into(), None),
        ("GET", "/api/nft/explore/", "/api/nft/explore/?trait=Colour".into(), None),
        ("GET", "/api/nft/facets", "/api/nft/facets?formOfSale=ALL&trait=edition:1&trait=edition:2".into(), None),
        ("GET", "/api/nft/facets", "/api/nft/facets?scope=collection".into(), None),
        ("GET", "/api/nft/facets", "/api/nft/facets?scope=owned&userId=nobody".into(), None),
        ("GET", "/api/activity", "/api/activity".into(), None),
        ("GET", "/api/activity", "/api/activity?kind=BID&nftId=80001-1".into(), None),
        ("GET", "/api/activity", "/api/activity?userId=x".into(), None),
        // The alias answers as the operation it serves.
        ("GET", "/api/nft/explore/", "/api/nft/explore?formOfSale=ALL".into(), None),
        ("GET", "/api/nft/detail/{nftId}", "/api/nft/detail/80001-1".into(), None),
        ("GET", "/api/nft/detail/{nftId}", "/api/nft/detail/80001-9".into(), None),
        ("GET", "/api/nft/{nftId}/metadata", "/api/nft/80001-1/metadata".into(), None),
        ("GET", "/api/nft/{nftId}/metadata", "/api/nft/80001-9/metadata".into(), None),
        ("POST", "/api/nft/{nftId}/metadata/refresh", "/api/nft/80001-1/metadata/refresh".into(), None),
        ("POST", "/api/nft/{nftId}/metadata/refresh", "/api/nft/80001-9/metadata/refresh".into(), None),
        ("GET", "/api/nft/nftinauction/{nftId}", "/api/nft/nftinauction/80001-1".into(), None),
        ("GET", "/api/nft/bidhistory/{nftId}/{auctionId}/", "/api/nft/bidhistory/80001-1/1/".into(), None),
        ("GET", "/api/nft/bidhistory/{nftId}/{auctionId}/", "/api/nft/bidhistory/80001-1/1".into(), None),
        ("GET", "/api/nft/nfthistory/{nftId}", "/api/nft/nfthistory/80001-1".into(), None),
        ("GET", "/api/nft/ownnerhistory/{nftId}", "/api/nft/ownnerhistory/80001-1".into(), None),
        ("GET", "/api/nft/pricehistory/{nftId}", "/api/nft/pricehistory/80001-1".into(), None),
        ("GET", "/api/nft/pricehistory/{nftId}", "/api/nft/pricehistory/80001-9".into(), None),
        ("GET", "/api/stats/collections", "/api/stats/collections?period=7D&sortBy=FLOOR&orderBy=1".into(), None),
        ("GET", "/api/stats/collections", "/api/stats/collections?period=1Y".into(), None),
        ("GET", "/api/stats/collections", "/api/stats/collections?sortBy=PRICE".into(), None),
        ("GET", "/api/nft/trendingnfts", "/api/nft/trendingnfts?formOfSale=AUCTION".into(), None),
        ("GET", "/api/trendingcreators", "/api/trendingcreators?type=CREATOR".into(), None),
        ("GET", "/api/trendingcreators", "/api/trendingcreators?type=NOBODY".into(), None),
        ("GET", "/api/getmarketplacestatistics", "/api/getmarketplacestatistics".into(), None),
        ("GET", "/api/auth/checkusername", "/api/auth/checkusername?username=ada".into(), None),
        ("POST", "/api/auth/register", "/api/auth/register".into(), Some(registration.clone())),
        ("POST", "/api/auth/register", "/api/auth/register".into(), Some(registration)),
        ("POST", "/api/auth/login", "/api/auth/login".into(), Some(login.clone())),
        ("GET", "/api/dev/mailbox", format!("/api/dev/mailbox?to={email}"), None),
        (
            "POST",
            "/api/auth/verifyaccount",
            "/api/auth/verifyaccount".into(),
            Some(json!({ "email": email, "verificationCode": "{code}" })),
        ),
        (
            "POST",
            "/api/auth/verifyaccount",
            "/api/auth/verifyaccount".into(),
            Some(json!({ "email": email, "verificationCode": "{code}" })),
        ),
        ("POST", "/api/auth/login", "/api/auth/login".into(), Some(json!({ "email": email, "password": "wrong password" }))),
        ("POST", "/api/auth/login", "/api/auth/login".into(), Some(login.clone())),
        ("GET", "/api/account/myprofile", "/api/account/myprofile".into(), None),
        ("PUT", "/api/nft/like/{nftId}", "/api/nft/like/80001-1".into(), None),
        ("PUT", "/api/nft/like/{nftId}", "/api/nft/like/80001-9".into(), None),
        ("PUT", "/api/nft/bookmark/{nftId}", "/api/nft/bookmark/80001-1".into(), None),
        ("GET", "/api/nft/browsebookmarked", "/api/nft/browsebookmarked?formOfSale=AUCTION".into(), None),
        ("GET", "/api/nft/browsebookmarked", "/api/nft/browsebookmarked?formOfSale=NOT_FOR_SALE".into(), None),
        ("GET", "/api/nft/detail/{nftId}", "/api/nft/detail/80001-1".into(), None),
        ("GET", "/api/nft/explore/", "/api/nft/explore/?formOfSale=AUCTION".into(), None),
        ("GET", "/api/nft/mycreatednft", "/api/nft/mycreatednft".into(), None),
        ("GET", "/api/nft/mynftartwork", "/api/nft/mynftartwork?formOfSale=AUCTION".into(), None),
        ("GET", "/api/nft/usercreatednft/{userId}", "/api/nft/usercreatednft/{user}".into(), None),
        ("GET", "/api/nft/usercreatednft/{userId}", concrete("/api/nft/usercreatednft/{userId}"), None),
        ("GET", "/api/nft/usersnftartwork/{userId}", "/api/nft/usersnftartwork/{user}?sortBy=POPULARITY".into(), None),
        ("GET", "/api/nft/profilecounts/{userId}", "/api/nft/profilecounts/{user}".into(), None),
        ("GET", "/api/nft/profilecounts/{userId}", concrete("/api/nft/profilecounts/{userId}"), None),
        ("GET", "/api/nft/nfthistory/{nftId}", "/api/nft/nfthistory/80001-1".into(), None),
        ("PUT", "/api/account/myprofile", "/api/account/myprofile".into(), None),
        ("POST", "/api/nft/ipfsupload", "/api/nft/ipfsupload".into(), None),
        ("POST", "/api/nft/ipfsupload", "/api/nft/ipfsupload".into(), Some(json!({}))),
        ("GET", "/api/nft/mybids", "/api/nft/mybids".into(), None),
        ("GET", "/api/nft/mybids", "/api/nft/mybids?limit=0".into(), None),
        ("GET", "/api/myoffers", "/api/myoffers".into(), None),
        ("GET", "/api/myoffers", "/api/myoffers?state=nope".into(), None),
        ("GET", "/api/myoffers/received", "/api/myoffers/received?state=ACTIVE".into(), None),
        ("GET", "/api/nft/{nftId}/offers", "/api/nft/80001-1/offers".into(), None),
        ("GET", "/api/nft/{nftId}/offers", "/api/nft/not-an-id/offers".into(), None),
        (
            "POST",
            "/api/nft/fixedsale/purchase",
            "/api/nft/fixedsale/purchase".into(),
            Some(json!({ "nftid": "80001-1", "transactionHash": "0x1" })),
        ),
        ("GET", "/api/account/getuserprofile/{userId}", "/api/account/getuserprofile/{user}".into(), None),
        ("GET", "/api/account/getuserprofile/{userId}", concrete("/api/account/getuserprofile/{userId}"), None),
        ("GET", "/api/account/walletnonce", "/api/account/walletnonce".into(), None),
        (
            "PUT",
            "/api/account/connectwallet",
            "/api/account/connectwallet".into(),
            Some(
                json!({ "walletProvider": "Metamask", "walletAddress": "0x0000000000000000000000000000000000000001", "message": "no", "signature": "0x00" }),
            ),
        ),
        (
            "PUT",
            "/api/account/disconnectwallet",
            "/api/account/disconnectwallet".into(),
            Some(json!({ "walletAddress": "0x0000000000000000000000000000000000000001" })),
        ),
        ("PUT", "/api/auth/changeemail", "/api/auth/changeemail".into(), Some(json!({ "newEmail": new_email }))),
        (
            "PUT",
            "/api/auth/verifyemailchange",
            "/api/auth/verifyemailchange".into(),
            Some(json!({ "newEmail": new_email, "verificationCode": "000000" })),
        ),
        (
            "PUT",
            "/api/auth/change-account-password",
            "/api/auth/change-account-password".into(),
            Some(json!({ "currentPassword": password, "newPassword": "a new long password", "confirmPassword": "a new long password" })),
        ),
        ("POST", "/api/auth/login", "/api/auth/login".into(), Some(json!({ "email": email, "password": "a new long password" }))),
        ("PUT", "/api/auth/reset-account-password", "/api/auth/reset-account-password".into(), Some(json!({ "email": email }))),
        (
            "PUT",
            "/api/auth/resetpassword-changepassword",
            "/api/auth/resetpassword-changepassword".into(),
            Some(json!({ "resetPasswordToken": "{reset}", "newPassword": password, "confirmPassword": password })),
        ),
        ("POST", "/api/auth/login", "/api/auth/login".into(), Some(login)),
        ("PUT", "/api/auth/changeemail", "/api/auth/changeemail".into(), Some(json!({ "newEmail": new_email }))),
        (
            "PUT",
            "/api/auth/verifyemailchange",
            "/api/auth/verifyemailchange".into(),
            Some(json!({ "newEmail": new_email, "verificationCode": "{new-code}" })),
        ),
        // The change ends every session (a token from the change's own second still holds, so
        // without this the calls below passed or failed with the clock): sign in again.
        ("POST", "/api/auth/login", "/api/auth/login".into(), Some(json!({ "email": new_email, "password": password }))),
        ("GET", "/api/account/myprofile", "/api/account/myprofile".into(), None),
        ("POST", "/api/account/keys", "/api/account/keys".into(), Some(json!({ "name": "bot", "scopes": ["read", "trades"] }))),
        ("POST", "/api/account/keys", "/api/account/keys".into(), Some(json!({ "name": "bot", "scopes": ["root"] }))),
        ("GET", "/api/account/keys", "/api/account/keys".into(), None),
        ("DELETE", "/api/account/keys/{keyId}", "/api/account/keys/{key}".into(), None),
        ("DELETE", "/api/account/keys/{keyId}", format!("/api/account/keys/{}", uuid::Uuid::now_v7()), None),
        // A person's data, by download and by e-mailed link (erasing the account comes last).
        ("GET", "/api/account/deletion", "/api/account/deletion".into(), None),
        ("GET", "/api/account/export", "/api/account/export".into(), None),
        ("POST", "/api/account/export/email", "/api/account/export/email".into(), None),
        ("GET", "/api/account/export/download", "/api/account/export/{export}".into(), None),
        ("GET", "/api/account/export/download", "/api/account/export/download?token=forged".into(), None),
        // A public address literal: registration checks it without the network (the test
        // event, which would wait for it, is sent to an unknown endpoint only).
        (
            "POST",
            "/api/webhooks",
            "/api/webhooks".into(),
            Some(json!({ "url": "https://93.184.215.14/hook", "topics": ["market"], "noticeKinds": ["SOLD"] })),
        ),
        ("POST", "/api/webhooks", "/api/webhooks".into(), Some(json!({ "url": "https://10.0.0.1/hook", "topics": ["market"] }))),
        ("GET", "/api/webhooks", "/api/webhooks".into(), None),
        (
            "PUT",
            "/api/webhooks/{endpointId}",
            "/api/webhooks/{hook}".into(),
            Some(json!({ "url": "https://93.184.215.14/other", "topics": ["nft:80001-1"] })),
        ),
        ("GET", "/api/webhooks/{endpointId}/deliveries", "/api/webhooks/{hook}/deliveries".into(), None),
        ("POST", "/api/webhooks/{endpointId}/redeliver", "/api/webhooks/{hook}/redeliver".into(), Some(json!({ "fromPosition": 1 }))),
        ("POST", "/api/webhooks/{endpointId}/redeliver", "/api/webhooks/{hook}/redeliver".into(), Some(json!({ "fromPosition": 0 }))),
        ("POST", "/api/webhooks/{endpointId}/test", format!("/api/webhooks/{}/test", uuid::Uuid::now_v7()), None),
        ("DELETE", "/api/webhooks/{endpointId}", "/api/webhooks/{hook}".into(), None),
        ("DELETE", "/api/webhooks/{endpointId}", format!("/api/webhooks/{}", uuid::Uuid::now_v7()), None),
        ("GET", "/api/dev/wallets", "/api/dev/wallets".into(), None),
        ("GET", "/api/notifications", "/api/notifications?unread=true".into(), None),
        ("GET", "/api/notifications", "/api/notifications?unread=maybe".into(), None),
        ("GET", "/api/notifications/unread", "/api/notifications/unread".into(), None),
        ("POST", "/api/notifications/read", "/api/notifications/read".into(), Some(json!({ "position": 1 }))),
        ("POST", "/api/notifications/readall", "/api/notifications/readall".into(), Some(json!({ "upTo": 5 }))),
        ("GET", "/api/notifications/settings", "/api/notifications/settings".into(), None),
        (
            "PUT",
            "/api/notifications/settings",
            "/api/notifications/settings".into(),
            Some(json!({ "muted": ["OUTBID"], "email": ["SOLD"] })),
        ),
        ("PUT", "/api/notifications/settings", "/api/notifications/settings".into(), Some(json!({ "muted": ["PARTY"], "email": [] }))),
        ("GET", "/api/stream", "/api/stream?topics=everything".into(), None),
        // Moderation, before the seeded NFT is this user's: an admin (granted by the operator) reports it, hides
        // and restores it, and manages the staff.
        ("ADMIN", "", String::new(), None),
        ("POST", "/api/report", "/api/report".into(), Some(json!({ "targetKind": "nft", "targetId": "80001-1", "reason": "SPAM" }))),
        ("POST", "/api/report", "/api/report".into(), Some(json!({ "targetKind": "nft", "targetId": "80001-1", "reason": "SPAM" }))),
        ("GET", "/api/moderation/roles", "/api/moderation/roles".into(), None),
        ("GET", "/api/moderation/queue", "/api/moderation/queue".into(), None),
        ("GET", "/api/moderation/queue", "/api/moderation/queue?limit=0".into(), None),
        (
            "POST",
            "/api/moderation/{targetKind}/{targetId}/{action}",
            "/api/moderation/nft/80001-1/hide".into(),
            Some(json!({ "text": "Spam" })),
        ),
        ("GET", "/api/moderation/{targetKind}/{targetId}", "/api/moderation/nft/80001-1".into(), None),
        (
            "POST",
            "/api/moderation/{targetKind}/{targetId}/{action}",
            "/api/moderation/nft/80001-1/restore".into(),
            Some(json!({ "text": "Not spam" })),
        ),
        ("POST", "/api/moderation/{targetKind}/{targetId}/{action}", "/api/moderation/nft/80001-1/explode".into(), Some(json!({}))),
        ("GET", "/api/staff", "/api/staff".into(), None),
        ("POST", "/api/staff", "/api/staff".into(), Some(json!({ "username": "ada", "role": "moderator" }))),
        ("DELETE", "/api/staff/{userId}/{role}", "/api/staff/{user}/moderator".into(), None),
        ("GET", "/api/transparency", "/api/transparency".into(), None),
        ("GET", "/api/transparency.csv", "/api/transparency.csv".into(), None),
        // Collections: the seeded NFT is 0xalice's, a wallet linked to this user below.
        ("LINK", "", "0xalice".into(), None),
        ("POST", "/api/collection", "/api/collection".into(), None),
        ("POST", "/api/collection", "/api/collection".into(), Some(json!({}))),
        ("GET", "/api/collection", "/api/collection?sortBy=POPULARITY".into(), None),
        ("PUT", "/api/collection/{collectionId}", "/api/collection/{collection}".into(), None),
        ("PUT", "/api/collection/nft/{collectionId}", "/api/collection/nft/{collection}".into(), Some(json!([{ "nftId": "80001-1" }]))),
        ("PUT", "/api/collection/nft/{collectionId}", "/api/collection/nft/{collection}".into(), Some(json!([{ "nftId": "80001-1" }]))),
        ("GET", "/api/collection/browse", "/api/collection/browse?search=bird".into(), None),
        ("GET", "/api/collection/browsebyid/{collectionId}", "/api/collection/browsebyid/{collection}".into(), None),
        ("GET", "/api/stats/collection/{collectionId}", "/api/stats/collection/{collection}".into(), None),
        ("GET", "/api/stats/collections", "/api/stats/collections?period=ALL".into(), None),
        ("GET", "/api/nft/browsebycollection/{collectionId}", "/api/nft/browsebycollection/{collection}?formOfSale=ALL".into(), None),
        (
            "GET",
            "/api/nft/browsebycollection/{collectionId}",
            "/api/nft/browsebycollection/{collection}?formOfSale=ALL&sortBy=RARITY".into(),
            None,
        ),
        ("GET", "/api/nft/facets", "/api/nft/facets?scope=collection&collectionId={collection}&formOfSale=ALL".into(), None),
        ("PUT", "/api/collection/like/{collectionId}", "/api/collection/like/{collection}".into(), None),
        ("PUT", "/api/collection/nft/{collectionId}/{nftId}", "/api/collection/nft/{collection}/80001-1".into(), None),
        ("PUT", "/api/collection/nft/{collectionId}/{nftId}", "/api/collection/nft/{collection}/80001-1".into(), None),
        ("DELETE", "/api/collection/{collectionId}", "/api/collection/{collection}".into(), None),
        ("GET", "/api/stats/collection/{collectionId}", "/api/stats/collection/{collection}".into(), None),
        ("GET", "/api/collection/browsebyid/{collectionId}", "/api/collection/browsebyid/{collection}".into(), None),
        ("POST", "/api/account/delete", "/api/account/delete".into(), Some(json!({ "password": "not the password" }))),
        ("POST", "/api/account/delete", "/api/account/delete".into(), Some(json!({ "password": password }))),
    ];
    let mut collection = String::new();
    let mut key = String::new();
    let mut hook = String::new();

    for (method, path, uri, body) in calls {
        // The latest mail to `to`: its code, or its link's last segment.
        let mail = |to: &'static str, field: &'static str| {
            let app = &app;
            async move {
                let mails = app.get(&format!("/api/dev/mailbox?to={to}")).await.json();
                mails["body"][0][field].as_str().unwrap_or_default().rsplit('/').next().unwrap().to_owned()
            }
        };
        let mut body = body.map(|b| b.to_string());
        for (placeholder, to, field) in [("{code}", email, "code"), ("{new-code}", new_email, "code"), ("{reset}", email, "link")] {
            if let Some(text) = body.as_ref().filter(|t| t.contains(placeholder)) {
                body = Some(text.replace(placeholder, &mail(to, field).await));
            }
        }
        let user = app.state.accounts.tokens.verify(&token).map(|(id, _)| id.to_string()).unwrap_or_default();
        if method == "ADMIN" {
            let change = domain::moderation::RoleChange {
                actor: None,
                user_id: uuid::Uuid::parse_str(&user).unwrap(),
                role: domain::moderation::Role::Admin,
                grant: true,
                now: chrono::Utc::now(),
            };
            let at = domain::moderation::change_role(app.state.store.as_ref(), change, &domain::Metadata::default()).await.unwrap();
            app.state.projector.wait_for(at.position, std::time::Duration::from_secs(10)).await.unwrap();
            continue;
        }
        if method == "LINK" {
            // A wallet link needs a SIWE signature (tests/accounts signs one): appended directly.
            let linked = domain::accounts::UserEvent::WalletLinked {
                provider: domain::accounts::WalletProvider::Other,
                address: uri.clone(),
                at: chrono::Utc::now(),
            };
            let event = linked.to_new_event(domain::Metadata::default()).unwrap();
            let at = app.state.store.append(&format!("user-{user}"), domain::ExpectedVersion::Any, vec![event]).await.unwrap();
            app.state.projector.wait_for(at.last_position, std::time::Duration::from_secs(10)).await.unwrap();
            continue;
        }
        let uri = if uri.contains("{export}") { uri.replace("{export}", &mail(new_email, "link").await) } else { uri };
        let uri = uri.replace("{user}", &user).replace("{collection}", &collection).replace("{key}", &key).replace("{hook}", &hook);
        let mut request = Request::builder().method(method).uri(&uri);
        if !token.is_empty() {
            request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        let request = match (body, path) {
            (None, "/api/nft/ipfsupload") => {
                let form: &'static [u8] = b"--b\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nSunset\r\n\
                    --b\r\nContent-Disposition: form-data; name=\"description\"\r\n\r\nWarm\r\n\
                    --b\r\nContent-Disposition: form-data; name=\"nftCategory\"\r\n\r\nart\r\n\
                    --b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\n\r\n\x89PNG\r\n\x1a\n a picture\r\n--b--\r\n";
                request.header(header::CONTENT_TYPE, "multipart/form-data; boundary=b").body(Body::from(form)).unwrap()
            }
            (None, "/api/collection" | "/api/collection/{collectionId}") if method != "GET" && method != "DELETE" => {
                let bytes: &[u8] = b"--b\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nBirds\r\n--b\r\n\
                    Content-Disposition: form-data; name=\"image\"; filename=\"a.png\"\r\n\r\n\x89PNG\r\n\x1a\n\r\n--b--\r\n";
                request.header(header::CONTENT_TYPE, "multipart/form-data; boundary=b").body(Body::from(bytes)).unwrap()
            }
            (_, "/api/account/myprofile") if method == "PUT" => {
                let form = "--b\r\nContent-Disposition: form-data; name=\"fullName\"\r\n\r\nAda Lovelace\r\n--b--\r\n";
                request.header(header::CONTENT_TYPE, "multipart/form-data; boundary=b").body(Body::from(form)).unwrap()
            }
            (Some(body), _) => request.header(header::CONTENT_TYPE, "application/json").body(Body::from(body)).unwrap(),
            (None, _) => request.body(Body::empty()).unwrap(),
        };
        let answer = app.send(request).await;
        if let Some(access) = answer.json()["body"]["accessToken"].as_str() {
            token = access.to_owned();
        }
        if let (("POST", "/api/collection"), Some(id)) = ((method, path), answer.json()["body"]["_id"].as_str()) {
            collection = id.to_owned();
        }
        if let (("POST", "/api/account/keys"), Some(id)) = ((method, path), answer.json()["body"]["keyId"].as_str()) {
            key = id.to_owned();
        }
        if let (("POST", "/api/webhooks"), Some(id)) = ((method, path), answer.json()["body"]["endpointId"].as_str()) {
            hook = id.to_owned();
        }
        checked.entry((method.to_owned(), path.to_owned())).or_default().insert(answer.status.as_u16());
        if let Err(failure) = check_answer(&doc, method, path, &answer) {
            failures.push(failure);
        }
    }

    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let exempt: BTreeSet<&str> = NO_SUCCESS_HERE.iter().map(|(operation, _)| *operation).collect();
    // Every operation that disagrees, not just the first: one failing call (a create) makes the
    // calls after it fail too, and the first in the document's order need not be the cause.
    let wrong: Vec<String> = operations(&doc)
        .into_iter()
        .filter_map(|(method, path)| {
            let statuses = checked.get(&(method.clone(), path.clone())).cloned().unwrap_or_default();
            let succeeded = statuses.iter().any(|s| (200..300).contains(s));
            let name = format!("{method} {path}");
            (succeeded == exempt.contains(name.as_str())).then(|| format!("{name}: answered {statuses:?} here"))
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[tokio::test]
async fn the_answer_check_refuses_extra_missing_and_mistyped_fields_and_undocumented_statuses() {
    let app = TestApp::new().await;
    let doc = app.document().await;
    let answer = app.get("/healthz").await;
    assert_eq!(check_answer(&doc, "GET", "/healthz", &answer), Ok(()));

    let mut body = answer.json();
    let with = |body: &Value| helpers::Answer {
        status: answer.status,
        content_type: answer.content_type.clone(),
        bytes: body.to_string().into_bytes(),
    };
    body["body"]["extra"] = json!(1);
    assert!(check_answer(&doc, "GET", "/healthz", &with(&body)).is_err(), "an extra field");
    body["body"].as_object_mut().unwrap().remove("extra");
    body["body"].as_object_mut().unwrap().remove("logPosition");
    assert!(check_answer(&doc, "GET", "/healthz", &with(&body)).is_err(), "a missing field");
    body["body"]["logPosition"] = json!("seven");
    assert!(check_answer(&doc, "GET", "/healthz", &with(&body)).is_err(), "a mistyped field");
    let teapot =
        helpers::Answer { status: StatusCode::IM_A_TEAPOT, content_type: answer.content_type.clone(), bytes: answer.bytes.clone() };
    assert!(check_answer(&doc, "GET", "/healthz", &teapot).is_err(), "an undocumented status");
}

/// `value`, or what its `$ref` points to.
fn resolved<'a>(doc: &'a Value, value: &'a Value) -> &'a Value {
    match value["$ref"].as_str() {
        Some(reference) => doc.pointer(&reference[1..]).unwrap_or_else(|| panic!("dangling {reference}")),
        None => value,
    }
}

/// Every sub-value of `value` equal to `wanted`.
fn copies(value: &Value, wanted: &Value) -> usize {
    let inner = match value {
        Value::Object(map) => map.values().map(|v| copies(v, wanted)).sum(),
        Value::Array(items) => items.iter().map(|v| copies(v, wanted)).sum(),
        _ => 0,
    };
    inner + usize::from(value == wanted)
}

/// What a client generated from the document (openapi-typescript, say) needs so that its code
/// needs no cast: named types used where they appear, every field typed, enums for the closed
/// sets of values, path parameters named one way, the optional sign-in declared, and a server.
#[tokio::test]
async fn a_client_generated_from_the_document_needs_no_cast() {
    let doc = TestApp::new().await.document().await;

    assert_eq!(doc["servers"][0]["url"], "/", "a server, relative to where the document is fetched");

    let mut refs = Vec::new();
    collect_refs(&doc, &mut refs);
    let referred: BTreeSet<&str> = refs.iter().map(String::as_str).collect();
    for reference in &referred {
        assert!(doc.pointer(&reference[1..]).is_some(), "dangling reference {reference}");
    }
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    for kind in ["schemas", "responses"] {
        for name in doc["components"][kind].as_object().unwrap().keys() {
            assert!(referred.contains(format!("#/components/{kind}/{name}").as_str()), "unused component {kind}/{name}");
        }
    }
    for (name, schema) in schemas.iter().filter(|(_, s)| s.get("properties").is_some()) {
        assert_eq!(copies(&doc, schema), 1, "{name} is copied where it should be referred to");
    }
    let paged = &schemas["NftCardPageAnswer"]["properties"]["body"]["properties"]["data"]["items"];
    assert_eq!(paged["$ref"], "#/components/schemas/NftCard", "a page of cards refers to NftCard");

    // Every field of every named type has a type (or is a reference, a union or an enum).
    for (name, schema) in schemas {
        for (field, field_schema) in schema["properties"].as_object().into_iter().flatten() {
            let typed = ["type", "$ref", "oneOf", "anyOf", "allOf", "enum"].iter().any(|k| field_schema.get(*k).is_some());
            assert!(typed, "{name}.{field} is untyped: {field_schema}");
        }
    }
    let card = &schemas["NftCard"]["properties"];
    let property = resolved(&doc, &card["properties"]["items"]);
    assert_eq!((&property["properties"]["key"]["type"], &property["properties"]["value"]["type"]), (&json!("string"), &json!("string")));
    let mint_response = doc["components"]["schemas"]["GenerationRequest"]["properties"]["mintResponse"].to_string();
    assert!(mint_response.contains("#/components/schemas/MintResponse"), "mintResponse is typed: {mint_response}");
    let receipt_or_text = schemas["MintResponse"]["oneOf"].to_string();
    assert!(receipt_or_text.contains("#/components/schemas/MintReceipt") && receipt_or_text.contains("string"), "{receipt_or_text}");

    let enumeration = |value: &Value| -> Vec<String> {
        resolved(&doc, value)["enum"]
            .as_array()
            .unwrap_or_else(|| panic!("not an enum: {value}"))
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(enumeration(&card["formOfSale"]), ["FIXEDPRICE", "AUCTION", "NOT_FOR_SALE"]);
    assert_eq!(enumeration(&schemas["Bid"]["properties"]["status"]), ["BID", "ALLOTED", "REFUNDED"]);
    assert_eq!(enumeration(&schemas["MyBidItem"]["properties"]["status"]), ["BID", "ALLOTED", "REFUNDED"]);
    let events = enumeration(&schemas["HistoryEvent"]["properties"]["typeOfEvent"]);
    for event in ["MINTED", "PUT_ON_AUCTION", "PURCHASED", "WON_AUCTION", "BURNED", "LIKED", "UNLIKED"] {
        assert!(events.iter().any(|e| e == event), "typeOfEvent lacks {event}");
    }
    assert_eq!(enumeration(&schemas["UpdateRequest"]["properties"]["formOfSale"]), ["FIXEDPRICE", "AUCTION", "NOT_FOR_SALE"]);

    // Path parameters: named one way, each declared (the document test checks the declarations).
    for (method, path) in operations(&doc) {
        for name in path.split('{').skip(1).filter_map(|s| s.split_once('}')).map(|(name, _)| name) {
            assert!(
                ["nftId", "auctionId", "userId", "collectionId", "cid", "keyId", "endpointId", "targetKind", "targetId", "action", "role"]
                    .contains(&name),
                "{method} {path}: path parameter {{{name}}}"
            );
        }
    }

    // Answers that depend on who asks declare the optional sign-in.
    for path in ["/api/nft/explore/", "/api/nft/detail/{nftId}", "/api/nft/trendingnfts", "/api/collection/browsebyid/{collectionId}"] {
        assert_eq!(doc["paths"][path]["get"]["security"], json!([{}, { "bearer": [] }]), "{path}: optional sign-in");
    }
}

/// Walks every object of `value` and checks that each MATIC amount has its wei beside it, equal
/// to it; answers how many it checked.
fn wei_beside_every_amount(value: &Value) -> usize {
    let mut checked = 0;
    match value {
        Value::Object(map) => {
            for (key, amount) in map {
                let is_amount = ["Price", "Bid", "Amount"].iter().any(|end| key.ends_with(end)) || key == "highestBid";
                if let (true, Some(matic)) = (is_amount, amount.as_str()) {
                    let wei = map
                        .get(&format!("{key}Wei"))
                        .and_then(Value::as_str)
                        .unwrap_or_else(|| panic!("{key} without {key}Wei in {value}"));
                    let (whole, fraction) = matic.split_once('.').unwrap_or((matic, ""));
                    let expected = format!("{whole}{fraction:0<18}").trim_start_matches('0').to_owned();
                    assert_eq!(wei, if expected.is_empty() { "0" } else { &expected }, "{key}Wei beside {key} {matic}");
                    checked += 1;
                }
            }
            checked += map.values().map(wei_beside_every_amount).sum::<usize>();
        }
        Value::Array(items) => checked += items.iter().map(wei_beside_every_amount).sum::<usize>(),
        _ => {}
    }
    checked
}

#[tokio::test]
async fn every_amount_has_its_wei_beside_it_and_royalties_their_basis_points() {
    let app = TestApp::new().await;
    app.seed_nft().await;

    let detail = app.get("/api/nft/detail/80001-1").await.json();
    let card = &detail["body"];
    assert_eq!(card["highestBidWei"], "1500000000000000000");
    assert_eq!(card["currentAuction"]["auctionStartPriceWei"], "1000000000000000000");
    assert_eq!(card["currentAuction"]["auctionBuyNowPriceWei"], "3000000000000000000");
    assert_eq!(card["royalty"], json!([{ "walletAddress": "0xalice", "percentage": 2.5, "bps": 250 }]));
    assert_eq!(wei_beside_every_amount(card), 5, "fixedPrice, highestBid and the auction's three prices: {card}");

    for (uri, amounts) in
        [("/api/nft/nftinauction/80001-1", 3), ("/api/nft/bidhistory/80001-1/1/", 1), ("/api/nft/explore/?formOfSale=ALL", 5)]
    {
        let answer = app.get(uri).await.json();
        assert_eq!(wei_beside_every_amount(&answer), amounts, "{uri}: {answer}");
    }
    let bids = app.get("/api/nft/bidhistory/80001-1/1/").await.json();
    assert_eq!(bids["body"]["data"][0]["bidAmountWei"], "1500000000000000000");
}

#[tokio::test]
async fn the_contract_abi_is_served_with_caching_headers_and_named_by_the_config() {
    let app = TestApp::new().await;
    let config = app.get("/api/config").await.json();
    let url = config["body"]["contractAbiUrl"].as_str().expect("the config names the ABI's URL");
    assert_eq!(url, "/api/contract/abi");

    let answer = app.send(Request::get(url).body(Body::empty()).unwrap()).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert!(answer.content_type.starts_with("application/json"));
    let artifact: Value =
        serde_json::from_str(&std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../contracts/out/Marketplace.json")).unwrap())
            .unwrap();
    assert_eq!(answer.json(), artifact["abi"], "the committed artifact's ABI, as it is");
    let buy = answer.json().as_array().unwrap().iter().find(|item| item["name"] == "buyToken").cloned().expect("buyToken");
    assert_eq!(buy["stateMutability"], "payable");

    let response = app.router.clone().oneshot(Request::get(url).body(Body::empty()).unwrap()).await.unwrap();
    let tag = response.headers()[header::ETAG].to_str().unwrap().to_owned();
    assert!(response.headers()[header::CACHE_CONTROL].to_str().unwrap().contains("max-age="));
    let again = Request::get(url).header(header::IF_NONE_MATCH, &tag).body(Body::empty()).unwrap();
    let revalidated = app.send(again).await;
    assert_eq!(revalidated.status, StatusCode::NOT_MODIFIED, "the same tag: not sent again");
    assert!(revalidated.bytes.is_empty());
    let stale = Request::get(url).header(header::IF_NONE_MATCH, "\"another\"").body(Body::empty()).unwrap();
    assert_eq!(app.send(stale).await.status, StatusCode::OK);
}

/// The notice kinds the document names (settings, webhooks, the stream) are the kinds the read
/// model writes, so a client generated from it knows every notice it can be sent.
#[tokio::test]
async fn the_notice_kinds_documented_are_the_kinds_notices_have() {
    let doc = TestApp::new().await.document().await;
    let kinds = &doc["components"]["schemas"]["NoticeKind"]["enum"];
    let documented: BTreeSet<&str> = kinds.as_array().expect("NoticeKind is an enum").iter().map(|k| k.as_str().unwrap()).collect();
    assert_eq!(documented, domain::notices::KINDS.iter().copied().collect::<BTreeSet<_>>());
    let settings = &doc["components"]["schemas"]["Settings"]["properties"]["muted"]["maxItems"];
    assert_eq!(settings.as_u64(), Some(domain::notices::KINDS.len() as u64), "a person can mute every kind");
}
