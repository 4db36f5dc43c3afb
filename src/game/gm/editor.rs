//! The map editor's changes: cells (terrain, town, owner, structure), spawn cells, undo, and
//! the GM's hand on companies. Each request is one transaction, checked whole against the
//! ruleset before anything is written, and audited cell by cell.

use crate::db::models::{AuditRow, CellRow, Company, Nation, Town};
use crate::db::schema::{castles, cells, companies, gm_audit, nations, players, towns};
use crate::db::{self, DbConnection};
use crate::game::accounts::secret::random_hex;
use crate::game::error::{GameError, GameResult};
use crate::game::gm::audit::{self, Entry};
use crate::game::maps::mapfile::present;
use crate::game::maps::mapfile::{place_name_fits, MAX_PLACE_NAME};
use crate::game::maps::worlds;
use crate::game::play::access::Actor;
use crate::ids::{CompanyId, NationId, UserId, WorldId};
use crate::rules::ruleset::Flag;
use crate::rules::state::{Cell, Unit};
use crate::rules::{movement, Pos, Refusal, Ruleset, Terrain};
use crate::said::Said;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashMap;

/// Most cells one request may change (a 5×5 brush dragged across a screen stays far below).
pub const MAX_EDITS: usize = 10_000;

/// A change to one cell; absent fields stay as they are, `null` clears town, owner or structure.
#[derive(Clone, Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CellEdit {
    pub x: Option<i32>,
    pub y: Option<i32>,
    pub terrain: Option<String>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>)]
    pub town: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>)]
    pub owner: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<i32>)]
    pub structure: Option<Option<i32>>,
    /// The castle the cell belongs to (a new name founds a castle); `null`: none.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>)]
    pub castle: Option<Option<String>>,
}

/// A cell as the editor shows it and the audit log keeps it: names, not ids.
// Serialize: the audit log's stored record of a cell, which the editor's answers repeat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct CellContent {
    pub terrain: Terrain,
    pub town: Option<String>,
    pub owner: Option<String>,
    pub structure: Option<i32>,
    pub castle: Option<String>,
}

impl CellContent {
    fn of(r: &CellRow, n: &Names) -> Self {
        CellContent {
            terrain: r.terrain,
            town: r.town_id.and_then(|t| n.towns.get(&t)).cloned(),
            owner: r.owner_id.and_then(|o| n.nations.get(&o)).cloned(),
            structure: r.structure,
            castle: r.castle_id.and_then(|k| n.castles.get(&k)).cloned(),
        }
    }
}

/// The rows of a world's cells with their towns' and owners' names.
pub fn named_cells(
    conn: &mut DbConnection,
    world: WorldId,
    rows: &[CellRow],
) -> GameResult<Vec<(Pos, CellContent)>> {
    let n = names(conn, world)?;
    Ok(rows
        .iter()
        .map(|r| (Pos::new(r.x, r.y), CellContent::of(r, &n)))
        .collect())
}

/// The names of a world's nations, towns and castles by id.
struct Names {
    nations: HashMap<i32, String>,
    towns: HashMap<i32, String>,
    castles: HashMap<i32, String>,
}

fn names(conn: &mut DbConnection, world: WorldId) -> GameResult<Names> {
    Ok(Names {
        nations: worlds::nations_of(conn, world)?
            .into_iter()
            .map(|n| (n.id.0, n.name))
            .collect(),
        towns: worlds::towns_of(conn, world)?
            .into_iter()
            .map(|t| (t.id.0, t.name))
            .collect(),
        castles: castles::table
            .filter(castles::world_id.eq(world))
            .select((castles::id, castles::name))
            .load(conn)?
            .into_iter()
            .collect(),
    })
}

/// A spawn cell as the audit log keeps it.
// Serialize: the audit log's stored record, not a view.
#[derive(Serialize)]
struct Spawn {
    spawn: [i32; 2],
}

/// What a GM may set by hand on a company, as the audit log keeps it.
// Serialize: the audit log's stored record, not a view.
#[derive(Serialize)]
struct CompanyHand {
    x: i32,
    y: i32,
    ap: i32,
    men: i32,
    wounded: i32,
    morale: i32,
}

impl CompanyHand {
    fn of(c: &Company) -> Option<Value> {
        audit::value(&CompanyHand {
            x: c.x,
            y: c.y,
            ap: c.ap,
            men: c.men,
            wounded: c.wounded,
            morale: c.morale,
        })
    }
}

