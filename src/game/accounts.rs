//! Accounts: registration rules, password hashing and roles.

use super::error::{GameError, GameResult};
use crate::db::models::User;
use crate::db::schema::users;
use crate::db::{self, DbConnection};
use crate::said::Said;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use diesel::prelude::*;

pub const MIN_PASSWORD: usize = 10;
pub const MAX_PASSWORD: usize = 200;

pub use crate::rules::names::Role;

/// A role named by an admin or on the command line.
pub fn parse_role(s: &str) -> GameResult<Role> {
    s.parse()
        .map_err(|_| GameError::Invalid(Said::new("error-role").s("role", s).into()))
}

pub fn role_of(u: &User) -> Role {
    u.role
}

/// 3–24 letters, digits, `_` or `-`.
pub fn check_username(name: &str) -> GameResult<()> {
    let n = name.chars().count();
    if !(3..=24).contains(&n) {
        return Err(GameError::Invalid(
            Said::new("error-username-length")
                .n("min", 3)
                .n("max", 24)
                .into(),
        ));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(GameError::Invalid(
            Said::new("error-username-letters").into(),
        ));
    }
    Ok(())
}

pub fn check_password(pw: &str) -> GameResult<()> {
    let n = pw.chars().count();
    if n < MIN_PASSWORD {
        return Err(GameError::Invalid(
            Said::new("error-password-short")
                .n("n", MIN_PASSWORD as i64)
                .into(),
        ));
    }
    if n > MAX_PASSWORD {
        return Err(GameError::Invalid(
            Said::new("error-password-long")
                .n("n", MAX_PASSWORD as i64)
                .into(),
        ));
    }
    Ok(())
}

pub fn hash_password(pw: &str) -> GameResult<String> {
    let salt = SaltString::encode_b64(&rand::random::<[u8; 16]>())
        .map_err(|e| GameError::Internal(format!("salt: {e}")))?;
    Argon2::default()
        .hash_password(pw.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| GameError::Internal(format!("password hashing failed: {e}")))
}

pub fn verify_password(pw: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|h| Argon2::default().verify_password(pw.as_bytes(), &h).is_ok())
        .unwrap_or(false)
}

/// A hash to verify against when the account does not exist, so that a wrong username takes
/// as long as a wrong password.
pub fn dummy_hash() -> &'static str {
    static HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HASH.get_or_init(|| hash_password("not a real password at all").unwrap_or_default())
}

/// An account checked and with its password hashed: the slow part of registering, done
/// without holding a database connection.
pub struct NewAccount {
    name: String,
    hash: String,
}

impl NewAccount {
    pub fn check(name: &str, password: &str) -> GameResult<NewAccount> {
        check_username(name)?;
        check_password(password)?;
        Ok(NewAccount {
            name: name.to_string(),
            hash: hash_password(password)?,
        })
    }
}

/// Creates an account; usernames are unique regardless of case.
pub fn create_user(
    conn: &mut DbConnection,
    name: &str,
    password: &str,
    role: Role,
) -> GameResult<User> {
    insert_user(conn, &NewAccount::check(name, password)?, role)
}

/// Stores a checked account.
pub fn insert_user(conn: &mut DbConnection, account: &NewAccount, role: Role) -> GameResult<User> {
    let (name, hash) = (account.name.as_str(), &account.hash);
    let key = name.to_lowercase();
    db::write(conn, |conn| {
        let taken: i64 = users::table
            .filter(users::username_key.eq(&key))
            .count()
            .get_result(conn)?;
        if taken > 0 {
            return Err(GameError::Conflict(
                Said::new("error-username-taken").s("name", name).into(),
            ));
        }
        diesel::insert_into(users::table)
            .values((
                users::username.eq(name),
                users::username_key.eq(&key),
                users::password_hash.eq(&hash),
                users::role.eq(role.as_str()),
                users::banned.eq(false),
                users::created_at.eq(db::now()),
            ))
            .execute(conn)
            .map_err(|e| match e {
                diesel::result::Error::DatabaseError(
                    diesel::result::DatabaseErrorKind::UniqueViolation,
                    _,
                ) => GameError::Conflict(Said::new("error-username-taken").s("name", name).into()),
                other => other.into(),
            })?;
        Ok(users::table
            .filter(users::username_key.eq(&key))
            .select(User::as_select())
            .first(conn)?)
    })
}

