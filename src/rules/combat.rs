//! Combat (docs/rules.md §6): volleys and melee, losses, the split into killed and wounded, morale,
//! destruction and experience.

use super::dice::{Draw, Mean, Roll};
use super::grid::Pos;
use super::names::{Class, Cover, Kind, Terrain};
use super::refusal::Refusal;
use super::ruleset::{Flag, Ruleset};
use super::state::{Area, Cell, Unit};
use super::vision::{is_hidden, line_of_sight, nation_sees, Sightline};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BattleKind {
    Volley,
    Melee,
}

/// What one side of a fight went through.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(as = BattleSide)]
pub struct Side {
    pub company: i32,
    pub nation: i32,
    pub kind: Kind,
    pub terrain: Terrain,
    pub men_before: i32,
    pub wounded_before: i32,
    pub morale_before: i32,
    /// The damage rolled against this side (None when nothing struck it).
    pub damage_roll: Option<i32>,
    pub raw_losses: i32,
    /// Protection applied to this side's losses, in percent.
    pub protection: i32,
    pub confidence: i32,
    pub losses: i32,
    pub killed: i32,
    pub wounded: i32,
    pub men_after: i32,
    pub wounded_after: i32,
    pub morale_after: i32,
    pub xp_gained: i32,
    pub destroyed: bool,
}

/// What the castle's rules changed in a fight (docs/rules.md §12), for the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BattleNote {
    /// The defenders on the wall struck first: the attackers fought with the men left.
    FirstStrike,
    /// Melee into or out of a wall, tower, gate or building: half damage both ways.
    CloseQuarters,
    /// The attackers came from a siege tower: no first strike.
    SiegeTower,
    /// The defenders stood behind a rampart on the side the blow came through (docs/rules.md
    /// §13): in melee half their losses; no morale lost.
    Rampart,
    /// The volley's line passed cover on its way: the target was obscured.
    Obscured,
}

/// What shelters a side from a blow besides its cell's protection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shelter {
    /// The percent of the losses taken (a rampart in melee: `cover.rampart_melee_losses`).
    losses_percent: i32,
    /// No morale lost (a rampart).
    steady: bool,
}

