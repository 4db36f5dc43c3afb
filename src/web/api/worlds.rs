//! `/api/v1/worlds`: what worlds there are and where each stands.

use crate::game::{dice, worlds};
use crate::scheduler;
use crate::web::error::ApiError;
use crate::web::AppState;
use actix_web::{web, HttpResponse};
use serde_json::json;

pub async fn list(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let list = state.db(worlds::list).await?;
    Ok(HttpResponse::Ok().json(json!({
        "worlds": list.iter().map(|w| json!({
            "id": w.id, "name": w.name, "width": w.width, "height": w.height,
            "turn": w.turn, "season": w.season, "paused": w.paused,
        })).collect::<Vec<_>>()
    })))
}

pub async fn show(
    state: web::Data<AppState>,
    path: web::Path<i32>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let (w, nations, last) = state
        .db(move |conn| {
            let w = worlds::get(conn, id)?;
            let n = worlds::nations_of(conn, id)?;
            let last = scheduler::last_ticks(conn, id)?;
            Ok((w, n, last))
        })
        .await?;
    let c = &state.config;
    let next_turn = scheduler::next_due(&c.turn_schedule, last.turn, w.schedule_anchor);
    let next_season = scheduler::next_due(&c.season_schedule, last.season, w.schedule_anchor);
    Ok(HttpResponse::Ok().json(json!({
        "id": w.id, "name": w.name, "width": w.width, "height": w.height,
        "turn": w.turn, "season": w.season, "paused": w.paused,
        "next_turn_at": scheduler::iso(next_turn),
        "next_season_at": scheduler::iso(next_season),
        // This turn's dice: the seed itself is revealed at /dice/{turn} once the turn ends.
        "dice": {"turn": w.turn, "commitment": dice::commitment(w.rng_seed)},
        "nations": nations.iter().map(|n| json!({
            "id": n.id, "name": n.name, "color": n.color, "treasury": n.treasury,
        })).collect::<Vec<_>>(),
    })))
}

/// `GET /api/v1/worlds/{w}/dice/{turn}`: the seed of an ended turn, to replay its reports.
pub async fn dice_seed(
    state: web::Data<AppState>,
    path: web::Path<(i32, i32)>,
) -> Result<HttpResponse, ApiError> {
    let (w, turn) = path.into_inner();
    let seed = state
        .db(move |conn| {
            worlds::get(conn, w)?;
            dice::revealed(conn, w, turn)
        })
        .await?;
    Ok(HttpResponse::Ok().json(seed))
}
