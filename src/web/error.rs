//! Errors as responses: JSON `{"error": {code, message}}` for the API, an HTML page for pages.
//! Internal failures are logged and shown without detail.

use crate::game::GameError;
use crate::i18n::{tr, Lang};
use crate::wire::error::ErrorBody;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use std::fmt;

fn status_of(e: &GameError) -> StatusCode {
    StatusCode::from_u16(e.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

fn public_message(e: &GameError) -> String {
    match e {
        GameError::Db(_) | GameError::Internal(_) => {
            tracing::error!(error = %e, "internal error");
            "something went wrong on the server; please try again".into()
        }
        other => other.to_string(),
    }
}

fn retry_after(e: &GameError, resp: &mut actix_web::HttpResponseBuilder) {
    if let GameError::RateLimited { retry_after } | GameError::Busy { retry_after } = e {
        resp.insert_header(("Retry-After", retry_after.max(&1).to_string()));
    }
}

/// An error answered as JSON.
#[derive(Debug)]
pub struct ApiError(pub GameError);

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<E: Into<GameError>> From<E> for ApiError {
    fn from(e: E) -> Self {
        ApiError(e.into())
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        status_of(&self.0)
    }

    fn error_response(&self) -> HttpResponse {
        let mut resp = HttpResponse::build(self.status_code());
        retry_after(&self.0, &mut resp);
        resp.json(ErrorBody::new(self.0.code(), &public_message(&self.0)))
    }
}

/// An error answered as an HTML page.
#[derive(Debug)]
pub struct PageError(pub GameError);

impl fmt::Display for PageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<E: Into<GameError>> From<E> for PageError {
    fn from(e: E) -> Self {
        PageError(e.into())
    }
}

impl ResponseError for PageError {
    fn status_code(&self) -> StatusCode {
        status_of(&self.0)
    }

    fn error_response(&self) -> HttpResponse {
        if let GameError::Unauthorized(_) = self.0 {
            // A page that needs an account sends the visitor to the login form.
            return HttpResponse::SeeOther()
                .insert_header(("Location", "/login"))
                .finish();
        }
        let status = self.status_code();
        let mut resp = HttpResponse::build(status);
        retry_after(&self.0, &mut resp);
        resp.content_type("text/html; charset=utf-8")
            .body(error_page(status, &public_message(&self.0)))
    }
}

pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            _ => out.push(c),
        }
    }
    out
}

/// A self-contained error page (it must render even when templates or the database fail).
pub fn error_page(status: StatusCode, message: &str) -> String {
    error_page_in(Lang::En, status, message)
}

/// The error page in a language.
pub fn error_page_in(lang: Lang, status: StatusCode, message: &str) -> String {
    let title = match lang {
        Lang::En => format!(
            "{} {}",
            status.as_u16(),
            status.canonical_reason().unwrap_or("Error")
        ),
        _ => tr(
            lang,
            "error-page-title",
            &[("code", status.as_u16().into())],
        ),
    };
    format!(
        "<!doctype html><html lang=\"{l}\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{t} · Grognard</title><link rel=\"stylesheet\" href=\"{css}\">\
         <link rel=\"icon\" href=\"/static/favicon.svg\" type=\"image/svg+xml\"></head>\
         <body><header class=\"top\"><a class=\"brand\" href=\"/\">Grognard</a></header>\
         <main class=\"page\"><h1>{t}</h1><p class=\"error\">{m}</p><p><a href=\"/\">{b}</a></p></main></body></html>",
        l = lang.code(),
        css = super::assets::url("style.css"),
        t = escape(&title),
        m = escape(message),
        b = escape(&tr(lang, "error-page-back", &[])),
    )
}
