//! Where a player's alerts also go: incoming webhooks (Discord, Slack, Matrix, or anything that
//! takes their JSON). What they are sent goes through the outbox (`super::outbox`); a webhook
//! failing too many times in a row is turned off there and its player told.

use crate::db::schema::{deliveries, webhooks};
use crate::db::{self, DbConnection};
use crate::game::error::{GameError, GameResult};
use crate::ids::{UserId, WebhookId, WorldId};
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

/// Turns off a webhook that failed `failures` times in a row: nothing more is queued for it,
/// what waited is dropped, and its player is told (once). Returns whether it was on.
pub(super) fn turn_off(
    conn: &mut DbConnection,
    user: UserId,
    world: WorldId,
    id: WebhookId,
    url: &str,
    failures: i32,
) -> QueryResult<bool> {
    let turned_off = diesel::update(
        webhooks::table
            .find(id)
            .filter(webhooks::disabled_at.is_null()),
    )
    .set(webhooks::disabled_at.eq(Some(db::now())))
    .execute(conn)?;
    diesel::delete(deliveries::table.filter(deliveries::webhook_id.eq(id))).execute(conn)?;
    if turned_off == 0 {
        return Ok(false);
    }
    let said = crate::said::Said::new("said-webhook-off")
        .s("url", host_of(url))
        .n("failures", failures as i64);
    super::alerts::tell(
        conn,
        user,
        &super::alerts::Told {
            world_id: world,
            event_id: None,
            kind: super::alerts::WEBHOOK_OFF,
            summary: &said.render(crate::i18n::Lang::En),
            said: &said.encode(),
            at: db::now(),
        },
    )?;
    Ok(true)
}

/// The host of a URL, to name a webhook without its secret path.
pub fn host_of(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    rest.split(['/', '?', '#']).next().unwrap_or(rest)
}
