//! Server-rendered pages, one module per area.

pub mod account;
pub mod admin;
pub mod alerts;
pub mod company;
pub mod forms;
pub mod gm;
pub mod health;
pub mod home;
pub mod lang;
pub mod login;
pub mod messages;
pub mod metrics;
pub mod moderation;
pub mod nations;
pub mod orders;
pub mod reports;
pub mod rules;
pub mod standings;
pub mod world;

use super::auth::{anon_csrf_cookie, Viewer};
use super::error::PageError;
use super::AppState;
use crate::game::accounts::secret::random_hex;
use crate::game::GameError;
use crate::ids::UserId;
use crate::said::Said;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, HttpResponseBuilder};
use tera::Context;

/// The signed-in user as every page's header shows them.
#[derive(serde::Serialize)]
struct SignedIn<'a> {
    id: UserId,
    username: &'a str,
    role: crate::rules::names::Role,
    /// What the role may reach, as the game decides it: the pages only show it.
    gm: bool,
    admin: bool,
    alerts: i32,
    messages: i32,
}

/// The context every page starts from: who is looking and the CSRF token for its forms.
/// An anonymous visitor without a CSRF cookie gets a new token, returned so that the response
/// can set it.
pub fn context(viewer: &Viewer) -> (Context, Option<String>) {
    let mut ctx = Context::new();
    let (csrf, fresh) = match viewer.csrf() {
        Some(t) => (t.to_string(), None),
        None => {
            let t = random_hex(24);
            (t.clone(), Some(t))
        }
    };
    if let Some(s) = &viewer.session {
        ctx.insert(
            "viewer",
            &SignedIn {
                id: s.user.id,
                username: &s.user.username,
                role: s.user.role,
                gm: s.user.role.is_gm(),
                admin: s.user.role.is_admin(),
                alerts: s.user.unread_alerts,
                messages: s.user.unread_messages,
            },
        );
    }
    ctx.insert("csrf", &csrf);
    ctx.insert("lang", viewer.lang.code());
    (ctx, fresh)
}

/// Renders a template with a status, setting the anonymous CSRF cookie when one was made.
pub fn render_with(
    state: &AppState,
    status: StatusCode,
    name: &str,
    ctx: &Context,
    fresh_csrf: Option<String>,
) -> Result<HttpResponse, GameError> {
    let body = render(state, name, ctx)?;
    Ok(respond(state, status, body, fresh_csrf))
}

/// What a page's rendering starts with room for: the template engine's own 2 KB grew by
/// doubling (and copying) three times on the world page.
const PAGE_ROOM: usize = 16 * 1024;

/// Renders the template `name` in the language of the page's context.
fn render(state: &AppState, name: &str, ctx: &Context) -> Result<String, GameError> {
    let lang = ctx
        .get("lang")
        .and_then(|v| v.as_str())
        .and_then(crate::i18n::Lang::parse)
        .unwrap_or_default();
    let mut out = Vec::with_capacity(PAGE_ROOM);
    state
        .tera
        .render_to(&super::templates::in_lang(lang, name), ctx, &mut out)
        .map_err(|e| GameError::Internal(format!("template {name}: {e:?}")))?;
    String::from_utf8(out).map_err(|e| GameError::Internal(format!("template {name}: {e}")))
}

fn respond(
    state: &AppState,
    status: StatusCode,
    body: String,
    fresh_csrf: Option<String>,
) -> HttpResponse {
    let mut resp = HttpResponseBuilder::new(status);
    if let Some(t) = fresh_csrf {
        resp.cookie(anon_csrf_cookie(state, t));
    }
    resp.content_type("text/html; charset=utf-8").body(body)
}

/// Renders a page for a viewer with status 200.
pub fn page(
    state: &AppState,
    viewer: &Viewer,
    name: &str,
    fill: impl FnOnce(&mut Context),
) -> Result<HttpResponse, GameError> {
    let (mut ctx, fresh) = context(viewer);
    fill(&mut ctx);
    render_with(state, StatusCode::OK, name, &ctx, fresh)
}

/// Renders a page that draws a map: the drawing and the legend of `season` are written straight
/// into the rendered page rather than passed through the template engine, which copied the
/// drawing's hundred kilobytes twice.
pub fn map_page(
    state: &AppState,
    viewer: &Viewer,
    name: &str,
    map: &crate::web::render::map::MapView,
    season: crate::rules::Season,
    fill: impl FnOnce(&mut Context),
) -> Result<HttpResponse, GameError> {
    let (mut ctx, fresh) = context(viewer);
    map.insert_into(&mut ctx);
    fill(&mut ctx);
    let legend = state.legend(viewer.lang, season);
    let body = map.write_into(render(state, name, &ctx)?, legend);
    Ok(respond(state, StatusCode::OK, body, fresh))
}

/// A redirect after a successful form POST.
/// A refusal's page says when to try again, as the API does, when the refusal is a wait.
pub fn with_retry_after(mut resp: HttpResponse, err: &GameError) -> HttpResponse {
    if let GameError::RateLimited { retry_after } | GameError::Busy { retry_after } = err {
        resp.headers_mut().insert(
            actix_web::http::header::RETRY_AFTER,
            actix_web::http::header::HeaderValue::from((*retry_after).max(1)),
        );
    }
    resp
}

pub fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header(("Location", location))
        .finish()
}

pub async fn not_found() -> Result<HttpResponse, PageError> {
    Err(GameError::NotFound(Said::new("error-no-page").into()).into())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_style_sheet_sizes_the_cells_of_every_zoom_level() {
        let css = include_str!("../../../static/style.css");
        for (cell, _, _) in super::world::ZOOMS.iter().chain(super::gm::ZOOMS.iter()) {
            let rule = crate::web::render::map::cell_size_rule(*cell);
            assert!(css.contains(&rule), "static/style.css lacks: {rule}");
        }
    }
}
