//! The outbox: each alert queued, in the alert's own transaction, for each place its player
//! wants it (their webhooks, their browsers that take pushes). A delivery process claims what
//! is due, sends it and deletes it, or puts it back with a later time; a claim held by a
//! process that died ends with its lease, so nothing queued is lost.

use super::push;
use crate::db::schema::{alerts, deliveries, push_subscriptions, users, webhooks};
use crate::db::{self, DbConnection};
use crate::game::error::GameResult;
use crate::ids::{AlertId, DeliveryId, EventId, SubscriptionId, UserId, WebhookId, WorldId};
use diesel::prelude::*;

/// Queues `alert` (of `kind`) for each of `user`'s working webhooks and browsers, in the
/// alert's transaction. Pushes follow the player's quiet hours and daily cap (`push::plan`).
pub fn enqueue(
    conn: &mut DbConnection,
    user: UserId,
    (alert, kind): (AlertId, &str),
    now: i64,
) -> QueryResult<()> {
    let hooks: Vec<WebhookId> = webhooks::table
        .filter(webhooks::user_id.eq(user))
        .filter(webhooks::disabled_at.is_null())
        .select(webhooks::id)
        .load(conn)?;
    for w in hooks {
        insert(conn, alert, Some(w), None, now, false)?;
    }
    let browsers: Vec<SubscriptionId> = push_subscriptions::table
        .filter(push_subscriptions::user_id.eq(user))
        .select(push_subscriptions::id)
        .load(conn)?;
    if browsers.is_empty() {
        return Ok(());
    }
    let Some(plan) = push::plan(conn, user, now, kind)? else {
        return Ok(());
    };
    for b in browsers {
        insert(conn, alert, None, Some(b), plan.due_at, plan.last_of_day)?;
    }
    Ok(())
}

fn insert(
    conn: &mut DbConnection,
    alert: AlertId,
    webhook: Option<WebhookId>,
    browser: Option<SubscriptionId>,
    due_at: i64,
    last_of_day: bool,
) -> QueryResult<usize> {
    diesel::insert_into(deliveries::table)
        .values((
            deliveries::alert_id.eq(alert),
            deliveries::webhook_id.eq(webhook),
            deliveries::subscription_id.eq(browser),
            deliveries::due_at.eq(due_at),
            deliveries::last_of_day.eq(last_of_day),
            // A row id would count the deliveries of every player.
            deliveries::key.eq(crate::game::accounts::secret::random_hex(16)),
        ))
        .execute(conn)
}

/// Where a delivery goes.
#[derive(Clone, Debug)]
pub enum Target {
    Webhook {
        id: WebhookId,
        url: String,
    },
    /// A browser, through its push service.
    Browser {
        id: SubscriptionId,
        endpoint: String,
        p256dh: String,
        auth: String,
        /// Whose browser it is now (it may have moved since the alert was queued).
        owner: UserId,
    },
}

impl Target {
    /// Which target this is, among both kinds.
    pub fn key(&self) -> (bool, i32) {
        match self {
            Target::Webhook { id, .. } => (false, id.0),
            Target::Browser { id, .. } => (true, id.0),
        }
    }
}

/// A delivery claimed for sending.
#[derive(Clone, Debug)]
pub struct Due {
    pub id: DeliveryId,
    /// Sent with it, the same on each try: the receiver may tell a retry from a new alert.
    pub key: String,
    pub attempts: i32,
    pub target: Target,
    /// The push that reached its player's daily cap.
    pub last_of_day: bool,
    pub user: UserId,
    pub world: WorldId,
    pub event: Option<EventId>,
    pub kind: String,
    /// The alert's instant (for the turn near: the turn's).
    pub at: i64,
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
            (DeliveryId, String, i32, bool),
            Option<(WebhookId, String)>,
            Option<(SubscriptionId, String, String, String, UserId)>,
            (
                UserId,
                WorldId,
                Option<EventId>,
                String,
                i64,
                String,
                String,
            ),
            Option<String>,
        );
        let rows: Vec<Row> = deliveries::table
            .left_join(webhooks::table)
            .left_join(push_subscriptions::table)
            .inner_join(alerts::table.inner_join(users::table))
            .filter(deliveries::id.eq_any(&ids))
            .order(deliveries::id)
            .select((
                (
                    deliveries::id,
                    deliveries::key,
                    deliveries::attempts,
                    deliveries::last_of_day,
                ),
                (webhooks::id, webhooks::url).nullable(),
                (
                    push_subscriptions::id,
                    push_subscriptions::endpoint,
                    push_subscriptions::p256dh,
                    push_subscriptions::auth,
                    push_subscriptions::user_id,
                )
                    .nullable(),
                (
                    alerts::user_id,
                    alerts::world_id,
                    alerts::event_id,
                    alerts::kind,
                    alerts::at,
                    alerts::summary,
                    alerts::said,
                ),
                users::lang,
            ))
            .load(conn)?;
        Ok(rows
            .into_iter()
            .filter_map(
                |(
                    (id, key, attempts, last_of_day),
                    hook,
                    browser,
                    (user, world, event, kind, at, summary, said),
                    lang,
                )| {
                    let target = match (hook, browser) {
                        (Some((id, url)), _) => Target::Webhook { id, url },
                        (None, Some((id, endpoint, p256dh, auth, owner))) => Target::Browser {
                            id,
                            endpoint,
                            p256dh,
                            auth,
                            owner,
                        },
                        // Its target went with its cascade: nothing to send.
                        (None, None) => return None,
                    };
                    Some(Due {
                        id,
                        key,
                        attempts,
                        target,
                        last_of_day,
                        user,
                        world,
                        event,
                        kind,
                        at,
                        summary,
                        said,
                        lang,
                    })
                },
            )
            .collect())
    })
}

