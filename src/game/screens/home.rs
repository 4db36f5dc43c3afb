//! The home screen of a player who comes back: each world they play, with their nation, their
//! companies, their unread messages there and when the next turn comes (the home page shows it
//! above the list of every world, with what happened since their last visit).

use crate::config::Config;
use crate::db::models::{Company, Nation, World};
use crate::db::schema::{companies, messages, nations, players, worlds};
use crate::db::DbConnection;
use crate::game::error::GameResult;
use crate::game::play::access::Actor;
use crate::ids::WorldId;
use diesel::prelude::*;

/// One world the player plays.
pub struct YourWorld {
    pub world: World,
    pub nation: Nation,
    /// Their companies there, in the order they were raised.
    pub companies: Vec<Company>,
    /// Private messages to them there not yet read.
    pub unread: i64,
    /// When the next turn is due; none when the world is paused, over or has no schedule.
    pub next_turn: Option<i64>,
}

/// The worlds `actor` plays, those still going first, newest world first.
pub fn your_worlds(
    conn: &mut DbConnection,
    config: &Config,
    actor: &Actor,
) -> GameResult<Vec<YourWorld>> {
    let rows: Vec<(crate::ids::PlayerId, World, Nation)> = players::table
        .inner_join(worlds::table)
        .inner_join(nations::table)
        .filter(players::user_id.eq(actor.user_id))
        .order(worlds::id.desc())
        .select((players::id, World::as_select(), Nation::as_select()))
        .load(conn)?;
    let unread: Vec<(WorldId, i64)> = messages::table
        .filter(messages::to_user_id.eq(actor.user_id))
        .filter(messages::read_at.is_null())
        .filter(messages::removed_at.is_null())
        .group_by(messages::world_id)
        .select((messages::world_id, diesel::dsl::count_star()))
        .load(conn)?;
    let mut out = Vec::with_capacity(rows.len());
    for (player_id, world, nation) in rows {
        let list: Vec<Company> = companies::table
            .filter(companies::player_id.eq(player_id))
            .order(companies::id)
            .select(Company::as_select())
            .load(conn)?;
        let next_turn = if world.paused || world.ended() {
            None
        } else {
            crate::game::time::clock::next_turn(conn, config, &world)?
        };
        out.push(YourWorld {
            unread: unread
                .iter()
                .find(|(w, _)| *w == world.id)
                .map_or(0, |(_, n)| *n),
            world,
            nation,
            companies: list,
            next_turn,
        });
    }
    out.sort_by_key(|y| y.world.ended());
    Ok(out)
}
