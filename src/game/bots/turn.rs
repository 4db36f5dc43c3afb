//! When bots act (docs/rules.md §14): once per turn, after the turn is applied. A bot first
//! raises what its treasury allows, then orders its companies in id order, a chunk of them per
//! transaction of about `[bots] chunk_ms`, so that players' orders never wait long for it. Its
//! row in `bots` records the turn it plays and the last company ordered, in the transaction
//! that gives the orders: whichever process plays the next chunk (two may take turns at it)
//! starts after it, and each company is ordered once a turn. After its first chunk a bot
//! gives each next chunk in memory while a thread beside it writes the one before ([`ahead`]):
//! the writing transactions are short, and the two cores share the turn.

use super::sight::Sight;
use crate::config::Config;
use crate::db::models::{Company, World};
use crate::db::schema::{bots, companies, events, players, ticks, users};
use crate::db::{self, quiet, DbConnection};
use crate::game::error::GameResult;
use crate::game::maps::worlds;
use crate::game::play::access::Actor;
use crate::game::play::board::Board;
use crate::game::play::orders::{self, Order};
use crate::game::play::{self as play, load};
use crate::ids::{CompanyId, NationId, PlayerId, UserId, WorldId};
use crate::rules::bot::{self as engine, BotLevel, Choice, Mode, Plan};
use crate::rules::{Kind, Pos};
use diesel::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use rustc_hash::FxHashSet;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the bots of a pass did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Played {
    /// Bots that played a turn (or the rest of one).
    pub bots: usize,
    pub raised: usize,
    pub orders: usize,
    /// Orders the order code refused (the bot's sight was out of date, or an unseen company
    /// stood in the way): the bot moves on to its next company.
    pub refused: usize,
    /// The longest transaction of orders, which players' orders may have waited for.
    pub longest_chunk_ms: i64,
    /// Transactions of orders given, and of them those on the board of the one before (no one
    /// else wrote in between).
    pub chunks: usize,
    pub kept: usize,
    /// Chunks given ahead, while the one before was written, that never were: someone else
    /// wrote first (or a chunk failed), and they were given again.
    pub undone: usize,
    /// Runs of chunks given ahead: one a turn, and one more after each time someone else wrote
    /// once [`AGAIN_AFTER`] chunks or more of the run before were written.
    pub ahead: usize,
}

impl Played {
    fn add(&mut self, o: Played) {
        self.bots += o.bots;
        self.raised += o.raised;
        self.orders += o.orders;
        self.refused += o.refused;
        self.longest_chunk_ms = self.longest_chunk_ms.max(o.longest_chunk_ms);
        self.chunks += o.chunks;
        self.kept += o.kept;
        self.undone += o.undone;
        self.ahead += o.ahead;
    }
}

/// How long one scheduler pass gives the bots at most: the rest is played in the next passes
/// (a bot's row says where it stood), so that the ticks of other worlds never wait long.
const PASS_BUDGET: std::time::Duration = std::time::Duration::from_secs(5);

/// Lets the bots of every world play their turn, where they have not yet, for
/// [`PASS_BUDGET`] at most.
pub fn play_all(conn: &mut DbConnection, config: &Arc<Config>) -> GameResult<Played> {
    let until = Instant::now() + PASS_BUDGET;
    let mut all = Played::default();
    let worlds: Vec<WorldId> = bots::table
        .select(bots::world_id)
        .distinct()
        .order(bots::world_id)
        .load(conn)?;
    for w in worlds {
        // One world's failure leaves the others' bots to play.
        if Instant::now() >= until {
            break;
        }
        match play_until(conn, config, w, Some(until)) {
            Ok(p) => all.add(p),
            Err(e) => tracing::error!(world = w.0, error = %e, "bots failed"),
        }
    }
    Ok(all)
}

/// A bot's row, as a pass reads it.
struct Seat {
    player_id: PlayerId,
    user_id: UserId,
    username: String,
    nation_id: NationId,
    level: BotLevel,
}

/// Lets the bots of one world play the world's current turn, where they have not yet. A paused
/// world, an ended campaign or a turn being applied waits.
pub fn play_world(
    conn: &mut DbConnection,
    config: &Arc<Config>,
    world_id: WorldId,
) -> GameResult<Played> {
    play_until(conn, config, world_id, None)
}

/// [`play_world`], stopping between chunks once `until` has passed.
fn play_until(
    conn: &mut DbConnection,
    config: &Arc<Config>,
    world_id: WorldId,
    until: Option<Instant>,
) -> GameResult<Played> {
    let mut out = Played::default();
    let w = worlds::get(conn, world_id)?;
    if w.paused || w.ended() || crate::game::time::ticks::turn_running(conn, world_id)? {
        return Ok(out);
    }
    let due: Vec<(PlayerId, UserId, String, NationId, String)> = bots::table
        .inner_join(players::table.inner_join(users::table))
        .filter(bots::world_id.eq(world_id))
        .filter(users::banned.eq(false))
        .filter(bots::turn.lt(w.turn).or(bots::done.eq(false)))
        .order(bots::player_id)
        .select((
            bots::player_id,
            players::user_id,
            users::username,
            players::nation_id,
            bots::level,
        ))
        .load(conn)?;
    for (player_id, user_id, username, nation_id, level) in due {
        let seat = Seat {
            player_id,
            user_id,
            username,
            nation_id,
            level: level.parse().unwrap_or(BotLevel::Normal),
        };
        if until.is_some_and(|u| Instant::now() >= u) {
            break;
        }
        out.add(play_bot(conn, config, world_id, &seat, until)?);
    }
    Ok(out)
}