/// The delivery went: it is done, and its target works.
pub fn delivered(conn: &mut DbConnection, due: &Due) -> GameResult<()> {
    db::write(conn, |conn| {
        diesel::delete(deliveries::table.find(due.id)).execute(conn)?;
        match &due.target {
            Target::Webhook { id, .. } => diesel::update(webhooks::table.find(*id))
                .set((
                    webhooks::failures.eq(0),
                    webhooks::last_error.eq(None::<String>),
                ))
                .execute(conn)?,
            Target::Browser { id, .. } => diesel::update(push_subscriptions::table.find(*id))
                .set((
                    push_subscriptions::failures.eq(0),
                    push_subscriptions::last_error.eq(None::<String>),
                ))
                .execute(conn)?,
        };
        Ok(())
    })
}

/// The push service says the browser's subscription is gone (404, 410): it is deleted, with
/// whatever waited for it.
pub fn gone(conn: &mut DbConnection, due: &Due) -> GameResult<()> {
    if let Target::Browser { id, .. } = &due.target {
        db::write(conn, |conn| {
            diesel::delete(deliveries::table.filter(deliveries::subscription_id.eq(*id)))
                .execute(conn)?;
            diesel::delete(push_subscriptions::table.find(*id)).execute(conn)?;
            Ok::<_, crate::game::GameError>(())
        })?;
    }
    Ok(())
}

/// The delivery is given up unsent (it would come too late to be of use).
pub fn dropped(conn: &mut DbConnection, due: &Due) -> GameResult<()> {
    diesel::delete(deliveries::table.find(due.id)).execute(conn)?;
    Ok(())
}

/// What to do after a failure.
pub enum Next {
    /// Try again at this instant.
    RetryAt(i64),
    /// Give this delivery up (the receiver refuses it for good, or it was tried enough).
    GiveUp,
}

/// How a failure ended for its target.
#[derive(Debug, PartialEq, Eq)]
pub enum Failed {
    /// The target stays.
    Counted,
    /// A webhook turned off (its player told).
    WebhookOff,
    /// A browser's subscription deleted.
    BrowserDropped,
}

/// The delivery failed with `error`. A webhook counts one more failure in a row, and at
/// `give_up_after` is turned off (its player told). A browser's subscription counts only
/// `lasting` refusals (a push service saying no to this subscription, not one busy or down
/// for a while), and at `give_up_after` is deleted with what waited for it.
pub fn failed(
    conn: &mut DbConnection,
    due: &Due,
    error: &str,
    (next, lasting): (Next, bool),
    give_up_after: i32,
) -> GameResult<Failed> {
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
        match &due.target {
            Target::Webhook { id, url } => {
                // Removed meanwhile: nothing to count.
                let Some(failures): Option<i32> = diesel::update(webhooks::table.find(*id))
                    .set((
                        webhooks::failures.eq(webhooks::failures + 1),
                        webhooks::last_error.eq(Some(&error)),
                    ))
                    .returning(webhooks::failures)
                    .get_result(conn)
                    .optional()?
                else {
                    return Ok(Failed::Counted);
                };
                if failures < give_up_after {
                    return Ok(Failed::Counted);
                }
                if super::webhooks::turn_off(conn, due.user, due.world, *id, url, failures)? {
                    Ok(Failed::WebhookOff)
                } else {
                    Ok(Failed::Counted)
                }
            }
            Target::Browser { id, .. } => {
                let failures: Option<i32> = diesel::update(push_subscriptions::table.find(*id))
                    .set((
                        push_subscriptions::failures
                            .eq(push_subscriptions::failures + i32::from(lasting)),
                        push_subscriptions::last_error.eq(Some(&error)),
                    ))
                    .returning(push_subscriptions::failures)
                    .get_result(conn)
                    .optional()?;
                if !lasting || failures.is_none_or(|f| f < give_up_after) {
                    return Ok(Failed::Counted);
                }
                diesel::delete(deliveries::table.filter(deliveries::subscription_id.eq(*id)))
                    .execute(conn)?;
                diesel::delete(push_subscriptions::table.find(*id)).execute(conn)?;
                Ok(Failed::BrowserDropped)
            }
        }
    })
}