/// The town or the castle of a cell after an edit that names one, takes it off (`Some(None)`)
/// or leaves it (`None`); None when the name does not fit. A place not seen before is founded
/// with the edit: its id comes at write time, -1 until then.
fn place_after(
    edit: &Option<Option<String>>,
    now: Option<i32>,
    ids: &mut HashMap<String, Option<i32>>,
) -> Option<Option<i32>> {
    match edit {
        Some(Some(name)) => {
            let name = name.trim();
            if !place_name_fits(name) {
                return None;
            }
            let id = *ids.entry(name.to_string()).or_insert(None);
            Some(id.or(Some(-1)))
        }
        Some(None) => Some(None),
        None => Some(now),
    }
}

/// The new row of a cell after an edit, checked against the ruleset and what stands on it.
fn apply_edit(
    rs: &Ruleset,
    before: &CellRow,
    e: &CellEdit,
    nation_ids: &HashMap<String, i32>,
    town_ids: &mut HashMap<String, Option<i32>>,
    castle_ids: &mut HashMap<String, Option<i32>>,
    standing: Option<&Unit>,
) -> GameResult<CellRow> {
    let at = Pos::new(before.x, before.y);
    let err = |s: Said| GameError::Invalid(s.n("x", at.x).n("y", at.y).into());
    let old_terrain: Terrain = before.terrain;
    let terrain: Terrain = match &e.terrain {
        Some(t) => t
            .parse()
            .map_err(|_| err(Said::new("error-cell-terrain").s("terrain", t.as_str())))?,
        None => old_terrain,
    };
    let tr = rs.terrain(terrain);
    if terrain != old_terrain
        && !rs.terrain(old_terrain).has(Flag::River)
        && Terrain::ALL
            .iter()
            .any(|t| rs.terrain(*t).bridge_into == Some(terrain))
    {
        return Err(err(
            Said::new("error-cell-bridge").m("terrain", terrain_key(terrain))
        ));
    }
    let mut row = before.clone();
    row.terrain = terrain;
    match &e.owner {
        Some(Some(name)) => {
            let id = *nation_ids
                .get(name)
                .ok_or_else(|| err(Said::new("error-cell-nation").s("nation", name.as_str())))?;
            if !tr.has(Flag::Ownable) {
                return Err(err(
                    Said::new("error-cell-owner").m("terrain", terrain_key(terrain))
                ));
            }
            row.owner_id = Some(id);
        }
        Some(None) => row.owner_id = None,
        // A terrain that cannot be owned sheds its old owner.
        None if !tr.has(Flag::Ownable) => row.owner_id = None,
        None => {}
    }
    match (&e.structure, tr.structure) {
        (Some(Some(s)), Some(max)) if (0..=max).contains(s) => row.structure = Some(*s),
        (Some(Some(s)), Some(max)) => {
            return Err(err(Said::new("error-cell-structure-range")
                .n("structure", *s)
                .n("max", max)
                .m("terrain", terrain_key(terrain))))
        }
        (Some(Some(_)), None) => {
            return Err(err(
                Said::new("error-cell-no-structure").m("terrain", terrain_key(terrain))
            ))
        }
        (Some(None), Some(_)) => {
            return Err(err(
                Said::new("error-cell-needs-structure").m("terrain", terrain_key(terrain))
            ))
        }
        (_, None) => row.structure = None,
        (None, Some(max)) => {
            if terrain != old_terrain || row.structure.is_none() {
                row.structure = Some(max);
            }
        }
    }
    let too_long = |key: &str| err(Said::new(key).n("max", MAX_PLACE_NAME as i64));
    row.town_id = place_after(&e.town, row.town_id, town_ids)
        .ok_or_else(|| too_long("error-cell-town-name"))?;
    row.castle_id = place_after(&e.castle, row.castle_id, castle_ids)
        .ok_or_else(|| too_long("error-cell-castle-name"))?;
    if let Some(u) = standing {
        let cell = Cell {
            terrain,
            town: row.town_id,
            owner: row.owner_id,
            structure: row.structure,
            castle: row.castle_id,
            siege: None,
        };
        movement::can_enter(rs, u, at, &cell)
            .map_err(|r| err(Said::new("error-cell-company").s("why", r.to_string())))?;
    }
    Ok(row)
}

/// The message naming a terrain.
fn terrain_key(t: Terrain) -> String {
    format!("terrain-{}", t.as_str())
}

