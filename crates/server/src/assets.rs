//! The browser UI, built into `web/dist` and embedded in the binary at compile time, so that
//! `chess960 serve` needs no files beside it.

use axum::body::Body;
use axum::http::{header, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "../../web/dist"]
struct Dist;

/// Serves an embedded file; paths without an extension that name no file are client-side
/// routes (`/games`, `/game/<key>`, ...) and get `index.html`.
pub async fn serve(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    if let Some(resp) = file(path) {
        return resp;
    }
    let last = path.rsplit('/').next().unwrap_or("");
    if !last.contains('.') {
        if let Some(resp) = file("index.html") {
            return resp;
        }
    }
    crate::error::ApiError::not_found(format!("no file /{path}")).into_response()
}

fn file(path: &str) -> Option<Response> {
    let f = Dist::get(path)?;
    let mime = f.metadata.mimetype();
    // Vite puts content-hashed names under assets/: they never change.
    let cache = if path.starts_with("assets/") {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    let mut resp = Response::new(Body::from(f.data.into_owned()));
    *resp.status_mut() = StatusCode::OK;
    let headers = resp.headers_mut();
    if let Ok(v) = HeaderValue::from_str(mime) {
        headers.insert(header::CONTENT_TYPE, v);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    Some(resp)
}
