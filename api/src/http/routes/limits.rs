//! How long the text in a request may be.
//!
//! Each limit is declared once, as the `maxLength` of its field in the request's OpenAPI schema
//! (`#[schema(max_length = N)]`), and checked from that schema when the request is read, before
//! the handler runs: the documented limit is the one applied, and a request over it is refused
//! with a 400 naming the field before anything is stored. Lengths count characters (Unicode
//! code points), as JSON Schema's `maxLength` does. A body's lists are held to their
//! `maxItems` and its numbers to their `minimum`, `maximum` and `format` (`int64`: a whole
//! number in range) the same way. Query strings have one limit for every value
//! ([`MAX_QUERY_TEXT`]).

use std::{
    any::TypeId,
    collections::HashMap,
    sync::{Arc, LazyLock, PoisonError, RwLock},
};

use axum::extract::multipart::Field;
use serde_json::{Map, Value, json};
use utoipa::ToSchema;

use crate::http::error::ApiError;

/// The longest value of any query parameter (numbers and choices are bounded by their own
/// rules long before this).
pub const MAX_QUERY_TEXT: usize = 200;

/// The longest `topics` of `/api/stream`: its 20 topics (`collection:` and a 36-character id is
/// 47 characters; an NFT's topic with a long token id is longer) with their commas.
pub const MAX_TOPICS_TEXT: usize = 2_000;

/// The longest value of the query parameter `name`.
pub fn query_limit(name: &str) -> usize {
    if name == "topics" { MAX_TOPICS_TEXT } else { MAX_QUERY_TEXT }
}

/// Refuses `value` (a request body as JSON) if a string in it is longer than the `maxLength`
/// its field has in `T`'s schema.
pub fn check<T: ToSchema + 'static>(value: &Value) -> Result<(), ApiError> {
    let schema = schema_of::<T>()?;
    walk(&schema.root, value, "", &schema.definitions).map_err(ApiError::BadRequest)
}

/// A request type's schema as JSON, with the schemas it refers to.
struct RequestSchema {
    root: Value,
    definitions: Map<String, Value>,
}

/// `T`'s schema, made once per type (every request body is checked against it: building and
/// serializing the schema each time would cost more than the check).
fn schema_of<T: ToSchema + 'static>() -> Result<Arc<RequestSchema>, ApiError> {
    static SCHEMAS: LazyLock<RwLock<HashMap<TypeId, Arc<RequestSchema>>>> = LazyLock::new(Default::default);
    if let Some(schema) = SCHEMAS.read().unwrap_or_else(PoisonError::into_inner).get(&TypeId::of::<T>()) {
        return Ok(schema.clone());
    }
    let mut referenced = Vec::new();
    T::schemas(&mut referenced);
    let definitions: Map<String, Value> =
        referenced.into_iter().filter_map(|(name, schema)| Some((name, serde_json::to_value(schema).ok()?))).collect();
    let root = serde_json::to_value(T::schema()).map_err(|e| ApiError::Internal(e.into()))?;
    let schema = Arc::new(RequestSchema { root, definitions });
    SCHEMAS.write().unwrap_or_else(PoisonError::into_inner).insert(TypeId::of::<T>(), schema.clone());
    Ok(schema)
}

/// Refuses the form field `name` (of the form `T` documents) if `text` is longer than its
/// `maxLength`.
pub fn check_field<T: ToSchema + 'static>(name: &str, text: &str) -> Result<(), ApiError> {
    check::<T>(&json!({ name: text }))
}

/// The text of a multipart field of the form `T` documents, refused past its `maxLength`.
pub async fn form_text<T: ToSchema + 'static>(field: Field<'_>) -> Result<String, ApiError> {
    let name = field.name().unwrap_or_default().to_owned();
    let text = field.text().await?;
    check_field::<T>(&name, &text)?;
    Ok(text)
}

