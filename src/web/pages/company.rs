//! `/companies/{c}`: one of the player's companies, its figures, the enemies it sees, and the
//! forms for every order.

use super::{page, reports};
use crate::game::{maps::worlds, play, play::access, play::options, play::views};
use crate::rules::Pos;
use crate::web::auth::Viewer;
use crate::web::error::PageError;
use crate::web::AppState;
use crate::wire::views::{KindView, OptionsView, SeenEnemy, WorldView};
use actix_web::{web, HttpResponse};
use serde::Deserialize;

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
    let (view, w, cell, enemies, report, reserve, options) = state
        .db(move |conn| {
            let rs = &st.config.rules;
            let (c, player) = access::own_company(conn, &actor, id)?;
            let w = worlds::get(conn, c.world_id)?;
            let view = play::view(conn, rs, &c)?;
            let cell = views::cell_info(conn, rs, &w, Pos::new(c.x, c.y))?;
            // Enemies as far around as any company of the ruleset can see, not a number of its own.
            let r = crate::rules::vision::max_perception(rs);
            let rect = views::clip(&w, c.x - r, c.y - r, c.x + r, c.y + r);
            let who = views::Onlooker::player(actor.user_id, &player);
            let nations = worlds::nations_of(conn, w.id)?;
            let seen =
                views::player_map(conn, rs, Some(who), &w, nations, rect, views::Look::Around)?;
            let here = Pos::new(c.x, c.y);
            let enemies: Vec<SeenEnemy> = seen
                .companies
                .iter()
                .filter(|s| s.nation_id != player.nation_id)
                .map(|s| SeenEnemy::of(s, here, w.grid))
                .collect();
            let report = match report_id {
                Some(e) => reports::one(conn, &actor, w.id, e, lang)?,
                None => None,
            };
            let o = options::of(conn, rs, &actor, c.id, None)?;
            let options = OptionsView::of(lang, &o);
            Ok((view, w, cell, enemies, report, player.reserve, options))
        })
        .await?;
    let rs = &state.config.rules;
    Ok(page(&state, &viewer, "company.html", |ctx| {
        ctx.insert("volley_targets", &options.volley_targets());
        ctx.insert("melee_targets", &options.melee_targets());
        ctx.insert("options", &options);
        ctx.insert("reach", &options.reach);
        ctx.insert("reserve_gain", &rs.turn.reserve_gain);
        ctx.insert("reinforce_cost", &rs.limits.reinforce_cost_per_man);
        ctx.insert("company", &view);
        ctx.insert("world", &WorldView::from(&w));
        ctx.insert("cell", &cell);
        ctx.insert("enemies", &enemies);
        ctx.insert("report", &report);
        ctx.insert("reserve", &reserve);
        ctx.insert("kind", &KindView::of(rs, view.kind));
        ctx.insert("costs", &rs.actions);
        ctx.insert("here", &format!("/companies/{}", view.id));
    })?)
}
