//! A world's castles as players see them (docs/rules.md §12): each castle's sections, their
//! cells, and the nation holding each as the last turn found it (`GET /api/v1/worlds/{w}/castles`).
//! The sections are derived from the castle's cells when the map is checked
//! (`rules::castle::sections`) and kept in `castle_sections`; each turn writes their holders
//! and which nations saw them there (`record_sightings`). A holder is told to its own nation and
//! to the nations that saw it on the section when the turn was applied; to everyone once the
//! campaign is over (docs/decisions.md, "Castles").

use crate::db::schema::{castle_sections, castles, cells, nations, section_sightings};
use crate::db::DbConnection;
use crate::game::error::{GameError, GameResult};
use crate::game::maps::worlds;
use crate::ids::{NationId, WorldId};
use crate::rules::castle::SectionKind;
use crate::rules::state::Unit;
use crate::rules::vision::{self, Observer};
use crate::rules::{Grid, Kind, Pos, Ruleset, Terrain};
use diesel::prelude::*;
use diesel::sql_types::{Integer, Nullable, Text};
use std::collections::{BTreeSet, HashMap};

/// A section of a castle as a viewer may know it.
#[derive(Clone, Debug)]
pub struct Section {
    pub name: String,
    pub kind: SectionKind,
    pub cells: Vec<Pos>,
    /// The nation holding it after the last turn, if the viewer may know it; none when no one
    /// or several were there, or when the viewer's nation neither holds it nor saw it held.
    pub holder: Option<String>,
    /// The nation owning every cell of it (public, as the map shows owners).
    pub owner: Option<String>,
}

#[derive(Clone, Debug)]
pub struct Castle {
    pub name: String,
    pub sections: Vec<Section>,
}

/// Every castle of the world with its sections, in the order they were drawn, as a player of
/// `viewer` (a nation; none for a visitor or someone who has not joined) may see them. Each
/// row is read once and grouped by its key, so a world of many castles costs what its rows do.
/// `within` (a box of cells, `(x0, y0, x1, y1)`): only the sections' cells in it are read
/// (a section's owner is then that of those cells).
pub fn of(
    conn: &mut DbConnection,
    world_id: WorldId,
    viewer: Option<NationId>,
    within: Option<(i32, i32, i32, i32)>,
) -> GameResult<Vec<Castle>> {
    let w = worlds::get(conn, world_id)?;
    let names: Vec<(i32, String)> = castles::table
        .filter(castles::world_id.eq(world_id))
        .order(castles::id)
        .select((castles::id, castles::name))
        .load(conn)?;
    #[allow(clippy::type_complexity)]
    let sections: Vec<(
        i32,
        i32,
        String,
        String,
        Option<NationId>,
        Option<String>,
        Option<NationId>,
    )> = castle_sections::table
        .left_join(nations::table.on(nations::id.nullable().eq(castle_sections::holder_id)))
        .left_join(
            section_sightings::table.on(section_sightings::section_id
                .eq(castle_sections::id)
                .and(section_sightings::nation_id.nullable().eq(viewer))),
        )
        .filter(castle_sections::world_id.eq(world_id))
        .order(castle_sections::id)
        .select((
            castle_sections::id,
            castle_sections::castle_id,
            castle_sections::name,
            castle_sections::kind,
            castle_sections::holder_id,
            nations::name.nullable(),
            section_sightings::nation_id.nullable(),
        ))
        .load(conn)?;
    let mut cells_of: HashMap<i32, Vec<Pos>> = HashMap::new();
    // A section's owner: the one nation owning all its cells, if there is one.
    let mut owner_of: HashMap<i32, Option<i32>> = HashMap::new();
    let mut query = cells::table
        .filter(cells::world_id.eq(world_id))
        .filter(cells::section_id.is_not_null())
        .into_boxed();
    if let Some((x0, y0, x1, y1)) = within {
        query = query
            .filter(cells::x.between(x0, x1))
            .filter(cells::y.between(y0, y1));
    }
    let rows: Vec<(Option<i32>, i32, i32, Option<i32>)> = query
        .order((cells::y, cells::x))
        .select((cells::section_id, cells::x, cells::y, cells::owner_id))
        .load(conn)?;
    for (s, x, y, owner) in rows {
        if let Some(s) = s {
            cells_of.entry(s).or_default().push(Pos::new(x, y));
            let o = owner_of.entry(s).or_insert(owner);
            if *o != owner {
                *o = None;
            }
        }
    }
    let nation_names: HashMap<i32, String> = nations::table
        .filter(nations::world_id.eq(world_id))
        .select((nations::id, nations::name))
        .load::<(NationId, String)>(conn)?
        .into_iter()
        .map(|(id, name)| (id.0, name))
        .collect();
    let over = w.ended();
    let mut sections_of: HashMap<i32, Vec<Section>> = HashMap::new();
    for (id, castle, name, kind, holder_id, holder, sighted) in sections {
        let kind = kind
            .parse::<SectionKind>()
            .map_err(|e| GameError::Internal(format!("castle section {id}: {e}")))?;
        let told = over || (viewer.is_some() && (holder_id == viewer || sighted.is_some()));
        sections_of.entry(castle).or_default().push(Section {
            name,
            kind,
            cells: cells_of.remove(&id).unwrap_or_default(),
            holder: holder.filter(|_| told),
            owner: owner_of
                .get(&id)
                .copied()
                .flatten()
                .and_then(|o| nation_names.get(&o).cloned()),
        });
    }
    Ok(names
        .into_iter()
        .map(|(id, name)| Castle {
            name,
            sections: sections_of.remove(&id).unwrap_or_default(),
        })
        .collect())
}

