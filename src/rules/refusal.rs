//! Why the engine refused an action: a closed set, each with the stable code of the public
//! contract (docs/api.md) and a message for people.

use super::grid::Pos;
use super::names::{Kind, Terrain};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    Invalid(String),
    NotEnoughAp {
        need: i32,
        have: i32,
    },
    Occupied(Pos),
    NotAdjacent {
        from: Pos,
        to: Pos,
    },
    OutOfMap(Pos),
    EnemyFort(Pos),
    Impassable {
        at: Pos,
        terrain: Terrain,
        kind: Kind,
    },
    StopsMovement {
        at: Pos,
        terrain: Terrain,
    },
    NoPath {
        to: Pos,
    },
    OutOfRange {
        distance: i32,
        range: i32,
    },
    NoLineOfSight {
        blocked_at: Pos,
    },
    HiddenTarget,
    /// The target is not a company the acting nation sees (answered as `not_found`).
    NotSeen,
    RangedOnly {
        terrain: Terrain,
    },
    CannotVolley(Kind),
    CannotMelee(Kind),
    NotSappers(Kind),
    NotRiver(Pos),
    NotOwned(Pos),
    CompanyLimit(i32),
    Treasury {
        need: i64,
        have: i64,
    },
    /// An attack or a bombardment of the acting nation's own company or ground.
    OwnNation,
    NoStructure {
        at: Pos,
        terrain: Terrain,
    },
    CannotBombard(Kind),
    AlreadyBreached(Pos),
    FullStructure {
        at: Pos,
        max: i32,
    },
    NoWounded,
    FullStrength(i32),
    NoReinforcementHere(Terrain),
    ReserveEmpty,
    NotHeadquarters(Terrain),
    AlreadyThere,
    /// The acting player is on leave until this instant.
    OnLeave(i64),
    /// The target's player is on leave.
    TargetOnLeave,
    LeaveLength {
        min: i32,
        max: i32,
    },
    /// A fight too recent for leave; leave may start from this instant.
    RecentFight(i64),
    /// A climb onto an enemy wall (or down its outside) that is not a move's first step, or
    /// that a move goes on after (docs/rules.md §12).
    LadderFirstStep(Pos),
    /// This kind cannot climb there (mounted companies and war machines never climb; only
    /// voltigeurs climb a tower; a fortified wall is never climbed).
    CannotClimb {
        at: Pos,
        terrain: Terrain,
        kind: Kind,
    },
    /// Another nation's gate, standing: only its owner passes.
    GateClosed(Pos),
    /// The ram strikes gates only.
    NotGate(Pos),
    CannotRam(Kind),
    /// A siege tower goes up outside a castle, next to an enemy wall or tower.
    NoEnemyWall(Pos),
    /// No volley is fired into or out of a building.
    VolleyBuilding(Pos),
}

