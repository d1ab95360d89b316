//! `/api/auth/*`: sign-up, verification, login (password and Google), password reset and
//! change, e-mail change.
//!
//! Every state change is a command on the user's stream ([`domain::accounts::decide`]); this
//! layer validates input, hashes secrets, sends mail, applies rate limits and answers in the
//! envelope.

use axum::{
    extract::{Query, State, rejection::QueryRejection},
    response::Response,
};
use chrono::Utc;
use domain::accounts::{
    AccountError, ClaimKind, UserCommand, decide, rejection,
    repo::{self, CommandError},
    validate,
};
use serde::{Deserialize, Deserializer, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};
use uuid::Uuid;

use super::openapi::{BadRequest, Conflict, Forbidden, SignedIn, TooManyRequests};
use crate::{
    http::{
        AppState,
        auth::{AuthUser, ClientIp, MaybeUser, Payload, execute, load_signed_in, password, secrets},
        error::{ApiError, Envelope, Null, ok},
    },
    mail,
};

/// Purposes the keyed hashes are bound to (a code for one can never pass as another).
const ACCOUNT_CODE: &str = "ACCOUNT";
const EMAIL_CHANGE_CODE: &str = "EMAIL_CHANGE";
const RESET_TOKEN: &str = "RESET";

/// The `/api/auth` routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(register))
        .routes(routes!(check_username))
        .routes(routes!(verify_account))
        .routes(routes!(login))
        .routes(routes!(google_login))
        .routes(routes!(request_password_reset))
        .routes(routes!(reset_password))
        .routes(routes!(change_password))
        .routes(routes!(change_email))
        .routes(routes!(verify_email_change))
}

/// The body of every successful sign-in.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct AccessToken {
    /// The bearer token (a JWT) for the `Authorization` header.
    access_token: String,
}

/// A code typed into a numeric field may arrive as a JSON number: take either.
fn code_text<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Code {
        Text(String),
        Number(u64),
    }
    Ok(match Code::deserialize(d)? {
        Code::Text(text) => text,
        // Leading zeros are lost in a number; codes are always 6 digits.
        Code::Number(n) => format!("{n:06}"),
    })
}

fn with_attempts(err: AccountError) -> ApiError {
    match err {
        AccountError::WrongCode { attempts_left: 0 } => {
            ApiError::BadRequest("Invalid verification code; no attempts left, request a new code".into())
        }
        AccountError::WrongCode { attempts_left } => {
            ApiError::BadRequest(format!("Invalid verification code; {attempts_left} attempts left"))
        }
        other => other.into(),
    }
}

/// A new account; every field required.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct RegisterRequest {
    /// E-mail address.
    #[schema(format = "email", max_length = 254)]
    email: String,
    /// Full name.
    #[schema(max_length = 100)]
    full_name: String,
    /// Username (`userName` is accepted too).
    #[serde(alias = "userName")]
    #[schema(max_length = 30)]
    username: String,
    /// Password.
    #[schema(format = Password, max_length = 128)]
    password: String,
    /// The same password again.
    #[schema(format = Password, max_length = 128)]
    confirm_password: String,
}

/// The new account.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct Registered {
    /// Its id.
    user_id: Uuid,
    /// Its e-mail, normalised.
    email: String,
}