/// Applies cell edits to a world, all or nothing; returns the cells as they are now.
pub fn edit_cells(
    conn: &mut DbConnection,
    rs: &Ruleset,
    actor: &Actor,
    world_id: WorldId,
    edits: &[(Pos, CellEdit)],
) -> GameResult<Vec<CellRow>> {
    edit_cells_as(conn, rs, actor, world_id, edits, "cell", None)
}

fn edit_cells_as(
    conn: &mut DbConnection,
    rs: &Ruleset,
    actor: &Actor,
    world_id: WorldId,
    edits: &[(Pos, CellEdit)],
    action: &str,
    batch: Option<String>,
) -> GameResult<Vec<CellRow>> {
    actor.require_gm()?;
    if edits.is_empty() {
        return Err(GameError::Invalid(Said::new("error-no-cell").into()));
    }
    if edits.len() > MAX_EDITS {
        return Err(GameError::Invalid(
            Said::new("error-too-many-cells")
                .n("max", MAX_EDITS as i64)
                .into(),
        ));
    }
    db::write(conn, |conn| {
        let w = worlds::get(conn, world_id)?;
        let bounds = w.bounds();
        let nation_list: Vec<Nation> = worlds::nations_of(conn, world_id)?;
        let town_list: Vec<Town> = worlds::towns_of(conn, world_id)?;
        let nation_ids: HashMap<String, i32> = nation_list
            .iter()
            .map(|n| (n.name.clone(), n.id.0))
            .collect();
        let mut town_ids: HashMap<String, Option<i32>> = town_list
            .iter()
            .map(|t| (t.name.clone(), Some(t.id.0)))
            .collect();
        let mut names = names(conn, world_id)?;
        let mut castle_ids: HashMap<String, Option<i32>> = names
            .castles
            .iter()
            .map(|(id, n)| (n.clone(), Some(*id)))
            .collect();
        let batch = batch.unwrap_or_else(|| random_hex(8));
        let mut planned: Vec<(CellRow, CellRow, Option<String>, Option<String>)> =
            Vec::with_capacity(edits.len());
        let mut seen = std::collections::HashSet::new();
        for (p, e) in edits {
            if !bounds.contains(*p) {
                return Err(Refusal::OutOfMap(*p).into());
            }
            if !seen.insert(*p) {
                return Err(GameError::Invalid(
                    Said::new("error-cell-twice").n("x", p.x).n("y", p.y).into(),
                ));
            }
            let before: CellRow = cells::table
                .find((world_id, p.x, p.y))
                .select(CellRow::as_select())
                .first(conn)?;
            let unit = crate::game::play::load::companies_in(conn, world_id, p.x, p.y, p.x, p.y)?
                .first()
                .map(crate::game::play::load::unit_of);
            let after = apply_edit(
                rs,
                &before,
                e,
                &nation_ids,
                &mut town_ids,
                &mut castle_ids,
                unit.as_ref(),
            )?;
            let new_town = e.town.clone().flatten().map(|n| n.trim().to_string());
            let new_castle = e.castle.clone().flatten().map(|n| n.trim().to_string());
            planned.push((before, after, new_town, new_castle));
        }
        // Found the new towns, then write the cells.
        for (name, id) in town_ids.iter_mut() {
            if id.is_none() {
                let new_id: i32 = diesel::insert_into(towns::table)
                    .values((towns::world_id.eq(world_id), towns::name.eq(name.as_str())))
                    .returning(towns::id)
                    .get_result(conn)?;
                *id = Some(new_id);
                names.towns.insert(new_id, name.clone());
            }
        }
        for (name, id) in castle_ids.iter_mut() {
            if id.is_none() {
                let new_id: i32 = diesel::insert_into(castles::table)
                    .values((
                        castles::world_id.eq(world_id),
                        castles::name.eq(name.as_str()),
                    ))
                    .returning(castles::id)
                    .get_result(conn)?;
                *id = Some(new_id);
                names.castles.insert(new_id, name.clone());
            }
        }
        let mut out = Vec::with_capacity(planned.len());
        // The castles whose cells changed: their sections are worked out again.
        let mut redrawn = std::collections::BTreeSet::new();
        for (before, mut after, town, castle) in planned {
            if let Some(t) = town {
                after.town_id = town_ids.get(&t).copied().flatten();
            }
            if let Some(k) = castle {
                after.castle_id = castle_ids.get(&k).copied().flatten();
            }
            if after == before {
                out.push(after);
                continue;
            }
            if before.castle_id != after.castle_id || before.terrain != after.terrain {
                redrawn.extend(before.castle_id);
                redrawn.extend(after.castle_id);
            }
            diesel::update(cells::table.find((world_id, after.x, after.y)))
                .set((
                    cells::terrain.eq(after.terrain.as_str()),
                    cells::town_id.eq(after.town_id),
                    cells::owner_id.eq(after.owner_id),
                    cells::structure.eq(after.structure),
                    cells::castle_id.eq(after.castle_id),
                ))
                .execute(conn)?;
            audit::record(
                conn,
                Entry {
                    world_id: Some(world_id),
                    user_id: actor.user_id,
                    action: action.into(),
                    target: format!("cell ({}, {})", after.x, after.y),
                    at: Some(Pos::new(after.x, after.y)),
                    before: audit::value(&CellContent::of(&before, &names)),
                    after: audit::value(&CellContent::of(&after, &names)),
                    batch: Some(batch.clone()),
                },
            )?;
            out.push(after);
        }
        for k in redrawn {
            crate::game::maps::castles::redraw_sections(conn, rs, world_id, k)?;
        }
        Ok(out)
    })
}

