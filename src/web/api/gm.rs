//! The GM API for world controls: `PATCH /api/v1/worlds/{w}`, `POST /api/v1/worlds/{w}/ticks`.

use crate::game::{gm, GameError};
use crate::ids::WorldId;
use crate::web::auth::ApiActor;
use crate::web::error::ApiError;
use crate::web::AppState;
use crate::wire::gm::*;
use actix_web::{web, HttpResponse};
use serde_json::Value;

pub async fn patch_world(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<WorldId>,
    body: web::Json<WorldPatch>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    actor.require_gm()?;
    let body = body.into_inner();
    if body.paused.is_none() && body.season.is_none() && body.victory.is_none() {
        return Err(GameError::Invalid("send `paused`, `season` and/or `victory`".into()).into());
    }
    let w = state
        .db(move |conn| {
            crate::db::write(conn, |conn| {
                // Validate everything before changing anything.
                if let Some(s) = &body.season {
                    s.parse::<crate::rules::Season>().map_err(|_| {
                        GameError::Invalid(
                            format!("unknown season `{s}` (summer or winter)").into(),
                        )
                    })?;
                }
                let mut w = crate::game::maps::worlds::get(conn, wid)?;
                if let Some(v) = body.victory {
                    w = crate::game::campaign::set_victory(conn, &actor, wid, v)?;
                }
                if let Some(s) = &body.season {
                    w = gm::set_season(conn, &actor, wid, s)?;
                }
                if let Some(p) = body.paused {
                    w = gm::set_paused(conn, &actor, wid, p)?;
                }
                Ok(w)
            })
        })
        .await?;
    Ok(HttpResponse::Ok().json(crate::wire::views::WorldView::from(&w)))
}

pub async fn tick(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<WorldId>,
    body: web::Json<Value>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    actor.require_gm()?;
    let kind = body
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let st = state.clone();
    let out = state
        .db(move |conn| gm::run_tick(conn, &st.config.rules, &actor, wid, &kind))
        .await?;
    Ok(HttpResponse::Created().json(TickAnswer {
        turn: out.turn,
        season: out.season,
        rows: out.rows,
        duration_ms: out.duration_ms,
        orders_held_ms: out.orders_held_ms,
    }))
}

/// `POST /api/v1/worlds/{w}/bots`: 201 with the bot's name.
pub async fn add_bot(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<WorldId>,
    body: web::Json<NewBot>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let body = body.into_inner();
    let seated = state
        .db(move |conn| crate::game::bots::add(conn, &actor, wid, &body.nation, &body.level))
        .await?;
    Ok(HttpResponse::Created().json(BotView::from(seated)))
}

pub async fn list_bots(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<WorldId>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let bots = state
        .db(move |conn| crate::game::bots::list_for(conn, &actor, wid))
        .await?;
    Ok(HttpResponse::Ok().json(BotList {
        bots: bots.into_iter().map(BotView::from).collect(),
    }))
}

pub async fn remove_bot(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<(WorldId, String)>,
) -> Result<HttpResponse, ApiError> {
    let (wid, name) = path.into_inner();
    state
        .db(move |conn| crate::game::bots::remove(conn, &actor, wid, &name))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}
