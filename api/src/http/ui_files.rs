//! The built UI (`ui/dist`), served so a first visit downloads as little as possible: files are
//! sent precompressed (the UI build writes `.br` and `.gz` beside each asset; brotli when the
//! browser accepts it, else gzip, else the plain file), hashed assets are cached for good, and
//! everything else is revalidated. Unknown paths get `index.html`, so client-side routes load on
//! refresh (unknown `/api` paths excepted: they are API errors).

use std::path::Path;

use axum::{
    Router,
    extract::Request,
    http::{HeaderValue, header},
    middleware::{self, Next},
    response::{IntoResponse, Response},
};
use tower_http::services::{ServeDir, ServeFile};

use crate::http::error::ApiError;

/// Vite names every file under `assets/` by a hash of its content: a new build makes new names,
/// so a cached copy never goes stale.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// `index.html`, the translations and the other unhashed files: cached, but checked (a cheap 304)
/// on every use, so a deploy shows at once.
const REVALIDATE: &str = "no-cache";

/// `api` with the UI in `ui_dir` as its fallback (or, when no UI is built there, a 404 in the
/// envelope). NFT pages get `index.html` with their social-preview tags (see
/// [`crate::http::ui_pages`]). An unknown `/api` path is no client route: it answers 404 in the
/// envelope too, whatever the method.
pub fn with_ui(api: Router, ui_dir: &Path, state: crate::http::AppState) -> Router {
    let index = ui_dir.join("index.html");
    if !index.exists() {
        return api.fallback(unknown_route);
    }
    let files = ServeDir::new(ui_dir).precompressed_br().precompressed_gzip().fallback(crate::http::ui_pages::index_page(
        state,
        index.clone(),
        ServeFile::new(index).precompressed_br().precompressed_gzip(),
    ));
    let ui = Router::new().fallback_service(files).layer(middleware::from_fn(cache_control)).layer(middleware::from_fn(api_paths));
    api.fallback_service(ui)
}

/// Keeps unknown `/api` paths away from the UI.
async fn api_paths(request: Request, next: Next) -> Response {
    let path = request.uri().path();
    if path == "/api" || path.starts_with("/api/") { unknown_route(request).await.into_response() } else { next.run(request).await }
}

async fn unknown_route(request: Request) -> ApiError {
    ApiError::NotFound(format!("No route {} {}", request.method(), request.uri().path()))
}

/// Hashed assets are cached for a year and never revalidated, so they carry no `Last-Modified`
/// (nor `Accept-Ranges`: they are sent compressed, whole); about 30 of them load on a first visit.
async fn cache_control(request: Request, next: Next) -> Response {
    let immutable = request.uri().path().starts_with("/assets/");
    let mut response = next.run(request).await;
    if response.status().is_success() || response.status().as_u16() == 304 {
        let value = if immutable { IMMUTABLE } else { REVALIDATE };
        let headers = response.headers_mut();
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
        if immutable {
            headers.remove(header::LAST_MODIFIED);
            headers.remove(header::ACCEPT_RANGES);
        }
    }
    response
}
