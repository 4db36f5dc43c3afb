//! Web Push: the server's VAPID key, the browsers of each player that take pushes
//! (subscriptions), and what a player wants pushed beyond the alerts and when (reminders,
//! quiet hours, a daily cap). What a browser is sent goes through the outbox
//! (`super::outbox`), encrypted for it by `crate::webpush`.

use crate::db::schema::{deliveries, push_keys, push_settings, push_subscriptions};
use crate::db::{self, DbConnection};
use crate::game::error::{GameError, GameResult};
use crate::ids::{SubscriptionId, UserId};
use crate::webpush::{SubscriptionKeys, VapidKey};
use diesel::prelude::*;

/// Longest push endpoint kept (those of the big push services are a few hundred bytes).
pub const ENDPOINT_MAX: usize = 1000;
/// Pushes a day when the player has not said.
pub const DAILY_CAP: i32 = 20;
/// The most a player may ask for.
pub const DAILY_CAP_MAX: i32 = 200;

/// The server's VAPID key pair, made by the first process that asks (one row: two processes
/// asking at once keep the same one).
pub fn vapid_key(conn: &mut DbConnection) -> GameResult<VapidKey> {
    if let Some(k) = stored_key(conn)? {
        return Ok(k);
    }
    let made = VapidKey::generate();
    let row = (
        push_keys::id.eq(1),
        push_keys::private_key.eq(made.private_base64()),
        push_keys::public_key.eq(made.public_base64()),
        push_keys::created_at.eq(db::now()),
    );
    crate::on_backend!(conn, c => diesel::insert_into(push_keys::table)
        .values(row.clone())
        .on_conflict_do_nothing()
        .execute(c))?;
    stored_key(conn)?.ok_or_else(|| GameError::Internal("the VAPID key was not kept".into()))
}

fn stored_key(conn: &mut DbConnection) -> GameResult<Option<VapidKey>> {
    let text: Option<String> = push_keys::table
        .find(1)
        .select(push_keys::private_key)
        .first(conn)
        .optional()?;
    match text {
        None => Ok(None),
        Some(t) => VapidKey::from_base64(&t)
            .map(Some)
            .ok_or_else(|| GameError::Internal("the kept VAPID key does not read".into())),
    }
}

/// Replaces the VAPID key pair. Push services refuse pushes signed by another key than the one
/// a browser subscribed with, so every subscription ends (the pages subscribe again with the
/// new key). Returns the new key and how many subscriptions ended.
pub fn rotate_key(conn: &mut DbConnection) -> GameResult<(VapidKey, usize)> {
    let made = VapidKey::generate();
    db::write(conn, |conn| {
        diesel::delete(deliveries::table.filter(deliveries::subscription_id.is_not_null()))
            .execute(conn)?;
        let ended = diesel::delete(push_subscriptions::table).execute(conn)?;
        diesel::delete(push_keys::table).execute(conn)?;
        diesel::insert_into(push_keys::table)
            .values((
                push_keys::id.eq(1),
                push_keys::private_key.eq(made.private_base64()),
                push_keys::public_key.eq(made.public_base64()),
                push_keys::created_at.eq(db::now()),
            ))
            .execute(conn)?;
        Ok((made.clone(), ended))
    })
}

#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = push_subscriptions)]
pub struct Subscription {
    pub id: SubscriptionId,
    pub endpoint: String,
    pub created_at: i64,
    pub failures: i32,
    pub last_error: Option<String>,
}

/// A subscription as a browser gives it (`PushSubscription.toJSON()`), read: the endpoint
/// within its length, the keys valid P-256 and 16 bytes.
pub struct NewSubscription {
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
}

impl NewSubscription {
    pub fn parse(endpoint: &str, p256dh: &str, auth: &str) -> GameResult<NewSubscription> {
        let endpoint = endpoint.trim();
        if endpoint.is_empty() || endpoint.len() > ENDPOINT_MAX {
            return Err(GameError::Invalid(
                format!("a push endpoint is 1 to {ENDPOINT_MAX} characters").into(),
            ));
        }
        if crate::webpush::audience(endpoint).is_none() {
            return Err(GameError::Invalid(
                "a push endpoint is an http(s) address".into(),
            ));
        }
        SubscriptionKeys::parse(p256dh, auth).map_err(|e| GameError::Invalid(e.into()))?;
        Ok(NewSubscription {
            endpoint: endpoint.to_string(),
            p256dh: p256dh.trim().to_string(),
            auth: auth.trim().to_string(),
        })
    }
}

