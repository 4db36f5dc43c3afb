//! Turn and season maths (docs/rules.md §8) for one company, reserve or treasury. The scheduler
//! applies the same effects as set-based SQL; tests check one against the other.

use super::grid::{Grid, Pos};
use super::names::{Kind, Season};
use super::ruleset::{Flag, Ruleset};
use super::state::{Cell, NationId};

/// The parts of a company a turn changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompanyTurn {
    pub men: i32,
    pub wounded: i32,
    pub ap: i32,
    pub morale: i32,
    pub volley_recency: i32,
}

/// One turn for a company: AP per turn up to max, morale +1 (+ the regiment bonus near its
/// headquarters) up to max, wounded healed up to full strength, the volley flag aged.
pub fn turn_company(
    rs: &Ruleset,
    kind: Kind,
    c: CompanyTurn,
    near_headquarters: bool,
) -> CompanyTurn {
    let k = rs.kind(kind);
    let bonus = if near_headquarters {
        rs.turn.regiment_morale_bonus
    } else {
        0
    };
    let healed = c
        .wounded
        .min(rs.turn.wounded_healed)
        .min((k.full_strength - c.men).max(0));
    CompanyTurn {
        men: c.men + healed,
        wounded: c.wounded - healed,
        ap: (c.ap + k.ap_per_turn).min(k.max_ap),
        morale: (c.morale + rs.turn.morale_gain + bonus).min(rs.combat.morale_max),
        volley_recency: (c.volley_recency - 1).max(0),
    }
}

/// Whether a regiment of `nation` still has its headquarters on `cell`: a terrain that can hold
/// one (a farm in the shipped rules), owned by the nation. A farm the game master turned into
/// another terrain, or ground the nation lost, holds none.
pub fn headquarters_holds(rs: &Ruleset, cell: &Cell, nation: NationId) -> bool {
    rs.terrain(cell.terrain).has(Flag::Headquarters) && cell.owner == Some(nation)
}

/// Whether a company at `pos` is close enough to its regiment's headquarters for the bonus.
pub fn near_headquarters(rs: &Ruleset, grid: Grid, pos: Pos, headquarters: Option<Pos>) -> bool {
    headquarters.is_some_and(|hq| grid.distance(hq, pos) <= rs.turn.regiment_radius)
}

/// A player's reserve after a turn.
pub fn turn_reserve(rs: &Ruleset, reserve: i32) -> i32 {
    reserve + rs.turn.reserve_gain
}

/// A nation's treasury after a turn, given the output of each producing cell it owns.
pub fn turn_treasury(treasury: i64, outputs: impl IntoIterator<Item = i32>) -> i64 {
    treasury + outputs.into_iter().map(i64::from).sum::<i64>()
}

/// The season after a season tick.
pub fn season_after(s: Season) -> Season {
    s.flipped()
}