/// Sets a new password hash (checked and hashed beforehand with `NewAccount::check`-like
/// care, off the connection) and ends every session of the account.
pub fn set_password(conn: &mut DbConnection, user_id: i32, hash: &str) -> GameResult<()> {
    db::write(conn, |conn| {
        diesel::update(users::table.find(user_id))
            .set(users::password_hash.eq(hash))
            .execute(conn)?;
        super::sessions::delete_all(conn, user_id)
    })
}

pub fn find_by_name(conn: &mut DbConnection, name: &str) -> GameResult<Option<User>> {
    if check_username(name).is_err() {
        return Ok(None);
    }
    Ok(users::table
        .filter(users::username_key.eq(name.to_lowercase()))
        .select(User::as_select())
        .first(conn)
        .optional()?)
}

pub fn get(conn: &mut DbConnection, id: i32) -> GameResult<User> {
    find(conn, id)?.ok_or_else(|| GameError::not_found("user"))
}

/// The user of an id, if there is one (on the connection's own backend: every authenticated
/// request reads it).
pub fn find(conn: &mut DbConnection, id: i32) -> GameResult<Option<User>> {
    Ok(crate::on_backend!(conn, c => users::table
        .find(id)
        .select(User::as_select())
        .first(c)
        .optional())?)
}

/// Checks credentials under the failed-login throttle. Every refusal says the same thing, so
/// that the form does not reveal which usernames exist.
/// The first half of a login: the attempt counted (refused with `rate_limited` past the
/// limits) and the account looked up. The password is checked next, holding no connection.
pub fn begin_login(
    conn: &mut DbConnection,
    limits: super::throttle::LoginLimits,
    name: &str,
    addr: &str,
) -> GameResult<(Option<User>, super::throttle::Reservation)> {
    let reservation = super::throttle::reserve(conn, limits, name, addr)?;
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
    reservation: super::throttle::Reservation,
) -> GameResult<User> {
    match user {
        Some(u) if matched => {
            if u.banned {
                return Err(GameError::Forbidden(Said::new("error-banned").into()));
            }
            super::throttle::succeeded(conn, reservation)?;
            Ok(u)
        }
        _ => Err(GameError::Unauthorized(
            Said::new("error-wrong-password").into(),
        )),
    }
}

pub fn list_users(conn: &mut DbConnection) -> GameResult<Vec<User>> {
    Ok(users::table
        .order(users::id)
        .select(User::as_select())
        .load(conn)?)
}

/// An admin changes a user's role or ban; a ban ends the user's sessions at once (their API
/// tokens stop working while the ban lasts). Returns the (before, after) rows.
pub fn set_role_and_ban(
    conn: &mut DbConnection,
    admin_id: i32,
    user_id: i32,
    role: Option<Role>,
    banned: Option<bool>,
) -> GameResult<(User, User)> {
    db::write(conn, |conn| {
        let before = get(conn, user_id)?;
        if user_id == admin_id && (banned == Some(true) || role.is_some_and(|r| r != Role::Admin)) {
            return Err(GameError::Invalid(Said::new("error-self-admin").into()));
        }
        if let Some(r) = role {
            diesel::update(users::table.find(user_id))
                .set(users::role.eq(r.as_str()))
                .execute(conn)?;
        }
        if let Some(b) = banned {
            diesel::update(users::table.find(user_id))
                .set(users::banned.eq(b))
                .execute(conn)?;
            if b {
                super::sessions::delete_all(conn, user_id)?;
            }
        }
        let after = get(conn, user_id)?;
        Ok((before, after))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_are_three_to_twenty_four_safe_characters() {
        assert!(check_username("ney").is_ok());
        assert!(check_username("Marshal_Ney-1812").is_ok());
        assert!(check_username("ab").is_err());
        assert!(check_username(&"a".repeat(25)).is_err());
        assert!(check_username("<script>alert(1)</script>").is_err());
        assert!(check_username("jean luc").is_err());
        assert!(check_username("élodie").is_err());
    }

    #[test]
    fn passwords_have_at_least_ten_characters() {
        assert!(check_password("123456789").is_err());
        assert!(check_password("1234567890").is_ok());
    }

    #[test]
    fn argon2id_hashes_verify_only_the_right_password() {
        let h = hash_password("correct horse battery").unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(verify_password("correct horse battery", &h));
        assert!(!verify_password("wrong horse battery", &h));
    }
}
