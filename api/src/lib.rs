//! The marketplace's HTTP server.
//!
//! [`app`] assembles one router per resource (see [`routes`]) over the shared [`AppState`]; the
//! `marketplace` binary in `main.rs` wires configuration, the event store and the server.

pub mod config;
pub mod error;
pub mod files;
pub mod routes;

use std::{path::Path, sync::Arc};

use axum::Router;
use domain::EventStore;
use tower_http::services::{ServeDir, ServeFile};

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    /// The event log.
    pub store: Arc<dyn EventStore>,
    /// Uploaded files, by CID.
    pub files: Arc<files::FileStore>,
}

/// The whole HTTP application: API routes, then the built UI with a fallback to `index.html`
/// so client-side routes load on refresh.
pub fn app(state: AppState, ui_dir: &Path) -> Router {
    let api = Router::new()
        .merge(routes::health::router())
        .merge(routes::ipfs::router())
        .with_state(state);
    let index = ui_dir.join("index.html");
    if index.exists() {
        api.fallback_service(ServeDir::new(ui_dir).fallback(ServeFile::new(index)))
    } else {
        api
    }
}
