//! The guide's promise, checked on the served document: every MATIC amount an answer carries
//! has its wei twin beside it (`price` and `priceWei`), and every text field named like a state,
//! kind, status, event or type (answers, bodies and query parameters alike) is an enum, so a
//! generated client gets its closed sets as types. Request bodies name amounts in MATIC only:
//! the server reads the amount from the transaction's receipt, and a MATIC amount sent beside it
//! must match it.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::helpers::{TestApp, operations};

/// A property of an object schema: where it is, its name, its schema (references resolved), and
/// the names of the properties beside it.
struct Field {
    owner: String,
    name: String,
    schema: Value,
    siblings: BTreeSet<String>,
}

/// Every property of every object schema under `value`, following references once each.
fn fields(doc: &Value, value: &Value, owner: &str, seen: &mut BTreeSet<String>, out: &mut Vec<Field>) {
    match value {
        Value::Object(map) => {
            if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
                if seen.insert(reference.to_owned()) {
                    let target = doc.pointer(&reference[1..]).unwrap_or_else(|| panic!("dangling {reference}"));
                    let name = reference.rsplit('/').next().unwrap_or(reference);
                    fields(doc, target, name, seen, out);
                }
                return;
            }
            if let Some(properties) = map.get("properties").and_then(Value::as_object) {
                let siblings: BTreeSet<String> = properties.keys().cloned().collect();
                for (name, schema) in properties {
                    out.push(Field { owner: owner.to_owned(), name: name.clone(), schema: schema.clone(), siblings: siblings.clone() });
                }
            }
            map.values().for_each(|v| fields(doc, v, owner, seen, out));
        }
        Value::Array(items) => items.iter().for_each(|v| fields(doc, v, owner, seen, out)),
        _ => {}
    }
}

/// `schema` and its alternatives (`oneOf`, `anyOf`), references resolved.
fn alternatives<'a>(doc: &'a Value, schema: &'a Value) -> Vec<&'a Value> {
    let resolve = |s: &'a Value| match s["$ref"].as_str() {
        Some(reference) => doc.pointer(&reference[1..]).unwrap_or_else(|| panic!("dangling {reference}")),
        None => s,
    };
    let schema = resolve(schema);
    let mut all = vec![schema];
    for key in ["oneOf", "anyOf"] {
        all.extend(schema[key].as_array().into_iter().flatten().map(resolve));
    }
    all
}

fn is_text(doc: &Value, schema: &Value) -> bool {
    alternatives(doc, schema).iter().any(|s| s["type"] == "string" || s["type"].as_array().is_some_and(|t| t.contains(&json!("string"))))
}

fn is_enum(doc: &Value, schema: &Value) -> bool {
    alternatives(doc, schema).iter().any(|s| s.get("enum").is_some() || s.get("const").is_some())
}

/// A MATIC amount: named like one, or described as one (`MATIC` in backquotes names the coin).
fn is_amount(doc: &Value, field: &Field) -> bool {
    let name = field.name.to_ascii_lowercase();
    let named =
        ["price", "amount", "volume", "spent", "refunded"].iter().any(|w| name.contains(w)) || name.ends_with("bid") || name == "floor";
    let description = field.schema["description"].as_str().unwrap_or_default().replace("`MATIC`", "");
    !name.ends_with("wei") && is_text(doc, &field.schema) && (named || description.contains("MATIC"))
}

/// A field that names one of a closed set of values.
fn names_a_closed_set(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    ["state", "kind", "status", "event", "type", "formofsale"].iter().any(|end| name.ends_with(end))
}

