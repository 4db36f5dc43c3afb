//! `/account`: the player's API tokens, created (shown once) and revoked here.

use super::{page, see_other};
use crate::game::tokens;
use crate::web::auth::Viewer;
use crate::web::error::PageError;
use crate::web::AppState;
use actix_web::{web, HttpResponse};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct NewToken {
    pub csrf: Option<String>,
    #[serde(default)]
    pub name: String,
}

#[derive(Deserialize)]
pub struct CsrfOnly {
    pub csrf: Option<String>,
}

async fn show(
    state: &AppState,
    viewer: &Viewer,
    created: Option<String>,
) -> Result<HttpResponse, PageError> {
    let actor = viewer.require()?;
    let list = state
        .db(move |conn| tokens::list(conn, actor.user_id))
        .await?;
    Ok(page(state, viewer, "account.html", |ctx| {
        ctx.insert("tokens", &list);
        ctx.insert("created", &created);
    })?)
}

pub async fn index(state: web::Data<AppState>, viewer: Viewer) -> Result<HttpResponse, PageError> {
    show(&state, &viewer, None).await
}

pub async fn create_token(
    state: web::Data<AppState>,
    viewer: Viewer,
    form: web::Form<NewToken>,
) -> Result<HttpResponse, PageError> {
    let actor = viewer.require()?;
    viewer.check_csrf(form.csrf.as_deref())?;
    let name = form.name.clone();
    let (_, secret) = state
        .db(move |conn| tokens::create(conn, actor.user_id, &name))
        .await?;
    show(&state, &viewer, Some(secret)).await
}

pub async fn revoke_token(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<i32>,
    form: web::Form<CsrfOnly>,
) -> Result<HttpResponse, PageError> {
    let actor = viewer.require()?;
    viewer.check_csrf(form.csrf.as_deref())?;
    let id = path.into_inner();
    state
        .db(move |conn| tokens::revoke(conn, actor.user_id, id))
        .await?;
    Ok(see_other("/account"))
}
