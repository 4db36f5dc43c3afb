//! Events: who did what, where, with which dice and outcome. Reports are views over them.

use crate::db::models::NewEvent;
use crate::db::DbConnection;
use crate::ids::EventId;
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Integer, Nullable, Text};

/// An event with the id it is inserted under (SQLite).
struct Numbered<'a> {
    id: i32,
    e: &'a NewEvent,
}

impl crate::db::fixed::SqliteRow for Numbered<'_> {
    const HEAD: &'static str = "INSERT INTO events (id, world_id, turn, at, kind, actor_user_id, \
        target_user_id, nation_id, other_nation_id, company_id, target_company_id, x, y, \
        summary, data, said) VALUES ";
    type Id = Numbered<'static>;
    fn walk<'b>(
        &'b self,
        out: &mut diesel::query_builder::AstPass<'_, 'b, diesel::sqlite::Sqlite>,
    ) -> QueryResult<()> {
        use crate::db::fixed::bind;
        use diesel::sql_types::{BigInt, Integer, Nullable, Text};
        let e = self.e;
        bind::<Integer, _>(out, true, &self.id)?;
        bind::<Integer, _>(out, false, &e.world_id)?;
        bind::<Integer, _>(out, false, &e.turn)?;
        bind::<BigInt, _>(out, false, &e.at)?;
        bind::<Text, _>(out, false, e.kind.as_str())?;
        bind::<Nullable<Integer>, _>(out, false, &e.actor_user_id)?;
        bind::<Nullable<Integer>, _>(out, false, &e.target_user_id)?;
        bind::<Nullable<Integer>, _>(out, false, &e.nation_id)?;
        bind::<Nullable<Integer>, _>(out, false, &e.other_nation_id)?;
        bind::<Nullable<Integer>, _>(out, false, &e.company_id)?;
        bind::<Nullable<Integer>, _>(out, false, &e.target_company_id)?;
        bind::<Nullable<Integer>, _>(out, false, &e.x)?;
        bind::<Nullable<Integer>, _>(out, false, &e.y)?;
        bind::<Text, _>(out, false, &e.summary)?;
        bind::<Text, _>(out, false, &e.data)?;
        bind::<Text, _>(out, false, &e.said)
    }
}

/// SQLite: inserts the events with the ids that follow the table's highest, ever
/// (`AUTOINCREMENT` keeps it in `sqlite_sequence`), many to a statement; their ids in order.
/// Inserted one by one, each row was a statement and a look-up of its id, a tenth of a bots'
/// turn; `RETURNING` writes its rows to a temporary table first. Only the writer numbers: the
/// caller holds SQLite's write lock.
fn insert_numbered(
    c: &mut diesel::sqlite::SqliteConnection,
    all: &[NewEvent],
) -> QueryResult<Vec<EventId>> {
    use diesel::sql_types::{BigInt, Nullable};
    #[derive(QueryableByName)]
    struct Highest {
        #[diesel(sql_type = Nullable<BigInt>)]
        id: Option<i64>,
    }
    let highest = diesel::sql_query(
        "SELECT MAX(m) AS id FROM (SELECT MAX(id) AS m FROM events \
         UNION ALL SELECT seq AS m FROM sqlite_sequence WHERE name = 'events')",
    )
    .get_result::<Highest>(c)?
    .id
    .unwrap_or(0);
    let first = highest + 1;
    let last = highest + all.len() as i64;
    if i32::try_from(last).is_err() {
        return Err(diesel::result::Error::DeserializationError(
            "events' ids past the largest an id may be".into(),
        ));
    }
    let rows: Vec<Numbered> = all
        .iter()
        .zip(first as i32..)
        .map(|(e, id)| Numbered { id, e })
        .collect();
    crate::db::fixed::insert_rows(c, &rows)?;
    Ok((first..=last).map(|i| EventId(i as i32)).collect())
}

