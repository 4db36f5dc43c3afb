//! What a player may see: the map with their nation's fog of war, and the nations' standing.

use crate::db::models::{CellRow, Nation, Player, World};
use crate::db::schema::{cells, companies, nations, players, towns, users};
use crate::db::DbConnection;
use crate::game::error::GameResult;
use crate::game::maps::worlds;
use crate::game::play::access::Actor;
use crate::game::play::{first_steps, load};
use crate::ids::{CompanyId, NationId, PlayerId, UserId, WorldId};
use crate::rules::ruleset::Flag;
use crate::rules::state::Area;
use crate::rules::vision::{self, Observer};
use crate::rules::{Kind, Pos, Ruleset, Terrain};
use diesel::prelude::*;
use serde::Serialize;
use std::collections::HashMap;

/// Largest rectangle the map view serves at once (cells per side).
pub const MAX_SPAN: i32 = 200;

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct SeenCompany {
    #[schema(value_type = i32)]
    pub id: CompanyId,
    pub name: String,
    pub kind: Kind,
    pub x: i32,
    pub y: i32,
    #[schema(value_type = i32)]
    pub nation_id: NationId,
    pub nation: String,
    pub color: String,
    pub mine: bool,
    /// Of the viewer's nation (its own companies included).
    pub friend: bool,
    pub hidden: bool,
    /// Its player is on leave: it neither acts nor can be attacked.
    pub on_leave: bool,
    /// Figures shown only for the viewer's own companies.
    pub men: Option<i32>,
    pub wounded: Option<i32>,
    pub ap: Option<i32>,
    pub morale: Option<i32>,
}

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

impl SeenCompany {
    pub fn of(p: &load::Placed, nation: Option<&Nation>, seen: Seen) -> SeenCompany {
        let c = &p.company;
        let figures = seen.figures;
        SeenCompany {
            id: c.id,
            name: c.name.clone(),
            kind: c.kind,
            x: c.x,
            y: c.y,
            nation_id: p.nation_id,
            nation: nation.map(|n| n.name.clone()).unwrap_or_default(),
            color: nation
                .map(|n| n.color.clone())
                .unwrap_or_else(|| "#000000".into()),
            mine: seen.mine,
            friend: seen.friend,
            hidden: seen.hidden,
            on_leave: seen.on_leave,
            men: figures.then_some(c.men),
            wounded: figures.then_some(c.wounded),
            ap: figures.then_some(c.ap),
            morale: figures.then_some(c.morale),
        }
    }
}

/// One cell of a map view: what the API sends and the map pages draw.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct MapCell {
    pub x: i32,
    pub y: i32,
    pub terrain: Terrain,
    pub owner: Option<String>,
    pub town: Option<String>,
    pub structure: Option<i32>,
    /// A siege tower on the cell: its builds done and, once finished, its structure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub siege_tower: Option<SiegeTowerView>,
    /// Whether the viewer's nation sees the cell now (always false for spectators).
    pub seen: bool,
    #[serde(skip)]
    pub owner_id: Option<i32>,
    #[serde(skip)]
    pub town_id: Option<i32>,
}

/// A siege tower as the map shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct SiegeTowerView {
    pub builds: i32,
    pub structure: i32,
    pub finished: bool,
}

pub struct PlayerMap {
    pub cells: Vec<MapCell>,
    pub companies: Vec<SeenCompany>,
    /// The edge features of the rectangle's cells, each under its one name.
    pub edges: Vec<EdgeView>,
    pub nation_id: Option<NationId>,
    pub nations: Vec<Nation>,
    /// The onlooker, a player, looked into the fog: their first-day step is ticked.
    pub looked_into_fog: bool,
}

