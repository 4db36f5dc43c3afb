//! What a bot knows of its world in a turn: the map (every cell is public), its nation's
//! companies, and the enemy companies its nation sees, by the same tests as the map a person
//! of that nation is shown (`rules::vision`). Nothing else is read into it: a bot cannot
//! target, count or head for a company its nation cannot see. Read at the start of the bot's
//! turn (from the companies its board read, when its chunks are given ahead), again after a
//! chunk that was never written, and kept up to date with what its own orders change.

use super::spots::Spots;
use crate::db::models::World;
use crate::db::DbConnection;
use crate::game::error::GameResult;
use crate::game::maps::cells::{self, WorldCells};
use crate::game::play::load;
use crate::ids::NationId;
use crate::rules::movement::{captures_on_entry, Capture};
use crate::rules::ruleset::Flag;
use crate::rules::state::{Area, CompanyId, Unit};
use crate::rules::vision;
use crate::rules::{Pos, Ruleset, Terrain};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

pub struct Sight {
    pub nation: NationId,
    cells: Arc<WorldCells>,
    /// The nation's companies and the enemy companies it sees, by cell.
    units: FxHashMap<Pos, Unit>,
    at: FxHashMap<CompanyId, Pos>,
    /// Where [`Sight::units`] stand, filed by square for the windows.
    placed: Spots,
    /// Where the seen enemy companies that may be attacked stand.
    enemies: Spots,
    /// Seen enemy companies whose players are on leave: they may not be attacked.
    pub untouchable: HashSet<CompanyId>,
    /// Cells whose entry takes something (a mine, a town's church, a breached fort, an enemy
    /// wall): where the bot's companies head.
    pub objectives: Spots,
    /// The castle walls among the objectives, which war machines and horses cannot take.
    pub walls: FxHashSet<Pos>,
    /// The nation's own towns, forts and healing ground: where worn companies fall back.
    pub refuges: Spots,
    /// Some objective is an enemy castle: sappers and guns are worth raising.
    pub castles: bool,
}

impl Sight {
    /// The sight of `nation` in `w` now.
    pub fn load(
        conn: &mut DbConnection,
        rs: &Ruleset,
        w: &World,
        nation: NationId,
    ) -> GameResult<Sight> {
        let cells = cells::of(conn, w)?;
        let whole = (0, 0, w.width - 1, w.height - 1);
        let placed = load::companies_around(conn, w.id, w.height, whole, None)?;
        Sight::of(conn, rs, w, nation, cells, &placed)
    }