/// Where a bot stands, read with its row locked, and the world as it is now.
struct Claim {
    /// The turn the bot plays or played last, the last company it ordered in it, and whether
    /// it is done with it.
    turn: i32,
    last: i32,
    done: bool,
    world: World,
    /// The world takes orders now: not paused, its campaign going on, no turn being applied.
    open: bool,
}

/// The bot's row, locked; none once the bot is removed.
fn claim(
    conn: &mut DbConnection,
    player_id: PlayerId,
    world_id: WorldId,
) -> GameResult<Option<Claim>> {
    let Some((turn, last, done)) = lock_seat(conn, player_id)? else {
        return Ok(None);
    };
    // Read under the lock: a turn applied since the pass began is seen here, and the bot's
    // orders stop rather than go on into the next turn as this one's.
    let world = worlds::get(conn, world_id)?;
    let open =
        !world.paused && !world.ended() && !crate::game::time::ticks::turn_running(conn, world_id)?;
    Ok(Some(Claim {
        turn,
        last,
        done,
        world,
        open,
    }))
}

/// The bot's row, locked first (another process's chunk of the same bot waits here): the turn
/// it plays, the last company it ordered and whether it is done; none once the bot is removed.
fn lock_seat(conn: &mut DbConnection, player_id: PlayerId) -> GameResult<Option<(i32, i32, bool)>> {
    Ok(
        crate::on_backend!(conn, c => diesel::update(bots::table.find(player_id))
        .set(bots::turn.eq(bots::turn))
        .returning((bots::turn, bots::last_company, bots::done))
        .get_result(c)
        .optional())?,
    )
}

/// [`lock_seat`], then the world's orders held off ([`hold_world_orders`]): one statement on
/// PostgreSQL, the lock on the orders taken once the seat's row is locked, as in two.
///
/// [`hold_world_orders`]: crate::game::time::ticks::hold_world_orders
fn lock_seat_holding_orders(
    conn: &mut DbConnection,
    player_id: PlayerId,
    world_id: WorldId,
) -> GameResult<Option<(i32, i32, bool)>> {
    use crate::game::time::ticks::{hold_world_orders, world_orders_key};
    use diesel::sql_types::{BigInt, Bool, Integer};
    #[derive(QueryableByName)]
    struct Seated {
        #[diesel(sql_type = Integer)]
        turn: i32,
        #[diesel(sql_type = Integer)]
        last_company: i32,
        #[diesel(sql_type = Bool)]
        done: bool,
    }
    let DbConnection::Postgres(pg) = conn else {
        let seat = lock_seat(conn, player_id)?;
        hold_world_orders(conn, world_id)?;
        return Ok(seat);
    };
    // The lock's key is made of the row's turn, so that it is taken after the row's lock.
    let seat: Option<Seated> = diesel::sql_query(
        "WITH seat AS (UPDATE bots SET turn = turn WHERE player_id = $1 \
         RETURNING turn, last_company, done) \
         SELECT seat.turn, seat.last_company, seat.done FROM seat, \
         LATERAL pg_advisory_xact_lock($2 + 0 * seat.turn) AS held",
    )
    .bind::<Integer, _>(player_id)
    .bind::<BigInt, _>(world_orders_key(world_id))
    .get_result(pg)
    .optional()?;
    Ok(seat.map(|s| (s.turn, s.last_company, s.done)))
}

/// With the world's orders held off: the world now, whether a turn of it is being applied,
/// and the transaction's mark. One statement on PostgreSQL, where a chunk written ahead asked
/// them in four round trips (and its claim's reads before them in two more).
fn world_now(conn: &mut DbConnection, world_id: WorldId) -> GameResult<(World, bool, quiet::Mark)> {
    use crate::db::schema::worlds as table;
    use diesel::dsl::{exists, sql};
    use diesel::sql_types::Text;
    let DbConnection::Postgres(pg) = conn else {
        let w = worlds::get(conn, world_id)?;
        let running = crate::game::time::ticks::turn_running(conn, world_id)?;
        return Ok((w, running, quiet::mark(conn)?));
    };
    let (w, running, xid, snapshot): (World, bool, String, String) = table::table
        .find(world_id)
        .select((
            World::as_select(),
            exists(crate::game::time::ticks::pending_turns(world_id)),
            sql::<Text>(quiet::POSTGRES_XID),
            sql::<Text>(quiet::POSTGRES_SNAPSHOT),
        ))
        .first(pg)
        .optional()?
        .ok_or_else(|| crate::game::GameError::not_found("world"))?;
    Ok((w, running, quiet::postgres_mark(&xid, &snapshot)))
}

