//! `/worlds/{w}/nations`: the nations' holdings and scoreboard, the player's fellow members and
//! regiments.

use super::page;
use crate::game::{maps::worlds, play, play::access, play::views};
use crate::ids::{RegimentId, WorldId};
use crate::web::auth::Viewer;
use crate::web::error::PageError;
use crate::web::AppState;
use crate::wire::views::{NationStanding, WorldView};
use actix_web::{web, HttpResponse};
use serde::Serialize;

pub async fn index(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<WorldId>,
) -> Result<HttpResponse, PageError> {
    let wid = path.into_inner();
    let actor = viewer.actor();
    let st = state.clone();
    let (w, standings, player, regiments) = state
        .db(move |conn| {
            let w = worlds::get(conn, wid)?;
            let player = match &actor {
                Some(a) => access::player_in(conn, a, wid)?,
                None => None,
            };
            let standings: Vec<NationStanding> = views::nations(
                conn,
                &st.config.rules,
                player.as_ref().map(|p| p.nation_id),
                &w,
            )?
            .into_iter()
            .map(Into::into)
            .collect();
            let regiments: Vec<_> = match &player {
                Some(p) => play::regiments_of(conn, wid)?
                    .into_iter()
                    .filter(|r| r.nation_id == p.nation_id)
                    .map(|r| RegimentView {
                        id: r.id,
                        name: r.name,
                        hq: r.hq_x.zip(r.hq_y),
                        mine: p.regiment_id == Some(r.id),
                    })
                    .collect(),
                None => Vec::new(),
            };
            Ok((w, standings, player, regiments))
        })
        .await?;
    Ok(page(&state, &viewer, "nations.html", |ctx| {
        ctx.insert("name_max", &state.config.rules.limits.regiment_name_max);
        ctx.insert("world", &WorldView::from(&w));
        ctx.insert("nations", &standings);
        ctx.insert("joined", &player.is_some());
        ctx.insert("regiments", &regiments);
    })?)
}

/// One of the nation's regiments, as the nations page lists it.
#[derive(Serialize)]
pub struct RegimentView {
    pub id: RegimentId,
    pub name: String,
    /// Its headquarters' cell, if set.
    pub hq: Option<(i32, i32)>,
    /// The player serves in it.
    pub mine: bool,
}
