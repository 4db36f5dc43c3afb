//! `/worlds/{w}/reports`: battle reports and what happened, as the player's nation may read it.

use super::page;
use crate::db::models::Event;
use crate::game::play::access::Actor;
use crate::game::play::report::Report;
use crate::game::{maps::worlds, play::reports, GameResult};
use crate::i18n::Lang;
use crate::rules::names::EventKind;
use crate::said;
use crate::web::auth::Viewer;
use crate::web::error::PageError;
use crate::web::AppState;
use crate::wire::views::WorldView;
use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};

const PAGE: i64 = 50;

/// An event as the report partial draws it, said in `lang`.
#[derive(Clone, Debug, Serialize)]
pub struct ReportView {
    pub id: i32,
    pub kind: EventKind,
    pub turn: i32,
    pub at: i64,
    pub summary: String,
    pub x: Option<i32>,
    pub y: Option<i32>,
    /// The order's record as the game wrote it (dice, losses, steps); none for other events.
    pub data: Option<Report>,
}

pub fn view(e: &Event, lang: Lang) -> ReportView {
    ReportView {
        id: e.id,
        kind: e.kind,
        turn: e.turn,
        at: e.at,
        summary: said::stored(lang, &e.said, &e.summary),
        x: e.x,
        y: e.y,
        data: Report::of_event(e.kind, &e.data),
    }
}

/// One report for the world page after an action.
pub fn one(
    conn: &mut crate::db::DbConnection,
    actor: &Actor,
    world_id: i32,
    id: i32,
    lang: Lang,
) -> GameResult<Option<ReportView>> {
    Ok(reports::visible_event(conn, actor, world_id, id)?
        .as_ref()
        .map(|e| view(e, lang)))
}

#[derive(Deserialize)]
pub struct Older {
    pub before: Option<i32>,
}

pub async fn index(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<i32>,
    q: web::Query<Older>,
) -> Result<HttpResponse, PageError> {
    let actor = viewer.require()?;
    let wid = path.into_inner();
    let before = q.before.unwrap_or(i32::MAX);
    let (w, list) = state
        .db(move |conn| {
            let w = worlds::get(conn, wid)?;
            let list = reports::read(conn, &actor, wid, 0, before, PAGE)?;
            Ok((w, list))
        })
        .await?;
    let older = (list.len() as i64 == PAGE)
        .then(|| list.last().map(|e| e.id))
        .flatten();
    Ok(page(&state, &viewer, "reports.html", |ctx| {
        ctx.insert("world", &WorldView::from(&w));
        let events: Vec<_> = list.iter().map(|e| view(e, viewer.lang)).collect();
        ctx.insert("events", &events);
        ctx.insert("older", &older);
    })?)
}
