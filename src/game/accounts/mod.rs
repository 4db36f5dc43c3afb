//! Accounts: users, registration rules, password hashing and roles; sessions, API tokens and
//! the throttling of logins and registrations.

pub mod secret;
pub mod sessions;
pub mod throttle;
pub mod tokens;
pub mod users;

pub use users::{
    check_password, check_username, find, find_by_name, get, hash_password, list_users, parse_role,
    role_of, NewAccount, Role, MAX_PASSWORD, MIN_PASSWORD,
};

use crate::db::models::User;
use crate::db::schema::users as users_t;
use crate::db::{self, DbConnection};
use crate::game::error::{GameError, GameResult};
use crate::game::Workers;
use crate::ids::UserId;
use crate::said::Said;
use diesel::prelude::*;
use users::{dummy_hash, insert_user, verify_password};

/// Creates an account; usernames are unique regardless of case.
pub fn create_user(
    conn: &mut DbConnection,
    name: &str,
    password: &str,
    role: Role,
) -> GameResult<User> {
    insert_user(conn, &NewAccount::check(name, password)?, role)
}

/// Sets a new password hash (checked and hashed beforehand with `NewAccount::check`-like
/// care, off the connection) and ends every session of the account.
pub fn set_password(conn: &mut DbConnection, user_id: UserId, hash: &str) -> GameResult<()> {
    db::write(conn, |conn| {
        diesel::update(users_t::table.find(user_id))
            .set(users_t::password_hash.eq(hash))
            .execute(conn)?;
        sessions::delete_all(conn, user_id)
    })
}

/// Checks credentials under the failed-login throttle. Every refusal says the same thing, so
/// that the form does not reveal which usernames exist.
/// The first half of a login: the attempt counted (refused with `rate_limited` past the
/// limits) and the account looked up. The password is checked next, holding no connection.
pub fn begin_login(
    conn: &mut DbConnection,
    limits: throttle::LoginLimits,
    name: &str,
    addr: &str,
) -> GameResult<(Option<User>, throttle::Reservation)> {
    let reservation = throttle::reserve(conn, limits, name, addr)?;
    Ok((find_by_name(conn, name)?, reservation))
}

/// Whether `password` is the account's; as slow for an unknown account as for a known one.
pub fn password_matches(user: Option<&User>, password: &str) -> bool {
    match user {
        Some(u) => verify_password(password, &u.password_hash),
        None => {
            verify_password(password, dummy_hash());
            false
        }
    }
}

/// The second half: a wrong password stays counted; a right one is forgiven.
pub fn finish_login(
    conn: &mut DbConnection,
    user: Option<User>,
    matched: bool,
    reservation: throttle::Reservation,
) -> GameResult<User> {
    match user {
        Some(u) if matched => {
            if u.banned {
                return Err(GameError::Forbidden(Said::new("error-banned").into()));
            }
            throttle::succeeded(conn, reservation)?;
            Ok(u)
        }
        _ => Err(GameError::Unauthorized(
            Said::new("error-wrong-password").into(),
        )),
    }
}

/// An admin changes a user's role or ban; a ban ends the user's sessions at once (their API
/// tokens stop working while the ban lasts). Returns the (before, after) rows.
pub fn set_role_and_ban(
    conn: &mut DbConnection,
    admin_id: UserId,
    user_id: UserId,
    role: Option<Role>,
    banned: Option<bool>,
) -> GameResult<(User, User)> {
    db::write(conn, |conn| {
        let before = get(conn, user_id)?;
        if user_id == admin_id && (banned == Some(true) || role.is_some_and(|r| r != Role::Admin)) {
            return Err(GameError::Invalid(Said::new("error-self-admin").into()));
        }
        if let Some(r) = role {
            diesel::update(users_t::table.find(user_id))
                .set(users_t::role.eq(r.as_str()))
                .execute(conn)?;
        }
        if let Some(b) = banned {
            diesel::update(users_t::table.find(user_id))
                .set(users_t::banned.eq(b))
                .execute(conn)?;
            if b {
                sessions::delete_all(conn, user_id)?;
            }
        }
        let after = get(conn, user_id)?;
        Ok((before, after))
    })
}

/// Registers an account for a client: at most `registrations_per_hour` per address, and the
/// password hashed while no database connection is held (parallel registrations would
/// otherwise hold the whole pool for the length of a hash each).
pub async fn register(
    w: &impl Workers,
    addr: &str,
    name: String,
    password: String,
) -> GameResult<User> {
    let limit = throttle::Limit {
        attempts: w.config().settings.security.registrations_per_hour,
        window: 3600,
    };
    let bucket = format!("register:{addr}");
    let check = bucket.clone();
    w.db(move |conn| throttle::check_bucket(conn, limit, &check))
        .await?;
    let account = w.cpu(move || NewAccount::check(&name, &password)).await?;
    w.db(move |conn| {
        crate::db::write(conn, |conn| {
            let user = insert_user(conn, &account, Role::Player)?;
            throttle::record(conn, limit, &bucket)?;
            Ok(user)
        })
    })
    .await
}

/// Logs a client in with a name and password: the attempt is counted first (per account and
/// address, per address, per account), then the password is checked while no database
/// connection is held.
pub async fn login(
    w: &impl Workers,
    addr: &str,
    name: String,
    password: String,
) -> GameResult<User> {
    let s = &w.config().settings.security;
    let limits = throttle::LoginLimits {
        attempts: s.login_attempts,
        account_cap: s.login_account_cap,
        window: s.login_window_seconds,
    };
    let addr = addr.to_string();
    let (user, reservation) = w
        .db(move |conn| begin_login(conn, limits, &name, &addr))
        .await?;
    let (user, matched) = w
        .cpu(move || {
            let matched = password_matches(user.as_ref(), &password);
            Ok((user, matched))
        })
        .await?;
    w.db(move |conn| finish_login(conn, user, matched, reservation))
        .await
}