fn play_bot(
    conn: &mut DbConnection,
    config: &Arc<Config>,
    world_id: WorldId,
    seat: &Seat,
    until: Option<Instant>,
) -> GameResult<Played> {
    let rs = &config.rules;
    let settings = &config.settings.bots;
    let actor = Actor {
        user_id: seat.user_id,
        username: seat.username.clone(),
        role: crate::rules::names::Role::Player,
        held: false,
    };
    let mut out = Played::default();
    // Read outside the write lock: what kinds are worth raising, and the world's cells in
    // memory brought up to date with the other bots' captures (the raise reads them).
    let castles = {
        let w = worlds::get(conn, world_id)?;
        crate::game::maps::cells::of(conn, &w)?;
        super::sight::castles_to_take(conn, rs, &w, seat.nation_id)?
    };
    // A new turn: the bot raises first, in the transaction that claims the turn.
    let started = db::write(conn, |conn| -> GameResult<Option<(World, i32)>> {
        let Some(c) = claim(conn, seat.player_id, world_id)? else {
            return Ok(None);
        };
        let w = c.world;
        if !c.open || c.turn > w.turn || (c.turn == w.turn && c.done) {
            return Ok(None);
        }
        if c.turn < w.turn {
            diesel::update(bots::table.find(seat.player_id))
                .set((
                    bots::turn.eq(w.turn),
                    bots::last_company.eq(0),
                    bots::done.eq(false),
                ))
                .execute(conn)?;
            out.raised = raise(conn, config, &w, seat, &actor, castles)?;
            return Ok(Some((w, 0)));
        }
        Ok(Some((w, c.last)))
    })?;
    let Some((w, last)) = started else {
        return Ok(out);
    };
    out.bots = 1;
    let mut taken: FxHashSet<Pos> = FxHashSet::default();
    let mut struck: HashMap<i32, i32> = HashMap::new();
    // Chunks are given on a board; one that fails is given again order by order, each in a
    // savepoint of its own, so that an order the database refuses costs that order alone.
    let mut on_board = true;
    // Whether the rest of the turn is no longer to be given ahead (see [`go_ahead`]): it is at
    // once when the bot has more than a chunk's companies, else after its first chunk if more
    // are left, and again after someone else's write that came once the run had gone on.
    let mut tried_ahead = false;
    let owned = owners(conn, config, &w, seat)?;
    if chunk_ids(conn, &owned, last)?.len() as i64 >= CHUNK_ROWS {
        let state = (&mut taken, &mut struck, &mut out);
        match go_ahead(conn, config, &w, seat, until, (Duration::ZERO, None), state) {
            Some((b, again)) => (on_board, tried_ahead) = (b, !again),
            None => return Ok(out),
        }
    }
    let mut sight = sight_without(conn, rs, &w, seat, &taken)?;
    // The board of the chunk before, for the next: it goes on if no one else wrote between.
    let mut kept: Option<Board> = None;
    let mut flush_per_order = Duration::ZERO;
    loop {
        let before = (taken.clone(), struck.clone(), out.clone());
        let chunk = Instant::now();
        let result = db::write(conn, |conn| -> GameResult<(bool, Option<Board>)> {
            let Some(c) = claim(conn, seat.player_id, world_id)? else {
                return Ok((false, None));
            };
            if !c.open || c.turn != w.turn || c.world.turn != w.turn || c.done {
                return Ok((false, None));
            }
            let mut together = if on_board {
                orders::Together::on_board(conn, world_id, kept.take())?
            } else {
                orders::Together::in_world(conn, world_id)?
            };
            out.chunks += 1;
            if together.board_chunks().is_some_and(|n| n > 1) {
                out.kept += 1;
            }
            let budget = Duration::from_millis(settings.chunk_ms);
            let given_before = out.orders;
            // The chunk's writes at its end count in its time: as long, an order, as they
            // were in the chunk before (the first chunk, not knowing, gives orders for half
            // its time).
            let room = |elapsed: Duration, given: u32| {
                let writes = match (on_board, flush_per_order.is_zero()) {
                    (false, _) => Duration::ZERO,
                    (true, true) => budget / 2,
                    (true, false) => flush_per_order * given,
                };
                elapsed + writes < budget
            };
            let mut st = Progress {
                sight: &mut sight,
                taken: &mut taken,
                struck: &mut struck,
                out: &mut out,
            };
            let (reached, finished) = give_chunk(
                conn,
                config,
                (&w, seat, None),
                &mut st,
                &mut together,
                c.last,
                chunk,
                room,
            )?;
            let flushed = Instant::now();
            let (_, board) = together.finish_keeping(conn)?;
            let given = (out.orders - given_before) as u32;
            if on_board && given > 0 {
                flush_per_order = flushed.elapsed() / given;
            }
            diesel::update(bots::table.find(seat.player_id))
                .set((bots::last_company.eq(reached), bots::done.eq(finished)))
                .execute(conn)?;
            Ok((!finished, board))
        });
        // Orders read inside a failed chunk (the world's cells after a capture) never were.
        let held = chunk.elapsed();
        let more = match result {
            Ok((more, board)) => {
                on_board = true;
                kept = board;
                more
            }
            Err(e) if on_board => {
                crate::db::group::note_lost_batch();
                tracing::warn!(world = world_id.0, error = %e, "a bot's chunk failed; given again order by order");
                (taken, struck, out) = before;
                sight = sight_without(conn, rs, &w, seat, &taken)?;
                on_board = false;
                true
            }
            Err(e) => {
                crate::db::group::note_lost_batch();
                return Err(e);
            }
        };
        out.longest_chunk_ms = out.longest_chunk_ms.max(held.as_millis() as i64);
        if !more || until.is_some_and(|u| Instant::now() >= u) {
            break;
        }
        // As between a turn's chunks: SQLite's writer is left to the players' orders waiting.
        db::leave_writer(conn, held);
        if tried_ahead || !on_board {
            continue;
        }
        match go_ahead(
            conn,
            config,
            &w,
            seat,
            until,
            (flush_per_order, Some(&mut sight)),
            (&mut taken, &mut struck, &mut out),
        ) {
            Some((b, again)) => (on_board, tried_ahead) = (b, !again),
            None => break,
        }
        kept = None;
        sight = sight_without(conn, rs, &w, seat, &taken)?;
    }
    Ok(out)
}

/// The bot's sight, but for the objectives its companies head for this turn already.
fn sight_without(
    conn: &mut DbConnection,
    rs: &crate::rules::Ruleset,
    w: &World,
    seat: &Seat,
    taken: &FxHashSet<Pos>,
) -> GameResult<Sight> {
    Ok(Sight::load(conn, rs, w, seat.nation_id)?.without(taken))
}

