//! What a player may see: the map with their nation's fog of war, and the nations' standing.

use crate::db::models::{CellRow, Nation, Player, World};
use crate::db::schema::{cells, companies, nations, players, towns, users};
use crate::db::DbConnection;
use crate::game::error::GameResult;
use crate::game::maps::worlds;
use crate::game::play::access::Actor;
use crate::game::play::{first_steps, load};
use crate::ids::{NationId, PlayerId, TownId, UserId, WorldId};
use crate::rules::names::EdgeFeature;
use crate::rules::ruleset::Flag;
use crate::rules::state::Area;
use crate::rules::vision::{self, Observer};
use crate::rules::{Pos, Ruleset, Side, Terrain};
use diesel::prelude::*;
use std::collections::HashMap;

/// Largest rectangle the map view serves at once (cells per side).
pub const MAX_SPAN: i32 = 200;

/// How a company is seen: by its own player, by its nation, hidden, its player on leave, and
/// whether its figures show.
#[derive(Clone, Copy, Debug)]
pub struct Seen {
    pub mine: bool,
    pub friend: bool,
    pub hidden: bool,
    pub on_leave: bool,
    pub figures: bool,
}

/// One cell of a map view, as the viewer's nation knows it.
#[derive(Clone, Debug)]
pub struct MapCell {
    pub at: Pos,
    pub terrain: Terrain,
    pub owner: Option<NationId>,
    pub town: Option<TownId>,
    pub structure: Option<i32>,
    /// A siege tower on the cell: its builds done and, once finished, its structure.
    pub siege_tower: Option<SiegeTower>,
    /// Whether the viewer's nation sees the cell now (always false for spectators).
    pub seen: bool,
}

/// A siege tower on a cell of the map, and whether it is finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SiegeTower {
    pub builds: i32,
    pub structure: i32,
    pub finished: bool,
}

pub struct PlayerMap {
    pub cells: Vec<MapCell>,
    /// The companies shown, by id, and how the onlooker sees each.
    pub companies: Vec<(load::Placed, Seen)>,
    /// The edge features of the rectangle's cells, each under its one name.
    pub edges: Vec<(Pos, Side, EdgeFeature)>,
    pub nation_id: Option<NationId>,
    pub nations: Vec<Nation>,
    /// The names of the towns on the rectangle's cells.
    pub towns: HashMap<TownId, String>,
    /// The castles with cells in the rectangle: each one's name and the box of its cells
    /// there, where the map writes the name.
    pub castles: Vec<(String, CellBox)>,
    /// The onlooker, a player, looked into the fog: their first-day step is ticked.
    pub looked_into_fog: bool,
}

impl PlayerMap {
    /// One of the world's nations.
    pub fn nation(&self, id: NationId) -> Option<&Nation> {
        self.nations.iter().find(|n| n.id == id)
    }

    /// The name of a town on the map.
    pub fn town(&self, id: TownId) -> Option<&str> {
        self.towns.get(&id).map(String::as_str)
    }
}

/// Clips a requested rectangle to the map and the maximum span.
/// The rectangle a caller asked for, each missing corner at the world's edge, clipped.
pub fn asked(
    w: &World,
    x0: Option<i32>,
    y0: Option<i32>,
    x1: Option<i32>,
    y1: Option<i32>,
) -> (i32, i32, i32, i32) {
    clip(
        w,
        x0.unwrap_or(0),
        y0.unwrap_or(0),
        x1.unwrap_or(w.width - 1),
        y1.unwrap_or(w.height - 1),
    )
}

pub fn clip(w: &World, x0: i32, y0: i32, x1: i32, y1: i32) -> (i32, i32, i32, i32) {
    let x0 = x0.clamp(0, w.width - 1);
    let y0 = y0.clamp(0, w.height - 1);
    let x1 = x1.clamp(x0, (w.width - 1).min(x0.saturating_add(MAX_SPAN - 1)));
    let y1 = y1.clamp(y0, (w.height - 1).min(y0.saturating_add(MAX_SPAN - 1)));
    (x0, y0, x1, y1)
}

/// The map of a rectangle as `viewer` sees it: all terrain and owners; companies of their
/// nation, and enemies only where the nation sees them. With `all`, every company (GM view).
///
/// Vision needs only the observers that can see into the rectangle: the companies within
/// the farthest perception of it, and the ground under each (from the world's cells in
/// memory); what each sees is marked on the rectangle alone.
/// Who looks at a map: the user (whose own companies show their figures) and their nation
/// (what it sees), if they play in the world.
#[derive(Clone, Copy, Debug)]
pub struct Onlooker {
    pub user_id: UserId,
    pub nation_id: Option<NationId>,
    /// Their player's first-day checklist, which a look into the fog ticks.
    pub steps: Option<first_steps::Row>,
}

