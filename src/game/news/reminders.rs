//! Reminders a player asked for (`push::Settings`): alerts of their own kinds, told only to
//! those who chose them, and so pushed like any alert. Each is raised in the transaction of
//! what it tells of (a turn's chunk, the turn's end, a message), or once per player and turn
//! by the unique index of alerts: never twice.

use super::alerts::{self, Told};
use super::push::{self, Reminder};
use crate::db::schema::{castle_sections, castles, companies, players, push_settings};
use crate::db::{self, DbConnection};
use crate::i18n::Lang;
use crate::ids::{NationId, PlayerId, UserId, WorldId};
use crate::rules::ruleset::Ruleset;
use crate::rules::Kind;
use crate::said::Said;
use diesel::prelude::*;
use std::collections::BTreeMap;

/// Names listed in one reminder at most (the count says the rest).
const NAMES: usize = 5;

/// The players of a world whose accounts asked for `reminder` (read once per turn: most ask
/// for none, and a turn then costs nothing more).
pub fn askers(
    conn: &mut DbConnection,
    world: WorldId,
    reminder: Reminder,
) -> QueryResult<Vec<PlayerId>> {
    let q = players::table
        .inner_join(push_settings::table.on(push_settings::user_id.eq(players::user_id)))
        .filter(players::world_id.eq(world))
        .select(players::id)
        .into_boxed();
    match reminder {
        Reminder::FullAp => q.filter(push_settings::full_ap).load(conn),
        Reminder::TurnUnspent => q.filter(push_settings::turn_unspent).load(conn),
        Reminder::SectionLost => q.filter(push_settings::section_lost).load(conn),
        Reminder::Board => q.filter(push_settings::board).load(conn),
    }
}

/// The companies of `askers` with ids in `(through, upto]`, their players not on leave at
/// `at`: (user, name, kind, action points).
fn companies_of(
    conn: &mut DbConnection,
    world: WorldId,
    askers: &[PlayerId],
    (through, upto): (i32, i32),
    at: i64,
) -> QueryResult<Vec<(UserId, String, String, i32)>> {
    let mut found = Vec::new();
    // In groups: SQLite binds at most 32,766 values to a statement.
    for group in askers.chunks(5000) {
        found.extend(
            companies::table
                .inner_join(players::table)
                .filter(companies::world_id.eq(world))
                .filter(companies::player_id.eq_any(group))
                .filter(companies::id.gt(through))
                .filter(companies::id.le(upto))
                .filter(
                    players::leave_until
                        .is_null()
                        .or(players::leave_until.le(at)),
                )
                .order(companies::id)
                .select((
                    players::user_id,
                    companies::name,
                    companies::kind,
                    companies::ap,
                ))
                .load::<(UserId, String, String, i32)>(conn)?,
        );
    }
    Ok(found)
}

/// Who of `askers` (`askers(…, FullAp)`), by user, have companies among `(through, upto]` that
/// reach their full action points with the turn of `at` (read before the turn is given): the
/// names.
pub fn reaching_full_ap(
    conn: &mut DbConnection,
    rs: &Ruleset,
    world: WorldId,
    askers: &[PlayerId],
    span: (i32, i32),
    at: i64,
) -> QueryResult<BTreeMap<UserId, Vec<String>>> {
    let mut by_user: BTreeMap<UserId, Vec<String>> = BTreeMap::new();
    for (user, name, kind, ap) in companies_of(conn, world, askers, span, at)? {
        let Ok(kind) = kind.parse::<Kind>() else {
            continue;
        };
        let k = rs.kind(kind);
        if ap < k.max_ap && ap + k.ap_per_turn >= k.max_ap {
            by_user.entry(user).or_default().push(name);
        }
    }
    Ok(by_user)
}

fn listed(names: &[String]) -> String {
    let mut text = names
        .iter()
        .take(NAMES)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > NAMES {
        text.push_str(", …");
    }
    text
}

fn tell_each(
    conn: &mut DbConnection,
    world: WorldId,
    kind: &str,
    at: i64,
    told: impl IntoIterator<Item = (UserId, Said)>,
) -> QueryResult<usize> {
    let mut n = 0;
    for (user, said) in told {
        let (summary, said) = (said.render(Lang::En), said.encode());
        alerts::tell(
            conn,
            user,
            &Told {
                world_id: world,
                event_id: None,
                kind,
                summary: &summary,
                said: &said,
                at,
            },
        )?;
        n += 1;
    }
    Ok(n)
}

/// Tells those of `reaching_full_ap` (in the chunk's transaction, after the turn is given).
pub fn tell_full_ap(
    conn: &mut DbConnection,
    world: WorldId,
    reached: BTreeMap<UserId, Vec<String>>,
    at: i64,
) -> QueryResult<usize> {
    let told = reached.into_iter().map(|(user, names)| {
        let said = Said::new("said-full-ap")
            .n("count", names.len() as i64)
            .s("names", listed(&names));
        (user, said)
    });
    tell_each(conn, world, alerts::FULL_AP, at, told)
}

