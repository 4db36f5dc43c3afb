//! A company's orders (docs/rules.md §4–§7): each one transaction that checks ownership and the
//! paused flag, loads the window it needs, asks the engine, then writes with conditional
//! updates (AP spent only if still there, figures changed only if unchanged since read) and
//! records its event. Any refusal or conflict rolls everything back.

use crate::config::Config;
use crate::db::group::Group;
use crate::db::models::{Company, NewEvent, Player, World};
use crate::db::schema::{cells, companies, nations, players, towns};
use crate::db::{self, DbConnection};
use crate::game::error::{GameError, GameResult};
use crate::game::news::events;
use crate::game::play;
use crate::game::play::access::{self, Actor};
use crate::game::play::board::{Board, TakeCell};
use crate::game::play::load::{self, unit_of, Placed};
use crate::game::play::report::{BattleReport, MoveReport, Report, Rng, StructureReport};
use crate::game::play::unit_write::{changed_meanwhile, write_unit, Stream};
use crate::ids::{CompanyId, EventId, NationId, WorldId};
use crate::rules::combat::{self, Battle};
use crate::rules::movement::{self, Capture};
use crate::rules::names::EventKind;
use crate::rules::ruleset::Flag;
use crate::rules::state::Unit;
use crate::rules::{actions, leave, siege, vision, Pos, Refusal, Ruleset, Terrain};
use crate::said::Said;
use diesel::prelude::*;
use std::sync::Arc;

/// What a company is told to do.
#[derive(Clone, Debug)]
pub enum Order {
    MovePath(Vec<Pos>),
    MoveTo(Pos),
    Volley { target: CompanyId },
    Melee { target: CompanyId },
    Bombard { at: Pos },
    Heal,
    BuildBridge { at: Pos },
    Repair { at: Pos },
    Reinforce { men: i32 },
    Ram { at: Pos },
    BuildSiegeTower { at: Pos },
}

/// The result of an order: the company afterwards (None if it was destroyed) and whether it is
/// hidden where it stands, the event, the report.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub company: Option<Company>,
    pub hidden: bool,
    pub event_id: EventId,
    pub summary: String,
    pub report: Report,
}

/// An order given in a [`Together`], whose event is written with the others' at its end: an
/// [`Outcome`] without the event's id yet.
#[derive(Clone, Debug)]
pub struct Given {
    pub company: Option<Company>,
    pub hidden: bool,
    pub summary: String,
    pub report: Report,
}

/// Carries out an order of the actor's company, in a transaction of its own (written with the
/// other orders of the moment on SQLite): a [`Together`] of one order.
pub fn execute(
    conn: &mut DbConnection,
    writes: &Group,
    config: &Arc<Config>,
    actor: &Actor,
    company_id: CompanyId,
    order: Order,
) -> GameResult<Outcome> {
    // The search for a path (bounded by the window it reads) runs before the write lock is
    // taken; the move itself checks the path again under the lock, as any path sent.
    let order = match order {
        Order::MoveTo(to) => {
            Order::MovePath(preview_move(conn, &config.rules, actor, company_id, to)?.0)
        }
        other => other,
    };
    // Written with the other orders of the moment, possibly on another thread's connection.
    let (config, actor) = (config.clone(), actor.clone());
    writes.write(conn, move |conn| {
        let mut together = Together {
            holding: None,
            events: Vec::new(),
            board: None,
            broken: false,
            ahead: false,
        };
        let given = together.give(conn, &config, &actor, company_id, order)?;
        let ids = together.finish(conn)?;
        let event_id = ids
            .first()
            .copied()
            .ok_or_else(|| GameError::Internal("an order was given without its event".into()))?;
        Ok(Outcome {
            company: given.company,
            hidden: given.hidden,
            event_id,
            summary: given.summary,
            report: given.report,
        })
    })
}

/// Orders given one after another in the caller's transaction, each by [`Together::give`],
/// each checked, refused and written as an order of its own; only their events are written
/// together, by [`Together::finish`] before the transaction commits. A bot's chunk of
/// companies gives its orders so: on PostgreSQL each of its orders paid a round trip for its
/// event, for its row of the live log, for its `NOTIFY` and for the turn's lock, four of a
/// move's dozen statements.
pub struct Together {
    /// The world whose turns this transaction holds off already (PostgreSQL's shared lock,
    /// held until the transaction ends): its orders need not ask again.
    holding: Option<WorldId>,
    events: Vec<NewEvent>,
    /// The chunk's ground in memory, when the transaction holds the world's orders off.
    board: Option<Board>,
    /// The board failed to write what its orders changed: nothing more may be given nor
    /// finished (the caller's transaction must be undone).
    broken: bool,
    /// Given ahead ([`Together::ahead`]): no transaction is open.
    ahead: bool,
}

/// A conditional write of a cell: refused as changed meanwhile when no row was as read.
fn written(rows: usize) -> GameResult<()> {
    if rows == 0 {
        return Err(changed_meanwhile());
    }
    Ok(())
}

fn unfinished() -> GameError {
    GameError::Internal("orders given together could not be written".into())
}

impl Together {
    /// Orders to companies of `world` only, its turns held off from now until the caller's
    /// transaction ends.
    pub fn in_world(conn: &mut DbConnection, world: WorldId) -> GameResult<Together> {
        crate::game::time::ticks::hold_off_world_turn(conn, world)?;
        Ok(Together {
            holding: Some(world),
            events: Vec::new(),
            board: None,
            broken: false,
            ahead: false,
        })
    }