impl Refusal {
    /// The stable error code of the public contract.
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::Invalid(_) => "invalid",
            Refusal::NotEnoughAp { .. } => "not_enough_ap",
            Refusal::Occupied(_) => "occupied",
            Refusal::NotAdjacent { .. } => "not_adjacent",
            Refusal::OutOfMap(_) => "out_of_map",
            Refusal::EnemyFort(_) => "enemy_fort",
            Refusal::Impassable { .. } => "impassable",
            Refusal::StopsMovement { .. } => "stops_movement",
            Refusal::NoPath { .. } => "no_path",
            Refusal::OutOfRange { .. } => "out_of_range",
            Refusal::NoLineOfSight { .. } => "no_line_of_sight",
            Refusal::HiddenTarget => "hidden_target",
            Refusal::NotSeen => "not_found",
            Refusal::RangedOnly { .. } => "ranged_only",
            Refusal::CannotVolley(_) => "cannot_volley",
            Refusal::CannotMelee(_) => "cannot_melee",
            Refusal::NotSappers(_) => "not_sappers",
            Refusal::NotRiver(_) => "not_river",
            Refusal::NotOwned(_) => "not_owned",
            Refusal::CompanyLimit(_) => "company_limit",
            Refusal::Treasury { .. } => "treasury",
            Refusal::OwnNation => "own_nation",
            Refusal::NoStructure { .. } => "no_structure",
            Refusal::CannotBombard(_) => "cannot_bombard",
            Refusal::AlreadyBreached(_) => "already_breached",
            Refusal::FullStructure { .. } => "full_structure",
            Refusal::NoWounded => "no_wounded",
            Refusal::FullStrength(_) => "full_strength",
            Refusal::NoReinforcementHere(_) => "no_reinforcement_here",
            Refusal::ReserveEmpty => "reserve_empty",
            Refusal::NotHeadquarters(_) => "not_headquarters",
            Refusal::AlreadyThere => "already_there",
            Refusal::OnLeave(_) | Refusal::TargetOnLeave => "on_leave",
            Refusal::LeaveLength { .. } => "leave_length",
            Refusal::RecentFight(_) => "recent_fight",
            Refusal::LadderFirstStep(_) => "ladder_first_step",
            Refusal::CannotClimb { .. } => "cannot_climb",
            Refusal::GateClosed(_) => "gate_closed",
            Refusal::NotGate(_) => "not_gate",
            Refusal::CannotRam(_) => "cannot_ram",
            Refusal::NoEnemyWall(_) => "no_enemy_wall",
            Refusal::VolleyBuilding(_) => "volley_building",
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Invalid(m) => f.write_str(m),
            Refusal::NotEnoughAp { need, have } => {
                write!(
                    f,
                    "not enough action points: this needs {need} AP and the company has {have}"
                )
            }
            Refusal::Occupied(p) => write!(f, "cell {p} is occupied by another company"),
            Refusal::NotAdjacent { from, to } => write!(f, "{to} is not next to {from}"),
            Refusal::OutOfMap(p) => write!(f, "cell {p} is outside the map"),
            Refusal::EnemyFort(p) => write!(
                f,
                "the fortified cell {p} belongs to another nation and is not breached"
            ),
            Refusal::Impassable { at, terrain, kind } => {
                write!(f, "{kind} cannot enter {terrain} at {at}")
            }
            Refusal::StopsMovement { at, terrain } => {
                write!(
                    f,
                    "entering {terrain} at {at} stops movement: the path cannot go on after it"
                )
            }
            Refusal::NoPath { to } => write!(f, "there is no path to {to}"),
            Refusal::OutOfRange { distance, range } => {
                write!(
                    f,
                    "the target is {distance} cells away; the range is {range}"
                )
            }
            Refusal::NoLineOfSight { blocked_at } => {
                write!(f, "no line of sight: {blocked_at} is in the way")
            }
            Refusal::HiddenTarget => {
                f.write_str("the target is hidden: it can only be attacked in melee")
            }
            Refusal::NotSeen => f.write_str("your nation sees no such company"),
            Refusal::RangedOnly { terrain } => {
                write!(f, "a company in a {terrain} can only be attacked at range")
            }
            Refusal::CannotVolley(k) => write!(f, "{k} cannot fire volleys"),
            Refusal::CannotMelee(k) => write!(f, "{k} cannot fight in melee"),
            Refusal::NotSappers(k) => write!(f, "only sappers can do this, not {k}"),
            Refusal::NotRiver(p) => write!(f, "cell {p} is not a river"),
            Refusal::NotOwned(p) => write!(f, "cell {p} does not belong to your nation"),
            Refusal::CompanyLimit(n) => {
                write!(f, "you already command the most companies allowed ({n})")
            }
            Refusal::Treasury { need, have } => {
                write!(f, "the nation's treasury holds {have}; this costs {need}")
            }
            Refusal::OwnNation => {
                f.write_str("that belongs to your own nation: attack only another nation's")
            }
            Refusal::NoStructure { at, terrain } => {
                write!(f, "{terrain} at {at} has no structure to bombard or repair")
            }
            Refusal::CannotBombard(k) => write!(f, "{k} cannot bombard: only artillery can"),
            Refusal::AlreadyBreached(p) => {
                write!(f, "{p} is breached already: there is nothing left to knock down")
            }
            Refusal::FullStructure { at, max } => {
                write!(f, "{at} is whole already, at its full {max} points")
            }
            Refusal::NoWounded => f.write_str("the company has no wounded to heal"),
            Refusal::FullStrength(full) => {
                write!(f, "the company is at its full strength of {full} already")
            }
            Refusal::NoReinforcementHere(t) => write!(
                f,
                "reinforcements join only on ground that takes them (a town, village or farm), not on {t}"
            ),
            Refusal::ReserveEmpty => f.write_str("your reserve holds no men: it grows each turn"),
            Refusal::NotHeadquarters(t) => {
                write!(f, "a headquarters needs ground that can hold one (a farm), not {t}")
            }
            Refusal::AlreadyThere => f.write_str("the company is there already"),
            Refusal::OnLeave(until) => write!(
                f,
                "you are on leave until {}: your companies take no orders until then",
                instant(*until)
            ),
            Refusal::TargetOnLeave => f.write_str(
                "that company is on leave: it cannot be attacked until its player comes back",
            ),
            Refusal::LeaveLength { min, max } => {
                write!(f, "a leave lasts {min} to {max} days")
            }
            Refusal::RecentFight(from) => write!(
                f,
                "one of your companies fought too recently: leave may start from {}",
                instant(*from)
            ),
            Refusal::LadderFirstStep(p) => write!(
                f,
                "climbing onto or down from the wall at {p} takes a whole move: it must be the move's only step"
            ),
            Refusal::CannotClimb { at, terrain, kind } => {
                write!(f, "{kind} cannot climb the {terrain} at {at}")
            }
            Refusal::GateClosed(p) => write!(
                f,
                "the gate at {p} is another nation's and still stands: only its own nation passes"
            ),
            Refusal::NotGate(p) => write!(f, "a ram breaks gates only; {p} is no gate"),
            Refusal::CannotRam(k) => {
                write!(f, "{k} cannot ram a gate: infantry and sappers can")
            }
            Refusal::NoEnemyWall(p) => write!(
                f,
                "a siege tower goes up outside a castle, next to an enemy wall or tower; {p} is not such a cell"
            ),
            Refusal::VolleyBuilding(p) => write!(
                f,
                "no volley is fired into or out of a building, as at {p}: fight there in melee"
            ),
        }
    }
}

impl std::error::Error for Refusal {}

/// An instant as people read it, in UTC, to the minute (the pages say instants so too).
pub fn instant(t: i64) -> String {
    chrono::DateTime::from_timestamp(t, 0)
        .map(|d| d.format("%Y-%m-%d %H:%M UTC").to_string())
        .unwrap_or_else(|| t.to_string())
}
