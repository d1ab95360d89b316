//! `/ipfs/{cid}`: files from the content-addressed store, as an IPFS gateway serves them, and
//! card-sized renditions of stored images (`?w=`, [`crate::files::renditions`]).

use axum::{
    body::Bytes,
    extract::{Path, State},
    http::{HeaderMap, HeaderValue, header},
    response::{IntoResponse, Response},
};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{
    openapi::{BadRequest, NotFound, Unavailable},
    params::{Params, Text},
};
use crate::{
    files::{
        self,
        renditions::{self, Rendition, RenditionError},
    },
    http::{
        AppState,
        auth::MaybeUser,
        error::{ApiError, db_error},
    },
};

/// The gateway route.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(file))
}

/// `?w=`: the width of the rendition asked for.
const WIDTH: Text = Text { name: "w", description: "the rendition's width in pixels" };

/// A stored file by its CID (v1), typed by its bytes, cacheable forever; with `w`, the image
/// scaled down to that width.
///
/// A file taken down (every NFT or collection using it hidden by a moderator) answers 451, but to
/// its owner and the staff, signed in by a bearer token or the UI's session cookie, who get it
/// with `Cache-Control: private, no-store`.
#[utoipa::path(
    get,
    path = "/ipfs/{cid}",
    tag = "ops",
    security((), ("bearer" = [])),
    params(
        ("cid" = String, Path, description = "The file's CID v1 (the address uploads answer with)"),
        ("w" = Option<u32>, Query, description = "A rendition of a stored image this many pixels wide: 64, 240, 480, 960 or 1920. \
            Made on the first request, then kept. Opaque images come as JPEG, images with transparent pixels as lossless WebP, \
            aspect ratio kept. The stored file itself answers when it is no wider than asked (never upscaled), an SVG, \
            an animated GIF or WebP, or smaller than its rendition. A file that is no image, cannot be decoded or is over \
            16384 pixels a side or 40 megapixels is a 400. Absent: the stored file."),
    ),
    responses(
        (status = 200, description = "The file's bytes, or its rendition; `Content-Type` sniffed from them (PNG, JPEG, GIF, WebP, SVG, JSON, else octet-stream)",
            content(("application/octet-stream"), ("image/*"), ("application/json")),
            headers(("ETag" = String, description = "The CID, quoted (with `-w<width>` for a rendition)"), ("Cache-Control" = String, description = "`public, max-age=31536000, immutable`"))),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 451, response = Unavailable),
    ),
)]
async fn file(
    State(state): State<AppState>,
    MaybeUser(signed_in): MaybeUser,
    Path(cid): Path<String>,
    headers: HeaderMap,
    params: Params,
) -> Result<Response, ApiError> {
    // A takedown takes the file down: every NFT or collection using it is hidden. Its owner and
    // the staff still see it, and no cache may keep it for anyone else.
    let mut private = false;
    if projections::queries::moderation::taken_down(&state.read, &cid).await.map_err(db_error)? {
        let sees = match signed_in.or_else(|| session_user(&state, &headers)) {
            Some(user) => {
                projections::queries::moderation::sees_taken_down(&state.read, &user.to_string(), &cid).await.map_err(db_error)?
            }
            None => false,
        };
        if !sees {
            return Err(ApiError::Unavailable("This file was taken down by the moderators".into()));
        }
        private = true;
    }
    let immutable = |bytes: Bytes, content_type: &'static str, etag: &str| {
        let mut response = immutable(bytes, content_type, etag);
        if private {
            response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-store"));
        }
        response
    };
    let width = params.value(&WIDTH).map(renditions::parse_width).transpose().map_err(rendition_error)?;
    if let Some(width) = width
        && let Some(Rendition::Scaled { bytes, content_type }) = state.renditions.cached(&cid, width).await.map_err(rendition_error)?
    {
        return Ok(immutable(bytes.into(), content_type, &format!("{cid}-w{width}")));
    }
    let bytes = Bytes::from(
        state
            .files
            .get(&cid)
            .await
            .map_err(|e| ApiError::Internal(e.into()))?
            .ok_or_else(|| ApiError::NotFound(format!("No file with CID {cid}")))?,
    );
    if let Some(width) = width
        && let Rendition::Scaled { bytes, content_type } =
            state.renditions.get_or_make(&cid, bytes.clone(), width).await.map_err(rendition_error)?
    {
        return Ok(immutable(bytes.into(), content_type, &format!("{cid}-w{width}")));
    }
    let content_type = files::sniff(&bytes);
    Ok(immutable(bytes, content_type, &cid))
}

/// The user of the UI's session cookie (`secret`: set with `SameSite=Strict`, so an `<img>` of
/// our own pages carries it and no other site's does). Read here only: an image tag cannot send
/// a bearer token, and a file is no action a forged request could take.
fn session_user(state: &AppState, headers: &HeaderMap) -> Option<uuid::Uuid> {
    let token = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| pair.trim().strip_prefix(SESSION_COOKIE))?;
    state.accounts.tokens.verify(token.trim()).ok().map(|(user, _)| user)
}

/// The UI's session cookie, as `name=`.
const SESSION_COOKIE: &str = "secret=";

/// `bytes` as `content_type`, cacheable forever under `etag` (its address is its content's hash).
fn immutable(bytes: Bytes, content_type: &'static str, etag: &str) -> Response {
    let mut response = bytes.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=31536000, immutable"));
    if let Ok(etag) = HeaderValue::from_str(&format!("\"{etag}\"")) {
        headers.insert(header::ETAG, etag);
    }
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    // Uploaded SVGs are served from our origin: no scripts, no requests, no same-origin access.
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox"),
    );
    response
}

fn rendition_error(err: RenditionError) -> ApiError {
    match err {
        RenditionError::Io(err) => ApiError::Internal(err.into()),
        refused => ApiError::BadRequest(refused.to_string()),
    }
}
