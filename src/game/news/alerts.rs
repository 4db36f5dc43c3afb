//! What a player is told while away: one of their companies attacked, ground of their nation
//! taken, a turn about to begin. Alerts are written in the transaction of what caused them; the
//! site shows them (unread until the list is seen), and players who ask for it get them by mail,
//! at most one mail per period, through `crate::mail`.

use crate::db::live;
use crate::db::models::NewEvent;
use crate::db::schema::{alerts, players, users};
use crate::db::{self, DbConnection};
use crate::game::error::GameResult;
use crate::i18n::Lang;
use crate::ids::{AlertId, EventId, NationId, UserId, WorldId};
use crate::rules::names::{EventKind, LiveTopic};
use crate::said::{self, Said};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Integer, Text};
use std::collections::{HashMap, HashSet};

pub const ATTACKED: &str = "attacked";
pub const LOST_GROUND: &str = "lost_ground";
pub const TURN_SOON: &str = "turn_soon";
pub const CAMPAIGN_OVER: &str = "campaign_over";
/// A private message came (game::talk).
pub const MESSAGE: &str = "message";
/// A game master spoke to the whole world.
pub const ANNOUNCEMENT: &str = "announcement";
/// One of the player's webhooks kept failing and was turned off.
pub const WEBHOOK_OFF: &str = "webhook_off";
/// Reminders, told only to players who asked for them (`push::Settings`): companies at their
/// full action points after a turn; the turn near with action points it would waste; a castle
/// section of the nation lost; a message on the nation's board.
pub const FULL_AP: &str = "full_ap";
pub const TURN_UNSPENT: &str = "turn_unspent";
pub const SECTION_LOST: &str = "section_lost";
pub const BOARD: &str = "board";

#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = alerts)]
pub struct Alert {
    pub id: AlertId,
    pub world_id: WorldId,
    pub kind: String,
    pub summary: String,
    pub at: i64,
    pub read_at: Option<i64>,
    pub said: String,
}

fn add(
    conn: &mut DbConnection,
    user_id: UserId,
    e: &NewEvent,
    event_id: EventId,
    kind: &str,
) -> QueryResult<()> {
    let what = Told {
        world_id: e.world_id,
        event_id: Some(event_id),
        kind,
        summary: &e.summary,
        said: &e.said,
        at: e.at,
    };
    tell(conn, user_id, &what)
}

/// An alert as written: its sentence in English (`summary`) and as keys (`said`).
pub struct Told<'a> {
    pub world_id: WorldId,
    pub event_id: Option<EventId>,
    pub kind: &'a str,
    pub summary: &'a str,
    pub said: &'a str,
    pub at: i64,
}

/// Tells one user, in the caller's transaction; never a bot, whose alerts nobody reads (a
/// bots' turn of captures wrote hundreds of them, each with a mail queued).
pub fn tell(conn: &mut DbConnection, user_id: UserId, t: &Told) -> QueryResult<()> {
    let counted = diesel::update(users::table.find(user_id))
        .filter(users::bot.eq(false))
        .set(users::unread_alerts.eq(users::unread_alerts + 1))
        .execute(conn)?;
    if counted == 0 {
        return Ok(());
    }
    let id: AlertId = diesel::insert_into(alerts::table)
        .values((
            alerts::user_id.eq(user_id),
            alerts::world_id.eq(t.world_id),
            alerts::event_id.eq(t.event_id),
            alerts::kind.eq(t.kind),
            alerts::summary.eq(t.summary),
            alerts::said.eq(t.said),
            alerts::at.eq(t.at),
        ))
        .returning(alerts::id)
        .get_result(conn)?;
    super::outbox::enqueue(conn, user_id, (id, t.kind), db::now())?;
    live::note(
        conn,
        Some(t.world_id),
        LiveTopic::Alert,
        Some(user_id),
        None,
    )
}

