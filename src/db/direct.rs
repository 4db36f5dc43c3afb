//! Running a hot query on the connection's own backend.
//!
//! A query run through `DbConnection` (diesel's multi-connection) has its SQL written out two
//! or three times on every run (to find it in the statement cache, to ask whether it may be
//! cached, to bind it), even when the statement is cached already; on the concrete connection
//! a query whose type says it all is found in the cache by its type alone. Measured on the
//! move, this was a fifth of the time spent under SQLite's single writer. The queries of the
//! paths players hit at the turn change run through [`on_backend!`]; the rest keep the plain
//! form, which reads the same.

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
