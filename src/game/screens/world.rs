//! The world screen: `standpoint` reads who looks and what they hold, so that the caller can
//! place its view (the page's zoom and viewport, the API's rectangle); `screen` then reads
//! everything that view shows.

use crate::config::Config;
use crate::db::models::{Company, Event, Nation, Player, World};
use crate::db::DbConnection;
use crate::game::play::access::{self, Actor};
use crate::game::play::options::{self, Options};
use crate::game::play::views::{self, NamedCell, PlayerMap};
use crate::game::play::{self, first_steps, reports};
use crate::game::talk::markers::{self, Marker};
use crate::game::{maps::worlds, GameError, GameResult};
use crate::ids::{CompanyId, EventId, WorldId};
use crate::rules::Pos;

/// Who looks at a world and what they hold there.
pub struct Standpoint {
    pub world: World,
    pub nations: Vec<Nation>,
    /// The viewer's player in the world, if they joined.
    pub player: Option<Player>,
    /// The player's companies.
    pub mine: Vec<Company>,
    /// The company in hand: the one asked for if it is the player's, else the only one.
    pub selected: Option<CompanyId>,
}

impl Standpoint {
    /// Where a view opens: on the company in hand, else the first, else the nation's spawn,
    /// else the middle of the world.
    pub fn focus(&self) -> Pos {
        let company = self
            .selected
            .and_then(|id| self.mine.iter().find(|c| c.id == id))
            .or(self.mine.first());
        let spawn = self
            .player
            .as_ref()
            .and_then(|p| self.nations.iter().find(|n| n.id == p.nation_id))
            .map(|n| Pos::new(n.spawn_x, n.spawn_y));
        company
            .map(|c| Pos::new(c.x, c.y))
            .or(spawn)
            .unwrap_or(Pos::new(self.world.width / 2, self.world.height / 2))
    }

    pub fn selected_company(&self) -> Option<&Company> {
        self.selected
            .and_then(|id| self.mine.iter().find(|c| c.id == id))
    }

    pub fn my_nation(&self) -> Option<&Nation> {
        let p = self.player.as_ref()?;
        self.nations.iter().find(|n| n.id == p.nation_id)
    }
}

pub fn standpoint(
    conn: &mut DbConnection,
    actor: Option<&Actor>,
    world_id: WorldId,
    company: Option<CompanyId>,
) -> GameResult<Standpoint> {
    let world = worlds::get(conn, world_id)?;
    let nations = worlds::nations_of(conn, world_id)?;
    let player = match actor {
        Some(a) => access::player_in(conn, a, world_id)?,
        None => None,
    };
    let mine = match &player {
        Some(p) => play::my_companies(conn, p.id)?,
        None => Vec::new(),
    };
    // A player with one company always has it in hand.
    let selected = match company {
        Some(id) => mine.iter().find(|c| c.id == id).map(|c| c.id),
        None if mine.len() == 1 => mine.first().map(|c| c.id),
        None => None,
    };
    Ok(Standpoint {
        world,
        nations,
        player,
        mine,
        selected,
    })
}

/// What the view shows: a rectangle of the map, a cell picked in it, a report asked for.
#[derive(Clone, Copy, Debug)]
pub struct View {
    /// `(x0, y0, x1, y1)`, inclusive, already clipped to the world.
    pub rect: (i32, i32, i32, i32),
    pub cell: Option<Pos>,
    pub report: Option<EventId>,
}

/// The rectangle of `columns`×`rows` cells around `focus`, inside the world.
pub fn around(w: &World, focus: Pos, columns: i32, rows: i32) -> (i32, i32, i32, i32) {
    let x0 = (focus.x - columns / 2).clamp(0, (w.width - columns).max(0));
    let y0 = (focus.y - rows / 2).clamp(0, (w.height - rows).max(0));
    views::clip(w, x0, y0, x0 + columns - 1, y0 + rows - 1)
}

