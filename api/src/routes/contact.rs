//! `POST /api/misc/contactus`: a message to the team, kept as a `ContactMessageReceived` event.

use axum::{Router, extract::State, response::Response, routing::post};
use chrono::Utc;
use domain::{
    ExpectedVersion, Metadata,
    accounts::{ContactEvent, validate},
};
use serde::Deserialize;
use serde_json::json;
use uuid::Uuid;

use crate::{
    AppState,
    auth::{ClientIp, MaybeUser, Payload},
    error::{ApiError, ok},
};

/// Longest subject.
const MAX_SUBJECT: usize = 200;
/// Longest message.
const MAX_MESSAGE: usize = 5_000;

/// The contact route.
pub fn router() -> Router<AppState> {
    Router::new().route("/api/misc/contactus", post(contact_us))
}

#[derive(Deserialize)]
struct ContactRequest {
    name: String,
    email: String,
    subject: String,
    message: String,
}

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
    state.accounts.limits.check("contact", ip, Some(&email))?;
    let event = ContactEvent::ContactMessageReceived { message_id: Uuid::now_v7(), name, email, subject, message, user_id, at: Utc::now() };
    let metadata = Metadata { actor: user_id.map(|id| id.to_string()), ..Metadata::default() };
    state.store.append(&event.stream_id(), ExpectedVersion::NoStream, vec![event.to_new_event(metadata)?]).await?;
    Ok(ok(json!(null), "Thank you for contacting us. We will get back to you soon"))
}
