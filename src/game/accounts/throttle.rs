//! Throttling kept in the database, so that every server process counts the same attempts:
//! failed logins per account and address, per address and per account; registrations per
//! address.

use crate::db::schema::login_failures;
use crate::db::{self, DbConnection};
use crate::game::error::{GameError, GameResult};
use diesel::prelude::*;

#[derive(Clone, Copy, Debug)]
pub struct Limit {
    pub attempts: u32,
    pub window: i64,
}

/// The login limits: `attempts` failures per window for one account from one address and for
/// one address in all; past `account_cap` failures for an account (from anywhere) only
/// addresses that have not failed on it yet may still try, so a victim's correct password
/// from a clean address still passes while an attacker's addresses are shut out.
#[derive(Clone, Copy, Debug)]
pub struct LoginLimits {
    pub attempts: u32,
    pub account_cap: u32,
    pub window: i64,
}

/// A login attempt counted as failed until `succeeded` takes it back: the count is taken
/// before the password is checked, in one transaction with the check, so parallel guesses
/// cannot all slip under the limit.
pub struct Reservation {
    ids: Vec<i32>,
    pair: String,
}

/// The name an account's buckets use: a name no account can have (a NUL byte, 10 KB of text)
/// shares one, which locks nobody out and never reaches the database as it was typed.
fn account_key(account: &str) -> String {
    if crate::game::accounts::users::check_username(account).is_ok() {
        account.to_lowercase()
    } else {
        "-".into()
    }
}

fn count(conn: &mut DbConnection, bucket: &str, since: i64) -> QueryResult<i64> {
    login_failures::table
        .filter(login_failures::bucket.eq(bucket))
        .filter(login_failures::at.gt(since))
        .count()
        .get_result(conn)
}

pub fn reserve(
    conn: &mut DbConnection,
    l: LoginLimits,
    account: &str,
    addr: &str,
) -> GameResult<Reservation> {
    let key = account_key(account);
    let pair = format!("pair:{key}@{addr}");
    let by_addr = format!("addr:{addr}");
    let by_account = format!("account:{key}");
    let per = Limit {
        attempts: l.attempts,
        window: l.window,
    };
    db::write(conn, |conn| {
        // Attempts on one key wait for each other.
        db::serialize_on(conn, &by_account)?;
        db::serialize_on(conn, &by_addr)?;
        check_bucket(conn, per, &pair)?;
        check_bucket(conn, per, &by_addr)?;
        let since = db::now() - l.window;
        if count(conn, &by_account, since)? >= l.account_cap as i64
            && count(conn, &pair, since)? > 0
        {
            return Err(GameError::RateLimited {
                retry_after: l.window,
            });
        }
        let mut ids = Vec::new();
        for bucket in [&pair, &by_addr, &by_account] {
            ids.push(record(conn, per, bucket)?);
        }
        Ok(Reservation {
            ids,
            pair: pair.clone(),
        })
    })
}

/// The password was right: the attempt is not a failure, and this address's earlier failures
/// on the account are forgiven.
pub fn succeeded(conn: &mut DbConnection, r: Reservation) -> GameResult<()> {
    db::write(conn, |conn| {
        diesel::delete(login_failures::table.filter(login_failures::id.eq_any(&r.ids)))
            .execute(conn)?;
        diesel::delete(login_failures::table.filter(login_failures::bucket.eq(&r.pair)))
            .execute(conn)?;
        Ok(())
    })
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

/// Counts one attempt in `bucket`, dropping the entries older than the window; returns the
/// entry's id.
pub fn record(conn: &mut DbConnection, limit: Limit, bucket: &str) -> GameResult<i32> {
    let now = db::now();
    db::write(conn, |conn| {
        diesel::delete(
            login_failures::table
                .filter(login_failures::bucket.eq(bucket))
                .filter(login_failures::at.le(now - limit.window)),
        )
        .execute(conn)?;
        Ok::<_, GameError>(
            diesel::insert_into(login_failures::table)
                .values((
                    login_failures::bucket.eq(bucket),
                    login_failures::at.eq(now),
                ))
                .returning(login_failures::id)
                .get_result(conn)?,
        )
    })
}