/// Keeps `user`'s browser subscription. A browser has one subscription per site: the same
/// endpoint sent again by its owner takes the new keys; sent by another account logged in on
/// that browser (the same keys: only the browser has them), it becomes that account's, within
/// its devices, and what still waited for the former account is dropped. The same endpoint
/// with other keys from another account is refused: it would take a stranger's device.
pub fn subscribe(
    conn: &mut DbConnection,
    user: UserId,
    new: &NewSubscription,
    limit: usize,
) -> GameResult<Subscription> {
    db::write(conn, |conn| {
        let existing: Option<(SubscriptionId, UserId, String, String)> = push_subscriptions::table
            .filter(push_subscriptions::endpoint.eq(&new.endpoint))
            .select((
                push_subscriptions::id,
                push_subscriptions::user_id,
                push_subscriptions::p256dh,
                push_subscriptions::auth,
            ))
            .first(conn)
            .optional()?;
        let taken = || GameError::Conflict("this push endpoint is another account's".into());
        let id = match existing {
            Some((id, owner, ..)) if owner == user => {
                diesel::update(push_subscriptions::table.find(id))
                    .set((
                        push_subscriptions::p256dh.eq(&new.p256dh),
                        push_subscriptions::auth.eq(&new.auth),
                        push_subscriptions::failures.eq(0),
                        push_subscriptions::last_error.eq(None::<String>),
                    ))
                    .execute(conn)?;
                id
            }
            Some((id, _, p256dh, auth)) if p256dh == new.p256dh && auth == new.auth => {
                within_devices(conn, user, limit)?;
                diesel::delete(deliveries::table.filter(deliveries::subscription_id.eq(id)))
                    .execute(conn)?;
                diesel::update(push_subscriptions::table.find(id))
                    .set((
                        push_subscriptions::user_id.eq(user),
                        push_subscriptions::failures.eq(0),
                        push_subscriptions::last_error.eq(None::<String>),
                    ))
                    .execute(conn)?;
                id
            }
            Some(_) => return Err(taken()),
            None => {
                within_devices(conn, user, limit)?;
                let row = (
                    push_subscriptions::user_id.eq(user),
                    push_subscriptions::endpoint.eq(&new.endpoint),
                    push_subscriptions::p256dh.eq(&new.p256dh),
                    push_subscriptions::auth.eq(&new.auth),
                    push_subscriptions::created_at.eq(db::now()),
                );
                // Two tabs of one browser may send it at once: the second finds the first's.
                crate::on_backend!(conn, c => diesel::insert_into(push_subscriptions::table)
                    .values(row)
                    .on_conflict_do_nothing()
                    .execute(c))?;
                let (id, owner): (SubscriptionId, UserId) = push_subscriptions::table
                    .filter(push_subscriptions::endpoint.eq(&new.endpoint))
                    .select((push_subscriptions::id, push_subscriptions::user_id))
                    .first(conn)?;
                if owner != user {
                    return Err(taken());
                }
                id
            }
        };
        Ok(push_subscriptions::table
            .find(id)
            .select(Subscription::as_select())
            .first(conn)?)
    })
}

/// Refuses a device past `limit` for `user`.
fn within_devices(conn: &mut DbConnection, user: UserId, limit: usize) -> GameResult<()> {
    let held: i64 = push_subscriptions::table
        .filter(push_subscriptions::user_id.eq(user))
        .count()
        .get_result(conn)?;
    if held as usize >= limit {
        return Err(GameError::Conflict(
            format!("at most {limit} devices per player; remove one first").into(),
        ));
    }
    Ok(())
}

/// A user's subscriptions, oldest first.
pub fn subscriptions(conn: &mut DbConnection, user: UserId) -> GameResult<Vec<Subscription>> {
    Ok(push_subscriptions::table
        .filter(push_subscriptions::user_id.eq(user))
        .order(push_subscriptions::id)
        .select(Subscription::as_select())
        .load(conn)?)
}

/// Ends one of the user's subscriptions (and what waited for it).
pub fn unsubscribe(conn: &mut DbConnection, user: UserId, id: SubscriptionId) -> GameResult<()> {
    db::write(conn, |conn| {
        let mine = push_subscriptions::table
            .find(id)
            .filter(push_subscriptions::user_id.eq(user));
        if !diesel::select(diesel::dsl::exists(mine)).get_result::<bool>(conn)? {
            return Err(GameError::NotFound("no such device of yours".into()));
        }
        diesel::delete(deliveries::table.filter(deliveries::subscription_id.eq(id)))
            .execute(conn)?;
        diesel::delete(push_subscriptions::table.find(id)).execute(conn)?;
        Ok(())
    })
}