/// The alerts events call for, in their order: the defender of a volley or a charge is told,
/// and every player of a nation that lost ground to a move. Who of the nations that lost ground
/// are people is asked once for them all, and who of the defenders when there are several (a
/// bot's chunk asked it of each volley at the other bot, a round trip each, to tell no one).
pub fn from_events(conn: &mut DbConnection, all: &[(&NewEvent, EventId)]) -> QueryResult<()> {
    let attacked = |e: &NewEvent| match e.kind {
        EventKind::Volley | EventKind::Melee => {
            e.target_user_id.filter(|t| Some(*t) != e.actor_user_id)
        }
        _ => None,
    };
    let lost = |e: &NewEvent| match e.kind {
        EventKind::Move => e.other_nation_id.map(|n| (e.world_id, n)),
        _ => None,
    };
    let defenders: Vec<UserId> = all.iter().filter_map(|(e, _)| attacked(e)).collect();
    let people_attacked: Option<HashSet<UserId>> = match defenders.len() {
        0 | 1 => None,
        _ => Some(
            users::table
                .filter(users::id.eq_any(&defenders))
                .filter(users::bot.eq(false))
                .select(users::id)
                .load::<UserId>(conn)?
                .into_iter()
                .collect(),
        ),
    };
    let losers: Vec<(WorldId, NationId)> = all.iter().filter_map(|(e, _)| lost(e)).collect();
    // One query a world, as many as one event alone asked.
    let mut members: HashMap<(WorldId, NationId), Vec<UserId>> = HashMap::new();
    let mut worlds: Vec<WorldId> = losers.iter().map(|(w, _)| *w).collect();
    worlds.sort_unstable();
    worlds.dedup();
    for w in worlds {
        let nations: Vec<NationId> = losers
            .iter()
            .filter(|(lw, _)| *lw == w)
            .map(|(_, n)| *n)
            .collect();
        let rows: Vec<(NationId, UserId)> = people(w)
            .filter(players::nation_id.eq_any(nations))
            .order(players::id)
            .select((players::nation_id, players::user_id))
            .load(conn)?;
        for (n, u) in rows {
            members.entry((w, n)).or_default().push(u);
        }
    }
    for (e, event_id) in all {
        let (e, event_id) = (*e, *event_id);
        // Every kind named: a new kind must say here whom it alerts.
        match e.kind {
            EventKind::Volley | EventKind::Melee => {
                let Some(target) = attacked(e) else { continue };
                if people_attacked.as_ref().is_none_or(|p| p.contains(&target)) {
                    add(conn, target, e, event_id, ATTACKED)?;
                }
            }
            EventKind::Move => {
                let Some((w, loser)) = lost(e) else { continue };
                for user in members.get(&(w, loser)).into_iter().flatten() {
                    add(conn, *user, e, event_id, LOST_GROUND)?;
                }
            }
            EventKind::CampaignEnd => {
                let everyone: Vec<UserId> =
                    people(e.world_id).select(players::user_id).load(conn)?;
                for user in everyone {
                    add(conn, user, e, event_id, CAMPAIGN_OVER)?;
                }
            }
            EventKind::Bombard
            | EventKind::Ram
            | EventKind::Repair
            | EventKind::SiegeTower
            | EventKind::Bridge
            | EventKind::Heal
            | EventKind::Reinforce
            | EventKind::Raise
            | EventKind::Leave
            | EventKind::Turn
            | EventKind::Season => {}
        }
    }
    Ok(())
}

/// The players of a world who are people: bots are never told.
#[diesel::dsl::auto_type]
fn people(world: WorldId) -> _ {
    players::table
        .inner_join(users::table)
        .filter(players::world_id.eq(world))
        .filter(users::bot.eq(false))
}

#[derive(QueryableByName)]
struct Written {
    #[diesel(sql_type = Integer)]
    id: AlertId,
}

