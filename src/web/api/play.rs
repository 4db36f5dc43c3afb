//! The player's API: joining, raising, orders, the map, events, nations and regiments.

use crate::game::play::orders;
use crate::game::play::report::Report;
use crate::game::{maps::worlds, play, play::access, play::reports, play::views, GameError};
use crate::ids::{CompanyId, EventId, RegimentId, WorldId};
use crate::said;
use crate::web::api::OptionalJson;
use crate::web::auth::{ApiActor, ApiCredentials};
use crate::web::error::ApiError;
use crate::web::middleware::ReaderLang;
use crate::web::order_input;
use crate::web::AppState;
use crate::wire::input::CellRef;
use crate::wire::play::*;
use crate::wire::views::{CompanyView, EventView, OptionsView, RegimentView};
use actix_web::{web, HttpResponse};
use serde_json::Value;

pub async fn join(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<WorldId>,
    body: web::Json<JoinBody>,
) -> Result<HttpResponse, ApiError> {
    let w = path.into_inner();
    let nation = match &body.nation {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return Err(GameError::Invalid("nation is a name or an id".into()).into()),
    };
    let p = state
        .db(move |conn| play::join(conn, &actor, w, &nation))
        .await?;
    Ok(HttpResponse::Created().json(Joined {
        player: p.id,
        world: p.world_id,
        nation: p.nation_id,
        reserve: p.reserve,
    }))
}

pub async fn raise(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<WorldId>,
    body: web::Json<RaiseBody>,
) -> Result<HttpResponse, ApiError> {
    let w = path.into_inner();
    let st = state.clone();
    let view = state
        .db(move |conn| {
            let c = play::raise(conn, &st.config.rules, &actor, w, &body.kind, &body.name)?;
            Ok(CompanyView::of(
                &c,
                play::hidden(conn, &st.config.rules, &c)?,
            ))
        })
        .await?;
    Ok(HttpResponse::Created().json(view))
}

pub async fn company(
    state: web::Data<AppState>,
    who: ApiCredentials,
    path: web::Path<CompanyId>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let st = state.clone();
    let view = state
        .db(move |conn| {
            let actor = who.resolve(conn)?;
            let (c, _) = access::own_company(conn, &actor, id)?;
            Ok(CompanyView::of(
                &c,
                play::hidden(conn, &st.config.rules, &c)?,
            ))
        })
        .await?;
    Ok(HttpResponse::Ok().json(view))
}

/// `GET /api/v1/companies/{c}/options[?at=x,y]`: what the company may do now, judged by the
/// same rules as its orders (what the world and company pages offer).
pub async fn options(
    state: web::Data<AppState>,
    who: ApiCredentials,
    path: web::Path<CompanyId>,
    q: web::Query<OptionsQuery>,
    ReaderLang(lang): ReaderLang,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let at = match q.into_inner().at {
        Some(s) => Some(order_input::cell(
            &CellRef::Text(s),
            said::msg("what-cell"),
        )?),
        None => None,
    };
    let st = state.clone();
    let view = state
        .db(move |conn| {
            let actor = who.resolve(conn)?;
            let o = crate::game::play::options::of(conn, &st.config.rules, &actor, id, at)?;
            Ok(OptionsView::of(&st.config.rules, lang, &o))
        })
        .await?;
    Ok(HttpResponse::Ok().json(view))
}

pub async fn act(
    state: web::Data<AppState>,
    who: ApiCredentials,
    path: web::Path<(CompanyId, String)>,
    OptionalJson(body): OptionalJson<OrderFields>,
) -> Result<HttpResponse, ApiError> {
    let (id, action) = path.into_inner();
    let st = state.clone();
    let is_move = action == "move";
    let out = state
        .db(move |conn| {
            let actor = who.resolve(conn)?;
            let order = order_input::parse(&action, &body)?;
            orders::execute(conn, &st.writes, &st.config, &actor, id, order)
        })
        .await?;
    if is_move {
        return Ok(MoveAnswer::respond(out.into()));
    }
    Ok(HttpResponse::Ok().json(Outcome::from(out)))
}

