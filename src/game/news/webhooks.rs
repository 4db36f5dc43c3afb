//! Where a player's alerts also go: incoming webhooks (Discord, Slack, Matrix, or anything that
//! takes their JSON). Each alert is queued for each of its player's webhooks in the alert's own
//! transaction (the outbox, `deliveries`); a delivery process claims what is due, sends it and
//! deletes it, or puts it back with a later time. A webhook failing too many times in a row is
//! turned off and its player told.

use crate::db::schema::{alerts, deliveries, users, webhooks};
use crate::db::{self, DbConnection};
use crate::game::error::{GameError, GameResult};
use crate::ids::{AlertId, DeliveryId, EventId, UserId, WebhookId, WorldId};
use diesel::prelude::*;

/// Longest URL kept.
pub const URL_MAX: usize = 2000;

#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = webhooks)]
pub struct Webhook {
    pub id: WebhookId,
    pub url: String,
    pub created_at: i64,
    pub failures: i32,
    pub disabled_at: Option<i64>,
    pub last_error: Option<String>,
}

/// A webhook's address as given, trimmed and within its length: read before anything is done
/// with it (its host is then resolved).
pub fn parse_url(given: &str) -> GameResult<String> {
    let url = given.trim();
    if url.len() > URL_MAX {
        return Err(GameError::Invalid(
            format!("a webhook's address is at most {URL_MAX} characters").into(),
        ));
    }
    Ok(url.to_string())
}

/// Adds a webhook for `user` (its URL read by `parse_url` and checked), within `limit` per
/// user.
pub fn add(conn: &mut DbConnection, user: UserId, url: &str, limit: usize) -> GameResult<Webhook> {
    let url = parse_url(url)?;
    let url = url.as_str();
    db::write(conn, |conn| {
        let held: i64 = webhooks::table
            .filter(webhooks::user_id.eq(user))
            .count()
            .get_result(conn)?;
        if held as usize >= limit {
            return Err(GameError::Conflict(
                format!("at most {limit} webhooks per player; remove one first").into(),
            ));
        }
        let id: WebhookId = diesel::insert_into(webhooks::table)
            .values((
                webhooks::user_id.eq(user),
                webhooks::url.eq(url),
                webhooks::created_at.eq(db::now()),
            ))
            .returning(webhooks::id)
            .get_result(conn)?;
        Ok(webhooks::table
            .find(id)
            .select(Webhook::as_select())
            .first(conn)?)
    })
}

/// A user's webhooks, oldest first.
pub fn list(conn: &mut DbConnection, user: UserId) -> GameResult<Vec<Webhook>> {
    Ok(webhooks::table
        .filter(webhooks::user_id.eq(user))
        .order(webhooks::id)
        .select(Webhook::as_select())
        .load(conn)?)
}

/// Removes one of the user's webhooks (and what waited for it).
pub fn remove(conn: &mut DbConnection, user: UserId, id: WebhookId) -> GameResult<()> {
    db::write(conn, |conn| {
        diesel::delete(deliveries::table.filter(deliveries::webhook_id.eq(id))).execute(conn)?;
        let n = diesel::delete(
            webhooks::table
                .filter(webhooks::id.eq(id))
                .filter(webhooks::user_id.eq(user)),
        )
        .execute(conn)?;
        if n == 0 {
            return Err(GameError::NotFound("no such webhook of yours".into()));
        }
        Ok(())
    })
}

