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
use crate::wire::views::{EventView, OptionsView, RegimentView};
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
            play::view(conn, &st.config.rules, &c)
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
            play::view(conn, &st.config.rules, &c)
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
            Ok(OptionsView::of(lang, &o))
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
        return Ok(MoveAnswer::respond(out));
    }
    Ok(HttpResponse::Ok().json(out))
}

impl MoveAnswer {
    /// The answer of a move order: its report's fields beside the company; any other order's
    /// outcome as it is.
    fn respond(out: orders::Outcome) -> HttpResponse {
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

impl MapAnswer {
    /// The answer as JSON, byte for byte what `serde_json` writes for it. The cells are
    /// written by hand: serde escaped the same seven keys again for each of hundreds of cells,
    /// a quarter of the request's time.
    pub fn to_json(&self) -> String {
        let mut o = String::with_capacity(96 + self.cells.len() * 90 + self.companies.len() * 220);
        let mut n = itoa::Buffer::new();
        for (key, v) in [
            ("{\"x0\":", self.x0),
            (",\"y0\":", self.y0),
            (",\"x1\":", self.x1),
            (",\"y1\":", self.y1),
        ] {
            o.push_str(key);
            o.push_str(n.format(v));
        }
        o.push_str(",\"cells\":[");
        for (i, c) in self.cells.iter().enumerate() {
            if i > 0 {
                o.push(',');
            }
            o.push_str("{\"x\":");
            o.push_str(n.format(c.x));
            o.push_str(",\"y\":");
            o.push_str(n.format(c.y));
            o.push_str(",\"terrain\":\"");
            o.push_str(c.terrain.as_str());
            // Most cells are bare ground: their end is said in one piece.
            if c.owner.is_none()
                && c.town.is_none()
                && c.structure.is_none()
                && c.siege_tower.is_none()
            {
                o.push_str(if c.seen {
                    "\",\"owner\":null,\"town\":null,\"structure\":null,\"seen\":true}"
                } else {
                    "\",\"owner\":null,\"town\":null,\"structure\":null,\"seen\":false}"
                });
                continue;
            }
            o.push_str("\",\"owner\":");
            json_opt_str(&mut o, c.owner.as_deref());
            o.push_str(",\"town\":");
            json_opt_str(&mut o, c.town.as_deref());
            o.push_str(",\"structure\":");
            match c.structure {
                Some(v) => o.push_str(n.format(v)),
                None => o.push_str("null"),
            }
            if let Some(t) = c.siege_tower {
                o.push_str(",\"siege_tower\":{\"builds\":");
                o.push_str(n.format(t.builds));
                o.push_str(",\"structure\":");
                o.push_str(n.format(t.structure));
                o.push_str(if t.finished {
                    ",\"finished\":true}"
                } else {
                    ",\"finished\":false}"
                });
            }
            o.push_str(if c.seen {
                ",\"seen\":true}"
            } else {
                ",\"seen\":false}"
            });
        }
        o.push_str("],\"companies\":");
        // A few companies: serde's own writing costs little here.
        o.push_str(&serde_json::to_string(&self.companies).unwrap_or_else(|_| "[]".into()));
        o.push_str(",\"grid\":\"");
        o.push_str(self.grid.as_str());
        o.push_str("\",\"edges\":");
        o.push_str(&serde_json::to_string(&self.edges).unwrap_or_else(|_| "[]".into()));
        o.push('}');
        o
    }
}

/// A JSON string or null; text without quotes, backslashes or control characters (all names
/// in practice) is written as it is, anything else as serde writes it.
fn json_opt_str(o: &mut String, s: Option<&str>) {
    match s {
        None => o.push_str("null"),
        Some(s) if !s.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20) => {
            o.push('"');
            o.push_str(s);
            o.push('"');
        }
        Some(s) => o.push_str(&serde_json::to_string(s).unwrap_or_else(|_| "null".into())),
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
            let rect = views::clip(
                &w,
                q.x0.unwrap_or(0),
                q.y0.unwrap_or(0),
                q.x1.unwrap_or(w.width - 1),
                q.y1.unwrap_or(w.height - 1),
            );
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
            Ok(MapAnswer {
                x0: rect.0,
                y0: rect.1,
                x1: rect.2,
                y1: rect.3,
                cells: m.cells,
                companies: m.companies,
                grid: w.grid,
                edges: m.edges,
            })
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
    Ok(HttpResponse::Ok().json(NationList { nations: list }))
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

#[cfg(test)]
mod tests {
    use super::MapAnswer;
    use crate::game::play::views::{MapCell, SeenCompany};
    use crate::rules::Terrain;

    #[test]
    fn the_map_answer_is_written_as_serde_writes_it() {
        let cell = |x, terrain, owner: Option<&str>, town: Option<&str>, structure, seen| MapCell {
            x,
            y: -3,
            terrain,
            owner: owner.map(String::from),
            town: town.map(String::from),
            structure,
            siege_tower: None,
            seen,
            owner_id: None,
            town_id: None,
        };
        let besieged = |builds, structure, finished| MapCell {
            siege_tower: Some(crate::game::play::views::SiegeTowerView {
                builds,
                structure,
                finished,
            }),
            ..cell(3, Terrain::Plain, None, None, None, true)
        };
        let answer = MapAnswer {
            x0: 0,
            y0: -3,
            x1: 2147483647,
            y1: 12,
            cells: vec![
                cell(0, Terrain::Plain, None, None, None, false),
                cell(0, Terrain::Forest, None, None, None, true),
                cell(0, Terrain::Plain, None, None, Some(3), false),
                cell(0, Terrain::Plain, Some("France"), None, None, true),
                cell(
                    1,
                    Terrain::Fortifications,
                    Some("France"),
                    Some("Vitebsk"),
                    Some(0),
                    true,
                ),
                cell(
                    2,
                    Terrain::Church,
                    Some("Ru\"ss\\ia\u{1}é"),
                    Some("Orša\n"),
                    Some(-7),
                    true,
                ),
                besieged(1, 0, false),
                besieged(3, 6, true),
            ],
            companies: vec![SeenCompany {
                id: crate::ids::CompanyId(7),
                name: "1er \"Grenadiers\"".into(),
                kind: crate::rules::Kind::Infantry,
                x: 1,
                y: -3,
                nation_id: crate::ids::NationId(1),
                nation: "France".into(),
                color: "#2b4c9b".into(),
                mine: true,
                friend: true,
                hidden: false,
                on_leave: false,
                men: Some(200),
                wounded: None,
                ap: Some(24),
                morale: Some(100),
            }],
            grid: crate::rules::Grid::Hex,
            edges: vec![crate::game::play::views::EdgeView {
                x: 4,
                y: 7,
                side: crate::rules::Side::NE,
                feature: crate::rules::names::EdgeFeature::Rampart,
            }],
        };
        assert_eq!(answer.to_json(), serde_json::to_string(&answer).unwrap());
        let empty = MapAnswer {
            cells: Vec::new(),
            companies: Vec::new(),
            grid: crate::rules::Grid::Square,
            edges: Vec::new(),
            ..answer
        };
        assert_eq!(empty.to_json(), serde_json::to_string(&empty).unwrap());
    }
}
