//! API tokens: shown once at creation, stored as a SHA-256 hash, revocable at once.

use crate::db::models::User;
use crate::db::schema::api_tokens;
use crate::db::{self, DbConnection};
use crate::game::accounts::secret::{random_hex, sha256_hex};
use crate::game::error::{GameError, GameResult};
use crate::ids::{TokenId, UserId};
use crate::said::Said;
use diesel::prelude::*;

pub const PREFIX: &str = "grg_";

/// A token as its owner lists it: never its secret.
#[derive(Clone, Debug, Queryable)]
pub struct Token {
    pub id: TokenId,
    pub name: String,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
}

/// Creates a token; returns its id and the secret, which is never shown again.
pub fn create(
    conn: &mut DbConnection,
    user_id: UserId,
    name: &str,
) -> GameResult<(TokenId, String)> {
    let name = name.trim();
    let name = if name.is_empty() { "token" } else { name };
    if name.chars().count() > 60 {
        return Err(GameError::Invalid(
            Said::new("error-token-name").n("max", 60).into(),
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(GameError::Invalid(
            Said::new("error-control")
                .m("what", "what-token-name")
                .into(),
        ));
    }
    let secret = format!("{PREFIX}{}", random_hex(32));
    let id = db::write(conn, |conn| {
        diesel::insert_into(api_tokens::table)
            .values((
                api_tokens::user_id.eq(user_id),
                api_tokens::name.eq(name),
                api_tokens::token_hash.eq(sha256_hex(&secret)),
                api_tokens::created_at.eq(db::now()),
            ))
            .returning(api_tokens::id)
            .get_result::<TokenId>(conn)
    })?;
    Ok((id, secret))
}

pub fn list(conn: &mut DbConnection, user_id: UserId) -> GameResult<Vec<Token>> {
    Ok(api_tokens::table
        .filter(api_tokens::user_id.eq(user_id))
        .order(api_tokens::id)
        .select((
            api_tokens::id,
            api_tokens::name,
            api_tokens::created_at,
            api_tokens::last_used_at,
        ))
        .load(conn)?)
}

/// Revokes one of the user's tokens; another user's token is "not found".
pub fn revoke(conn: &mut DbConnection, user_id: UserId, token_id: TokenId) -> GameResult<()> {
    let n = diesel::delete(
        api_tokens::table
            .filter(api_tokens::id.eq(token_id))
            .filter(api_tokens::user_id.eq(user_id)),
    )
    .execute(conn)?;
    if n == 0 {
        return Err(GameError::not_found("token"));
    }
    // Its open live streams check their credentials again.
    Ok(crate::db::live::note(
        conn,
        None,
        crate::rules::names::LiveTopic::Access,
        Some(user_id),
        None,
    )?)
}

/// The user behind a bearer secret, if the token exists, was made after `made_after` (tokens
/// expire when set), and the user is not banned.
pub fn authenticate(
    conn: &mut DbConnection,
    secret: &str,
    made_after: Option<i64>,
) -> GameResult<Option<User>> {
    if !secret.starts_with(PREFIX) || secret.len() > 100 {
        return Ok(None);
    }
    let hash = sha256_hex(secret);
    // The token by its unique hash, then its user by id: as one join, PostgreSQL planned a merge
    // join that read the whole users table whenever its statistics on tokens were stale (after
    // many new tokens: 40-60 ms a request with 33,000 users).
    let token: Option<(TokenId, UserId, i64, Option<i64>)> = crate::on_backend!(conn, c => api_tokens::table
        .filter(api_tokens::token_hash.eq(&hash))
        .select((
            api_tokens::id,
            api_tokens::user_id,
            api_tokens::created_at,
            api_tokens::last_used_at,
        ))
        .first(c)
        .optional())?;
    let found = match token {
        Some((id, user_id, created, last_used)) => {
            crate::game::accounts::users::find(conn, user_id)?
                .map(|user| (id, created, last_used, user))
        }
        None => None,
    };
    let Some((id, created, last_used, user)) = found else {
        return Ok(None);
    };
    if made_after.is_some_and(|t| created < t) {
        return Ok(None);
    }
    if user.banned {
        return Ok(None);
    }
    let now = db::now();
    if last_used.is_none_or(|t| now - t >= 60) {
        diesel::update(api_tokens::table.find(id))
            .set(api_tokens::last_used_at.eq(now))
            .execute(conn)?;
    }
    Ok(Some(user))
}