/// What a player wants pushed beyond the alerts, and when not.
#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = push_settings)]
pub struct Settings {
    /// A company of theirs reached its full action points at a turn.
    pub full_ap: bool,
    /// The turn is 30 minutes away and a company of theirs would lose action points to it.
    pub turn_unspent: bool,
    /// Their nation lost a castle section.
    pub section_lost: bool,
    /// Someone wrote on their nation's board.
    pub board: bool,
    /// Quiet hours, minutes of the day at `utc_offset`: pushes wait until they end.
    pub quiet_from: Option<i32>,
    pub quiet_to: Option<i32>,
    /// The player's offset from UTC, in minutes (east positive).
    pub utc_offset: i32,
    /// Pushes a day at most; the last says the rest waits on the site.
    pub daily_cap: i32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            full_ap: false,
            turn_unspent: false,
            section_lost: false,
            board: false,
            quiet_from: None,
            quiet_to: None,
            utc_offset: 0,
            daily_cap: DAILY_CAP,
        }
    }
}

impl Settings {
    /// Checks what a player asks for: minutes within a day, an offset within UTC−14…+14, a
    /// cap from 1 to `DAILY_CAP_MAX`, quiet hours given whole or not at all.
    pub fn checked(self) -> GameResult<Settings> {
        let day = 0..24 * 60;
        let bad = |m: &str| Err(GameError::Invalid(m.to_string().into()));
        match (self.quiet_from, self.quiet_to) {
            (None, None) => {}
            (Some(f), Some(t)) if day.contains(&f) && day.contains(&t) && f != t => {}
            _ => return bad("quiet hours are two different times of the day, HH:MM"),
        }
        if !(-14 * 60..=14 * 60).contains(&self.utc_offset) {
            return bad("utc_offset is minutes from UTC, from -840 to 840");
        }
        if !(1..=DAILY_CAP_MAX).contains(&self.daily_cap) {
            return bad(&format!("daily_cap is from 1 to {DAILY_CAP_MAX}"));
        }
        Ok(self)
    }

    /// The minutes from `now` until quiet hours end, or 0 outside them.
    pub fn quiet_wait(&self, now: i64) -> i64 {
        let (Some(from), Some(to)) = (self.quiet_from, self.quiet_to) else {
            return 0;
        };
        let minute = ((now + self.utc_offset as i64 * 60).rem_euclid(86_400) / 60) as i32;
        let inside = if from < to {
            (from..to).contains(&minute)
        } else {
            minute >= from || minute < to
        };
        if !inside {
            return 0;
        }
        (to - minute).rem_euclid(24 * 60) as i64
    }

    fn local_day(&self, now: i64) -> i64 {
        (now + self.utc_offset as i64 * 60).div_euclid(86_400)
    }
}

/// A user's settings (the defaults until they choose).
pub fn settings(conn: &mut DbConnection, user: UserId) -> GameResult<Settings> {
    Ok(push_settings::table
        .find(user)
        .select(Settings::as_select())
        .first(conn)
        .optional()?
        .unwrap_or_default())
}

/// Keeps what a user chose (read by `Settings::checked`).
pub fn set_settings(conn: &mut DbConnection, user: UserId, s: Settings) -> GameResult<Settings> {
    let s = s.checked()?;
    db::write(conn, |conn| {
        let values = (
            push_settings::full_ap.eq(s.full_ap),
            push_settings::turn_unspent.eq(s.turn_unspent),
            push_settings::section_lost.eq(s.section_lost),
            push_settings::board.eq(s.board),
            push_settings::quiet_from.eq(s.quiet_from),
            push_settings::quiet_to.eq(s.quiet_to),
            push_settings::utc_offset.eq(s.utc_offset),
            push_settings::daily_cap.eq(s.daily_cap),
        );
        crate::on_backend!(conn, c => diesel::insert_into(push_settings::table)
            .values((push_settings::user_id.eq(user), values))
            .on_conflict(push_settings::user_id)
            .do_update()
            .set(values)
            .execute(c))?;
        Ok::<_, GameError>(())
    })?;
    settings(conn, user)
}

/// When an alert's pushes go, if they go.
pub struct Plan {
    pub due_at: i64,
    pub last_of_day: bool,
}

