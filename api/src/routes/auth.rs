//! `/api/auth/*`: sign-up, verification, login (password and Google), password reset and
//! change, e-mail change.
//!
//! Every state change is a command on the user's stream ([`domain::accounts::decide`]); this
//! layer validates input, hashes secrets, sends mail, applies rate limits and answers in the
//! envelope.

use axum::{
    Router,
    extract::{Query, State, rejection::QueryRejection},
    response::Response,
    routing::{get, post, put},
};
use chrono::Utc;
use domain::accounts::{
    AccountError, ClaimKind, UserCommand, decide, rejection,
    repo::{self, CommandError},
    validate,
};
use serde::{Deserialize, Deserializer};
use serde_json::json;
use uuid::Uuid;

use crate::{
    AppState,
    auth::{AuthUser, ClientIp, MaybeUser, Payload, execute, load_signed_in, password, secrets},
    error::{ApiError, ok},
    mail,
};

/// Purposes the keyed hashes are bound to (a code for one can never pass as another).
const ACCOUNT_CODE: &str = "ACCOUNT";
const EMAIL_CHANGE_CODE: &str = "EMAIL_CHANGE";
const RESET_TOKEN: &str = "RESET";

/// The `/api/auth` routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/auth/register", post(register))
        .route("/api/auth/checkusername", get(check_username))
        .route("/api/auth/verifyaccount", post(verify_account))
        .route("/api/auth/login", post(login))
        .route("/api/auth/googlelogin", post(google_login))
        .route("/api/auth/reset-account-password", put(request_password_reset))
        .route("/api/auth/resetpassword-changepassword", put(reset_password))
        .route("/api/auth/change-account-password", put(change_password))
        .route("/api/auth/changeemail", put(change_email))
        .route("/api/auth/verifyemailchange", put(verify_email_change))
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

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RegisterRequest {
    email: String,
    full_name: String,
    #[serde(alias = "userName")]
    username: String,
    password: String,
    confirm_password: String,
}

async fn register(State(state): State<AppState>, ClientIp(ip): ClientIp, Payload(req): Payload<RegisterRequest>) -> Result<Response, ApiError> {
    let email = validate::email("email", &req.email)?;
    validate::required("fullName", &req.full_name, validate::MAX_FULL_NAME)?;
    let username = validate::username(&req.username)?;
    validate::new_password("password", &req.password, &req.confirm_password, "Password doesn't match")?;
    state.accounts.limits.check("register", ip, Some(&email))?;
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
    let command = UserCommand::Register {
        user_id,
        email: email.clone(),
        username,
        full_name: req.full_name,
        password_hash,
        code_hash,
        now,
    };
    execute(&state, user_id, |user| decide(user, command.clone())).await?;
    state.accounts.send(mail::account_code(&email, &code)).await;
    Ok(ok(json!({ "userId": user_id, "email": email }), "Registration successful. A verification code has been sent to your email"))
}

#[derive(Deserialize)]
struct CheckUsernameQuery {
    username: Option<String>,
}

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
    Ok(ok(json!(null), if available { "Username is Available" } else { "Username is not Available" }))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct VerifyAccountRequest {
    #[serde(deserialize_with = "code_text")]
    verification_code: String,
    email: String,
}

async fn verify_account(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Payload(req): Payload<VerifyAccountRequest>,
) -> Result<Response, ApiError> {
    let email = validate::email("email", &req.email)?;
    let code = validate::code(&req.verification_code)?;
    state.accounts.limits.check("verify", ip, Some(&email))?;
    let Some(user_id) = repo::find(state.store.as_ref(), ClaimKind::Email, &email).await? else {
        return Err(ApiError::BadRequest("Invalid verification code".into()));
    };
    let code_hash = state.accounts.keys.digest(ACCOUNT_CODE, user_id, &code);
    let now = Utc::now();
    let executed = match execute(&state, user_id, |user| decide(user, UserCommand::VerifyAccount { code_hash: code_hash.clone(), now })).await {
        Err(CommandError::Rejected(AccountError::AlreadyVerified)) => return Ok(ok(json!(null), "User is already verified")),
        other => other?,
    };
    if let Some(err) = rejection(&executed.events) {
        return Err(with_attempts(err));
    }
    let token = state.accounts.tokens.issue(user_id).map_err(|e| ApiError::Internal(e.into()))?;
    Ok(ok(json!({ "accessToken": token }), "Account verified successfully"))
}

#[derive(Deserialize)]
struct LoginRequest {
    email: String,
    password: String,
}

