//! `/api/account/*`: the signed-in user's profile (read and multipart edit with avatar and
//! cover image), anyone's public profile, and wallet linking with Sign-In with Ethereum.

use axum::{
    extract::{
        DefaultBodyLimit, Multipart, Path, State,
        multipart::{Field, MultipartRejection},
    },
    http::{HeaderMap, header},
    response::Response,
};
use chrono::Utc;
use domain::accounts::{AccountError, ClaimKind, UserCommand, WalletProvider, decide, repo, validate};
use projections::accounts::{UserProfile, own_profile, public_profile};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{
    router::{OpenApiRouter, UtoipaMethodRouterExt},
    routes,
};
use uuid::Uuid;

use super::{
    limits::form_text,
    openapi::{BadRequest, Conflict, NotFound, PayloadTooLarge, SignedIn},
};
use crate::{
    chain, files,
    http::{
        AppState,
        auth::{AuthUser, Payload, execute, load_signed_in, secrets, siwe},
        error::{ApiError, Envelope, ok},
    },
};

/// Room for the text fields and multipart framing beside two images.
const FORM_OVERHEAD: usize = 1024 * 1024;

/// The `/api/account` routes; the profile update refuses bodies over two images of
/// `max_image_bytes` before reading them.
pub fn router(max_image_bytes: usize) -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(my_profile, update_profile).layer(DefaultBodyLimit::max(2 * max_image_bytes + FORM_OVERHEAD)))
        .routes(routes!(user_profile))
        .routes(routes!(wallet_nonce))
        .routes(routes!(connect_wallet))
        .routes(routes!(disconnect_wallet))
}

fn file_url(cid: &Option<String>) -> String {
    cid.as_ref().map(|cid| format!("/ipfs/{cid}")).unwrap_or_default()
}

/// A linked wallet.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct Wallet {
    /// The kind of wallet.
    #[schema(value_type = WalletKind)]
    wallet_provider: String,
    /// Lower-case 0x address.
    wallet_address: String,
}

/// The kind of wallet a link was made with.
#[derive(ToSchema)]
#[allow(dead_code, reason = "a schema only: the values domain::accounts::WalletProvider writes")]
enum WalletKind {
    Metamask,
    Coinbase,
    Other,
}

/// How an account signs in.
#[derive(ToSchema)]
#[allow(dead_code, clippy::upper_case_acronyms, reason = "a schema only: the values domain::accounts::AuthProvider writes")]
enum AuthProvider {
    EMAIL,
    GOOGLE,
}

fn wallets(profile: &UserProfile) -> Vec<Wallet> {
    profile.wallets.iter().map(|w| Wallet { wallet_provider: w.provider.clone(), wallet_address: w.address.clone() }).collect()
}

/// The owner's view of their profile: everything, e-mail and mobile number included.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct OwnProfile {
    /// User id.
    user_id: String,
    /// E-mail.
    email: String,
    /// Username.
    username: String,
    /// Full name.
    full_name: String,
    /// Mobile number.
    mobile_number: String,
    /// Avatar URL (`/ipfs/<cid>`) or "".
    avatar: String,
    /// About text.
    bio: String,
    /// Cover image URL (`/ipfs/<cid>`) or "".
    cover_image: String,
    /// How the account signs in (Google accounts cannot change e-mail or password).
    #[schema(value_type = AuthProvider)]
    auth_provider: String,
    /// Linked wallets, oldest first.
    connected_wallet: Vec<Wallet>,
}

fn own_body(profile: &UserProfile) -> OwnProfile {
    OwnProfile {
        user_id: profile.user_id.clone(),
        email: profile.email.clone(),
        username: profile.username.clone(),
        full_name: profile.full_name.clone(),
        mobile_number: profile.mobile_number.clone(),
        avatar: file_url(&profile.avatar),
        bio: profile.bio.clone(),
        cover_image: file_url(&profile.cover_image),
        auth_provider: profile.auth_provider.clone(),
        connected_wallet: wallets(profile),
    }
}

/// Everyone else's view of a profile: never the e-mail or mobile number.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct PublicProfile {
    /// User id.
    user_id: String,
    /// Username.
    username: String,
    /// Full name.
    full_name: String,
    /// Avatar URL (`/ipfs/<cid>`) or "".
    avatar: String,
    /// About text.
    bio: String,
    /// Cover image URL (`/ipfs/<cid>`) or "".
    cover_image: String,
    /// Linked wallets, oldest first.
    connected_wallet: Vec<Wallet>,
    /// The account was deleted: a deleted user, nothing personal left (the username is
    /// `deleted-` and part of the id); what they did on chain stays under the address.
    erased: bool,
}

fn public_body(profile: &UserProfile) -> PublicProfile {
    PublicProfile {
        user_id: profile.user_id.clone(),
        username: profile.username.clone(),
        full_name: profile.full_name.clone(),
        avatar: file_url(&profile.avatar),
        bio: profile.bio.clone(),
        cover_image: file_url(&profile.cover_image),
        connected_wallet: wallets(profile),
        erased: profile.erased_at.is_some(),
    }
}