/// Undoes the actor's latest cell edit in this world (each undo steps one edit further back).
pub fn undo(
    conn: &mut DbConnection,
    rs: &Ruleset,
    actor: &Actor,
    world_id: WorldId,
) -> GameResult<Vec<CellRow>> {
    actor.require_gm()?;
    let rows: Vec<AuditRow> = gm_audit::table
        .filter(gm_audit::world_id.eq(world_id))
        .filter(gm_audit::user_id.eq(actor.user_id))
        .filter(gm_audit::action.eq_any(["cell", "undo"]))
        .order(gm_audit::id.desc())
        .limit(50_000)
        .select(AuditRow::as_select())
        .load(conn)?;
    // Batches already undone are named in the `undo` rows' batch ("undo:<batch>").
    let undone: std::collections::HashSet<String> = rows
        .iter()
        .filter(|r| r.action == "undo")
        .filter_map(|r| {
            r.batch
                .as_deref()
                .and_then(|b| b.strip_prefix("undo:"))
                .map(str::to_string)
        })
        .collect();
    let Some(batch) = rows
        .iter()
        .filter(|r| r.action == "cell")
        .filter_map(|r| r.batch.clone())
        .find(|b| !undone.contains(b))
    else {
        return Err(GameError::Conflict(
            Said::new("error-nothing-to-undo").into(),
        ));
    };
    let mut edits = Vec::new();
    for r in rows
        .iter()
        .filter(|r| r.action == "cell" && r.batch.as_deref() == Some(batch.as_str()))
    {
        let (Some(x), Some(y)) = (r.x, r.y) else {
            continue;
        };
        let old: Value = r
            .old_value
            .as_deref()
            .and_then(|v| serde_json::from_str(v).ok())
            .unwrap_or(Value::Null);
        edits.push((
            Pos::new(x, y),
            CellEdit {
                x: None,
                y: None,
                terrain: old["terrain"].as_str().map(str::to_string),
                town: Some(old["town"].as_str().map(str::to_string)),
                owner: Some(old["owner"].as_str().map(str::to_string)),
                structure: Some(old["structure"].as_i64().map(|s| s as i32)),
                castle: Some(old["castle"].as_str().map(str::to_string)),
            },
        ));
    }
    // Restoring a river under a bridge is allowed: the check is for bridges on dry land.
    edit_cells_as(
        conn,
        rs,
        actor,
        world_id,
        &edits,
        "undo",
        Some(format!("undo:{batch}")),
    )
}

/// Moves a nation's spawn cell.
pub fn set_spawn(
    conn: &mut DbConnection,
    actor: &Actor,
    world_id: WorldId,
    nation: &str,
    at: Pos,
) -> GameResult<Nation> {
    actor.require_gm()?;
    db::write(conn, |conn| {
        let w = worlds::get(conn, world_id)?;
        if !w.bounds().contains(at) {
            return Err(Refusal::OutOfMap(at).into());
        }
        let n = worlds::nations_of(conn, world_id)?
            .into_iter()
            .find(|n| n.name == nation || n.id.to_string() == nation)
            .ok_or_else(|| {
                GameError::Invalid(Said::new("error-no-nation").s("nation", nation).into())
            })?;
        diesel::update(nations::table.find(n.id))
            .set((nations::spawn_x.eq(at.x), nations::spawn_y.eq(at.y)))
            .execute(conn)?;
        audit::record(
            conn,
            Entry {
                world_id: Some(world_id),
                user_id: actor.user_id,
                action: "spawn".into(),
                target: format!("nation {}", n.name),
                at: Some(at),
                before: audit::value(&Spawn {
                    spawn: [n.spawn_x, n.spawn_y],
                }),
                after: audit::value(&Spawn {
                    spawn: [at.x, at.y],
                }),
                batch: None,
            },
        )?;
        Ok(nations::table
            .find(n.id)
            .select(Nation::as_select())
            .first(conn)?)
    })
}