    /// Orders to companies of `world` given on a [`Board`]: every other order to the world's
    /// companies waits until the caller's transaction ends (as for a chunk of a turn), so
    /// what these orders read is kept in memory, and what they change is written by
    /// [`Together::finish`] in a few statements. The board `kept` from the caller's previous
    /// transaction ([`Together::finish_keeping`]) goes on if no one else wrote since.
    pub fn on_board(
        conn: &mut DbConnection,
        world: WorldId,
        kept: Option<Board>,
    ) -> GameResult<Together> {
        crate::game::time::ticks::hold_world_orders(conn, world)?;
        // Read under the lock: the cells' version is the one the board's orders will see.
        let w = crate::game::maps::worlds::get(conn, world)?;
        let mark = crate::db::quiet::mark(conn)?;
        let went_on = match kept {
            Some(b) => b.go_on(conn, &w, mark)?,
            None => None,
        };
        let board = match went_on {
            Some(b) => b,
            None => Board::new(conn, w, mark)?,
        };
        Ok(Together {
            holding: Some(world),
            events: Vec::new(),
            board: Some(board),
            broken: false,
            ahead: false,
        })
    }

    /// Orders to companies of `world` given on `board` in memory, with no transaction open:
    /// nothing is held off nor written until [`Together::into_writes`] hands what they
    /// changed over, to be written ([`ChunkWrites::write`]) in a transaction that holds the
    /// world's orders off and finds that no one else wrote since the board was read (else it
    /// writes nothing and the orders never were). A bot gives its next chunk so while the last
    /// one is written.
    pub fn ahead(world: WorldId, board: Board) -> Together {
        Together {
            holding: Some(world),
            events: Vec::new(),
            board: Some(board),
            broken: false,
            ahead: true,
        }
    }

    /// What the orders given [`Together::ahead`] changed, and their events; the board goes on.
    pub fn into_writes(mut self) -> GameResult<(ChunkWrites, Board)> {
        let board = match (self.broken, self.board.take()) {
            (false, Some(b)) => b,
            _ => return Err(unfinished()),
        };
        let mut board = board;
        let writes = ChunkWrites {
            board: board.take_writes(),
            events: self.events,
        };
        Ok((writes, board))
    }

    /// The transactions the board has gone through, this one included: more than one when it
    /// was kept from before. None off a board.
    pub fn board_chunks(&self) -> Option<u32> {
        self.board.as_ref().map(Board::chunks)
    }

    /// Reads these companies at once, before their orders (on a board; else nothing to do).
    pub fn read_companies(&mut self, conn: &mut DbConnection, ids: &[CompanyId]) -> GameResult<()> {
        match &mut self.board {
            Some(b) => b.read_companies(conn, ids),
            None => Ok(()),
        }
    }

    /// [`Together::give`] so that a refusal leaves the orders given before it standing: on a
    /// board what the order changed is undone in memory; else it has a savepoint of its own.
    pub fn give_apart(
        &mut self,
        conn: &mut DbConnection,
        config: &Config,
        actor: &Actor,
        company_id: CompanyId,
        order: Order,
    ) -> GameResult<Given> {
        if self.board.is_some() {
            return self.give(conn, config, actor, company_id, order);
        }
        db::savepoint(conn, |conn| {
            self.give(conn, config, actor, company_id, order)
        })
    }

    /// The company standing on a cell now, as these orders left it.
    pub fn standing(
        &mut self,
        conn: &mut DbConnection,
        w: &World,
        at: Pos,
    ) -> GameResult<Option<Company>> {
        let placed = match &mut self.board {
            Some(b) => b.window(conn, &[at], 0)?.1,
            None => load::companies_in(conn, w.id, at.x, at.y, at.x, at.y)?,
        };
        Ok(placed
            .into_iter()
            .find(|p| (p.company.x, p.company.y) == (at.x, at.y))
            .map(|p| p.company))
    }

    /// Carries out an order of the actor's company: every check and write of a person's
    /// order, its event kept for [`Together::finish`]. An order may be refused after it began
    /// to write (a fight's second company): on a board what it changed is undone; else a
    /// caller that goes on after a refusal gives each order a savepoint of its own
    /// ([`Together::give_apart`]).
    pub fn give(
        &mut self,
        conn: &mut DbConnection,
        config: &Config,
        actor: &Actor,
        company_id: CompanyId,
        order: Order,
    ) -> GameResult<Given> {
        if self.broken {
            return Err(unfinished());
        }
        let Some(mut board) = self.board.take() else {
            return self.give_on(&mut Ground::Db(conn), config, actor, company_id, order);
        };
        if matches!(order, Order::Reinforce { .. }) {
            if self.ahead {
                // It writes to the database at once, which orders given ahead never do.
                self.board = Some(board);
                return Err(GameError::Internal(
                    "a reinforcement is not given ahead".into(),
                ));
            }
            // The treasury and the reserve are not kept on the board: the order is given on
            // the database, which is then read again. A board that failed to write leaves
            // the orders given together unable to finish.
            if let Err(e) = board.flush(conn) {
                self.broken = true;
                return Err(e);
            }
            let (world, quiet) = (board.world().id, board.quiet());
            let given = db::savepoint(conn, |conn| {
                self.give_on(&mut Ground::Db(conn), config, actor, company_id, order)
            });
            let w = crate::game::maps::worlds::get(conn, world)?;
            self.board = Some(Board::new(conn, w, quiet)?);
            return given;
        }
        let mark = board.mark();
        let given = self.give_on(
            &mut Ground::Board(&mut board, conn),
            config,
            actor,
            company_id,
            order,
        );
        if given.is_err() {
            board.undo_to(mark);
        }
        self.board = Some(board);
        given
    }

