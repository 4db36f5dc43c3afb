//! The JSON API under `/api/v1`.

pub mod accounts;
pub mod editor;
pub mod gm;
pub mod play;
pub mod worlds;

use super::error::ApiError;
use crate::game::GameError;
use actix_web::{error, web, HttpRequest, HttpResponse};

/// Malformed JSON bodies answer `invalid` with the parser's reason.
pub fn json_config() -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(32 * 1024 * 1024)
        .error_handler(|err, _req| {
            let msg = match &err {
                error::JsonPayloadError::ContentType => {
                    "send the body as application/json".to_string()
                }
                other => format!("bad JSON body: {other}"),
            };
            ApiError(GameError::Invalid(msg)).into()
        })
}

/// Bad path parameters (`/worlds/abc`) are simply not found.
pub fn path_config() -> web::PathConfig {
    web::PathConfig::default().error_handler(|_err, req: &HttpRequest| {
        if req.path().starts_with("/api/") {
            ApiError(GameError::NotFound("no such resource".into())).into()
        } else {
            super::error::PageError(GameError::NotFound(
                "there is no page at this address".into(),
            ))
            .into()
        }
    })
}

pub fn query_config() -> web::QueryConfig {
    web::QueryConfig::default().error_handler(|err, req: &HttpRequest| {
        let e = GameError::Invalid(format!("bad query string: {err}"));
        if req.path().starts_with("/api/") {
            ApiError(e).into()
        } else {
            super::error::PageError(e).into()
        }
    })
}

/// A form body that cannot be read is a bad request page.
pub fn form_config() -> web::FormConfig {
    web::FormConfig::default()
        .limit(16 * 1024 * 1024)
        .error_handler(|err, _req| {
            super::error::PageError(GameError::Invalid(format!(
                "this form could not be read: {err}"
            )))
            .into()
        })
}

pub async fn not_found() -> Result<HttpResponse, ApiError> {
    Err(ApiError(GameError::NotFound("no such API endpoint".into())))
}