/// Creates an account and mails a verification code to it.
#[utoipa::path(
    post,
    path = "/api/auth/register",
    tag = "auth",
    security(()),
    request_body(content((RegisterRequest = "application/json"), (RegisterRequest = "application/x-www-form-urlencoded"))),
    responses(
        (status = 200, description = "Registered; a code was mailed", body = Envelope<Registered>),
        (status = 400, response = BadRequest),
        (status = 409, response = Conflict),
        (status = 429, response = TooManyRequests),
    ),
)]
async fn register(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Payload(req): Payload<RegisterRequest>,
) -> Result<Response, ApiError> {
    let email = validate::email("email", &req.email)?;
    validate::required("fullName", &req.full_name, validate::MAX_FULL_NAME)?;
    let username = validate::username(&req.username)?;
    validate::new_password("password", &req.password, &req.confirm_password, "Password doesn't match")?;
    state.accounts.limits.check("register", ip, Some(&email)).await?;
    // Clear answers before the expensive hash; the claim streams decide for real at append.
    if repo::find(state.store.as_ref(), ClaimKind::Email, &email).await?.is_some() {
        return Err(AccountError::EmailTaken.into());
    }
    if repo::find(state.store.as_ref(), ClaimKind::Username, &username).await?.is_some() {
        return Err(AccountError::UsernameTaken.into());
    }
    let password_hash = password::hash(req.password).await?;
    let user_id = Uuid::now_v7();
    let code = secrets::new_code();
    let code_hash = state.accounts.keys.digest(ACCOUNT_CODE, user_id, &code);
    let now = Utc::now();
    let command =
        UserCommand::Register { user_id, email: email.clone(), username, full_name: req.full_name, password_hash, code_hash, now };
    execute(&state, user_id, |user| decide(user, command.clone())).await?;
    state.send_mail(mail::account_code(&email, &code)).await;
    Ok(ok(Registered { user_id, email }, "Registration successful. A verification code has been sent to your email"))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct CheckUsernameQuery {
    /// The username to check (required).
    #[param(max_length = 30)]
    username: Option<String>,
}

/// Whether a username is free.
///
/// The answer is the message, 'Username is Available' or 'Username is not Available'. One's own
/// current name is available to oneself.
#[utoipa::path(
    get,
    path = "/api/auth/checkusername",
    tag = "auth",
    params(CheckUsernameQuery),
    security((), ("bearer" = [])),
    responses((status = 200, description = "The message says whether it is available", body = Envelope<Null>), (status = 400, response = BadRequest)),
)]
async fn check_username(
    State(state): State<AppState>,
    MaybeUser(me): MaybeUser,
    query: Result<Query<CheckUsernameQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query?;
    let username = validate::username(query.username.as_deref().unwrap_or_default())?;
    let holder = repo::find(state.store.as_ref(), ClaimKind::Username, &username).await?;
    // One's own current name is "available" to oneself (the edit form checks it on blur).
    let available = holder.is_none() || (holder.is_some() && holder == me);
    Ok(ok(Null, if available { "Username is Available" } else { "Username is not Available" }))
}

/// The code mailed at sign-up.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct VerifyAccountRequest {
    /// The 6-digit code (a JSON number is accepted too).
    #[serde(deserialize_with = "code_text")]
    #[schema(example = "123456", max_length = 16)]
    verification_code: String,
    /// The account's e-mail.
    #[schema(format = "email", max_length = 254)]
    email: String,
}

/// Verifies an account with its code and signs it in.
///
/// 'User is already verified' (with a null body) also counts as success.
#[utoipa::path(
    post,
    path = "/api/auth/verifyaccount",
    tag = "auth",
    security(()),
    request_body(content((VerifyAccountRequest = "application/json"), (VerifyAccountRequest = "application/x-www-form-urlencoded"))),
    responses(
        (status = 200, description = "Verified and signed in; `body` is null when it was already verified", body = Envelope<Option<AccessToken>>),
        (status = 400, response = BadRequest),
        (status = 429, response = TooManyRequests),
    ),
)]
async fn verify_account(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Payload(req): Payload<VerifyAccountRequest>,
) -> Result<Response, ApiError> {
    let email = validate::email("email", &req.email)?;
    let code = validate::code(&req.verification_code)?;
    state.accounts.limits.check("verify", ip, Some(&email)).await?;
    let Some(user_id) = repo::find(state.store.as_ref(), ClaimKind::Email, &email).await? else {
        return Err(ApiError::BadRequest("Invalid verification code".into()));
    };
    let code_hash = state.accounts.keys.digest(ACCOUNT_CODE, user_id, &code);
    let now = Utc::now();
    let executed =
        match execute(&state, user_id, |user| decide(user, UserCommand::VerifyAccount { code_hash: code_hash.clone(), now })).await {
            Err(CommandError::Rejected(AccountError::AlreadyVerified)) => return Ok(ok(Null, "User is already verified")),
            other => other?,
        };
    if let Some(err) = rejection(&executed.events) {
        return Err(with_attempts(err));
    }
    let token = state.accounts.tokens.issue(user_id).map_err(|e| ApiError::Internal(e.into()))?;
    Ok(ok(AccessToken { access_token: token }, "Account verified successfully"))
}

