//! Statements of fixed text kept prepared on the connection.
//!
//! diesel prepares an `sql_query`, and an `UPDATE` it writes from a changeset, anew on every
//! run (a changeset may write different SQL from one run to the next). A statement declared
//! with [`fixed_statement!`] has a type of its own, by which the connection's cache finds it
//! prepared: on PostgreSQL the two updates of a move that takes ground (the cell's owner, the
//! player's captures) were parsed and planned again on every such move.

/// Declares a statement of fixed text: pieces of SQL, each followed by a bound value (its SQL
/// type and its Rust type).
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
        {
            fn walk_ast<'b>(
                &'b self,
                mut out: diesel::query_builder::AstPass<'_, 'b, DB>,
            ) -> diesel::QueryResult<()> {
                $(
                    out.push_sql($sql);
                    out.push_bind_param::<$st, $rt>(&self.$field)?;
                )*
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
