//! Worlds: import from a map file, export back to one, the demo world, and reading the map.

use crate::db::models::{CellRow, Nation, NewNation, NewTown, NewWorld, Town, World};
use crate::db::schema::{
    campaign_maps, castle_sections, castles, cells, edges, nations, towns, worlds,
};
use crate::db::{self, DbConnection};
use crate::game::error::{GameError, GameResult};
use crate::game::maps::mapfile::{
    self, MapCastle, MapCell, MapEdge, MapFile, MapNation, MapTown, MapVictory, ValidMap,
};
use crate::ids::{NationId, TownId, WorldId};

use crate::rules::names::EdgeFeature;
use crate::rules::{Grid, Ruleset, Side, Terrain};
use diesel::prelude::*;
use std::collections::HashMap;

/// The demo world's map file as shipped (a copy in the config directory takes precedence).
pub const DEMO_MAP: &str = include_str!("../../../config/worlds/demo.json");
/// The hex demo world: a river line held by ramparts (docs/rules.md §13).
pub const DEMO_HEX_MAP: &str = include_str!("../../../config/worlds/demo-hex.json");

/// Rows per INSERT when writing cells: well under SQLite's bound-parameter limit.
const CELL_CHUNK: usize = 1000;

pub fn list(conn: &mut DbConnection) -> GameResult<Vec<World>> {
    Ok(worlds::table
        .order(worlds::id)
        .select(World::as_select())
        .load(conn)?)
}

/// Refuses orders once the campaign is over (for good) or while the world is paused.
pub fn takes_orders(w: &World) -> GameResult<()> {
    if w.ended() {
        return Err(GameError::CampaignOver);
    }
    if w.paused {
        return Err(GameError::Paused);
    }
    Ok(())
}

pub fn get(conn: &mut DbConnection, id: WorldId) -> GameResult<World> {
    crate::on_backend!(conn, c => worlds::table
        .find(id)
        .select(World::as_select())
        .first(c)
        .optional())?
    .ok_or_else(|| GameError::not_found("world"))
}

pub fn nations_of(conn: &mut DbConnection, world_id: WorldId) -> GameResult<Vec<Nation>> {
    Ok(crate::on_backend!(conn, c => nations::table
        .filter(nations::world_id.eq(world_id))
        .order(nations::id)
        .select(Nation::as_select())
        .load(c))?)
}

pub fn towns_of(conn: &mut DbConnection, world_id: WorldId) -> GameResult<Vec<Town>> {
    Ok(towns::table
        .filter(towns::world_id.eq(world_id))
        .order(towns::id)
        .select(Town::as_select())
        .load(conn)?)
}

/// Writes a validated map as a new world, in one transaction; returns its id.
pub fn import(conn: &mut DbConnection, map: &ValidMap, name: Option<&str>) -> GameResult<WorldId> {
    import_following(conn, map, name, None)
}