impl Onlooker {
    pub fn of(conn: &mut DbConnection, world_id: WorldId, actor: &Actor) -> GameResult<Onlooker> {
        let row: Option<(NationId, PlayerId, i32)> = players::table
            .filter(players::world_id.eq(world_id))
            .filter(players::user_id.eq(actor.user_id))
            .select((players::nation_id, players::id, players::first_steps))
            .first(conn)
            .optional()?;
        Ok(Onlooker {
            user_id: actor.user_id,
            nation_id: row.map(|r| r.0),
            steps: row.map(|(_, player_id, bits)| first_steps::Row { player_id, bits }),
        })
    }

    /// A player of the world, whose row the caller has read already.
    pub fn player(user_id: UserId, p: &Player) -> Onlooker {
        Onlooker {
            user_id,
            nation_id: Some(p.nation_id),
            steps: Some(p.into()),
        }
    }
}

/// How a map is looked at: which companies it shows, and whether the look is the first day's
/// step "look into the fog".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// Every company, seen or not, with their figures: the game masters' editor.
    Everything,
    /// The map around other business (the company page, the world page with no cell picked):
    /// it ticks nothing, or the step would be done before it is shown.
    Around,
    /// The whole rectangle, asked for to be read (the API's map): a cell out of the nation's
    /// sight in it is the look into the fog.
    Whole,
    /// One cell picked on the map (the world page, whose map shows at every visit): the look
    /// into the fog when that cell is out of sight.
    Cell(Pos),
}

/// The cells of `rect` and the companies on them that `who` sees (all of them with
/// [`Look::Everything`]); `nations` are the world's, as the caller has them already. A player's
/// look into the fog ticks its first-day step here, so that the world page and the API's map
/// tick it alike.
pub fn player_map(
    conn: &mut DbConnection,
    rs: &Ruleset,
    who: Option<Onlooker>,
    w: &World,
    nations: Vec<Nation>,
    rect: (i32, i32, i32, i32),
    look: Look,
) -> GameResult<PlayerMap> {
    let all = look == Look::Everything;
    let (x0, y0, x1, y1) = rect;
    let world_cells = crate::game::maps::cells::of(conn, w)?;
    let nation_id = who.and_then(|o| o.nation_id);
    let eyes = nation_id.map(|n| (n, vision::max_perception(rs)));
    let placed = load::companies_around(conn, w.id, w.height, rect, eyes)?;
    let terrain_at = |p: Pos| world_cells.get(p).map_or(Terrain::Plain, |c| c.terrain);
    let eyes = Eyes::of(rs, w, &placed, nation_id, terrain_at);
    let in_rect = world_cells.rect(x0, y0, x1, y1);
    let towns: HashMap<TownId, String> = if in_rect.iter().any(|(_, c)| c.town.is_some()) {
        worlds::towns_of(conn, w.id)?
            .into_iter()
            .map(|t| (t.id, t.name))
            .collect()
    } else {
        HashMap::new()
    };
    let castles = castles_in(conn, w, &in_rect)?;
    let sight = vision::Sight::of(
        &eyes.observers,
        (
            x0.max(0),
            y0.max(0),
            x1.min(w.width - 1),
            y1.min(w.height - 1),
        ),
    );
    let cells: Vec<MapCell> = in_rect
        .into_iter()
        .map(|(p, c)| MapCell {
            at: p,
            terrain: c.terrain,
            owner: c.owner.map(NationId),
            town: c.town.map(TownId),
            structure: c.structure,
            siege_tower: c.siege.map(|t| SiegeTower {
                builds: t.builds,
                structure: t.structure,
                finished: c.siege_tower(rs),
            }),
            seen: sight.sees(p),
        })
        .collect();
    let mut shown = Vec::new();
    let now = crate::db::now();
    for p in placed {
        let c = &p.company;
        if c.x < x0 || c.x > x1 || c.y < y0 || c.y > y1 {
            continue;
        }
        let own = Some(p.nation_id) == nation_id;
        let (seen, hidden) = eyes.spot(rs, &p, terrain_at);
        if !(all || seen) {
            continue;
        }
        let mine = who.is_some_and(|o| o.user_id == p.user_id);
        let seen = Seen {
            mine,
            friend: own,
            hidden,
            on_leave: crate::rules::leave::on_leave(p.leave_until, now),
            figures: mine || all,
        };
        shown.push((p, seen));
    }
    shown.sort_by_key(|(p, _)| p.company.id);
    let looked_into_fog = match (who.and_then(|o| o.steps), look) {
        (Some(steps), Look::Whole | Look::Cell(_)) => {
            let into_fog = |c: &MapCell| match look {
                Look::Cell(at) => c.at == at && !c.seen,
                _ => !c.seen,
            };
            let fogged = cells.iter().any(into_fog);
            if fogged {
                // Nothing is written once the step is ticked.
                first_steps::mark(conn, steps, first_steps::LOOKED_INTO_FOG)?;
            }
            fogged
        }
        _ => false,
    };
    let edges = world_cells.edges_in(x0, y0, x1, y1).copied().collect();
    Ok(PlayerMap {
        cells,
        companies: shown,
        edges,
        nation_id,
        nations,
        towns,
        castles,
        looked_into_fog,
    })
}

