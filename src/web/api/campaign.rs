//! The campaign's API: `GET /api/v1/worlds/{w}/standings`, `GET /api/v1/worlds/{w}/history`
//! (both public, as the nations are) and the game masters' `POST /api/v1/worlds/{w}/end`.

use crate::game::campaign;
use crate::web::auth::ApiActor;
use crate::web::error::ApiError;
use crate::web::AppState;
use actix_web::{web, HttpResponse};
use serde::Serialize;

pub async fn standings(
    state: web::Data<AppState>,
    path: web::Path<i32>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let st = state.clone();
    let s = state
        .db(move |conn| campaign::standings(conn, &st.config.rules, wid))
        .await?;
    Ok(HttpResponse::Ok().json(s))
}

pub async fn history(
    state: web::Data<AppState>,
    path: web::Path<i32>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let h = state.db(move |conn| campaign::history(conn, wid)).await?;
    Ok(HttpResponse::Ok().json(h))
}

/// `POST /api/v1/worlds/{w}/end`: the campaign's result.
#[derive(Serialize)]
pub struct EndAnswer {
    pub reason: crate::rules::victory::EndReason,
    pub winner: Option<i32>,
}

pub async fn end(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<i32>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    actor.require_gm()?;
    let v = state
        .db(move |conn| campaign::end_by_game_master(conn, &actor, wid))
        .await?;
    Ok(HttpResponse::Ok().json(EndAnswer {
        reason: v.reason,
        winner: v.winner,
    }))
}
