//! A world's castles as players see them (docs/rules.md §10): each castle's sections, their
//! cells, and the nation holding each as the last turn found it (`GET /api/v1/worlds/{w}/castles`).
//! The sections are derived from the castle's cells when the map is checked
//! (`rules::castle::sections`) and kept in `castle_sections`; each turn writes their holders.

use crate::db::schema::{castle_sections, castles, cells, nations};
use crate::db::DbConnection;
use crate::game::error::{GameError, GameResult};
use crate::game::maps::worlds;
use crate::rules::castle::SectionKind;
use crate::rules::{Pos, Ruleset, Terrain};
use diesel::prelude::*;
use serde::Serialize;
use std::collections::HashMap;

#[derive(Clone, Debug, Serialize)]
pub struct SectionView {
    pub name: String,
    pub kind: SectionKind,
    pub cells: Vec<[i32; 2]>,
    /// The nation holding it after the last turn; none when no one or several were there.
    pub holder: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct CastleView {
    pub name: String,
    pub sections: Vec<SectionView>,
}

/// Every castle of the world with its sections, in the order they were drawn.
pub fn of(conn: &mut DbConnection, world_id: i32) -> GameResult<Vec<CastleView>> {
    worlds::get(conn, world_id)?;
    let names: Vec<(i32, String)> = castles::table
        .filter(castles::world_id.eq(world_id))
        .order(castles::id)
        .select((castles::id, castles::name))
        .load(conn)?;
    let sections: Vec<(i32, i32, String, String, Option<String>)> = castle_sections::table
        .left_join(nations::table.on(nations::id.nullable().eq(castle_sections::holder_id)))
        .filter(castle_sections::world_id.eq(world_id))
        .order(castle_sections::id)
        .select((
            castle_sections::id,
            castle_sections::castle_id,
            castle_sections::name,
            castle_sections::kind,
            nations::name.nullable(),
        ))
        .load(conn)?;
    let mut cells_of: HashMap<i32, Vec<[i32; 2]>> = HashMap::new();
    let rows: Vec<(Option<i32>, i32, i32)> = cells::table
        .filter(cells::world_id.eq(world_id))
        .filter(cells::section_id.is_not_null())
        .order((cells::y, cells::x))
        .select((cells::section_id, cells::x, cells::y))
        .load(conn)?;
    for (s, x, y) in rows {
        if let Some(s) = s {
            cells_of.entry(s).or_default().push([x, y]);
        }
    }
    let kinds = sections
        .iter()
        .map(|s| {
            s.3.parse::<SectionKind>()
                .map_err(|e| GameError::Internal(format!("castle section {}: {e}", s.0)))
        })
        .collect::<GameResult<Vec<SectionKind>>>()?;
    Ok(names
        .into_iter()
        .map(|(id, name)| CastleView {
            name,
            sections: sections
                .iter()
                .zip(&kinds)
                .filter(|(s, _)| s.1 == id)
                .map(|(s, kind)| SectionView {
                    name: s.2.clone(),
                    kind: *kind,
                    cells: cells_of.remove(&s.0).unwrap_or_default(),
                    holder: s.4.clone(),
                })
                .collect(),
        })
        .collect())
}

/// Works a castle's sections out again from its cells (after a game master redrew it): the
/// old sections go, with their holders; the next turn finds the new ones' holders.
pub fn redraw_sections(
    conn: &mut DbConnection,
    rs: &Ruleset,
    world_id: i32,
    castle_id: i32,
) -> GameResult<()> {
    let old: Vec<i32> = castle_sections::table
        .filter(castle_sections::castle_id.eq(castle_id))
        .select(castle_sections::id)
        .load(conn)?;
    diesel::update(
        cells::table
            .filter(cells::world_id.eq(world_id))
            .filter(cells::section_id.eq_any(old.iter().map(|&i| Some(i)))),
    )
    .set(cells::section_id.eq(None::<i32>))
    .execute(conn)?;
    diesel::delete(castle_sections::table.filter(castle_sections::castle_id.eq(castle_id)))
        .execute(conn)?;
    let rows: Vec<(i32, i32, Terrain)> = cells::table
        .filter(cells::world_id.eq(world_id))
        .filter(cells::castle_id.eq(Some(castle_id)))
        .select((cells::x, cells::y, cells::terrain))
        .load(conn)?;
    let cells_of: Vec<(Pos, Terrain)> = rows
        .iter()
        .map(|(x, y, t)| (Pos::new(*x, *y), *t))
        .collect();
    for section in crate::rules::castle::sections(rs, &cells_of) {
        let id: i32 = diesel::insert_into(castle_sections::table)
            .values((
                castle_sections::world_id.eq(world_id),
                castle_sections::castle_id.eq(castle_id),
                castle_sections::name.eq(&section.name),
                castle_sections::kind.eq(section.kind.as_str()),
            ))
            .returning(castle_sections::id)
            .get_result(conn)?;
        for p in &section.cells {
            diesel::update(cells::table.find((world_id, p.x, p.y)))
                .set(cells::section_id.eq(Some(id)))
                .execute(conn)?;
        }
    }
    Ok(())
}
