//! How a bot's company chooses its next order (docs/rules.md §14), pure: it reads only the
//! window of the world its nation sees ([`vision::as_seen_by`]) and asks the very rule
//! functions an order runs (`combat::volley`, `siege::ram`, `movement::enter`…) what each
//! choice would give, with every die at its mean. The game layer (`game::bots`) gives the
//! chosen order through the same code as a person's and asks again with the company as the
//! order left it.

use super::combat;
use super::dice::Mean;
use super::movement;
use super::names::{Kind, Terrain};
use super::ruleset::{Ability, Flag, Ruleset};
use super::siege;
use super::state::{Area, CompanyId, Unit};
use super::vision;
use super::Pos;
use std::collections::{BinaryHeap, HashMap, HashSet};

pub use super::names::BotLevel;

/// What the bot does with a company: play the campaign, or only hold it (an absent player's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Raise, take and hold, attack where the dice favour it, storm castles.
    Play,
    /// Defend, heal and keep out of traps; never head for anything.
    Hold,
}

/// One order of a bot's company, as the order code takes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    Volley(Pos),
    Melee(Pos),
    Heal,
    /// The cells to walk through, the company's own excluded.
    Move(Vec<Pos>),
    Ram(Pos),
    Bombard(Pos),
    BuildSiegeTower(Pos),
}

/// What the game layer tells the evaluator beyond the window.
pub struct Plan<'a> {
    pub rs: &'a Ruleset,
    /// The window around the company, as its nation sees it.
    pub area: &'a Area,
    pub level: BotLevel,
    pub mode: Mode,
    /// Where the company is headed: the nearest objective left to it (a mine, a town's church,
    /// a castle section), or a seen enemy.
    pub goal: Option<Pos>,
    /// The nearest friendly town or fort, to fall back to.
    pub refuge: Option<Pos>,
    /// Companies that may not be attacked (their players on leave).
    pub untouchable: &'a HashSet<CompanyId>,
    /// Enemy companies the nation's other companies attacked this turn, and how often.
    pub struck: &'a HashMap<CompanyId, i32>,
    /// Action points the company keeps (an easy bot spends only half of its turn's).
    pub keep_ap: i32,
}

/// Whether a company is worn out: under half its strength, or its morale under a third of the
/// most, with wounded to heal.
pub fn worn(rs: &Ruleset, me: &Unit) -> bool {
    let full = rs.kind(me.kind).full_strength;
    me.wounded > 0 && (me.men * 2 < full || me.morale * 3 < rs.combat.morale_max)
}

/// The next order for `me`, or none when it should stay where it is this turn.
pub fn choose(plan: &Plan, me: &Unit) -> Option<Choice> {
    let spare = me.ap - plan.keep_ap;
    if spare <= 0 {
        return None;
    }
    let threatened = threat(plan, me);
    // Worn out: heal where it stands unless an enemy is upon it, else fall back first.
    if worn(plan.rs, me) {
        let on = plan.area.cell(me.pos)?;
        let healing = super::actions::heal(plan.rs, me, on).is_ok();
        if healing && !threatened && spare >= plan.rs.actions.heal {
            return Some(Choice::Heal);
        }
        if let Some(step) = plan.refuge.and_then(|r| toward(plan, me, r, spare)) {
            return Some(Choice::Move(step));
        }
        if healing && spare >= plan.rs.actions.heal {
            return Some(Choice::Heal);
        }
    }
    if plan.mode == Mode::Hold {
        // Holding: it strikes only at an enemy upon it that would win a melee, else gets out
        // of the fight.
        if threatened {
            if let Some(attack) = best_attack(plan, me, spare, true) {
                return Some(attack);
            }
            if let Some(step) = plan.refuge.and_then(|r| toward(plan, me, r, spare)) {
                return Some(Choice::Move(step));
            }
        }
        return None;
    }
    if let Some(attack) = best_attack(plan, me, spare, false) {
        return Some(attack);
    }
    if let Some(siege) = siege_work(plan, me, spare) {
        return Some(siege);
    }
    let goal = plan.goal?;
    if goal == me.pos {
        return None;
    }
    toward(plan, me, goal, spare).map(Choice::Move)
}