/// E-mail and password.
#[derive(Deserialize, ToSchema)]
struct LoginRequest {
    /// E-mail address.
    #[schema(format = "email", max_length = 254)]
    email: String,
    /// Password.
    #[schema(format = Password, max_length = 128)]
    password: String,
}

/// Signs in with e-mail and password.
///
/// On an unverified account with the right password a fresh code is mailed and the answer is 403.
#[utoipa::path(
    post,
    path = "/api/auth/login",
    tag = "auth",
    security(()),
    request_body(content((LoginRequest = "application/json"), (LoginRequest = "application/x-www-form-urlencoded"))),
    responses(
        (status = 200, description = "Signed in", body = Envelope<AccessToken>),
        (status = 400, response = BadRequest),
        (status = 401, description = "Wrong e-mail or password", body = Envelope<Null>),
        (status = 403, response = Forbidden),
        (status = 429, response = TooManyRequests),
    ),
)]
async fn login(State(state): State<AppState>, ClientIp(ip): ClientIp, Payload(req): Payload<LoginRequest>) -> Result<Response, ApiError> {
    let email = validate::email("email", &req.email)?;
    if req.password.is_empty() {
        return Err(ApiError::BadRequest("password: Required".into()));
    }
    state.accounts.limits.check("login", ip, Some(&email)).await?;
    let user_id = repo::find(state.store.as_ref(), ClaimKind::Email, &email).await?;
    let user = match user_id {
        Some(id) => repo::load(state.store.as_ref(), id).await?.user,
        None => Default::default(),
    };
    let valid = password::verify(req.password, user.password_hash.clone()).await;
    match (user.check_login(valid), user_id) {
        (Ok(()), Some(id)) => {
            let token = state.accounts.tokens.issue(id).map_err(|e| ApiError::Internal(e.into()))?;
            Ok(ok(AccessToken { access_token: token }, "Login successful"))
        }
        (Err(AccountError::NotVerified), Some(id)) => {
            // The right password on an unverified account: a fresh code goes out.
            let code = secrets::new_code();
            let code_hash = state.accounts.keys.digest(ACCOUNT_CODE, id, &code);
            let now = Utc::now();
            execute(&state, id, |u| decide(u, UserCommand::IssueVerificationCode { code_hash: code_hash.clone(), now })).await?;
            state.send_mail(mail::account_code(&user.email, &code)).await;
            Err(AccountError::NotVerified.into())
        }
        (Err(err), _) => Err(err.into()),
        (Ok(()), None) => Err(AccountError::InvalidCredentials.into()),
    }
}

/// A Google ID token.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct GoogleLoginRequest {
    /// The ID token Google Identity Services gave the page (`credential` is accepted too).
    #[serde(alias = "credential")]
    #[schema(max_length = 4096)]
    id_token: String,
}

/// A username from the e-mail's local part, made valid.
fn username_base(email: &str) -> String {
    let local = email.split('@').next().unwrap_or_default();
    let mut base: String = local.chars().filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')).take(24).collect();
    while base.len() < 3 {
        base.push('_');
    }
    base
}

async fn free_username(state: &AppState, email: &str) -> Result<String, ApiError> {
    let base = username_base(email);
    if repo::find(state.store.as_ref(), ClaimKind::Username, &base).await?.is_none() {
        return Ok(base);
    }
    for _ in 0..10 {
        let candidate = format!("{base}{}", &secrets::new_code()[..4]);
        if repo::find(state.store.as_ref(), ClaimKind::Username, &candidate).await?.is_none() {
            return Ok(candidate);
        }
    }
    Ok(format!("{base}{}", &secrets::new_nonce()[..6]))
}