fn walk(schema: &Value, value: &Value, path: &str, definitions: &Map<String, Value>) -> Result<(), String> {
    if let Some(name) = schema["$ref"].as_str().and_then(|r| r.strip_prefix("#/components/schemas/")) {
        return match definitions.get(name) {
            Some(schema) => walk(schema, value, path, definitions),
            None => Ok(()),
        };
    }
    // `Option<T>` and other composites: every alternative's limits hold.
    for key in ["oneOf", "anyOf", "allOf"] {
        for alternative in schema[key].as_array().into_iter().flatten() {
            walk(alternative, value, path, definitions)?;
        }
    }
    match value {
        Value::String(text) => match schema["maxLength"].as_u64() {
            Some(max) if text.chars().count() as u64 > max => Err(format!("{}: at most {max} characters", field(path))),
            _ => Ok(()),
        },
        Value::Object(fields) => {
            for (name, value) in fields {
                let property = &schema["properties"][name];
                if !property.is_null() {
                    walk(property, value, &join(path, name), definitions)?;
                }
            }
            Ok(())
        }
        Value::Number(number) => bounded(schema, number).map_err(|bound| format!("{}: {bound}", field(path))),
        Value::Array(items) => {
            if let Some(max) = schema["maxItems"].as_u64()
                && items.len() as u64 > max
            {
                return Err(format!("{}: at most {max} items", field(path)));
            }
            for (i, item) in items.iter().enumerate() {
                walk(&schema["items"], item, &format!("{path}[{i}]"), definitions)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Whether `number` keeps to its schema's `minimum`, `maximum` and `format` (`int64`, `int32`:
/// whole and in range); else what it must be.
fn bounded(schema: &Value, number: &serde_json::Number) -> Result<(), String> {
    let range = match schema["format"].as_str() {
        Some("int64") => Some((i64::MIN as i128, i64::MAX as i128)),
        Some("int32") => Some((i32::MIN as i128, i32::MAX as i128)),
        _ => None,
    };
    let whole = number.as_i64().map(i128::from).or(number.as_u64().map(i128::from));
    if let Some((low, high)) = range {
        let low = schema["minimum"].as_i64().map_or(low, |min| low.max(min.into()));
        let high = schema["maximum"].as_i64().map_or(high, |max| high.min(max.into()));
        match whole {
            Some(n) if (low..=high).contains(&n) => {}
            _ => return Err(format!("must be a whole number from {low} to {high}")),
        }
    }
    let value = number.as_f64().unwrap_or(f64::NAN);
    let exact = |bound: &Value| whole.zip(bound.as_i64().map(i128::from).or(bound.as_u64().map(i128::from)));
    if let Some(min) = schema.get("minimum") {
        let below = exact(min).map_or_else(|| value < min.as_f64().unwrap_or(f64::MIN), |(n, m)| n < m);
        if below {
            return Err(format!("at least {min}"));
        }
    }
    if let Some(max) = schema.get("maximum") {
        let above = exact(max).map_or_else(|| value > max.as_f64().unwrap_or(f64::MAX), |(n, m)| n > m);
        if above {
            return Err(format!("at most {max}"));
        }
    }
    Ok(())
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() { name.to_owned() } else { format!("{path}.{name}") }
}

fn field(path: &str) -> &str {
    if path.is_empty() { "body" } else { path }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(ToSchema)]
    #[allow(dead_code, reason = "a schema only")]
    struct Inner {
        #[schema(max_length = 3)]
        code: String,
    }

    #[derive(ToSchema)]
    #[schema(rename_all = "camelCase")]
    #[allow(dead_code, reason = "a schema only")]
    struct Outer {
        #[schema(max_length = 5)]
        full_name: String,
        #[schema(max_length = 4)]
        nickname: Option<String>,
        inner: Option<Inner>,
        rows: Vec<Inner>,
        free: String,
    }

    fn refused(value: Value) -> String {
        check::<Outer>(&value).unwrap_err().to_string()
    }

    #[test]
    fn strings_up_to_their_max_length_pass_and_longer_ones_are_refused_by_name() {
        assert!(
            check::<Outer>(&json!({ "fullName": "ééééé", "nickname": "abcd", "inner": { "code": "abc" }, "rows": [{ "code": "x" }] }))
                .is_ok()
        );
        assert_eq!(refused(json!({ "fullName": "abcdef" })), "fullName: at most 5 characters");
        assert_eq!(refused(json!({ "nickname": "abcde" })), "nickname: at most 4 characters");
        assert_eq!(refused(json!({ "inner": { "code": "abcd" } })), "inner.code: at most 3 characters");
        assert_eq!(refused(json!({ "rows": [{ "code": "a" }, { "code": "abcd" }] })), "rows[1].code: at most 3 characters");
    }

    #[derive(ToSchema)]
    #[allow(dead_code, reason = "a schema only")]
    struct Counted {
        position: u64,
        #[schema(maximum = 10)]
        small: Option<i32>,
        #[schema(max_items = 2)]
        kinds: Vec<String>,
    }

    #[test]
    fn numbers_past_their_bounds_or_format_and_lists_past_their_max_items_are_refused_by_name() {
        assert!(check::<Counted>(&json!({ "position": i64::MAX, "small": 10, "kinds": ["a", "b"] })).is_ok());
        let refused = |value: Value| check::<Counted>(&value).unwrap_err().to_string();
        assert_eq!(refused(json!({ "position": i64::MAX as u64 + 1 })), "position: must be a whole number from 0 to 9223372036854775807");
        assert_eq!(refused(json!({ "position": -1 })), "position: must be a whole number from 0 to 9223372036854775807");
        assert_eq!(refused(json!({ "position": 1.5 })), "position: must be a whole number from 0 to 9223372036854775807");
        assert_eq!(refused(json!({ "small": 11 })), "small: must be a whole number from -2147483648 to 10");
        assert_eq!(refused(json!({ "kinds": ["a", "b", "a"] })), "kinds: at most 2 items");
    }

    #[test]
    fn other_types_unknown_fields_and_unlimited_strings_are_left_to_the_handler() {
        assert!(
            check::<Outer>(&json!({ "fullName": 12345678, "nickname": null, "extra": "x".repeat(1000), "free": "y".repeat(1000) })).is_ok()
        );
        assert!(check::<Vec<Inner>>(&json!([{ "code": "abc" }])).is_ok());
        assert_eq!(check::<Vec<Inner>>(&json!([{ "code": "abcd" }])).unwrap_err().to_string(), "[0].code: at most 3 characters");
    }

    #[test]
    fn a_form_field_is_checked_against_its_documented_limit() {
        assert!(check_field::<Outer>("fullName", "abcde").is_ok());
        assert_eq!(check_field::<Outer>("fullName", "abcdef").unwrap_err().to_string(), "fullName: at most 5 characters");
        assert!(check_field::<Outer>("photo", &"x".repeat(100)).is_ok());
    }
}