/// A seen enemy next to the company that would win a melee against it.
fn threat(plan: &Plan, me: &Unit) -> bool {
    let (rs, area) = (plan.rs, plan.area);
    area.bounds.neighbours(me.pos).any(|p| {
        area.unit_at(p).is_some_and(|e| {
            e.nation != me.nation
                && combat::expect(
                    rs,
                    area,
                    &Unit {
                        ap: 99,
                        ..e.clone()
                    },
                    me.pos,
                    false,
                )
                .is_some_and(|b| b.defender.losses > b.attacker.losses)
        })
    })
}

/// How much a level asks of an attack: the enemy's losses against its own, in tenths.
fn edge(level: BotLevel) -> i32 {
    match level {
        BotLevel::Easy => 15,
        BotLevel::Normal => 12,
        BotLevel::Hard => 10,
    }
}

/// The attack with the best expected balance of losses that the level accepts (`adjacent`:
/// on a company next to it only).
fn best_attack(plan: &Plan, me: &Unit, spare: i32, adjacent: bool) -> Option<Choice> {
    let (rs, area) = (plan.rs, plan.area);
    let k = rs.kind(me.kind);
    let reach = k
        .volley
        .map_or(1, |v| combat::reach(rs, area, me, v.range))
        .max(1);
    let mut targets: Vec<&Unit> = area
        .units()
        .filter(|e| e.nation != me.nation && !plan.untouchable.contains(&e.id))
        .filter(|e| area.bounds.distance(me.pos, e.pos) <= if adjacent { 1 } else { reach })
        .filter(|e| vision::nation_sees(rs, area, me.nation, e))
        .collect();
    targets.sort_by_key(|e| e.id);
    let mut best: Option<(i64, Choice)> = None;
    for e in targets {
        let struck = plan.struck.get(&e.id).copied().unwrap_or(0);
        // An easy bot never joins an attack another company made this turn.
        if plan.level == BotLevel::Easy && struck > 0 {
            continue;
        }
        for volley in [true, false] {
            let cost = if volley {
                k.volley.map(|a| a.cost)
            } else {
                k.melee.map(|a| a.cost)
            };
            if cost.is_none_or(|c| c > spare) {
                continue;
            }
            let Some(b) = combat::expect(rs, area, me, e.pos, volley) else {
                continue;
            };
            let (dealt, taken) = (b.defender.losses as i64, b.attacker.losses as i64);
            if dealt <= 0 || dealt * 10 < taken * edge(plan.level) as i64 {
                continue;
            }
            let mut score = dealt * 4 - taken * 3;
            if b.defender.destroyed {
                score += 100;
            }
            // Hard bots finish what their other companies began.
            if plan.level == BotLevel::Hard {
                score += 20 * struck as i64;
            }
            let choice = if volley {
                Choice::Volley(e.pos)
            } else {
                Choice::Melee(e.pos)
            };
            if best.as_ref().is_none_or(|(s, _)| score > *s) {
                best = Some((score, choice));
            }
        }
    }
    best.map(|(_, c)| c)
}

/// Work on an enemy castle in reach: ram its gate, bombard its walls, build a siege tower.
fn siege_work(plan: &Plan, me: &Unit, spare: i32) -> Option<Choice> {
    let (rs, area) = (plan.rs, plan.area);
    let k = rs.kind(me.kind);
    let near_goal = plan
        .goal
        .is_some_and(|g| area.bounds.distance(me.pos, g) <= 6);
    if !near_goal {
        return None;
    }
    let mut around: Vec<Pos> = area.bounds.neighbours(me.pos).collect();
    around.sort();
    if k.can(Ability::Ram) && spare >= rs.castle.ram_cost {
        for &p in &around {
            if siege::ram(rs, area, me, p, &mut Mean::default()).is_ok() {
                return Some(Choice::Ram(p));
            }
        }
    }
    if k.can(Ability::Bombard) && spare >= rs.actions.bombard {
        let range = k.volley.map_or(1, |v| combat::reach(rs, area, me, v.range));
        let mut walls: Vec<Pos> = area
            .positions()
            .filter(|p| area.bounds.distance(me.pos, *p) <= range)
            .filter(|p| {
                area.cell(*p).is_some_and(|c| {
                    c.owner.is_some_and(|o| o != me.nation)
                        && rs.terrain(c.terrain).structure.is_some()
                        && c.structure.unwrap_or(0) > 0
                })
            })
            .collect();
        // The weakest first: a breach opens the castle soonest.
        walls.sort_by_key(|p| (area.cell(*p).and_then(|c| c.structure), *p));
        for p in walls {
            if siege::bombard(rs, area, me, p, &mut Mean::default()).is_ok() {
                return Some(Choice::Bombard(p));
            }
        }
    }
    if k.can(Ability::BuildSiegeTower) && spare >= rs.castle.siege_tower_cost {
        let mut spots = vec![me.pos];
        spots.extend(around);
        for p in spots {
            let building = area.cell(p).is_some_and(|c| c.siege.is_some());
            let done = area.cell(p).is_some_and(|c| c.siege_tower(rs));
            if done {
                continue;
            }
            // Finish a tower begun before starting another.
            if (building || p == me.pos) && siege::build_siege_tower(rs, area, me, p).is_ok() {
                return Some(Choice::BuildSiegeTower(p));
            }
        }
    }
    None
}

