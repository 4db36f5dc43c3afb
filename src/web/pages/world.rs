//! `/worlds/{w}`: the map of a world.

use super::{map, page};
use crate::game::worlds;
use crate::web::auth::Viewer;
use crate::web::error::PageError;
use crate::web::AppState;
use actix_web::{web, HttpResponse};
use serde_json::json;

pub async fn show(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<i32>,
) -> Result<HttpResponse, PageError> {
    let id = path.into_inner();
    let (w, rows, nations, towns) = state
        .db(move |conn| {
            let w = worlds::get(conn, id)?;
            let rows = worlds::all_cells(conn, id)?;
            Ok((
                w,
                rows,
                worlds::nations_of(conn, id)?,
                worlds::towns_of(conn, id)?,
            ))
        })
        .await?;
    let rs = &state.config.rules;
    let season = worlds::season_of(&w);
    let view = map::build(
        rs,
        20,
        (0, 0, w.width, w.height),
        &rows,
        &nations,
        &towns,
        |_, _| false,
    );
    Ok(page(&state, &viewer, "world.html", |ctx| {
        ctx.insert("world", &json!({"id": w.id, "name": w.name, "width": w.width, "height": w.height, "turn": w.turn, "season": w.season, "paused": w.paused}));
        ctx.insert(
            "nations",
            &nations
                .iter()
                .map(|n| json!({"name": n.name, "color": n.color, "treasury": n.treasury}))
                .collect::<Vec<_>>(),
        );
        ctx.insert("map", &view);
        ctx.insert("legend", &map::legend(rs, season));
    })?)
}