/// A feature on a side of a cell (docs/rules.md §13), as the map file writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct EdgeView {
    pub x: i32,
    pub y: i32,
    pub side: crate::rules::Side,
    pub feature: crate::rules::names::EdgeFeature,
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
    let by_id: HashMap<NationId, &Nation> = nations.iter().map(|n| (n.id, n)).collect();
    let towns: HashMap<i32, String> = if in_rect.iter().any(|(_, c)| c.town.is_some()) {
        worlds::towns_of(conn, w.id)?
            .into_iter()
            .map(|t| (t.id.0, t.name))
            .collect()
    } else {
        HashMap::new()
    };
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
            x: p.x,
            y: p.y,
            terrain: c.terrain,
            owner: c
                .owner
                .and_then(|o| by_id.get(&NationId(o)))
                .map(|n| n.name.clone()),
            town: c.town.and_then(|t| towns.get(&t)).cloned(),
            structure: c.structure,
            siege_tower: c.siege.map(|t| SiegeTowerView {
                builds: t.builds,
                structure: t.structure,
                finished: c.siege_tower(rs),
            }),
            seen: sight.sees(p),
            owner_id: c.owner,
            town_id: c.town,
        })
        .collect();
    let mut shown = Vec::new();
    let now = crate::db::now();
    for p in &placed {
        let c = &p.company;
        if c.x < x0 || c.x > x1 || c.y < y0 || c.y > y1 {
            continue;
        }
        let own = Some(p.nation_id) == nation_id;
        let (seen, hidden) = eyes.spot(rs, p, terrain_at);
        if !(all || seen) {
            continue;
        }
        let mine = who.is_some_and(|o| o.user_id == p.user_id);
        shown.push(SeenCompany::of(
            p,
            by_id.get(&p.nation_id).copied(),
            Seen {
                mine,
                friend: own,
                hidden,
                on_leave: crate::rules::leave::on_leave(p.leave_until, now),
                figures: mine || all,
            },
        ));
    }
    shown.sort_by_key(|c| c.id);
    let looked_into_fog = match (who.and_then(|o| o.steps), look) {
        (Some(steps), Look::Whole | Look::Cell(_)) => {
            let into_fog = |c: &MapCell| match look {
                Look::Cell(at) => c.x == at.x && c.y == at.y && !c.seen,
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
    let edges = world_cells
        .edges_in(x0, y0, x1, y1)
        .map(|(p, side, feature)| EdgeView {
            x: p.x,
            y: p.y,
            side: *side,
            feature: *feature,
        })
        .collect();
    Ok(PlayerMap {
        cells,
        companies: shown,
        edges,
        nation_id,
        nations,
        looked_into_fog,
    })
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

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct NationStanding {
    #[schema(value_type = i32)]
    pub id: NationId,
    pub name: String,
    pub color: String,
    /// Told as `companies` is: what a nation spends tells the companies it raises and the
    /// men it takes in.
    pub treasury: Option<i64>,
    pub towns: Vec<String>,
    pub mines: i64,
    pub forts: i64,
    pub players: i64,
    /// None for another nation than the viewer's while the campaign runs: its strength, which
    /// the fog hides (as in the history); the end publishes it.
    pub companies: Option<i64>,
    /// The whole score, told as `companies` is, since it counts them.
    pub score: Option<i64>,
    /// The part of the score for the ground held (towns, mines, fortified cells): public, as
    /// the map shows every cell's owner.
    pub ground_score: i64,
    /// Usernames, only for the viewer's own nation.
    pub members: Option<Vec<String>>,
}

/// Each nation's holdings and forces as a player of `viewer_nation` (none: a visitor or
/// someone who has not joined) may know them. While the campaign runs they come best ground
/// score first, so that the order tells nothing of the strength withheld; once it is over,
/// best score first.
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
            id: n.id,
            name: n.name,
            color: n.color,
            treasury: Some(n.treasury).filter(|_| told),
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
    if over {
        out.sort_by(|a, b| b.score.cmp(&a.score).then(a.id.cmp(&b.id)));
    } else {
        out.sort_by(|a, b| b.ground_score.cmp(&a.ground_score).then(a.id.cmp(&b.id)));
    }
    Ok(out)
}

/// Everything the cell panel tells about one cell.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct CellInfo {
    pub x: i32,
    pub y: i32,
    pub terrain: Terrain,
    pub ap: i32,
    pub volley_protection: i32,
    pub melee_protection: i32,
    pub confidence: i32,
    pub vision: i32,
    pub owner: Option<String>,
    pub town: Option<String>,
    pub structure: Option<i32>,
    pub structure_max: Option<i32>,
    pub breached: bool,
    pub stops_movement: bool,
    pub blocks_los: bool,
}

pub fn cell_info(
    conn: &mut DbConnection,
    rs: &Ruleset,
    w: &World,
    at: Pos,
) -> GameResult<Option<CellInfo>> {
    if !w.bounds().contains(at) {
        return Ok(None);
    }
    let row: CellRow = cells::table
        .find((w.id, at.x, at.y))
        .select(CellRow::as_select())
        .first(conn)?;
    let cell = row.cell();
    let t = rs.terrain(cell.terrain);
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
    let ct = cell.defence(rs);
    Ok(Some(CellInfo {
        x: at.x,
        y: at.y,
        terrain: row.terrain,
        ap: t.ap(w.season),
        volley_protection: ct.volley_protection,
        melee_protection: ct.melee_protection,
        confidence: ct.confidence,
        vision: t.vision,
        owner,
        town,
        structure: row.structure,
        structure_max: t.structure,
        breached: cell.is_breached(rs),
        stops_movement: t.has(Flag::StopsMovement),
        blocks_los: t.has(Flag::BlocksLos),
    }))
}
