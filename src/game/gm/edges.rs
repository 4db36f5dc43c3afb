//! A game master puts a feature on a side of a cell, or takes it off (docs/rules.md §13): one
//! transaction, in the audit log, the world's cells moved on so that every copy of them in
//! memory reads the edges again.

use crate::db::schema::{cells, edges};
use crate::db::{self, DbConnection};
use crate::game::error::{GameError, GameResult};
use crate::game::gm::audit;
use crate::game::maps::worlds;
use crate::game::play::access::Actor;
use crate::ids::WorldId;
use crate::rules::names::EdgeFeature;
use crate::rules::{Pos, Side};
use diesel::prelude::*;

/// Sets the feature of a side of `at` (`None` takes it off). The side must be one of the
/// world's grid and lie between two cells of the map. Returns the edge under its one name and
/// its feature now.
pub fn set(
    conn: &mut DbConnection,
    actor: &Actor,
    world_id: WorldId,
    at: Pos,
    side: &str,
    feature: Option<&str>,
) -> GameResult<(Pos, Side, Option<EdgeFeature>)> {
    actor.require_gm()?;
    db::write(conn, |conn| {
        let w = worlds::get(conn, world_id)?;
        let bounds = w.bounds();
        let grid = bounds.grid;
        if !bounds.contains(at) {
            return Err(GameError::Invalid(
                format!(
                    "({}, {}) is outside the {}×{} map",
                    at.x, at.y, w.width, w.height
                )
                .into(),
            ));
        }
        let names: Vec<&str> = grid.sides().iter().map(|s| s.as_str()).collect();
        let side = Side::on(side, grid).ok_or_else(|| {
            GameError::Invalid(
                format!(
                    "`{side}` is no side of a {} cell ({})",
                    grid.as_str(),
                    names.join(" ")
                )
                .into(),
            )
        })?;
        if !bounds.contains(grid.across(at, side)) {
            return Err(GameError::Invalid(
                "the side is on the map's border: no cell across it".into(),
            ));
        }
        let feature = feature
            .map(|f| {
                f.parse::<EdgeFeature>().map_err(|_| {
                    GameError::Invalid(format!("unknown edge feature `{f}` (rampart)").into())
                })
            })
            .transpose()?;
        let (p, s) = grid.canonical(at, side);
        let key = edges::table
            .filter(edges::world_id.eq(world_id))
            .filter(edges::x.eq(p.x))
            .filter(edges::y.eq(p.y))
            .filter(edges::side.eq(s.as_str()));
        let before: Option<EdgeFeature> = key.select(edges::feature).first(conn).optional()?;
        diesel::delete(key).execute(conn)?;
        if let Some(f) = feature {
            diesel::insert_into(edges::table)
                .values((
                    edges::world_id.eq(world_id),
                    edges::x.eq(p.x),
                    edges::y.eq(p.y),
                    edges::side.eq(s.as_str()),
                    edges::feature.eq(f.as_str()),
                ))
                .execute(conn)?;
        }
        // The world's cells move on (its triggers), and with them every copy in memory.
        diesel::update(
            cells::table
                .filter(cells::world_id.eq(world_id))
                .filter(cells::x.eq(p.x))
                .filter(cells::y.eq(p.y)),
        )
        .set(cells::terrain.eq(cells::terrain))
        .execute(conn)?;
        audit::record(
            conn,
            audit::Entry {
                world_id: Some(world_id),
                user_id: actor.user_id,
                action: "edge".into(),
                target: format!("edge ({}, {}) {}", p.x, p.y, s),
                at: Some(p),
                before: Some(serde_json::json!({ "feature": before })),
                after: Some(serde_json::json!({ "feature": feature })),
                batch: None,
            },
        )?;
        Ok((p, s, feature))
    })
}
