//! `/`: for a returning player their worlds first (their companies, unread messages, the next
//! turn, what happened since), then the worlds on this server and the hall of fame of their
//! past campaigns.

use super::page;
use crate::game::{maps::worlds, play::reports, screens};
use crate::ids::WorldId;
use crate::web::auth::Viewer;
use crate::web::error::PageError;
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
    let (items, summary, yours) = state
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
            let (summary, yours) = match actor {
                Some(a) => (
                    reports::since_last_visit(conn, &a)?
                        .iter()
                        .map(|e| SummaryLine::of(e, lang))
                        .collect(),
                    screens::home::your_worlds(conn, &st.config, &a)?
                        .iter()
                        .map(YourWorldView::from)
                        .collect(),
                ),
                None => (Vec::new(), Vec::new()),
            };
            Ok((out, summary, yours))
        })
        .await?;
    Ok(page(&state, &viewer, "index.html", |ctx| {
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
    })?)
}
