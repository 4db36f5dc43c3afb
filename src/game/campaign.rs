//! The campaign around the turns (docs/rules.md §11): the verdict after each turn, its end
//! (by the rules or by a game master), and what the standings and history pages read. The
//! points and the history rows themselves are written by the turn's set-based statements
//! (`time::ticks::world_turn_statements`); the verdict is `rules::victory`.

use crate::db::models::{NewEvent, World};
use crate::db::schema::{nation_turns, nations, towns, worlds};
use crate::db::{self, DbConnection};
use crate::game::error::{GameError, GameResult};
use crate::game::maps::worlds as world_rows;
use crate::game::news::events;
use crate::game::play::access::Actor;
use crate::rules::ruleset::Ruleset;
use crate::rules::victory::{self, EndReason, Standing, Verdict};
use crate::said::Said;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Integer};
use serde::Serialize;

#[derive(QueryableByName)]
struct Clear {
    #[diesel(sql_type = Integer)]
    nation: i32,
    #[diesel(sql_type = BigInt)]
    n: i64,
}

/// Each nation's points and the towns it owns with no enemy company in any of their cells.
fn standings_now(conn: &mut DbConnection, world_id: i32) -> GameResult<Vec<Standing>> {
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
    let sql = if conn.is_sqlite() {
        sql.replace('$', "?")
    } else {
        sql.to_string()
    };
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

/// After the turn `turn` has been applied (in its last transaction): ends the campaign when
/// the rules say so.
pub fn after_turn(
    conn: &mut DbConnection,
    rs: &Ruleset,
    world_id: i32,
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

/// A game master ends the campaign now, the nation with most points winning.
pub fn end_by_game_master(
    conn: &mut DbConnection,
    actor: &Actor,
    world_id: i32,
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
        Ok(v)
    })
}

/// Writes the end: the world's result, an event, and an alert to every player of the world.
fn end(
    conn: &mut DbConnection,
    w: &World,
    turn: i32,
    v: Verdict,
    by: Option<i32>,
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
        world_id: w.id,
        turn,
        at: db::now(),
        kind: "campaign_end".into(),
        actor_user_id: by,
        nation_id: v.winner,
        data: serde_json::json!({"reason": v.reason.as_str(), "winner": v.winner}).to_string(),
        ..Default::default()
    }
    .saying(&said);
    // Recording it alerts every player of the world (`alerts::from_event`).
    events::record(conn, e)?;
    Ok(())
}

/// One nation's line of the standings.
#[derive(Clone, Debug, Serialize)]
pub struct NationStanding {
    pub nation: String,
    pub nation_id: i32,
    pub color: String,
    pub points: i64,
    pub towns: i64,
    pub mines: i64,
    pub sections: i64,
}

/// `GET /api/v1/worlds/{w}/standings` and the standings page.
#[derive(Clone, Debug, Serialize)]
pub struct Standings {
    /// `running` or `ended`.
    pub status: &'static str,
    pub winner: Option<String>,
    /// Why it ended: `points`, `towns`, `last_turn` or `game_master`.
    pub reason: Option<String>,
    pub turn: i32,
    /// What it takes to win here.
    pub points_to_win: i64,
    pub end_turn: i32,
    pub towns_share: f64,
    pub nations: Vec<NationStanding>,
}

/// The standings of a world, most points first (public, as the nations page).
pub fn standings(conn: &mut DbConnection, rs: &Ruleset, world_id: i32) -> GameResult<Standings> {
    let w = world_rows::get(conn, world_id)?;
    let ns = world_rows::nations_of(conn, world_id)?;
    let last: Vec<(i32, i64, i64, i64)> = nation_turns::table
        .filter(nation_turns::world_id.eq(world_id))
        .filter(nation_turns::turn.eq(w.turn))
        .select((
            nation_turns::nation_id,
            nation_turns::towns,
            nation_turns::mines,
            nation_turns::sections,
        ))
        .load(conn)?;
    let mut nations: Vec<NationStanding> = ns
        .iter()
        .map(|n| {
            let held = last.iter().find(|r| r.0 == n.id);
            NationStanding {
                nation: n.name.clone(),
                nation_id: n.id,
                color: n.color.clone(),
                points: n.points,
                towns: held.map_or(0, |r| r.1),
                mines: held.map_or(0, |r| r.2),
                sections: held.map_or(0, |r| r.3),
            }
        })
        .collect();
    nations.sort_by(|a, b| b.points.cmp(&a.points).then(a.nation_id.cmp(&b.nation_id)));
    let v = w.victory(&rs.victory);
    Ok(Standings {
        status: if w.ended() { "ended" } else { "running" },
        winner: w
            .winner_id
            .and_then(|id| ns.iter().find(|n| n.id == id))
            .map(|n| n.name.clone()),
        reason: w.ended_reason.clone(),
        turn: w.turn,
        points_to_win: v.points,
        end_turn: v.end_turn,
        towns_share: v.towns_share,
        nations,
    })
}

/// One nation in one turn of the history.
#[derive(Clone, Debug, Serialize, Queryable)]
pub struct NationTurn {
    #[serde(skip)]
    pub turn: i32,
    pub nation: String,
    pub points: i64,
    pub towns: i64,
    pub mines: i64,
    pub sections: i64,
    pub companies: i64,
    pub men: i64,
}

#[derive(Clone, Debug, Serialize)]
pub struct HistoryTurn {
    pub turn: i32,
    pub nations: Vec<NationTurn>,
}

/// `GET /api/v1/worlds/{w}/history`: the campaign turn by turn, oldest first.
#[derive(Clone, Debug, Serialize)]
pub struct History {
    pub turns: Vec<HistoryTurn>,
}

/// The history of a world: one indexed range of its rows.
pub fn history(conn: &mut DbConnection, world_id: i32) -> GameResult<History> {
    world_rows::get(conn, world_id)?;
    let rows: Vec<NationTurn> = nation_turns::table
        .inner_join(nations::table.on(nations::id.eq(nation_turns::nation_id)))
        .filter(nation_turns::world_id.eq(world_id))
        .order((nation_turns::turn, nation_turns::nation_id))
        .select((
            nation_turns::turn,
            nations::name,
            nation_turns::points,
            nation_turns::towns,
            nation_turns::mines,
            nation_turns::sections,
            nation_turns::companies,
            nation_turns::men,
        ))
        .load(conn)?;
    let mut turns: Vec<HistoryTurn> = Vec::new();
    for r in rows {
        match turns.last_mut() {
            Some(t) if t.turn == r.turn => t.nations.push(r),
            _ => turns.push(HistoryTurn {
                turn: r.turn,
                nations: vec![r],
            }),
        }
    }
    Ok(History { turns })
}