/// Queues `alert` for each of `user`'s working webhooks, in the alert's transaction.
pub fn enqueue(conn: &mut DbConnection, user: UserId, alert: AlertId, now: i64) -> QueryResult<()> {
    let targets: Vec<WebhookId> = webhooks::table
        .filter(webhooks::user_id.eq(user))
        .filter(webhooks::disabled_at.is_null())
        .select(webhooks::id)
        .load(conn)?;
    for w in targets {
        diesel::insert_into(deliveries::table)
            .values((
                deliveries::alert_id.eq(alert),
                deliveries::webhook_id.eq(Some(w)),
                deliveries::due_at.eq(now),
                // A row id would count the deliveries of every player.
                deliveries::key.eq(crate::game::accounts::secret::random_hex(16)),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// A delivery claimed for sending.
#[derive(Clone, Debug)]
pub struct Due {
    pub id: DeliveryId,
    /// Sent with it, the same on each try: the receiver may tell a retry from a new alert.
    pub key: String,
    pub attempts: i32,
    pub webhook: WebhookId,
    pub url: String,
    pub user: UserId,
    pub world: WorldId,
    pub event: Option<EventId>,
    pub kind: String,
    pub summary: String,
    pub said: String,
    pub lang: Option<String>,
}

/// Claims up to `limit` deliveries due at `now` for `lease` seconds: no other process takes
/// them meanwhile (PostgreSQL skips rows another claim holds; SQLite has one writer at a time).
/// One left claimed by a process that died is taken again when its lease ends.
pub fn claim(conn: &mut DbConnection, now: i64, lease: i64, limit: i64) -> GameResult<Vec<Due>> {
    db::write(conn, |conn| {
        let free = deliveries::due_at.le(now).and(
            deliveries::claimed_until
                .is_null()
                .or(deliveries::claimed_until.lt(now)),
        );
        let due = deliveries::table
            .filter(free)
            .order(deliveries::id)
            .limit(limit)
            .select(deliveries::id);
        let ids: Vec<DeliveryId> = match conn {
            DbConnection::Postgres(pg) => due.for_update().skip_locked().load(pg)?,
            DbConnection::Sqlite(_) => due.load(conn)?,
        };
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        diesel::update(deliveries::table.filter(deliveries::id.eq_any(&ids)))
            .set(deliveries::claimed_until.eq(Some(now + lease)))
            .execute(conn)?;
        type Row = (
            (DeliveryId, String, i32),
            (WebhookId, String),
            (UserId, WorldId, Option<EventId>, String, String, String),
            Option<String>,
        );
        let rows: Vec<Row> = deliveries::table
            .inner_join(webhooks::table)
            .inner_join(alerts::table.inner_join(users::table))
            .filter(deliveries::id.eq_any(&ids))
            .order(deliveries::id)
            .select((
                (deliveries::id, deliveries::key, deliveries::attempts),
                (webhooks::id, webhooks::url),
                (
                    alerts::user_id,
                    alerts::world_id,
                    alerts::event_id,
                    alerts::kind,
                    alerts::summary,
                    alerts::said,
                ),
                users::lang,
            ))
            .load(conn)?;
        Ok(rows
            .into_iter()
            .map(
                |(
                    (id, key, attempts),
                    (webhook, url),
                    (user, world, event, kind, summary, said),
                    lang,
                )| Due {
                    id,
                    key,
                    attempts,
                    webhook,
                    url,
                    user,
                    world,
                    event,
                    kind,
                    summary,
                    said,
                    lang,
                },
            )
            .collect())
    })
}

/// The delivery went: it is done, and its webhook works.
pub fn delivered(conn: &mut DbConnection, due: &Due) -> GameResult<()> {
    db::write(conn, |conn| {
        diesel::delete(deliveries::table.find(due.id)).execute(conn)?;
        diesel::update(webhooks::table.find(due.webhook))
            .set((
                webhooks::failures.eq(0),
                webhooks::last_error.eq(None::<String>),
            ))
            .execute(conn)?;
        Ok(())
    })
}

/// What to do after a failure.
pub enum Next {
    /// Try again at this instant.
    RetryAt(i64),
    /// Give this delivery up (the receiver refuses it for good, or it was tried enough).
    GiveUp,
}

/// The delivery failed with `error`. The webhook counts one more failure in a row; at
/// `disable_after` it is turned off (nothing more is queued for it) and its player told.
/// Returns whether it was turned off.
pub fn failed(
    conn: &mut DbConnection,
    due: &Due,
    error: &str,
    next: Next,
    disable_after: i32,
) -> GameResult<bool> {
    let error: String = error.chars().take(300).collect();
    db::write(conn, |conn| {
        match next {
            Next::RetryAt(at) => {
                diesel::update(deliveries::table.find(due.id))
                    .set((
                        deliveries::due_at.eq(at),
                        deliveries::attempts.eq(deliveries::attempts + 1),
                        deliveries::claimed_until.eq(None::<i64>),
                    ))
                    .execute(conn)?;
            }
            Next::GiveUp => {
                diesel::delete(deliveries::table.find(due.id)).execute(conn)?;
            }
        }
        let failures: i32 = diesel::update(webhooks::table.find(due.webhook))
            .set((
                webhooks::failures.eq(webhooks::failures + 1),
                webhooks::last_error.eq(Some(&error)),
            ))
            .returning(webhooks::failures)
            .get_result(conn)?;
        if failures < disable_after {
            return Ok(false);
        }
        let turned_off = diesel::update(
            webhooks::table
                .find(due.webhook)
                .filter(webhooks::disabled_at.is_null()),
        )
        .set(webhooks::disabled_at.eq(Some(db::now())))
        .execute(conn)?;
        diesel::delete(deliveries::table.filter(deliveries::webhook_id.eq(due.webhook)))
            .execute(conn)?;
        if turned_off == 0 {
            return Ok(false);
        }
        let said = crate::said::Said::new("said-webhook-off")
            .s("url", host_of(&due.url))
            .n("failures", failures as i64);
        crate::game::news::alerts::tell(
            conn,
            due.user,
            &crate::game::news::alerts::Told {
                world_id: due.world,
                event_id: None,
                kind: crate::game::news::alerts::WEBHOOK_OFF,
                summary: &said.render(crate::i18n::Lang::En),
                said: &said.encode(),
                at: db::now(),
            },
        )?;
        Ok(true)
    })
}

/// The host of a URL, to name a webhook without its secret path.
pub fn host_of(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    rest.split(['/', '?', '#']).next().unwrap_or(rest)
}
