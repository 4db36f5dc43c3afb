//! `/companies/{c}`: one of the player's companies, its figures, the enemies it sees, and the
//! forms for every order.

use super::page;
use crate::game::screens;
use crate::ids::{CompanyId, EventId};
use crate::web::auth::Viewer;
use crate::web::error::PageError;
use crate::web::AppState;
use crate::wire::screens::CompanyScreenAnswer;
use crate::wire::views::KindView;
use actix_web::{web, HttpResponse};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct CompanyQuery {
    pub report: Option<EventId>,
}

pub async fn show(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<CompanyId>,
    q: web::Query<CompanyQuery>,
) -> Result<HttpResponse, PageError> {
    let actor = viewer.require()?;
    let id = path.into_inner();
    let report = q.report;
    let st = state.clone();
    let screen = state
        .db(move |conn| screens::company::screen(conn, &st.config.rules, &actor, id, report))
        .await?;
    let CompanyScreenAnswer {
        company: view,
        world: w,
        reserve,
        cell,
        enemies,
        options,
        report,
    } = CompanyScreenAnswer::of(&state.config.rules, screen, viewer.lang);
    let rs = &state.config.rules;
    Ok(page(&state, &viewer, "company.html", |ctx| {
        ctx.insert("volley_targets", &options.volley_targets());
        ctx.insert("melee_targets", &options.melee_targets());
        ctx.insert("options", &options);
        ctx.insert("reach", &options.reach);
        ctx.insert("reserve_gain", &rs.turn.reserve_gain);
        ctx.insert("reinforce_cost", &rs.limits.reinforce_cost_per_man);
        ctx.insert("company", &view);
        ctx.insert("world", &w);
        ctx.insert("cell", &cell);
        ctx.insert("enemies", &enemies);
        ctx.insert("report", &report);
        ctx.insert("reserve", &reserve);
        ctx.insert("kind", &KindView::of(rs, view.kind));
        ctx.insert("costs", &rs.actions);
        ctx.insert("here", &format!("/companies/{}", view.id));
    })?)
}
