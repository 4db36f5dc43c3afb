//! `/api/v1/users`, `/api/v1/tokens`, `/api/v1/me`.

use crate::game::accounts::{self, tokens};
use crate::ids::TokenId;
use crate::web::auth::{client_addr, ApiActor};
use crate::web::error::ApiError;
use crate::web::AppState;
use crate::wire::accounts::*;
use crate::wire::views::{AlertView, UserView};
use actix_web::{web, HttpRequest, HttpResponse};

pub async fn register(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Json<Credentials>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let user = accounts::register(
        state.get_ref(),
        &client_addr(&state, &req),
        body.username.trim().to_string(),
        body.password,
    )
    .await?;
    Ok(HttpResponse::Created().json(UserView {
        id: user.id,
        username: user.username,
        role: user.role,
    }))
}

/// Exchanges a username and password for a new API token (throttled like the login form).
pub async fn create_token(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Json<Credentials>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let user = accounts::login(
        state.get_ref(),
        &client_addr(&state, &req),
        body.username.trim().to_string(),
        body.password,
    )
    .await?;
    let (id, token) = state
        .db(move |conn| {
            let name = if body.name.trim().is_empty() {
                "api"
            } else {
                body.name.trim()
            };
            tokens::create(conn, user.id, name)
        })
        .await?;
    Ok(HttpResponse::Created().json(NewToken { id, token }))
}

pub async fn list_tokens(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
) -> Result<HttpResponse, ApiError> {
    let list = state
        .db(move |conn| tokens::list(conn, actor.user_id))
        .await?;
    Ok(HttpResponse::Ok().json(TokenList::of(list)))
}

pub async fn revoke_token(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<TokenId>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    state
        .db(move |conn| tokens::revoke(conn, actor.user_id, id))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// `GET /api/v1/alerts`: the latest alerts, newest first; reading them marks them read.
pub async fn alerts(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    crate::web::middleware::ReaderLang(lang): crate::web::middleware::ReaderLang,
) -> Result<HttpResponse, ApiError> {
    let list = state
        .db(move |conn| crate::game::news::alerts::seen(conn, actor.user_id, 100))
        .await?;
    let list: Vec<_> = list.iter().map(|a| AlertView::of(a, lang)).collect();
    Ok(HttpResponse::Ok().json(AlertList { alerts: list }))
}

pub async fn me(ApiActor(actor): ApiActor) -> HttpResponse {
    HttpResponse::Ok().json(UserView {
        id: actor.user_id,
        username: actor.username,
        role: actor.role,
    })
}
