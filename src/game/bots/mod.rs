//! Bots (docs/rules.md §14): players of a nation played by the server. A bot is an account
//! marked `bot` that no one logs into, seated in one world by a game master; once per turn,
//! after the turn, it gives its companies' orders through the very order code a person's go
//! through (`play::orders::execute`, `play::raise`), deciding from what its nation sees
//! (`sight`) with the pure evaluator of `rules::bot`. `turn` says when and how often.

pub mod sight;
pub mod simulate;
pub mod spots;
pub mod turn;

use crate::db::models::Player;
use crate::db::schema::{bots, companies, nations, players, users};
use crate::db::{self, DbConnection};
use crate::game::error::{GameError, GameResult};
use crate::game::gm::audit;
use crate::game::maps::worlds;
use crate::game::play::access::Actor;
use crate::ids::{NationId, PlayerId, WorldId};
use crate::rules::bot::BotLevel;
use crate::said::Said;
use diesel::prelude::*;

pub use turn::{play_all, play_world, Played};

/// A bot seated in a world, as the game masters' list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seated {
    pub name: String,
    pub player_id: PlayerId,
    pub nation_id: NationId,
    pub nation: String,
    pub level: BotLevel,
    pub companies: i64,
}

/// A level named by a game master or on the command line.
pub fn parse_level(s: &str) -> GameResult<BotLevel> {
    s.trim()
        .parse()
        .map_err(|_| GameError::Invalid(Said::new("error-bot-level").s("level", s.trim()).into()))
}

/// The name a new bot of `nation` takes: the nation's letters and digits, `-bot`, and a number
/// when that is taken (an account name: 3–24 of `[A-Za-z0-9_-]`).
fn free_name(conn: &mut DbConnection, nation: &str) -> GameResult<String> {
    let mut base: String = nation
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect::<String>()
        .trim_matches('-')
        .chars()
        .take(16)
        .collect();
    if base.is_empty() {
        base = "nation".into();
    }
    for n in 1..1000 {
        let name = if n == 1 {
            format!("{base}-bot")
        } else {
            format!("{base}-bot{n}")
        };
        let taken: i64 = users::table
            .filter(users::username_key.eq(name.to_lowercase()))
            .count()
            .get_result(conn)?;
        if taken == 0 {
            return Ok(name);
        }
    }
    Err(GameError::Conflict(Said::new("error-bot-name").into()))
}

/// Seats a bot of `level` in `nation` (its name or id): a new account marked `bot`, which no
/// password opens, and its player in the world. For the command line and the demo; game
/// masters go through [`add`].
pub fn seat(
    conn: &mut DbConnection,
    world_id: WorldId,
    nation: &str,
    level: BotLevel,
) -> GameResult<Seated> {
    db::write(conn, |conn| {
        let w = worlds::get(conn, world_id)?;
        if w.ended() {
            return Err(GameError::CampaignOver);
        }
        let n = worlds::nations_of(conn, world_id)?
            .into_iter()
            .find(|n| {
                n.name.eq_ignore_ascii_case(nation.trim()) || n.id.to_string() == nation.trim()
            })
            .ok_or_else(|| {
                GameError::Invalid(Said::new("error-no-nation").s("nation", nation).into())
            })?;
        let name = free_name(conn, &n.name)?;
        let now = db::now();
        let user_id: crate::ids::UserId = diesel::insert_into(users::table)
            .values((
                users::username.eq(&name),
                users::username_key.eq(name.to_lowercase()),
                // No password hashes to this: no one logs in as a bot.
                users::password_hash.eq("!"),
                users::role.eq("player"),
                users::banned.eq(false),
                users::created_at.eq(now),
                users::bot.eq(true),
            ))
            .returning(users::id)
            .get_result(conn)
            .map_err(|e| match e {
                // Another game master seated a bot of the same name at this very moment.
                diesel::result::Error::DatabaseError(
                    diesel::result::DatabaseErrorKind::UniqueViolation,
                    _,
                ) => GameError::Conflict(Said::new("error-bot-name").into()),
                other => other.into(),
            })?;
        let player_id: PlayerId = diesel::insert_into(players::table)
            .values((
                players::world_id.eq(world_id),
                players::user_id.eq(user_id),
                players::nation_id.eq(n.id),
                players::reserve.eq(0),
                players::joined_at.eq(now),
            ))
            .returning(players::id)
            .get_result(conn)?;
        diesel::insert_into(bots::table)
            .values((
                bots::player_id.eq(player_id),
                bots::world_id.eq(world_id),
                bots::level.eq(level.as_str()),
                bots::created_at.eq(now),
            ))
            .execute(conn)?;
        Ok(Seated {
            name,
            player_id,
            nation_id: n.id,
            nation: n.name,
            level,
            companies: 0,
        })
    })
}

