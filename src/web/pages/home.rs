//! `/`: for a returning player their worlds first (their companies, unread messages, the next
//! turn, what happened since), then the worlds on this server and the hall of fame of their
//! past campaigns.

use super::page;
use crate::game::{maps::worlds, play::reports, screens};
use crate::ids::WorldId;
use crate::web::auth::Viewer;
use crate::web::error::PageError;
use crate::web::render::map;
use crate::web::render::viewport::Viewport;
use crate::web::AppState;
use crate::wire::views::{SummaryLine, YourWorldView};
use actix_web::{web, HttpResponse};
use serde::Serialize;

#[derive(Serialize)]
struct WorldItem {
    id: WorldId,
    name: String,
    width: i32,
    height: i32,
    turn: i32,
    season: crate::rules::Season,
    paused: bool,
    nations: Vec<(String, String)>,
    /// Its campaign's end, once it is over: the worlds list puts it in the hall of fame.
    ended: Option<Ended>,
}

/// How a past campaign ended, for the hall of fame.
#[derive(Serialize)]
struct Ended {
    turn: i32,
    reason: Option<String>,
    /// The winner's name, colour and points; none for a draw.
    winner: Option<(String, String, i64)>,
}

#[derive(serde::Deserialize)]
pub struct IndexQuery {
    /// Set by the redirect after registering: the page greets the new player.
    welcome: Option<String>,
}

pub async fn index(
    state: web::Data<AppState>,
    viewer: Viewer,
    q: web::Query<IndexQuery>,
) -> Result<HttpResponse, PageError> {
    let actor = viewer.actor();
    let lang = viewer.lang;
    let st = state.clone();
    let (items, summary, yours, preview) = state
        .db(move |conn| {
            let mut out = Vec::new();
            for w in worlds::list(conn)? {
                let rows = worlds::nations_of(conn, w.id)?;
                let ended = w.ended_turn.map(|turn| Ended {
                    turn,
                    reason: w.ended_reason.clone(),
                    winner: rows
                        .iter()
                        .find(|n| Some(n.id) == w.winner_id)
                        .map(|n| (n.name.clone(), n.color.clone(), n.points)),
                });
                let nations = rows.into_iter().map(|n| (n.name, n.color)).collect();
                out.push(WorldItem {
                    id: w.id,
                    name: w.name,
                    width: w.width,
                    height: w.height,
                    turn: w.turn,
                    season: w.season,
                    paused: w.paused,
                    nations,
                    ended,
                });
            }
            let (summary, yours) = match &actor {
                Some(a) => (
                    reports::since_last_visit(conn, a)?
                        .iter()
                        .map(|e| SummaryLine::of(e, lang))
                        .collect(),
                    screens::home::your_worlds(conn, &st.config, a)?
                        .iter()
                        .map(YourWorldView::from)
                        .collect(),
                ),
                None => (Vec::new(), Vec::new()),
            };
            // A visitor sees the game first: the map of the first world still played.
            let preview = match (&actor, out.iter().find(|w| w.ended.is_none())) {
                (None, Some(w)) => Some(preview_of(conn, &st, w.id)?),
                _ => None,
            };
            Ok((out, summary, yours, preview))
        })
        .await?;
    let fill = |ctx: &mut tera::Context| {
        ctx.insert("worlds", &items);
        if q.welcome.is_some() {
            if let Some(s) = &viewer.session {
                ctx.insert(
                    "flash",
                    &crate::i18n::tr(
                        viewer.lang,
                        "welcome",
                        &[("name", s.user.username.clone().into())],
                    ),
                );
            }
        }
        ctx.insert("summary", &summary);
        ctx.insert("yours", &yours);
    };
    Ok(match preview {
        Some((wid, name, l, vp)) => {
            let rs = &state.config.rules;
            let m = map::build_map(rs, &vp, &l.map, false, None, lang, |_| None);
            let season = l.standpoint.world.season;
            super::map_page(&state, &viewer, "index.html", &m, season, |ctx| {
                fill(ctx);
                ctx.insert("preview", &(wid, name));
            })?
        }
        None => page(&state, &viewer, "index.html", fill)?,
    })
}

/// The first world's map as a visitor sees it, at the far zoom, around its middle.
fn preview_of(
    conn: &mut crate::db::DbConnection,
    state: &AppState,
    wid: WorldId,
) -> crate::game::GameResult<(WorldId, String, screens::world::WorldScreen, Viewport)> {
    let sp = screens::world::standpoint(conn, None, wid, None)?;
    let w = &sp.world;
    let name = w.name.clone();
    let vp = Viewport::around(
        &super::world::ZOOMS,
        w.width,
        w.height,
        (w.width / 2, w.height / 2),
        1,
    )
    .on(w.grid);
    let look = screens::world::View {
        rect: vp.rect(),
        cell: None,
        report: None,
    };
    let l = screens::world::screen(conn, &state.config, None, sp, look)?;
    Ok((wid, name, l, vp))
}
