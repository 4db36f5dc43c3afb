//! `/worlds/{w}`: the map of a world.

use super::{map, render};
use crate::game::worlds;
use crate::web::error::PageError;
use crate::web::AppState;
use actix_web::{web, HttpResponse};
use tera::Context;

pub async fn show(
    state: web::Data<AppState>,
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
    let mut ctx = Context::new();
    ctx.insert(
        "world",
        &serde_json::json!({
            "id": w.id, "name": w.name, "width": w.width, "height": w.height,
            "turn": w.turn, "season": w.season, "paused": w.paused,
        }),
    );
    ctx.insert(
        "nations",
        &nations
            .iter()
            .map(|n| serde_json::json!({"name": n.name, "color": n.color, "treasury": n.treasury}))
            .collect::<Vec<_>>(),
    );
    ctx.insert("map", &view);
    ctx.insert("legend", &map::legend(rs, season));
    Ok(render(&state, "world.html", &ctx)?)
}