/// The demo worlds' enemy (`[demo] bot`): a `normal` bot in the world's second nation. The
/// world is then won by points or by every town: the bot alone would otherwise take the free
/// towns in its first turns and end a campaign no newcomer has yet played (docs/decisions.md).
pub fn seat_demo(conn: &mut DbConnection, world_id: WorldId) -> GameResult<Option<Seated>> {
    let nations = worlds::nations_of(conn, world_id)?;
    let Some(n) = nations.get(1) else {
        return Ok(None);
    };
    db::write(conn, |conn| {
        diesel::update(crate::db::schema::worlds::table.find(world_id))
            .set(crate::db::schema::worlds::victory_towns_share.eq(Some(1.0)))
            .execute(conn)?;
        seat(conn, world_id, &n.id.to_string(), BotLevel::Normal).map(Some)
    })
}

/// A game master seats a bot (`POST /api/v1/worlds/{w}/bots`, the editor's panel).
pub fn add(
    conn: &mut DbConnection,
    actor: &Actor,
    world_id: WorldId,
    nation: &str,
    level: &str,
) -> GameResult<Seated> {
    actor.require_gm()?;
    let level = parse_level(level)?;
    db::write(conn, |conn| {
        let seated = seat(conn, world_id, nation, level)?;
        audit::record(
            conn,
            audit::Entry {
                world_id: Some(world_id),
                user_id: actor.user_id,
                action: "bot_add".into(),
                target: format!("bot {}", seated.name),
                after: Some(serde_json::json!({"nation": seated.nation, "level": level})),
                ..audit::Entry::default()
            },
        )?;
        Ok(seated)
    })
}

/// The bots seated in a world, oldest first.
pub fn list(conn: &mut DbConnection, world_id: WorldId) -> GameResult<Vec<Seated>> {
    let rows: Vec<(String, PlayerId, NationId, String, String)> = bots::table
        .inner_join(
            players::table
                .inner_join(users::table)
                .inner_join(nations::table),
        )
        .filter(bots::world_id.eq(world_id))
        .order(bots::player_id)
        .select((
            users::username,
            players::id,
            players::nation_id,
            nations::name,
            bots::level,
        ))
        .load(conn)?;
    let mut out = Vec::with_capacity(rows.len());
    for (name, player_id, nation_id, nation, level) in rows {
        let companies: i64 = companies::table
            .filter(companies::player_id.eq(player_id))
            .count()
            .get_result(conn)?;
        out.push(Seated {
            name,
            player_id,
            nation_id,
            nation,
            level: level.parse().unwrap_or(BotLevel::Normal),
            companies,
        });
    }
    Ok(out)
}

/// The bots of a world for a game master.
pub fn list_for(
    conn: &mut DbConnection,
    actor: &Actor,
    world_id: WorldId,
) -> GameResult<Vec<Seated>> {
    actor.require_gm()?;
    worlds::get(conn, world_id)?;
    list(conn, world_id)
}

/// The nations of a world a bot plays, by name, for the world page ("played by the computer"):
/// one query on the world page's path.
pub fn nations_played(conn: &mut DbConnection, world_id: WorldId) -> GameResult<Vec<String>> {
    Ok(bots::table
        .inner_join(players::table.inner_join(nations::table))
        .filter(bots::world_id.eq(world_id))
        .select(nations::name)
        .distinct()
        .order(nations::name)
        .load(conn)?)
}

/// Stops a bot: it gives no more orders. Its player and companies stay in the world as they
/// stand (marked a bot's wherever players are listed). `name` is the bot's account name.
pub fn remove(
    conn: &mut DbConnection,
    actor: &Actor,
    world_id: WorldId,
    name: &str,
) -> GameResult<()> {
    actor.require_gm()?;
    db::write(conn, |conn| {
        let player_id = seated_player(conn, world_id, name)?;
        diesel::delete(bots::table.find(player_id)).execute(conn)?;
        audit::record(
            conn,
            audit::Entry {
                world_id: Some(world_id),
                user_id: actor.user_id,
                action: "bot_remove".into(),
                target: format!("bot {name}"),
                ..audit::Entry::default()
            },
        )?;
        Ok(())
    })
}

/// [`remove`] from the command line, which names no account.
pub fn unseat(conn: &mut DbConnection, world_id: WorldId, name: &str) -> GameResult<()> {
    db::write(conn, |conn| {
        let player_id = seated_player(conn, world_id, name)?;
        diesel::delete(bots::table.find(player_id)).execute(conn)?;
        Ok(())
    })
}

fn seated_player(conn: &mut DbConnection, world_id: WorldId, name: &str) -> GameResult<PlayerId> {
    bots::table
        .inner_join(players::table.inner_join(users::table))
        .filter(bots::world_id.eq(world_id))
        .filter(users::username_key.eq(name.trim().to_lowercase()))
        .select(bots::player_id)
        .first(conn)
        .optional()?
        .ok_or_else(|| GameError::not_found("bot"))
}

/// Whether the player's account is a bot's.
pub fn is_bot(conn: &mut DbConnection, p: &Player) -> GameResult<bool> {
    Ok(users::table
        .find(p.user_id)
        .select(users::bot)
        .first(conn)?)
}

/// A player's choice to have their nation's bot hold their companies while they are away.
pub fn set_hand_to_bot(
    conn: &mut DbConnection,
    user_id: crate::ids::UserId,
    on: bool,
) -> GameResult<()> {
    db::write(conn, |conn| {
        diesel::update(users::table.find(user_id))
            .set(users::hand_to_bot.eq(on))
            .execute(conn)?;
        Ok(())
    })
}