/// Tells every player of a world (not on leave) that the turn of instant `turn_at` is near;
/// once per player and turn, whichever server process gets here first. Returns how many.
pub fn turn_soon(
    conn: &mut DbConnection,
    world_id: WorldId,
    turn_at: i64,
    said: &Said,
) -> GameResult<usize> {
    let (summary, said) = (said.render(Lang::En), said.encode());
    db::write(conn, |conn| {
        let now = db::now();
        let due: Vec<UserId> = people(world_id)
            .filter(
                players::leave_until
                    .is_null()
                    .or(players::leave_until.le(now)),
            )
            .select(players::user_id)
            .load(conn)?;
        let once = Told {
            world_id,
            event_id: None,
            kind: TURN_SOON,
            summary: &summary,
            said: &said,
            // The turn's instant: the unique index keeps it to one per player and turn.
            at: turn_at,
        };
        let mut told = 0;
        for user in due {
            if tell_once(conn, user, &once, now)? {
                told += 1;
            }
        }
        Ok(told)
    })
}

/// Tells one user unless they were told this kind for this world and instant already (the
/// unique index of once-a-turn alerts), in the caller's transaction: whether it was told.
pub fn tell_once(conn: &mut DbConnection, user: UserId, t: &Told, now: i64) -> QueryResult<bool> {
    let sql = if conn.is_sqlite() {
        "INSERT INTO alerts (user_id, world_id, kind, summary, said, at) \
         VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id"
    } else {
        "INSERT INTO alerts (user_id, world_id, kind, summary, said, at) \
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING id"
    };
    let written: Vec<Written> = diesel::sql_query(sql)
        .bind::<Integer, _>(user)
        .bind::<Integer, _>(t.world_id)
        .bind::<Text, _>(t.kind)
        .bind::<Text, _>(t.summary)
        .bind::<Text, _>(t.said)
        .bind::<BigInt, _>(t.at)
        .load(conn)?;
    let Some(w) = written.first() else {
        return Ok(false);
    };
    super::outbox::enqueue(conn, user, (w.id, t.kind), now)?;
    diesel::update(users::table.find(user))
        .set(users::unread_alerts.eq(users::unread_alerts + 1))
        .execute(conn)?;
    live::note(conn, Some(t.world_id), LiveTopic::Alert, Some(user), None)?;
    Ok(true)
}

/// A user's latest alerts, newest first; seeing them marks them read.
pub fn seen(conn: &mut DbConnection, user_id: UserId, limit: i64) -> GameResult<Vec<Alert>> {
    db::write(conn, |conn| {
        let list = alerts::table
            .filter(alerts::user_id.eq(user_id))
            .order(alerts::id.desc())
            .limit(limit)
            .select(Alert::as_select())
            .load(conn)?;
        diesel::update(
            alerts::table
                .filter(alerts::user_id.eq(user_id))
                .filter(alerts::read_at.is_null()),
        )
        .set(alerts::read_at.eq(Some(db::now())))
        .execute(conn)?;
        diesel::update(users::table.find(user_id))
            .set(users::unread_alerts.eq(0))
            .execute(conn)?;
        Ok(list)
    })
}

/// One mail to send: the alerts of one user not mailed yet, claimed for this mail.
#[derive(Clone, Debug)]
pub struct Mail {
    pub user_id: UserId,
    pub username: String,
    pub to: String,
    pub unsubscribe_token: String,
    /// Each alert: its id and its sentence in the player's language.
    pub alerts: Vec<(AlertId, String)>,
    /// The language the player chose, if any.
    pub lang: Option<String>,
}

