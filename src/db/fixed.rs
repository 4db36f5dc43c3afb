//! Statements of fixed text kept prepared on the connection.
//!
//! diesel prepares an `sql_query`, and an `UPDATE` it writes from a changeset, anew on every
//! run (a changeset may write different SQL from one run to the next). A statement declared
//! with [`fixed_statement!`] has a type of its own, by which the connection's cache finds it
//! prepared: on PostgreSQL the two updates of a move that takes ground (the cell's owner, the
//! player's captures) were parsed and planned again on every such move.

/// Declares a statement of fixed text: pieces of SQL, each followed by a bound value (its SQL
/// type and its Rust type), and after a `;` the text that ends it, if any. On PostgreSQL a
/// value may be an array of a column's values, one per row (`unnest`): many rows in a
/// statement of one text, planned once.
///
/// ```ignore
/// fixed_statement! {
///     pub struct SetOwner {
///         "UPDATE cells SET owner_id = " owner: Nullable<Integer> = Option<i32>,
///         " WHERE world_id = " world: Integer = i32,
///     }
/// }
/// ```
#[macro_export]
macro_rules! fixed_statement {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $($sql:literal $field:ident : $st:ty = $rt:ty,)*
            $(; $tail:literal)?
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $(pub $field: $rt,)*
        }

        impl<DB> diesel::query_builder::QueryFragment<DB> for $name
        where
            DB: diesel::backend::Backend,
            $($rt: diesel::serialize::ToSql<$st, DB>,)*
            $(DB: diesel::sql_types::HasSqlType<$st>,)*
        {
            fn walk_ast<'b>(
                &'b self,
                mut out: diesel::query_builder::AstPass<'_, 'b, DB>,
            ) -> diesel::QueryResult<()> {
                $(
                    out.push_sql($sql);
                    out.push_bind_param::<$st, $rt>(&self.$field)?;
                )*
                $(out.push_sql($tail);)?
                Ok(())
            }
        }

        impl diesel::query_builder::QueryId for $name {
            type QueryId = $name;
            const HAS_STATIC_QUERY_ID: bool = true;
        }

        impl<Conn> diesel::RunQueryDsl<Conn> for $name {}
    };
}

/// Binds a row's next value ([`SqliteRow::walk`]), after a comma unless it is the first.
pub fn bind<'b, ST, T>(
    out: &mut diesel::query_builder::AstPass<'_, 'b, diesel::sqlite::Sqlite>,
    first: bool,
    value: &'b T,
) -> diesel::QueryResult<()>
where
    ST: diesel::sql_types::SqlType,
    diesel::sqlite::Sqlite: diesel::sql_types::HasSqlType<ST>,
    T: diesel::serialize::ToSql<ST, diesel::sqlite::Sqlite> + ?Sized,
{
    if !first {
        out.push_sql(", ");
    }
    out.push_bind_param::<ST, T>(value)
}

/// A row of an insert of many rows at once ([`insert_rows`]) on SQLite.
pub trait SqliteRow {
    /// The statement up to its first row, as `INSERT INTO t (a, b) VALUES `.
    const HEAD: &'static str;
    /// Names the statements of these rows in the connection's cache.
    type Id: 'static;
    /// Binds the row's values, `, ` between them, inside the row's parentheses.
    fn walk<'b>(
        &'b self,
        out: &mut diesel::query_builder::AstPass<'_, 'b, diesel::sqlite::Sqlite>,
    ) -> diesel::QueryResult<()>;
}

/// `N` rows of one insert: a statement of fixed text for each `N`, kept prepared.
struct Rows<'a, T, const N: usize>(&'a [T]);

impl<T: SqliteRow, const N: usize> diesel::query_builder::QueryFragment<diesel::sqlite::Sqlite>
    for Rows<'_, T, N>
{
    fn walk_ast<'b>(
        &'b self,
        mut out: diesel::query_builder::AstPass<'_, 'b, diesel::sqlite::Sqlite>,
    ) -> diesel::QueryResult<()> {
        out.push_sql(T::HEAD);
        for (i, r) in self.0.iter().enumerate() {
            out.push_sql(if i == 0 { "(" } else { ", (" });
            r.walk(&mut out)?;
            out.push_sql(")");
        }
        Ok(())
    }
}

impl<T: SqliteRow, const N: usize> diesel::query_builder::QueryId for Rows<'_, T, N> {
    type QueryId = (T::Id, [(); N]);
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl<T, const N: usize, Conn> diesel::RunQueryDsl<Conn> for Rows<'_, T, N> {}

/// Inserts the rows on SQLite in statements of 64, 8 and 1 rows: three texts whatever the
/// count, prepared once each on the connection (a statement of as many rows as given was a
/// text of its own, parsed again every time: a third of the time a bots' turn spent writing
/// its events). The rows inserted.
pub fn insert_rows<T: SqliteRow>(
    c: &mut diesel::sqlite::SqliteConnection,
    rows: &[T],
) -> diesel::QueryResult<usize> {
    use diesel::RunQueryDsl;
    let mut rest = rows;
    let mut n = 0;
    while !rest.is_empty() {
        let take = [64, 8, 1]
            .into_iter()
            .find(|k| rest.len() >= *k)
            .unwrap_or(1);
        let (head, tail) = rest.split_at(take);
        n += match take {
            64 => Rows::<T, 64>(head).execute(c)?,
            8 => Rows::<T, 8>(head).execute(c)?,
            _ => Rows::<T, 1>(head).execute(c)?,
        };
        rest = tail;
    }
    Ok(n)
}