/// Signs in with Google, creating the account on first use.
///
/// 400 when Google sign-in is not configured or the token does not verify.
#[utoipa::path(
    post,
    path = "/api/auth/googlelogin",
    tag = "auth",
    security(()),
    request_body(content((GoogleLoginRequest = "application/json"), (GoogleLoginRequest = "application/x-www-form-urlencoded"))),
    responses(
        (status = 200, description = "Signed in", body = Envelope<AccessToken>),
        (status = 400, response = BadRequest),
        (status = 409, response = Conflict),
        (status = 429, response = TooManyRequests),
    ),
)]
async fn google_login(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Payload(req): Payload<GoogleLoginRequest>,
) -> Result<Response, ApiError> {
    if !state.accounts.google.configured() {
        return Err(ApiError::BadRequest("Google sign-in is not configured".into()));
    }
    state.accounts.limits.check("google", ip, None).await?;
    let identity = state.accounts.google.verify(req.id_token.trim()).await.map_err(ApiError::BadRequest)?;
    let email = validate::email("email", &identity.email)?;
    let now = Utc::now();
    for _ in 0..3 {
        if let Some(user_id) = repo::find(state.store.as_ref(), ClaimKind::Email, &email).await? {
            let subject = identity.subject.clone();
            execute(&state, user_id, |u| decide(u, UserCommand::SignInWithGoogle { google_subject: subject.clone(), now })).await?;
            let token = state.accounts.tokens.issue(user_id).map_err(|e| ApiError::Internal(e.into()))?;
            return Ok(ok(AccessToken { access_token: token }, "Login successful"));
        }
        let user_id = Uuid::now_v7();
        let command = UserCommand::RegisterWithGoogle {
            user_id,
            email: email.clone(),
            username: free_username(&state, &email).await?,
            full_name: identity.name.clone().unwrap_or_default(),
            google_subject: identity.subject.clone(),
            now,
        };
        match execute(&state, user_id, |u| decide(u, command.clone())).await {
            Ok(_) => {
                let token = state.accounts.tokens.issue(user_id).map_err(|e| ApiError::Internal(e.into()))?;
                return Ok(ok(AccessToken { access_token: token }, "Login successful"));
            }
            // Someone took the name or signed up with this e-mail meanwhile: look again.
            Err(CommandError::Rejected(AccountError::UsernameTaken | AccountError::EmailTaken)) => continue,
            Err(err) => return Err(err.into()),
        }
    }
    Err(ApiError::Conflict("Could not create the account, please try again".into()))
}

/// The account to reset.
#[derive(Deserialize, ToSchema)]
struct ResetRequest {
    /// Its e-mail.
    #[schema(format = "email", max_length = 254)]
    email: String,
}

/// Mails a password reset link.
///
/// Only if the address has a password account; the answer is the same either way.
#[utoipa::path(
    put,
    path = "/api/auth/reset-account-password",
    tag = "auth",
    security(()),
    request_body(content((ResetRequest = "application/json"), (ResetRequest = "application/x-www-form-urlencoded"))),
    responses((status = 200, description = "Done; the message says what happened", body = Envelope<Null>), (status = 400, response = BadRequest), (status = 429, response = TooManyRequests)),
)]
async fn request_password_reset(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Payload(req): Payload<ResetRequest>,
) -> Result<Response, ApiError> {
    let email = validate::email("email", &req.email)?;
    state.accounts.limits.check("reset", ip, Some(&email)).await?;
    if let Some(user_id) = repo::find(state.store.as_ref(), ClaimKind::Email, &email).await? {
        let token = secrets::new_token();
        let token_hash = state.accounts.keys.digest(RESET_TOKEN, user_id, &token);
        let now = Utc::now();
        match execute(&state, user_id, |u| decide(u, UserCommand::RequestPasswordReset { token_hash: token_hash.clone(), now })).await {
            Ok(_) => {
                let link = format!("{}/passwordreset/{user_id}.{token}", state.config.site_url());
                state.send_mail(mail::reset_link(&email, &link)).await;
            }
            // GOOGLE accounts have no password here; say nothing different.
            Err(CommandError::Rejected(_)) => {}
            Err(err) => return Err(err.into()),
        }
    }
    // The same answer whether or not the address has an account.
    Ok(ok(Null, "If an account exists for this email, a password reset link has been sent to it"))
}