    /// The sight of `nation` in `w` from its cells and every company of the world, as read
    /// (a board that read them all, [`crate::game::play::board::Board::placed`]).
    pub fn of(
        conn: &mut DbConnection,
        rs: &Ruleset,
        w: &World,
        nation: NationId,
        cells: Arc<WorldCells>,
        placed: &[load::Placed],
    ) -> GameResult<Sight> {
        let whole = (0, 0, w.width - 1, w.height - 1);
        let terrain_at = |p: Pos| cells.get(p).map_or(Terrain::Plain, |c| c.terrain);
        // The nation's eyes as the map's: the one test of what a person of the nation sees.
        let observers =
            crate::game::play::views::Eyes::of(rs, w, placed, Some(nation), terrain_at).observers;
        let seen_cells = vision::Sight::of(&observers, whole);
        let own: HashMap<Pos, i32> = observers.iter().map(|o| (o.pos, o.perception)).collect();
        let now = crate::db::now();
        let mut sight = Sight {
            nation,
            units: FxHashMap::default(),
            at: FxHashMap::default(),
            placed: Spots::new(w),
            enemies: Spots::new(w),
            untouchable: HashSet::new(),
            objectives: Spots::new(w),
            walls: FxHashSet::default(),
            refuges: Spots::new(w),
            castles: false,
            cells: cells.clone(),
        };
        for p in placed {
            let unit = load::unit_of(p);
            if p.nation_id != nation {
                let hidden = vision::is_hidden(rs, &unit, terrain_at(unit.pos));
                let seen = if hidden {
                    // Only from close by, as `vision::sees_unit` has it.
                    let near = rs.combat.hidden_visible_at;
                    w.bounds().within(unit.pos, near).any(|q| {
                        own.get(&q)
                            .is_some_and(|seeing| w.grid.distance(q, unit.pos) <= *seeing)
                    })
                } else {
                    seen_cells.sees(unit.pos)
                };
                if !seen {
                    continue;
                }
                if crate::rules::leave::on_leave(p.leave_until, now) {
                    sight.untouchable.insert(unit.id);
                }
                sight.put(vision::assumed(rs, unit));
                continue;
            }
            sight.put(unit);
        }
        // What belongs to a nation no one plays is left alone: a bot wins nothing from an empty
        // nation (the demo's France before anyone joins it).
        let manned = manned_nations(conn, w)?;
        let may_matter: Vec<bool> = Terrain::ALL
            .iter()
            .map(|t| crate::rules::bot::may_matter(rs, *t))
            .collect();
        for (p, c) in cells.iter() {
            if !may_matter[c.terrain.index()] {
                continue;
            }
            let takes = captures_on_entry(rs, nation.0, p, c);
            let empty = c
                .owner
                .is_some_and(|o| o != nation.0 && !manned.contains(&o));
            if !takes.is_empty() && !empty {
                sight.objectives.add(p);
                if takes.iter().any(|t| matches!(t, Capture::Castle { .. })) {
                    sight.walls.insert(p);
                    sight.castles = true;
                }
            }
            if crate::rules::bot::refuge(rs, c.terrain, c.owner, nation.0) {
                sight.refuges.add(p);
            }
        }
        Ok(sight)
    }

    fn put(&mut self, u: Unit) {
        self.at.insert(u.id, u.pos);
        let (pos, enemy) = (u.pos, self.attackable(&u));
        // A company known to stand there before (out of date) is known no more.
        match self.units.insert(pos, u) {
            Some(old) => {
                if self.at.get(&old.id) == Some(&old.pos) && self.units[&old.pos].id != old.id {
                    self.at.remove(&old.id);
                }
                if self.attackable(&old) {
                    self.enemies.remove(pos);
                }
            }
            None => self.placed.add(pos),
        }
        if enemy {
            self.enemies.add(pos);
        }
    }

    /// Takes whatever company the bot knew on `p` off it.
    fn take(&mut self, p: Pos) {
        if let Some(old) = self.units.remove(&p) {
            self.placed.remove(p);
            if self.attackable(&old) {
                self.enemies.remove(p);
            }
        }
    }

    fn attackable(&self, u: &Unit) -> bool {
        u.nation != self.nation.0 && !self.untouchable.contains(&u.id)
    }

    /// The company as the bot last knew it.
    pub fn unit(&self, id: CompanyId) -> Option<&Unit> {
        self.at.get(&id).and_then(|p| self.units.get(p))
    }

    /// The bot's nation's companies, by id.
    pub fn own(&self) -> Vec<&Unit> {
        let mut v: Vec<&Unit> = self
            .units
            .values()
            .filter(|u| u.nation == self.nation.0)
            .collect();
        v.sort_by_key(|u| u.id);
        v
    }

    /// The sight but for the objectives the bot's companies head for this turn already (`taken`):
    /// they stay theirs.
    pub fn without(mut self, taken: &FxHashSet<Pos>) -> Sight {
        for p in taken {
            self.objectives.remove(*p);
        }
        self
    }

    /// A company after an order: where it stands now, or gone (`None`). An enemy's figures
    /// are taken as a person of the nation sees them ([`vision::assumed`]).
    pub fn update(&mut self, rs: &Ruleset, id: CompanyId, after: Option<Unit>) {
        if let Some(p) = self.at.remove(&id) {
            if self.units.get(&p).is_some_and(|u| u.id == id) {
                self.take(p);
            }
        }
        if let Some(u) = after {
            let u = if u.nation == self.nation.0 {
                u
            } else {
                vision::assumed(rs, u)
            };
            self.put(u);
        }
    }