/// A GM's change to a company's place and figures.
#[derive(Clone, Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CompanyPatch {
    pub x: Option<i32>,
    pub y: Option<i32>,
    pub ap: Option<i32>,
    pub men: Option<i32>,
    pub wounded: Option<i32>,
    pub morale: Option<i32>,
}

pub fn patch_company(
    conn: &mut DbConnection,
    rs: &Ruleset,
    actor: &Actor,
    company_id: CompanyId,
    p: &CompanyPatch,
) -> GameResult<Company> {
    actor.require_gm()?;
    db::write(conn, |conn| {
        let (c, nation): (Company, NationId) = companies::table
            .inner_join(players::table)
            .filter(companies::id.eq(company_id))
            .select((Company::as_select(), players::nation_id))
            .first(conn)
            .optional()?
            .ok_or_else(|| GameError::not_found("company"))?;
        let w = worlds::get(conn, c.world_id)?;
        let k = rs.kind(c.kind);
        let at = Pos::new(p.x.unwrap_or(c.x), p.y.unwrap_or(c.y));
        let ap = p.ap.unwrap_or(c.ap);
        let men = p.men.unwrap_or(c.men);
        let wounded = p.wounded.unwrap_or(c.wounded);
        let morale = p.morale.unwrap_or(c.morale);
        let range = |what: &str, v: i32, lo: i32, hi: i32| {
            if (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err(GameError::Invalid(
                    Said::new("error-range")
                        .s("what", what)
                        .n("lo", lo)
                        .n("hi", hi)
                        .n("v", v)
                        .into(),
                ))
            }
        };
        range("ap", ap, 0, k.max_ap)?;
        range("men", men, 1, k.full_strength)?;
        range("wounded", wounded, 0, 100_000)?;
        range("morale", morale, 0, rs.combat.morale_max)?;
        if !w.bounds().contains(at) {
            return Err(Refusal::OutOfMap(at).into());
        }
        if at != Pos::new(c.x, c.y) {
            let row: CellRow = cells::table
                .find((w.id, at.x, at.y))
                .select(CellRow::as_select())
                .first(conn)?;
            let mut unit = crate::game::play::load::unit_of(&crate::game::play::load::Placed {
                company: c.clone(),
                nation_id: nation,
                user_id: UserId(0),
                leave_until: None,
            });
            unit.pos = at;
            movement::can_enter(rs, &unit, at, &row.cell())?;
        }
        diesel::update(companies::table.find(c.id))
            .set((
                companies::x.eq(at.x),
                companies::y.eq(at.y),
                companies::ap.eq(ap),
                companies::men.eq(men),
                companies::wounded.eq(wounded),
                companies::morale.eq(morale),
            ))
            .execute(conn)
            .map_err(crate::game::play::occupied_on_conflict(at))?;
        let after: Company = companies::table
            .find(c.id)
            .select(Company::as_select())
            .first(conn)?;
        audit::record(
            conn,
            Entry {
                world_id: Some(w.id),
                user_id: actor.user_id,
                action: "company".into(),
                target: format!("company {} ({})", c.name, c.id),
                at: Some(at),
                before: CompanyHand::of(&c),
                after: CompanyHand::of(&after),
                batch: None,
            },
        )?;
        Ok(after)
    })
}

pub fn remove_company(
    conn: &mut DbConnection,
    actor: &Actor,
    company_id: CompanyId,
) -> GameResult<()> {
    actor.require_gm()?;
    db::write(conn, |conn| {
        let c: Company = companies::table
            .find(company_id)
            .select(Company::as_select())
            .first(conn)
            .optional()?
            .ok_or_else(|| GameError::not_found("company"))?;
        diesel::delete(companies::table.find(c.id)).execute(conn)?;
        audit::record(
            conn,
            Entry {
                world_id: Some(c.world_id),
                user_id: actor.user_id,
                action: "remove".into(),
                target: format!("company {} ({})", c.name, c.id),
                at: Some(Pos::new(c.x, c.y)),
                before: CompanyHand::of(&c),
                after: None,
                batch: None,
            },
        )?;
        Ok(())
    })
}
