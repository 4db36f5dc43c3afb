//! Loading what the engine needs from the database: windows of a world with their companies,
//! and the world's random stream.

use crate::db::models::{Company, World};
use crate::db::schema::{companies, players};
use crate::db::DbConnection;
use crate::game::error::GameResult;
use crate::game::maps::worlds;
use crate::ids::{CompanyId, NationId, UserId, WorldId};
use crate::rules::dice::Dice;
use crate::rules::state::{Area, Unit};
use crate::rules::Pos;
use diesel::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

/// Words of the world's ChaCha stream reserved per action: far more than any action draws.
const RNG_BLOCK: i64 = 1024;

/// A company with the nation and user it belongs to.
#[derive(Clone, Debug)]
pub struct Placed {
    pub company: Company,
    pub nation_id: NationId,
    pub user_id: UserId,
    /// The end of its player's leave, if they took one.
    pub leave_until: Option<i64>,
}

pub fn unit_of(p: &Placed) -> Unit {
    let c = &p.company;
    Unit {
        id: c.id.0,
        nation: p.nation_id.0,
        kind: c.kind,
        pos: Pos::new(c.x, c.y),
        men: c.men,
        wounded: c.wounded,
        ap: c.ap,
        morale: c.morale,
        xp: c.xp,
        volley_recency: c.volley_recency,
    }
}

/// Companies standing in a rectangle, with their nations.
pub fn companies_in(
    conn: &mut DbConnection,
    world_id: WorldId,
    x0: i32,
    y0: i32,
    x1: i32,
    y1: i32,
) -> GameResult<Vec<Placed>> {
    companies_around(conn, world_id, 0, (x0, y0, x1, y1), None)
}

/// Whether to read a rectangle of a world of this height column by column (see
/// [`companies_around`]): when the world is at least 8 times as tall as the rectangle.
fn by_column(world_height: i32, y0: i32, y1: i32) -> bool {
    i64::from(world_height) >= 8 * (i64::from(y1) - i64::from(y0) + 1)
}

/// The companies a map of the rectangle needs: every company inside it and, with `eyes`
/// (a nation and how far its companies may see), that nation's companies up to that far
/// around it, which see into it. Others' companies around it are not read at all.
///
/// A range of x in the (world, x, y) index reads every company of those columns, the whole
/// height of the map: a thousand entries for a one-step move on a world of 100,000
/// companies, 90 µs on SQLite. In a world at least 8 times as tall as the rectangle
/// (`world_height`; 0 never is) each column is sought on its own instead (18 µs there), which
/// costs about half a microsecond a column more where companies are few.
pub fn companies_around(
    conn: &mut DbConnection,
    world_id: WorldId,
    world_height: i32,
    (x0, y0, x1, y1): (i32, i32, i32, i32),
    eyes: Option<(NationId, i32)>,
) -> GameResult<Vec<Placed>> {
    // Without eyes, one statement still: no nation has id 0, and no margin leaves the rectangle.
    let (nation, m) = eyes.unwrap_or((NationId(0), 0));
    let (xs, xe) = (x0.saturating_sub(m), x1.saturating_add(m));
    let (ys, ye) = (y0.saturating_sub(m), y1.saturating_add(m));
    if xs > xe || ys > ye {
        return Ok(Vec::new());
    }
    let wanted = players::nation_id.eq(nation).or(companies::x
        .between(x0, x1)
        .and(companies::y.between(y0, y1)));
    // PostgreSQL tests y inside its scan of the index's x range (0.1 ms for a thousand
    // entries, against 0.4 ms column by column): there the range stays.
    let rows: Vec<(Company, NationId, UserId, Option<i64>)> =
        if by_column(world_height, ys, ye) && conn.is_sqlite() {
            crate::on_backend!(conn, c => companies::table
            .inner_join(players::table)
            .filter(companies::world_id.eq(world_id))
            .filter(Columns { from: xs, to: xe })
            .filter(companies::y.between(ys, ye))
            .filter(wanted)
            .select(placed_columns())
            .load(c))?
        } else {
            crate::on_backend!(conn, c => companies::table
            .inner_join(players::table)
            .filter(companies::world_id.eq(world_id))
            .filter(companies::x.between(xs, xe))
            .filter(companies::y.between(ys, ye))
            .filter(wanted)
            .select(placed_columns())
            .load(c))?
        };
    Ok(rows.into_iter().map(placed).collect())
}

/// `companies.x IN` each column from `from` to `to`, listed by a recursive query: written by
/// hand, with a static query id, so that the statement stays prepared (diesel prepares a
/// statement with SQL of its own text, `dsl::sql`, anew on every run).
#[derive(Clone, Copy, Debug)]
struct Columns {
    from: i32,
    to: i32,
}

impl diesel::expression::Expression for Columns {
    type SqlType = diesel::sql_types::Bool;
}

impl<QS> diesel::expression::AppearsOnTable<QS> for Columns {}

impl<QS> diesel::expression::SelectableExpression<QS> for Columns {}

impl<G> diesel::expression::ValidGrouping<G> for Columns {
    type IsAggregate = diesel::expression::is_aggregate::Never;
}

impl diesel::query_builder::QueryId for Columns {
    type QueryId = Columns;
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl<DB> diesel::query_builder::QueryFragment<DB> for Columns
where
    DB: diesel::backend::Backend,
    i32: diesel::serialize::ToSql<diesel::sql_types::Integer, DB>,
{
    fn walk_ast<'b>(
        &'b self,
        mut out: diesel::query_builder::AstPass<'_, 'b, DB>,
    ) -> QueryResult<()> {
        use diesel::sql_types::Integer;
        out.push_sql("companies.x IN (WITH RECURSIVE xs(v) AS (SELECT ");
        out.push_bind_param::<Integer, _>(&self.from)?;
        out.push_sql(" UNION ALL SELECT v + 1 FROM xs WHERE v < ");
        out.push_bind_param::<Integer, _>(&self.to)?;
        out.push_sql(") SELECT v FROM xs)");
        Ok(())
    }
}