    fn give_on(
        &mut self,
        g: &mut Ground<'_>,
        config: &Config,
        actor: &Actor,
        company_id: CompanyId,
        order: Order,
    ) -> GameResult<Given> {
        let rs = &config.rules;
        if self.holding.is_none() {
            crate::game::time::ticks::hold_off_turn(g.conn(), actor.user_id, company_id)?;
        }
        let (company, player, w) = g.own_company_and_world(actor, company_id)?;
        if self.holding.is_some_and(|h| h != w.id) {
            // Its world's turn is not held off by this transaction.
            return Err(GameError::not_found("company of yours"));
        }
        crate::game::maps::worlds::takes_orders(&w)?;
        leave::free(player.leave_until, db::now())?;
        let me = Placed {
            company,
            nation_id: player.nation_id,
            user_id: actor.user_id,
            leave_until: player.leave_until,
        };
        let ctx = Ctx {
            rs,
            actor,
            w: &w,
            player: &player,
            me: &me,
        };
        // The company after a move is known; after any other order it is read again.
        let mut known = None;
        let (event, report) = match order {
            Order::MovePath(path) => {
                let (e, r, k) = ctx.move_along(g, path)?;
                known = Some(k);
                (e, r)
            }
            Order::MoveTo(to) => {
                let (path, _) = ctx.path_to(g, to)?;
                let (e, r, k) = ctx.move_along(g, path)?;
                known = Some(k);
                (e, r)
            }
            Order::Volley { target } => ctx.fight(g, target, true)?,
            Order::Melee { target } => ctx.fight(g, target, false)?,
            Order::Bombard { at } => ctx.bombard(g, at)?,
            Order::Repair { at } => ctx.repair(g, at)?,
            Order::BuildBridge { at } => ctx.build_bridge(g, at)?,
            Order::Heal => ctx.heal(g)?,
            Order::Reinforce { men } => ctx.reinforce(g, men)?,
            Order::Ram { at } => ctx.ram(g, at)?,
            Order::BuildSiegeTower { at } => ctx.build_siege_tower(g, at)?,
        };
        g.record(&w, (&player, actor.held), event.target_user_id, &report)?;
        // The first day's steps are the player's own: a bot holding their companies ticks none.
        if let Some(bit) =
            crate::game::play::first_steps::bit_of_event(event.kind).filter(|_| !actor.held)
        {
            g.tick(&player, bit)?;
        }
        let (after, hidden) = match known {
            Some((c, hidden)) => (Some(c), hidden),
            None => g.company_after(rs, company_id)?,
        };
        let summary = event.summary.clone();
        // Last: an order refused above leaves no event behind.
        self.events.push(event);
        Ok(Given {
            company: after,
            hidden,
            summary,
            report,
        })
    }

    /// Writes the events of the orders given, in their order, with their alerts and live
    /// notes; their ids.
    pub fn finish(self, conn: &mut DbConnection) -> GameResult<Vec<EventId>> {
        Ok(self.finish_keeping(conn)?.0)
    }

    /// [`Together::finish`], handing the board back (written: what it holds is what the
    /// transaction leaves), for the caller's next transaction once this one has committed.
    pub fn finish_keeping(
        mut self,
        conn: &mut DbConnection,
    ) -> GameResult<(Vec<EventId>, Option<Board>)> {
        if self.broken {
            return Err(unfinished());
        }
        if let Some(b) = &mut self.board {
            b.flush(conn)?;
        }
        Ok((events::record_all(conn, self.events)?, self.board))
    }
}

/// What orders given together changed, and their events, to be written at once.
pub struct ChunkWrites {
    board: crate::game::play::board::Writes,
    events: Vec<NewEvent>,
}

impl ChunkWrites {
    /// Writes them in the caller's transaction, which must hold the world's orders off:
    /// the board's rows on the condition that they are as read, then the events.
    pub fn write(self, conn: &mut DbConnection) -> GameResult<Vec<EventId>> {
        self.board.write(conn)?;
        Ok(events::record_all(conn, self.events)?)
    }

    /// How many orders they are.
    pub fn orders(&self) -> usize {
        self.events.len()
    }
}

/// Where an order reads and writes: the database, or a chunk's [`Board`] (with the database
/// for what the board has not read yet).
enum Ground<'a> {
    Db(&'a mut DbConnection),
    Board(&'a mut Board, &'a mut DbConnection),
}

