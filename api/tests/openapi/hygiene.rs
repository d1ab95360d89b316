//! The document's hygiene, as a linter or a client generator reads it: every operation says who
//! may call it, schema names are names a generated client can use as types, and descriptions
//! are prose, not Rust doc-comment syntax. (One path per operation: `main.rs`; the 4xx answers:
//! `hostile.rs`.)

use serde_json::{Value, json};

use crate::helpers::{TestApp, operations};

#[tokio::test]
async fn every_operation_declares_its_security_public_optional_or_bearer() {
    let doc = TestApp::new().await.document().await;
    let (public, optional, bearer) = (json!([{}]), json!([{}, { "bearer": [] }]), json!([{ "bearer": [] }]));
    let mut counts = [0; 3];
    for (method, path) in operations(&doc) {
        let security = &doc["paths"][&path][method.to_lowercase()]["security"];
        let kind = [&public, &optional, &bearer].iter().position(|s| *s == security);
        let kind = kind.unwrap_or_else(|| panic!("{method} {path}: security {security} is none of public, optional or bearer"));
        counts[kind] += 1;
    }
    assert!(counts.iter().all(|&n| n > 0), "public, optional and bearer operations: {counts:?}");
    assert_eq!(doc["paths"]["/healthz"]["get"]["security"], public);
    assert_eq!(doc["paths"]["/api/nft/detail/{nftId}"]["get"]["security"], optional);
}

/// Every `description` in `value`, with where it is.
fn descriptions(value: &Value, at: &str, found: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                match (key.as_str(), v) {
                    ("description" | "summary", Value::String(text)) => found.push((at.to_owned(), text.clone())),
                    _ => descriptions(v, &format!("{at}/{key}"), found),
                }
            }
        }
        Value::Array(items) => items.iter().enumerate().for_each(|(i, v)| descriptions(v, &format!("{at}/{i}"), found)),
        _ => {}
    }
}

#[tokio::test]
async fn schema_names_are_plain_type_names_and_descriptions_carry_no_doc_comment_links() {
    let doc = TestApp::new().await.document().await;

    let schemas = doc["components"]["schemas"].as_object().unwrap();
    let unreadable: Vec<&String> = schemas
        .keys()
        .filter(|name| !name.starts_with(|c: char| c.is_ascii_uppercase()) || !name.chars().all(|c| c.is_ascii_alphanumeric()))
        .collect();
    assert!(unreadable.is_empty(), "schema names a generated client cannot use as they are: {unreadable:?}");
    let internal: Vec<&String> = schemas.keys().filter(|name| name.ends_with("Doc") || name.ends_with("Body")).collect();
    assert!(internal.is_empty(), "schema names after the server's code, not the answer: {internal:?}");
    for name in ["NftCardPageAnswer", "AuctionListAnswer", "AccessTokenOrNullAnswer", "EmptyAnswer", "Facets", "NftChange"] {
        assert!(schemas.contains_key(name), "no schema {name}");
    }

    let mut found = Vec::new();
    descriptions(&doc, "", &mut found);
    assert!(found.len() > 200, "only {} descriptions read", found.len());
    let links: Vec<String> =
        found.iter().filter(|(_, text)| text.contains("[`") || text.contains("`]")).map(|(at, text)| format!("{at}: {text}")).collect();
    assert!(links.is_empty(), "doc-comment links in descriptions:\n{}", links.join("\n"));
}
