//! `/api/account/*`: the signed-in user's profile (read and multipart edit with avatar and
//! cover image), anyone's public profile, and wallet linking with Sign-In with Ethereum.

use axum::{
    Router,
    extract::{
        DefaultBodyLimit, Multipart, Path, State,
        multipart::{Field, MultipartRejection},
    },
    http::{HeaderMap, header},
    response::Response,
    routing::{get, put},
};
use chrono::Utc;
use domain::accounts::{AccountError, ClaimKind, UserCommand, WalletProvider, decide, repo, validate};
use projections::accounts::{UserProfile, own_profile, public_profile};
use serde::Deserialize;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::{
    AppState,
    auth::{AuthUser, Payload, execute, load_signed_in, secrets, siwe},
    error::{ApiError, ok},
    files,
};

/// Room for the text fields and multipart framing beside two images.
const FORM_OVERHEAD: usize = 1024 * 1024;

/// The `/api/account` routes; the profile update refuses bodies over two images of
/// `max_image_bytes` before reading them.
pub fn router(max_image_bytes: usize) -> Router<AppState> {
    Router::new()
        .route(
            "/api/account/myprofile",
            get(my_profile).put(update_profile).layer(DefaultBodyLimit::max(2 * max_image_bytes + FORM_OVERHEAD)),
        )
        .route("/api/account/getuserprofile/{user_id}", get(user_profile))
        .route("/api/account/walletnonce", get(wallet_nonce))
        .route("/api/account/connectwallet", put(connect_wallet))
        .route("/api/account/disconnectwallet", put(disconnect_wallet))
}

fn file_url(cid: &Option<String>) -> String {
    cid.as_ref().map(|cid| format!("/ipfs/{cid}")).unwrap_or_default()
}

fn wallets(profile: &UserProfile) -> Value {
    profile
        .wallets
        .iter()
        .map(|w| json!({ "walletProvider": w.provider, "walletAddress": w.address }))
        .collect()
}

/// The owner's view: everything, e-mail and mobile number included.
fn own_body(profile: &UserProfile) -> Value {
    json!({
        "userId": profile.user_id,
        "email": profile.email,
        "username": profile.username,
        "fullName": profile.full_name,
        "mobileNumber": profile.mobile_number,
        "avatar": file_url(&profile.avatar),
        "bio": profile.bio,
        "coverImage": file_url(&profile.cover_image),
        "authProvider": profile.auth_provider,
        "connectedWallet": wallets(profile),
    })
}

/// Everyone else's view: never the e-mail or mobile number.
fn public_body(profile: &UserProfile) -> Value {
    json!({
        "userId": profile.user_id,
        "username": profile.username,
        "fullName": profile.full_name,
        "avatar": file_url(&profile.avatar),
        "bio": profile.bio,
        "coverImage": file_url(&profile.cover_image),
        "connectedWallet": wallets(profile),
    })
}

async fn own(state: &AppState, user_id: Uuid) -> Result<Value, ApiError> {
    let profile = own_profile(&state.read, &user_id.to_string()).await.map_err(|e| ApiError::Internal(e.into()))?;
    // A valid token for a user the read tables do not know: treat as signed out.
    profile.as_ref().map(own_body).ok_or(ApiError::Unauthorized)
}

async fn my_profile(State(state): State<AppState>, me: AuthUser) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    Ok(ok(own(&state, me.0).await?, "Profile fetched"))
}

async fn user_profile(State(state): State<AppState>, Path(user_id): Path<String>) -> Result<Response, ApiError> {
    let not_found = || ApiError::NotFound("User not found".into());
    let user_id: Uuid = user_id.trim().parse().map_err(|_| not_found())?;
    let profile = public_profile(&state.read, &user_id.to_string()).await.map_err(|e| ApiError::Internal(e.into()))?;
    Ok(ok(profile.as_ref().map(public_body).ok_or_else(not_found)?, "Profile fetched"))
}

/// Reads a file field, refusing it past `max` bytes without buffering more.
async fn read_image(mut field: Field<'_>, name: &str, max: usize) -> Result<Vec<u8>, ApiError> {
    let mut bytes = Vec::new();
    while let Some(chunk) = field.chunk().await? {
        if bytes.len() + chunk.len() > max {
            return Err(ApiError::PayloadTooLarge(format!("{name}: the image is larger than {} bytes", max)));
        }
        bytes.extend_from_slice(&chunk);
    }
    if !bytes.is_empty() && files::image_type(&bytes).is_none() {
        return Err(ApiError::BadRequest(format!("{name}: not an image (PNG, JPEG, GIF, WebP or SVG)")));
    }
    Ok(bytes)
}