/// With a connection of its own for the writes, gives each next chunk in memory while the one
/// before is written, on the other core, until someone else writes in between ([`ahead`]).
/// None once the bot's turn is over for this pass; else whether its next chunks go on on a
/// board (after a failed chunk they are given order by order), and whether they may be given
/// ahead again after the next: someone else wrote once [`AGAIN_AFTER`] chunks of this run or
/// more were written (a world where others write more often goes on a chunk a transaction,
/// rather than read every company again for every few chunks). What was given ahead and not
/// written never was: the turn goes on from the last chunk written, a chunk a transaction.
/// After chunks in transactions, their writes per order size the first chunks given ahead and
/// their sight goes on (a sight read again between chunks would depend on where the chunks'
/// time ran out, and a campaign would not replay from its seeds).
fn go_ahead(
    conn: &mut DbConnection,
    config: &Arc<Config>,
    w: &World,
    seat: &Seat,
    until: Option<Instant>,
    (per_order, sight): (Duration, Option<&mut Sight>),
    mut state: (&mut FxHashSet<Pos>, &mut HashMap<i32, i32>, &mut Played),
) -> Option<(bool, bool)> {
    let Some(mut writer) = db::sibling(
        conn,
        &config.settings.database.url,
        config.settings.database.busy_timeout_ms,
    ) else {
        return Some((true, false));
    };
    state.2.ahead += 1;
    let chunks_before = state.2.chunks;
    let result = ahead(
        conn,
        &mut writer,
        config,
        w,
        seat,
        until,
        per_order,
        sight,
        &mut state,
    );
    // A writer whose work failed may have lost its connection: the next opens its own.
    if matches!(result, Ok(Ahead::Ended | Ahead::Moved)) {
        db::keep_sibling(&config.settings.database.url, writer);
    }
    let went_on = state.2.chunks - chunks_before >= AGAIN_AFTER;
    let next = match result {
        Ok(Ahead::Ended) => return None,
        Ok(Ahead::Moved) => (true, went_on),
        Ok(Ahead::Failed) => (false, false),
        // Before any chunk was given ahead: the turn goes on as it would have.
        Err(e) => {
            tracing::warn!(world = w.id.0, error = %e, "a bot's chunks could not be given ahead");
            (true, false)
        }
    };
    match until.is_some_and(|u| Instant::now() >= u) {
        true => None,
        false => Some(next),
    }
}

/// What a bot's turn has come to, which chunks given ahead change (and a failure puts back).
struct Progress<'a> {
    sight: &'a mut Sight,
    taken: &'a mut FxHashSet<Pos>,
    struck: &'a mut HashMap<i32, i32>,
    out: &'a mut Played,
}

/// [`Progress`] as it stood before a chunk, to go back to if the chunk is never written.
#[derive(Clone)]
struct Before {
    taken: FxHashSet<Pos>,
    struck: HashMap<i32, i32>,
    out: Played,
}

impl Progress<'_> {
    fn before(&self) -> Before {
        Before {
            taken: self.taken.clone(),
            struck: self.struck.clone(),
            out: self.out.clone(),
        }
    }

    /// Back to `b`, but for what the chunks written since told of them (the sight is read
    /// again by the caller).
    fn back_to(&mut self, b: Before) {
        let written = (self.out.chunks, self.out.kept, self.out.longest_chunk_ms);
        (*self.taken, *self.struck, *self.out) = (b.taken, b.struck, b.out);
        (self.out.chunks, self.out.kept, self.out.longest_chunk_ms) = written;
    }
}

/// How chunks given ahead ended.
enum Ahead {
    /// The bot's turn is over for this pass: every company ordered, the bot removed, the
    /// world closed or turned, or the pass's time up.
    Ended,
    /// Someone else wrote between two chunks: the last chunks never were, and the turn goes
    /// on a chunk a transaction.
    Moved,
    /// A chunk failed: the same, order by order.
    Failed,
}

/// A chunk given ahead, for the thread that writes it.
struct Job {
    writes: orders::ChunkWrites,
    /// The last company ordered before the chunk, and in it; whether it was the bot's last.
    last_before: i32,
    reached: i32,
    finished: bool,
}

/// What the writing thread made of a chunk.
enum Written {
    /// Written: how long its transaction held the writer.
    Done { held: Duration, orders: usize },
    /// The bot's turn is over (see [`Ahead::Ended`]): nothing was written.
    Stopped,
    /// Someone else wrote since the chunk's board was read: nothing was written.
    Moved,
}

