//! `/companies/{c}`: one of the player's companies, its figures, the enemies it sees, and the
//! forms for every order.

use super::{page, reports};
use crate::game::{access, play, views, worlds};
use crate::rules::{Kind, Pos};
use crate::web::auth::Viewer;
use crate::web::error::PageError;
use crate::web::AppState;
use actix_web::{web, HttpResponse};
use serde::Deserialize;
use serde_json::json;

#[derive(Deserialize)]
pub struct CompanyQuery {
    pub report: Option<i32>,
}

pub async fn show(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<i32>,
    q: web::Query<CompanyQuery>,
) -> Result<HttpResponse, PageError> {
    let actor = viewer.require()?;
    let id = path.into_inner();
    let report_id = q.report;
    let lang = viewer.lang;
    let st = state.clone();
    let (view, w, cell, enemies, report, reserve) = state
        .db(move |conn| {
            let rs = &st.config.rules;
            let (c, player) = access::own_company(conn, &actor, id)?;
            let w = worlds::get(conn, c.world_id)?;
            let view = play::view(conn, rs, &c)?;
            let cell = views::cell_info(conn, rs, &w, Pos::new(c.x, c.y))?;
            let r = 6;
            let rect = views::clip(&w, c.x - r, c.y - r, c.x + r, c.y + r);
            let who = views::Onlooker {
                user_id: actor.user_id,
                nation_id: Some(player.nation_id),
            };
            let nations = worlds::nations_of(conn, w.id)?;
            let seen = views::player_map(conn, rs, Some(who), &w, nations, rect, false)?;
            let enemies: Vec<_> = seen
                .companies
                .into_iter()
                .filter(|s| s.nation_id != player.nation_id)
                .map(|s| json!({"id": s.id, "name": s.name, "kind": s.kind, "nation": s.nation, "x": s.x, "y": s.y, "hidden": s.hidden, "distance": Pos::new(s.x, s.y).distance(Pos::new(c.x, c.y))}))
                .collect();
            let report = match report_id {
                Some(e) => reports::one(conn, &actor, w.id, e, lang)?,
                None => None,
            };
            Ok((view, w, cell, enemies, report, player.reserve))
        })
        .await?;
    let rs = &state.config.rules;
    let kind: Kind = view.kind.parse().unwrap_or(Kind::Infantry);
    let k = rs.kind(kind);
    // Offer only the targets an order could take: seen, not hidden, within reach for a
    // volley (with the ground's range bonus); next to the company for a charge.
    let ground: Option<crate::rules::Terrain> = cell.as_ref().and_then(|c| c.terrain.parse().ok());
    let reach = k.volley.map(|v| {
        v.range
            + ground
                .and_then(|t| rs.terrain(t).range_bonus.get(&kind).copied())
                .unwrap_or(0)
    });
    let distance = |e: &serde_json::Value| e["distance"].as_i64().unwrap_or(i64::MAX);
    let volley_targets: Vec<&serde_json::Value> = enemies
        .iter()
        .filter(|e| e["hidden"] != true && reach.is_some_and(|r| distance(e) <= r as i64))
        .collect();
    let melee_targets: Vec<&serde_json::Value> =
        enemies.iter().filter(|e| distance(e) == 1).collect();
    let room = (k.full_strength - view.men).max(0);
    Ok(page(&state, &viewer, "company.html", |ctx| {
        ctx.insert("volley_targets", &volley_targets);
        ctx.insert("melee_targets", &melee_targets);
        ctx.insert("reach", &reach);
        ctx.insert("room", &room);
        ctx.insert("reinforce_max", &reserve.min(room));
        ctx.insert("reserve_gain", &rs.turn.reserve_gain);
        ctx.insert("reinforce_cost", &rs.limits.reinforce_cost_per_man);
        ctx.insert("company", &view);
        ctx.insert("world", &json!({"id": w.id, "name": w.name, "turn": w.turn, "season": w.season, "paused": w.paused}));
        ctx.insert("cell", &cell);
        ctx.insert("enemies", &enemies);
        ctx.insert("report", &report);
        ctx.insert("reserve", &reserve);
        ctx.insert("kind", &json!({
            "full_strength": k.full_strength, "max_ap": k.max_ap, "ap_per_turn": k.ap_per_turn, "perception": k.perception,
            "volley": k.volley.map(|v| json!({"min": v.min, "max": v.max, "range": v.range, "cost": v.cost})),
            "melee": k.melee.map(|m| json!({"min": m.min, "max": m.max, "cost": m.cost})),
            "bombard": k.can(crate::rules::ruleset::Ability::Bombard),
            "bridge": k.can(crate::rules::ruleset::Ability::BuildBridge),
            "repair": k.can(crate::rules::ruleset::Ability::Repair),
        }));
        ctx.insert("costs", &json!(rs.actions));
        ctx.insert("here", &format!("/companies/{}", view.id));
    })?)
}
