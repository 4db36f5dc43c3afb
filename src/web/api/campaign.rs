//! The campaign's API: `GET /api/v1/worlds/{w}/standings`, `GET /api/v1/worlds/{w}/history`
//! (both public, as the nations are; the history tells a caller's own nation's strength only),
//! the players' `GET /api/v1/worlds/{w}/rankings`, and the game masters'
//! `POST /api/v1/worlds/{w}/end` and `POST /api/v1/worlds/{w}/next`; the castles' sections and
//! the holders the caller's nation may know.

use crate::game::campaign;
use crate::game::campaign::scores::{self, RankBy};
use crate::game::play::access;
use crate::ids::WorldId;
use crate::web::auth::{ApiActor, ApiCredentials, MaybeCredentials};
use crate::web::error::ApiError;
use crate::web::AppState;
use crate::wire::campaign::*;
use actix_web::{web, HttpResponse};

pub async fn standings(
    state: web::Data<AppState>,
    path: web::Path<WorldId>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let st = state.clone();
    let s = state
        .db(move |conn| campaign::standings(conn, &st.config.rules, wid))
        .await?;
    Ok(HttpResponse::Ok().json(Standings::of(&s)))
}

pub async fn history(
    state: web::Data<AppState>,
    who: MaybeCredentials,
    path: web::Path<WorldId>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let h = state
        .db(move |conn| {
            let actor = who.resolve(conn)?;
            let nation = access::viewer_nation(conn, actor.as_ref(), wid)?;
            campaign::history(conn, wid, nation)
        })
        .await?;
    Ok(HttpResponse::Ok().json(History::of(h)))
}

pub async fn end(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<WorldId>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    actor.require_gm()?;
    let v = state
        .db(move |conn| campaign::end_by_game_master(conn, &actor, wid))
        .await?;
    Ok(HttpResponse::Ok().json(EndAnswer::from(v)))
}

/// `GET /api/v1/worlds/{w}/rankings?by=…&page=N`: without a page, the caller's own.
pub async fn rankings(
    state: web::Data<AppState>,
    who: ApiCredentials,
    path: web::Path<WorldId>,
    q: web::Query<RankingsQuery>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let q = q.into_inner();
    let by =
        q.by.as_deref()
            .map(RankBy::parse)
            .transpose()?
            .unwrap_or_default();
    let r = state
        .db(move |conn| {
            let actor = who.resolve(conn)?;
            scores::rankings(conn, wid, by, q.page, Some(actor.user_id))
        })
        .await?;
    Ok(HttpResponse::Ok().json(Rankings::from(&r)))
}

pub async fn next(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<WorldId>,
    super::OptionalJson(body): super::OptionalJson<NextBody>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    actor.require_gm()?;
    let name = body.name;
    let st = state.clone();
    let id = state
        .db(move |conn| campaign::next::start(conn, &st.config.rules, &actor, wid, name.as_deref()))
        .await?;
    Ok(HttpResponse::Created().json(NextAnswer { id }))
}

/// `GET /api/v1/worlds/{w}/castles`: each castle's sections and who held them after the last
/// turn, where the caller's nation may know it (public, as the standings are).
pub async fn castles(
    state: web::Data<AppState>,
    who: MaybeCredentials,
    path: web::Path<WorldId>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let c = state
        .db(move |conn| {
            let actor = who.resolve(conn)?;
            let nation = access::viewer_nation(conn, actor.as_ref(), wid)?;
            crate::game::maps::castles::of(conn, wid, nation, None)
        })
        .await?;
    Ok(HttpResponse::Ok().json(CastleView::list(c)))
}
