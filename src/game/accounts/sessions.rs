//! Server-side sessions: a random token in the cookie, only its hash in the database, so a
//! leaked table does not leak sessions. Revocable, with idle and absolute expiry.

use crate::db::models::User;
use crate::db::schema::{sessions, users};
use crate::db::{self, DbConnection};
use crate::game::accounts::secret::{random_hex, sha256_hex};
use crate::game::error::GameResult;
use crate::ids::UserId;
use diesel::prelude::*;

/// A signed-in visitor: the account and the session's CSRF token.
#[derive(Clone, Debug)]
pub struct Session {
    pub id: String,
    pub user: User,
    pub csrf: String,
}

/// Expiry limits, in seconds.
#[derive(Clone, Copy, Debug)]
pub struct Expiry {
    pub idle: i64,
    pub absolute: i64,
}

/// Opens a new session for `user_id`; returns the cookie token (shown to the browser once).
pub fn create(conn: &mut DbConnection, user_id: UserId) -> GameResult<String> {
    let token = random_hex(32);
    let now = db::now();
    db::write(conn, |conn| {
        diesel::insert_into(sessions::table)
            .values((
                sessions::id.eq(sha256_hex(&token)),
                sessions::user_id.eq(user_id),
                sessions::csrf_token.eq(random_hex(24)),
                sessions::created_at.eq(now),
                sessions::last_seen_at.eq(now),
            ))
            .execute(conn)?;
        // Remember the previous login for "since your last visit".
        diesel::update(users::table.find(user_id))
            .set((
                users::previous_login_at.eq(users::last_login_at),
                users::last_login_at.eq(now),
            ))
            .execute(conn)?;
        Ok(token)
    })
}

/// The live session for a cookie token, if any: unexpired, and its user not banned. Touches
/// `last_seen_at` at most once a minute.
pub fn load(conn: &mut DbConnection, token: &str, expiry: Expiry) -> GameResult<Option<Session>> {
    if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(None);
    }
    let id = sha256_hex(token);
    let now = db::now();
    // The session by its id, then its user by id: see `tokens::authenticate` for why not a join.
    let session: Option<(String, UserId, i64, i64)> = crate::on_backend!(conn, c => sessions::table
        .find(&id)
        .select((
            sessions::csrf_token,
            sessions::user_id,
            sessions::created_at,
            sessions::last_seen_at,
        ))
        .first(c)
        .optional())?;
    let found = match session {
        Some((csrf, user_id, created, seen)) => crate::game::accounts::users::find(conn, user_id)?
            .map(|user| (csrf, created, seen, user)),
        None => None,
    };
    let Some((csrf, created, seen, user)) = found else {
        return Ok(None);
    };
    if user.banned || now - seen > expiry.idle || now - created > expiry.absolute {
        diesel::delete(sessions::table.find(&id)).execute(conn)?;
        return Ok(None);
    }
    if now - seen >= 60 {
        diesel::update(sessions::table.find(&id))
            .set(sessions::last_seen_at.eq(now))
            .execute(conn)?;
    }
    Ok(Some(Session { id, user, csrf }))
}

/// Ends a session (logout).
pub fn delete(conn: &mut DbConnection, session_id: &str) -> GameResult<()> {
    let user: Option<UserId> = sessions::table
        .find(session_id)
        .select(sessions::user_id)
        .first(conn)
        .optional()?;
    diesel::delete(sessions::table.find(session_id)).execute(conn)?;
    if let Some(user) = user {
        ended(conn, user)?;
    }
    Ok(())
}

/// Tells the user's open live streams to check their credentials again.
fn ended(conn: &mut DbConnection, user: UserId) -> GameResult<()> {
    Ok(crate::db::live::note(
        conn,
        None,
        crate::rules::names::LiveTopic::Access,
        Some(user),
        None,
    )?)
}

/// Ends every session of a user (ban, password change).
pub fn delete_all(conn: &mut DbConnection, user_id: UserId) -> GameResult<()> {
    diesel::delete(sessions::table.filter(sessions::user_id.eq(user_id))).execute(conn)?;
    ended(conn, user_id)
}

#[cfg(test)]
mod tests {
    use crate::game::accounts::secret::sha256_hex;

    #[test]
    fn sha256_hex_writes_the_digest_in_lowercase_hex() {
        // FIPS 180-2's example for "abc".
        assert_eq!(
            sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