/// A new password with the token from the reset link.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ResetPasswordRequest {
    /// The last path segment of the reset link (`{userId}.{token}`).
    #[schema(max_length = 200)]
    reset_password_token: String,
    /// The new password.
    #[schema(format = Password, max_length = 128)]
    new_password: String,
    /// The same again (`confirmNewPassword` is accepted too).
    #[serde(alias = "confirmNewPassword")]
    #[schema(format = Password, max_length = 128)]
    confirm_password: String,
}

/// Sets a new password with a reset link's token; every session ends.
#[utoipa::path(
    put,
    path = "/api/auth/resetpassword-changepassword",
    tag = "auth",
    security(()),
    request_body(content((ResetPasswordRequest = "application/json"), (ResetPasswordRequest = "application/x-www-form-urlencoded"))),
    responses((status = 200, description = "Done; the message says what happened", body = Envelope<Null>), (status = 400, response = BadRequest), (status = 429, response = TooManyRequests)),
)]
async fn reset_password(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Payload(req): Payload<ResetPasswordRequest>,
) -> Result<Response, ApiError> {
    validate::new_password("newPassword", &req.new_password, &req.confirm_password, "Password doesn't match")?;
    state.accounts.limits.check("reset-password", ip, None).await?;
    let invalid = || ApiError::from(AccountError::InvalidResetToken);
    let (user_id, token) = req.reset_password_token.trim().split_once('.').ok_or_else(invalid)?;
    let user_id: Uuid = user_id.parse().map_err(|_| invalid())?;
    let token_hash = state.accounts.keys.digest(RESET_TOKEN, user_id, token);
    let now = Utc::now();
    // Check the link before spending a hash on it.
    let loaded = repo::load(state.store.as_ref(), user_id).await?;
    let probe = UserCommand::ResetPassword { token_hash: token_hash.clone(), new_password_hash: String::new(), now };
    decide(&loaded.user, probe).map_err(|_| invalid())?;
    let new_password_hash = password::hash(req.new_password).await?;
    let command = UserCommand::ResetPassword { token_hash, new_password_hash, now };
    match execute(&state, user_id, |u| decide(u, command.clone())).await {
        Err(CommandError::Rejected(AccountError::UnknownUser)) => Err(invalid()),
        other => {
            other?;
            Ok(ok(Null, "Password has been reset. Login with your new password"))
        }
    }
}

/// The current password and a new one.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ChangePasswordRequest {
    /// The current password.
    #[schema(format = Password, max_length = 128)]
    current_password: String,
    /// The new password.
    #[schema(format = Password, max_length = 128)]
    new_password: String,
    /// The same again (`confirmNewPassword` is accepted too).
    #[serde(alias = "confirmNewPassword")]
    #[schema(format = Password, max_length = 128)]
    confirm_password: String,
}

/// Changes the signed-in user's password (not for Google accounts: 403).
#[utoipa::path(
    put,
    path = "/api/auth/change-account-password",
    tag = "auth",
    request_body(content((ChangePasswordRequest = "application/json"), (ChangePasswordRequest = "application/x-www-form-urlencoded"))),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Done; the message says what happened", body = Envelope<Null>),
        (status = 400, response = BadRequest),
        SignedIn,
        (status = 403, response = Forbidden),
        (status = 429, response = TooManyRequests),
    ),
)]
async fn change_password(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    me: AuthUser,
    Payload(req): Payload<ChangePasswordRequest>,
) -> Result<Response, ApiError> {
    let user = load_signed_in(&state, me).await?;
    if user.is_google() {
        return Err(AccountError::GooglePassword.into());
    }
    if req.current_password.is_empty() {
        return Err(ApiError::BadRequest("currentPassword: Required".into()));
    }
    validate::new_password("newPassword", &req.new_password, &req.confirm_password, "New password and confirm password doesn't match!")?;
    state.accounts.limits.check("change-password", ip, Some(&me.0.to_string())).await?;
    let valid = password::verify(req.current_password, user.password_hash.clone()).await;
    if !valid {
        return Err(AccountError::WrongPassword.into());
    }
    let new_password_hash = password::hash(req.new_password).await?;
    let now = Utc::now();
    execute(&state, me.0, |u| {
        decide(u, UserCommand::ChangePassword { current_password_valid: valid, new_password_hash: new_password_hash.clone(), now })
    })
    .await?;
    Ok(ok(Null, "Password changed successfully"))
}