impl MoveAnswer {
    /// The answer of a move order: its report's fields beside the company; any other order's
    /// outcome as it is.
    fn respond(out: Outcome) -> HttpResponse {
        match out.report {
            Report::Move(m) => HttpResponse::Ok().json(MoveAnswer {
                steps: m.steps,
                cost: m.cost,
                captures: m.captures,
                company: out.company,
                event_id: out.event_id,
                summary: out.summary,
            }),
            _ => HttpResponse::Ok().json(out),
        }
    }
}

pub async fn map(
    state: web::Data<AppState>,
    who: ApiCredentials,
    path: web::Path<WorldId>,
    q: web::Query<Rect>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let q = q.into_inner();
    let st = state.clone();
    let v = state
        .db(move |conn| {
            let actor = who.resolve(conn)?;
            let w = worlds::get(conn, wid)?;
            let rect = views::asked(&w, q.x0, q.y0, q.x1, q.y1);
            let who = views::Onlooker::of(conn, w.id, &actor)?;
            let nations = worlds::nations_of(conn, w.id)?;
            let m = views::player_map(
                conn,
                &st.config.rules,
                Some(who),
                &w,
                nations,
                rect,
                views::Look::Whole,
            )?;
            Ok(MapAnswer::of(rect, w.grid, m))
        })
        .await?;
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .body(v.to_json()))
}

pub async fn events(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<WorldId>,
    q: web::Query<Since>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let since = q.since.unwrap_or(EventId(0));
    let limit = q.limit.unwrap_or(100).clamp(1, 500);
    let list = state
        .db(move |conn| {
            worlds::get(conn, wid)?;
            reports::read(conn, &actor, wid, since, EventId(i32::MAX), limit)
        })
        .await?;
    Ok(HttpResponse::Ok().json(EventList {
        events: list.iter().map(EventView::from).collect(),
    }))
}

pub async fn nations(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<WorldId>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let st = state.clone();
    let list = state
        .db(move |conn| {
            let w = worlds::get(conn, wid)?;
            let mine = access::player_in(conn, &actor, wid)?.map(|p| p.nation_id);
            views::nations(conn, &st.config.rules, mine, &w)
        })
        .await?;
    Ok(HttpResponse::Ok().json(NationList {
        nations: list.into_iter().map(Into::into).collect(),
    }))
}

pub async fn take_leave(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<WorldId>,
    body: web::Json<LeaveBody>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let days = body.days;
    let st = state.clone();
    let until = state
        .db(move |conn| crate::game::play::leave::take(conn, &st.config.rules, &actor, wid, days))
        .await?;
    Ok(HttpResponse::Ok().json(LeaveAnswer {
        days,
        leave_until: crate::wire::views::rfc3339(Some(until)),
    }))
}

pub async fn create_regiment(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<WorldId>,
    body: web::Json<RegimentBody>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let st = state.clone();
    let r = state
        .db(move |conn| play::create_regiment(conn, &st.config.rules, &actor, wid, &body.name))
        .await?;
    Ok(HttpResponse::Created().json(RegimentView::from(&r)))
}

pub async fn join_regiment(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<(WorldId, RegimentId)>,
) -> Result<HttpResponse, ApiError> {
    let (wid, rid) = path.into_inner();
    let r = state
        .db(move |conn| play::join_regiment(conn, &actor, wid, rid))
        .await?;
    Ok(HttpResponse::Ok().json(RegimentView::from(&r)))
}

pub async fn set_headquarters(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<(WorldId, RegimentId)>,
    body: web::Json<AtBody>,
) -> Result<HttpResponse, ApiError> {
    let (wid, rid) = path.into_inner();
    let at = order_input::at(&body.at)?;
    let st = state.clone();
    let r = state
        .db(move |conn| play::set_headquarters(conn, &st.config.rules, &actor, wid, rid, at))
        .await?;
    Ok(HttpResponse::Ok().json(RegimentView::from(&r)))
}