/// `import`, for a campaign that follows `follows` on the same map. The map as drawn is kept
/// beside the world (`campaign_maps`): the next campaign starts from it.
pub fn import_following(
    conn: &mut DbConnection,
    map: &ValidMap,
    name: Option<&str>,
    follows: Option<WorldId>,
) -> GameResult<WorldId> {
    let now = db::now();
    let mut file = map.to_file();
    if let Some(name) = name {
        file.name = name.to_string();
    }
    let drawn =
        serde_json::to_string(&file).map_err(|e| GameError::Invalid(format!("map: {e}").into()))?;
    let seed = map
        .rng_seed
        .unwrap_or_else(|| (rand::random::<u64>() >> 1) as i64);
    db::write(conn, |conn| {
        let world_id: WorldId = diesel::insert_into(worlds::table)
            .values(NewWorld {
                name: name.unwrap_or(&map.name),
                width: map.bounds.width,
                height: map.bounds.height,
                turn: 0,
                season: map.season,
                paused: false,
                rng_seed: seed,
                rng_word_pos: 0,
                schedule_anchor: now,
                created_at: now,
                victory_points: map.victory.points,
                victory_end_turn: map.victory.end_turn,
                victory_towns_share: map.victory.towns_share,
                follows_id: follows,
                grid: map.bounds.grid,
            })
            .returning(worlds::id)
            .get_result(conn)?;
        let edges: Vec<_> = map
            .edges
            .iter()
            .map(|e| {
                (
                    edges::world_id.eq(world_id),
                    edges::x.eq(e.pos.x),
                    edges::y.eq(e.pos.y),
                    edges::side.eq(e.side.as_str()),
                    edges::feature.eq(e.feature.as_str()),
                )
            })
            .collect();
        for chunk in edges.chunks(500) {
            crate::on_backend!(conn, c => diesel::insert_into(edges::table)
                .values(chunk.to_vec())
                .execute(c))?;
        }
        diesel::insert_into(campaign_maps::table)
            .values((
                campaign_maps::world_id.eq(world_id),
                campaign_maps::map.eq(&drawn),
            ))
            .execute(conn)?;
        let mut nation_ids = Vec::with_capacity(map.nations.len());
        for (name, color, spawn, treasury) in &map.nations {
            let id: NationId = diesel::insert_into(nations::table)
                .values(NewNation {
                    world_id,
                    name,
                    color,
                    spawn_x: spawn.x,
                    spawn_y: spawn.y,
                    treasury: *treasury,
                })
                .returning(nations::id)
                .get_result(conn)?;
            nation_ids.push(id);
        }
        let mut town_ids = Vec::with_capacity(map.towns.len());
        for (name, owner) in &map.towns {
            let id: TownId = diesel::insert_into(towns::table)
                .values(NewTown {
                    world_id,
                    name,
                    owner_id: owner.map(|o| nation_ids[o]),
                })
                .returning(towns::id)
                .get_result(conn)?;
            town_ids.push(id);
        }
        let mut castle_ids = Vec::with_capacity(map.castles.len());
        for name in &map.castles {
            let id: i32 = diesel::insert_into(castles::table)
                .values((castles::world_id.eq(world_id), castles::name.eq(name)))
                .returning(castles::id)
                .get_result(conn)?;
            castle_ids.push(id);
        }
        let mut section_of: HashMap<(i32, i32), i32> = HashMap::new();
        for (k, section) in &map.sections {
            let id: i32 = diesel::insert_into(castle_sections::table)
                .values((
                    castle_sections::world_id.eq(world_id),
                    castle_sections::castle_id.eq(castle_ids[*k]),
                    castle_sections::name.eq(&section.name),
                    castle_sections::kind.eq(section.kind.as_str()),
                ))
                .returning(castle_sections::id)
                .get_result(conn)?;
            for p in &section.cells {
                section_of.insert((p.x, p.y), id);
            }
        }
        let listed: HashMap<(i32, i32), &mapfile::ValidCell> =
            map.cells.iter().map(|c| ((c.pos.x, c.pos.y), c)).collect();
        let mut batch = Vec::with_capacity(CELL_CHUNK);
        for y in 0..map.bounds.height {
            for x in 0..map.bounds.width {
                let row = match listed.get(&(x, y)) {
                    Some(c) => CellRow {
                        world_id,
                        x,
                        y,
                        terrain: c.terrain,
                        town_id: c.town.map(|t| town_ids[t].0),
                        owner_id: c.owner.map(|o| nation_ids[o].0),
                        structure: c.structure,
                        castle_id: c.castle.map(|k| castle_ids[k]),
                        siege_builds: None,
                        siege_structure: None,
                        section_id: section_of.get(&(x, y)).copied(),
                    },
                    None => CellRow {
                        world_id,
                        x,
                        y,
                        terrain: Terrain::Plain,
                        town_id: None,
                        owner_id: None,
                        structure: None,
                        castle_id: None,
                        siege_builds: None,
                        siege_structure: None,
                        section_id: None,
                    },
                };
                batch.push(row);
                if batch.len() == CELL_CHUNK {
                    insert_cells(conn, &batch)?;
                    batch.clear();
                }
            }
        }
        insert_cells(conn, &batch)?;
        Ok(world_id)
    })
}

fn insert_cells(conn: &mut DbConnection, rows: &[CellRow]) -> QueryResult<()> {
    if rows.is_empty() {
        return Ok(());
    }
    match conn {
        // Multi-row VALUES per backend: one statement per chunk instead of one per cell.
        DbConnection::Sqlite(c) => diesel::insert_into(cells::table)
            .values(rows.to_vec())
            .execute(c)
            .map(|_| ()),
        DbConnection::Postgres(c) => diesel::insert_into(cells::table)
            .values(rows.to_vec())
            .execute(c)
            .map(|_| ()),
    }
}

/// Parses, validates and imports map-file text.
pub fn import_text(
    conn: &mut DbConnection,
    rs: &Ruleset,
    text: &str,
    name: Option<&str>,
) -> GameResult<WorldId> {
    let valid = mapfile::parse(text)
        .and_then(|m| m.validate(rs))
        .map_err(|e| GameError::Invalid(e.to_string().into()))?;
    import(conn, &valid, name)
}

