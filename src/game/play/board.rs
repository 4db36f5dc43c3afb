//! The ground of a bot's chunk of orders, kept in memory while the chunk holds every other
//! order to the world's companies off (the lock a turn's chunk takes; SQLite's single writer
//! by itself): what the chunk read stays true until it commits, so its orders read their
//! windows from here, write here, and the chunk writes what changed in a few statements at its
//! end ([`Board::flush`]). On PostgreSQL a bot's move used to cost five statements of its own
//! (its savepoint and release, its company, its window, its write) and a capture five more.
//!
//! Only what the order code reads and writes is kept: companies (as read, and now), the cells
//! the orders changed over the world's kept cells, towns taken, gains and first steps. A
//! company or window never read before is read from the database, which holds the truth for
//! everything the board has not changed.

use crate::db::models::{Company, Player, World};
use crate::db::schema::{companies, players, towns};
use crate::db::{quiet, DbConnection};
use crate::game::error::GameResult;
use crate::game::maps::cells::{self as world_cells, WorldCells};
use crate::game::play::first_steps;
use crate::game::play::load::{self, unit_of, Placed};
use crate::game::play::scores::Tally;
use crate::game::play::unit_write::{changed_meanwhile, Stream};
use crate::ids::{CompanyId, PlayerId};
use crate::rules::state::{Area, Cell, Unit};
use crate::rules::{Pos, Refusal};
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Integer, Nullable};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A rectangle of cells, corners included: (x0, y0, x1, y1).
pub type Rect = (i32, i32, i32, i32);

/// The side of the squares of cells whose companies a board reads at once, in cells: a few
/// times a window's, so that windows that overlap share their reads.
const TILE: i32 = 32;

/// The companies a board kept from the chunk before reads at its start, in one index range,
/// until it knows the world's: a few ms of the chunk's time.
const SWEEP_ROWS: i64 = 2_000;

/// A company the board knows: as the database holds it, and as the chunk's orders left it
/// (None once destroyed).
#[derive(Clone, Debug)]
struct Known {
    read: Option<Placed>,
    now: Option<Placed>,
}

/// What an order changed, to be undone if it is refused after all.
enum Undo {
    Company(CompanyId, Option<Placed>),
    Cell(Pos, Option<(Cell, Cell)>),
    Town(i32, Option<(Option<i32>, Option<i32>)>),
}

pub struct Board {
    world: World,
    /// The chunk's transaction, to tell in the next whether anyone else wrote in between.
    quiet: quiet::Mark,
    /// The transactions the board has been read and written in (one when new).
    chunks: u32,
    cells: Arc<WorldCells>,
    /// Cells the orders changed: as read, and now.
    changed: FxHashMap<Pos, (Cell, Cell)>,
    /// Towns taken: their owner as read, and now.
    towns: FxHashMap<i32, (Option<i32>, Option<i32>)>,
    companies: FxHashMap<CompanyId, Known>,
    /// Where the known companies stand now, column by column.
    at: BTreeMap<(i32, i32), CompanyId>,
    /// Tiles ([`TILE`] cells square) whose every company is known here.
    tiles: FxHashSet<(i32, i32)>,
    /// How far [`Board::sweep`] has read the world's companies (column, row), and whether
    /// to the end.
    swept: (i32, i32),
    swept_all: bool,
    /// Companies the orders wrote since the last flush.
    dirty: FxHashSet<CompanyId>,
    players: FxHashMap<PlayerId, Player>,
    journal: Vec<Undo>,
    tally: Tally,
    /// First steps ticked, per player: the row as read and the bits to add.
    steps: BTreeMap<PlayerId, (first_steps::Row, i32)>,
}

/// Where the journal stood before an order: [`Board::undo_to`] goes back there.
#[derive(Clone, Copy, Debug)]
pub struct Mark(usize);

