//! Regiments: players of a nation band together; companies near the headquarters, on a farm
//! the nation owns, gain morale each turn.

use crate::db::models::{Player, Regiment};
use crate::db::schema::{cells, players, regiments};
use crate::db::{self, DbConnection};
use crate::game::error::{GameError, GameResult};
use crate::game::maps::worlds;
use crate::game::play::access::{self, Actor};
use crate::ids::{RegimentId, WorldId};
use crate::rules::ruleset::Flag;
use crate::rules::{Pos, Refusal, Ruleset, Terrain};
use crate::said::Said;
use diesel::prelude::*;

/// Creates a regiment of the actor's nation and joins it.
pub fn create_regiment(
    conn: &mut DbConnection,
    rs: &Ruleset,
    actor: &Actor,
    world_id: WorldId,
    name: &str,
) -> GameResult<Regiment> {
    let name = name.trim().to_string();
    let max = rs.limits.regiment_name_max as usize;
    if name.is_empty() || name.chars().count() > max {
        return Err(GameError::Invalid(
            Said::new("error-name-length")
                .m("what", "what-regiment-name")
                .n("max", max as i64)
                .into(),
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(GameError::Invalid(
            Said::new("error-control")
                .m("what", "what-regiment-name")
                .into(),
        ));
    }
    let taken_msg = Said::new("error-regiment-name-taken").s("name", name.as_str());
    db::write(conn, |conn| {
        let player = access::require_player(conn, actor, world_id)?;
        let taken: i64 = regiments::table
            .filter(regiments::world_id.eq(world_id))
            .filter(regiments::name.eq(&name))
            .count()
            .get_result(conn)?;
        if taken > 0 {
            return Err(GameError::Conflict(taken_msg.clone().into()));
        }
        // Two players naming a regiment at once on PostgreSQL: the unique index decides.
        let id: RegimentId = diesel::insert_into(regiments::table)
            .values((
                regiments::world_id.eq(world_id),
                regiments::nation_id.eq(player.nation_id),
                regiments::name.eq(&name),
                regiments::created_at.eq(db::now()),
            ))
            .returning(regiments::id)
            .get_result(conn)
            .map_err(|e| match e {
                diesel::result::Error::DatabaseError(
                    diesel::result::DatabaseErrorKind::UniqueViolation,
                    _,
                ) => GameError::Conflict(taken_msg.clone().into()),
                other => other.into(),
            })?;
        diesel::update(players::table.find(player.id))
            .set(players::regiment_id.eq(Some(id)))
            .execute(conn)?;
        Ok(regiments::table
            .find(id)
            .select(Regiment::as_select())
            .first(conn)?)
    })
}

fn regiment_of_nation(
    conn: &mut DbConnection,
    player: &Player,
    regiment_id: RegimentId,
) -> GameResult<Regiment> {
    let r: Regiment = regiments::table
        .find(regiment_id)
        .select(Regiment::as_select())
        .first(conn)
        .optional()?
        // Another nation's regiment is not found, as for any other of its objects.
        .filter(|r: &Regiment| r.world_id == player.world_id && r.nation_id == player.nation_id)
        .ok_or_else(|| GameError::not_found("regiment of your nation"))?;
    Ok(r)
}

/// Joins a regiment of one's own nation (leaving any other).
pub fn join_regiment(
    conn: &mut DbConnection,
    actor: &Actor,
    world_id: WorldId,
    regiment_id: RegimentId,
) -> GameResult<Regiment> {
    db::write(conn, |conn| {
        let player = access::require_player(conn, actor, world_id)?;
        let r = regiment_of_nation(conn, &player, regiment_id)?;
        diesel::update(players::table.find(player.id))
            .set(players::regiment_id.eq(Some(r.id)))
            .execute(conn)?;
        Ok(r)
    })
}

/// Sets the headquarters of the actor's regiment on a farm their nation owns.
pub fn set_headquarters(
    conn: &mut DbConnection,
    rs: &Ruleset,
    actor: &Actor,
    world_id: WorldId,
    regiment_id: RegimentId,
    at: Pos,
) -> GameResult<Regiment> {
    db::write(conn, |conn| {
        let player = access::require_player(conn, actor, world_id)?;
        let r = regiment_of_nation(conn, &player, regiment_id)?;
        if player.regiment_id != Some(r.id) {
            return Err(GameError::Forbidden(Said::new("error-hq-members").into()));
        }
        let w = worlds::get(conn, world_id)?;
        if !w.bounds().contains(at) {
            return Err(Refusal::OutOfMap(at).into());
        }
        let (t, owner): (Terrain, Option<i32>) = cells::table
            .find((world_id, at.x, at.y))
            .select((cells::terrain, cells::owner_id))
            .first(conn)?;
        if !rs.terrain(t).has(Flag::Headquarters) {
            return Err(Refusal::NotHeadquarters(t).into());
        }
        if owner != Some(player.nation_id.0) {
            return Err(Refusal::NotOwned(at).into());
        }
        diesel::update(regiments::table.find(r.id))
            .set((
                regiments::hq_x.eq(Some(at.x)),
                regiments::hq_y.eq(Some(at.y)),
            ))
            .execute(conn)?;
        Ok(regiments::table
            .find(r.id)
            .select(Regiment::as_select())
            .first(conn)?)
    })
}

pub fn regiments_of(conn: &mut DbConnection, world_id: WorldId) -> GameResult<Vec<Regiment>> {
    Ok(regiments::table
        .filter(regiments::world_id.eq(world_id))
        .order(regiments::id)
        .select(Regiment::as_select())
        .load(conn)?)
}