crate::fixed_statement! {
    /// Events, each column's values in an array of their own, inserted in the order given,
    /// their ids returned in that order (PostgreSQL: `RETURNING` gives the rows as they are
    /// inserted, and the ids are drawn as they are; checked by the count after it and by the
    /// bots' tests, which read each event's alerts and live rows).
    struct EventsInsert {
        "INSERT INTO events (world_id, turn, at, kind, actor_user_id, target_user_id, \
         nation_id, other_nation_id, company_id, target_company_id, x, y, summary, data, said) \
         SELECT world_id, turn, at, kind, actor_user_id, target_user_id, nation_id, \
         other_nation_id, company_id, target_company_id, x, y, summary, data, said \
         FROM unnest(" world_id: Array<Integer> = Vec<i32>,
        ", " turn: Array<Integer> = Vec<i32>,
        ", " at: Array<BigInt> = Vec<i64>,
        ", " kind: Array<Text> = Vec<&'static str>,
        ", " actor_user_id: Array<Nullable<Integer>> = Vec<Option<i32>>,
        ", " target_user_id: Array<Nullable<Integer>> = Vec<Option<i32>>,
        ", " nation_id: Array<Nullable<Integer>> = Vec<Option<i32>>,
        ", " other_nation_id: Array<Nullable<Integer>> = Vec<Option<i32>>,
        ", " company_id: Array<Nullable<Integer>> = Vec<Option<i32>>,
        ", " target_company_id: Array<Nullable<Integer>> = Vec<Option<i32>>,
        ", " x: Array<Nullable<Integer>> = Vec<Option<i32>>,
        ", " y: Array<Nullable<Integer>> = Vec<Option<i32>>,
        ", " summary: Array<Text> = Vec<String>,
        ", " data: Array<Text> = Vec<String>,
        ", " said: Array<Text> = Vec<String>,
        ; ") WITH ORDINALITY AS v(world_id, turn, at, kind, actor_user_id, target_user_id, \
         nation_id, other_nation_id, company_id, target_company_id, x, y, summary, data, said, \
         n) ORDER BY n RETURNING id"
    }
}

impl diesel::query_builder::Query for EventsInsert {
    type SqlType = Integer;
}

impl EventsInsert {
    fn of(all: &[NewEvent]) -> EventsInsert {
        let col = |f: fn(&NewEvent) -> Option<i32>| all.iter().map(f).collect::<Vec<_>>();
        let text = |f: fn(&NewEvent) -> &String| all.iter().map(|e| f(e).clone()).collect();
        EventsInsert {
            world_id: all.iter().map(|e| e.world_id.0).collect(),
            turn: all.iter().map(|e| e.turn).collect(),
            at: all.iter().map(|e| e.at).collect(),
            kind: all.iter().map(|e| e.kind.as_str()).collect(),
            actor_user_id: col(|e| e.actor_user_id.map(|u| u.0)),
            target_user_id: col(|e| e.target_user_id.map(|u| u.0)),
            nation_id: col(|e| e.nation_id.map(|n| n.0)),
            other_nation_id: col(|e| e.other_nation_id.map(|n| n.0)),
            company_id: col(|e| e.company_id.map(|c| c.0)),
            target_company_id: col(|e| e.target_company_id.map(|c| c.0)),
            x: col(|e| e.x),
            y: col(|e| e.y),
            summary: text(|e| &e.summary),
            data: text(|e| &e.data),
            said: text(|e| &e.said),
        }
    }
}

/// Stores an event and, in the same transaction, the alerts it calls for.
pub fn record(conn: &mut DbConnection, e: NewEvent) -> QueryResult<EventId> {
    let ids = record_all(conn, vec![e])?;
    ids.first().copied().ok_or(diesel::result::Error::NotFound)
}

/// Stores events in the order given, with the alerts they call for and their
/// rows of the live log, in the caller's transaction; their ids in the same order. On
/// PostgreSQL in one statement (a bot's chunk of orders wrote each of its events in a round
/// trip of its own).
pub fn record_all(conn: &mut DbConnection, all: Vec<NewEvent>) -> QueryResult<Vec<EventId>> {
    if all.is_empty() {
        return Ok(Vec::new());
    }
    // The events, their alerts and their live rows together, and on SQLite under the
    // writer's lock that numbers them: a transaction of their own when the caller has none.
    if !crate::db::in_transaction(conn) {
        return crate::db::write(conn, |conn| record_all(conn, all));
    }
    let ids: Vec<EventId> = match conn {
        // SQLite: many rows a statement, numbered here under the writer's lock.
        DbConnection::Sqlite(c) => insert_numbered(c, &all)?,
        // One statement of one text whatever the count, planned once on the connection (a
        // list of rows was a text of its own, planned again every time).
        DbConnection::Postgres(c) => {
            let got: Vec<i32> = EventsInsert::of(&all).load(c)?;
            if got.len() != all.len() {
                return Err(diesel::result::Error::DeserializationError(
                    "an insert of events returned another number of ids".into(),
                ));
            }
            got.into_iter().map(EventId).collect()
        }
    };
    let told: Vec<(&NewEvent, EventId)> = all.iter().zip(ids.iter().copied()).collect();
    crate::game::news::alerts::from_events(conn, &told)?;
    let rows: Vec<_> = all
        .iter()
        .zip(&ids)
        .map(|(e, id)| (Some(e.world_id), e.target_user_id, Some(id.0)))
        .collect();
    crate::db::live::note_all(conn, crate::rules::names::LiveTopic::Event, &rows)?;
    Ok(ids)
}
