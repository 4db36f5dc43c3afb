//! Failed-login throttling per account and per client address, kept in the database so that
//! every server process counts the same failures.

use super::error::{GameError, GameResult};
use crate::db::schema::login_failures;
use crate::db::{self, DbConnection};
use diesel::prelude::*;

#[derive(Clone, Copy, Debug)]
pub struct Limit {
    pub attempts: u32,
    pub window: i64,
}

fn buckets(account: &str, addr: &str) -> [String; 2] {
    // A name no account can have (a NUL byte, 10 KB of text) shares one bucket: it locks
    // nobody out and never reaches the database as it was typed.
    let account = if super::accounts::check_username(account).is_ok() {
        account.to_lowercase()
    } else {
        "-".into()
    };
    [format!("account:{account}"), format!("addr:{addr}")]
}

/// Refuses with `rate_limited` (and when to retry) once either bucket is full.
pub fn check(conn: &mut DbConnection, limit: Limit, account: &str, addr: &str) -> GameResult<()> {
    for bucket in buckets(account, addr) {
        check_bucket(conn, limit, &bucket)?;
    }
    Ok(())
}

/// Refuses with `rate_limited` (and when to come back) once `bucket` has `limit.attempts`
/// entries within the window.
pub fn check_bucket(conn: &mut DbConnection, limit: Limit, bucket: &str) -> GameResult<()> {
    let now = db::now();
    let since = now - limit.window;
    let (n, oldest): (i64, Option<i64>) = login_failures::table
        .filter(login_failures::bucket.eq(bucket))
        .filter(login_failures::at.gt(since))
        .select((
            diesel::dsl::count_star(),
            diesel::dsl::min(login_failures::at),
        ))
        .first(conn)?;
    if n >= limit.attempts as i64 {
        let retry_after = oldest
            .map_or(limit.window, |o| o + limit.window - now)
            .max(1);
        return Err(GameError::RateLimited { retry_after });
    }
    Ok(())
}

pub fn fail(conn: &mut DbConnection, limit: Limit, account: &str, addr: &str) -> GameResult<()> {
    db::write(conn, |conn| {
        for bucket in buckets(account, addr) {
            record(conn, limit, &bucket)?;
        }
        Ok::<_, GameError>(())
    })
}

/// Counts one attempt in `bucket`, dropping the entries older than the window.
pub fn record(conn: &mut DbConnection, limit: Limit, bucket: &str) -> GameResult<()> {
    let now = db::now();
    db::write(conn, |conn| {
        diesel::delete(
            login_failures::table
                .filter(login_failures::bucket.eq(bucket))
                .filter(login_failures::at.le(now - limit.window)),
        )
        .execute(conn)?;
        diesel::insert_into(login_failures::table)
            .values((
                login_failures::bucket.eq(bucket),
                login_failures::at.eq(now),
            ))
            .execute(conn)?;
        Ok::<_, GameError>(())
    })
}

pub fn clear_account(conn: &mut DbConnection, account: &str) -> GameResult<()> {
    let [bucket, _] = buckets(account, "");
    diesel::delete(login_failures::table.filter(login_failures::bucket.eq(bucket)))
        .execute(conn)?;
    Ok(())
}
