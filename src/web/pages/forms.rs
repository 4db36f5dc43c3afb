//! How every signed form post of the pages ends: its work done on the database as the post's
//! actor, then a redirect to the page it came back to, or the refusal page with a way back.
//! The handlers only read their fields and say what to do.

use super::{context, render_with, see_other, with_retry_after, world};
use crate::db::DbConnection;
use crate::game::play::access::Actor;
use crate::game::{GameError, GameResult};
use crate::web::auth::Viewer;
use crate::web::error::PageError;
use crate::web::form_post::SignedPost;
use crate::web::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};

/// Does `work` on the database as the post's actor, with the server's state and the post's
/// form; then back to `back` when it worked, the refusal page (leading back there) when not.
pub async fn submit<F, T, W>(
    state: &web::Data<AppState>,
    post: SignedPost<F>,
    back: String,
    work: W,
) -> Result<HttpResponse, PageError>
where
    F: Send + 'static,
    T: Send + 'static,
    W: FnOnce(&mut DbConnection, &AppState, &Actor, F) -> GameResult<T> + Send + 'static,
{
    submit_then(state, post, back, work, |_, back| back).await
}

/// [`submit`], the page it leads to made by `to` from the work's answer and `back` (the new
/// company's, the report's).
pub async fn submit_then<F, T, W, To>(
    state: &web::Data<AppState>,
    post: SignedPost<F>,
    back: String,
    work: W,
    to: To,
) -> Result<HttpResponse, PageError>
where
    F: Send + 'static,
    T: Send + 'static,
    W: FnOnce(&mut DbConnection, &AppState, &Actor, F) -> GameResult<T> + Send + 'static,
    To: FnOnce(T, String) -> String,
{
    let SignedPost {
        viewer,
        actor,
        form,
        req,
        ..
    } = post;
    let st = state.clone();
    match state.db(move |conn| work(conn, &st, &actor, form)).await {
        Ok(out) => Ok(see_other(&to(out, back))),
        Err(e) => refused_at(state, viewer, &e, &back, &req).await,
    }
}

/// A refused form whose way back is `back`: a world page shows the refusal in place, the map
/// and all (a stale order no longer leaves the map); any other page, the refusal page.
pub async fn refused_at(
    state: &web::Data<AppState>,
    viewer: Viewer,
    err: &GameError,
    back: &str,
    req: &actix_web::HttpRequest,
) -> Result<HttpResponse, PageError> {
    if let (Some((wid, q)), false) = (world::at_path(back), internal(err)) {
        let who = world::Who::Known(Box::new(viewer.clone()));
        if let Ok(mut resp) = world::page(state, who, wid, q, req, Some(err)).await {
            *resp.status_mut() = status_of(err);
            return Ok(with_retry_after(resp, err));
        }
    }
    refused_page(state, &viewer, err, Some(back))
}

/// Errors that are the server's, not the player's: never shown as a refusal.
fn internal(err: &GameError) -> bool {
    matches!(
        err,
        GameError::Db(_) | GameError::Internal(_) | GameError::Unauthorized(_)
    )
}

fn status_of(err: &GameError) -> StatusCode {
    StatusCode::from_u16(err.status()).unwrap_or(StatusCode::BAD_REQUEST)
}

/// A refused order: the reason, with a way back, and nothing changed.
pub fn refused_page(
    state: &AppState,
    viewer: &Viewer,
    err: &GameError,
    back: Option<&str>,
) -> Result<HttpResponse, PageError> {
    if internal(err) {
        return Err(PageError(GameError::Internal(err.to_string())));
    }
    let (mut ctx, fresh) = context(viewer);
    ctx.insert("message", &crate::wire::refusals::say(viewer.lang, err));
    ctx.insert("code", err.code());
    ctx.insert("back", &back.unwrap_or("/"));
    let resp = render_with(state, status_of(err), "refused.html", &ctx, fresh)?;
    Ok(with_retry_after(resp, err))
}
