//! How long the text in a request may be.
//!
//! Each limit is declared once, as the `maxLength` of its field in the request's OpenAPI schema
//! (`#[schema(max_length = N)]`), and checked from that schema when the request is read, before
//! the handler runs: the documented limit is the one applied, and a request over it is refused
//! with a 400 naming the field before anything is stored. Lengths count characters (Unicode
//! code points), as JSON Schema's `maxLength` does. Query strings have one limit for every
//! value ([`MAX_QUERY_TEXT`]).

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
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                walk(&schema["items"], item, &format!("{path}[{i}]"), definitions)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
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