impl Ground<'_> {
    fn conn(&mut self) -> &mut DbConnection {
        match self {
            Ground::Db(c) => c,
            Ground::Board(_, c) => c,
        }
    }

    /// The actor's company, its player and its world.
    fn own_company_and_world(
        &mut self,
        actor: &Actor,
        company_id: CompanyId,
    ) -> GameResult<(Company, Player, World)> {
        let (board, conn) = match self {
            Ground::Db(conn) => return access::own_company_and_world(conn, actor, company_id),
            Ground::Board(b, c) => (b, c),
        };
        let p = board
            .company(conn, company_id)?
            .filter(|p| p.user_id == actor.user_id)
            .ok_or_else(|| GameError::not_found("company of yours"))?;
        let player = board.player(conn, p.company.player_id)?;
        Ok((p.company, player, board.world().clone()))
    }

    fn window(
        &mut self,
        w: &World,
        points: &[Pos],
        margin: i32,
    ) -> GameResult<(crate::rules::state::Area, Vec<Placed>)> {
        match self {
            Ground::Db(conn) => load::window(conn, w, points, margin),
            Ground::Board(b, conn) => b.window(conn, points, margin),
        }
    }

    fn write_unit(
        &mut self,
        before: &Unit,
        stream: Stream,
        after: &Unit,
        spent: i32,
    ) -> GameResult<Option<i32>> {
        match self {
            Ground::Db(conn) => write_unit(conn, before, stream, after, spent),
            Ground::Board(b, _) => b.write_unit(before, stream, after, spent),
        }
    }

    /// Where a company of the world stands.
    fn place_of(&mut self, w: &World, id: CompanyId) -> GameResult<Option<Pos>> {
        match self {
            Ground::Db(conn) => {
                let at: Option<(i32, i32)> = companies::table
                    .filter(companies::id.eq(id))
                    .filter(companies::world_id.eq(w.id))
                    .select((companies::x, companies::y))
                    .first(*conn)
                    .optional()?;
                Ok(at.map(|(x, y)| Pos::new(x, y)))
            }
            Ground::Board(b, conn) => Ok(b
                .company(conn, id)?
                .map(|p| Pos::new(p.company.x, p.company.y))),
        }
    }

    /// A cell taken by a nation.
    fn take_cell(&mut self, w: &World, nation: i32, at: Pos) -> GameResult<()> {
        match self {
            Ground::Db(conn) => {
                let take = TakeCell {
                    owner: nation,
                    world: w.id.0,
                    x: at.x,
                    y: at.y,
                };
                crate::on_backend!(conn, c => take.execute(c))?;
                Ok(())
            }
            Ground::Board(b, _) => b.change_cell(at, |c| {
                c.owner = Some(nation);
                true
            }),
        }
    }

    /// A town taken by a nation: every cell of it that can be owned. Its name and its owner
    /// before; None when it was the nation's already, every cell included.
    fn take_town(
        &mut self,
        rs: &Ruleset,
        w: &World,
        town: i32,
        nation: i32,
    ) -> GameResult<Option<(String, Option<i32>)>> {
        let conn = match self {
            Ground::Db(conn) => conn,
            Ground::Board(b, conn) => {
                return b.take_town(conn, town, nation, |c| {
                    rs.terrain(c.terrain).has(Flag::Ownable)
                })
            }
        };
        let (name, before): (String, Option<i32>) = towns::table
            .find(town)
            .select((towns::name, towns::owner_id))
            .first(*conn)?;
        let ownable: Vec<&str> = Terrain::ALL
            .iter()
            .filter(|t| rs.terrain(**t).has(Flag::Ownable))
            .map(|t| t.as_str())
            .collect();
        let changed = diesel::update(
            cells::table
                .filter(cells::world_id.eq(w.id))
                .filter(cells::town_id.eq(town))
                .filter(cells::terrain.eq_any(ownable))
                .filter(cells::owner_id.is_null().or(cells::owner_id.ne(nation))),
        )
        .set(cells::owner_id.eq(Some(nation)))
        .execute(*conn)?;
        if changed == 0 && before == Some(nation) {
            return Ok(None);
        }
        diesel::update(towns::table.find(town))
            .set(towns::owner_id.eq(Some(nation)))
            .execute(*conn)?;
        Ok(Some((name, before)))
    }

    /// A cell's structure, if unchanged since read.
    fn set_structure(&mut self, w: &World, at: Pos, before: i32, after: i32) -> GameResult<()> {
        let conn = match self {
            Ground::Db(conn) => conn,
            Ground::Board(b, _) => {
                return b.change_cell(at, |c| {
                    c.structure == Some(before) && {
                        c.structure = Some(after);
                        true
                    }
                })
            }
        };
        let n = diesel::update(
            cells::table
                .find((w.id, at.x, at.y))
                .filter(cells::structure.eq(Some(before))),
        )
        .set(cells::structure.eq(Some(after)))
        .execute(*conn)?;
        written(n)
    }

    /// A bombarded siege tower's structure, if unchanged since read; at 0 the tower is gone.
    fn set_siege_tower(
        &mut self,
        rs: &Ruleset,
        w: &World,
        at: Pos,
        before: i32,
        after: i32,
    ) -> GameResult<()> {
        let builds = rs.castle.siege_tower_builds;
        let conn = match self {
            Ground::Db(conn) => conn,
            Ground::Board(b, _) => {
                return b.change_cell(at, |c| {
                    c.siege.is_some_and(|s| s.structure == before) && {
                        c.siege = (after > 0).then_some(crate::rules::state::SiegeTower {
                            builds,
                            structure: after,
                        });
                        true
                    }
                })
            }
        };
        let n = diesel::update(
            cells::table
                .find((w.id, at.x, at.y))
                .filter(cells::siege_structure.eq(Some(before))),
        )
        .set(if after > 0 {
            (
                cells::siege_builds.eq(Some(builds)),
                cells::siege_structure.eq(Some(after)),
            )
        } else {
            (
                cells::siege_builds.eq(None),
                cells::siege_structure.eq(None),
            )
        })
        .execute(*conn)?;
        written(n)
    }

    /// A siege tower's build, only if no one built on it meanwhile.
    fn build_siege_tower(&mut self, w: &World, at: Pos, b: &siege::SiegeBuild) -> GameResult<()> {
        let builds_before = (b.builds_before > 0).then_some(b.builds_before);
        let conn = match self {
            Ground::Db(conn) => conn,
            Ground::Board(board, _) => {
                return board.change_cell(at, |c| {
                    c.siege.map(|s| s.builds) == builds_before && {
                        c.siege = Some(crate::rules::state::SiegeTower {
                            builds: b.builds_after,
                            structure: if b.finished { b.structure } else { 0 },
                        });
                        true
                    }
                })
            }
        };
        let cell = cells::table.find((w.id, at.x, at.y));
        let set = (
            cells::siege_builds.eq(Some(b.builds_after)),
            cells::siege_structure.eq(b.finished.then_some(b.structure)),
        );
        let n = match builds_before {
            None => diesel::update(cell.filter(cells::siege_builds.is_null()))
                .set(set)
                .execute(*conn)?,
            Some(before) => diesel::update(cell.filter(cells::siege_builds.eq(Some(before))))
                .set(set)
                .execute(*conn)?,
        };
        written(n)
    }

    /// A bridge: the cell's terrain, if unchanged since read.
    fn build_bridge(&mut self, w: &World, at: Pos, from: Terrain, to: Terrain) -> GameResult<()> {
        let conn = match self {
            Ground::Db(conn) => conn,
            Ground::Board(b, _) => {
                return b.change_cell(at, |c| {
                    c.terrain == from && {
                        c.terrain = to;
                        true
                    }
                })
            }
        };
        let n = diesel::update(
            cells::table
                .find((w.id, at.x, at.y))
                .filter(cells::terrain.eq(from.as_str())),
        )
        .set(cells::terrain.eq(to.as_str()))
        .execute(*conn)?;
        written(n)
    }

    /// An order's gains (`scores::record`).
    fn record(
        &mut self,
        w: &World,
        actor: (&Player, bool),
        defender: Option<crate::ids::UserId>,
        report: &Report,
    ) -> GameResult<()> {
        match self {
            Ground::Db(conn) => crate::game::play::scores::record(conn, w, actor, defender, report),
            Ground::Board(b, _) => {
                b.tally().add(w, actor, defender, report);
                Ok(())
            }
        }
    }

    /// A first step ticked by an order.
    fn tick(&mut self, player: &Player, bit: i32) -> GameResult<()> {
        match self {
            Ground::Db(conn) => Ok(crate::game::play::first_steps::tick(conn, player, bit)?),
            Ground::Board(b, _) => {
                b.tick(player, bit);
                Ok(())
            }
        }
    }

    /// The company after an order, and whether it is hidden where it stands.
    fn company_after(
        &mut self,
        rs: &Ruleset,
        id: CompanyId,
    ) -> GameResult<(Option<Company>, bool)> {
        match self {
            Ground::Db(conn) => {
                let after: Option<Company> = crate::on_backend!(conn, c => companies::table
                    .find(id)
                    .select(Company::as_select())
                    .first(c)
                    .optional())?;
                let hidden = match &after {
                    Some(c) => play::hidden(conn, rs, c)?,
                    None => false,
                };
                Ok((after, hidden))
            }
            Ground::Board(b, conn) => {
                let Some(p) = b.company(conn, id)? else {
                    return Ok((None, false));
                };
                let u = unit_of(&p);
                let hidden = b
                    .cell(u.pos)
                    .is_some_and(|c| vision::is_hidden(rs, &u, c.terrain));
                Ok((Some(p.company), hidden))
            }
        }
    }
}