async fn login(State(state): State<AppState>, ClientIp(ip): ClientIp, Payload(req): Payload<LoginRequest>) -> Result<Response, ApiError> {
    let email = validate::email("email", &req.email)?;
    if req.password.is_empty() {
        return Err(ApiError::BadRequest("password: Required".into()));
    }
    state.accounts.limits.check("login", ip, Some(&email))?;
    let user_id = repo::find(state.store.as_ref(), ClaimKind::Email, &email).await?;
    let user = match user_id {
        Some(id) => repo::load(state.store.as_ref(), id).await?.user,
        None => Default::default(),
    };
    let valid = password::verify(req.password, user.password_hash.clone()).await;
    match (user.check_login(valid), user_id) {
        (Ok(()), Some(id)) => {
            let token = state.accounts.tokens.issue(id).map_err(|e| ApiError::Internal(e.into()))?;
            Ok(ok(json!({ "accessToken": token }), "Login successful"))
        }
        (Err(AccountError::NotVerified), Some(id)) => {
            // The right password on an unverified account: a fresh code goes out.
            let code = secrets::new_code();
            let code_hash = state.accounts.keys.digest(ACCOUNT_CODE, id, &code);
            let now = Utc::now();
            execute(&state, id, |u| decide(u, UserCommand::IssueVerificationCode { code_hash: code_hash.clone(), now })).await?;
            state.accounts.send(mail::account_code(&user.email, &code)).await;
            Err(AccountError::NotVerified.into())
        }
        (Err(err), _) => Err(err.into()),
        (Ok(()), None) => Err(AccountError::InvalidCredentials.into()),
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GoogleLoginRequest {
    #[serde(alias = "credential")]
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

async fn google_login(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Payload(req): Payload<GoogleLoginRequest>,
) -> Result<Response, ApiError> {
    if !state.accounts.google.configured() {
        return Err(ApiError::BadRequest("Google sign-in is not configured".into()));
    }
    state.accounts.limits.check("google", ip, None)?;
    let identity = state.accounts.google.verify(req.id_token.trim()).await.map_err(ApiError::BadRequest)?;
    let email = validate::email("email", &identity.email)?;
    let now = Utc::now();
    for _ in 0..3 {
        if let Some(user_id) = repo::find(state.store.as_ref(), ClaimKind::Email, &email).await? {
            let subject = identity.subject.clone();
            execute(&state, user_id, |u| decide(u, UserCommand::SignInWithGoogle { google_subject: subject.clone(), now })).await?;
            let token = state.accounts.tokens.issue(user_id).map_err(|e| ApiError::Internal(e.into()))?;
            return Ok(ok(json!({ "accessToken": token }), "Login successful"));
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
                return Ok(ok(json!({ "accessToken": token }), "Login successful"));
            }
            // Someone took the name or signed up with this e-mail meanwhile: look again.
            Err(CommandError::Rejected(AccountError::UsernameTaken | AccountError::EmailTaken)) => continue,
            Err(err) => return Err(err.into()),
        }
    }
    Err(ApiError::Conflict("Could not create the account, please try again".into()))
}

#[derive(Deserialize)]
struct ResetRequest {
    email: String,
}

/// The base of links in mails.
fn public_url(state: &AppState) -> String {
    state.config.public_url.clone().unwrap_or_else(|| format!("http://{}", state.config.listen)).trim_end_matches('/').to_owned()
}

async fn request_password_reset(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Payload(req): Payload<ResetRequest>,
) -> Result<Response, ApiError> {
    let email = validate::email("email", &req.email)?;
    state.accounts.limits.check("reset", ip, Some(&email))?;
    if let Some(user_id) = repo::find(state.store.as_ref(), ClaimKind::Email, &email).await? {
        let token = secrets::new_token();
        let token_hash = state.accounts.keys.digest(RESET_TOKEN, user_id, &token);
        let now = Utc::now();
        match execute(&state, user_id, |u| decide(u, UserCommand::RequestPasswordReset { token_hash: token_hash.clone(), now })).await {
            Ok(_) => {
                let link = format!("{}/passwordreset/{user_id}.{token}", public_url(&state));
                state.accounts.send(mail::reset_link(&email, &link)).await;
            }
            // GOOGLE accounts have no password here; say nothing different.
            Err(CommandError::Rejected(_)) => {}
            Err(err) => return Err(err.into()),
        }
    }
    // The same answer whether or not the address has an account.
    Ok(ok(json!(null), "If an account exists for this email, a password reset link has been sent to it"))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ResetPasswordRequest {
    reset_password_token: String,
    new_password: String,
    #[serde(alias = "confirmNewPassword")]
    confirm_password: String,
}

async fn reset_password(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Payload(req): Payload<ResetPasswordRequest>,
) -> Result<Response, ApiError> {
    validate::new_password("newPassword", &req.new_password, &req.confirm_password, "Password doesn't match")?;
    state.accounts.limits.check("reset-password", ip, None)?;
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
            Ok(ok(json!(null), "Password has been reset. Login with your new password"))
        }
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ChangePasswordRequest {
    current_password: String,
    new_password: String,
    #[serde(alias = "confirmNewPassword")]
    confirm_password: String,
}

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
    state.accounts.limits.check("change-password", ip, Some(&me.0.to_string()))?;
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
    Ok(ok(json!(null), "Password changed successfully"))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ChangeEmailRequest {
    #[serde(alias = "changedEmail")]
    new_email: String,
}

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
    state.accounts.limits.check("change-email", ip, Some(&me.0.to_string()))?;
    match repo::find(state.store.as_ref(), ClaimKind::Email, &new_email).await? {
        Some(holder) if holder != me.0 => return Err(AccountError::EmailTaken.into()),
        _ => {}
    }
    let code = secrets::new_code();
    let code_hash = state.accounts.keys.digest(EMAIL_CHANGE_CODE, me.0, &code);
    let now = Utc::now();
    let command = UserCommand::RequestEmailChange { new_email: new_email.clone(), code_hash, now };
    execute(&state, me.0, |u| decide(u, command.clone())).await?;
    state.accounts.send(mail::email_change_code(&new_email, &code)).await;
    Ok(ok(json!(null), "A verification code has been sent to your new email"))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct VerifyEmailChangeRequest {
    #[serde(alias = "changedEmail")]
    new_email: String,
    #[serde(deserialize_with = "code_text", alias = "otp")]
    verification_code: String,
}

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
    state.accounts.limits.check("verify-email", ip, Some(&me.0.to_string()))?;
    let code_hash = state.accounts.keys.digest(EMAIL_CHANGE_CODE, me.0, &code);
    let now = Utc::now();
    let command = UserCommand::ConfirmEmailChange { new_email: req.new_email, code_hash, now };
    let executed = execute(&state, me.0, |u| decide(u, command.clone())).await?;
    if let Some(err) = rejection(&executed.events) {
        return Err(with_attempts(err));
    }
    Ok(ok(json!(null), "Login again with new email and same credentials"))
}