    /// The company standing on `p`, as the bot knows it.
    pub fn unit_at(&self, p: Pos) -> Option<&Unit> {
        self.units.get(&p)
    }

    pub fn cell_terrain(&self, p: Pos) -> Option<Terrain> {
        self.cells.get(p).map(|c| c.terrain)
    }

    /// Whether a company standing on `p` must stay to keep what it holds: castle ground of its
    /// nation (a section is held only while companies stand on it), or a mine, a town's church
    /// or a fort of its own with a seen enemy company within `near` cells. Elsewhere what it
    /// took stays taken when it walks on.
    pub fn worth_holding(&self, rs: &Ruleset, w: &World, p: Pos, near: i32) -> bool {
        self.cells.get(p).is_some_and(|c| {
            let t = rs.terrain(c.terrain);
            if c.owner != Some(self.nation.0) {
                return false;
            }
            if c.in_castle(rs) {
                return true;
            }
            let keeps = t.has(Flag::CapturedOnEntry)
                || t.has(Flag::TownCentre)
                || t.has(Flag::OwnNationOnly);
            keeps
                && self
                    .enemies
                    .any_within(p, near, |a, b| w.grid.distance(a, b))
        })
    }

    /// The window of `radius` cells around `at` with the companies the nation knows in it.
    pub fn window(&self, w: &World, at: Pos, radius: i32) -> Area {
        let (x0, y0, x1, y1) = (at.x - radius, at.y - radius, at.x + radius, at.y + radius);
        // Read in place: the engine only reads a bot's window.
        let mut area = self.cells.view(w, x0, y0, x1, y1);
        self.placed.within(x0, y0, x1, y1, |p| {
            if let Some(u) = self.units.get(&p) {
                area.place(u.clone());
            }
        });
        area
    }

    /// The nearest seen enemy company to `from` that may be attacked.
    pub fn nearest_enemy(&self, w: &World, from: Pos) -> Option<Pos> {
        self.enemies
            .nearest(from, |a, b| w.grid.distance(a, b), |_| true)
    }
}

/// The nations of a world with at least one player (a person or a bot).
fn manned_nations(conn: &mut DbConnection, w: &World) -> GameResult<HashSet<i32>> {
    use crate::db::schema::players;
    use diesel::prelude::*;
    let ids: Vec<NationId> = players::table
        .filter(players::world_id.eq(w.id))
        .select(players::nation_id)
        .distinct()
        .load(conn)?;
    Ok(ids.into_iter().map(|n| n.0).collect())
}

/// Whether the world has castle walls of another nation for `nation` to take: a look in the
/// index of owned cells for each other nation and wall terrain, under 1 ms (over the world's
/// cells in memory, every cell of a 1,000,000-cell world was looked at, a twentieth of a bots'
/// turn; with "any owner but ours" both databases read every owned cell, 11 ms a bot's turn
/// on PostgreSQL).
pub fn castles_to_take(
    conn: &mut DbConnection,
    rs: &Ruleset,
    w: &World,
    nation: NationId,
) -> GameResult<bool> {
    use crate::db::schema::{cells as cells_t, nations};
    use diesel::prelude::*;
    let walls: Vec<&str> = Terrain::ALL
        .iter()
        .filter(|t| rs.terrain(**t).has(Flag::Wall))
        .map(|t| t.as_str())
        .collect();
    if walls.is_empty() {
        return Ok(false);
    }
    let others: Vec<NationId> = nations::table
        .filter(nations::world_id.eq(w.id))
        .filter(nations::id.ne(nation))
        .select(nations::id)
        .load(conn)?;
    if others.is_empty() {
        return Ok(false);
    }
    let found = diesel::select(diesel::dsl::exists(
        cells_t::table
            .filter(cells_t::world_id.eq(w.id))
            .filter(cells_t::owner_id.eq_any(others.iter().map(|n| n.0)))
            .filter(cells_t::terrain.eq_any(walls))
            // The index's own column: with every column SQLite's planner scanned the table.
            .select(cells_t::owner_id),
    ));
    Ok(crate::on_backend!(conn, c => found.get_result(c))?)
}