/// A castle section on the map, with its castle's name.
#[derive(Clone, Debug)]
pub struct MapSection {
    pub castle: String,
    pub section: crate::game::maps::castles::Section,
}

impl PlayerMap {
    /// The sections of the castles on the map (none: no query), as its onlooker of `nation`
    /// may know them, their cells cut to the rectangle `rect`.
    pub fn sections(
        &self,
        conn: &mut DbConnection,
        w: &World,
        nation: Option<NationId>,
        rect: CellBox,
    ) -> GameResult<Vec<MapSection>> {
        if self.castles.is_empty() {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        for c in crate::game::maps::castles::of(conn, w.id, nation, Some(rect))? {
            for s in c.sections {
                if !s.cells.is_empty() {
                    out.push(MapSection {
                        castle: c.name.clone(),
                        section: s,
                    });
                }
            }
        }
        Ok(out)
    }
}

/// A box of cells, `(x0, y0, x1, y1)`.
pub type CellBox = (i32, i32, i32, i32);

/// The castles with cells among `cells`, by name, each with the box of those cells (no query
/// where no castle is in view).
fn castles_in(
    conn: &mut DbConnection,
    w: &World,
    cells: &[(Pos, &crate::rules::state::Cell)],
) -> GameResult<Vec<(String, CellBox)>> {
    let mut boxes: std::collections::BTreeMap<i32, CellBox> = Default::default();
    for (p, c) in cells {
        if let Some(k) = c.castle {
            let b = boxes.entry(k).or_insert((p.x, p.y, p.x, p.y));
            *b = (b.0.min(p.x), b.1.min(p.y), b.2.max(p.x), b.3.max(p.y));
        }
    }
    if boxes.is_empty() {
        return Ok(Vec::new());
    }
    let names: HashMap<i32, String> = crate::db::schema::castles::table
        .filter(crate::db::schema::castles::world_id.eq(w.id))
        .select((
            crate::db::schema::castles::id,
            crate::db::schema::castles::name,
        ))
        .load::<(i32, String)>(conn)?
        .into_iter()
        .collect();
    Ok(boxes
        .into_iter()
        .filter_map(|(k, b)| names.get(&k).map(|n| (n.clone(), b)))
        .collect())
}

/// What one nation's companies see: the one test of the map, the company page and the live
/// streams for whether an enemy company shows.
pub struct Eyes {
    nation: Option<NationId>,
    pub observers: Vec<Observer>,
}

impl Eyes {
    /// The eyes of `nation` among `placed` (none: a spectator, who sees no enemy).
    pub fn of(
        rs: &Ruleset,
        w: &World,
        placed: &[load::Placed],
        nation: Option<NationId>,
        terrain_at: impl Fn(Pos) -> Terrain,
    ) -> Eyes {
        let observers = match nation {
            Some(n) => placed
                .iter()
                .filter(|p| p.nation_id == n)
                .map(|p| {
                    let at = Pos::new(p.company.x, p.company.y);
                    Observer {
                        pos: at,
                        perception: vision::perception(rs, p.company.kind, terrain_at(at)),
                        grid: w.grid,
                    }
                })
                .collect(),
            None => Vec::new(),
        };
        Eyes { nation, observers }
    }