async fn own(state: &AppState, user_id: Uuid) -> Result<OwnProfile, ApiError> {
    let profile = own_profile(&state.read, &user_id.to_string()).await.map_err(|e| ApiError::Internal(e.into()))?;
    // A valid token for a user the read tables do not know: treat as signed out.
    profile.as_ref().map(own_body).ok_or(ApiError::Unauthorized)
}

/// The signed-in user's profile.
#[utoipa::path(
    get,
    path = "/api/account/myprofile",
    tag = "account",
    security(("bearer" = [])),
    responses((status = 200, description = "The signed-in user's profile, as it is now", body = Envelope<OwnProfile>), SignedIn),
)]
async fn my_profile(State(state): State<AppState>, me: AuthUser) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    Ok(ok(own(&state, me.0).await?, "Profile fetched"))
}

/// Anyone's public profile.
#[utoipa::path(
    get,
    path = "/api/account/getuserprofile/{userId}",
    tag = "account",
    security(()),
    params(("userId" = String, Path, description = "The user's id (a UUID)")),
    responses((status = 200, description = "The public profile", body = Envelope<PublicProfile>), (status = 404, response = NotFound)),
)]
async fn user_profile(State(state): State<AppState>, Path(user_id): Path<String>) -> Result<Response, ApiError> {
    let not_found = || ApiError::NotFound("User not found".into());
    let user_id: Uuid = user_id.trim().parse().map_err(|_| not_found())?;
    let profile = public_profile(&state.read, &user_id.to_string()).await.map_err(|e| ApiError::Internal(e.into()))?;
    Ok(ok(profile.as_ref().map(public_body).ok_or_else(not_found)?, "Profile fetched"))
}

/// Reads a file field, refusing it past `max` bytes without buffering more, and anything but an
/// image by content (an SVG only if [`files::svg::problem`] finds none).
async fn read_image(mut field: Field<'_>, name: &str, max: usize) -> Result<Vec<u8>, ApiError> {
    let mut bytes = Vec::new();
    while let Some(chunk) = field.chunk().await? {
        if bytes.len() + chunk.len() > max {
            return Err(ApiError::PayloadTooLarge(format!("{name}: the image is larger than {} bytes", max)));
        }
        bytes.extend_from_slice(&chunk);
    }
    if bytes.is_empty() {
        return Ok(bytes);
    }
    match files::image_type(&bytes) {
        None => Err(ApiError::BadRequest(format!("{name}: not an image (PNG, JPEG, GIF, WebP or SVG)"))),
        Some("image/svg+xml") => match files::svg::problem(&bytes) {
            Some(problem) => Err(ApiError::BadRequest(format!("{name}: this SVG cannot be accepted: {problem}"))),
            None => Ok(bytes),
        },
        Some(_) => Ok(bytes),
    }
}

/// The profile edit form: text fields and two optional images. Fields left out are unchanged;
/// other fields (the disabled e-mail, say) are ignored.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "documents the multipart fields update_profile reads one by one")]
struct ProfileForm {
    /// Full name.
    #[schema(max_length = 100)]
    full_name: Option<String>,
    /// Username; blank leaves it unchanged.
    #[schema(max_length = 30)]
    username: Option<String>,
    /// About text.
    #[schema(max_length = 1000)]
    bio: Option<String>,
    /// Mobile number.
    #[schema(max_length = 20)]
    mobile_number: Option<String>,
    /// Avatar image (PNG, JPEG, GIF, WebP or SVG; at most `MAX_IMAGE_BYTES`); empty leaves it.
    #[schema(value_type = Option<String>, format = Binary, content_media_type = "application/octet-stream")]
    avatar: Option<Vec<u8>>,
    /// Cover image, as the avatar.
    #[schema(value_type = Option<String>, format = Binary, content_media_type = "application/octet-stream")]
    cover_image: Option<Vec<u8>>,
}

/// Edits the signed-in user's profile; every check runs before any image is stored.
#[utoipa::path(
    put,
    path = "/api/account/myprofile",
    tag = "account",
    request_body(content = ProfileForm, content_type = "multipart/form-data"),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The signed-in user's profile, as it is now", body = Envelope<OwnProfile>),
        (status = 400, response = BadRequest),
        SignedIn,
        (status = 409, response = Conflict),
        (status = 413, response = PayloadTooLarge),
    ),
)]
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
            "fullName" => full_name = Some(form_text::<ProfileForm>(field).await?),
            "username" => username = Some(form_text::<ProfileForm>(field).await?).filter(|u| !u.trim().is_empty()),
            "bio" => bio = Some(form_text::<ProfileForm>(field).await?),
            "mobileNumber" => mobile_number = Some(form_text::<ProfileForm>(field).await?),
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
        crate::files::store_upload(&state.files, &state.renditions, bytes).await.map_err(|e| ApiError::Internal(e.into()))?;
    }
    execute(&state, me.0, |u| decide(u, command.clone())).await?;
    Ok(ok(own(&state, me.0).await?, "Profile updated successfully"))
}