/// Claims the mails due at `now`: users who asked for mail, with alerts not yet mailed, whose
/// last mail is at least `period` seconds old. Marks their alerts mailed and the users mailed
/// now, in one transaction, so that two processes never send the same alerts.
pub fn claim_mails(conn: &mut DbConnection, now: i64, period: i64) -> GameResult<Vec<Mail>> {
    db::write(conn, |conn| {
        type Row = (
            UserId,
            String,
            Option<String>,
            Option<String>,
            Option<String>,
        );
        let who: Vec<Row> = users::table
            .filter(users::alert_mail.eq(true))
            .filter(users::email.is_not_null())
            .filter(users::banned.eq(false))
            .filter(
                users::last_mail_at
                    .is_null()
                    .or(users::last_mail_at.le(now - period)),
            )
            .filter(diesel::dsl::exists(
                alerts::table
                    .filter(alerts::user_id.eq(users::id))
                    .filter(alerts::mailed_at.is_null())
                    .filter(alerts::read_at.is_null()),
            ))
            .select((
                users::id,
                users::username,
                users::email,
                users::unsubscribe_token,
                users::lang,
            ))
            .load(conn)?;
        let mut out = Vec::new();
        for (id, username, email, token, lang) in who {
            let (Some(to), Some(token)) = (email, token) else {
                continue;
            };
            let reader = lang.as_deref().and_then(Lang::parse).unwrap_or_default();
            let list: Vec<(AlertId, String)> = alerts::table
                .filter(alerts::user_id.eq(id))
                .filter(alerts::mailed_at.is_null())
                .filter(alerts::read_at.is_null())
                .order(alerts::id)
                .select((alerts::id, alerts::summary, alerts::said))
                .load::<(AlertId, String, String)>(conn)?
                .into_iter()
                .map(|(i, summary, s)| (i, said::stored(reader, &s, &summary)))
                .collect();
            let ids: Vec<AlertId> = list.iter().map(|(i, _)| *i).collect();
            diesel::update(alerts::table.filter(alerts::id.eq_any(&ids)))
                .set(alerts::mailed_at.eq(Some(now)))
                .execute(conn)?;
            diesel::update(users::table.find(id))
                .set(users::last_mail_at.eq(Some(now)))
                .execute(conn)?;
            out.push(Mail {
                user_id: id,
                username,
                to,
                unsubscribe_token: token,
                alerts: list,
                lang,
            });
        }
        Ok(out)
    })
}

/// Gives back a mail that could not be sent: its alerts go in the next one.
pub fn unclaim(conn: &mut DbConnection, mail: &Mail) -> GameResult<()> {
    let ids: Vec<AlertId> = mail.alerts.iter().map(|(i, _)| *i).collect();
    db::write(conn, |conn| {
        diesel::update(alerts::table.filter(alerts::id.eq_any(&ids)))
            .set(alerts::mailed_at.eq(None::<i64>))
            .execute(conn)?;
        diesel::update(users::table.find(mail.user_id))
            .set(users::last_mail_at.eq(None::<i64>))
            .execute(conn)?;
        Ok(())
    })
}

/// Sets where and whether a user gets alerts by mail. A new unsubscribe token comes with
/// every opt-in, so that an old mail's link cannot undo a later choice.
pub fn set_mail(
    conn: &mut DbConnection,
    user_id: UserId,
    email: Option<String>,
    on: bool,
) -> GameResult<()> {
    let token = on.then(|| crate::game::accounts::secret::random_hex(24));
    db::write(conn, |conn| {
        diesel::update(users::table.find(user_id))
            .set((
                users::email.eq(email.as_deref()),
                users::alert_mail.eq(on),
                users::unsubscribe_token.eq(token.as_deref()),
            ))
            .execute(conn)?;
        Ok(())
    })
}

/// One click from a mail: no more mail for the user holding `token`. Whether it matched one.
pub fn unsubscribe(conn: &mut DbConnection, token: &str) -> GameResult<bool> {
    if token.len() != 48 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(false);
    }
    let n = db::write(conn, |conn| {
        Ok::<_, crate::game::GameError>(
            diesel::update(users::table.filter(users::unsubscribe_token.eq(Some(token))))
                .set((
                    users::alert_mail.eq(false),
                    users::unsubscribe_token.eq(None::<String>),
                ))
                .execute(conn)?,
        )
    })?;
    Ok(n > 0)
}
