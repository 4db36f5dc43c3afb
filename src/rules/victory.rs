//! A campaign's victory (docs/rules.md §11): the points a nation gains at the end of each turn
//! and the verdict that ends the campaign. Pure: the turn's SQL is held to these functions.

use serde::{Deserialize, Serialize};

/// `[victory]` of the ruleset; a world may override `points`, `end_turn` and `towns_share`.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, default)]
pub struct VictoryRules {
    /// A nation with this many points after a turn wins.
    pub points: i64,
    /// The campaign ends once this turn has been applied; 0 for no such end.
    pub end_turn: i32,
    /// A nation owning this share of all towns, with no enemy company in any of them, wins.
    pub towns_share: f64,
    /// Points gained at the end of each turn per town, mine and castle section held.
    pub per_town: i64,
    pub per_mine: i64,
    pub per_section: i64,
}

impl Default for VictoryRules {
    fn default() -> Self {
        VictoryRules {
            points: 1000,
            end_turn: 0,
            towns_share: 0.67,
            per_town: 3,
            per_mine: 1,
            per_section: 2,
        }
    }
}

/// What a nation holds at the end of a turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Holdings {
    pub towns: i64,
    pub mines: i64,
    pub sections: i64,
}

/// The points a nation gains at the end of a turn for what it holds.
pub fn gain(v: &VictoryRules, h: Holdings) -> i64 {
    v.per_town * h.towns + v.per_mine * h.mines + v.per_section * h.sections
}

/// A nation's standing once a turn's points are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    pub nation: i32,
    pub points: i64,
    /// Towns it owns with no enemy company in any of their cells.
    pub towns_clear: i64,
}

/// Why a campaign ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    Points,
    Towns,
    LastTurn,
    GameMaster,
}

impl EndReason {
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Points => "points",
            EndReason::Towns => "towns",
            EndReason::LastTurn => "last_turn",
            EndReason::GameMaster => "game_master",
        }
    }
}

/// The end of a campaign: why, and the nation with most points (none on a tie: a draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub reason: EndReason,
    pub winner: Option<i32>,
}

/// The nation with most points; none when two or more share the most (a draw).
pub fn leader(standings: &[Standing]) -> Option<i32> {
    let best = standings.iter().map(|s| s.points).max()?;
    let mut top = standings.iter().filter(|s| s.points == best);
    let first = top.next()?;
    top.next().is_none().then_some(first.nation)
}

/// Whether the campaign ends after `turn` has been applied, all towns numbering `towns`.
pub fn verdict(v: &VictoryRules, turn: i32, towns: i64, standings: &[Standing]) -> Option<Verdict> {
    let reason = if standings.iter().any(|s| s.points >= v.points) {
        EndReason::Points
    } else if towns > 0
        && standings
            .iter()
            .any(|s| s.towns_clear as f64 >= v.towns_share * towns as f64)
    {
        EndReason::Towns
    } else if v.end_turn > 0 && turn >= v.end_turn {
        EndReason::LastTurn
    } else {
        return None;
    };
    Some(Verdict {
        reason,
        winner: leader(standings),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(nation: i32, points: i64, towns_clear: i64) -> Standing {
        Standing {
            nation,
            points,
            towns_clear,
        }
    }

    #[test]
    fn a_turn_pays_three_per_town_one_per_mine_two_per_section() {
        let v = VictoryRules::default();
        let h = Holdings {
            towns: 2,
            mines: 5,
            sections: 3,
        };
        assert_eq!(gain(&v, h), 2 * 3 + 5 + 3 * 2);
        assert_eq!(gain(&v, Holdings::default()), 0);
    }

    #[test]
    fn the_campaign_ends_at_the_points() {
        let v = VictoryRules::default();
        assert_eq!(verdict(&v, 40, 10, &[s(1, 999, 0), s(2, 10, 0)]), None);
        assert_eq!(
            verdict(&v, 40, 10, &[s(1, 1000, 0), s(2, 10, 0)]),
            Some(Verdict {
                reason: EndReason::Points,
                winner: Some(1)
            })
        );
    }

    #[test]
    fn the_campaign_ends_at_the_share_of_towns_held_clear() {
        let v = VictoryRules::default();
        // 0.67 of 3 towns is 2.01: two are not enough, three are.
        assert_eq!(verdict(&v, 5, 3, &[s(1, 50, 2), s(2, 60, 0)]), None);
        assert_eq!(
            verdict(&v, 5, 3, &[s(1, 50, 3), s(2, 60, 0)]),
            Some(Verdict {
                reason: EndReason::Towns,
                winner: Some(2)
            }),
            "the nation with most points wins, whoever ended it"
        );
        // No towns at all: no end by towns.
        assert_eq!(verdict(&v, 5, 0, &[s(1, 0, 0)]), None);
    }

    #[test]
    fn the_campaign_ends_at_its_last_turn_and_a_tie_is_a_draw() {
        let v = VictoryRules {
            end_turn: 12,
            ..VictoryRules::default()
        };
        assert_eq!(verdict(&v, 11, 4, &[s(1, 30, 0), s(2, 30, 0)]), None);
        assert_eq!(
            verdict(&v, 12, 4, &[s(1, 30, 0), s(2, 30, 0)]),
            Some(Verdict {
                reason: EndReason::LastTurn,
                winner: None
            })
        );
        let never = VictoryRules::default();
        assert_eq!(verdict(&never, 100_000, 4, &[s(1, 30, 0)]), None);
    }
}