impl Board {
    /// The ground of `world` (read under the chunk's lock), nothing known of its companies yet.
    pub fn new(conn: &mut DbConnection, world: World, quiet: quiet::Mark) -> GameResult<Board> {
        let cells = world_cells::of(conn, &world)?;
        Ok(Board {
            world,
            quiet,
            chunks: 1,
            cells,
            changed: FxHashMap::default(),
            towns: FxHashMap::default(),
            companies: FxHashMap::default(),
            at: BTreeMap::new(),
            tiles: FxHashSet::default(),
            swept: (i32::MIN, i32::MIN),
            swept_all: false,
            dirty: FxHashSet::default(),
            players: FxHashMap::default(),
            journal: Vec::new(),
            tally: Tally::default(),
            steps: BTreeMap::new(),
        })
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    /// The transactions the board has gone through, this one included.
    pub fn chunks(&self) -> u32 {
        self.chunks
    }

    /// The mark of the transaction the board was read in.
    pub fn quiet(&self) -> quiet::Mark {
        self.quiet
    }

    /// The board of the chunk before, for the next chunk's transaction (marked `mark`, `world`
    /// read under its lock): still the truth when no one else wrote since its flush, and the
    /// world is as it was but for the cells' version its own captures moved. Else none. The
    /// caller writes nothing between the two (SQLite's mark sees other connections only).
    /// A board that goes on reads [`SWEEP_ROWS`] more of the world's companies.
    pub fn go_on(
        mut self,
        conn: &mut DbConnection,
        world: &World,
        mark: quiet::Mark,
    ) -> GameResult<Option<Board>> {
        let same = World {
            cells_version: self.world.cells_version,
            ..world.clone()
        } == self.world;
        if !same || !quiet::none_between(self.quiet, mark) || !self.journal.is_empty() {
            return Ok(None);
        }
        (self.world, self.quiet) = (world.clone(), mark);
        self.chunks += 1;
        self.sweep(conn, SWEEP_ROWS)?;
        Ok(Some(self))
    }

    /// Reads every company of the world not known yet, in one statement and in no order (on
    /// PostgreSQL the table read and joined by hash instead of the place index walked): for
    /// a board whose chunks are given ahead, outside any transaction (players' orders wait
    /// for none of it), so that its windows read nothing more.
    pub fn read_all(&mut self, conn: &mut DbConnection) -> GameResult<()> {
        if self.swept_all {
            return Ok(());
        }
        for p in load::companies_of_world(conn, self.world.id)? {
            self.learn(p);
        }
        self.know_columns((self.world.width + TILE - 1) / TILE);
        self.swept_all = true;
        Ok(())
    }

    /// Every company the board knows, as it stands now, by place (column, then row): after
    /// [`Board::read_all`], the world's.
    pub fn placed(&self) -> Vec<Placed> {
        self.at
            .values()
            .filter_map(|id| self.companies.get(id)?.now.clone())
            .collect()
    }

    /// The companies of the players `of` takes, in id order, as they stand now: after
    /// [`Board::read_all`], every such company of the world.
    pub fn companies_of(&self, of: impl Fn(PlayerId) -> bool) -> Vec<(CompanyId, PlayerId)> {
        let mut out: Vec<(CompanyId, PlayerId)> = self
            .companies
            .values()
            .filter_map(|k| k.now.as_ref())
            .map(|p| (p.company.id, p.company.player_id))
            .filter(|(_, player)| of(*player))
            .collect();
        out.sort_unstable();
        out
    }

    /// The world's cells as the board reads them.
    pub fn cells(&self) -> Arc<WorldCells> {
        self.cells.clone()
    }

    /// Reads these companies at once (a chunk's, before their orders: each order would read
    /// its own company first).
    pub fn read_companies(&mut self, conn: &mut DbConnection, ids: &[CompanyId]) -> GameResult<()> {
        let unknown: Vec<CompanyId> = ids
            .iter()
            .filter(|id| !self.companies.contains_key(id))
            .copied()
            .collect();
        if unknown.is_empty() {
            return Ok(());
        }
        for p in load::companies_by_id(conn, self.world.id, &unknown)? {
            self.learn(p);
        }
        Ok(())
    }

    /// A company read from the database, unless the board knows it already (then the board's
    /// is the truth).
    fn learn(&mut self, p: Placed) {
        let id = p.company.id;
        if self.companies.contains_key(&id) {
            return;
        }
        self.at.insert((p.company.x, p.company.y), id);
        self.companies.insert(
            id,
            Known {
                read: Some(p.clone()),
                now: Some(p),
            },
        );
    }

    /// The company now, with its player's nation, user and leave; None if it is not (or no
    /// longer) in the board's world.
    pub fn company(
        &mut self,
        conn: &mut DbConnection,
        id: CompanyId,
    ) -> GameResult<Option<Placed>> {
        if let Some(k) = self.companies.get(&id) {
            return Ok(k.now.clone());
        }
        let p = load::companies_by_id(conn, self.world.id, &[id])?
            .into_iter()
            .next();
        if let Some(p) = &p {
            self.learn(p.clone());
        }
        Ok(p)
    }

    /// A player of the board's world, as read once by the chunk.
    pub fn player(&mut self, conn: &mut DbConnection, id: PlayerId) -> GameResult<Player> {
        if let Some(p) = self.players.get(&id) {
            return Ok(p.clone());
        }
        let p: Player = crate::on_backend!(conn, c => players::table
            .find(id)
            .select(Player::as_select())
            .first(c))?;
        self.players.insert(id, p.clone());
        Ok(p)
    }

    /// The cell now.
    pub fn cell(&self, p: Pos) -> Option<Cell> {
        match self.changed.get(&p) {
            Some((_, now)) => Some(*now),
            None => self.cells.get(p).cloned(),
        }
    }

    /// The window of `load::window` (the same rectangle), as the chunk's orders left it.
    pub fn window(
        &mut self,
        conn: &mut DbConnection,
        points: &[Pos],
        margin: i32,
    ) -> GameResult<(Area, Vec<Placed>)> {
        let (x0, y0, x1, y1) = load::window_rect(&self.world, points, margin);
        // Read in place, with the cells changed written over: an order reads a few of them.
        let mut area = self.cells.view(&self.world, x0, y0, x1, y1);
        // The cells changed, or the window's cells, whichever are fewer (a board kept from
        // chunk to chunk gathers the cells of a whole turn).
        let cells = (i64::from(x1 - x0 + 1) * i64::from(y1 - y0 + 1)).max(0);
        if (self.changed.len() as i64) <= cells {
            for (p, (_, now)) in &self.changed {
                if area.covers(*p) {
                    area.set_cell(*p, *now);
                }
            }
        } else {
            for y in y0..=y1 {
                for x in x0..=x1 {
                    if let Some((_, now)) = self.changed.get(&Pos::new(x, y)) {
                        area.set_cell(Pos::new(x, y), *now);
                    }
                }
            }
        }
        let empty = x0 > x1 || y0 > y1;
        if !empty {
            self.know(conn, (x0, y0, x1, y1))?;
        }
        let mut placed = Vec::new();
        if !empty {
            for x in x0..=x1 {
                for (_, id) in self.at.range((x, y0)..=(x, y1)) {
                    if let Some(p) = self.companies.get(id).and_then(|k| k.now.as_ref()) {
                        placed.push(p.clone());
                    }
                }
            }
        }
        for p in &placed {
            area.place(unit_of(p));
        }
        Ok((area, placed))
    }

    /// Reads every company of the tiles under `rect` not read yet, in one statement: the
    /// rectangle of those tiles. A board kept from chunk to chunk soon knows every tile its
    /// windows cover, and reads no more.
    fn know(&mut self, conn: &mut DbConnection, (x0, y0, x1, y1): Rect) -> GameResult<()> {
        let (tx0, ty0, tx1, ty1) = (x0 / TILE, y0 / TILE, x1 / TILE, y1 / TILE);
        let missing: Vec<(i32, i32)> = (ty0..=ty1)
            .flat_map(|ty| (tx0..=tx1).map(move |tx| (tx, ty)))
            .filter(|t| !self.tiles.contains(t))
            .collect();
        let Some(first) = missing.first() else {
            return Ok(());
        };
        let (mut a0, mut b0, mut a1, mut b1) = (first.0, first.1, first.0, first.1);
        for (tx, ty) in &missing {
            (a0, b0, a1, b1) = (a0.min(*tx), b0.min(*ty), a1.max(*tx), b1.max(*ty));
        }
        let w = &self.world;
        let rect = (
            a0 * TILE,
            b0 * TILE,
            a1 * TILE + TILE - 1,
            b1 * TILE + TILE - 1,
        );
        for p in load::companies_around(conn, w.id, w.height, rect, None)? {
            self.learn(p);
        }
        for ty in b0..=b1 {
            for tx in a0..=a1 {
                self.tiles.insert((tx, ty));
            }
        }
        Ok(())
    }

    /// Reads the world's next `rows` companies not read yet, column by column: a board kept
    /// from chunk to chunk comes to know every company of the world in a few slices, each
    /// bounded, instead of a statement for each square its windows cover.
    fn sweep(&mut self, conn: &mut DbConnection, rows: i64) -> GameResult<()> {
        if self.swept_all {
            return Ok(());
        }
        let read = load::companies_from(conn, self.world.id, self.swept, rows)?;
        let last = read.last().map(|p| (p.company.x, p.company.y));
        let whole = (read.len() as i64) < rows;
        for p in read {
            self.learn(p);
        }
        // Every company of the columns before the last one read is known now.
        let columns = match (whole, last) {
            (true, _) => (self.world.width + TILE - 1) / TILE,
            (false, Some((x, _))) => x / TILE,
            (false, None) => 0,
        };
        self.know_columns(columns);
        if let Some(l) = last {
            self.swept = l;
        }
        self.swept_all = whole;
        Ok(())
    }

    /// Every company of the first `columns` columns of tiles is known.
    fn know_columns(&mut self, columns: i32) {
        let rows_of_tiles = (self.world.height + TILE - 1) / TILE;
        for tx in 0..columns {
            for ty in 0..rows_of_tiles {
                self.tiles.insert((tx, ty));
            }
        }
    }

    /// `unit_write::write_unit` on the board: the same conditions (the company as the order
    /// read it, the AP there), the same AP left.
    pub fn write_unit(
        &mut self,
        before: &Unit,
        stream: Stream,
        after: &Unit,
        spent: i32,
    ) -> GameResult<Option<i32>> {
        let id = CompanyId(before.id);
        let Some(now) = self.companies.get(&id).and_then(|k| k.now.clone()) else {
            return Err(changed_meanwhile());
        };
        let c = &now.company;
        let unchanged = c.ap >= spent
            && (c.x, c.y) == (before.pos.x, before.pos.y)
            && (c.men, c.wounded, c.morale) == (before.men, before.wounded, before.morale)
            && c.rng_pos == stream.read();
        if !unchanged {
            return Err(changed_meanwhile());
        }
        if after.men > 0 && after.pos != before.pos {
            if let Some(other) = self.at.get(&(after.pos.x, after.pos.y)) {
                if *other != id {
                    return Err(Refusal::Occupied(after.pos).into());
                }
            }
        }
        self.at.remove(&(c.x, c.y));
        let next = (after.men > 0).then(|| Placed {
            company: Company {
                x: after.pos.x,
                y: after.pos.y,
                men: after.men,
                wounded: after.wounded,
                ap: c.ap - spent,
                morale: after.morale,
                xp: after.xp,
                volley_recency: after.volley_recency,
                rng_pos: stream.next(),
                ..c.clone()
            },
            ..now.clone()
        });
        if let Some(n) = &next {
            self.at.insert((n.company.x, n.company.y), id);
        }
        let left = next.as_ref().map(|n| n.company.ap);
        self.set_company(id, next);
        Ok(left)
    }

    fn set_company(&mut self, id: CompanyId, now: Option<Placed>) {
        if let Some(k) = self.companies.get_mut(&id) {
            self.dirty.insert(id);
            let before = std::mem::replace(&mut k.now, now);
            self.journal.push(Undo::Company(id, before));
        }
    }

    /// Changes a cell, if `change` accepts it as it is now (else the order is refused as
    /// changed meanwhile, as its conditional write would be).
    pub fn change_cell(
        &mut self,
        p: Pos,
        change: impl FnOnce(&mut Cell) -> bool,
    ) -> GameResult<()> {
        let Some(read) = self.cells.get(p).cloned() else {
            return Err(changed_meanwhile());
        };
        let old = self.changed.get(&p).cloned();
        let mut now = old.as_ref().map_or_else(|| read, |(_, n)| *n);
        if !change(&mut now) {
            return Err(changed_meanwhile());
        }
        let read = old.as_ref().map_or(read, |(r, _)| *r);
        self.changed.insert(p, (read, now));
        self.journal.push(Undo::Cell(p, old));
        Ok(())
    }

    /// A town taken by `nation`: every cell of it that can be owned (`ownable`), as the
    /// database's capture does. Its name, and its owner before; None when it was the nation's
    /// already, every cell included.
    pub fn take_town(
        &mut self,
        conn: &mut DbConnection,
        town: i32,
        nation: i32,
        ownable: impl Fn(&Cell) -> bool,
    ) -> GameResult<Option<(String, Option<i32>)>> {
        let (name, read): (String, Option<i32>) = crate::on_backend!(conn, c => towns::table
            .find(town)
            .select((towns::name, towns::owner_id))
            .first(c))?;
        let (read, before) = self.towns.get(&town).copied().unwrap_or((read, read));
        // Few and rare: the town's cells are found in the whole world's.
        let mut take: Vec<Pos> = self
            .cells
            .iter()
            .filter(|(_, c)| c.town == Some(town))
            .map(|(p, _)| p)
            .collect();
        take.extend(
            self.changed
                .iter()
                .filter(|(_, (_, now))| now.town == Some(town))
                .map(|(p, _)| *p),
        );
        take.sort_unstable();
        take.dedup();
        let take: Vec<Pos> = take
            .into_iter()
            .filter(|p| {
                self.cell(*p)
                    .is_some_and(|c| c.town == Some(town) && ownable(&c) && c.owner != Some(nation))
            })
            .collect();
        if take.is_empty() && before == Some(nation) {
            return Ok(None);
        }
        for p in take {
            self.change_cell(p, |c| {
                c.owner = Some(nation);
                true
            })?;
        }
        let old = self.towns.insert(town, (read, Some(nation)));
        self.journal.push(Undo::Town(town, old));
        Ok(Some((name, before)))
    }

    /// Gains of an order, written with the others' by [`Board::flush`].
    pub fn tally(&mut self) -> &mut Tally {
        &mut self.tally
    }

    /// A first step ticked, written by [`Board::flush`] unless the row has it already.
    pub fn tick(&mut self, player: &Player, bit: i32) {
        let e = self
            .steps
            .entry(player.id)
            .or_insert((first_steps::Row::from(player), 0));
        e.1 |= bit;
    }

    pub fn mark(&self) -> Mark {
        Mark(self.journal.len())
    }

    /// Undoes what the orders changed since `mark`: an order refused after it began to write.
    /// (Gains and steps are added only once an order has succeeded.)
    pub fn undo_to(&mut self, mark: Mark) {
        while self.journal.len() > mark.0 {
            match self.journal.pop() {
                Some(Undo::Company(id, before)) => {
                    let Some(k) = self.companies.get_mut(&id) else {
                        continue;
                    };
                    if let Some(n) = &k.now {
                        self.at.remove(&(n.company.x, n.company.y));
                    }
                    if let Some(b) = &before {
                        self.at.insert((b.company.x, b.company.y), id);
                    }
                    k.now = before;
                }
                Some(Undo::Cell(p, before)) => {
                    match before {
                        Some(b) => self.changed.insert(p, b),
                        None => self.changed.remove(&p),
                    };
                }
                Some(Undo::Town(t, before)) => {
                    match before {
                        Some(b) => self.towns.insert(t, b),
                        None => self.towns.remove(&t),
                    };
                }
                None => break,
            }
        }
    }

    /// Writes what the orders changed: companies, cells, towns, gains and first steps, each
    /// write on the condition that the row is still as read (else the chunk fails as changed
    /// meanwhile, and its transaction is undone whole). The board then holds what it wrote as
    /// read.
    pub fn flush(&mut self, conn: &mut DbConnection) -> GameResult<()> {
        self.take_writes().write(conn)
    }

    /// What the orders changed since the last flush, taken off the board to be written by
    /// [`Writes::write`]: the board holds it as read from now on, so its orders go on in
    /// memory while another thread writes it (a bot's next chunk while the last commits).
    pub fn take_writes(&mut self) -> Writes {
        self.journal.clear();
        let mut ids: Vec<CompanyId> = std::mem::take(&mut self.dirty)
            .into_iter()
            .filter(|id| {
                self.companies
                    .get(id)
                    .is_some_and(|k| differs(k.read.as_ref(), k.now.as_ref()))
            })
            .collect();
        ids.sort_unstable();
        let (mut gone, mut moved) = (Vec::new(), Vec::new());
        for id in &ids {
            let Some(k) = self.companies.get_mut(id) else {
                continue;
            };
            match (&k.read, &k.now) {
                (Some(r), None) => gone.push(r.company.clone()),
                (Some(r), Some(n)) => moved.push((r.company.clone(), n.company.clone())),
                // Never read, so never written: nothing the board could have changed.
                (None, _) => {}
            }
            k.read = k.now.clone();
        }
        let mut at: Vec<Pos> = self.changed.keys().copied().collect();
        at.sort_unstable();
        let mut cells = Vec::new();
        for p in at {
            if let Some((read, now)) = self.changed.get_mut(&p) {
                if read != now {
                    cells.push((p, *read, *now));
                    *read = *now;
                }
            }
        }
        // A town's owner stays known as written: the next take reads it from here, not from
        // a database the write may not have reached yet.
        let mut towns = Vec::new();
        for (town, (read, now)) in self.towns.iter_mut() {
            if read != now {
                towns.push((*town, *now));
                *read = *now;
            }
        }
        let steps: Vec<(first_steps::Row, i32)> =
            std::mem::take(&mut self.steps).into_values().collect();
        for (row, bits) in &steps {
            if let Some(p) = self.players.get_mut(&row.player_id) {
                p.first_steps |= bits;
            }
        }
        Writes {
            world: self.world.clone(),
            gone,
            moved,
            cells,
            towns,
            tally: std::mem::take(&mut self.tally),
            steps,
        }
    }
}

/// What a board's orders changed, taken off it ([`Board::take_writes`]) to be written in a
/// transaction that holds the world's orders off.
pub struct Writes {
    world: World,
    /// Companies destroyed, and moved or changed (as read, and now), by id.
    gone: Vec<Company>,
    moved: Vec<(Company, Company)>,
    /// Cells changed, as read and now, by place.
    cells: Vec<(Pos, Cell, Cell)>,
    /// Towns taken, and their owner now.
    towns: Vec<(i32, Option<i32>)>,
    tally: Tally,
    /// First steps ticked: the row as read and the bits to add.
    steps: Vec<(first_steps::Row, i32)>,
}

impl Writes {
    /// Writes them, each on the condition that its row is still as read (else changed
    /// meanwhile: the caller's transaction must be undone).
    pub fn write(mut self, conn: &mut DbConnection) -> GameResult<()> {
        self.write_companies(conn)?;
        self.write_cells(conn)?;
        for (town, owner) in std::mem::take(&mut self.towns) {
            crate::on_backend!(conn, c => diesel::update(towns::table.find(town))
                .set(towns::owner_id.eq(owner))
                .execute(c))?;
        }
        self.tally.write(conn, &self.world)?;
        for (row, bits) in std::mem::take(&mut self.steps) {
            first_steps::tick(conn, row, bits)?;
        }
        Ok(())
    }