/// Gives the bot's chunks of orders in memory, each while the thread beside writes the one
/// before on `writer`, in a transaction that finds no one else wrote since the last (the
/// board's test between kept chunks): one core chooses and gives, the other writes. A chunk
/// whose writing fails, or finds someone else wrote, is never written, nor the chunk given
/// after it; the turn then goes on a chunk a transaction, from the last written.
#[allow(clippy::too_many_arguments)]
fn ahead(
    conn: &mut DbConnection,
    writer: &mut DbConnection,
    config: &Arc<Config>,
    w: &World,
    seat: &Seat,
    until: Option<Instant>,
    per_order: Duration,
    sight: Option<&mut Sight>,
    (taken, struck, out): &mut (&mut FxHashSet<Pos>, &mut HashMap<i32, i32>, &mut Played),
) -> GameResult<Ahead> {
    let world_id = w.id;
    // The mark the board's reads are measured from, its world, and where the bot stands.
    let first = db::write(
        writer,
        |c| -> GameResult<Option<(quiet::Mark, World, i32)>> {
            let Some(cl) = claim(c, seat.player_id, world_id)? else {
                return Ok(None);
            };
            if !cl.open || cl.turn != w.turn || cl.world.turn != w.turn || cl.done {
                return Ok(None);
            }
            crate::game::time::ticks::hold_world_orders(c, world_id)?;
            let now = worlds::get(c, world_id)?;
            Ok(Some((quiet::mark(c)?, now, cl.last)))
        },
    )?;
    let Some((mark, world, mut last)) = first else {
        return Ok(Ahead::Ended);
    };
    let mut board = Board::new(conn, world.clone(), mark)?;
    // Every company at once, rather than a statement for each square the windows cover.
    board.read_all(conn)?;
    // The bot's sight as its chunks before left it, else from the companies just read: its
    // own, and the enemy's its nation sees (objectives other companies head for this turn stay
    // theirs).
    let mut made: Sight;
    let sight = match sight {
        Some(s) => s,
        None => {
            made = Sight::of(
                conn,
                &config.rules,
                &world,
                seat.nation_id,
                board.cells(),
                &board.placed(),
            )?
            .without(taken);
            &mut made
        }
    };
    let roster = Roster::of(conn, config, &world, seat, &board)?;
    let st = &mut Progress {
        sight,
        taken,
        struck,
        out,
    };
    let mut board = Some(board);
    let budget = Duration::from_millis(config.settings.bots.chunk_ms);
    std::thread::scope(|s| -> GameResult<Ahead> {
        let (jobs, jobs_in) = std::sync::mpsc::channel::<Job>();
        let (told_out, told) = std::sync::mpsc::channel::<GameResult<Written>>();
        let (player, turn) = (seat.player_id, w.turn);
        s.spawn(move || write_ahead(writer, player, turn, &world, mark, jobs_in, told_out));
        let mut writing = Writing {
            told,
            pending: None,
            // The chunks' own writes measured so far (none before the first chunk).
            per_order,
            given: 0,
            written: 0,
        };
        loop {
            let before = st.before();
            let given = chunk_ahead(
                conn,
                config,
                (w, seat, &roster),
                st,
                board.take(),
                last,
                budget,
                writing.per_order,
            );
            writing.given += 1;
            let (writes, b, reached, finished) = match given {
                Ok(g) => g,
                Err(e) => {
                    tracing::warn!(world = world_id.0, error = %e, "a bot's chunk failed; given again order by order");
                    // Back to before it, or to before the chunk being written if that one is
                    // not written either.
                    let out = writing.settle(st);
                    if out.is_none() {
                        st.back_to(before);
                    }
                    return Ok(writing.end(st, out.unwrap_or(Ahead::Failed)));
                }
            };
            board = Some(b);
            if let Some(out) = writing.settle(st) {
                return Ok(writing.end(st, out));
            }
            let job = Job {
                writes,
                last_before: last,
                reached,
                finished,
            };
            if jobs.send(job).is_err() {
                st.back_to(before);
                return Ok(writing.end(st, Ahead::Failed));
            }
            writing.pending = Some(before);
            last = reached;
            if finished || until.is_some_and(|u| Instant::now() >= u) {
                let out = writing.settle(st).unwrap_or(Ahead::Ended);
                return Ok(writing.end(st, out));
            }
        }
    })
}

/// The chunks [`ahead`] handed to the writing thread.
struct Writing {
    told: std::sync::mpsc::Receiver<GameResult<Written>>,
    /// The chunk being written, and the progress before it.
    pending: Option<Before>,
    /// How long the last chunk written took to write, an order.
    per_order: Duration,
    /// Chunks given ahead, and written.
    given: usize,
    written: usize,
}

impl Writing {
    /// Waits for the chunk being written: None once written, else how the turn goes on, its
    /// progress put back to before that chunk.
    fn settle(&mut self, st: &mut Progress<'_>) -> Option<Ahead> {
        let before = self.pending.take()?;
        let out = match self.told.recv() {
            Ok(Ok(Written::Done { held, orders })) => {
                if self.written > 0 {
                    st.out.kept += 1;
                }
                self.written += 1;
                st.out.chunks += 1;
                st.out.longest_chunk_ms = st.out.longest_chunk_ms.max(held.as_millis() as i64);
                if orders > 0 {
                    self.per_order = held / orders as u32;
                }
                return None;
            }
            Ok(Ok(Written::Stopped)) => Ahead::Ended,
            Ok(Ok(Written::Moved)) => Ahead::Moved,
            Ok(Err(e)) => {
                crate::db::group::note_lost_batch();
                tracing::warn!(error = %e, "a bot's chunk failed; given again order by order");
                Ahead::Failed
            }
            Err(_) => Ahead::Failed,
        };
        st.back_to(before);
        Some(out)
    }

    /// `out`, the chunks given and never written told.
    fn end(&self, st: &mut Progress<'_>, out: Ahead) -> Ahead {
        st.out.undone += self.given - self.written;
        out
    }
}

/// One chunk of the bot's companies after `last`, given in memory on `board` (see
/// [`ahead`]): what it changed, the board, the last company ordered, and whether it was the
/// bot's last.
#[allow(clippy::too_many_arguments)]
fn chunk_ahead(
    conn: &mut DbConnection,
    config: &Arc<Config>,
    (w, seat, roster): (&World, &Seat, &Roster),
    st: &mut Progress<'_>,
    board: Option<Board>,
    last: i32,
    budget: Duration,
    per_order: Duration,
) -> GameResult<(orders::ChunkWrites, Board, i32, bool)> {
    let Some(board) = board else {
        return Err(crate::game::GameError::Internal("no board to go on".into()));
    };
    let chunk = Instant::now();
    let mut together = orders::Together::ahead(w.id, board);
    // Its writes are bounded as a chunk's transaction is (as long, an order, as the last
    // chunk's were; a few orders before any was written), and so is the time it is given in,
    // which the chunk written beside it has to be written.
    let room = |elapsed: Duration, given: u32| {
        let writes_fit = match per_order.is_zero() {
            true => given < FIRST_ORDERS_AHEAD,
            false => per_order * given < budget,
        };
        elapsed < budget && writes_fit
    };
    let (reached, finished) = give_chunk(
        conn,
        config,
        (w, seat, Some(roster)),
        st,
        &mut together,
        last,
        chunk,
        room,
    )?;
    let (writes, board) = together.into_writes()?;
    Ok((writes, board, reached, finished))
}