    /// Whether the nation sees `p` (its own companies always), and whether `p` stands hidden.
    pub fn spot(
        &self,
        rs: &Ruleset,
        p: &load::Placed,
        terrain_at: impl Fn(Pos) -> Terrain,
    ) -> (bool, bool) {
        let unit = load::unit_of(p);
        let hidden = vision::is_hidden(rs, &unit, terrain_at(unit.pos));
        let seen = Some(p.nation_id) == self.nation
            || vision::sees_unit(rs, &self.observers, unit.pos, hidden);
        (seen, hidden)
    }
}

/// The window the engine would load around one cell, for the cell panel.
pub fn cell_area(conn: &mut DbConnection, w: &World, at: Pos) -> GameResult<Area> {
    crate::game::maps::cells::area(conn, w, at.x - 1, at.y - 1, at.x + 1, at.y + 1)
}

/// A nation (its row), what it holds and its forces, as the viewer may know them.
#[derive(Clone, Debug)]
pub struct NationStanding {
    pub nation: Nation,
    /// Its treasury, companies and whole score are told: the viewer's own nation, or every
    /// nation once the campaign is over. What a nation spends tells the companies it raises
    /// and the men it takes in; its companies are its strength, which the fog hides.
    pub told: bool,
    /// The names of the towns it holds.
    pub towns: Vec<String>,
    pub mines: i64,
    pub forts: i64,
    pub players: i64,
    /// Its companies, when told.
    pub companies: Option<i64>,
    /// The whole score, when told, since it counts the companies.
    pub score: Option<i64>,
    /// The part of the score for the ground held (towns, mines, fortified cells): public, as
    /// the map shows every cell's owner.
    pub ground_score: i64,
    /// Usernames, only for the viewer's own nation.
    pub members: Option<Vec<String>>,
}

/// Each nation's holdings and forces as a player of `viewer_nation` (none: a visitor or
/// someone who has not joined) may know them, most campaign points first: the one ranking of
/// the nations (docs/rules.md §10), public as the standings are.
pub fn nations(
    conn: &mut DbConnection,
    rs: &Ruleset,
    viewer_nation: Option<NationId>,
    w: &World,
) -> GameResult<Vec<NationStanding>> {
    let world_id = w.id;
    let over = w.ended();
    let list: Vec<Nation> = nations::table
        .filter(nations::world_id.eq(world_id))
        .order(nations::id)
        .select(Nation::as_select())
        .load(conn)?;
    let producing: Vec<&str> = Terrain::ALL
        .iter()
        .filter(|t| rs.terrain(**t).output > 0)
        .map(|t| t.as_str())
        .collect();
    let fortified: Vec<&str> = Terrain::ALL
        .iter()
        .filter(|t| rs.terrain(**t).has(Flag::OwnNationOnly))
        .map(|t| t.as_str())
        .collect();
    let mut out = Vec::new();
    for n in list {
        let count_cells = |conn: &mut DbConnection, kinds: &[&str]| -> QueryResult<i64> {
            cells::table
                .filter(cells::world_id.eq(world_id))
                .filter(cells::owner_id.eq(n.id))
                .filter(cells::terrain.eq_any(kinds))
                .count()
                .get_result(conn)
        };
        let mines = count_cells(conn, &producing)?;
        let forts = count_cells(conn, &fortified)?;
        let town_names: Vec<String> = towns::table
            .filter(towns::owner_id.eq(n.id))
            .order(towns::name)
            .select(towns::name)
            .load(conn)?;
        let player_count: i64 = players::table
            .filter(players::nation_id.eq(n.id))
            .count()
            .get_result(conn)?;
        let own = viewer_nation == Some(n.id);
        let told = over || own;
        let company_count: Option<i64> = if told {
            Some(
                companies::table
                    .inner_join(players::table)
                    .filter(players::nation_id.eq(n.id))
                    .count()
                    .get_result(conn)?,
            )
        } else {
            None
        };
        let members = if own {
            Some(
                players::table
                    .inner_join(users::table)
                    .filter(players::nation_id.eq(n.id))
                    .order(users::username)
                    .select(users::username)
                    .load(conn)?,
            )
        } else {
            None
        };
        let s = &rs.score;
        let ground_score = s.town * town_names.len() as i64 + s.mine * mines + s.fort * forts;
        out.push(NationStanding {
            nation: n,
            told,
            towns: town_names,
            mines,
            forts,
            players: player_count,
            companies: company_count,
            score: company_count.map(|k| ground_score + s.company * k),
            ground_score,
            members,
        });
    }
    out.sort_by(|a, b| {
        (b.nation.points)
            .cmp(&a.nation.points)
            .then(a.nation.id.cmp(&b.nation.id))
    });
    Ok(out)
}

/// A cell of the map with the names of its owner and its town, for the cell panel.
#[derive(Clone, Debug)]
pub struct NamedCell {
    pub at: Pos,
    pub row: CellRow,
    pub owner: Option<String>,
    pub town: Option<String>,
}

/// The cell at `at`, if it is on the map.
pub fn cell_info(conn: &mut DbConnection, w: &World, at: Pos) -> GameResult<Option<NamedCell>> {
    if !w.bounds().contains(at) {
        return Ok(None);
    }
    let row: CellRow = cells::table
        .find((w.id, at.x, at.y))
        .select(CellRow::as_select())
        .first(conn)?;
    let owner = match row.owner_id {
        Some(o) => nations::table
            .find(o)
            .select(nations::name)
            .first(conn)
            .optional()?,
        None => None,
    };
    let town = match row.town_id {
        Some(t) => towns::table
            .find(t)
            .select(towns::name)
            .first(conn)
            .optional()?,
        None => None,
    };
    Ok(Some(NamedCell {
        at,
        row,
        owner,
        town,
    }))
}
