//! `/worlds/{w}/standings`: the campaign's state (running, or its result), the nations'
//! points, the castles' sections and the holders the viewer's nation may know, the history
//! drawn as curves (`render::chart`), and the players' rankings as the last turn left them,
//! with the viewer's own row.

use super::page;
use crate::game::campaign::{self, next, scores};
use crate::game::maps::worlds;
use crate::game::play::access;
use crate::ids::WorldId;
use crate::web::auth::Viewer;
use crate::web::error::PageError;
use crate::web::render::chart::{self, Figure};
use crate::web::AppState;
use crate::wire::campaign::{CastleView, History, Rankings, Standings};
use crate::wire::views::WorldView;
use actix_web::{web, HttpResponse};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StandingsQuery {
    pub by: Option<String>,
    pub page: Option<i64>,
}

pub async fn show(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<WorldId>,
    q: web::Query<StandingsQuery>,
) -> Result<HttpResponse, PageError> {
    let wid = path.into_inner();
    let q = q.into_inner();
    let by =
        q.by.as_deref()
            .filter(|b| !b.is_empty())
            .map(scores::RankBy::parse)
            .transpose()?
            .unwrap_or_default();
    let actor = viewer.actor();
    let me = actor.as_ref().map(|a| a.user_id);
    let st = state.clone();
    let (w, standings, history, rankings, following, castles) = state
        .db(move |conn| {
            let w = worlds::get(conn, wid)?;
            let nation = access::viewer_nation(conn, actor.as_ref(), wid)?;
            let standings = Standings::of(&campaign::standings(conn, &st.config.rules, wid)?);
            let history = History::of(campaign::history(conn, wid, nation)?);
            let rankings = Rankings::from(&scores::rankings(conn, wid, by, q.page, me)?);
            let following = next::following(conn, wid)?;
            let castles =
                CastleView::list(crate::game::maps::castles::of(conn, wid, nation, None)?);
            Ok((w, standings, history, rankings, following, castles))
        })
        .await?;
    let colors: Vec<(String, String)> = standings
        .nations
        .iter()
        .map(|n| (n.nation.clone(), n.color.clone()))
        .collect();
    let charts: Vec<_> = [Figure::Points, Figure::Towns, Figure::Mines]
        .into_iter()
        .map(|f| chart::chart(&history, f, &colors))
        .collect();
    Ok(page(&state, &viewer, "standings.html", |ctx| {
        ctx.insert("world", &WorldView::from(&w));
        ctx.insert("standings", &standings);
        ctx.insert("towns_percent", &(standings.towns_share * 100.0).round());
        ctx.insert("charts", &charts);
        ctx.insert("rankings", &rankings);
        ctx.insert("bys", &scores::RankBy::ALL);
        ctx.insert("following", &following);
        ctx.insert("castles", &castles);
    })?)
}
