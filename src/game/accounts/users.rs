//! Users: who may have an account (names, passwords), the stored accounts and their roles.

use crate::db::models::User;
use crate::db::schema::users;
use crate::db::{self, DbConnection};
use crate::game::error::{GameError, GameResult};
use crate::ids::UserId;
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
/// Names no account may take.
const RESERVED: [&str; 2] = ["nation", "world"];

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

/// A name a new account may take: a name (`check_username`) the game does not keep.
pub fn check_new_username(name: &str) -> GameResult<()> {
    check_username(name)?;
    // A message's `to` names the board and the announcements with these.
    if RESERVED.iter().any(|r| name.eq_ignore_ascii_case(r)) {
        return Err(GameError::Invalid(
            Said::new("error-username-reserved").s("name", name).into(),
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
        check_new_username(name)?;
        check_password(password)?;
        Ok(NewAccount {
            name: name.to_string(),
            hash: hash_password(password)?,
        })
    }
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

/// The account's language, which its mails and its other browsers follow.
pub fn set_lang(
    conn: &mut DbConnection,
    user_id: UserId,
    lang: crate::i18n::Lang,
) -> GameResult<()> {
    db::write(conn, |conn| {
        diesel::update(users::table.find(user_id))
            .set(users::lang.eq(Some(lang.code())))
            .execute(conn)?;
        Ok(())
    })
}

pub fn get(conn: &mut DbConnection, id: UserId) -> GameResult<User> {
    find(conn, id)?.ok_or_else(|| GameError::not_found("user"))
}

/// The user of an id, if there is one (on the connection's own backend: every authenticated
/// request reads it).
pub fn find(conn: &mut DbConnection, id: UserId) -> GameResult<Option<User>> {
    Ok(crate::on_backend!(conn, c => users::table
        .find(id)
        .select(User::as_select())
        .first(c)
        .optional())?)
}

pub fn list_users(conn: &mut DbConnection) -> GameResult<Vec<User>> {
    Ok(users::table
        .order(users::id)
        .select(User::as_select())
        .load(conn)?)
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
        assert!(check_new_username("ney").is_ok());
        assert!(check_new_username("Nation").is_err() && check_new_username("world").is_err());
        assert!(
            check_username("world").is_ok(),
            "an older account of that name still logs in"
        );
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
