//! The other actions (docs/rules.md §7): heal, reinforce, raise a company.

use super::grid::Pos;
use super::movement::can_enter;
use super::names::Kind;
use super::refusal::Refusal;
use super::ruleset::{Flag, Ruleset};
use super::state::{Area, Cell, Unit};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Healed {
    pub healed: i32,
    pub men_after: i32,
    pub wounded_after: i32,
    pub ap_cost: i32,
}

/// Up to `heal_men` wounded (plus the cell's heal bonus) return to the ranks, never past full
/// strength.
pub fn heal(rs: &Ruleset, unit: &Unit, on: &Cell) -> Result<Healed, Refusal> {
    let full = rs.kind(unit.kind).full_strength;
    if unit.wounded <= 0 {
        return Err(Refusal::NoWounded);
    }
    if unit.men >= full {
        return Err(Refusal::FullStrength(full));
    }
    let cost = rs.actions.heal;
    if unit.ap < cost {
        return Err(Refusal::NotEnoughAp {
            need: cost,
            have: unit.ap,
        });
    }
    let limit = rs.combat.heal_men + rs.terrain(on.terrain).heal_bonus;
    let healed = unit.wounded.min(limit).min(full - unit.men);
    Ok(Healed {
        healed,
        men_after: unit.men + healed,
        wounded_after: unit.wounded - healed,
        ap_cost: cost,
    })
}

/// What let fewer men join than were asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Shortfall {
    /// The company reached full strength.
    Room,
    Reserve,
    Treasury,
}

impl Shortfall {
    pub fn as_str(self) -> &'static str {
        match self {
            Shortfall::Room => "room",
            Shortfall::Reserve => "reserve",
            Shortfall::Treasury => "treasury",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Reinforced {
    /// Men who joined: as many as asked, or fewer when the company's room, the reserve or the
    /// treasury gave out first.
    pub men: i32,
    pub asked: i32,
    /// What stopped it short of `asked`: `room` (full strength), `reserve` or `treasury`.
    pub limited_by: Option<Shortfall>,
    pub cost: i64,
    pub men_after: i32,
    pub reserve_after: i32,
    pub treasury_after: i64,
    pub ap_cost: i32,
}

/// Men from the player's reserve join a company standing on an own town, village or farm, up
/// to full strength, each paid from the nation's treasury (docs/rules.md §7). A smaller reserve,
/// treasury or room reinforces as far as it goes; only when not one man can join is it refused.
pub fn reinforce(
    rs: &Ruleset,
    unit: &Unit,
    at: Pos,
    on: &Cell,
    reserve: i32,
    treasury: i64,
    men: i32,
) -> Result<Reinforced, Refusal> {
    if !rs.terrain(on.terrain).has(Flag::Reinforce) {
        return Err(Refusal::NoReinforcementHere(on.terrain));
    }
    if on.owner != Some(unit.nation) {
        return Err(Refusal::NotOwned(at));
    }
    if men <= 0 {
        return Err(Refusal::Invalid("ask for at least one man".into()));
    }
    let full = rs.kind(unit.kind).full_strength;
    let room = full - unit.men;
    if room <= 0 {
        return Err(Refusal::FullStrength(full));
    }
    if reserve <= 0 {
        return Err(Refusal::ReserveEmpty);
    }
    let per_man = rs.limits.reinforce_cost_per_man;
    let affordable = if per_man > 0 {
        (treasury.max(0) / per_man).min(i32::MAX as i64) as i32
    } else {
        i32::MAX
    };
    if affordable <= 0 {
        return Err(Refusal::Treasury {
            need: per_man,
            have: treasury,
        });
    }
    let ap_cost = rs.actions.reinforce;
    if unit.ap < ap_cost {
        return Err(Refusal::NotEnoughAp {
            need: ap_cost,
            have: unit.ap,
        });
    }
    let joined = men.min(room).min(reserve).min(affordable);
    let limited_by = if joined == men {
        None
    } else if joined == room {
        Some(Shortfall::Room)
    } else if joined == reserve {
        Some(Shortfall::Reserve)
    } else {
        Some(Shortfall::Treasury)
    };
    let cost = joined as i64 * per_man;
    Ok(Reinforced {
        men: joined,
        asked: men,
        limited_by,
        cost,
        men_after: unit.men + joined,
        reserve_after: reserve - joined,
        treasury_after: treasury - cost,
        ap_cost,
    })
}

/// A new company's figures and place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Raised {
    pub pos: Pos,
    pub men: i32,
    pub ap: i32,
    pub morale: i32,
    pub cost: i64,
}

/// Whether a player with `companies` companies may raise another, paid from `treasury`: under
/// the company limit, then the raise cost against the treasury. Its cost when they may. Asked
/// before the order (what the world page and the API offer) and by the order itself.
pub fn may_raise(rs: &Ruleset, companies: i64, treasury: i64) -> Result<i64, Refusal> {
    let limit = rs.limits.max_companies_per_player;
    if companies >= i64::from(limit) {
        return Err(Refusal::CompanyLimit(limit));
    }
    let cost = rs.limits.raise_cost;
    if cost > treasury {
        return Err(Refusal::Treasury {
            need: cost,
            have: treasury,
        });
    }
    Ok(cost)
}

/// Raising a company: under the limit, paid from the treasury ([`may_raise`]), at the spawn
/// cell or the nearest free cell the kind may stand on (nearest by distance, then row, then
/// column).
pub fn raise(
    rs: &Ruleset,
    area: &Area,
    nation: i32,
    kind: Kind,
    companies: i32,
    treasury: i64,
    spawn: Pos,
) -> Result<Raised, Refusal> {
    let cost = may_raise(rs, i64::from(companies), treasury)?;
    let k = rs.kind(kind);
    let probe = Unit {
        id: 0,
        nation,
        kind,
        pos: spawn,
        men: k.full_strength,
        wounded: 0,
        ap: k.max_ap,
        morale: rs.limits.raise_morale,
        xp: 0,
        volley_recency: 0,
    };
    let pos = area
        .positions()
        .filter(|p| area.unit_at(*p).is_none())
        .filter(|p| {
            area.cell(*p)
                .is_some_and(|c| can_enter(rs, &probe, *p, c).is_ok())
        })
        .min_by_key(|p| (area.bounds.distance(*p, spawn), p.y, p.x))
        .ok_or(Refusal::Occupied(spawn))?;
    Ok(Raised {
        pos,
        men: k.full_strength,
        // Raising costs `actions.raise` AP of the new company's first day (0 in the shipped rules).
        ap: (k.max_ap - rs.actions.raise).max(0),
        morale: rs.limits.raise_morale,
        cost,
    })
}
