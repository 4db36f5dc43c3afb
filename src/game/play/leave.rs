//! Taking leave (vacation) in a world: `rules::leave` decides, this writes it, one transaction.

use crate::db::models::NewEvent;
use crate::db::schema::{events as event_rows, players};
use crate::db::{self, DbConnection};
use crate::game::error::GameResult;
use crate::game::news::events;
use crate::game::play::access::{self, Actor};
use crate::ids::WorldId;
use crate::rules::names::EventKind;
use crate::rules::{leave, Ruleset};
use crate::said::Said;
use diesel::prelude::*;

/// Puts the actor's companies in `world_id` on leave for `days` days; returns when it ends.
pub fn take(
    conn: &mut DbConnection,
    rs: &Ruleset,
    actor: &Actor,
    world_id: WorldId,
    days: i32,
) -> GameResult<i64> {
    db::write(conn, |conn| {
        let player = access::require_player(conn, actor, world_id)?;
        crate::game::time::ticks::refuse_during_turn(conn, world_id)?;
        let now = db::now();
        // The last fight one of the player's companies took part in, on either side.
        let last_fight: Option<i64> = event_rows::table
            .filter(event_rows::world_id.eq(world_id))
            .filter(
                event_rows::kind.eq_any([EventKind::Volley.as_str(), EventKind::Melee.as_str()]),
            )
            .filter(
                event_rows::actor_user_id
                    .eq(actor.user_id)
                    .or(event_rows::target_user_id.eq(actor.user_id)),
            )
            .select(diesel::dsl::max(event_rows::at))
            .first(conn)?;
        let until = leave::begin(rs, days, now, player.leave_until, last_fight)?;
        diesel::update(players::table.find(player.id))
            .set(players::leave_until.eq(Some(until)))
            .execute(conn)?;
        let w = crate::game::maps::worlds::get(conn, world_id)?;
        events::record(
            conn,
            NewEvent {
                actor_user_id: Some(actor.user_id),
                target_user_id: Some(actor.user_id),
                nation_id: Some(player.nation_id),
                data: serde_json::json!({"until": until, "days": days}).to_string(),
                ..NewEvent::new(world_id, w.turn, now, EventKind::Leave)
            }
            .saying(
                &Said::new("said-leave")
                    .s("player", actor.username.as_str())
                    .n("days", days),
            ),
        )?;
        Ok(until)
    })
}