    fn write_companies(&self, conn: &mut DbConnection) -> GameResult<()> {
        for c in &self.gone {
            let n = crate::on_backend!(conn, db => diesel::delete(as_read(c)).execute(db))?;
            if n != 1 {
                return Err(changed_meanwhile());
            }
        }
        let moved = &self.moved;
        // A company writing its new place where another of the chunk stood when read would
        // meet it there (the place is unique, checked row by row): those others step aside
        // first, off the map, each where it is still as read.
        let finals: rustc_hash::FxHashSet<(i32, i32)> =
            moved.iter().map(|(_, n)| (n.x, n.y)).collect();
        let aside: Vec<CompanyId> = moved
            .iter()
            .filter(|(r, n)| (r.x, r.y) != (n.x, n.y) && finals.contains(&(r.x, r.y)))
            .map(|(r, _)| r.id)
            .collect();
        for (r, _) in moved.iter().filter(|(r, _)| aside.contains(&r.id)) {
            let n = crate::on_backend!(conn, db => diesel::update(as_read(r))
                .set(companies::x.eq(-1 - r.id.0))
                .execute(db))?;
            if n != 1 {
                return Err(changed_meanwhile());
            }
        }
        let aside: rustc_hash::FxHashSet<CompanyId> = aside.into_iter().collect();
        let rows: Vec<CompanyWrite> = moved
            .iter()
            .map(|(r, n)| CompanyWrite {
                id: r.id.0,
                x0: if aside.contains(&r.id) {
                    -1 - r.id.0
                } else {
                    r.x
                },
                y0: r.y,
                men0: r.men,
                wounded0: r.wounded,
                morale0: r.morale,
                ap0: r.ap,
                rng0: r.rng_pos,
                x: n.x,
                y: n.y,
                men: n.men,
                wounded: n.wounded,
                ap: n.ap,
                morale: n.morale,
                xp: n.xp,
                volley_recency: n.volley_recency,
                rng_pos: n.rng_pos,
            })
            .collect();
        match conn {
            // No round trip to save: a prepared statement per row, which SQLite need not parse
            // again (a list of rows is a statement of its own text each time).
            DbConnection::Sqlite(db) => {
                for r in rows {
                    if r.write().execute(db)? != 1 {
                        return Err(changed_meanwhile());
                    }
                }
            }
            DbConnection::Postgres(db) if !rows.is_empty() => {
                if CompaniesWrite::of(&rows).execute(db)? != rows.len() {
                    return Err(changed_meanwhile());
                }
            }
            DbConnection::Postgres(_) => {}
        }
        Ok(())
    }

