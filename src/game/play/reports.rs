//! Reports: views over events. A player reads their own and their nation's events; a battle
//! shows to both nations involved.

use crate::db::models::Event;
use crate::db::schema::{events, players, users};
use crate::db::DbConnection;
use crate::game::error::GameResult;
use crate::game::play::access::Actor;
use crate::game::play::first_steps;
use crate::ids::{EventId, NationId, PlayerId, WorldId};
use crate::rules::names::EventKind;
use diesel::prelude::*;

/// The kinds this version reads. Events outlive the code that wrote them: a row of a kind this
/// version does not know is left out of the lists, since reading it as an `Event` would fail
/// the whole list (an unknown kind's text is refused, never guessed: `db::names`).
fn known_kinds() -> Vec<&'static str> {
    EventKind::ALL.iter().map(|k| k.as_str()).collect()
}

/// What happened to the actor's companies (and by them) since their previous login.
pub fn since_last_visit(conn: &mut DbConnection, actor: &Actor) -> GameResult<Vec<Event>> {
    let previous: Option<i64> = users::table
        .find(actor.user_id)
        .select(users::previous_login_at)
        .first(conn)?;
    let since = previous.unwrap_or(0);
    let rows: Vec<Event> = events::table
        .filter(events::at.gt(since))
        .filter(events::target_user_id.eq(actor.user_id))
        .filter(events::kind.eq_any(known_kinds()))
        // What others did to the player's companies, not the player's own orders.
        .filter(
            events::actor_user_id
                .is_null()
                .or(events::actor_user_id.ne(actor.user_id)),
        )
        .order(events::id.desc())
        .limit(20)
        .select(Event::as_select())
        .load(conn)?;
    Ok(rows)
}

/// The reports a player reads, as the reports page and the API's events list them: the events
/// with `since < id < before` they may read, newest first (without a player in the world, only
/// world-wide events such as ticks). A list that is not empty is the
/// first day's step "read a report", ticked here so that a player of the API ticks it as the
/// page's reader does (nothing is written once it is ticked).
pub fn read(
    conn: &mut DbConnection,
    actor: &Actor,
    world_id: WorldId,
    since: EventId,
    before: EventId,
    limit: i64,
) -> GameResult<Vec<Event>> {
    let reader = reader(conn, actor, world_id)?;
    let list = between(conn, actor, reader, world_id, since, before, limit)?;
    if let (Some((_, steps)), false) = (reader, list.is_empty()) {
        first_steps::mark(conn, steps, first_steps::READ_A_REPORT)?;
    }
    Ok(list)
}

/// Visible events with `since < id < before`, newest first.
pub fn visible_between(
    conn: &mut DbConnection,
    actor: &Actor,
    world_id: WorldId,
    since: EventId,
    before: EventId,
    limit: i64,
) -> GameResult<Vec<Event>> {
    let reader = reader(conn, actor, world_id)?;
    between(conn, actor, reader, world_id, since, before, limit)
}

/// The actor's nation in the world and their first-day checklist, if they play there.
fn reader(
    conn: &mut DbConnection,
    actor: &Actor,
    world_id: WorldId,
) -> GameResult<Option<(NationId, first_steps::Row)>> {
    let row: Option<(NationId, PlayerId, i32)> = players::table
        .filter(players::world_id.eq(world_id))
        .filter(players::user_id.eq(actor.user_id))
        .select((players::nation_id, players::id, players::first_steps))
        .first(conn)
        .optional()?;
    Ok(row.map(|(nation, player_id, bits)| (nation, first_steps::Row { player_id, bits })))
}

fn between(
    conn: &mut DbConnection,
    actor: &Actor,
    reader: Option<(NationId, first_steps::Row)>,
    world_id: WorldId,
    since: EventId,
    before: EventId,
    limit: i64,
) -> GameResult<Vec<Event>> {
    let mut q = events::table
        .filter(events::world_id.eq(world_id))
        .filter(events::id.gt(since))
        .filter(events::id.lt(before))
        .filter(events::kind.eq_any(known_kinds()))
        .into_boxed();
    q = match reader.map(|(nation, _)| nation) {
        Some(n) => q.filter(
            events::nation_id
                .is_null()
                .and(events::other_nation_id.is_null())
                .or(events::nation_id.eq(n))
                .or(events::other_nation_id.eq(n))
                .or(events::actor_user_id.eq(actor.user_id))
                .or(events::target_user_id.eq(actor.user_id)),
        ),
        None => q.filter(
            events::nation_id
                .is_null()
                .and(events::other_nation_id.is_null()),
        ),
    };
    Ok(q.order(events::id.desc())
        .limit(limit)
        .select(Event::as_select())
        .load(conn)?)
}

/// One event of a world, if the actor may read it.
pub fn visible_event(
    conn: &mut DbConnection,
    actor: &Actor,
    world_id: WorldId,
    id: EventId,
) -> GameResult<Option<Event>> {
    Ok(visible_between(
        conn,
        actor,
        world_id,
        EventId(id.0 - 1),
        EventId(id.0.saturating_add(1)),
        1,
    )?
    .into_iter()
    .next())
}
