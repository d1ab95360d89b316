//! Routes that exist only on a development stack: the dev mailbox (while mail goes to it) and
//! the dev wallet's accounts (while the server runs its own local chain). [`crate::http::app`]
//! mounts each only then, so neither is served nor documented in production.

use axum::{
    extract::{Query, State, rejection::QueryRejection},
    response::Response,
};
use domain::accounts::validate::MAX_EMAIL;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::openapi::BadRequest;
use crate::{
    chain::local::dev_addresses,
    http::{
        AppState,
        auth::MaybeUser,
        error::{ApiError, Envelope, ok},
    },
    mail::StoredMail,
};

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct MailboxQuery {
    /// The recipient (required; case-insensitive).
    #[param(max_length = 254)] // validate::MAX_EMAIL
    to: Option<String>,
}

/// `GET /api/dev/mailbox?to=<email>`: the latest messages to an address. Mounted (and
/// documented) only while the dev mailbox is the mailer.
pub fn mailbox_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(mailbox))
}

/// Dev only: the latest 20 messages to an address, newest first.
///
/// Dev only: served only while mail goes to the dev mailbox (no SMTP configured), so a
/// development server or an end-to-end test can read codes and links.
#[utoipa::path(
    get,
    path = "/api/dev/mailbox",
    tag = "dev",
    security(()),
    params(MailboxQuery),
    responses((status = 200, description = "The messages, newest first", body = Envelope<Vec<StoredMail>>), (status = 400, response = BadRequest)),
    extensions(("x-dev-only" = json!(true))),
)]
async fn mailbox(State(state): State<AppState>, query: Result<Query<MailboxQuery>, QueryRejection>) -> Result<Response, ApiError> {
    let Query(query) = query?;
    let to = query.to.filter(|t| !t.trim().is_empty()).ok_or_else(|| ApiError::BadRequest("to: Required".into()))?;
    if to.chars().count() > MAX_EMAIL {
        return Err(ApiError::BadRequest(format!("to: at most {MAX_EMAIL} characters")));
    }
    let mailbox = state.mailer.dev_mailbox().ok_or_else(|| ApiError::NotFound("No dev mailbox".into()))?;
    let mails = mailbox.latest(&to, 20).await.map_err(|e| ApiError::Internal(e.into()))?;
    Ok(ok(mails, "Latest messages"))
}

/// A dev wallet account and who linked it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DevAccount {
    /// Its index in the dev mnemonic (the dev wallet's account number).
    pub index: u32,
    /// EIP-55 address.
    pub address: String,
    /// The user it is linked to, if any.
    pub linked_to: Option<DevAccountUser>,
    /// Whether it is linked to the caller (false without a token).
    pub mine: bool,
}

/// The user a dev account is linked to.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DevAccountUser {
    /// User id.
    pub user_id: String,
    /// Username.
    pub username: String,
    /// Full name.
    pub full_name: String,
}

/// `GET /api/dev/wallets`. Mounted (and documented) only while the server runs the local dev
/// chain, the only one the dev wallet is offered on.
pub fn wallets_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(wallets))
}

/// Dev only: the dev wallet's accounts and who linked each.
///
/// Dev only: served only on the local dev chain (`marketplace dev` with its own anvil), so the
/// dev wallet can mark the accounts linked to the caller and to other people (the demo's people
/// hold accounts 10 to 17).
#[utoipa::path(
    get,
    path = "/api/dev/wallets",
    tag = "dev",
    responses((status = 200, description = "Every account the dev wallet offers, by index", body = Envelope<Vec<DevAccount>>)),
    security((), ("bearer" = [])),
    extensions(("x-dev-only" = json!(true))),
)]
async fn wallets(State(state): State<AppState>, MaybeUser(caller): MaybeUser) -> Result<Response, ApiError> {
    let lower: Vec<String> = dev_addresses().iter().map(|a| a.to_string().to_lowercase()).collect();
    let people = projections::queries::nft::people(&state.read, &lower).await.map_err(|e| ApiError::Internal(e.into()))?;
    let caller = caller.map(|id| id.to_string());
    let accounts: Vec<DevAccount> = dev_addresses()
        .iter()
        .zip(&lower)
        .enumerate()
        .map(|(index, (address, key))| {
            let person = people.get(key);
            DevAccount {
                index: index as u32,
                address: address.to_checksum(None),
                mine: person.is_some_and(|p| caller.as_deref() == Some(p.user_id.as_str())),
                linked_to: person.map(|p| DevAccountUser {
                    user_id: p.user_id.clone(),
                    username: p.username.clone(),
                    full_name: p.full_name.clone(),
                }),
            }
        })
        .collect();
    Ok(ok(accounts, "Dev wallet accounts"))
}
