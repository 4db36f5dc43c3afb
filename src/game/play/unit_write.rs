//! The write of every order: a company's new figures, on the condition that nothing changed
//! since the order read it.
//!
//! It is one hand-written statement because diesel prepares each of its own `UPDATE`s anew on
//! every run (a changeset may write different SQL from one run to the next), and this one
//! runs under SQLite's single writer for every order of every player: a prepared statement,
//! found in the connection's cache by its type, took the move's time under that writer down
//! by a sixth.

use crate::db::DbConnection;
use crate::game::error::{GameError, GameResult};
use crate::game::play::load;
use crate::game::play::occupied_on_conflict;
use crate::rules::state::Unit;
use diesel::backend::Backend;
use diesel::query_builder::{AstPass, QueryFragment, QueryId};
use diesel::serialize::ToSql;
use diesel::sql_types::{BigInt, Integer};
use diesel::{OptionalExtension, QueryResult, RunQueryDsl};

/// Where a company's random stream stood when the action read the company, and where the
/// action leaves it: past the block it drew from, or where it was.
#[derive(Clone, Copy, Debug)]
pub struct Stream {
    read: i64,
    next: i64,
}

impl Stream {
    pub fn untouched(at: i64) -> Stream {
        Stream { read: at, next: at }
    }

    pub fn drawn(start: i64) -> Stream {
        Stream {
            read: start,
            next: load::next_draw(start),
        }
    }

    /// Where the order found the stream.
    pub fn read(&self) -> i64 {
        self.read
    }

    /// Where the order leaves it.
    pub fn next(&self) -> i64 {
        self.next
    }
}

pub fn changed_meanwhile() -> GameError {
    GameError::Conflict("the company or its target changed meanwhile; reload and try again".into())
}

/// Writes a unit's new figures, spending `spent` AP and moving its random stream on, only if
/// nothing changed since it was read; a unit left without men is removed. The AP it has left
/// as stored (none once removed): the AP are spent from the row as the write finds it, and on
/// PostgreSQL an order that changed only them may have been written between the read and the
/// write (SQLite's single writer holds the two together).
pub fn write_unit(
    conn: &mut DbConnection,
    before: &Unit,
    stream: Stream,
    after: &Unit,
    spent: i32,
) -> GameResult<Option<i32>> {
    let write = Write {
        before,
        stream,
        after,
        spent,
    };
    if after.men <= 0 {
        let n = crate::on_backend!(conn, c => Remove(write).execute(c))?;
        return if n == 0 {
            Err(changed_meanwhile())
        } else {
            Ok(None)
        };
    }
    let left = match conn {
        DbConnection::Sqlite(c) => {
            let n = write.execute(c).map_err(occupied_on_conflict(after.pos))?;
            (n > 0).then_some(before.ap - spent)
        }
        DbConnection::Postgres(c) => Returning(write)
            .get_result::<i32>(c)
            .optional()
            .map_err(occupied_on_conflict(after.pos))?,
    };
    left.map(Some).ok_or_else(changed_meanwhile)
}

/// `UPDATE companies SET … WHERE` the company is as it was read and has the AP.
#[derive(Clone, Copy)]
struct Write<'a> {
    before: &'a Unit,
    stream: Stream,
    after: &'a Unit,
    spent: i32,
}

/// `DELETE FROM companies WHERE` the company is as it was read and has the AP.
struct Remove<'a>(Write<'a>);

/// [`Write`] `RETURNING ap`: the AP left as stored.
struct Returning<'a>(Write<'a>);

impl Write<'_> {
    fn guard<'b, DB>(&'b self, out: &mut AstPass<'_, 'b, DB>) -> QueryResult<()>
    where
        DB: Backend,
        i32: ToSql<Integer, DB>,
        i64: ToSql<BigInt, DB>,
    {
        let b = self.before;
        out.push_sql(" WHERE id = ");
        out.push_bind_param::<Integer, _>(&b.id)?;
        out.push_sql(" AND ap >= ");
        out.push_bind_param::<Integer, _>(&self.spent)?;
        columns(
            out,
            " AND ",
            [
                ("x", &b.pos.x),
                ("y", &b.pos.y),
                ("men", &b.men),
                ("wounded", &b.wounded),
                ("morale", &b.morale),
            ],
        )?;
        out.push_sql(" AND rng_pos = ");
        out.push_bind_param::<BigInt, _>(&self.stream.read)
    }
}

/// `column = ?` for each pair, each after `sep`.
fn columns<'b, DB, const N: usize>(
    out: &mut AstPass<'_, 'b, DB>,
    sep: &str,
    pairs: [(&str, &'b i32); N],
) -> QueryResult<()>
where
    DB: Backend,
    i32: ToSql<Integer, DB>,
{
    for (column, value) in pairs {
        out.push_sql(sep);
        out.push_sql(column);
        out.push_sql(" = ");
        out.push_bind_param::<Integer, _>(value)?;
    }
    Ok(())
}

impl<DB> QueryFragment<DB> for Write<'_>
where
    DB: Backend,
    i32: ToSql<Integer, DB>,
    i64: ToSql<BigInt, DB>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        let a = self.after;
        out.push_sql("UPDATE companies SET ap = ap - ");
        out.push_bind_param::<Integer, _>(&self.spent)?;
        columns(
            &mut out,
            ", ",
            [
                ("x", &a.pos.x),
                ("y", &a.pos.y),
                ("men", &a.men),
                ("wounded", &a.wounded),
                ("morale", &a.morale),
                ("xp", &a.xp),
                ("volley_recency", &a.volley_recency),
            ],
        )?;
        out.push_sql(", rng_pos = ");
        out.push_bind_param::<BigInt, _>(&self.stream.next)?;
        self.guard(&mut out)
    }
}

impl<DB> QueryFragment<DB> for Remove<'_>
where
    DB: Backend,
    i32: ToSql<Integer, DB>,
    i64: ToSql<BigInt, DB>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        out.push_sql("DELETE FROM companies");
        self.0.guard(&mut out)
    }
}

impl<DB> QueryFragment<DB> for Returning<'_>
where
    DB: Backend,
    i32: ToSql<Integer, DB>,
    i64: ToSql<BigInt, DB>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        self.0.walk_ast(out.reborrow())?;
        out.push_sql(" RETURNING ap");
        Ok(())
    }
}

impl diesel::query_builder::Query for Returning<'_> {
    type SqlType = Integer;
}

impl QueryId for Returning<'_> {
    type QueryId = Returning<'static>;
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl QueryId for Write<'_> {
    type QueryId = Write<'static>;
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl QueryId for Remove<'_> {
    type QueryId = Remove<'static>;
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl<Conn> RunQueryDsl<Conn> for Write<'_> {}
impl<Conn> RunQueryDsl<Conn> for Remove<'_> {}
impl<Conn> RunQueryDsl<Conn> for Returning<'_> {}
