//! One error type for every handler, answered in the spec's envelope.

use axum::{
    Json,
    http::StatusCode,
    response::{IntoResponse, Response},
};
use serde::Serialize;

/// The envelope every response uses: `{statuscode, body, message}`, with the HTTP status equal
/// to `statuscode`.
#[derive(Debug, Serialize)]
pub struct Envelope<T: Serialize> {
    /// Same as the HTTP status.
    pub statuscode: u16,
    /// The payload (`null` on errors).
    pub body: T,
    /// A human-readable message the UI may show.
    pub message: String,
}

/// A successful answer in the envelope.
pub fn ok<T: Serialize>(body: T, message: impl Into<String>) -> Response {
    (StatusCode::OK, Json(Envelope { statuscode: 200, body, message: message.into() })).into_response()
}

/// Everything a handler can answer with besides success.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request is malformed; the message names the field.
    #[error("{0}")]
    BadRequest(String),
    /// No such resource.
    #[error("{0}")]
    NotFound(String),
    /// Anything unexpected: logged with its cause, answered with a generic message.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl ApiError {
    /// The HTTP status of each kind of error.
    pub fn status_code(&self) -> StatusCode {
        match self {
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl From<domain::StoreError> for ApiError {
    fn from(err: domain::StoreError) -> Self {
        Self::Internal(err.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status_code();
        let message = match &self {
            Self::Internal(cause) => {
                tracing::error!(error = ?cause, "internal error");
                "Something went wrong. Please try again.".to_owned()
            }
            other => other.to_string(),
        };
        (status, Json(Envelope { statuscode: status.as_u16(), body: serde_json::Value::Null, message }))
            .into_response()
    }
}
