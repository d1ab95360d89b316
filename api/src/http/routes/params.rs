//! Query-string parameters read one by one, so a bad value answers 400 naming its field.
//!
//! Each parameter is declared once as a constant ([`Number`], [`Choice`], [`Text`]) that both
//! reads it and describes it in the OpenAPI document, so the documented default, bounds and
//! values are the ones the handler applies.

use std::collections::HashMap;

use axum::extract::{FromRequestParts, Query};
use axum::http::request::Parts;
use serde_json::json;
use utoipa::openapi::{
    Required, Type,
    path::{Parameter, ParameterBuilder, ParameterIn},
    schema::ObjectBuilder,
};

use super::limits::query_limit;
use crate::http::error::ApiError;

/// A request's query parameters: the last value of each name, and every pair in order (for the
/// parameters that repeat).
pub struct Params(HashMap<String, String>, Vec<(String, String)>);

impl<S: Send + Sync> FromRequestParts<S> for Params {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let Query(pairs) = Query::<Vec<(String, String)>>::from_request_parts(parts, state)
            .await
            .map_err(|e| ApiError::BadRequest(format!("Invalid query string: {e}")))?;
        if let Some(name) = pairs.iter().find(|(name, value)| value.chars().count() > query_limit(name)).map(|(name, _)| name) {
            return Err(ApiError::BadRequest(format!("{name}: at most {} characters", query_limit(name))));
        }
        Ok(Self(pairs.iter().cloned().collect(), pairs))
    }
}

/// A free-text parameter of at most [`super::limits::MAX_QUERY_TEXT`] characters (the stream's `topics`:
/// [`super::limits::MAX_TOPICS_TEXT`]); empty counts as absent.
pub struct Text {
    /// Its name in the query string.
    pub name: &'static str,
    /// What it does, for the document.
    pub description: &'static str,
}

/// A whole number in `min..=max`, `default` when absent.
pub struct Number {
    /// Its name in the query string.
    pub name: &'static str,
    /// The value when absent.
    pub default: u32,
    /// Smallest accepted.
    pub min: u32,
    /// Largest accepted.
    pub max: u32,
    /// What it does, for the document.
    pub description: &'static str,
}

/// One of a fixed set of values, parsed by `parse`; `default` when absent.
pub struct Choice<T> {
    /// Its name in the query string.
    pub name: &'static str,
    /// The value when absent (one of `values`).
    pub default: &'static str,
    /// Every accepted value (each one `parse` accepts).
    pub values: &'static [&'static str],
    /// The accepted values as the 400 message lists them.
    pub allowed: &'static str,
    /// Turns a value into what the handler uses.
    pub parse: fn(&str) -> Option<T>,
    /// What it does, for the document.
    pub description: &'static str,
}

impl Params {
    /// The value of `param`, if given and not empty.
    pub fn text(&self, param: &Text) -> Option<&str> {
        self.given(param.name).filter(|v| !v.is_empty())
    }

    /// The value of `param` as sent (trimmed), even empty: for text that stands for a number or
    /// a choice, where empty is a wrong value, not an absent one.
    pub fn value(&self, param: &Text) -> Option<&str> {
        self.given(param.name)
    }

    /// The value of `param`, or its default when absent (given but empty, it is refused as any
    /// other value outside its bounds: the document allows no empty number).
    pub fn number(&self, param: &Number) -> Result<u32, ApiError> {
        let Number { name, default, min, max, .. } = *param;
        match self.given(name) {
            None => Ok(default),
            Some(raw) => raw
                .parse::<u32>()
                .ok()
                .filter(|n| (min..=max).contains(n))
                .ok_or_else(|| ApiError::BadRequest(format!("{name} must be a whole number from {min} to {max}"))),
        }
    }

    /// The value of `param`, or its default when absent (given but empty, it is refused: the
    /// empty string is not among its values).
    pub fn choice<T>(&self, param: &Choice<T>) -> Result<T, ApiError> {
        let raw = self.given(param.name).unwrap_or(param.default);
        (param.parse)(raw).ok_or_else(|| ApiError::BadRequest(format!("{} must be one of {}", param.name, param.allowed)))
    }