impl Shelter {
    /// Nothing but the cell.
    const OPEN: Shelter = Shelter {
        losses_percent: 100,
        steady: false,
    };
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Battle {
    pub kind: BattleKind,
    pub ap_cost: i32,
    pub attacker: Side,
    pub defender: Side,
    pub draws: Vec<Draw>,
    pub notes: Vec<BattleNote>,
    /// The units as they stand after the fight (AP spent, figures updated).
    #[serde(skip)]
    pub attacker_after: Unit,
    #[serde(skip)]
    pub defender_after: Unit,
}

/// `round(damage × men / full_strength)`.
pub fn raw_losses(damage: i32, men: i32, full_strength: i32) -> i32 {
    (damage as f64 * men as f64 / full_strength as f64).round() as i32
}

/// `raw_losses` at half damage (close quarters): `round(damage / 2 × men / full_strength)`.
pub fn half_raw_losses(damage: i32, men: i32, full_strength: i32) -> i32 {
    (damage as f64 / 2.0 * men as f64 / full_strength as f64).round() as i32
}

/// Losses after a protection in percent, at most the men present.
pub fn protected_losses(raw: i32, protection: i32, men: i32) -> i32 {
    ((raw as f64 * (1.0 - protection as f64 / 100.0)).round() as i32).clamp(0, men)
}

/// Splits losses into (killed, wounded): effective morale
/// `m = clamp(morale + confidence / confidence_per_morale, 0, max)`, wounded =
/// `min(losses, round(losses × wounded_percent/100 × m/(max/2)))`: with the shipped 10 and 50,
/// the seed's `losses/2 × m/5`.
pub fn split_losses(rs: &Ruleset, losses: i32, morale: i32, confidence: i32) -> (i32, i32) {
    let c = &rs.combat;
    let max = c.morale_max as f64;
    let m = (morale as f64 + confidence as f64 / c.confidence_per_morale as f64).clamp(0.0, max);
    let share = c.wounded_percent as f64 / 100.0;
    let wounded = ((losses as f64 * share * m / (max / 2.0)).round() as i32).min(losses);
    (losses - wounded, wounded)
}

/// Experience for causing `losses`: 1 per `xp_per_losses`, at least 1 when any.
pub fn xp_for(rs: &Ruleset, losses: i32) -> i32 {
    if losses <= 0 {
        0
    } else {
        (losses / rs.combat.xp_per_losses).max(1)
    }
}

/// Applies `losses` to a unit standing on a cell with `confidence`; fills in a `Side`.
#[allow(clippy::too_many_arguments)]
fn take_losses(
    rs: &Ruleset,
    unit: &mut Unit,
    terrain: Terrain,
    damage_roll: Option<i32>,
    raw: i32,
    protection: i32,
    confidence: i32,
    shelter: Shelter,
) -> Side {
    let (men_before, wounded_before, morale_before) = (unit.men, unit.wounded, unit.morale);
    let mut losses = protected_losses(raw, protection, unit.men);
    if shelter.losses_percent != 100 {
        // Rounded half up, as the other losses are.
        losses = (losses * shelter.losses_percent + 50) / 100;
    }
    let (killed, wounded) = split_losses(rs, losses, unit.morale, confidence);
    unit.men -= losses;
    unit.wounded += wounded;
    if !shelter.steady
        && losses as i64 * 100 > rs.combat.morale_loss_threshold as i64 * men_before as i64
    {
        unit.morale = (unit.morale - rs.combat.morale_loss).max(0);
    }
    let destroyed = unit.men <= 0;
    if destroyed {
        unit.wounded = 0;
    }
    Side {
        company: unit.id,
        nation: unit.nation,
        kind: unit.kind,
        terrain,
        men_before,
        wounded_before,
        morale_before,
        damage_roll,
        raw_losses: raw,
        protection,
        confidence,
        losses,
        killed,
        wounded,
        men_after: unit.men,
        wounded_after: unit.wounded,
        morale_after: unit.morale,
        xp_gained: 0,
        destroyed,
    }
}

fn untouched(unit: &Unit, terrain: Terrain, confidence: i32) -> Side {
    Side {
        company: unit.id,
        nation: unit.nation,
        kind: unit.kind,
        terrain,
        men_before: unit.men,
        wounded_before: unit.wounded,
        morale_before: unit.morale,
        damage_roll: None,
        raw_losses: 0,
        protection: 0,
        confidence,
        losses: 0,
        killed: 0,
        wounded: 0,
        men_after: unit.men,
        wounded_after: unit.wounded,
        morale_after: unit.morale,
        xp_gained: 0,
        destroyed: false,
    }
}

/// Finds an enemy target the attacker's nation sees.
fn enemy_target<'a>(
    rs: &Ruleset,
    area: &'a Area,
    attacker: &Unit,
    at: Pos,
) -> Result<&'a Unit, Refusal> {
    let target = area.unit_at(at).ok_or(Refusal::NotSeen)?;
    if target.nation == attacker.nation {
        return Err(Refusal::OwnNation);
    }
    if !nation_sees(rs, area, attacker.nation, target) {
        return Err(Refusal::NotSeen);
    }
    Ok(target)
}

/// The reach of a ranged attack from where the unit stands (range + terrain bonus, e.g.
/// artillery on a plateau).
pub fn reach(rs: &Ruleset, area: &Area, unit: &Unit, base: i32) -> i32 {
    let on = area.terrain(unit.pos).unwrap_or(Terrain::Plain);
    base + rs
        .terrain(on)
        .range_bonus
        .get(&unit.kind)
        .copied()
        .unwrap_or(0)
}

/// Checks distance and line of sight for a ranged action from `unit` to `at`.
pub fn ranged_check(
    rs: &Ruleset,
    area: &Area,
    unit: &Unit,
    at: Pos,
    base_range: i32,
) -> Result<(), Refusal> {
    let range = reach(rs, area, unit, base_range);
    let distance = area.bounds.distance(unit.pos, at);
    if distance > range {
        return Err(Refusal::OutOfRange { distance, range });
    }
    line_of_sight(rs, area, unit.pos, at)
        .map_err(|blocked_at| Refusal::NoLineOfSight { blocked_at })
}

fn pay(unit: &Unit, cost: i32) -> Result<(), Refusal> {
    if unit.ap < cost {
        return Err(Refusal::NotEnoughAp {
            need: cost,
            have: unit.ap,
        });
    }
    Ok(())
}

