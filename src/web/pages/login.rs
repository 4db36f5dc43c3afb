//! `/register`, `/login`, `/logout`.

use super::{context, render_with, see_other};
use crate::game::{accounts, accounts::sessions, GameError};
use crate::ids::UserId;
use crate::web::auth::{clear_session_cookie, client_addr, session_cookie, Viewer};
use crate::web::error::PageError;
use crate::web::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct Credentials {
    #[serde(default)]
    pub username: String,
    #[serde(default)]
    pub password: String,
    pub csrf: Option<String>,
    pub next: Option<String>,
}

#[derive(Deserialize)]
pub struct CsrfOnly {
    pub csrf: Option<String>,
}

#[derive(Deserialize)]
pub struct Next {
    pub next: Option<String>,
}

/// Only paths of this site are followed after login.
fn safe_next(next: Option<&str>) -> &str {
    next.and_then(crate::web::form_post::same_site_path)
        .unwrap_or("/")
}

/// Renders the form again with the error and what the visitor typed (never the password).
fn form_again(
    state: &AppState,
    viewer: &Viewer,
    template: &str,
    username: &str,
    next: Option<&str>,
    err: &GameError,
) -> Result<HttpResponse, PageError> {
    let (mut ctx, fresh) = context(viewer);
    ctx.insert("error", &crate::wire::refusals::say(viewer.lang, err));
    ctx.insert("username", username);
    ctx.insert("next", next.unwrap_or(""));
    let status = StatusCode::from_u16(err.status()).unwrap_or(StatusCode::BAD_REQUEST);
    let resp = render_with(state, status, template, &ctx, fresh)?;
    Ok(super::with_retry_after(resp, err))
}

fn form_page(
    state: &AppState,
    viewer: &Viewer,
    template: &str,
    next: Option<&str>,
) -> Result<HttpResponse, PageError> {
    let (mut ctx, fresh) = context(viewer);
    ctx.insert("username", "");
    ctx.insert("next", next.unwrap_or(""));
    Ok(render_with(state, StatusCode::OK, template, &ctx, fresh)?)
}

pub async fn register_form(
    state: web::Data<AppState>,
    viewer: Viewer,
    q: web::Query<Next>,
) -> Result<HttpResponse, PageError> {
    form_page(&state, &viewer, "register.html", q.next.as_deref())
}

pub async fn login_form(
    state: web::Data<AppState>,
    viewer: Viewer,
    q: web::Query<Next>,
) -> Result<HttpResponse, PageError> {
    form_page(&state, &viewer, "login.html", q.next.as_deref())
}

/// Signs the user in: a brand-new session id every time (no fixation), the old one dropped.
async fn start_session(
    state: &AppState,
    viewer: &Viewer,
    user_id: UserId,
    next: &str,
) -> Result<HttpResponse, PageError> {
    let old = viewer.session.as_ref().map(|s| s.id.clone());
    let token = state
        .db(move |conn| {
            if let Some(id) = old {
                sessions::delete(conn, &id)?;
            }
            sessions::create(conn, user_id)
        })
        .await?;
    Ok(HttpResponse::SeeOther()
        .cookie(session_cookie(state, token))
        .insert_header(("Location", next))
        .finish())
}

pub async fn register(
    state: web::Data<AppState>,
    req: HttpRequest,
    viewer: Viewer,
    form: web::Form<Credentials>,
) -> Result<HttpResponse, PageError> {
    viewer.check_csrf(form.csrf.as_deref())?;
    let (name, pw) = (form.username.trim().to_string(), form.password.clone());
    match accounts::register(state.get_ref(), &client_addr(&state, &req), name, pw).await {
        // Back to the page the visitor came from (the world it wants to play), else welcomed
        // on the worlds list.
        Ok(user) => {
            let next = form
                .next
                .as_deref()
                .and_then(crate::web::form_post::same_site_path);
            start_session(&state, &viewer, user.id, next.unwrap_or("/?welcome=1")).await
        }
        Err(e @ (GameError::Invalid(_) | GameError::Conflict(_))) => form_again(
            &state,
            &viewer,
            "register.html",
            &form.username,
            form.next.as_deref(),
            &e,
        ),
        Err(e) => Err(e.into()),
    }
}

pub async fn login(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    form: web::Form<Credentials>,
) -> Result<HttpResponse, PageError> {
    viewer.check_csrf(form.csrf.as_deref())?;
    let (name, pw) = (form.username.trim().to_string(), form.password.clone());
    match accounts::login(state.get_ref(), &client_addr(&state, &req), name, pw).await {
        Ok(user) => start_session(&state, &viewer, user.id, safe_next(form.next.as_deref())).await,
        Err(
            e @ (GameError::Unauthorized(_)
            | GameError::Forbidden(_)
            | GameError::RateLimited { .. }),
        ) => form_again(
            &state,
            &viewer,
            "login.html",
            &form.username,
            form.next.as_deref(),
            &e,
        ),
        Err(e) => Err(e.into()),
    }
}

pub async fn logout(
    state: web::Data<AppState>,
    viewer: Viewer,
    form: web::Form<CsrfOnly>,
) -> Result<HttpResponse, PageError> {
    viewer.check_csrf(form.csrf.as_deref())?;
    if let Some(s) = &viewer.session {
        let id = s.id.clone();
        state.db(move |conn| sessions::delete(conn, &id)).await?;
    }
    let mut resp = see_other("/");
    resp.add_cookie(&clear_session_cookie(&state))
        .map_err(|e| GameError::Internal(e.to_string()))?;
    Ok(resp)
}
