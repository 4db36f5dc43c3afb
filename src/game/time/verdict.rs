//! The campaign's part of each turn (docs/rules.md §11): the nations' strength for the
//! history, and the verdict after the turn (`rules::victory`), which may end the campaign.
//! The points and the history rows are written by the turn's set-based statements
//! (`ticks::statements::campaign_statements`).

use crate::db::models::{NewEvent, World};
use crate::db::schema::{nation_turns, nations, towns, worlds};
use crate::db::{self, DbConnection};
use crate::game::error::GameResult;
use crate::game::maps::worlds as world_rows;
use crate::game::news::events;
use crate::ids::{NationId, UserId, WorldId};
use crate::rules::names::EventKind;
use crate::rules::ruleset::Ruleset;
use crate::rules::victory::{self, Standing, Verdict};
use crate::said::Said;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Integer};

#[derive(QueryableByName)]
struct Clear {
    #[diesel(sql_type = Integer)]
    nation: i32,
    #[diesel(sql_type = BigInt)]
    n: i64,
}

/// Each nation's points and the towns it owns with no enemy company in any of their cells.
pub fn standings_now(conn: &mut DbConnection, world_id: WorldId) -> GameResult<Vec<Standing>> {
    let points: Vec<(i32, i64)> = nations::table
        .filter(nations::world_id.eq(world_id))
        .select((nations::id, nations::points))
        .order(nations::id)
        .load(conn)?;
    // Town cells by their index, the companies on them by their cell's key.
    let sql = "SELECT t.owner_id AS nation, COUNT(*) AS n FROM towns t \
        WHERE t.world_id = $1 AND t.owner_id IS NOT NULL AND NOT EXISTS ( \
          SELECT 1 FROM cells ce JOIN companies c ON c.world_id = ce.world_id AND c.x = ce.x AND c.y = ce.y \
          JOIN players p ON p.id = c.player_id \
          WHERE ce.world_id = $1 AND ce.town_id = t.id AND p.nation_id <> t.owner_id) \
        GROUP BY t.owner_id";
    let sql = conn.numbered(sql);
    let clear: Vec<Clear> = diesel::sql_query(sql)
        .bind::<Integer, _>(world_id)
        .load(conn)?;
    Ok(points
        .into_iter()
        .map(|(nation, points)| Standing {
            nation,
            points,
            towns_clear: clear.iter().find(|c| c.nation == nation).map_or(0, |c| c.n),
        })
        .collect())
}

#[derive(QueryableByName)]
struct Strength {
    #[diesel(sql_type = Integer)]
    nation: i32,
    #[diesel(sql_type = BigInt)]
    k: i64,
    #[diesel(sql_type = BigInt)]
    m: i64,
}

/// Each nation's companies and men: one pass over the world's companies, read before the
/// turn's last transaction so that orders do not wait for it.
pub fn strength(conn: &mut DbConnection, world_id: WorldId) -> GameResult<Vec<(i32, i64, i64)>> {
    let sql = "SELECT p.nation_id AS nation, COUNT(*) AS k, CAST(COALESCE(SUM(c.men), 0) AS BIGINT) AS m \
        FROM companies c JOIN players p ON p.id = c.player_id WHERE c.world_id = $1 \
        GROUP BY p.nation_id";
    let sql = conn.numbered(sql);
    let rows: Vec<Strength> = diesel::sql_query(sql)
        .bind::<Integer, _>(world_id)
        .load(conn)?;
    Ok(rows.into_iter().map(|s| (s.nation, s.k, s.m)).collect())
}

/// Writes the companies and men counted by `strength` into the turn's history lines.
pub fn record_strength(
    conn: &mut DbConnection,
    world_id: WorldId,
    turn: i32,
    strength: &[(i32, i64, i64)],
) -> GameResult<()> {
    for &(nation, k, m) in strength {
        diesel::update(nation_turns::table.find((world_id, turn, nation)))
            .set((nation_turns::companies.eq(k), nation_turns::men.eq(m)))
            .execute(conn)?;
    }
    Ok(())
}

/// After the turn `turn` has been applied (in its last transaction): ends the campaign when
/// the rules say so.
pub fn after_turn(
    conn: &mut DbConnection,
    rs: &Ruleset,
    world_id: WorldId,
    turn: i32,
) -> GameResult<Option<Verdict>> {
    let w = world_rows::get(conn, world_id)?;
    let standings = standings_now(conn, world_id)?;
    let all_towns: i64 = towns::table
        .filter(towns::world_id.eq(world_id))
        .count()
        .get_result(conn)?;
    let Some(v) = victory::verdict(&w.victory(&rs.victory), turn, all_towns, &standings) else {
        return Ok(None);
    };
    end(conn, &w, turn, v, None)?;
    Ok(Some(v))
}

/// Writes the end: the world's result, an event, and an alert to every player of the world.
pub fn end(
    conn: &mut DbConnection,
    w: &World,
    turn: i32,
    v: Verdict,
    by: Option<UserId>,
) -> GameResult<()> {
    diesel::update(worlds::table.find(w.id))
        .set((
            worlds::ended_turn.eq(Some(turn)),
            worlds::ended_reason.eq(Some(v.reason.as_str())),
            worlds::winner_id.eq(v.winner),
        ))
        .execute(conn)?;
    let said = match v.winner {
        Some(id) => {
            let (name, points): (String, i64) = nations::table
                .find(id)
                .select((nations::name, nations::points))
                .first(conn)?;
            Said::new("said-campaign-won")
                .s("world", w.name.as_str())
                .n("turn", turn)
                .s("nation", name)
                .n("points", points)
                .m("why", format!("campaign-why-{}", v.reason.as_str()))
        }
        None => Said::new("said-campaign-draw")
            .s("world", w.name.as_str())
            .n("turn", turn)
            .m("why", format!("campaign-why-{}", v.reason.as_str())),
    };
    let e = NewEvent {
        actor_user_id: by,
        nation_id: v.winner.map(NationId),
        data: serde_json::json!({"reason": v.reason.as_str(), "winner": v.winner}).to_string(),
        ..NewEvent::new(w.id, turn, db::now(), EventKind::CampaignEnd)
    }
    .saying(&said);
    // Recording it alerts every player of the world (`alerts::from_events`).
    events::record(conn, e)?;
    Ok(())
}
