//! The turn's effects as set-based SQL, written from the ruleset: one statement for a chunk of
//! companies, a few for the world. `rules::tick` is the definition they are held to (a test
//! compares the two on random worlds).

use crate::db::DbConnection;
use crate::rules::ruleset::{Flag, Ruleset};
use crate::rules::{Kind, Terrain};

/// The SQL spelling of n-ary min/max on each backend.
struct Dialect {
    least: &'static str,
    greatest: &'static str,
}

fn dialect(conn: &DbConnection) -> Dialect {
    if conn.is_sqlite() {
        Dialect {
            least: "MIN",
            greatest: "MAX",
        }
    } else {
        Dialect {
            least: "LEAST",
            greatest: "GREATEST",
        }
    }
}

/// `CASE kind WHEN 'infantry' THEN <f(infantry)> … END`, from the ruleset. Kind names come from
/// the closed enum and numbers from the validated ruleset, so inlining them is safe.
fn by_kind(rs: &Ruleset, f: impl Fn(&crate::rules::ruleset::KindRules) -> i32) -> String {
    let arms: String = Kind::ALL
        .iter()
        .map(|k| format!(" WHEN '{}' THEN {}", k.as_str(), f(rs.kind(*k))))
        .collect();
    format!("(CASE kind{arms} ELSE 0 END)")
}

/// Terrain names as an SQL list; `NULL` when there are none, which matches nothing.
fn quoted<'a>(terrains: impl Iterator<Item = &'a Terrain>) -> String {
    let names: Vec<String> = terrains.map(|t| format!("'{}'", t.as_str())).collect();
    if names.is_empty() {
        "NULL".into()
    } else {
        names.join(", ")
    }
}

/// The statement that turns a world's companies whose ids lie in `($2, $3]`, for the instant
/// `at`; `on_leave`: whether some player of the world is on leave then (their companies are
/// frozen).
pub fn companies_turn_statement(
    rs: &Ruleset,
    conn: &DbConnection,
    grid: crate::rules::Grid,
    at: i64,
    on_leave: bool,
) -> String {
    let d = dialect(conn);
    let t = &rs.turn;
    let max_ap = by_kind(rs, |k| k.max_ap);
    let per_turn = by_kind(rs, |k| k.ap_per_turn);
    let full = by_kind(rs, |k| k.full_strength);
    let healed = format!(
        "{least}(wounded, {heal}, {greatest}({full} - men, 0))",
        least = d.least,
        greatest = d.greatest,
        heal = t.wounded_healed
    );
    // Companies of a regiment within its radius of a headquarters on a farm the regiment's
    // nation still owns: one set computed up front, so the update probes a hash, not a join.
    // `rules::tick::headquarters_holds` in SQL: a terrain that can hold one, owned by the nation.
    let hq_terrains = quoted(
        Terrain::ALL
            .iter()
            .filter(|tr| rs.terrain(**tr).has(Flag::Headquarters)),
    );
    let near = format!(
        // The chunk's companies within the radius of their regiment's headquarters first,
        // joined through regiments, whose rows the planner counts right; then the cell under
        // each of those few headquarters, probed by its key. Headquarters whose cells were
        // tested first were counted as one row by PostgreSQL, which then matched each against
        // every company of the chunk (a chunk took 165 ms instead of a few). Each company's
        // regiment is read through its player's key: joined, PostgreSQL hashed every player of
        // the world for each chunk (10 of a chunk's 19 ms).
        "WITH within AS MATERIALIZED (SELECT c.id, r.world_id, r.nation_id, r.hq_x, r.hq_y \
           FROM companies c \
           JOIN regiments r ON r.id = (SELECT p.regiment_id FROM players p WHERE p.id = c.player_id) \
           WHERE c.world_id = $1 AND c.id > $2 AND c.id <= $3 \
           AND ABS(r.hq_x - c.x) <= {radius} AND ABS(r.hq_y - c.y) <= {radius}{hex}), \
         near AS (SELECT w.id FROM within w JOIN cells h ON h.world_id = w.world_id \
           AND h.x = w.hq_x AND h.y = w.hq_y \
           WHERE h.owner_id = w.nation_id AND h.terrain IN ({hq_terrains})) ",
        radius = t.regiment_radius,
        // On hexes the square is trimmed to the hex distance (axial q = x - (y - (y & 1)) / 2).
        hex = match grid {
            crate::rules::Grid::Square => String::new(),
            crate::rules::Grid::Hex => format!(
                " AND ABS((r.hq_x - (r.hq_y - (r.hq_y & 1)) / 2) - (c.x - (c.y - (c.y & 1)) / 2)) \
                 + ABS(r.hq_y - c.y) \
                 + ABS((r.hq_x - (r.hq_y - (r.hq_y & 1)) / 2) - (c.x - (c.y - (c.y & 1)) / 2) + r.hq_y - c.y) \
                 <= {}",
                2 * t.regiment_radius
            ),
        },
    );
    let near_hq = format!(
        "(CASE WHEN id IN (SELECT id FROM near) THEN {} ELSE 0 END)",
        t.regiment_morale_bonus
    );
    // Companies of players on leave at the turn's instant are frozen: the turn passes them by.
    // The test costs a lookup per company, so it is written only when someone is on leave.
    let frozen = if on_leave {
        format!(" AND player_id NOT IN (SELECT id FROM players WHERE world_id = $1 AND leave_until > {at})")
    } else {
        String::new()
    };
    format!(
        "{near}UPDATE companies SET \
           ap = {least}(ap + {per_turn}, {max_ap}), \
           morale = {least}(morale + {gain} + {near_hq}, {morale_max}), \
           men = men + {healed}, \
           wounded = wounded - {healed}, \
           volley_recency = {greatest}(volley_recency - 1, 0) \
         WHERE world_id = $1 AND id > $2 AND id <= $3{frozen}",
        least = d.least,
        greatest = d.greatest,
        gain = t.morale_gain,
        morale_max = rs.combat.morale_max,
    )
}