/// What breaks the promise in `doc`: amounts without their wei twin, closed sets as plain text.
fn broken_promises(doc: &Value) -> (Vec<String>, Vec<String>, usize, usize) {
    let (mut answers, mut requests, mut parameters) = (Vec::new(), Vec::new(), Vec::new());
    for (method, path) in operations(doc) {
        let operation = &doc["paths"][&path][method.to_lowercase()];
        let mut seen = BTreeSet::new();
        fields(doc, &operation["responses"], &format!("{method} {path}"), &mut seen, &mut answers);
        let mut seen = BTreeSet::new();
        fields(doc, &operation["requestBody"], &format!("{method} {path}"), &mut seen, &mut requests);
        for parameter in operation["parameters"].as_array().into_iter().flatten() {
            let name = parameter["name"].as_str().unwrap_or_default().to_owned();
            parameters.push(Field {
                owner: format!("{method} {path}"),
                name,
                schema: parameter["schema"].clone(),
                siblings: BTreeSet::new(),
            });
        }
    }
    let mut amounts = 0;
    let mut without_wei = BTreeSet::new();
    for field in answers.iter().filter(|f| is_amount(doc, f)) {
        amounts += 1;
        if !field.siblings.contains(&format!("{}Wei", field.name)) {
            without_wei.insert(format!("{}.{}", field.owner, field.name));
        }
    }
    let mut closed = 0;
    let mut plain = BTreeSet::new();
    for field in answers.iter().chain(&requests).chain(&parameters).filter(|f| names_a_closed_set(&f.name) && is_text(doc, &f.schema)) {
        closed += 1;
        if !is_enum(doc, &field.schema) {
            plain.insert(format!("{}.{}", field.owner, field.name));
        }
    }
    (without_wei.into_iter().collect(), plain.into_iter().collect(), amounts, closed)
}

#[tokio::test]
async fn every_amount_in_an_answer_has_its_wei_twin_and_every_closed_set_is_an_enum() {
    let doc = TestApp::new().await.document().await;

    let (without_wei, plain, amounts, closed) = broken_promises(&doc);

    assert!(without_wei.is_empty(), "MATIC amounts without their wei twin:\n{}", without_wei.join("\n"));
    assert!(plain.is_empty(), "closed sets documented as plain text:\n{}", plain.join("\n"));
    // The walk reaches what it should: the cards' prices, the cart's totals, the offers' states.
    assert!(amounts >= 30, "only {amounts} amounts found");
    assert!(closed >= 20, "only {closed} closed sets found");
}

#[tokio::test]
async fn the_promise_check_finds_an_amount_without_wei_and_a_state_as_plain_text() {
    let doc = json!({
        "paths": {"/x": {"post": {
            "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Ask"}}}},
            "responses": {"200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Answer"}}}}},
        }}},
        "components": {"schemas": {
            "Ask": {"type": "object", "properties": {"price": {"type": "string"}, "formOfSale": {"type": ["string", "null"]}}},
            "Answer": {"type": "object", "properties": {
                "spent": {"type": "string"},
                "price": {"type": ["string", "null"]}, "priceWei": {"type": ["string", "null"]},
                "total": {"type": "string", "description": "In MATIC."},
                "coinName": {"type": "string", "description": "Always `MATIC`."},
                "state": {"type": "string"},
                "kind": {"oneOf": [{"$ref": "#/components/schemas/Kind"}, {"type": "null"}]},
                "items": {"type": "array", "items": {"type": "object", "properties": {"lastEvent": {"type": "string"}}}},
            }},
            "Kind": {"type": "string", "enum": ["A", "B"]},
        }},
    });

    let (without_wei, plain, amounts, closed) = broken_promises(&doc);

    assert_eq!(without_wei, ["Answer.spent", "Answer.total"], "a request's MATIC price is not an answer's");
    assert_eq!(plain, ["Answer.lastEvent", "Answer.state", "Ask.formOfSale"]);
    assert_eq!((amounts, closed), (3, 4));
}

#[tokio::test]
async fn the_stream_documents_its_ready_and_reset_data_and_types_its_notices() {
    let doc = TestApp::new().await.document().await;
    let schemas = &doc["components"]["schemas"];

    let data = &doc["paths"]["/api/stream"]["get"]["responses"]["200"]["content"]["text/event-stream"]["schema"];
    let data = alternatives(&doc, data)[0].to_string();
    for alternative in ["#/components/schemas/Change", "#/components/schemas/StreamPosition"] {
        assert!(data.contains(&format!("\"{alternative}\"")), "the data is a change or a position: {data}");
    }
    let position = &schemas["StreamPosition"];
    assert_eq!(position["required"], json!(["position"]));
    assert_eq!(position["additionalProperties"], false, "a change is not also a position");
    assert_eq!(schemas["Change"]["properties"]["notices"]["items"]["$ref"], "#/components/schemas/Notice");
}
