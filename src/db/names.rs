//! The closed sets of names (terrains, kinds, seasons, roles, tick and event kinds) read from
//! and written to text columns as their types: a value outside the set is an error naming the
//! column and the value, never a quiet fallback to some default.

use crate::rules::names::{
    EdgeFeature, EventKind, Grid, Kind, Role, Season, Side, Terrain, TickKind,
};
use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql, Queryable};
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::Text;

/// A text column that held a value outside its closed set.
#[derive(Debug)]
pub struct UnknownInColumn {
    pub what: &'static str,
    pub value: String,
}

impl std::fmt::Display for UnknownInColumn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the database holds an unknown {} `{}`: a row was written outside the game",
            self.what, self.value
        )
    }
}

impl std::error::Error for UnknownInColumn {}

macro_rules! text_column {
    ($($ty:ty => $what:literal),+ $(,)?) => {$(
        impl<DB> FromSql<Text, DB> for $ty
        where
            DB: Backend,
            String: FromSql<Text, DB>,
        {
            fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<Self> {
                let s = String::from_sql(bytes)?;
                s.parse::<$ty>()
                    .map_err(|_| Box::new(UnknownInColumn { what: $what, value: s }) as _)
            }
        }

        impl<DB> Queryable<Text, DB> for $ty
        where
            DB: Backend,
            $ty: FromSql<Text, DB>,
        {
            type Row = Self;
            fn build(row: Self) -> deserialize::Result<Self> {
                Ok(row)
            }
        }

        impl<DB> ToSql<Text, DB> for $ty
        where
            DB: Backend,
            str: ToSql<Text, DB>,
        {
            fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
                self.as_str().to_sql(out)
            }
        }

        impl From<$ty> for String {
            fn from(v: $ty) -> String {
                v.as_str().to_string()
            }
        }
    )+};
}

text_column!(
    Terrain => "terrain",
    Kind => "company kind",
    Season => "season",
    Role => "role",
    TickKind => "tick kind",
    EventKind => "event kind",
    Grid => "grid",
    Side => "cell side",
    EdgeFeature => "edge feature",
);
