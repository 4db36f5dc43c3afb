//! Server-rendered pages, one module per area.

pub mod health;
pub mod home;
pub mod map;
pub mod world;

use super::error::error_page;
use super::AppState;
use crate::game::GameError;
use actix_web::http::StatusCode;
use actix_web::HttpResponse;
use tera::Context;

/// Renders a template, or an error page if the template itself fails.
pub fn render(state: &AppState, name: &str, ctx: &Context) -> Result<HttpResponse, GameError> {
    let body = state
        .tera
        .render(name, ctx)
        .map_err(|e| GameError::Internal(format!("template {name}: {e:?}")))?;
    Ok(HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .body(body))
}

pub async fn not_found() -> HttpResponse {
    HttpResponse::NotFound()
        .content_type("text/html; charset=utf-8")
        .body(error_page(
            StatusCode::NOT_FOUND,
            "there is no page at this address",
        ))
}
