//! The player's API: joining, raising, orders, the map, events, nations and regiments.

use crate::game::{access, play, reports, views, worlds, GameError};
use crate::game::{order_input, orders};
use crate::web::api::OptionalJson;
use crate::web::auth::{ApiActor, ApiCredentials};
use crate::web::error::ApiError;
use crate::web::AppState;
use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

#[derive(Deserialize)]
pub struct JoinBody {
    pub nation: Value,
}

pub async fn join(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<i32>,
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
    Ok(HttpResponse::Created().json(
        json!({"player": p.id, "world": p.world_id, "nation": p.nation_id, "reserve": p.reserve}),
    ))
}

#[derive(Deserialize)]
pub struct RaiseBody {
    pub kind: String,
    pub name: String,
}

pub async fn raise(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<i32>,
    body: web::Json<RaiseBody>,
) -> Result<HttpResponse, ApiError> {
    let w = path.into_inner();
    let st = state.clone();
    let view = state
        .db(move |conn| {
            let c = play::raise(conn, &st.config.rules, &actor, w, &body.kind, &body.name)?;
            play::view(conn, &st.config.rules, &c)
        })
        .await?;
    Ok(HttpResponse::Created().json(view))
}

pub async fn company(
    state: web::Data<AppState>,
    who: ApiCredentials,
    path: web::Path<i32>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let st = state.clone();
    let view = state
        .db(move |conn| {
            let actor = who.resolve(conn)?;
            let (c, _) = access::own_company(conn, &actor, id)?;
            play::view(conn, &st.config.rules, &c)
        })
        .await?;
    Ok(HttpResponse::Ok().json(view))
}

pub async fn act(
    state: web::Data<AppState>,
    who: ApiCredentials,
    path: web::Path<(i32, String)>,
    OptionalJson(body): OptionalJson,
) -> Result<HttpResponse, ApiError> {
    let (id, action) = path.into_inner();
    let st = state.clone();
    let is_move = action == "move";
    let out = state
        .db(move |conn| {
            let actor = who.resolve(conn)?;
            let order = order_input::parse(&action, &body)?;
            orders::execute(conn, &st.config.rules, &actor, id, order)
        })
        .await?;
    if is_move {
        let mut v = serde_json::to_value(&out.company).unwrap_or(Value::Null);
        v["steps"] = out.report["steps"].clone();
        v["cost"] = out.report["cost"].clone();
        v["captures"] = out.report["captures"].clone();
        v["event_id"] = json!(out.event_id);
        v["summary"] = json!(out.summary);
        return Ok(HttpResponse::Ok().json(v));
    }
    Ok(HttpResponse::Ok().json(out))
}

#[derive(Deserialize)]
pub struct Rect {
    pub x0: Option<i32>,
    pub y0: Option<i32>,
    pub x1: Option<i32>,
    pub y1: Option<i32>,
}

/// `GET /api/v1/worlds/{w}/map`.
#[derive(Serialize)]
pub struct MapAnswer {
    pub x0: i32,
    pub y0: i32,
    pub x1: i32,
    pub y1: i32,
    pub cells: Vec<views::MapCell>,
    pub companies: Vec<views::SeenCompany>,
}

pub async fn map(
    state: web::Data<AppState>,
    who: ApiCredentials,
    path: web::Path<i32>,
    q: web::Query<Rect>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let q = q.into_inner();
    let st = state.clone();
    let v = state
        .db(move |conn| {
            let actor = who.resolve(conn)?;
            let w = worlds::get(conn, wid)?;
            let rect = views::clip(
                &w,
                q.x0.unwrap_or(0),
                q.y0.unwrap_or(0),
                q.x1.unwrap_or(w.width - 1),
                q.y1.unwrap_or(w.height - 1),
            );
            let m = views::player_map(conn, &st.config.rules, Some(&actor), &w, rect, false)?;
            Ok(MapAnswer {
                x0: rect.0,
                y0: rect.1,
                x1: rect.2,
                y1: rect.3,
                cells: m.cells,
                companies: m.companies,
            })
        })
        .await?;
    Ok(HttpResponse::Ok().json(v))
}

#[derive(Deserialize)]
pub struct Since {
    pub since: Option<i32>,
    pub limit: Option<i64>,
}

pub async fn events(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<i32>,
    q: web::Query<Since>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let since = q.since.unwrap_or(0);
    let limit = q.limit.unwrap_or(100).clamp(1, 500);
    let list = state
        .db(move |conn| {
            worlds::get(conn, wid)?;
            reports::visible_events(conn, &actor, wid, since, limit)
        })
        .await?;
    Ok(HttpResponse::Ok().json(json!({
        "events": list.iter().map(|e| json!({
            "id": e.id, "turn": e.turn, "at": e.at, "kind": e.kind, "summary": e.summary,
            "company": e.company_id, "target_company": e.target_company_id, "x": e.x, "y": e.y,
            "data": serde_json::from_str::<Value>(&e.data).unwrap_or(Value::Null),
        })).collect::<Vec<_>>()
    })))
}

pub async fn nations(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<i32>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let st = state.clone();
    let list = state
        .db(move |conn| {
            worlds::get(conn, wid)?;
            let mine = access::player_in(conn, &actor, wid)?.map(|p| p.nation_id);
            views::nations(conn, &st.config.rules, mine, wid)
        })
        .await?;
    Ok(HttpResponse::Ok().json(json!({"nations": list})))
}

#[derive(Deserialize)]
pub struct RegimentBody {
    pub name: String,
}

fn regiment_json(r: &crate::db::models::Regiment) -> Value {
    json!({"id": r.id, "name": r.name, "nation": r.nation_id, "headquarters": r.hq_x.zip(r.hq_y).map(|(x, y)| [x, y])})
}

pub async fn create_regiment(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<i32>,
    body: web::Json<RegimentBody>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let r = state
        .db(move |conn| play::create_regiment(conn, &actor, wid, &body.name))
        .await?;
    Ok(HttpResponse::Created().json(regiment_json(&r)))
}

pub async fn join_regiment(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<(i32, i32)>,
) -> Result<HttpResponse, ApiError> {
    let (wid, rid) = path.into_inner();
    let r = state
        .db(move |conn| play::join_regiment(conn, &actor, wid, rid))
        .await?;
    Ok(HttpResponse::Ok().json(regiment_json(&r)))
}

pub async fn set_headquarters(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<(i32, i32)>,
    body: web::Json<Value>,
) -> Result<HttpResponse, ApiError> {
    let (wid, rid) = path.into_inner();
    let at = order_input::cell(body.get("at").unwrap_or(&Value::Null), "at")?;
    let st = state.clone();
    let r = state
        .db(move |conn| play::set_headquarters(conn, &st.config.rules, &actor, wid, rid, at))
        .await?;
    Ok(HttpResponse::Ok().json(regiment_json(&r)))
}
