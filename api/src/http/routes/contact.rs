//! `POST /api/misc/contactus`: a message to the team, kept as a `ContactMessageReceived` event.

use axum::{extract::State, response::Response};
use chrono::Utc;
use domain::{
    ExpectedVersion, Metadata,
    accounts::{ContactEvent, validate},
};
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use uuid::Uuid;

use super::openapi::{BadRequest, TooManyRequests};
use crate::http::{
    AppState,
    auth::{ClientIp, MaybeUser, Payload},
    error::{ApiError, Envelope, Null, ok},
};

/// Longest subject.
const MAX_SUBJECT: usize = 200;
/// Longest message.
const MAX_MESSAGE: usize = 5_000;

/// The contact route.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(contact_us))
}

/// A message to the team; every field required.
#[derive(Deserialize, ToSchema)]
struct ContactRequest {
    /// Sender's name.
    #[schema(max_length = 100)]
    name: String,
    /// Sender's e-mail.
    #[schema(format = "email", max_length = 254)]
    email: String,
    /// Subject.
    #[schema(max_length = 200)]
    subject: String,
    /// Message.
    #[schema(max_length = 5000)]
    message: String,
}

/// Sends a message to the team (kept as an event).
///
/// A bearer token is optional: when valid, the message records who sent it.
#[utoipa::path(
    post,
    path = "/api/misc/contactus",
    tag = "misc",
    request_body(content((ContactRequest = "application/json"), (ContactRequest = "application/x-www-form-urlencoded"))),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "Received", body = Envelope<Null>),
        (status = 400, response = BadRequest),
        (status = 429, response = TooManyRequests),
    ),
)]
async fn contact_us(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    MaybeUser(user_id): MaybeUser,
    Payload(req): Payload<ContactRequest>,
) -> Result<Response, ApiError> {
    let name = validate::required("name", &req.name, validate::MAX_FULL_NAME)?;
    let email = validate::email("email", &req.email)?;
    let subject = validate::required("subject", &req.subject, MAX_SUBJECT)?;
    let message = validate::required("message", &req.message, MAX_MESSAGE)?;
    state.accounts.limits.check("contact", ip, Some(&email)).await?;
    let event = ContactEvent::ContactMessageReceived { message_id: Uuid::now_v7(), name, email, subject, message, user_id, at: Utc::now() };
    let metadata = Metadata { actor: user_id.map(|id| id.to_string()), ..Metadata::default() };
    let appended = state.store.append(&event.stream_id(), ExpectedVersion::NoStream, vec![event.to_new_event(metadata)?]).await?;
    // No read table shows it, so nothing to wait for; the answer still names its position.
    projections::reads::wrote(appended.last_position);
    Ok(ok(Null, "Thank you for contacting us. We will get back to you soon"))
}

#[cfg(test)]
mod tests {
    use utoipa::PartialSchema;

    use super::*;

    #[test]
    fn the_documented_lengths_are_the_enforced_ones() {
        let schema = serde_json::to_value(ContactRequest::schema()).unwrap();
        for (field, max) in [("name", validate::MAX_FULL_NAME), ("subject", MAX_SUBJECT), ("message", MAX_MESSAGE)] {
            assert_eq!(schema["properties"][field]["maxLength"], max, "{field}");
        }
    }
}