/// The path, within `spare` action points, to the reachable cell nearest `goal` (the goal
/// itself when it can be reached); none when no step brings the company closer.
pub fn toward(plan: &Plan, me: &Unit, goal: Pos, spare: i32) -> Option<Vec<Pos>> {
    let (rs, area) = (plan.rs, plan.area);
    let start_cell = area.cell(me.pos)?;
    let here = area.bounds.distance(me.pos, goal);
    // A* over the window towards the goal: no step costs less than `least`, so a cell `d`
    // cells from the goal has cost so far + `least` × `d` as the least a path through it
    // can come to (a bound no step lowers: every cell is taken at its cheapest cost). Of
    // cells with the same bound the costliest (the furthest walked) comes first, so that the
    // nearest reached soon says where to stop; then the position, so that the same window
    // always gives the same path. `best[slot]`: (cost, the cell it came from).
    let start = area.slot(me.pos)?;
    let mut best: Vec<(i32, Pos)> = vec![(i32::MAX, me.pos); area.slots()];
    // A cell with a company on it is never entered: marked as reached for less than nothing
    // (read by slot, not looked up among the companies, for every step tried).
    for u in area.units() {
        if let Some(s) = area.slot(u.pos) {
            best[s].0 = i32::MIN;
        }
    }
    let least = rs.cheapest_step(area.season).min(rs.castle.breach).max(0);
    let bound = |cost: i32, p: Pos| cost + least * area.bounds.distance(p, goal);
    // Entries: (bound, minus the cost, cell), the least first, packed in one number that
    // compares the same (bounds and costs are never negative, nor are cells on the map).
    let entry = |f: i32, cost: i32, p: Pos| {
        std::cmp::Reverse(
            (u128::from(f as u32) << 96)
                | (u128::from(u32::MAX - cost as u32) << 64)
                | (u128::from(p.x as u32) << 32)
                | u128::from(p.y as u32),
        )
    };
    let steps = movement::TerrainSteps::new(rs, area.season, me);
    let mut heap = BinaryHeap::with_capacity(64);
    heap.push(entry(bound(0, me.pos), 0, me.pos));
    best[start] = (0, me.pos);
    // Climbs and steps down a wall's outside: a move of their own single step.
    let mut single: Vec<(Pos, i32)> = Vec::new();
    for n in area.bounds.neighbours(me.pos) {
        let Some(c) = area.cell(n) else { continue };
        if area.unit_at(n).is_some() {
            continue;
        }
        if let Ok(e) = movement::enter(rs, area.season, me, (me.pos, start_cell), (n, c), true) {
            if e.ends_move && e.cost <= spare {
                single.push((n, e.cost));
            }
        }
    }
    let mut reached: Vec<Pos> = Vec::new();
    // The nearest to the goal reached so far, and the least it cost to get that near.
    let (mut nearest, mut nearest_cost) = (here, 0);
    while let Some(std::cmp::Reverse(e)) = heap.pop() {
        let (f, cost) = (
            (e >> 96) as u32 as i32,
            (u32::MAX - (e >> 64) as u32) as i32,
        );
        let p = Pos::new((e >> 32) as u32 as i32, e as u32 as i32);
        // Every cell still to come, and every cell beyond it, has a bound of `f` at least:
        // none comes nearer (it would have cost more than `spare`; none can once the goal is
        // reached), nor as near for less.
        let nearer = nearest > 0 && f <= spare + least * (nearest - 1);
        if !nearer && f >= nearest_cost + least * nearest {
            break;
        }
        let Some(slot) = area.slot(p) else { continue };
        if best[slot].0 < cost {
            continue;
        }
        let Some(cell) = area.cell_in(slot, p) else {
            continue;
        };
        if p != me.pos {
            reached.push(p);
            let d = area.bounds.distance(p, goal);
            if (d, cost) < (nearest, nearest_cost) {
                (nearest, nearest_cost) = (d, cost);
            }
        }
        if p != me.pos && rs.terrain(cell.terrain).has(Flag::StopsMovement) {
            continue;
        }
        for n in area.bounds.neighbours(p) {
            let Some(ns) = area.slot(n) else { continue };
            // Reached already for as little as a step could cost, or taken by a company.
            if best[ns].0 <= cost + least {
                continue;
            }
            let Some(c) = area.cell_in(ns, n) else {
                continue;
            };
            let e = match steps.step(rs, cell.terrain, c.terrain) {
                Some(Some(e)) => e,
                Some(None) => continue,
                None => match movement::enter(rs, area.season, me, (p, cell), (n, c), false) {
                    Ok(e) => e,
                    Err(_) => continue,
                },
            };
            if e.ends_move {
                continue;
            }
            let next = cost + e.cost;
            if next > spare || best[ns].0 <= next {
                continue;
            }
            best[ns] = (next, p);
            heap.push(entry(bound(next, n), next, n));
        }
    }
    let distance = |p: Pos| area.bounds.distance(p, goal);
    let walked = reached
        .iter()
        .filter_map(|p| area.slot(*p).map(|i| (distance(*p), best[i].0, *p)))
        .min();
    let climbed = single.iter().map(|(p, c)| (distance(*p), *c, *p)).min();
    let (d, _, to) = match (walked, climbed) {
        (Some(w), Some(c)) => w.min(c),
        (Some(w), None) => w,
        (None, Some(c)) => c,
        (None, None) => return None,
    };
    if d >= here {
        return None;
    }
    if single.iter().any(|(p, _)| *p == to) && walked.is_none_or(|w| w.2 != to) {
        return Some(vec![to]);
    }
    let mut path = vec![to];
    let mut at = to;
    while let Some(&(_, from)) = area.slot(at).map(|i| &best[i]) {
        if from == me.pos || path.len() > best.len() {
            break;
        }
        path.push(from);
        at = from;
    }
    path.reverse();
    Some(path)
}

