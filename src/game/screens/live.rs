//! What the live streams of a world are made from, read once for all of a process's streams
//! of the world after each batch of changes: the world's row, its companies and what each
//! nation sees of them (the map's own test, [`Eyes`]), and for the users with a stream the
//! badge, the alerts and the reports that came. Each stream then takes its player's part.

use crate::config::Config;
use crate::db::models::{Nation, World};
use crate::db::schema::{alerts, events, users};
use crate::db::DbConnection;
use crate::game::error::GameResult;
use crate::game::maps::{cells, worlds};
use crate::game::news::alerts::Alert;
use crate::game::play::load::{self, Placed};
use crate::game::play::views::Eyes;
use crate::game::time::clock;
use crate::ids::{AlertId, EventId, NationId, UserId, WorldId};
use crate::rules::names::EventKind;
use crate::rules::{Pos, Terrain};
use diesel::prelude::*;
use std::collections::HashMap;

/// Where a world stands, as its streams tell it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    pub turn: i32,
    pub season: crate::rules::Season,
    /// UNIX seconds; none when no turn is due (a paused or ended world, no schedule).
    pub next_turn_at: Option<i64>,
    pub paused: bool,
    pub ended: bool,
}

/// A company a nation sees, where and how (the other fields are its row's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sighting {
    /// Its place in [`Frame::companies`].
    pub index: usize,
    pub hidden: bool,
    pub on_leave: bool,
}

/// A world read for its streams.
pub struct Frame {
    pub world: World,
    pub clock: Clock,
    pub nations: Vec<Nation>,
    /// Every company of the world, by id.
    pub companies: Vec<Placed>,
    /// What each nation asked for sees, by company id.
    pub sights: HashMap<NationId, Vec<Sighting>>,
}

impl Frame {
    /// The companies of one user, in id order.
    pub fn own(&self, user: UserId) -> impl Iterator<Item = &Placed> {
        self.companies.iter().filter(move |p| p.user_id == user)
    }
}

/// Reads world `world_id` with the sight of each of `nations`.
pub fn frame(
    conn: &mut DbConnection,
    config: &Config,
    world_id: WorldId,
    nations: &[NationId],
) -> GameResult<Frame> {
    let rs = &config.rules;
    let world = worlds::get(conn, world_id)?;
    let all_nations = worlds::nations_of(conn, world_id)?;
    let ended = world.ended();
    let next_turn_at = if ended || world.paused {
        None
    } else {
        clock::next_turn(conn, config, &world)?
    };
    let clock = Clock {
        turn: world.turn,
        season: world.season,
        next_turn_at,
        paused: world.paused,
        ended,
    };
    let world_cells = cells::of(conn, &world)?;
    let terrain_at = |p: Pos| world_cells.get(p).map_or(Terrain::Plain, |c| c.terrain);
    let mut companies =
        load::companies_in(conn, world_id, 0, 0, world.width - 1, world.height - 1)?;
    companies.sort_by_key(|p| p.company.id);
    let now = crate::db::now();
    let mut sights = HashMap::new();
    for nation in nations {
        let eyes = Eyes::of(rs, &world, &companies, Some(*nation), terrain_at);
        let seen = companies
            .iter()
            .enumerate()
            .filter_map(|(index, p)| {
                let (seen, hidden) = eyes.spot(rs, p, terrain_at);
                seen.then_some(Sighting {
                    index,
                    hidden,
                    on_leave: crate::rules::leave::on_leave(p.leave_until, now),
                })
            })
            .collect();
        sights.insert(*nation, seen);
    }
    Ok(Frame {
        world,
        clock,
        nations: all_nations,
        companies,
        sights,
    })
}

/// The messages' badge of each of `users`.
pub fn unread(conn: &mut DbConnection, users: &[UserId]) -> GameResult<HashMap<UserId, i32>> {
    let mut out = HashMap::with_capacity(users.len());
    // In slices: a statement's binds are bounded (SQLite: 32,766).
    for chunk in users.chunks(1000) {
        let rows: Vec<(UserId, i32)> = users::table
            .filter(users::id.eq_any(chunk))
            .select((users::id, users::unread_messages))
            .load(conn)?;
        out.extend(rows);
    }
    Ok(out)
}

/// A user's alerts of a world after `after`, oldest first (at most `limit`).
pub fn alerts_after(
    conn: &mut DbConnection,
    user: UserId,
    world: WorldId,
    after: AlertId,
    limit: i64,
) -> GameResult<Vec<Alert>> {
    Ok(alerts::table
        .filter(alerts::user_id.eq(user))
        .filter(alerts::world_id.eq(world))
        .filter(alerts::id.gt(after))
        .order(alerts::id)
        .limit(limit)
        .select(Alert::as_select())
        .load(conn)?)
}

/// A user's alerts of a world given at `since` or later, oldest first (at most `limit`).
pub fn alerts_since(
    conn: &mut DbConnection,
    user: UserId,
    world: WorldId,
    since: i64,
    limit: i64,
) -> GameResult<Vec<Alert>> {
    let mut newest: Vec<Alert> = alerts::table
        .filter(alerts::user_id.eq(user))
        .filter(alerts::world_id.eq(world))
        .filter(alerts::at.ge(since))
        .order(alerts::id.desc())
        .limit(limit)
        .select(Alert::as_select())
        .load(conn)?;
    newest.reverse();
    Ok(newest)
}

/// The newest alert of a user in a world (0 when none): where a new stream's alerts start.
pub fn last_alert(conn: &mut DbConnection, user: UserId, world: WorldId) -> GameResult<AlertId> {
    let id: Option<AlertId> = alerts::table
        .filter(alerts::user_id.eq(user))
        .filter(alerts::world_id.eq(world))
        .select(diesel::dsl::max(alerts::id))
        .first(conn)?;
    Ok(id.unwrap_or(AlertId(0)))
}

/// An event a stream may report: who gave it and who suffered it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reported {
    pub id: EventId,
    pub kind: EventKind,
    pub actor: Option<UserId>,
    pub target: Option<UserId>,
}

/// The events of these ids (those still kept).
pub fn reported(conn: &mut DbConnection, ids: &[EventId]) -> GameResult<Vec<Reported>> {
    let mut out = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(1000) {
        let rows: Vec<(EventId, EventKind, Option<UserId>, Option<UserId>)> = events::table
            .filter(events::id.eq_any(chunk))
            .select((
                events::id,
                events::kind,
                events::actor_user_id,
                events::target_user_id,
            ))
            .load(conn)?;
        out.extend(rows.into_iter().map(|(id, kind, actor, target)| Reported {
            id,
            kind,
            actor,
            target,
        }));
    }
    Ok(out)
}