/// The world screen.
pub struct WorldScreen {
    pub standpoint: Standpoint,
    pub view: View,
    /// The rectangle as the viewer sees it: ground, companies in sight, edges.
    pub map: PlayerMap,
    /// The player's nation's markers in the rectangle.
    pub markers: Vec<Marker>,
    /// The picked cell.
    pub cell: Option<NamedCell>,
    /// The picked cell's sides that carry a rampart.
    pub cell_ramparts: Vec<crate::rules::Side>,
    /// The castle sections with cells in the rectangle, as the viewer may know them (their
    /// cells those in the rectangle): the map outlines and names them.
    pub sections: Vec<views::MapSection>,
    /// The castle section of the picked cell, as the viewer may know it.
    pub cell_section: Option<views::MapSection>,
    /// What the selected company may do, the picked cell's orders judged too.
    pub options: Option<Options>,
    /// The report asked for, if the viewer may read it.
    pub report: Option<Event>,
    /// The first day's steps done (`first_steps`' bits), until they are all done.
    pub first_day: Option<i32>,
    /// Whether the player may raise a company now, and why not.
    pub raise: Option<Result<(), GameError>>,
    /// When the next turn runs (Unix seconds).
    pub next_turn: Option<i64>,
    /// The nations a bot plays (docs/rules.md §14), by name.
    pub bots: Vec<String>,
}

pub fn screen(
    conn: &mut DbConnection,
    config: &Config,
    actor: Option<&Actor>,
    standpoint: Standpoint,
    view: View,
) -> GameResult<WorldScreen> {
    let rs = &config.rules;
    let sp = standpoint;
    let w = &sp.world;
    let who = actor.map(|a| match &sp.player {
        Some(p) => views::Onlooker::player(a.user_id, p),
        None => views::Onlooker {
            user_id: a.user_id,
            nation_id: None,
            steps: None,
        },
    });
    // A shaded cell picked is the first day's look into the fog, ticked by the map itself.
    let look = view.cell.map_or(views::Look::Around, views::Look::Cell);
    let map = views::player_map(conn, rs, who, w, sp.nations.clone(), view.rect, look)?;
    let markers = match &sp.player {
        Some(p) => {
            let (x0, y0, x1, y1) = view.rect;
            markers::of_nation(conn, p, w.turn, Some((Pos::new(x0, y0), Pos::new(x1, y1))))?
        }
        None => Vec::new(),
    };
    let cell = match view.cell {
        Some(p) => views::cell_info(conn, w, p)?,
        None => None,
    };
    // Each edge is kept under one name (`Grid::canonical`), from one of its two cells.
    let cell_ramparts = match &cell {
        Some(c) => w
            .grid
            .sides()
            .iter()
            .copied()
            .filter(|side| {
                let (p, s) = w.grid.canonical(c.at, *side);
                map.edges.iter().any(|(q, t, f)| {
                    (*q, *t, *f) == (p, s, crate::rules::names::EdgeFeature::Rampart)
                })
            })
            .collect(),
        None => Vec::new(),
    };
    let sections = map.sections(conn, w, map.nation_id, view.rect)?;
    let cell_section = cell
        .as_ref()
        .and_then(|c| sections.iter().find(|s| s.section.cells.contains(&c.at)))
        .cloned();
    let options = match (actor, sp.selected, &cell) {
        (Some(a), Some(c), Some(info)) => Some(options::of(conn, rs, a, c, Some(info.at))?),
        _ => None,
    };
    // The first day's steps, with the one the map may have just ticked.
    let first_day = match &sp.player {
        Some(p) => {
            let mut p = p.clone();
            if map.looked_into_fog {
                p.first_steps |= first_steps::LOOKED_INTO_FOG;
            }
            first_steps::of(conn, &p)?
        }
        None => None,
    };
    let report = match (actor, view.report) {
        (Some(a), Some(id)) => reports::visible_event(conn, a, w.id, id)?,
        _ => None,
    };
    // On the figures read already: the player's companies and their nation's treasury.
    let raise = sp.player.as_ref().map(|p| {
        let treasury = sp.my_nation().map_or(0, |n| n.treasury);
        play::may_raise(rs, w, p, sp.mine.len() as i64, treasury)
    });
    // The next turn only: one query, not one per kind of tick.
    let next_turn = crate::game::time::clock::next_turn(conn, config, w)?;
    let bots = crate::game::bots::nations_played(conn, w.id)?;
    Ok(WorldScreen {
        bots,
        map,
        markers,
        cell,
        cell_ramparts,
        sections,
        cell_section,
        options,
        report,
        first_day,
        raise,
        next_turn,
        view,
        standpoint: sp,
    })
}