    /// Every value of a parameter that repeats, as sent, in order.
    pub fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> {
        self.1.iter().filter(move |(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The value of `name` as sent, trimmed, if the query names it.
    fn given(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(|v| v.trim())
    }
}

fn query(name: &str, description: &str, schema: ObjectBuilder) -> Parameter {
    ParameterBuilder::new()
        .name(name)
        .parameter_in(ParameterIn::Query)
        .required(Required::False)
        .description(Some(description))
        .schema(Some(schema))
        .build()
}

impl Text {
    /// Its OpenAPI description.
    pub fn doc(&self) -> Parameter {
        query(self.name, self.description, ObjectBuilder::new().schema_type(Type::String).max_length(Some(query_limit(self.name))))
    }
}

impl Number {
    /// Its OpenAPI description.
    pub fn doc(&self) -> Parameter {
        let schema = ObjectBuilder::new()
            .schema_type(Type::Integer)
            .minimum(Some(self.min))
            .maximum(Some(self.max))
            .default(Some(json!(self.default)));
        query(self.name, self.description, schema)
    }
}

impl<T> Choice<T> {
    /// Its OpenAPI description.
    pub fn doc(&self) -> Parameter {
        let schema = ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(self.values.iter().copied()))
            .default(Some(json!(self.default)));
        query(self.name, self.description, schema)
    }
}

/// Implements [`utoipa::IntoParams`] for a marker type from the parameter constants a handler
/// reads, so `params(Marker)` in its `#[utoipa::path]` documents exactly those.
macro_rules! query_params {
    ($(#[$doc:meta])* $marker:ident: $($param:expr),+ $(,)?) => {
        $(#[$doc])*
        pub(crate) struct $marker;

        impl utoipa::IntoParams for $marker {
            fn into_params(
                _: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
            ) -> Vec<utoipa::openapi::path::Parameter> {
                vec![$($param.doc()),+]
            }
        }
    };
}
pub(crate) use query_params;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::routes::limits::MAX_QUERY_TEXT;

    fn params(pairs: &[(&str, &str)]) -> Params {
        let pairs: Vec<(String, String)> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Params(pairs.iter().cloned().collect(), pairs)
    }

    const COLOUR: Choice<u8> = Choice {
        name: "colour",
        default: "RED",
        values: &["RED", "BLUE"],
        allowed: "RED, BLUE",
        parse: |v| match v {
            "RED" => Some(1),
            "BLUE" => Some(2),
            _ => None,
        },
        description: "a colour",
    };

    #[test]
    fn a_choice_takes_its_default_when_absent_and_names_the_field_when_wrong_or_empty() {
        assert_eq!(params(&[]).choice(&COLOUR).unwrap(), 1);
        assert_eq!(params(&[("colour", "BLUE")]).choice(&COLOUR).unwrap(), 2);
        for wrong in ["GREEN", "", " "] {
            let err = params(&[("colour", wrong)]).choice(&COLOUR).unwrap_err();
            assert_eq!(err.to_string(), "colour must be one of RED, BLUE", "{wrong:?}");
        }
    }

    #[tokio::test]
    async fn a_query_value_longer_than_the_limit_is_refused_by_name() {
        let read = |query: String| async move {
            let (mut parts, ()) = axum::http::Request::builder().uri(format!("/x?{query}")).body(()).unwrap().into_parts();
            Params::from_request_parts(&mut parts, &()).await
        };
        // Characters, not bytes: 200 two-byte letters are within it.
        let at_limit = read(format!("search={}", "%C3%A9".repeat(MAX_QUERY_TEXT))).await.ok().and_then(|p| p.0.get("search").cloned());
        assert_eq!(at_limit, Some("é".repeat(MAX_QUERY_TEXT)));
        let err = read(format!("page=1&search={}", "x".repeat(MAX_QUERY_TEXT + 1))).await.err().unwrap();
        assert_eq!(err.to_string(), format!("search: at most {MAX_QUERY_TEXT} characters"));
    }

    #[test]
    fn a_choice_is_documented_with_its_values_and_default() {
        let doc = serde_json::to_value(COLOUR.doc()).unwrap();
        assert_eq!(doc["in"], "query");
        assert_eq!(doc["schema"]["enum"], json!(["RED", "BLUE"]));
        assert_eq!(doc["schema"]["default"], "RED");
    }

    #[test]
    fn a_number_is_documented_with_its_bounds_and_default() {
        let page = Number { name: "page", default: 1, min: 1, max: 50, description: "the page" };
        let doc = serde_json::to_value(page.doc()).unwrap();
        assert_eq!((doc["schema"]["minimum"].as_u64(), doc["schema"]["maximum"].as_u64()), (Some(1), Some(50)));
        assert_eq!(doc["schema"]["default"], 1);
        assert_eq!(params(&[("page", "51")]).number(&page).unwrap_err().to_string(), "page must be a whole number from 1 to 50");
        assert_eq!(params(&[("page", "")]).number(&page).unwrap_err().to_string(), "page must be a whole number from 1 to 50");
        assert_eq!(params(&[]).number(&page).unwrap(), 1);
    }
}