    fn write_cells(&self, conn: &mut DbConnection) -> GameResult<()> {
        let mut owners = Vec::new();
        let mut others = Vec::new();
        for (p, read, now) in &self.cells {
            let only_owner = Cell {
                owner: now.owner,
                ..*read
            } == *now;
            match now.owner {
                Some(o) if only_owner => owners.push((*p, read.owner, o)),
                _ => others.push((*p, *read, *now)),
            }
        }
        let world = self.world.id.0;
        // The cells taken carry one version: the world's moved on once for them all (by the
        // cells' own statement on PostgreSQL).
        let version = match conn.is_sqlite() && !owners.is_empty() {
            true => world_cells::stamp(conn, self.world.id)?,
            false => 0,
        };
        match conn {
            DbConnection::Sqlite(db) => {
                for (p, read, owner) in owners {
                    let take = TakeCellAsRead {
                        owner,
                        version,
                        world,
                        x: p.x,
                        y: p.y,
                        read,
                    };
                    if take.execute(db)? != 1 {
                        return Err(changed_meanwhile());
                    }
                }
            }
            DbConnection::Postgres(db) if !owners.is_empty() => {
                let write = OwnersWrite {
                    stamped: world,
                    x: owners.iter().map(|(p, _, _)| p.x).collect(),
                    y: owners.iter().map(|(p, _, _)| p.y).collect(),
                    read: owners.iter().map(|(_, r, _)| *r).collect(),
                    owner: owners.iter().map(|(_, _, o)| *o).collect(),
                    world,
                };
                if write.execute(db)? != owners.len() {
                    return Err(changed_meanwhile());
                }
            }
            DbConnection::Postgres(_) => {}
        }
        for (p, read, now) in others {
            let n = write_cell(conn, world, p, &read, &now)?;
            if n != 1 {
                return Err(changed_meanwhile());
            }
        }
        Ok(())
    }
}

/// A company's row where it is still as the chunk read it (the condition of `write_unit`).
#[allow(clippy::type_complexity)]
fn as_read(
    c: &Company,
) -> diesel::dsl::Filter<
    diesel::dsl::Find<companies::table, CompanyId>,
    diesel::dsl::And<
        diesel::dsl::And<
            diesel::dsl::And<
                diesel::dsl::And<
                    diesel::dsl::And<
                        diesel::dsl::And<
                            diesel::dsl::Eq<companies::x, i32>,
                            diesel::dsl::Eq<companies::y, i32>,
                        >,
                        diesel::dsl::Eq<companies::men, i32>,
                    >,
                    diesel::dsl::Eq<companies::wounded, i32>,
                >,
                diesel::dsl::Eq<companies::morale, i32>,
            >,
            diesel::dsl::Eq<companies::ap, i32>,
        >,
        diesel::dsl::Eq<companies::rng_pos, i64>,
    >,
> {
    companies::table.find(c.id).filter(
        companies::x
            .eq(c.x)
            .and(companies::y.eq(c.y))
            .and(companies::men.eq(c.men))
            .and(companies::wounded.eq(c.wounded))
            .and(companies::morale.eq(c.morale))
            .and(companies::ap.eq(c.ap))
            .and(companies::rng_pos.eq(c.rng_pos)),
    )
}

/// Whether the chunk changed a company: its place, figures or random stream.
fn differs(read: Option<&Placed>, now: Option<&Placed>) -> bool {
    match (read, now) {
        (Some(r), Some(n)) => {
            let (r, n) = (&r.company, &n.company);
            (
                r.x,
                r.y,
                r.men,
                r.wounded,
                r.ap,
                r.morale,
                r.xp,
                r.volley_recency,
                r.rng_pos,
            ) != (
                n.x,
                n.y,
                n.men,
                n.wounded,
                n.ap,
                n.morale,
                n.xp,
                n.volley_recency,
                n.rng_pos,
            )
        }
        (None, None) => false,
        _ => true,
    }
}

/// A cell's changed columns, on the condition that they are as read.
fn write_cell(
    conn: &mut DbConnection,
    world: i32,
    p: Pos,
    read: &Cell,
    now: &Cell,
) -> GameResult<usize> {
    use diesel::sql_types::{Integer, Nullable, Text};
    let columns = |c: &Cell| {
        (
            c.terrain.as_str().to_string(),
            c.owner,
            c.structure,
            c.siege.map(|s| s.builds),
            c.siege.filter(|s| s.structure > 0).map(|s| s.structure),
        )
    };
    let (t, o, s, sb, ss) = columns(now);
    let (t0, o0, s0, sb0, ss0) = columns(read);
    // The same condition in each database's words for "equal, NULL included".
    let same = if conn.is_sqlite() {
        "IS"
    } else {
        "IS NOT DISTINCT FROM"
    };
    let sql = |n: &dyn Fn(usize) -> String| {
        format!(
            "UPDATE cells SET terrain = {}, owner_id = {}, structure = {}, siege_builds = {}, \
             siege_structure = {} WHERE world_id = {} AND x = {} AND y = {} AND terrain = {} \
             AND owner_id {same} {} AND structure {same} {} AND siege_builds {same} {} \
             AND siege_structure {same} {}",
            n(1),
            n(2),
            n(3),
            n(4),
            n(5),
            n(6),
            n(7),
            n(8),
            n(9),
            n(10),
            n(11),
            n(12),
            n(13)
        )
    };
    macro_rules! bound {
        ($q:expr) => {
            $q.bind::<Text, _>(&t)
                .bind::<Nullable<Integer>, _>(o)
                .bind::<Nullable<Integer>, _>(s)
                .bind::<Nullable<Integer>, _>(sb)
                .bind::<Nullable<Integer>, _>(ss)
                .bind::<Integer, _>(world)
                .bind::<Integer, _>(p.x)
                .bind::<Integer, _>(p.y)
                .bind::<Text, _>(&t0)
                .bind::<Nullable<Integer>, _>(o0)
                .bind::<Nullable<Integer>, _>(s0)
                .bind::<Nullable<Integer>, _>(sb0)
                .bind::<Nullable<Integer>, _>(ss0)
        };
    }
    Ok(match conn {
        DbConnection::Sqlite(c) => bound!(diesel::sql_query(sql(&|_| "?".into()))).execute(c)?,
        DbConnection::Postgres(c) => {
            bound!(diesel::sql_query(sql(&|i| format!("${i}")))).execute(c)?
        }
    })
}

crate::fixed_statement! {
    /// A cell taken by a nation.
    pub struct TakeCell {
        "UPDATE cells SET owner_id = " owner: diesel::sql_types::Integer = i32,
        " WHERE world_id = " world: diesel::sql_types::Integer = i32,
        " AND x = " x: diesel::sql_types::Integer = i32,
        " AND y = " y: diesel::sql_types::Integer = i32,
    }
}

crate::fixed_statement! {
    /// A cell taken by a nation, where its owner is still as read (SQLite's words for "equal,
    /// NULL included").
    struct TakeCellAsRead {
        "UPDATE cells SET owner_id = " owner: diesel::sql_types::Integer = i32,
        ", version = " version: diesel::sql_types::BigInt = i64,
        " WHERE world_id = " world: diesel::sql_types::Integer = i32,
        " AND x = " x: diesel::sql_types::Integer = i32,
        " AND y = " y: diesel::sql_types::Integer = i32,
        " AND owner_id IS " read: diesel::sql_types::Nullable<diesel::sql_types::Integer> = Option<i32>,
    }
}

crate::fixed_statement! {
    /// A company's write, where it is still as read.
    struct CompanyRowWrite {
        "UPDATE companies SET x = " x: diesel::sql_types::Integer = i32,
        ", y = " y: diesel::sql_types::Integer = i32,
        ", men = " men: diesel::sql_types::Integer = i32,
        ", wounded = " wounded: diesel::sql_types::Integer = i32,
        ", ap = " ap: diesel::sql_types::Integer = i32,
        ", morale = " morale: diesel::sql_types::Integer = i32,
        ", xp = " xp: diesel::sql_types::Integer = i32,
        ", volley_recency = " volley_recency: diesel::sql_types::Integer = i32,
        ", rng_pos = " rng_pos: diesel::sql_types::BigInt = i64,
        " WHERE id = " id: diesel::sql_types::Integer = i32,
        " AND x = " x0: diesel::sql_types::Integer = i32,
        " AND y = " y0: diesel::sql_types::Integer = i32,
        " AND men = " men0: diesel::sql_types::Integer = i32,
        " AND wounded = " wounded0: diesel::sql_types::Integer = i32,
        " AND morale = " morale0: diesel::sql_types::Integer = i32,
        " AND ap = " ap0: diesel::sql_types::Integer = i32,
        " AND rng_pos = " rng0: diesel::sql_types::BigInt = i64,
    }
}

impl CompanyWrite {
    fn write(&self) -> CompanyRowWrite {
        CompanyRowWrite {
            x: self.x,
            y: self.y,
            men: self.men,
            wounded: self.wounded,
            ap: self.ap,
            morale: self.morale,
            xp: self.xp,
            volley_recency: self.volley_recency,
            rng_pos: self.rng_pos,
            id: self.id,
            x0: self.x0,
            y0: self.y0,
            men0: self.men0,
            wounded0: self.wounded0,
            morale0: self.morale0,
            ap0: self.ap0,
            rng0: self.rng0,
        }
    }
}

/// A company's write in [`CompaniesWrite`]: its columns as read, and as written.
struct CompanyWrite {
    id: i32,
    x0: i32,
    y0: i32,
    men0: i32,
    wounded0: i32,
    morale0: i32,
    ap0: i32,
    rng0: i64,
    x: i32,
    y: i32,
    men: i32,
    wounded: i32,
    ap: i32,
    morale: i32,
    xp: i32,
    volley_recency: i32,
    rng_pos: i64,
}

crate::fixed_statement! {
    /// Companies' writes, one a company, its columns as read and as written each in an array
    /// of their own: each written only where the company is still as read (PostgreSQL). One
    /// text for any count, planned once on the connection (a list of rows was a text of its
    /// own, planned again every time: 1.4 ms a statement, a third of its time).
    struct CompaniesWrite {
        "UPDATE companies SET x = v.x, y = v.y, men = v.men, wounded = v.wounded, ap = v.ap, \
         morale = v.morale, xp = v.xp, volley_recency = v.volley_recency, rng_pos = v.rng_pos \
         FROM unnest(" id: Array<Integer> = Vec<i32>,
        ", " x0: Array<Integer> = Vec<i32>,
        ", " y0: Array<Integer> = Vec<i32>,
        ", " men0: Array<Integer> = Vec<i32>,
        ", " wounded0: Array<Integer> = Vec<i32>,
        ", " morale0: Array<Integer> = Vec<i32>,
        ", " ap0: Array<Integer> = Vec<i32>,
        ", " rng0: Array<BigInt> = Vec<i64>,
        ", " x: Array<Integer> = Vec<i32>,
        ", " y: Array<Integer> = Vec<i32>,
        ", " men: Array<Integer> = Vec<i32>,
        ", " wounded: Array<Integer> = Vec<i32>,
        ", " ap: Array<Integer> = Vec<i32>,
        ", " morale: Array<Integer> = Vec<i32>,
        ", " xp: Array<Integer> = Vec<i32>,
        ", " volley_recency: Array<Integer> = Vec<i32>,
        ", " rng_pos: Array<BigInt> = Vec<i64>,
        ; ") AS v(id, x0, y0, men0, wounded0, morale0, ap0, rng0, x, y, men, wounded, ap, \
         morale, xp, volley_recency, rng_pos) WHERE companies.id = v.id \
         AND companies.x = v.x0 AND companies.y = v.y0 AND companies.men = v.men0 \
         AND companies.wounded = v.wounded0 AND companies.morale = v.morale0 \
         AND companies.ap = v.ap0 AND companies.rng_pos = v.rng0"
    }
}

impl CompaniesWrite {
    fn of(rows: &[CompanyWrite]) -> CompaniesWrite {
        let col = |f: fn(&CompanyWrite) -> i32| rows.iter().map(f).collect::<Vec<i32>>();
        CompaniesWrite {
            id: col(|r| r.id),
            x0: col(|r| r.x0),
            y0: col(|r| r.y0),
            men0: col(|r| r.men0),
            wounded0: col(|r| r.wounded0),
            morale0: col(|r| r.morale0),
            ap0: col(|r| r.ap0),
            rng0: rows.iter().map(|r| r.rng0).collect(),
            x: col(|r| r.x),
            y: col(|r| r.y),
            men: col(|r| r.men),
            wounded: col(|r| r.wounded),
            ap: col(|r| r.ap),
            morale: col(|r| r.morale),
            xp: col(|r| r.xp),
            volley_recency: col(|r| r.volley_recency),
            rng_pos: rows.iter().map(|r| r.rng_pos).collect(),
        }
    }
}

crate::fixed_statement! {
    /// The ground a chunk took: each cell, given by its place, its owner as read and its owner
    /// in arrays, where its owner is still as read, all with the world's cells version moved
    /// on once for them (PostgreSQL; one text, planned once, and one round trip with the
    /// world's stamp, as [`world_cells::stamp`] moves it).
    struct OwnersWrite {
        "WITH stamp AS (UPDATE worlds SET cells_version = cells_version + 1 WHERE id = " stamped: Integer = i32,
        " RETURNING cells_version) UPDATE cells SET owner_id = v.owner, \
         version = (SELECT cells_version FROM stamp) FROM unnest(" x: Array<Integer> = Vec<i32>,
        ", " y: Array<Integer> = Vec<i32>,
        ", " read: Array<Nullable<Integer>> = Vec<Option<i32>>,
        ", " owner: Array<Integer> = Vec<i32>,
        ") AS v(x, y, read, owner) WHERE cells.world_id = " world: Integer = i32,
        ; " AND cells.x = v.x AND cells.y = v.y AND cells.owner_id IS NOT DISTINCT FROM v.read"
    }
}
