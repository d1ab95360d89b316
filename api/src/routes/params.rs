//! Query-string parameters read one by one, so a bad value answers 400 naming its field.

use std::collections::HashMap;

use axum::extract::{FromRequestParts, Query};
use axum::http::request::Parts;

use crate::error::ApiError;

/// A request's query parameters.
pub struct Params(HashMap<String, String>);

impl<S: Send + Sync> FromRequestParts<S> for Params {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let Query(map) = Query::<HashMap<String, String>>::from_request_parts(parts, state)
            .await
            .map_err(|e| ApiError::BadRequest(format!("Invalid query string: {e}")))?;
        Ok(Self(map))
    }
}

impl Params {
    /// The value of `name`, if given and not empty.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(|v| v.trim()).filter(|v| !v.is_empty())
    }

    /// A whole number in `min..=max`, `default` when absent.
    pub fn number(&self, name: &str, default: u32, min: u32, max: u32) -> Result<u32, ApiError> {
        match self.text(name) {
            None => Ok(default),
            Some(raw) => raw
                .parse::<u32>()
                .ok()
                .filter(|n| (min..=max).contains(n))
                .ok_or_else(|| ApiError::BadRequest(format!("{name} must be a whole number from {min} to {max}"))),
        }
    }

    /// One of a fixed set of values, parsed by `parse`; `default` when absent.
    pub fn choice<T>(&self, name: &str, default: T, allowed: &str, parse: impl Fn(&str) -> Option<T>) -> Result<T, ApiError> {
        match self.text(name) {
            None => Ok(default),
            Some(raw) => parse(raw).ok_or_else(|| ApiError::BadRequest(format!("{name} must be one of {allowed}"))),
        }
    }
}
