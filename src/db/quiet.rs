//! Whether any other transaction wrote between two write transactions of one connection: what
//! the first read then still holds in the second (a bot's board kept from one chunk to the
//! next). Only "none" is ever certain; a doubt answers "someone may have".

use crate::db::DbConnection;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};

/// Taken inside a write transaction, once its first write is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// SQLite's `data_version`: it moves when another connection commits, never for the
    /// connection's own commits.
    Sqlite(i64),
    /// PostgreSQL: the transaction's id, and whether it was alone: no other transaction under
    /// way, and none that took an id after it already ended (the id is taken at the first
    /// write, which may come before the mark waits for a lock). A transaction that writes
    /// takes the next id: when the next transaction of ours has the id after this one, and
    /// both were alone at their marks, no one else wrote in between.
    Postgres { xid: i64, alone: bool },
}

#[derive(QueryableByName)]
struct DataVersion {
    #[diesel(sql_type = BigInt)]
    data_version: i64,
}

#[derive(QueryableByName)]
struct Snapshot {
    #[diesel(sql_type = Text)]
    xid: String,
    #[diesel(sql_type = Text)]
    snapshot: String,
}

/// The mark of the current write transaction.
pub fn mark(conn: &mut DbConnection) -> QueryResult<Mark> {
    match conn {
        DbConnection::Sqlite(c) => {
            let v: DataVersion = diesel::sql_query("PRAGMA data_version").get_result(c)?;
            Ok(Mark::Sqlite(v.data_version))
        }
        DbConnection::Postgres(c) => {
            let s: Snapshot = diesel::sql_query(format!(
                "SELECT {POSTGRES_XID} AS xid, {POSTGRES_SNAPSHOT} AS snapshot"
            ))
            .get_result(c)?;
            Ok(postgres_mark(&s.xid, &s.snapshot))
        }
    }
}

/// The two columns of a PostgreSQL mark, for a statement that reads them with others
/// ([`postgres_mark`] makes the mark of them).
pub const POSTGRES_XID: &str = "pg_current_xact_id()::text";
pub const POSTGRES_SNAPSHOT: &str = "pg_current_snapshot()::text";

/// The mark of [`POSTGRES_XID`] and [`POSTGRES_SNAPSHOT`] as read (a doubt: not alone).
pub fn postgres_mark(xid: &str, snapshot: &str) -> Mark {
    parse_postgres(xid, snapshot).unwrap_or(Mark::Postgres {
        xid: 0,
        alone: false,
    })
}

/// `xmin:xmax:xip,…` as PostgreSQL prints a snapshot: alone when every transaction under way
/// is this one, and none after it has ended (`xmax`, the first id not yet ended, is the one
/// after this).
fn parse_postgres(xid: &str, snapshot: &str) -> Option<Mark> {
    let xid: i64 = xid.trim().parse().ok()?;
    let mut parts = snapshot.trim().split(':');
    let (_xmin, xmax, xip) = (parts.next()?, parts.next()?, parts.next().unwrap_or(""));
    let xmax: i64 = xmax.parse().ok()?;
    let mut alone = xmax <= xid + 1;
    for other in xip.split(',').filter(|s| !s.is_empty()) {
        if other.parse::<i64>().ok()? != xid {
            alone = false;
        }
    }
    Some(Mark::Postgres { xid, alone })
}

/// Whether no other transaction wrote between the transaction marked `before` and the one
/// marked `now`, both of the same connection.
pub fn none_between(before: Mark, now: Mark) -> bool {
    match (before, now) {
        (Mark::Sqlite(a), Mark::Sqlite(b)) => a == b,
        (
            Mark::Postgres {
                xid: a,
                alone: alone_a,
            },
            Mark::Postgres {
                xid: b,
                alone: alone_b,
            },
        ) => alone_a && alone_b && a > 0 && b == a + 1,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_postgres_snapshot_is_alone_only_with_no_other_transaction_under_way() {
        assert_eq!(
            parse_postgres("105", "100:106:"),
            Some(Mark::Postgres {
                xid: 105,
                alone: true
            })
        );
        assert_eq!(
            parse_postgres("105", "100:106:105"),
            Some(Mark::Postgres {
                xid: 105,
                alone: true
            })
        );
        assert_eq!(
            parse_postgres("105", "100:106:101,105"),
            Some(Mark::Postgres {
                xid: 105,
                alone: false
            })
        );
        // Another transaction took id 106 after this one and ended before the mark.
        assert_eq!(
            parse_postgres("105", "100:107:"),
            Some(Mark::Postgres {
                xid: 105,
                alone: false
            })
        );
        assert_eq!(parse_postgres("x", "100:106:"), None);
    }

    #[test]
    fn only_the_next_id_with_no_one_under_way_says_no_one_wrote() {
        let m = |xid, alone| Mark::Postgres { xid, alone };
        assert!(none_between(m(7, true), m(8, true)));
        assert!(!none_between(m(7, true), m(9, true)));
        assert!(!none_between(m(7, false), m(8, true)));
        assert!(!none_between(m(7, true), m(8, false)));
        assert!(none_between(Mark::Sqlite(3), Mark::Sqlite(3)));
        assert!(!none_between(Mark::Sqlite(3), Mark::Sqlite(4)));
        assert!(!none_between(Mark::Sqlite(3), m(4, true)));
    }
}
