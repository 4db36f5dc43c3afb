//! The rows' ids, one type each: a company's id is not a world's, and the compiler says so.
//!
//! Each is an `i32` in a newtype: stored in an `Integer` column (diesel's `ToSql` and `FromSql`
//! forward to the `i32`, on either backend), written to JSON as the plain integer
//! (`serde(transparent)`), described to OpenAPI as an int32 and shown as the number. The raw
//! number is taken out (`.0`) or put in (`WorldId(n)`) only at the edges: a path segment, a form
//! field, a command-line argument, the rules' own state (`rules` knows no database).

use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql};
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::Integer;

macro_rules! ids {
    ($($(#[$doc:meta])* $name:ident),+ $(,)?) => {$(
        $(#[$doc])*
        #[derive(
            Clone,
            Copy,
            Debug,
            PartialEq,
            Eq,
            Hash,
            PartialOrd,
            Ord,
            serde::Serialize,
            serde::Deserialize,
            diesel::AsExpression,
            diesel::FromSqlRow,
        )]
        #[serde(transparent)]
        #[diesel(sql_type = Integer)]
        pub struct $name(pub i32);

        impl<DB> ToSql<Integer, DB> for $name
        where
            DB: Backend,
            i32: ToSql<Integer, DB>,
        {
            fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
                self.0.to_sql(out)
            }
        }

        impl<DB> FromSql<Integer, DB> for $name
        where
            DB: Backend,
            i32: FromSql<Integer, DB>,
        {
            fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<Self> {
                i32::from_sql(bytes).map($name)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }

        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                <i32 as utoipa::PartialSchema>::schema()
            }
        }

        impl utoipa::ToSchema for $name {}
    )+};
}

ids!(
    /// A world: one campaign on one map.
    WorldId,
    /// A nation of a world.
    NationId,
    /// A town of a world's map.
    TownId,
    /// An account.
    UserId,
    /// An account's place in one world.
    PlayerId,
    /// A player's company.
    CompanyId,
    /// A nation's regiment.
    RegimentId,
    /// What happened in a world (a row of `events`).
    EventId,
    /// An alert told to an account.
    AlertId,
    /// An account's API token.
    TokenId,
    /// A message on a channel or to one account.
    MessageId,
    /// A report of a message to the moderators.
    ReportId,
    /// A marker on a nation's map.
    MarkerId,
    /// A line of the game masters' audit.
    AuditId,
    /// A player's webhook.
    WebhookId,
    /// An alert waiting to go to a webhook or a browser (a row of the outbox).
    DeliveryId,
    /// A player's browser that takes pushes.
    SubscriptionId,
);