/// A company near a held section, as the turn reads it to tell who saw the holders.
#[derive(QueryableByName)]
struct Near {
    #[diesel(sql_type = Integer)]
    x: i32,
    #[diesel(sql_type = Integer)]
    y: i32,
    #[diesel(sql_type = Text)]
    kind: String,
    #[diesel(sql_type = Integer)]
    volley_recency: i32,
    #[diesel(sql_type = Integer)]
    nation_id: i32,
    #[diesel(sql_type = Text)]
    terrain: String,
    #[diesel(sql_type = Nullable<Integer>)]
    section_id: Option<i32>,
    /// The holder of the section the company stands on, if it has one.
    #[diesel(sql_type = Nullable<Integer>)]
    held_by: Option<i32>,
}

/// Writes, in the turn's last transaction and after the sections' holders, which nations saw
/// a holder's company on its section (`rules::vision`: hidden companies only from close by):
/// those nations are told the holder until the next turn. The holders' companies and every
/// company within sight of one are read in one statement, so the two agree with each other
/// even while orders go on; each held company then asks only the cells within sight of it.
pub fn record_sightings(
    conn: &mut DbConnection,
    rs: &Ruleset,
    world_id: WorldId,
    grid: Grid,
) -> GameResult<()> {
    diesel::delete(section_sightings::table.filter(section_sightings::world_id.eq(world_id)))
        .execute(conn)?;
    let reach = vision::max_perception(rs).max(0);
    let sql = format!(
        "WITH held AS (SELECT DISTINCT co.x, co.y FROM castle_sections s \
           JOIN cells c ON c.world_id = s.world_id AND c.section_id = s.id \
           JOIN companies co ON co.world_id = c.world_id AND co.x = c.x AND co.y = c.y \
           WHERE s.world_id = $1 AND s.holder_id IS NOT NULL) \
         SELECT DISTINCT o.x AS x, o.y AS y, o.kind AS kind, o.volley_recency AS volley_recency, \
           p.nation_id AS nation_id, ce.terrain AS terrain, ce.section_id AS section_id, \
           hs.holder_id AS held_by \
         FROM held h JOIN companies o ON o.world_id = $1 \
           AND o.x BETWEEN h.x - {reach} AND h.x + {reach} \
           AND o.y BETWEEN h.y - {reach} AND h.y + {reach} \
         JOIN players p ON p.id = o.player_id \
         JOIN cells ce ON ce.world_id = o.world_id AND ce.x = o.x AND ce.y = o.y \
         LEFT JOIN castle_sections hs ON hs.id = ce.section_id"
    );
    let near: Vec<Near> = diesel::sql_query(conn.numbered(&sql))
        .bind::<Integer, _>(world_id)
        .load(conn)?;
    if near.is_empty() {
        return Ok(());
    }
    let parsed = near
        .iter()
        .map(|n| {
            let kind = n.kind.parse::<Kind>();
            let terrain = n.terrain.parse::<Terrain>();
            match (kind, terrain) {
                (Ok(k), Ok(t)) => Ok((k, t)),
                _ => Err(GameError::Internal(format!(
                    "company at ({}, {}): kind `{}` on `{}`",
                    n.x, n.y, n.kind, n.terrain
                ))),
            }
        })
        .collect::<GameResult<Vec<(Kind, Terrain)>>>()?;
    let at: HashMap<Pos, usize> = near
        .iter()
        .enumerate()
        .map(|(i, n)| (Pos::new(n.x, n.y), i))
        .collect();
    let mut seen: BTreeSet<(i32, i32)> = BTreeSet::new();
    // Each held company asks the companies on the cells within sight of it, or all those read
    // when they are fewer than such cells (a ruleset of long sight).
    let side = 2 * i64::from(reach) + 1;
    let by_cells = side * side <= near.len() as i64;
    for (i, n) in near.iter().enumerate() {
        let Some(section) = n.section_id.filter(|_| n.held_by == Some(n.nation_id)) else {
            continue;
        };
        let pos = Pos::new(n.x, n.y);
        let (kind, terrain) = parsed[i];
        let unit = Unit {
            id: 0,
            nation: n.nation_id,
            kind,
            pos,
            men: 0,
            wounded: 0,
            ap: 0,
            morale: 0,
            xp: 0,
            volley_recency: n.volley_recency,
        };
        let hidden = vision::is_hidden(rs, &unit, terrain);
        let around: Vec<usize> = if by_cells {
            (n.y - reach..=n.y + reach)
                .flat_map(|y| (n.x - reach..=n.x + reach).map(move |x| Pos::new(x, y)))
                .filter_map(|p| at.get(&p).copied())
                .collect()
        } else {
            (0..near.len()).collect()
        };
        for j in around {
            let o = &near[j];
            if o.nation_id == n.nation_id || seen.contains(&(section, o.nation_id)) {
                continue;
            }
            let eye = Observer {
                pos: Pos::new(o.x, o.y),
                perception: vision::perception(rs, parsed[j].0, parsed[j].1),
                grid,
            };
            if vision::sees_unit(rs, &[eye], pos, hidden) {
                seen.insert((section, o.nation_id));
            }
        }
    }
    let rows: Vec<_> = seen
        .into_iter()
        .map(|(s, n)| {
            (
                section_sightings::section_id.eq(s),
                section_sightings::nation_id.eq(n),
                section_sightings::world_id.eq(world_id),
            )
        })
        .collect();
    // Within SQLite's limit on binds per statement.
    for chunk in rows.chunks(1000) {
        crate::on_backend!(conn, c => diesel::insert_into(section_sightings::table)
            .values(chunk.to_vec())
            .execute(c))?;
    }
    Ok(())
}

/// Works a castle's sections out again from its cells (after a game master redrew it): the
/// old sections go, with their holders; the next turn finds the new ones' holders.
pub fn redraw_sections(
    conn: &mut DbConnection,
    rs: &Ruleset,
    world_id: WorldId,
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