/// The statements that end a turn over the world `$1` once its companies have had it:
/// the mines' output, the campaign's part, reserves and the rankings, the turn's number.
pub fn world_turn_statements(rs: &Ruleset) -> Vec<String> {
    let t = &rs.turn;
    let outputs: Vec<(Terrain, i32)> = Terrain::ALL
        .iter()
        .map(|tr| (*tr, rs.terrain(*tr).output))
        .filter(|(_, o)| *o > 0)
        .collect();
    let mut stmts = Vec::new();
    if !outputs.is_empty() {
        let case: String = outputs
            .iter()
            .map(|(tr, o)| format!(" WHEN '{}' THEN {o}", tr.as_str()))
            .collect();
        let names = quoted(outputs.iter().map(|(tr, _)| tr));
        stmts.push(format!(
            "UPDATE nations SET treasury = treasury + COALESCE((SELECT SUM(CASE c.terrain{case} ELSE 0 END) \
               FROM cells c WHERE c.world_id = nations.world_id AND c.owner_id = nations.id \
               AND c.terrain IN ({names})), 0) WHERE world_id = $1"
        ));
    }
    stmts.extend(campaign_statements(rs));
    // The reserves, and the rankings as this turn leaves them (after the points, which they
    // show): one pass over the players. Between turns the rankings read these copies only, so
    // that no order shows in them before the turn is applied.
    // Joined to the world and the nations once, rather than two lookups a player (185 of the
    // turn's 1,200 ms for 33,334 players on PostgreSQL).
    stmts.push(format!(
        "UPDATE players SET reserve = reserve + {}, \
           ranked_turn = w.turn + 1, \
           ranked_inflicted = inflicted, ranked_lost = lost, ranked_captures = captures, \
           ranked_xp = xp, ranked_turns = turns_played, \
           ranked_points = n.points \
         FROM worlds w, nations n \
         WHERE players.world_id = $1 AND w.id = players.world_id AND n.id = players.nation_id",
        t.reserve_gain
    ));
    stmts.push("UPDATE worlds SET turn = turn + 1 WHERE id = $1".into());
    stmts
}

/// The campaign's part of the turn (docs/rules.md §11): each nation's line of the history,
/// numbered with the turn about to be counted, with the towns and mines it holds (read once,
/// through their indexes: the towns of the world, `cells_owner`); then its points for them
/// (`rules::victory::gain`), read back from that line by its key, and the line's points. The
/// companies and men per nation are counted before this last transaction
/// (`time::verdict::strength`), so that a pass over every company does not hold orders up.
/// The castle sections are first given their holders: the one nation with companies on a
/// section's cells (read through the sections' index, then each cell's company by key).
pub fn campaign_statements(rs: &Ruleset) -> Vec<String> {
    let v = &rs.victory;
    let mine = Terrain::Mine.as_str();
    let line = "nation_turns h WHERE h.world_id = nations.world_id AND h.nation_id = nations.id \
        AND h.turn = (SELECT w.turn + 1 FROM worlds w WHERE w.id = nations.world_id)";
    vec![
        "UPDATE castle_sections SET holder_id = (SELECT CASE WHEN MIN(p.nation_id) = MAX(p.nation_id) \
           THEN MIN(p.nation_id) END FROM cells c \
           JOIN companies co ON co.world_id = c.world_id AND co.x = c.x AND co.y = c.y \
           JOIN players p ON p.id = co.player_id \
           WHERE c.world_id = castle_sections.world_id AND c.section_id = castle_sections.id) \
         WHERE world_id = $1"
            .to_string(),
        format!(
            "INSERT INTO nation_turns (world_id, turn, nation_id, points, towns, mines, sections, companies, men) \
             SELECT n.world_id, w.turn + 1, n.id, 0, \
               (SELECT COUNT(*) FROM towns t WHERE t.world_id = n.world_id AND t.owner_id = n.id), \
               (SELECT COUNT(*) FROM cells c WHERE c.world_id = n.world_id AND c.owner_id = n.id \
                  AND c.terrain = '{mine}'), \
               (SELECT COUNT(*) FROM castle_sections s WHERE s.world_id = n.world_id AND s.holder_id = n.id), \
               0, 0 \
             FROM nations n JOIN worlds w ON w.id = n.world_id WHERE n.world_id = $1"
        ),
        format!(
            "UPDATE nations SET points = points + COALESCE((SELECT {} * h.towns + {} * h.mines + {} * h.sections \
             FROM {line}), 0) WHERE world_id = $1",
            v.per_town, v.per_mine, v.per_section,
        ),
        "UPDATE nation_turns SET points = (SELECT n.points FROM nations n WHERE n.id = nation_turns.nation_id) \
         WHERE world_id = $1 AND turn = (SELECT w.turn + 1 FROM worlds w WHERE w.id = $1)"
            .to_string(),
    ]
}