struct Ctx<'a> {
    rs: &'a Ruleset,
    actor: &'a Actor,
    w: &'a World,
    player: &'a Player,
    me: &'a Placed,
}

impl Ctx<'_> {
    fn unit(&self) -> Unit {
        unit_of(self.me)
    }

    /// Where the order drew its dice: the company's stream, from `word`.
    fn rng(&self, word: i64) -> Rng {
        Rng {
            stream: self.me.company.id.0,
            word_pos: word,
        }
    }

    /// The company's random stream, for an action that draws no dice.
    fn stream(&self) -> Stream {
        Stream::untouched(self.me.company.rng_pos)
    }

    fn event(&self, kind: EventKind, said: Said, data: &Report) -> NewEvent {
        NewEvent {
            actor_user_id: Some(self.actor.user_id),
            target_user_id: Some(self.actor.user_id),
            nation_id: Some(self.player.nation_id),
            company_id: Some(self.me.company.id),
            x: Some(self.me.company.x),
            y: Some(self.me.company.y),
            data: data.to_json(),
            ..NewEvent::new(self.w.id, self.w.turn, db::now(), kind)
        }
        .saying(&said)
    }

    fn name(&self) -> &str {
        &self.me.company.name
    }

    fn path_to(&self, g: &mut Ground<'_>, to: Pos) -> GameResult<(Vec<Pos>, i32)> {
        plan_path_on(
            g,
            self.rs,
            self.w,
            self.player.nation_id.0,
            &self.unit(),
            to,
        )
    }

    /// The move, and the company after it, as it was written, with whether it is hidden where
    /// it stands: known here, so not read again (two statements of a move's seven).
    fn move_along(
        &self,
        g: &mut Ground<'_>,
        path: Vec<Pos>,
    ) -> GameResult<(NewEvent, Report, (Company, bool))> {
        let max = self.rs.limits.max_path as usize;
        if path.len() > max {
            return Err(GameError::Invalid(
                Said::new("error-path-length").n("max", max as i64).into(),
            ));
        }
        let u = self.unit();
        let mut points = path.clone();
        points.push(u.pos);
        // Clip the window to the map: out-of-map steps are reported by the engine.
        let (area, _) = g.window(self.w, &points, 1)?;
        let (mut dice, word) = load::company_dice(self.w, &self.me.company);
        let plan = movement::plan_move(self.rs, &area, &u, &path, &mut dice)?;
        let mut after = u.clone();
        after.pos = plan.destination;
        let left = g.write_unit(&u, Stream::drawn(word), &after, plan.cost)?;
        // What `write_unit` wrote: only the place, the AP and the random stream change.
        let moved = Company {
            x: after.pos.x,
            y: after.pos.y,
            ap: left.unwrap_or(0),
            rng_pos: load::next_draw(word),
            ..self.me.company.clone()
        };
        let hidden = area
            .cell(after.pos)
            .is_some_and(|c| vision::is_hidden(self.rs, &after, c.terrain));
        let mut captured = Vec::new();
        let mut captures = Vec::new();
        for c in plan.captures {
            if let Some((said, c)) = self.capture(g, c)? {
                captured.push(said);
                captures.push(c);
            }
        }
        let mut said = Said::new("said-move")
            .s("name", self.name())
            .n("x", plan.destination.x)
            .n("y", plan.destination.y)
            .n("ap", plan.cost);
        said.0.extend(captured.into_iter().flat_map(|c| c.0));
        let data = Report::Move(MoveReport {
            steps: plan.steps,
            cost: plan.cost,
            captures: captures.clone(),
            draws: plan.draws,
            rng: self.rng(word),
        });
        let mut e = self.event(EventKind::Move, said, &data);
        e.x = Some(plan.destination.x);
        e.y = Some(plan.destination.y);
        // A capture concerns the nation that lost the ground too.
        e.other_nation_id = captures
            .iter()
            .find_map(|c| match c {
                Capture::Mine { from, .. }
                | Capture::Town { from, .. }
                | Capture::Fort { from, .. }
                | Capture::Castle { from, .. } => *from,
            })
            .map(NationId);
        Ok((e, data, (moved, hidden)))
    }

    /// Writes one capture; returns how the report says it and the capture as it happened,
    /// or None when the ground was the nation's already. A town gives its owner only to its
    /// cells that can be owned: a world stays one that exports and imports.
    fn capture(&self, g: &mut Ground<'_>, c: Capture) -> GameResult<Option<(Said, Capture)>> {
        let nation = self.player.nation_id.0;
        match c {
            Capture::Mine { x, y, .. }
            | Capture::Fort { x, y, .. }
            | Capture::Castle { x, y, .. } => {
                g.take_cell(self.w, nation, Pos::new(x, y))?;
                let key = match c {
                    Capture::Mine { .. } => "said-captured-mine",
                    Capture::Castle { .. } => "said-captured-castle",
                    _ => "said-captured-fort",
                };
                Ok(Some((Said::new(key).n("x", x).n("y", y), c)))
            }
            Capture::Town { town, x, y, from } => {
                let Some((name, before)) = g.take_town(self.rs, self.w, town, nation)? else {
                    return Ok(None);
                };
                let from = before.filter(|b| *b != nation).or(from);
                Ok(Some((
                    Said::new("said-took-town").s("town", name),
                    Capture::Town { town, x, y, from },
                )))
            }
        }
    }

    fn fight(
        &self,
        g: &mut Ground<'_>,
        target_id: CompanyId,
        ranged: bool,
    ) -> GameResult<(NewEvent, Report)> {
        let u = self.unit();
        let at = g.place_of(self.w, target_id)?.ok_or(Refusal::NotSeen)?;
        let margin = vision::max_perception(self.rs) + 1;
        let (area, placed) = g.window(self.w, &[u.pos, at], margin)?;
        let (mut dice, word) = load::company_dice(self.w, &self.me.company);
        let battle: Battle = if ranged {
            combat::volley(self.rs, &area, &u, at, &mut dice)?
        } else {
            combat::melee(self.rs, &area, &u, at, &mut dice)?
        };
        let defender_before = area.unit_at(at).cloned().ok_or(Refusal::NotSeen)?;
        let def = placed.iter().find(|p| p.company.id.0 == defender_before.id);
        // Asked only once the nation is known to see the target: a leave tells nothing more.
        if def.is_some_and(|p| leave::on_leave(p.leave_until, db::now())) {
            return Err(Refusal::TargetOnLeave.into());
        }
        let def_stream = Stream::untouched(def.ok_or(Refusal::NotSeen)?.company.rng_pos);
        g.write_unit(
            &u,
            Stream::drawn(word),
            &battle.attacker_after,
            battle.ap_cost,
        )?;
        g.write_unit(&defender_before, def_stream, &battle.defender_after, 0)?;
        let def_name = def.map(|p| p.company.name.clone()).unwrap_or_default();
        let (a, d) = (&battle.attacker, &battle.defender);
        let mut said = Said::new(if ranged { "said-volley" } else { "said-charge" })
            .s("name", self.name())
            .s("target", def_name.as_str())
            .n("x", at.x)
            .n("y", at.y)
            .n("losses", d.losses)
            .n("killed", d.killed)
            .n("wounded", d.wounded);
        if !ranged {
            said = said
                .and("said-lost")
                .s("name", self.name())
                .n("losses", a.losses);
        }
        if d.destroyed {
            said = said.and("said-destroyed").s("name", def_name.as_str());
        }
        if a.destroyed {
            said = said.and("said-destroyed").s("name", self.name());
        }
        let data = Report::Battle(BattleReport {
            battle: battle.kind,
            ap_cost: battle.ap_cost,
            attacker: battle.attacker.clone(),
            defender: battle.defender.clone(),
            attacker_name: self.name().to_string(),
            defender_name: def_name,
            draws: battle.draws,
            rng: self.rng(word),
            notes: battle.notes.clone(),
            at: Some(at),
        });
        let mut e = self.event(
            if ranged {
                EventKind::Volley
            } else {
                EventKind::Melee
            },
            said,
            &data,
        );
        e.other_nation_id = Some(NationId(defender_before.nation));
        e.target_company_id = Some(CompanyId(defender_before.id));
        e.target_user_id = def.map(|p| p.user_id);
        e.x = Some(at.x);
        e.y = Some(at.y);
        Ok((e, data))
    }

    fn structure_event(
        &self,
        kind: EventKind,
        said: Said,
        owner: Option<i32>,
        change: Report,
        at: Pos,
    ) -> (NewEvent, Report) {
        let mut e = self.event(kind, said, &change);
        e.other_nation_id = owner
            .filter(|o| *o != self.player.nation_id.0)
            .map(NationId);
        e.x = Some(at.x);
        e.y = Some(at.y);
        (e, change)
    }

    fn owner_at(&self, area: &crate::rules::state::Area, at: Pos) -> Option<i32> {
        area.cell(at).and_then(|c| c.owner)
    }

    fn bombard(&self, g: &mut Ground<'_>, at: Pos) -> GameResult<(NewEvent, Report)> {
        self.blow(g, at, EventKind::Bombard, siege::bombard)
    }

    fn ram(&self, g: &mut Ground<'_>, at: Pos) -> GameResult<(NewEvent, Report)> {
        self.blow(g, at, EventKind::Ram, siege::ram)
    }

    /// A blow that draws dice against a structure (bombard, ram): the company's AP and
    /// stream, the cell's structure or the siege tower on it, the report.
    fn blow(
        &self,
        g: &mut Ground<'_>,
        at: Pos,
        kind: EventKind,
        rule: impl Fn(
            &Ruleset,
            &crate::rules::state::Area,
            &Unit,
            Pos,
            &mut crate::rules::dice::Dice<rand_chacha::ChaCha20Rng>,
        ) -> Result<siege::StructureChange, Refusal>,
    ) -> GameResult<(NewEvent, Report)> {
        let u = self.unit();
        let (area, _) = g.window(self.w, &[u.pos, at], 0)?;
        let (mut dice, word) = load::company_dice(self.w, &self.me.company);
        let s = rule(self.rs, &area, &u, at, &mut dice)?;
        g.write_unit(&u, Stream::drawn(word), &u, s.ap_cost)?;
        let key = match (kind, s.siege_tower, s.breached) {
            (_, true, true) => "said-bombard-siege-tower-gone",
            (_, true, false) => "said-bombard-siege-tower",
            (EventKind::Ram, _, true) => "said-ram-broken",
            (EventKind::Ram, _, false) => "said-ram",
            (_, _, true) => "said-bombard-breached",
            _ => "said-bombard",
        };
        if s.siege_tower {
            g.set_siege_tower(self.rs, self.w, at, s.before, s.after)?;
        } else {
            g.set_structure(self.w, at, s.before, s.after)?;
        }
        let said = structure_said(key, self.name(), s.terrain, at, s.before, s.after);
        let data = Report::Structure(StructureReport {
            change: s,
            rng: Some(self.rng(word)),
        });
        Ok(self.structure_event(kind, said, self.owner_at(&area, at), data, at))
    }

    fn build_siege_tower(&self, g: &mut Ground<'_>, at: Pos) -> GameResult<(NewEvent, Report)> {
        let u = self.unit();
        let (area, _) = g.window(self.w, &[u.pos, at], 1)?;
        let b = siege::build_siege_tower(self.rs, &area, &u, at)?;
        g.write_unit(&u, self.stream(), &u, b.ap_cost)?;
        g.build_siege_tower(self.w, at, &b)?;
        let said = Said::new(if b.finished {
            "said-siege-tower-built"
        } else {
            "said-siege-tower-build"
        })
        .s("name", self.name())
        .n("x", at.x)
        .n("y", at.y)
        .n("builds", b.builds_after)
        .n("needed", b.builds_needed);
        Ok(self.structure_event(EventKind::SiegeTower, said, None, Report::SiegeTower(b), at))
    }

    fn repair(&self, g: &mut Ground<'_>, at: Pos) -> GameResult<(NewEvent, Report)> {
        let u = self.unit();
        let (area, _) = g.window(self.w, &[u.pos, at], 0)?;
        let s = siege::repair(self.rs, &area, &u, at)?;
        g.write_unit(&u, self.stream(), &u, s.ap_cost)?;
        g.set_structure(self.w, at, s.before, s.after)?;
        let said = structure_said("said-repair", self.name(), s.terrain, at, s.before, s.after);
        let data = Report::Structure(StructureReport {
            change: s,
            rng: None,
        });
        Ok(self.structure_event(EventKind::Repair, said, None, data, at))
    }

    fn build_bridge(&self, g: &mut Ground<'_>, at: Pos) -> GameResult<(NewEvent, Report)> {
        let u = self.unit();
        let (area, _) = g.window(self.w, &[u.pos, at], 0)?;
        let b = siege::build_bridge(self.rs, &area, &u, at)?;
        g.write_unit(&u, self.stream(), &u, b.ap_cost)?;
        g.build_bridge(self.w, at, b.from, b.to)?;
        let said = Said::new("said-bridge")
            .s("name", self.name())
            .n("x", at.x)
            .n("y", at.y);
        Ok(self.structure_event(EventKind::Bridge, said, None, Report::Bridge(b), at))
    }

    fn heal(&self, g: &mut Ground<'_>) -> GameResult<(NewEvent, Report)> {
        let u = self.unit();
        let (area, _) = g.window(self.w, &[u.pos], 0)?;
        let cell = area.cell(u.pos).cloned().ok_or(Refusal::OutOfMap(u.pos))?;
        let h = actions::heal(self.rs, &u, &cell)?;
        let mut after = u.clone();
        after.men = h.men_after;
        after.wounded = h.wounded_after;
        g.write_unit(&u, self.stream(), &after, h.ap_cost)?;
        let said = Said::new("said-heal")
            .s("name", self.name())
            .n("healed", h.healed);
        let data = Report::Heal(h);
        Ok((self.event(EventKind::Heal, said, &data), data))
    }

    fn reinforce(&self, g: &mut Ground<'_>, men: i32) -> GameResult<(NewEvent, Report)> {
        // The treasury and the reserve are the database's: never given on a board.
        let Ground::Db(conn) = g else {
            return Err(GameError::Internal(
                "a reinforcement is given on the database".into(),
            ));
        };
        let conn: &mut DbConnection = conn;
        let u = self.unit();
        let (area, _) = load::window(conn, self.w, &[u.pos], 0)?;
        let cell = area.cell(u.pos).cloned().ok_or(Refusal::OutOfMap(u.pos))?;
        let treasury: i64 = nations::table
            .find(self.player.nation_id)
            .select(nations::treasury)
            .first(conn)?;
        let r = actions::reinforce(
            self.rs,
            &u,
            u.pos,
            &cell,
            self.player.reserve,
            treasury,
            men,
        )?;
        let took = diesel::update(
            players::table
                .find(self.player.id)
                .filter(players::reserve.ge(r.men)),
        )
        .set(players::reserve.eq(players::reserve - r.men))
        .execute(conn)?;
        let paid = diesel::update(
            nations::table
                .find(self.player.nation_id)
                .filter(nations::treasury.ge(r.cost)),
        )
        .set(nations::treasury.eq(nations::treasury - r.cost))
        .execute(conn)?;
        if took == 0 || paid == 0 {
            return Err(changed_meanwhile());
        }
        let mut after = u.clone();
        after.men = r.men_after;
        write_unit(conn, &u, self.stream(), &after, r.ap_cost)?;
        let said = Said::new("said-reinforce")
            .s("name", self.name())
            .n("men", r.men)
            .n("cost", r.cost)
            .n("asked", r.asked)
            .s("limited", r.limited_by.map_or("none", |l| l.as_str()));
        let data = Report::Reinforce(r);
        Ok((self.event(EventKind::Reinforce, said, &data), data))
    }
}

