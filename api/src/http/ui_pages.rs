//! The UI's `index.html` for client-side routes, with social-preview tags on NFT pages.
//!
//! Link previews (chat apps, social networks) read the page's HTML and run no script, so the
//! Open Graph and Twitter tags of a shared NFT link (`/nft/{id}`, `/explore/{id}`,
//! `/auction/{id}`) are put into `index.html` here, from the read tables: title, description,
//! the image as an absolute URL (from `PUBLIC_URL`), a large-image card. Every other path gets
//! the plain page, precompressed.

use std::path::PathBuf;

use axum::{
    extract::{Request, State},
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
    routing::MethodRouter,
};
use projections::queries::nft::{self, NftView};
use tower::ServiceExt;
use tower_http::services::ServeFile;

use crate::http::AppState;

/// Longest description put in a preview (the detail page's preview length).
const DESCRIPTION_PREVIEW: usize = 200;

/// What the fallback needs: the state (read tables, configuration), the page's file, and the
/// service serving it as it is (precompressed) for every other path.
#[derive(Clone)]
pub struct IndexPage {
    state: AppState,
    index: PathBuf,
    plain: ServeFile,
}

/// A service answering GET and HEAD with `index` (the UI's entry page): tagged for NFT pages,
/// else from `plain`; the static-file service falls back to it for paths that are no file.
pub fn index_page(state: AppState, index: PathBuf, plain: ServeFile) -> MethodRouter {
    axum::routing::get(page).with_state(IndexPage { state, index, plain })
}

async fn page(State(page): State<IndexPage>, request: Request) -> Response {
    let view = match nft_id(request.uri().path()) {
        Some(id) => match nft::detail(&page.state.read, id).await {
            Ok(view) => view,
            Err(err) => {
                tracing::warn!(%err, "reading an NFT for its preview tags");
                None
            }
        },
        None => None,
    };
    let Some(view) = view else {
        return match page.plain.oneshot(request).await {
            Ok(response) => response.into_response(),
            Err(never) => match never {},
        };
    };
    let html = match tokio::fs::read_to_string(&page.index).await {
        Ok(html) => html,
        Err(err) => {
            tracing::error!(%err, index = %page.index.display(), "reading the UI's index.html");
            return StatusCode::NOT_FOUND.into_response();
        }
    };
    let mut response = with_preview(&html, &preview(&page.state, &view, request.uri().path())).into_response();
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    response
}

/// The NFT id of an NFT page's path: `/nft/{id}`, `/explore/{id}` or `/auction/{id}`.
fn nft_id(path: &str) -> Option<&str> {
    let mut segments = path.trim_matches('/').split('/');
    let (section, id, rest) = (segments.next()?, segments.next()?, segments.next());
    (matches!(section, "nft" | "explore" | "auction") && rest.is_none() && !id.is_empty()).then_some(id)
}

/// The tags' values.
struct Preview {
    title: String,
    description: String,
    image: String,
    url: String,
}

fn preview(state: &AppState, view: &NftView, path: &str) -> Preview {
    let base = state.config.public_url.clone().unwrap_or_else(|| format!("http://{}", state.config.listen));
    let base = base.trim_end_matches('/');
    let description: String = view.description.chars().take(DESCRIPTION_PREVIEW).collect();
    let image = if view.file.starts_with("http://") || view.file.starts_with("https://") || view.file.is_empty() {
        view.file.clone()
    } else {
        format!("{base}{}", view.file)
    };
    let title = if view.title.is_empty() { format!("NFT #{}", view.nft_token_id) } else { view.title.clone() };
    Preview { title, description, image, url: format!("{base}{path}") }
}

/// Escapes text for an HTML attribute value or element content.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `html` with the preview's tags before `</head>` and its title as the page title.
fn with_preview(html: &str, preview: &Preview) -> String {
    let (title, description, image, url) =
        (escape(&preview.title), escape(&preview.description), escape(&preview.image), escape(&preview.url));
    let tags = format!(
        "<meta property=\"og:type\" content=\"website\" />\n\
         <meta property=\"og:title\" content=\"{title}\" />\n\
         <meta property=\"og:description\" content=\"{description}\" />\n\
         <meta property=\"og:image\" content=\"{image}\" />\n\
         <meta property=\"og:url\" content=\"{url}\" />\n\
         <meta name=\"twitter:card\" content=\"summary_large_image\" />\n\
         <meta name=\"twitter:title\" content=\"{title}\" />\n\
         <meta name=\"twitter:description\" content=\"{description}\" />\n\
         <meta name=\"twitter:image\" content=\"{image}\" />\n"
    );
    let mut html = html.to_owned();
    if let (Some(start), Some(end)) = (html.find("<title>"), html.find("</title>"))
        && start < end
    {
        html.replace_range(start + "<title>".len()..end, &title);
    }
    match html.find("</head>") {
        Some(at) => html.insert_str(at, &tags),
        None => html.insert_str(0, &tags),
    }
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_nft_pages_get_previews() {
        assert_eq!(nft_id("/nft/80001-3"), Some("80001-3"));
        assert_eq!(nft_id("/explore/80001-3/"), Some("80001-3"));
        assert_eq!(nft_id("/auction/80001-3"), Some("80001-3"));
        assert_eq!(nft_id("/nft/update/80001-3"), None);
        assert_eq!(nft_id("/explore"), None);
        assert_eq!(nft_id("/myprofile/x"), None);
    }

    #[test]
    fn the_tags_are_escaped_and_go_in_the_head() {
        let preview = Preview {
            title: "<script>\"x\" & 'y'".into(),
            description: "d".into(),
            image: "http://h/ipfs/c".into(),
            url: "http://h/nft/1".into(),
        };
        let html = with_preview("<html><head><title>NFT Marketplace</title></head><body></body></html>", &preview);
        assert!(html.contains("<title>&lt;script&gt;&quot;x&quot; &amp; &#39;y&#39;</title>"));
        assert!(html.contains("<meta property=\"og:title\" content=\"&lt;script&gt;&quot;x&quot; &amp; &#39;y&#39;\" />"));
        assert!(html.find("twitter:card").unwrap() < html.find("</head>").unwrap());
        assert!(!html.contains("<script>"));
    }
}