/// A volley from `shooter` at the company on `at`.
pub fn volley(
    rs: &Ruleset,
    area: &Area,
    shooter: &Unit,
    at: Pos,
    dice: &mut impl Roll,
) -> Result<Battle, Refusal> {
    let attack = rs
        .kind(shooter.kind)
        .volley
        .ok_or(Refusal::CannotVolley(shooter.kind))?;
    let target = enemy_target(rs, area, shooter, at)?;
    let target_terrain = area.terrain(at).unwrap_or(Terrain::Plain);
    if is_hidden(rs, target, target_terrain) {
        return Err(Refusal::HiddenTarget);
    }
    for p in [shooter.pos, at] {
        if area
            .terrain(p)
            .is_some_and(|t| rs.terrain(t).has(Flag::NoVolley))
        {
            return Err(Refusal::VolleyBuilding(p));
        }
    }
    ranged_check(rs, area, shooter, at, attack.range)?;
    pay(shooter, attack.cost)?;

    let mark = dice.draws().len();
    let d = dice.roll("volley damage", attack.min, attack.max);
    let raw = raw_losses(d, shooter.men, rs.kind(shooter.kind).full_strength);
    let cell = area.cell(at).ok_or(Refusal::NotSeen)?;
    let ct = cell.defence(rs);
    let (protection, shelter, notes) =
        volley_cover(rs, area, shooter.pos, target, ct.volley_protection);
    let mut defender = target.clone();
    let mut def_side = take_losses(
        rs,
        &mut defender,
        target_terrain,
        Some(d),
        raw,
        protection,
        ct.confidence,
        shelter,
    );
    let mut attacker = shooter.clone();
    attacker.ap -= attack.cost;
    attacker.volley_recency = 2;
    let shooter_terrain = area.terrain(shooter.pos).unwrap_or(Terrain::Plain);
    let mut att_side = untouched(
        shooter,
        shooter_terrain,
        rs.terrain(shooter_terrain).confidence,
    );
    att_side.xp_gained = xp_for(rs, def_side.losses);
    attacker.xp += att_side.xp_gained;
    def_side.xp_gained = 0;
    Ok(Battle {
        kind: BattleKind::Volley,
        ap_cost: attack.cost,
        attacker: att_side,
        defender: def_side,
        draws: dice.since(mark),
        notes,
        attacker_after: attacker,
        defender_after: defender,
    })
}

/// A melee by `attacker` against the adjacent company on `at`; both strike at once.
pub fn melee(
    rs: &Ruleset,
    area: &Area,
    attacker: &Unit,
    at: Pos,
    dice: &mut impl Roll,
) -> Result<Battle, Refusal> {
    let attack = rs
        .kind(attacker.kind)
        .melee
        .ok_or(Refusal::CannotMelee(attacker.kind))?;
    // Whether the nation sees the target comes first: any other refusal would tell where an
    // unseen company stands.
    let target = enemy_target(rs, area, attacker, at)?;
    if !area.bounds.adjacent(attacker.pos, at) {
        return Err(Refusal::NotAdjacent {
            from: attacker.pos,
            to: at,
        });
    }
    let cell = area.cell(at).ok_or(Refusal::NotSeen)?;
    let ct = cell.defence(rs);
    if ct.ranged_only {
        return Err(Refusal::RangedOnly {
            terrain: cell.terrain,
        });
    }
    pay(attacker, attack.cost)?;

    let attacker_terrain = area.terrain(attacker.pos).unwrap_or(Terrain::Plain);
    let protection = if ct.melee_protection_against.is_empty()
        || ct.melee_protection_against.contains(&attacker_terrain)
    {
        ct.melee_protection
    } else {
        0
    };
    let mark = dice.draws().len();
    let d_att = dice.roll("melee damage (attacker)", attack.min, attack.max);
    let back = rs.kind(target.kind).melee;
    let d_def = back.map(|b| dice.roll("melee damage (defender)", b.min, b.max));

    let here = area.cell(attacker.pos);
    let mut notes = castle_notes(rs, here, cell);
    // A rampart on the side the attackers come through; cavalry behind it gets nothing of it.
    let behind_rampart =
        area.rampart_between(at, attacker.pos) && rs.kind(target.kind).class != Class::Mounted;
    if behind_rampart {
        notes.push(BattleNote::Rampart);
    }
    let blow = if notes.contains(&BattleNote::CloseQuarters) {
        half_raw_losses
    } else {
        raw_losses
    };
    let def_full = rs.kind(target.kind).full_strength;
    let raw_att = d_def.map_or(0, |d| blow(d, target.men, def_full));
    let mut fighter = attacker.clone();
    fighter.ap -= attack.cost;
    let att_conf = here.map_or(0, |c| c.defence(rs).confidence);
    let strike_back = |fighter: &mut Unit| {
        take_losses(
            rs,
            fighter,
            attacker_terrain,
            d_def,
            raw_att,
            0,
            att_conf,
            Shelter::OPEN,
        )
    };
    // The blows are simultaneous, each with the men standing before the fight, unless the
    // defenders on the wall strike first: then the attackers strike with the men left.
    let first = notes.contains(&BattleNote::FirstStrike);
    let mut early = first.then(|| strike_back(&mut fighter));
    let raw_def = blow(d_att, fighter.men, rs.kind(attacker.kind).full_strength);
    let mut defender = target.clone();
    let mut def_side = take_losses(
        rs,
        &mut defender,
        cell.terrain,
        Some(d_att),
        raw_def,
        protection,
        ct.confidence,
        if behind_rampart {
            Shelter {
                losses_percent: rs.cover.rampart_melee_losses,
                steady: true,
            }
        } else {
            Shelter::OPEN
        },
    );
    let mut att_side = match early.take() {
        Some(side) => side,
        None => strike_back(&mut fighter),
    };
    att_side.xp_gained = xp_for(rs, def_side.losses);
    fighter.xp += att_side.xp_gained;
    def_side.xp_gained = 0;
    Ok(Battle {
        kind: BattleKind::Melee,
        ap_cost: attack.cost,
        attacker: att_side,
        defender: def_side,
        draws: dice.since(mark),
        notes,
        attacker_after: fighter,
        defender_after: defender,
    })
}