/// Tells the players who asked, `minutes` before the turn of `turn_at`, which of their
/// companies would lose action points to it (their points and the turn's gain above the
/// kind's most). Once per player and turn. Returns how many were told.
pub fn turn_unspent(
    conn: &mut DbConnection,
    rs: &Ruleset,
    world: WorldId,
    turn_at: i64,
    minutes: i64,
) -> crate::game::GameResult<usize> {
    // Read first: the scheduler asks at every look during the half hour, and most worlds have
    // nobody who asked (no write transaction then).
    let askers = askers(conn, world, Reminder::TurnUnspent)?;
    if askers.is_empty() {
        return Ok(0);
    }
    db::write(conn, |conn| {
        let now = db::now();
        let mut by_user: BTreeMap<UserId, Vec<String>> = BTreeMap::new();
        for (user, name, kind, ap) in companies_of(conn, world, &askers, (0, i32::MAX), turn_at)? {
            let Ok(kind) = kind.parse::<Kind>() else {
                continue;
            };
            let k = rs.kind(kind);
            if ap + k.ap_per_turn > k.max_ap {
                by_user.entry(user).or_default().push(name);
            }
        }
        let mut told = 0;
        for (user, names) in by_user {
            let said = Said::new("said-turn-unspent")
                .n("minutes", minutes)
                .n("count", names.len() as i64)
                .s("names", listed(&names));
            let (summary, said) = (said.render(Lang::En), said.encode());
            let once = Told {
                world_id: world,
                event_id: None,
                kind: alerts::TURN_UNSPENT,
                summary: &summary,
                said: &said,
                // The turn's instant: the unique index keeps it to one per player and turn.
                at: turn_at,
            };
            if alerts::tell_once(conn, user, &once, now)? {
                told += 1;
            }
        }
        Ok(told)
    })
}

/// The holders of a world's castle sections: (section, its name, its castle's name, holder).
pub type Holders = Vec<(i32, String, String, Option<NationId>)>;

pub fn holders(conn: &mut DbConnection, world: WorldId) -> QueryResult<Holders> {
    castle_sections::table
        .inner_join(castles::table.on(castles::id.eq(castle_sections::castle_id)))
        .filter(castle_sections::world_id.eq(world))
        .order(castle_sections::id)
        .select((
            castle_sections::id,
            castle_sections::name,
            castles::name,
            castle_sections::holder_id,
        ))
        .load(conn)
}

/// Tells the players who asked of each section their nation held `before` and does not
/// `after` (in the turn's last transaction, which moves the holders). Who holds it now is not
/// said: that is for the nation's sight.
pub fn sections_lost(
    conn: &mut DbConnection,
    world: WorldId,
    before: &Holders,
    after: &Holders,
    at: i64,
) -> QueryResult<usize> {
    let mut told = 0;
    for (id, section, castle, held) in before {
        let Some(loser) = held else { continue };
        let still = after
            .iter()
            .any(|(a, _, _, h)| a == id && h.as_ref() == Some(loser));
        if still {
            continue;
        }
        let members: Vec<UserId> = players::table
            .filter(players::world_id.eq(world))
            .filter(players::nation_id.eq(*loser))
            .select(players::user_id)
            .load(conn)?;
        let askers = push::wanting(conn, &members, Reminder::SectionLost)?;
        let said = Said::new("said-section-lost")
            .s("section", section)
            .s("castle", castle);
        told += tell_each(
            conn,
            world,
            alerts::SECTION_LOST,
            at,
            askers.into_iter().map(|u| (u, said.clone())),
        )?;
    }
    Ok(told)
}

/// Tells the players of `nation` who asked (not `author`, nor those who blocked them) that
/// `author_name` wrote on the nation's board, in the message's transaction.
pub fn board(
    conn: &mut DbConnection,
    world: WorldId,
    nation: NationId,
    (author, author_name): (UserId, &str),
    blocked_by: &[UserId],
    at: i64,
) -> QueryResult<usize> {
    let members: Vec<UserId> = players::table
        .filter(players::world_id.eq(world))
        .filter(players::nation_id.eq(nation))
        .filter(players::user_id.ne(author))
        .select(players::user_id)
        .load(conn)?;
    let askers = push::wanting(conn, &members, Reminder::Board)?;
    let said = Said::new("said-board").s("player", author_name);
    tell_each(
        conn,
        world,
        alerts::BOARD,
        at,
        askers
            .into_iter()
            .filter(|u| !blocked_by.contains(u))
            .map(|u| (u, said.clone())),
    )
}
