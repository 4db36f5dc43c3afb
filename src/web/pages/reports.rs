//! `/worlds/{w}/reports`: battle reports and what happened, as the player's nation may read it.

use super::page;
use crate::game::{maps::worlds, play::reports};
use crate::ids::{EventId, WorldId};
use crate::web::auth::Viewer;
use crate::web::error::PageError;
use crate::web::AppState;
use crate::wire::views::{ReportView, WorldView};
use actix_web::{web, HttpResponse};
use serde::Deserialize;

const PAGE: i64 = 50;

#[derive(Deserialize)]
pub struct Older {
    pub before: Option<EventId>,
}

pub async fn index(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<WorldId>,
    q: web::Query<Older>,
) -> Result<HttpResponse, PageError> {
    let actor = viewer.require()?;
    let wid = path.into_inner();
    let before = q.before.unwrap_or(EventId(i32::MAX));
    let (w, list) = state
        .db(move |conn| {
            let w = worlds::get(conn, wid)?;
            let list = reports::read(conn, &actor, wid, EventId(0), before, PAGE)?;
            Ok((w, list))
        })
        .await?;
    let older = (list.len() as i64 == PAGE)
        .then(|| list.last().map(|e| e.id))
        .flatten();
    Ok(page(&state, &viewer, "reports.html", |ctx| {
        ctx.insert("world", &WorldView::from(&w));
        let events: Vec<_> = list
            .iter()
            .map(|e| ReportView::of(e, viewer.lang))
            .collect();
        ctx.insert("events", &events);
        ctx.insert("older", &older);
    })?)
}