/// The kind of company to raise next: sappers and guns where there is a castle to take, else
/// the line with cavalry and (hard bots) voltigeurs to screen it; `roll` is 0–99.
pub fn kind_to_raise(level: BotLevel, have: &HashMap<Kind, i32>, castles: bool, roll: i32) -> Kind {
    let count = |k: Kind| have.get(&k).copied().unwrap_or(0);
    let total: i32 = have.values().sum();
    if castles && level != BotLevel::Easy {
        if count(Kind::Sappers) * 6 < total.max(1) {
            return Kind::Sappers;
        }
        if count(Kind::Artillery) * 6 < total.max(1) {
            return Kind::Artillery;
        }
    }
    match (level, roll) {
        (BotLevel::Hard, 0..=24) => Kind::Voltigeurs,
        (_, 0..=29) => Kind::Cavalry,
        _ => Kind::Infantry,
    }
}

/// Whether a cell of this terrain can be anyone's objective ([`movement::captures_on_entry`]
/// takes something on it) or refuge ([`refuge`]): the rest of a map, most of it, is passed
/// over without asking, cell by cell.
pub fn may_matter(rs: &Ruleset, terrain: Terrain) -> bool {
    let t = rs.terrain(terrain);
    [
        Flag::CapturedOnEntry,
        Flag::TownCentre,
        Flag::OwnNationOnly,
        Flag::Wall,
    ]
    .into_iter()
    .any(|f| t.has(f))
        || t.heal_bonus > 0
}

/// Whether a cell is a fall-back for `nation`: its own town, fort or castle ground.
pub fn refuge(rs: &Ruleset, terrain: Terrain, owner: Option<i32>, nation: i32) -> bool {
    owner == Some(nation)
        && (rs.terrain(terrain).has(Flag::TownCentre)
            || rs.terrain(terrain).has(Flag::OwnNationOnly)
            || rs.terrain(terrain).heal_bonus > 0)
}
