//! The static files (CSS, JS, favicon), compiled into the binary.

use actix_web::{web, HttpResponse};

const FILES: &[(&str, &str, &str)] = &[
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../../static/style.css"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/app.js"),
    ),
    (
        "editor.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/editor.js"),
    ),
    (
        "pick.svg",
        "image/svg+xml",
        include_str!("../../static/pick.svg"),
    ),
    (
        "favicon.svg",
        "image/svg+xml",
        include_str!("../../static/favicon.svg"),
    ),
];

pub async fn serve(file: web::Path<String>) -> HttpResponse {
    match FILES.iter().find(|(name, _, _)| *name == file.as_str()) {
        Some((_, mime, body)) => HttpResponse::Ok()
            .content_type(*mime)
            .insert_header(("Cache-Control", "public, max-age=3600"))
            .body(*body),
        None => HttpResponse::NotFound()
            .content_type("text/html; charset=utf-8")
            .body(super::error::error_page(
                actix_web::http::StatusCode::NOT_FOUND,
                "no such file",
            )),
    }
}
