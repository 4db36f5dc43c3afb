//! `/`: the worlds on this server.

use super::render;
use crate::game::worlds;
use crate::web::error::PageError;
use crate::web::AppState;
use actix_web::{web, HttpResponse};
use serde::Serialize;
use tera::Context;

#[derive(Serialize)]
struct WorldItem {
    id: i32,
    name: String,
    width: i32,
    height: i32,
    turn: i32,
    season: String,
    paused: bool,
    nations: Vec<(String, String)>,
}

pub async fn index(state: web::Data<AppState>) -> Result<HttpResponse, PageError> {
    let items = state
        .db(|conn| {
            let mut out = Vec::new();
            for w in worlds::list(conn)? {
                let nations = worlds::nations_of(conn, w.id)?
                    .into_iter()
                    .map(|n| (n.name, n.color))
                    .collect();
                out.push(WorldItem {
                    id: w.id,
                    name: w.name,
                    width: w.width,
                    height: w.height,
                    turn: w.turn,
                    season: w.season,
                    paused: w.paused,
                    nations,
                });
            }
            Ok(out)
        })
        .await?;
    let mut ctx = Context::new();
    ctx.insert("worlds", &items);
    Ok(render(&state, "index.html", &ctx)?)
}