/// How a bombardment or a repair is said.
fn structure_said(
    key: &str,
    name: &str,
    terrain: Terrain,
    at: Pos,
    before: i32,
    after: i32,
) -> Said {
    Said::new(key)
        .s("name", name)
        .s("terrain", terrain.as_str())
        .n("x", at.x)
        .n("y", at.y)
        .n("before", before)
        .n("after", after)
}

/// The cheapest path and its cost for one of the actor's companies to `to`, without moving:
/// what the cell panel offers.
pub fn preview_move(
    conn: &mut DbConnection,
    rs: &Ruleset,
    actor: &Actor,
    company_id: CompanyId,
    to: Pos,
) -> GameResult<(Vec<Pos>, i32)> {
    let (company, player) = access::own_company(conn, actor, company_id)?;
    let w = crate::game::maps::worlds::get(conn, company.world_id)?;
    let me = Placed {
        company,
        nation_id: player.nation_id,
        user_id: actor.user_id,
        leave_until: player.leave_until,
    };
    let ctx = Ctx {
        rs,
        actor,
        w: &w,
        player: &player,
        me: &me,
    };
    ctx.path_to(&mut Ground::Db(conn), to)
}

/// The cheapest path for `u` to `to` and its cost. Planned with what the nation sees: a path
/// that bends around an unseen company, or a preview that calls its cell occupied, would give
/// it away.
pub fn plan_path(
    conn: &mut DbConnection,
    rs: &Ruleset,
    w: &World,
    nation: i32,
    u: &Unit,
    to: Pos,
) -> GameResult<(Vec<Pos>, i32)> {
    plan_path_on(&mut Ground::Db(conn), rs, w, nation, u, to)
}

fn plan_path_on(
    g: &mut Ground<'_>,
    rs: &Ruleset,
    w: &World,
    nation: i32,
    u: &Unit,
    to: Pos,
) -> GameResult<(Vec<Pos>, i32)> {
    let margin = u.ap.clamp(1, rs.limits.path_search_margin);
    let (area, _) = g.window(w, &[u.pos, to], margin)?;
    let known = vision::as_seen_by(rs, &area, nation);
    Ok(movement::find_path(rs, &known, u, to)?)
}