/// The bot's next companies after `last` given their orders on `together`, one after
/// another while `room(time since the chunk began, orders given)` leaves room for one more
/// (the first is always given): the last company ordered, and whether the bot has no more.
/// The companies and their owners are those of the run's `roster` when given ahead, else read.
#[allow(clippy::too_many_arguments)]
fn give_chunk(
    conn: &mut DbConnection,
    config: &Arc<Config>,
    (w, seat, roster): (&World, &Seat, Option<&Roster>),
    st: &mut Progress<'_>,
    together: &mut orders::Together,
    last: i32,
    began: Instant,
    room: impl Fn(Duration, u32) -> bool,
) -> GameResult<(i32, bool)> {
    let read;
    let (owners, ids, mut finished) = match roster {
        Some(r) => {
            let (ids, finished) = r.after(last);
            (&r.owners, ids, finished)
        }
        None => {
            // Who is away is judged again in each chunk: a player back since stops being held.
            read = owners(conn, config, w, seat)?;
            let ids = chunk_ids(conn, &read, last)?;
            let finished = ids.len() < CHUNK_ROWS as usize;
            (&read, ids, finished)
        }
    };
    // The chunk's companies, read at once.
    together.read_companies(conn, &ids.iter().map(|(id, _)| *id).collect::<Vec<_>>())?;
    let mut reached = last;
    let given_before = st.out.orders;
    for (i, (id, owner)) in ids.iter().enumerate() {
        let given = (st.out.orders - given_before) as u32;
        if i > 0 && !room(began.elapsed(), given) {
            finished = false;
            break;
        }
        let (actor, mode) = &owners[owner];
        let mut turn = Turn {
            config,
            w,
            level: seat.level,
            mode: *mode,
            actor,
            together: &mut *together,
            sight: &mut *st.sight,
            taken: &mut *st.taken,
            struck: &mut *st.struck,
            out: &mut *st.out,
        };
        turn.company(conn, *id)?;
        reached = id.0;
    }
    Ok((reached, finished))
}

/// The bot's next companies after `last` (of the players in `owners`), in id order.
fn chunk_ids(
    conn: &mut DbConnection,
    owners: &HashMap<PlayerId, (Actor, Mode)>,
    last: i32,
) -> GameResult<Vec<(CompanyId, PlayerId)>> {
    Ok(companies::table
        .filter(companies::player_id.eq_any(owners.keys().copied().collect::<Vec<_>>()))
        .filter(companies::id.gt(CompanyId(last)))
        .order(companies::id)
        .select((companies::id, companies::player_id))
        .limit(CHUNK_ROWS)
        .load(conn)?)
}

/// What a run of chunks given ahead orders, read once for the run: whose companies and how
/// (a player comes back by a write of theirs, which ends the run; a leave that ends meanwhile
/// is seen by the next run), and the bot's companies in id order from the run's board, which
/// read them all.
struct Roster {
    owners: HashMap<PlayerId, (Actor, Mode)>,
    ids: Vec<(CompanyId, PlayerId)>,
}

impl Roster {
    fn of(
        conn: &mut DbConnection,
        config: &Config,
        w: &World,
        seat: &Seat,
        board: &Board,
    ) -> GameResult<Roster> {
        let owners = owners(conn, config, w, seat)?;
        let ids = board.companies_of(|p| owners.contains_key(&p));
        Ok(Roster { owners, ids })
    }

    /// A chunk's companies after `last` at most, and whether they are the last.
    fn after(&self, last: i32) -> (Vec<(CompanyId, PlayerId)>, bool) {
        let from = self.ids.partition_point(|(id, _)| id.0 <= last);
        let to = (from + CHUNK_ROWS as usize).min(self.ids.len());
        (self.ids[from..to].to_vec(), to == self.ids.len())
    }
}

/// The thread that writes the chunks [`ahead`] gives, each in a transaction of its own on
/// `conn`, until one is not written; `mark`: the transaction before the first.
fn write_ahead(
    conn: &mut DbConnection,
    player: PlayerId,
    turn: i32,
    world: &World,
    mut mark: quiet::Mark,
    jobs: std::sync::mpsc::Receiver<Job>,
    told: std::sync::mpsc::Sender<GameResult<Written>>,
) {
    for job in jobs {
        let started = Instant::now();
        let orders = job.writes.orders();
        let result = db::write(conn, |c| -> GameResult<(Written, Option<quiet::Mark>)> {
            // As [`claim`], but with the world read once, after its orders are held off.
            let Some((seat_turn, last, done)) = lock_seat_holding_orders(c, player, world.id)?
            else {
                return Ok((Written::Stopped, None));
            };
            let (now, running, m) = world_now(c, world.id)?;
            let open = !now.paused && !now.ended() && !running;
            if !open || seat_turn != turn || now.turn != turn || done {
                return Ok((Written::Stopped, None));
            }
            // As the board's test between kept chunks: the world as it was but for the
            // cells' version the chunks' own captures moved, and no one else's write.
            let same = World {
                cells_version: world.cells_version,
                ..now
            } == *world;
            if last != job.last_before || !same || !quiet::none_between(mark, m) {
                return Ok((Written::Moved, None));
            }
            job.writes.write(c)?;
            diesel::update(bots::table.find(player))
                .set((
                    bots::last_company.eq(job.reached),
                    bots::done.eq(job.finished),
                ))
                .execute(c)?;
            let held = started.elapsed();
            Ok((Written::Done { held, orders }, Some(m)))
        });
        let held = started.elapsed();
        let result = result.map(|(written, m)| {
            if let Some(m) = m {
                mark = m;
            }
            written
        });
        let go_on = matches!(result, Ok(Written::Done { .. }));
        if told.send(result).is_err() || !go_on {
            return;
        }
        // As between a turn's chunks: SQLite's writer is left to the players' orders waiting.
        db::leave_writer(conn, held);
    }
}

