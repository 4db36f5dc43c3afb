//! The campaign (docs/rules.md §11) as players and game masters see it: the standings, the
//! history, the end by a game master, the players' rankings (`scores`) and the next campaign
//! on the same map (`next`). What each turn adds and the verdict after it are the turn's
//! (`time::verdict`).

pub mod next;
pub mod scores;

use crate::db::models::{Nation, World};
use crate::db::schema::{nation_turns, nations, worlds};
use crate::db::{self, DbConnection};
use crate::game::error::{GameError, GameResult};
use crate::game::gm::audit;
use crate::game::maps::mapfile::MapVictory;
use crate::game::maps::worlds as world_rows;
use crate::game::play::access::Actor;
use crate::game::time::verdict::{end, standings_now};
use crate::ids::{NationId, WorldId};
use crate::rules::ruleset::Ruleset;
use crate::rules::victory::{self, EndReason, Holdings, Verdict, VictoryRules};
use diesel::prelude::*;

/// A game master ends the campaign now, the nation with most points winning.
pub fn end_by_game_master(
    conn: &mut DbConnection,
    actor: &Actor,
    world_id: WorldId,
) -> GameResult<Verdict> {
    actor.require_gm()?;
    db::write(conn, |conn| {
        // The turn's lock: a running turn finishes first, none starts on an ended world.
        crate::game::time::ticks::refuse_during_turn(conn, world_id)?;
        let w = world_rows::get(conn, world_id)?;
        if w.ended() {
            return Err(GameError::CampaignOver);
        }
        let standings = standings_now(conn, world_id)?;
        let v = Verdict {
            reason: EndReason::GameMaster,
            winner: victory::leader(&standings),
        };
        end(conn, &w, w.turn, v, Some(actor.user_id))?;
        audit::record(
            conn,
            audit::Entry {
                world_id: Some(world_id),
                user_id: actor.user_id,
                action: "end_campaign".into(),
                target: format!("world {}", w.name),
                // The audit log keeps the verdict as the end's answer says it.
                after: Some(serde_json::json!({ "reason": v.reason, "winner": v.winner })),
                ..Default::default()
            },
        )?;
        Ok(v)
    })
}

/// A game master sets the world's own victory settings (a field left out keeps its value);
/// refused once the campaign is over. Takes effect from the next turn's verdict.
pub fn set_victory(
    conn: &mut DbConnection,
    actor: &Actor,
    world_id: WorldId,
    v: MapVictory,
) -> GameResult<World> {
    actor.require_gm()?;
    v.check("victory")
        .map_err(|e| GameError::Invalid(e.to_string().into()))?;
    db::write(conn, |conn| {
        let w = world_rows::get(conn, world_id)?;
        if w.ended() {
            return Err(GameError::CampaignOver);
        }
        let before = MapVictory {
            points: w.victory_points,
            end_turn: w.victory_end_turn,
            towns_share: w.victory_towns_share,
        };
        let after = MapVictory {
            points: v.points.or(before.points),
            end_turn: v.end_turn.or(before.end_turn),
            towns_share: v.towns_share.or(before.towns_share),
        };
        diesel::update(worlds::table.find(world_id))
            .set((
                worlds::victory_points.eq(after.points),
                worlds::victory_end_turn.eq(after.end_turn),
                worlds::victory_towns_share.eq(after.towns_share),
            ))
            .execute(conn)?;
        audit::record(
            conn,
            audit::Entry {
                world_id: Some(world_id),
                user_id: actor.user_id,
                action: "victory".into(),
                target: format!("world {}", w.name),
                before: audit::value(&before),
                after: audit::value(&after),
                ..Default::default()
            },
        )?;
        world_rows::get(conn, world_id)
    })
}

/// Where a campaign stands: its world, its nations with what each held after the last turn
/// (most points first), and what it takes to win there.
pub struct Scoreboard {
    pub world: World,
    pub nations: Vec<(Nation, Holdings)>,
    pub victory: VictoryRules,
}

/// The standings of a world, most points first (public, as the nations page).
pub fn standings(
    conn: &mut DbConnection,
    rs: &Ruleset,
    world_id: WorldId,
) -> GameResult<Scoreboard> {
    let w = world_rows::get(conn, world_id)?;
    let ns = world_rows::nations_of(conn, world_id)?;
    let last: Vec<(NationId, i64, i64, i64)> = nation_turns::table
        .filter(nation_turns::world_id.eq(world_id))
        .filter(nation_turns::turn.eq(w.turn))
        .select((
            nation_turns::nation_id,
            nation_turns::towns,
            nation_turns::mines,
            nation_turns::sections,
        ))
        .load(conn)?;
    let mut nations: Vec<(Nation, Holdings)> = ns
        .into_iter()
        .map(|n| {
            let held = last.iter().find(|r| r.0 == n.id);
            let holdings = Holdings {
                towns: held.map_or(0, |r| r.1),
                mines: held.map_or(0, |r| r.2),
                sections: held.map_or(0, |r| r.3),
            };
            (n, holdings)
        })
        .collect();
    nations.sort_by(|(a, _), (b, _)| b.points.cmp(&a.points).then(a.id.cmp(&b.id)));
    Ok(Scoreboard {
        victory: w.victory(&rs.victory),
        world: w,
        nations,
    })
}

/// One nation in one turn of the history.
#[derive(Clone, Debug, Queryable)]
pub struct NationTurn {
    pub turn: i32,
    pub nation_id: NationId,
    pub nation: String,
    pub points: i64,
    pub towns: i64,
    pub mines: i64,
    pub sections: i64,
    /// Another nation's companies and men are withheld (none) while the campaign runs: they
    /// are its strength, which the fog hides; the end publishes them.
    pub companies: Option<i64>,
    pub men: Option<i64>,
}

/// The history of a world as a player of `viewer` (a nation; none for a visitor or someone who
/// has not joined) may read it, turn by turn, oldest first: one indexed range of its rows.
pub fn history(
    conn: &mut DbConnection,
    world_id: WorldId,
    viewer: Option<NationId>,
) -> GameResult<Vec<NationTurn>> {
    let over = world_rows::get(conn, world_id)?.ended();
    let mut rows: Vec<NationTurn> = nation_turns::table
        .inner_join(nations::table.on(nations::id.eq(nation_turns::nation_id)))
        .filter(nation_turns::world_id.eq(world_id))
        .order((nation_turns::turn, nation_turns::nation_id))
        .select((
            nation_turns::turn,
            nation_turns::nation_id,
            nations::name,
            nation_turns::points,
            nation_turns::towns,
            nation_turns::mines,
            nation_turns::sections,
            nation_turns::companies.nullable(),
            nation_turns::men.nullable(),
        ))
        .load(conn)?;
    for r in rows
        .iter_mut()
        .filter(|r| !over && Some(r.nation_id) != viewer)
    {
        r.companies = None;
        r.men = None;
    }
    Ok(rows)
}
