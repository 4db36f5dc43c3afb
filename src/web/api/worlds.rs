//! `/api/v1/worlds`: what worlds there are and where each stands.

use crate::game::play::{self, access};
use crate::game::time::clock;
use crate::game::{maps::worlds, time::dice};
use crate::ids::WorldId;
use crate::web::auth::MaybeCredentials;
use crate::web::error::ApiError;
use crate::web::middleware::ReaderLang;
use crate::web::AppState;
use crate::wire::views::{rfc3339, NationView, RaiseView, WorldView};
use crate::wire::worlds::*;
use actix_web::{web, HttpResponse};

pub async fn list(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let list = state.db(worlds::list).await?;
    Ok(HttpResponse::Ok().json(WorldList {
        worlds: list.iter().map(WorldView::from).collect(),
    }))
}

pub async fn show(
    state: web::Data<AppState>,
    who: MaybeCredentials,
    path: web::Path<WorldId>,
    ReaderLang(lang): ReaderLang,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let st = state.clone();
    let (w, nations, viewer, next, raise) = state
        .db(move |conn| {
            let w = worlds::get(conn, id)?;
            let n = worlds::nations_of(conn, id)?;
            let actor = who.resolve(conn)?;
            let player = match &actor {
                Some(a) => access::player_in(conn, a, id)?,
                None => None,
            };
            let raise = match &player {
                Some(p) => Some(play::may_raise_now(conn, &st.config.rules, &w, p)?),
                None => None,
            };
            let next = clock::next_ticks(conn, &st.config, &w)?;
            Ok((w, n, player.map(|p| p.nation_id), next, raise))
        })
        .await?;
    // `raise` is said as the raise's own error answer would say it.
    Ok(HttpResponse::Ok().json(WorldAnswer {
        world: WorldView::from(&w),
        next_turn_at: rfc3339(next.turn),
        next_season_at: rfc3339(next.season),
        dice: DiceCommitment {
            turn: w.turn,
            commitment: dice::commitment(w.rng_seed),
        },
        nations: nations
            .iter()
            .map(|n| NationView::of(n, viewer, w.ended()))
            .collect(),
        raise: raise.map(|v| RaiseView::of_api(lang, &v)),
    }))
}

/// `GET /api/v1/worlds/{w}/dice/{turn}`: the seed of an ended turn, to replay its reports.
pub async fn dice_seed(
    state: web::Data<AppState>,
    path: web::Path<(WorldId, i32)>,
) -> Result<HttpResponse, ApiError> {
    let (w, turn) = path.into_inner();
    let seed = state
        .db(move |conn| {
            worlds::get(conn, w)?;
            dice::revealed(conn, w, turn)
        })
        .await?;
    Ok(HttpResponse::Ok().json(RevealedSeed::of(turn, seed)))
}