/// Orders of a chunk given ahead before any was written, whose writes have not been measured
/// yet: few enough to be written well within `[bots] chunk_ms` on any database.
const FIRST_ORDERS_AHEAD: u32 = 64;

/// Chunks of a run given ahead written before someone else's write, at least, for the turn to
/// go ahead again after it (a new run reads every company again: 30–40 ms for 10,000).
const AGAIN_AFTER: usize = 4;

/// Companies read for a chunk at most (a chunk ends sooner when its time is up).
const CHUNK_ROWS: i64 = 256;

/// The players whose companies the bot orders, and how: its own, played to win; those of its
/// nation's players away who asked for it, only held (the nation's first bot holds them).
fn owners(
    conn: &mut DbConnection,
    config: &Config,
    w: &World,
    seat: &Seat,
) -> GameResult<HashMap<PlayerId, (Actor, Mode)>> {
    let own = Actor {
        user_id: seat.user_id,
        username: seat.username.clone(),
        role: crate::rules::names::Role::Player,
        held: false,
    };
    let mut out = HashMap::from([(seat.player_id, (own, Mode::Play))]);
    let first: Option<PlayerId> = bots::table
        .inner_join(players::table)
        .filter(bots::world_id.eq(w.id))
        .filter(players::nation_id.eq(seat.nation_id))
        .select(diesel::dsl::min(bots::player_id))
        .first(conn)?;
    if first != Some(seat.player_id) {
        return Ok(out);
    }
    let away_since = w.turn - config.settings.bots.away_turns;
    let now = db::now();
    let away: Vec<(PlayerId, UserId, String, Option<i64>, i64)> = players::table
        .inner_join(users::table)
        .filter(players::world_id.eq(w.id))
        .filter(players::nation_id.eq(seat.nation_id))
        .filter(users::hand_to_bot.eq(true))
        .filter(users::bot.eq(false))
        .filter(users::banned.eq(false))
        .filter(players::played_turn.le(away_since))
        .select((
            players::id,
            users::id,
            users::username,
            players::leave_until,
            players::joined_at,
        ))
        .load(conn)?;
    for (player_id, user_id, username, leave_until, joined_at) in away {
        // On leave the companies are frozen: nothing to hold.
        if crate::rules::leave::on_leave(leave_until, now) {
            continue;
        }
        // A player who joined fewer than `away_turns` turns ago is not away: they have not
        // yet had those turns to play.
        let turns_since_joining: i64 = ticks::table
            .filter(ticks::world_id.eq(w.id))
            .filter(ticks::kind.eq(crate::rules::names::TickKind::Turn.as_str()))
            .filter(ticks::scheduled_for.ge(joined_at))
            .count()
            .get_result(conn)?;
        if turns_since_joining < i64::from(config.settings.bots.away_turns) {
            continue;
        }
        // Raising a company is playing too (it counts no turn as played in the scores).
        let raised_lately: bool = diesel::select(diesel::dsl::exists(
            events::table
                .filter(events::world_id.eq(w.id))
                .filter(events::actor_user_id.eq(user_id))
                .filter(events::kind.eq(crate::rules::names::EventKind::Raise.as_str()))
                .filter(events::turn.gt(away_since)),
        ))
        .get_result(conn)?;
        if raised_lately {
            continue;
        }
        let actor = Actor {
            user_id,
            username,
            role: crate::rules::names::Role::Player,
            held: true,
        };
        out.insert(player_id, (actor, Mode::Hold));
    }
    Ok(out)
}

/// A bot's own random stream for `purpose` in the world's current turn: from the world's seed,
/// so that a campaign of bots replays exactly.
fn stream(w: &World, player: PlayerId, purpose: u64) -> ChaCha20Rng {
    let mut rng = ChaCha20Rng::seed_from_u64(w.rng_seed as u64 ^ 0x626f_7473);
    rng.set_stream(((player.0 as u64) << 8) | purpose);
    rng.set_word_pos((w.turn.max(0) as u128) << 16);
    rng
}

/// Raises what the treasury allows, up to `[bots] raise_per_turn`, kinds chosen for the map.
fn raise(
    conn: &mut DbConnection,
    config: &Config,
    w: &World,
    seat: &Seat,
    actor: &Actor,
    castles: bool,
) -> GameResult<usize> {
    let rs = &config.rules;
    let mut rng = stream(w, seat.player_id, 0);
    let mut have: HashMap<Kind, i32> = HashMap::new();
    let kinds: Vec<Kind> = companies::table
        .filter(companies::player_id.eq(seat.player_id))
        .select(companies::kind)
        .load(conn)?;
    for k in kinds {
        *have.entry(k).or_default() += 1;
    }
    let mut raised = 0;
    for i in 0..config.settings.bots.raise_per_turn {
        let roll = rng.random_range(0..100);
        let kind = engine::kind_to_raise(seat.level, &have, castles, roll);
        let name = format!("{} {}.{}", kind.as_str(), w.turn.max(0), i + 1);
        let made = db::savepoint(conn, |conn| {
            play::raise(conn, rs, actor, w.id, kind.as_str(), &name)
        });
        match made {
            Ok(_) => {
                raised += 1;
                *have.entry(kind).or_default() += 1;
            }
            Err(_) => break,
        }
    }
    Ok(raised)
}

