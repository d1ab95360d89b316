//! One error type for every handler, answered in the spec's envelope.

use axum::{
    Json,
    http::StatusCode,
    response::{IntoResponse, Response},
};
use serde::Serialize;
use utoipa::{
    PartialSchema, ToSchema,
    openapi::{
        RefOr, Type,
        schema::{ObjectBuilder, Schema},
    },
};

/// The envelope every response uses: `{statuscode, body, message}`, with the HTTP status equal
/// to `statuscode`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Envelope<T> {
    /// Same as the HTTP status.
    #[schema(example = 200)]
    pub statuscode: u16,
    /// The payload (`null` on errors).
    pub body: T,
    /// A human-readable message the UI may show.
    pub message: String,
}

/// JSON `null`: the body of errors and of answers that carry nothing.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Null;

impl PartialSchema for Null {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new().schema_type(Type::Null).into()
    }
}

impl ToSchema for Null {}

/// A successful answer in the envelope, serialized (to keep it in the [`crate::http::read_cache`]).
pub fn ok_bytes<T: Serialize>(body: T, message: impl Into<String>) -> Result<axum::body::Bytes, ApiError> {
    let envelope = Envelope { statuscode: 200, body, message: message.into() };
    serde_json::to_vec(&envelope).map(Into::into).map_err(|e| ApiError::Internal(e.into()))
}

/// A successful answer already serialized by [`ok_bytes`].
pub fn ok_from_bytes(bytes: axum::body::Bytes) -> Response {
    ([(axum::http::header::CONTENT_TYPE, "application/json")], bytes).into_response()
}

/// A successful answer in the envelope.
pub fn ok<T: Serialize>(body: T, message: impl Into<String>) -> Response {
    (StatusCode::OK, Json(Envelope { statuscode: 200, body, message: message.into() })).into_response()
}

