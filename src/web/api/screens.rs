//! The screens the pages draw, for the API's players: `GET /api/v1/worlds/{w}/screen` and
//! `GET /api/v1/companies/{c}/screen`.

use crate::game::play::views;
use crate::game::screens::{self, world};
use crate::ids::{CompanyId, WorldId};
use crate::said;
use crate::web::auth::{ApiCredentials, MaybeCredentials};
use crate::web::error::ApiError;
use crate::web::middleware::ReaderLang;
use crate::web::order_input;
use crate::web::AppState;
use crate::wire::input::CellRef;
use crate::wire::screens::{
    CompanyScreenAnswer, CompanyScreenQuery, ScreenQuery, WorldScreenAnswer,
};
use actix_web::{web, HttpResponse};

/// The rectangle a screen shows when none is asked for: the page's middle zoom.
const COLUMNS: i32 = 30;
const ROWS: i32 = 20;

pub async fn world_screen(
    state: web::Data<AppState>,
    who: MaybeCredentials,
    path: web::Path<WorldId>,
    q: web::Query<ScreenQuery>,
    ReaderLang(lang): ReaderLang,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let q = q.into_inner();
    let cell = q
        .cell
        .clone()
        .map(|s| order_input::cell(&CellRef::Text(s), said::msg("what-cell")))
        .transpose()?;
    let st = state.clone();
    let answer = state
        .db(move |conn| {
            let actor = who.resolve(conn)?;
            let sp = world::standpoint(conn, actor.as_ref(), wid, q.company)?;
            let w = &sp.world;
            let rect = if q.x0.or(q.y0).or(q.x1).or(q.y1).is_some() {
                views::asked(w, q.x0, q.y0, q.x1, q.y1)
            } else {
                world::around(w, sp.focus(), COLUMNS, ROWS)
            };
            let view = world::View {
                rect,
                cell,
                report: q.report,
            };
            let s = world::screen(conn, &st.config, actor.as_ref(), sp, view)?;
            Ok(WorldScreenAnswer::of(&st.config.rules, s, lang))
        })
        .await?;
    Ok(HttpResponse::Ok().json(answer))
}

pub async fn company_screen(
    state: web::Data<AppState>,
    who: ApiCredentials,
    path: web::Path<CompanyId>,
    q: web::Query<CompanyScreenQuery>,
    ReaderLang(lang): ReaderLang,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let report = q.report;
    let st = state.clone();
    let answer = state
        .db(move |conn| {
            let actor = who.resolve(conn)?;
            let s = screens::company::screen(conn, &st.config.rules, &actor, id, report)?;
            Ok(CompanyScreenAnswer::of(&st.config.rules, s, lang))
        })
        .await?;
    Ok(HttpResponse::Ok().json(answer))
}