/// What [`Placed`] is read from: the company, its player's nation, user and leave.
#[allow(clippy::type_complexity)]
fn placed_columns<DB: diesel::backend::Backend>() -> (
    diesel::helper_types::AsSelect<Company, DB>,
    players::nation_id,
    players::user_id,
    players::leave_until,
)
where
    Company: Selectable<DB>,
{
    (
        Company::as_select(),
        players::nation_id,
        players::user_id,
        players::leave_until,
    )
}

fn placed(
    (company, nation_id, user_id, leave_until): (Company, NationId, UserId, Option<i64>),
) -> Placed {
    Placed {
        company,
        nation_id,
        user_id,
        leave_until,
    }
}

/// These companies of a world, with their players' nation, user and leave.
pub fn companies_by_id(
    conn: &mut DbConnection,
    world_id: WorldId,
    ids: &[CompanyId],
) -> GameResult<Vec<Placed>> {
    let rows: Vec<(Company, NationId, UserId, Option<i64>)> = crate::on_backend!(conn, c => companies::table
            .inner_join(players::table)
            .filter(companies::id.eq_any(ids))
            .filter(companies::world_id.eq(world_id))
            .select(placed_columns())
            .load(c))?;
    Ok(rows.into_iter().map(placed).collect())
}

/// Every company of a world, in no order.
pub fn companies_of_world(conn: &mut DbConnection, world_id: WorldId) -> GameResult<Vec<Placed>> {
    let rows: Vec<(Company, NationId, UserId, Option<i64>)> = crate::on_backend!(conn, c => companies::table
            .inner_join(players::table)
            .filter(companies::world_id.eq(world_id))
            .select(placed_columns())
            .load(c))?;
    Ok(rows.into_iter().map(placed).collect())
}

/// At most `limit` companies of a world, column by column, from the first place after `after`
/// (x, then y): a world read in slices, each an index range.
pub fn companies_from(
    conn: &mut DbConnection,
    world_id: WorldId,
    (ax, ay): (i32, i32),
    limit: i64,
) -> GameResult<Vec<Placed>> {
    let rows: Vec<(Company, NationId, UserId, Option<i64>)> = crate::on_backend!(conn, c => companies::table
            .inner_join(players::table)
            .filter(companies::world_id.eq(world_id))
            .filter(companies::x.ge(ax))
            .filter(companies::x.gt(ax).or(companies::y.gt(ay)))
            .order((companies::x, companies::y))
            .limit(limit)
            .select(placed_columns())
            .load(c))?;
    Ok(rows.into_iter().map(placed).collect())
}

/// A window of a world with its cells and companies, `margin` cells around the rectangle
/// spanned by `points`.
pub fn window(
    conn: &mut DbConnection,
    w: &World,
    points: &[Pos],
    margin: i32,
) -> GameResult<(Area, Vec<Placed>)> {
    let (x0, y0, x1, y1) = window_rect(w, points, margin);
    let mut area = crate::game::maps::cells::area(conn, w, x0, y0, x1, y1)?;
    let placed = companies_around(conn, w.id, w.height, (x0, y0, x1, y1), None)?;
    for p in &placed {
        area.place(unit_of(p));
    }
    Ok((area, placed))
}

/// The rectangle of [`window`]: `margin` cells around the points, clipped to the map (points
/// named by a caller may lie anywhere an i32 reaches). (x0, y0, x1, y1).
pub fn window_rect(w: &World, points: &[Pos], margin: i32) -> (i32, i32, i32, i32) {
    let span = |c: fn(&Pos) -> i32, size: i32| {
        let lo = points
            .iter()
            .map(c)
            .min()
            .unwrap_or(0)
            .saturating_sub(margin);
        let hi = points
            .iter()
            .map(c)
            .max()
            .unwrap_or(0)
            .saturating_add(margin);
        (lo.max(0), hi.min(size - 1))
    };
    let (x0, x1) = span(|p| p.x, w.width);
    let (y0, y1) = span(|p| p.y, w.height);
    (x0, y0, x1, y1)
}

/// Dice for one action of a company, positioned where its random stream continues, and that
/// position. The stream is the world's seeded ChaCha generator on the company's own stream
/// number, so orders of different companies never wait on one shared row. The action reserves
/// the block it draws from when it writes the company ([`next_draw`]), in the same statement
/// and on the condition that the position is still this one: two actions never share dice.
pub fn company_dice(w: &World, company: &Company) -> (Dice<ChaCha20Rng>, i64) {
    let start = company.rng_pos;
    let mut rng = ChaCha20Rng::seed_from_u64(w.rng_seed as u64);
    rng.set_stream(company.id.0 as u64);
    rng.set_word_pos(start as u128);
    (Dice::new(rng), start)
}

/// Where a company's stream continues after an action that drew dice from `start`.
pub fn next_draw(start: i64) -> i64 {
    start + RNG_BLOCK
}

/// The world of a company, refusing while it is paused or once its campaign is over.
pub fn active_world(conn: &mut DbConnection, world_id: WorldId) -> GameResult<World> {
    let w = worlds::get(conn, world_id)?;
    crate::game::maps::worlds::takes_orders(&w)?;
    Ok(w)
}
