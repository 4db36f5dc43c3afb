//! Running a hot query on the connection's own backend.
//!
//! A query run through `DbConnection` (diesel's multi-connection) has its SQL written out two
//! or three times on every run (to find it in the statement cache, to ask whether it may be
//! cached, to bind it), even when the statement is cached already; on the concrete connection
//! a query whose type says it all is found in the cache by its type alone. Measured on the
//! move, this was a fifth of the time spent under SQLite's single writer. The queries of the
//! paths players hit at the turn change run through [`on_backend!`]; the rest keep the plain
//! form, which reads the same.

use diesel::backend::Backend;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::QueryResult;

/// Evaluates `$body` with `$c` bound to the concrete connection (`&mut SqliteConnection` or
/// `&mut PgConnection`) inside a `&mut DbConnection`: the body is compiled once per backend.
#[macro_export]
macro_rules! on_backend {
    ($conn:expr, $c:ident => $body:expr) => {
        match $conn {
            $crate::db::DbConnection::Sqlite($c) => $body,
            $crate::db::DbConnection::Postgres($c) => $body,
        }
    };
}

/// An `UPDATE` kept in the connection's statement cache. diesel prepares every `UPDATE` anew
/// on each run, because a changeset with optional fields may write different SQL from one run
/// to the next; the cache is keyed by the SQL itself, so a statement whose SQL varies gets one
/// entry per form and stays correct. Used for the updates of the hot paths, whose SQL is fixed.
#[derive(Debug, Clone, Copy)]
pub struct Prepared<Q>(pub Q);

impl<Q, DB> QueryFragment<DB> for Prepared<Q>
where
    DB: Backend,
    Q: QueryFragment<DB>,
{
    fn walk_ast<'b>(&'b self, pass: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        self.0.walk_ast(pass)
    }

    fn is_safe_to_cache_prepared(&self, _backend: &DB) -> QueryResult<bool> {
        Ok(true)
    }
}

impl<Q> QueryId for Prepared<Q> {
    type QueryId = ();
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<Q: Query> Query for Prepared<Q> {
    type SqlType = Q::SqlType;
}

impl<Q, Conn> diesel::RunQueryDsl<Conn> for Prepared<Q> {}