/// Creates the demo world when the database has none; returns its id if it did.
pub fn ensure_demo(
    conn: &mut DbConnection,
    rs: &Ruleset,
    demo_text: &str,
) -> GameResult<Option<WorldId>> {
    let count: i64 = worlds::table.count().get_result(conn)?;
    if count > 0 {
        return Ok(None);
    }
    import_text(conn, rs, demo_text, None).map(Some)
}

/// Creates the hex demo world beside the square one when the database has no hex world; returns
/// its id if it did.
pub fn ensure_hex_demo(
    conn: &mut DbConnection,
    rs: &Ruleset,
    text: &str,
) -> GameResult<Option<WorldId>> {
    let hex: i64 = worlds::table
        .filter(worlds::grid.eq(Grid::Hex.as_str()))
        .count()
        .get_result(conn)?;
    if hex > 0 {
        return Ok(None);
    }
    import_text(conn, rs, text, None).map(Some)
}

/// The map file of a world as it stands now. Importing it gives the same map back.
pub fn export(conn: &mut DbConnection, world_id: WorldId) -> GameResult<MapFile> {
    let w = get(conn, world_id)?;
    let nations = nations_of(conn, world_id)?;
    let towns = towns_of(conn, world_id)?;
    let nation_name: HashMap<NationId, String> =
        nations.iter().map(|n| (n.id, n.name.clone())).collect();
    let town_by_id: HashMap<TownId, &Town> = towns.iter().map(|t| (t.id, t)).collect();
    let castle_rows: Vec<(i32, String)> = castles::table
        .filter(castles::world_id.eq(world_id))
        .order(castles::id)
        .select((castles::id, castles::name))
        .load(conn)?;
    let castle_name: HashMap<i32, &str> = castle_rows
        .iter()
        .map(|(id, n)| (*id, n.as_str()))
        .collect();
    let rows: Vec<CellRow> = cells::table
        .filter(cells::world_id.eq(world_id))
        .order((cells::y, cells::x))
        .select(CellRow::as_select())
        .load(conn)?;
    let mut out_cells = Vec::new();
    for c in rows {
        if c.terrain == Terrain::Plain
            && c.town_id.is_none()
            && c.owner_id.is_none()
            && c.structure.is_none()
            && c.castle_id.is_none()
        {
            continue;
        }
        let town = c.town_id.and_then(|t| town_by_id.get(&TownId(t)));
        let owner = match (c.owner_id, town.and_then(|t| t.owner_id)) {
            (Some(o), _) => Some(Some(nation_name[&NationId(o)].clone())),
            // A town cell without an owner in an owned town must say so, or import would
            // give it the town's owner.
            (None, Some(_)) => Some(None),
            (None, None) => None,
        };
        out_cells.push(MapCell {
            x: c.x,
            y: c.y,
            terrain: c.terrain.as_str().to_string(),
            town: town.map(|t| t.name.clone()),
            owner,
            structure: c.structure,
            castle: c
                .castle_id
                .and_then(|k| castle_name.get(&k))
                .map(|n| n.to_string()),
        });
    }
    let edge_rows: Vec<(i32, i32, Side, EdgeFeature)> = edges::table
        .filter(edges::world_id.eq(world_id))
        .order((edges::y, edges::x, edges::side))
        .select((edges::x, edges::y, edges::side, edges::feature))
        .load(conn)?;
    Ok(MapFile {
        name: w.name,
        width: w.width,
        height: w.height,
        grid: (w.grid != Grid::Square).then(|| w.grid.as_str().to_string()),
        edges: edge_rows
            .into_iter()
            .map(|(x, y, side, feature)| MapEdge {
                x,
                y,
                side: side.as_str().to_string(),
                feature: feature.as_str().to_string(),
            })
            .collect(),
        season: w.season.as_str().to_string(),
        rng_seed: Some(w.rng_seed),
        nations: nations
            .iter()
            .map(|n| MapNation {
                name: n.name.clone(),
                color: n.color.clone(),
                spawn: Some([n.spawn_x, n.spawn_y]),
                treasury: Some(n.treasury),
            })
            .collect(),
        towns: towns
            .iter()
            .map(|t| MapTown {
                name: t.name.clone(),
                owner: t.owner_id.map(|o| nation_name[&o].clone()),
            })
            .collect(),
        cells: out_cells,
        castles: castle_rows
            .iter()
            .map(|(_, name)| MapCastle { name: name.clone() })
            .collect(),
        victory: Some(MapVictory {
            points: w.victory_points,
            end_turn: w.victory_end_turn,
            towns_share: w.victory_towns_share,
        })
        .filter(|v| *v != MapVictory::default()),
    })
}