async fn update_profile(
    State(state): State<AppState>,
    me: AuthUser,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<Response, ApiError> {
    let mut multipart = multipart?;
    let max = state.config.max_image_bytes;
    let (mut full_name, mut username, mut bio, mut mobile_number) = (None, None, None, None);
    let (mut avatar, mut cover_image) = (None, None);
    while let Some(field) = multipart.next_field().await? {
        let name = field.name().unwrap_or_default().to_owned();
        match name.as_str() {
            "fullName" => full_name = Some(field.text().await?),
            "username" => username = Some(field.text().await?).filter(|u| !u.trim().is_empty()),
            "bio" => bio = Some(field.text().await?),
            "mobileNumber" => mobile_number = Some(field.text().await?),
            "avatar" => avatar = Some(read_image(field, &name, max).await?).filter(|b| !b.is_empty()),
            "coverImage" => cover_image = Some(read_image(field, &name, max).await?).filter(|b| !b.is_empty()),
            // Other fields (the disabled e-mail, say) change nothing.
            _ => {}
        }
    }
    let command = UserCommand::UpdateProfile {
        full_name,
        username: username.clone(),
        bio,
        mobile_number,
        avatar: avatar.as_deref().map(files::cid::cid_v1),
        cover_image: cover_image.as_deref().map(files::cid::cid_v1),
    };
    // Every check before any file is stored: a refused edit leaves nothing behind.
    let user = load_signed_in(&state, me).await?;
    decide(&user, command.clone())?;
    if let Some(name) = username.as_deref().map(str::trim).filter(|n| !n.eq_ignore_ascii_case(&user.username)) {
        match repo::find(state.store.as_ref(), ClaimKind::Username, name).await? {
            Some(holder) if holder != me.0 => return Err(AccountError::UsernameTaken.into()),
            _ => {}
        }
    }
    for bytes in [avatar, cover_image].into_iter().flatten() {
        state.files.put(bytes).await.map_err(|e| ApiError::Internal(e.into()))?;
    }
    execute(&state, me.0, |u| decide(u, command.clone())).await?;
    Ok(ok(own(&state, me.0).await?, "Profile updated successfully"))
}

async fn wallet_nonce(State(state): State<AppState>, me: AuthUser) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let nonce = secrets::new_nonce();
    let now = Utc::now();
    execute(&state, me.0, |u| decide(u, UserCommand::IssueWalletNonce { nonce: nonce.clone(), now })).await?;
    Ok(ok(json!({ "nonce": nonce }), "Sign the message with this nonce to link your wallet"))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ConnectWalletRequest {
    wallet_provider: String,
    wallet_address: String,
    message: String,
    signature: String,
}

/// The domains a SIWE message may name: configured, else the host this request came to.
fn siwe_domains(state: &AppState, headers: &HeaderMap) -> Vec<String> {
    if !state.config.siwe_domains.is_empty() {
        return state.config.siwe_domains.iter().map(|d| d.trim().to_owned()).filter(|d| !d.is_empty()).collect();
    }
    headers.get(header::HOST).and_then(|h| h.to_str().ok()).map(|h| vec![h.to_owned()]).unwrap_or_default()
}

async fn connect_wallet(
    State(state): State<AppState>,
    me: AuthUser,
    headers: HeaderMap,
    Payload(req): Payload<ConnectWalletRequest>,
) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let provider = WalletProvider::parse(req.wallet_provider.trim())
        .ok_or_else(|| ApiError::BadRequest("walletProvider: must be Metamask, Coinbase or Other".into()))?;
    let address = validate::wallet_address(&req.wallet_address)?;
    let domains = siwe_domains(&state, &headers);
    let expected = siwe::Expected { domains: &domains, address: &address, chain_id: state.config.chain_id, now: Utc::now() };
    let message = siwe::verify(&req.message, &req.signature, &expected).map_err(ApiError::BadRequest)?;
    let now = Utc::now();
    let command = UserCommand::LinkWallet { provider, address, nonce: message.nonce, now };
    execute(&state, me.0, |u| decide(u, command.clone())).await?;
    Ok(ok(own(&state, me.0).await?, "Connected!"))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DisconnectWalletRequest {
    wallet_address: String,
}

async fn disconnect_wallet(
    State(state): State<AppState>,
    me: AuthUser,
    Payload(req): Payload<DisconnectWalletRequest>,
) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let now = Utc::now();
    let command = UserCommand::UnlinkWallet { address: req.wallet_address, now };
    execute(&state, me.0, |u| decide(u, command.clone())).await?;
    Ok(ok(own(&state, me.0).await?, "Wallet disconnected"))
}