/// How far a bot plans a company's move at most, in cells.
const PLAN_RADIUS: i32 = 14;

/// One company's orders of a bot's turn.
struct Turn<'a> {
    config: &'a Arc<Config>,
    w: &'a World,
    level: BotLevel,
    mode: Mode,
    actor: &'a Actor,
    together: &'a mut orders::Together,
    sight: &'a mut Sight,
    taken: &'a mut FxHashSet<Pos>,
    struck: &'a mut HashMap<i32, i32>,
    out: &'a mut Played,
}

impl Turn<'_> {
    fn company(&mut self, conn: &mut DbConnection, id: CompanyId) -> GameResult<()> {
        let rs = &self.config.rules;
        let Some(start) = self.sight.unit(id.0).cloned() else {
            return Ok(());
        };
        let keep_ap = match self.level {
            BotLevel::Easy => start.ap / 2,
            _ => 0,
        };
        let goal = self.goal(&start);
        let refuge =
            self.sight
                .refuges
                .nearest(start.pos, |a, b| self.w.grid.distance(a, b), |_| true);
        for _ in 0..self.config.settings.bots.orders_per_company {
            let Some(me) = self.sight.unit(id.0).cloned() else {
                break;
            };
            let spare = (me.ap - keep_ap).max(0);
            let step = rs.cheapest_step(self.w.season).max(1);
            let reach = rs.kind(me.kind).volley.map_or(1, |v| v.range) + 2;
            // At least the reach of its volley, at most PLAN_RADIUS cells.
            let radius = (spare / step + 1).min(PLAN_RADIUS).max(reach);
            let area = self.sight.window(self.w, me.pos, radius);
            let plan = Plan {
                rs,
                area: &area,
                level: self.level,
                mode: self.mode,
                goal,
                refuge,
                untouchable: &self.sight.untouchable,
                struck: &*self.struck,
                keep_ap,
            };
            let Some(choice) = engine::choose(&plan, &me) else {
                break;
            };
            let target = match &choice {
                Choice::Volley(p) | Choice::Melee(p) => self.sight.unit_at(*p).map(|u| (u.id, *p)),
                _ => None,
            };
            let order = match choice {
                Choice::Volley(_) | Choice::Melee(_) => {
                    let Some((t, _)) = target else { break };
                    if matches!(choice, Choice::Volley(_)) {
                        Order::Volley {
                            target: CompanyId(t),
                        }
                    } else {
                        Order::Melee {
                            target: CompanyId(t),
                        }
                    }
                }
                Choice::Heal => Order::Heal,
                Choice::Move(path) => Order::MovePath(path),
                Choice::Ram(at) => Order::Ram { at },
                Choice::Bombard(at) => Order::Bombard { at },
                Choice::BuildSiegeTower(at) => Order::BuildSiegeTower { at },
            };
            let (config, actor, together) = (self.config, self.actor, &mut *self.together);
            let done = together.give_apart(conn, config, actor, id, order);
            match done {
                Ok(outcome) => {
                    self.out.orders += 1;
                    let after = outcome.company.map(|c| self.unit_of(&c, me.nation));
                    self.sight.update(rs, id.0, after);
                    if let Some((t, at)) = target {
                        *self.struck.entry(t).or_default() += 1;
                        let now = self.together.standing(conn, self.w, at)?;
                        let seen = now.filter(|c| c.id.0 == t).map(|c| {
                            let nation = self.sight.unit(t).map_or(0, |u| u.nation);
                            self.unit_of(&c, nation)
                        });
                        self.sight.update(rs, t, seen);
                    }
                }
                Err(_) => {
                    self.out.refused += 1;
                    break;
                }
            }
        }
        Ok(())
    }

    fn unit_of(&self, c: &Company, nation: i32) -> crate::rules::state::Unit {
        load::unit_of(&load::Placed {
            company: c.clone(),
            nation_id: NationId(nation),
            user_id: UserId(0),
            leave_until: None,
        })
    }

    /// Where the company heads this turn: it stays on ground worth holding; else the nearest
    /// objective no other company of the bot took this turn (walls only for those who climb);
    /// else the nearest seen enemy.
    fn goal(&mut self, me: &crate::rules::state::Unit) -> Option<Pos> {
        let rs = &self.config.rules;
        if self.mode == Mode::Hold {
            return None;
        }
        if self.sight.worth_holding(rs, self.w, me.pos, 4) && !self.taken.contains(&me.pos) {
            self.taken.insert(me.pos);
            return Some(me.pos);
        }
        let climbs = rs.kind(me.kind).class == crate::rules::names::Class::Foot;
        let grid = self.w.grid;
        // Objectives taken this turn are out of the sight's objectives already.
        let walls = &self.sight.walls;
        let found = self.sight.objectives.nearest(
            me.pos,
            |a, b| grid.distance(a, b),
            |p| climbs || !walls.contains(&p),
        );
        match found {
            Some(p) => {
                // No other company heads for it this turn.
                self.taken.insert(p);
                self.sight.objectives.remove(p);
                Some(p)
            }
            None => self.sight.nearest_enemy(self.w, me.pos),
        }
    }
}