/// A nonce for the Sign-In with Ethereum message that links a wallet.
#[derive(Serialize, ToSchema)]
struct WalletNonce {
    /// Put it in the message's `Nonce:` line.
    nonce: String,
}

/// Issues a nonce for linking a wallet (valid for one link, for a few minutes).
#[utoipa::path(
    get,
    path = "/api/account/walletnonce",
    tag = "account",
    security(("bearer" = [])),
    responses((status = 200, description = "A fresh nonce", body = Envelope<WalletNonce>), SignedIn),
)]
async fn wallet_nonce(State(state): State<AppState>, me: AuthUser) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let nonce = secrets::new_nonce();
    let now = Utc::now();
    execute(&state, me.0, |u| decide(u, UserCommand::IssueWalletNonce { nonce: nonce.clone(), now })).await?;
    Ok(ok(WalletNonce { nonce }, "Sign the message with this nonce to link your wallet"))
}

/// A wallet to link, proven by a signed Sign-In with Ethereum (EIP-4361) message.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ConnectWalletRequest {
    /// The kind of wallet.
    #[schema(value_type = WalletKind, example = "Metamask")]
    wallet_provider: String,
    /// The 0x address.
    #[schema(max_length = 42)]
    wallet_address: String,
    /// The SIWE message: this server's domain, the address, the chain id and a nonce from
    /// `/api/account/walletnonce`.
    #[schema(max_length = 2000)]
    message: String,
    /// The wallet's signature of `message` (0x hex): a key's 65 bytes, a smart account's own form
    /// (ERC-1271), or wrapped with the call that deploys an account not deployed yet (ERC-6492).
    #[schema(max_length = 16_386)]
    signature: String,
}

/// The domains a SIWE message may name: configured, else the host this request came to.
pub(super) fn siwe_domains(state: &AppState, headers: &HeaderMap) -> Vec<String> {
    if !state.config.siwe_domains.is_empty() {
        return state.config.siwe_domains.iter().map(|d| d.trim().to_owned()).filter(|d| !d.is_empty()).collect();
    }
    headers.get(header::HOST).and_then(|h| h.to_str().ok()).map(|h| vec![h.to_owned()]).unwrap_or_default()
}

/// Checks that `address` signed `message` (`signature`, 0x hex): a key's signature, else a smart
/// account's as the chain answers (ERC-1271, ERC-6492); 400 if not.
pub(super) async fn signed_by(state: &AppState, address: &str, message: &str, signature: &str) -> Result<(), ApiError> {
    let signature = siwe::signature_bytes(signature).map_err(ApiError::BadRequest)?;
    let signer =
        address.parse::<alloy::primitives::Address>().map_err(|_| ApiError::BadRequest("walletAddress: not a valid 0x address".into()))?;
    if siwe::signed_by_key(message, &signature, signer) {
        return Ok(());
    }
    // No key recovers to it: a smart account's signature, or an account's not deployed yet.
    let rpc = state.chain.rpc_url.as_deref().ok_or_else(|| ApiError::BadRequest(siwe::NOT_SIGNED.into()))?;
    let signed = chain::signatures::signed(rpc, signer, siwe::message_hash(message), &signature)
        .await
        .map_err(|err| ApiError::Internal(anyhow::anyhow!("the chain could not check a smart account's signature: {err}")))?;
    if signed { Ok(()) } else { Err(ApiError::BadRequest(siwe::NOT_SIGNED.into())) }
}

/// Links a wallet to the signed-in user.
#[utoipa::path(
    put,
    path = "/api/account/connectwallet",
    tag = "account",
    request_body(content((ConnectWalletRequest = "application/json"), (ConnectWalletRequest = "application/x-www-form-urlencoded"))),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The signed-in user's profile, as it is now", body = Envelope<OwnProfile>),
        (status = 400, response = BadRequest),
        SignedIn,
        (status = 409, response = Conflict),
    ),
)]
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
    let message = siwe::check(&req.message, &expected).map_err(ApiError::BadRequest)?;
    signed_by(&state, &address, &req.message, &req.signature).await?;
    let now = Utc::now();
    let command = UserCommand::LinkWallet { provider, address, nonce: message.nonce, now };
    execute(&state, me.0, |u| decide(u, command.clone())).await?;
    Ok(ok(own(&state, me.0).await?, "Connected!"))
}

/// The wallet to unlink.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct DisconnectWalletRequest {
    /// The 0x address.
    #[schema(max_length = 42)]
    wallet_address: String,
}

/// Unlinks one of the signed-in user's wallets.
#[utoipa::path(
    put,
    path = "/api/account/disconnectwallet",
    tag = "account",
    request_body(content((DisconnectWalletRequest = "application/json"), (DisconnectWalletRequest = "application/x-www-form-urlencoded"))),
    security(("bearer" = [])),
    responses((status = 200, description = "The signed-in user's profile, as it is now", body = Envelope<OwnProfile>), (status = 400, response = BadRequest), SignedIn),
)]
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