/// Accepted: the work goes on after the answer (a mail on its way), in the envelope.
pub fn accepted<T: Serialize>(body: T, message: impl Into<String>) -> Response {
    (StatusCode::ACCEPTED, Json(Envelope { statuscode: 202, body, message: message.into() })).into_response()
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
    /// No valid bearer token (missing, malformed, forged): the UI logs out.
    #[error("Unauthorized")]
    Unauthorized,
    /// The bearer token has expired: the UI logs out.
    #[error("Token expired")]
    TokenExpired,
    /// Sign-in refused (wrong e-mail or password); the message says so.
    #[error("{0}")]
    BadCredentials(String),
    /// Signed in but not allowed to do this.
    #[error("{0}")]
    Forbidden(String),
    /// The request conflicts with existing state (a taken username, e-mail or wallet), or
    /// concurrent changes to the same thing kept it from going through.
    #[error("{0}")]
    Conflict(String),
    /// Too many requests from this client or for this account.
    #[error("Too many requests, please try again in a minute")]
    TooManyRequests,
    /// Taken down by the market's moderators (hidden, its file withheld); the message says why.
    #[error("{0}")]
    Unavailable(String),
    /// The body (or an uploaded file) is larger than allowed.
    #[error("{0}")]
    PayloadTooLarge(String),
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
            Self::Unauthorized | Self::BadCredentials(_) => StatusCode::UNAUTHORIZED,
            Self::TokenExpired => StatusCode::GONE,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::TooManyRequests => StatusCode::TOO_MANY_REQUESTS,
            Self::Unavailable(_) => StatusCode::UNAVAILABLE_FOR_LEGAL_REASONS,
            Self::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::Internal(cause) if database_unavailable(cause) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// Seconds a client is asked to wait (`Retry-After`) when the database cannot be reached.
pub const RETRY_AFTER_SECONDS: u64 = 5;

/// Whether `cause` is a database that could not be reached or went away (no connection within
/// the pool's timeout, the pool closed, a broken connection, a server shutting down or
/// refusing connections), rather than a fault of the request or of the code: the answer is a
/// 503 to try again, not a 500.
pub fn database_unavailable(cause: &anyhow::Error) -> bool {
    cause.chain().filter_map(|e| e.downcast_ref::<sqlx::Error>()).any(sqlx_unavailable)
}

fn sqlx_unavailable(err: &sqlx::Error) -> bool {
    match err {
        sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Io(_) | sqlx::Error::Tls(_) | sqlx::Error::WorkerCrashed => true,
        // Postgres: connection exceptions (class 08), the server shutting down or starting
        // (admin_shutdown, crash_shutdown, cannot_connect_now), too many connections.
        sqlx::Error::Database(db) => {
            db.code().is_some_and(|code| code.starts_with("08") || matches!(code.as_ref(), "57P01" | "57P02" | "57P03" | "53300"))
        }
        _ => false,
    }
}

impl From<domain::StoreError> for ApiError {
    fn from(err: domain::StoreError) -> Self {
        // Other requests kept winning the race on the same stream until the command's deadline
        // (`domain::command`): nothing was written, and trying again is the answer.
        if domain::command::is_race(&err) {
            tracing::warn!(%err, "a command gave up against concurrent writes");
            return Self::Conflict("Too many changes to this at once; nothing was changed, please try again".into());
        }
        Self::Internal(err.into())
    }
}

// Axum's own rejections answer in the envelope too: 400 naming what was wrong (413 when a body
// is over its limit).
impl From<axum::extract::rejection::JsonRejection> for ApiError {
    fn from(rejection: axum::extract::rejection::JsonRejection) -> Self {
        match rejection.status() {
            StatusCode::PAYLOAD_TOO_LARGE => Self::PayloadTooLarge("Request body is too large".into()),
            _ => Self::BadRequest(format!("Invalid JSON body: {}", rejection.body_text())),
        }
    }
}

impl From<axum::extract::rejection::FormRejection> for ApiError {
    fn from(rejection: axum::extract::rejection::FormRejection) -> Self {
        match rejection.status() {
            StatusCode::PAYLOAD_TOO_LARGE => Self::PayloadTooLarge("Request body is too large".into()),
            _ => Self::BadRequest(format!("Invalid form body: {}", rejection.body_text())),
        }
    }
}

impl From<axum::extract::rejection::QueryRejection> for ApiError {
    fn from(rejection: axum::extract::rejection::QueryRejection) -> Self {
        Self::BadRequest(format!("Invalid query string: {}", rejection.body_text()))
    }
}

impl From<axum::extract::multipart::MultipartRejection> for ApiError {
    fn from(rejection: axum::extract::multipart::MultipartRejection) -> Self {
        Self::BadRequest(format!("Invalid multipart body: {}", rejection.body_text()))
    }
}

impl From<axum::extract::multipart::MultipartError> for ApiError {
    fn from(err: axum::extract::multipart::MultipartError) -> Self {
        match err.status() {
            StatusCode::PAYLOAD_TOO_LARGE => Self::PayloadTooLarge("Request body is too large".into()),
            _ => Self::BadRequest(format!("Invalid multipart body: {}", err.body_text())),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status_code();
        let message = match &self {
            Self::Internal(cause) if status == StatusCode::SERVICE_UNAVAILABLE => {
                tracing::warn!(error = %cause, "the database is unavailable");
                "The service is briefly unavailable. Please try again in a few seconds.".to_owned()
            }
            Self::Internal(cause) => {
                tracing::error!(error = ?cause, "internal error");
                "Something went wrong. Please try again.".to_owned()
            }
            other => other.to_string(),
        };
        let mut response = (status, Json(Envelope { statuscode: status.as_u16(), body: Null, message })).into_response();
        if status == StatusCode::SERVICE_UNAVAILABLE {
            response.headers_mut().insert(axum::http::header::RETRY_AFTER, axum::http::HeaderValue::from(RETRY_AFTER_SECONDS));
        }
        response
    }
}

/// A failure of the read tables or the log: a 500 whose detail goes to the server's log only.
pub fn db_error(err: impl Into<anyhow::Error>) -> ApiError {
    ApiError::Internal(err.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_outrun_by_concurrent_writes_is_a_409_never_a_500() {
        let lost = domain::StoreError::WrongExpectedVersion {
            stream_id: "social-x".into(),
            expected: domain::ExpectedVersion::Exact(3),
            actual: 4,
        };
        for err in [lost, domain::StoreError::Contention { attempts: 8 }] {
            let answer = ApiError::from(err);
            assert_eq!(answer.status_code(), StatusCode::CONFLICT);
            assert!(answer.to_string().contains("try again"), "{answer}");
        }
        let broken = ApiError::from(domain::StoreError::InvalidAppend("empty".into()));
        assert_eq!(broken.status_code(), StatusCode::INTERNAL_SERVER_ERROR);
    }

    #[tokio::test]
    async fn an_unreachable_database_is_a_503_with_retry_after_in_the_envelope() {
        let refused = || sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::ConnectionRefused));
        let unavailable = [
            ApiError::Internal(sqlx::Error::PoolTimedOut.into()),
            ApiError::Internal(sqlx::Error::PoolClosed.into()),
            ApiError::Internal(refused().into()),
            // Through the event store's and the read models' errors, and with context added.
            ApiError::from(domain::StoreError::Database(sqlx::Error::PoolTimedOut)),
            ApiError::Internal(projections::ProjectionError::from(refused()).into()),
            ApiError::Internal(anyhow::Error::from(refused()).context("reading the offers")),
        ];
        for answer in unavailable {
            let response = answer.into_response();
            assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
            assert_eq!(response.headers()[axum::http::header::RETRY_AFTER], "5");
            let body = axum::body::to_bytes(response.into_body(), 1 << 16).await.unwrap();
            let body: serde_json::Value = serde_json::from_slice(&body).unwrap();
            assert_eq!((body["statuscode"].as_u64(), body["body"].is_null()), (Some(503), true));
            assert!(body["message"].as_str().unwrap().contains("try again"), "{body}");
        }
        // A query the database refused is the code's fault: still a 500, no Retry-After.
        let bad = ApiError::Internal(sqlx::Error::RowNotFound.into()).into_response();
        assert_eq!(bad.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert!(bad.headers().get(axum::http::header::RETRY_AFTER).is_none());
    }
}