/// The new e-mail address.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ChangeEmailRequest {
    /// The new address (`changedEmail` is accepted too).
    #[serde(alias = "changedEmail")]
    #[schema(format = "email", max_length = 254)]
    new_email: String,
}

/// Mails a code to a new address for the signed-in user (not for Google accounts: 403).
#[utoipa::path(
    put,
    path = "/api/auth/changeemail",
    tag = "auth",
    request_body(content((ChangeEmailRequest = "application/json"), (ChangeEmailRequest = "application/x-www-form-urlencoded"))),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Done; the message says what happened", body = Envelope<Null>),
        (status = 400, response = BadRequest),
        SignedIn,
        (status = 403, response = Forbidden),
        (status = 409, response = Conflict),
        (status = 429, response = TooManyRequests),
    ),
)]
async fn change_email(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    me: AuthUser,
    Payload(req): Payload<ChangeEmailRequest>,
) -> Result<Response, ApiError> {
    let user = load_signed_in(&state, me).await?;
    if user.is_google() {
        return Err(AccountError::GoogleEmail.into());
    }
    let new_email = validate::email("newEmail", &req.new_email)?;
    state.accounts.limits.check("change-email", ip, Some(&me.0.to_string())).await?;
    match repo::find(state.store.as_ref(), ClaimKind::Email, &new_email).await? {
        Some(holder) if holder != me.0 => return Err(AccountError::EmailTaken.into()),
        _ => {}
    }
    let code = secrets::new_code();
    let code_hash = state.accounts.keys.digest(EMAIL_CHANGE_CODE, me.0, &code);
    let now = Utc::now();
    let command = UserCommand::RequestEmailChange { new_email: new_email.clone(), code_hash, now };
    execute(&state, me.0, |u| decide(u, command.clone())).await?;
    state.send_mail(mail::email_change_code(&new_email, &code)).await;
    Ok(ok(Null, "A verification code has been sent to your new email"))
}

/// The new address and the code mailed to it.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct VerifyEmailChangeRequest {
    /// The new address (`changedEmail` is accepted too).
    #[serde(alias = "changedEmail")]
    #[schema(format = "email", max_length = 254)]
    new_email: String,
    /// The 6-digit code (`otp` is accepted too; a JSON number too).
    #[serde(deserialize_with = "code_text", alias = "otp")]
    #[schema(example = "123456", max_length = 16)]
    verification_code: String,
}

/// Confirms the e-mail change with its code; every session ends, so the user signs in again.
#[utoipa::path(
    put,
    path = "/api/auth/verifyemailchange",
    tag = "auth",
    request_body(content((VerifyEmailChangeRequest = "application/json"), (VerifyEmailChangeRequest = "application/x-www-form-urlencoded"))),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Done; the message says what happened", body = Envelope<Null>),
        (status = 400, response = BadRequest),
        SignedIn,
        (status = 403, response = Forbidden),
        (status = 409, response = Conflict),
        (status = 429, response = TooManyRequests),
    ),
)]
async fn verify_email_change(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    me: AuthUser,
    Payload(req): Payload<VerifyEmailChangeRequest>,
) -> Result<Response, ApiError> {
    let user = load_signed_in(&state, me).await?;
    if user.is_google() {
        return Err(AccountError::GoogleEmail.into());
    }
    let code = validate::code(&req.verification_code)?;
    state.accounts.limits.check("verify-email", ip, Some(&me.0.to_string())).await?;
    let code_hash = state.accounts.keys.digest(EMAIL_CHANGE_CODE, me.0, &code);
    let now = Utc::now();
    let command = UserCommand::ConfirmEmailChange { new_email: req.new_email, code_hash, now };
    let executed = execute(&state, me.0, |u| decide(u, command.clone())).await?;
    if let Some(err) = rejection(&executed.events) {
        return Err(with_attempts(err));
    }
    Ok(ok(Null, "Login again with new email and same credentials"))
}