/// Alerts the daily cap never holds back (they are counted): an enemy's messages must not
/// silence the attack that follows them.
const ALWAYS: &[&str] = &[
    super::alerts::ATTACKED,
    super::alerts::LOST_GROUND,
    super::alerts::TURN_SOON,
];

/// Counts one more push of `user`'s day (in the alert's transaction) and says when it goes:
/// after quiet hours, and, past the daily cap, not at all (the push that reaches it says so)
/// unless it is of a kind that always goes.
pub(super) fn plan(
    conn: &mut DbConnection,
    user: UserId,
    now: i64,
    kind: &str,
) -> QueryResult<Option<Plan>> {
    let row: Option<(Settings, i64, i32)> = push_settings::table
        .find(user)
        .select((
            Settings::as_select(),
            push_settings::day,
            push_settings::sent,
        ))
        .first(conn)
        .optional()?;
    let (s, day, sent) = row.unwrap_or_else(|| (Settings::default(), 0, 0));
    let today = s.local_day(now);
    let sent = if day == today { sent } else { 0 };
    let always = ALWAYS.contains(&kind);
    if sent >= s.daily_cap && !always {
        return Ok(None);
    }
    let counted = (
        push_settings::day.eq(today),
        push_settings::sent.eq(sent + 1),
    );
    crate::on_backend!(conn, c => diesel::insert_into(push_settings::table)
        .values((push_settings::user_id.eq(user), counted))
        .on_conflict(push_settings::user_id)
        .do_update()
        .set(counted)
        .execute(c))?;
    Ok(Some(Plan {
        due_at: now + s.quiet_wait(now) * 60,
        last_of_day: sent + 1 == s.daily_cap && !always,
    }))
}

/// The users among `users` who asked for `reminder` (for the code that raises reminders).
pub fn wanting(
    conn: &mut DbConnection,
    users: &[UserId],
    reminder: Reminder,
) -> QueryResult<Vec<UserId>> {
    let q = push_settings::table
        .filter(push_settings::user_id.eq_any(users))
        .select(push_settings::user_id);
    match reminder {
        Reminder::FullAp => q.filter(push_settings::full_ap).load(conn),
        Reminder::TurnUnspent => q.filter(push_settings::turn_unspent).load(conn),
        Reminder::SectionLost => q.filter(push_settings::section_lost).load(conn),
        Reminder::Board => q.filter(push_settings::board).load(conn),
    }
}

/// The reminders a player may ask for.
#[derive(Clone, Copy, Debug)]
pub enum Reminder {
    FullAp,
    TurnUnspent,
    SectionLost,
    Board,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiet(from: i32, to: i32, offset: i32) -> Settings {
        Settings {
            quiet_from: Some(from),
            quiet_to: Some(to),
            utc_offset: offset,
            ..Settings::default()
        }
    }

    #[test]
    fn quiet_hours_hold_pushes_until_they_end_across_midnight_and_time_zones() {
        // 22:00–07:00 at UTC: 23:30 waits 7 h 30, 06:59 one minute, 07:00 and 12:00 none.
        let night = quiet(22 * 60, 7 * 60, 0);
        let at = |h: i64, m: i64| 86_400 * 100 + h * 3600 + m * 60;
        assert_eq!(night.quiet_wait(at(23, 30)), 450);
        assert_eq!(night.quiet_wait(at(6, 59)), 1);
        assert_eq!(night.quiet_wait(at(7, 0)), 0);
        assert_eq!(night.quiet_wait(at(12, 0)), 0);
        // The same hours at UTC+2: 21:00 UTC is 23:00 there.
        assert_eq!(quiet(22 * 60, 7 * 60, 120).quiet_wait(at(21, 0)), 480);
        // Within a day: 13:00–14:00.
        assert_eq!(quiet(13 * 60, 14 * 60, 0).quiet_wait(at(13, 15)), 45);
        assert_eq!(quiet(13 * 60, 14 * 60, 0).quiet_wait(at(12, 59)), 0);
    }

    #[test]
    fn settings_out_of_range_are_refused() {
        assert!(quiet(0, 0, 0).checked().is_err());
        assert!(quiet(0, 1440, 0).checked().is_err());
        assert!(quiet(60, 120, 900).checked().is_err());
        let half = Settings {
            quiet_from: Some(60),
            ..Settings::default()
        };
        assert!(half.checked().is_err());
        let none = Settings {
            daily_cap: 0,
            ..Settings::default()
        };
        assert!(none.checked().is_err());
        assert!(quiet(22 * 60, 7 * 60, -300).checked().is_ok());
    }
}