/// A volley's protection of its target beyond the cell's own (docs/rules.md §13): cover the
/// line passes (obscured), a `light` terrain's protection kept for foot companies when the
/// ruleset says so, and a rampart on the side the line enters the target's cell by.
fn volley_cover(
    rs: &Ruleset,
    area: &Area,
    from: Pos,
    target: &Unit,
    cell_protection: i32,
) -> (i32, Shelter, Vec<BattleNote>) {
    let mut notes = Vec::new();
    let at = target.pos;
    let sight = Sightline::of(rs, area, from, at);
    let line = &sight.cells;
    let class = rs.kind(target.kind).class;
    let terrain = area.terrain(at).unwrap_or(Terrain::Plain);
    let mut protection = cell_protection;
    if rs.cover.light_foot_only && rs.terrain(terrain).cover == Cover::Light && class != Class::Foot
    {
        protection -= rs.terrain(terrain).volley_protection;
    }
    let obscured = sight.between().iter().any(|p| {
        !sight.blocked_by(rs, area, *p)
            && area
                .terrain(*p)
                .is_some_and(|t| rs.terrain(t).cover != Cover::Exposed)
    });
    if obscured {
        protection += rs.cover.obscured;
        notes.push(BattleNote::Obscured);
    }
    let entered_by = line.len().checked_sub(2).map(|i| line[i]);
    let steady = entered_by.is_some_and(|p| area.rampart_between(at, p)) && class != Class::Mounted;
    if steady {
        notes.push(BattleNote::Rampart);
    }
    (
        protection.clamp(-100, 100),
        Shelter {
            losses_percent: 100,
            steady,
        },
        notes,
    )
}

/// The castle's rules for a melee from `from` into `to` (docs/rules.md §12): half damage both
/// ways into or out of a wall, tower, gate or building; the first strike of defenders on a
/// wall, tower or gate against attackers neither on one nor on a siege tower.
pub fn castle_notes(rs: &Ruleset, from: Option<&Cell>, to: &Cell) -> Vec<BattleNote> {
    let has = |c: &Cell, f: Flag| rs.terrain(c.terrain).has(f);
    let mut notes = Vec::new();
    if has(to, Flag::CloseQuarters) || from.is_some_and(|c| has(c, Flag::CloseQuarters)) {
        notes.push(BattleNote::CloseQuarters);
    }
    if has(to, Flag::Wall) && !from.is_some_and(|c| has(c, Flag::Wall)) {
        if from.is_some_and(|c| c.siege_tower(rs)) {
            notes.push(BattleNote::SiegeTower);
        } else {
            notes.push(BattleNote::FirstStrike);
        }
    }
    notes
}

/// The expected outcome of an attack: the rules' own functions with every die at its mean
/// ([`Mean`]). What the attack buttons say, and what a bot weighs.
pub fn expect(rs: &Ruleset, area: &Area, me: &Unit, at: Pos, ranged: bool) -> Option<Battle> {
    let mut dice = Mean::default();
    if ranged {
        volley(rs, area, me, at, &mut dice).ok()
    } else {
        melee(rs, area, me, at, &mut dice).ok()
    }
}
