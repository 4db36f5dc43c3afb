//! What one of a player's companies may do now, asked of the same rule functions its orders
//! call, on what its nation sees, and written nowhere. The world page, the company page and
//! the API show exactly this, so that none of them works a rule out for itself.

use crate::db::schema::nations;
use crate::db::{self, DbConnection};
use crate::game::error::{GameError, GameResult};
use crate::game::play::access::{self, Actor};
use crate::game::play::load::{self, Placed};
use crate::game::play::orders;
use crate::ids::{CompanyId, NationId};
use crate::rules::dice::Dice;
use crate::rules::ruleset::Ability;
use crate::rules::state::Unit;
use crate::rules::{actions, combat, leave, movement, siege, vision, Kind, Pos, Refusal, Ruleset};
use diesel::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

/// Whether an order would be taken now: the AP it would cost, or why it would be refused.
pub type Verdict = Result<i32, GameError>;

/// The men an attack puts out of action on each side with every die at its mean
/// (`combat::expect`), the enemy taken as the nation sees it (`vision::as_seen_by`: fresh,
/// whatever it has been through).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expected {
    pub inflicted: i32,
    pub suffered: i32,
}

/// An attack on a seen company: whether it would be taken now, and, when it would, what it
/// gives on average.
#[derive(Debug)]
pub struct Attack {
    pub verdict: Verdict,
    pub expected: Option<Expected>,
}

/// A company of another nation that the player's nation sees near the company.
#[derive(Debug)]
pub struct Target {
    pub id: CompanyId,
    pub name: String,
    pub kind: Kind,
    pub x: i32,
    pub y: i32,
    pub distance: i32,
    pub hidden: bool,
    pub volley: Attack,
    pub melee: Attack,
}

/// The orders aimed at one cell.
#[derive(Debug)]
pub struct CellOptions {
    pub at: Pos,
    pub distance: i32,
    /// The company the nation sees on the cell, if any (its own included).
    pub occupant: Option<Occupant>,
    /// None where the company stands.
    pub move_to: Option<Verdict>,
    /// The cheapest path there, step by step, when the move would be taken.
    pub path: Vec<Pos>,
    /// The move is a climb onto a wall or tower (ladders, hooks): it ends the move there, and
    /// the defenders of castle ground strike first when charged.
    pub climb: bool,
    /// An enemy wall, tower or gate that the move cannot enter: what would take it.
    pub wall: Option<WallWay>,
    /// None where no company of another nation is seen on the cell.
    pub volley: Option<Attack>,
    pub melee: Option<Attack>,
    /// None where the kind cannot do it at all.
    pub bombard: Option<Verdict>,
    pub repair: Option<Verdict>,
    pub build_bridge: Option<Verdict>,
    pub ram: Option<Verdict>,
    pub build_siege_tower: Option<Verdict>,
}

/// What takes an enemy castle cell that a company cannot walk into (docs/rules.md §12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WallWay {
    /// A closed gate: rammed by sappers, or bombarded, until it breaks.
    Gate,
    /// A fortified wall: never climbed, only breached by bombardment.
    Fortified,
    /// A wall foot companies climb by ladder from a cell next to it outside the castle, or
    /// from a siege tower; breached by bombardment too.
    Ladders,
    /// A tower voltigeurs climb with hooks from next to it, outside; breached by bombardment.
    Hooks,
}

impl WallWay {
    /// The way for an enemy castle cell, if it is one that still stands.
    fn of(rs: &Ruleset, cell: &crate::rules::state::Cell, nation: i32) -> Option<WallWay> {
        use crate::rules::ruleset::Flag;
        let t = rs.terrain(cell.terrain);
        let enemy = cell.owner.is_some_and(|o| o != nation);
        if !t.has(Flag::Wall) || !enemy || cell.is_breached(rs) {
            return None;
        }
        Some(if t.has(Flag::Gate) {
            WallWay::Gate
        } else if t.has(Flag::Climbable) {
            WallWay::Ladders
        } else if t.has(Flag::Hooks) {
            WallWay::Hooks
        } else {
            WallWay::Fortified
        })
    }
}

/// A company on the cell, as the player's nation sees it.
#[derive(Clone, Debug)]
pub struct Occupant {
    pub id: CompanyId,
    pub name: String,
    pub kind: Kind,
    pub nation: NationId,
    pub nation_name: String,
    pub friendly: bool,
    pub hidden: bool,
}

/// What the company may do now.
#[derive(Debug)]
pub struct Options {
    pub company_id: CompanyId,
    pub kind: Kind,
    /// The volley's reach from where the company stands (range and the ground's bonus).
    pub reach: Option<i32>,
    pub heal: Verdict,
    /// The most men that could join now, and the AP it costs.
    pub reinforce: Result<(i32, i32), GameError>,
    /// Seen companies of other nations within the volley's reach or next to the company.
    pub targets: Vec<Target>,
    pub cell: Option<CellOptions>,
}

/// The options of one of the actor's companies, and of its orders on the cell `at` if given.
pub fn of(
    conn: &mut DbConnection,
    rs: &Ruleset,
    actor: &Actor,
    company_id: CompanyId,
    at: Option<Pos>,
) -> GameResult<Options> {
    let (company, player, w) = access::own_company_and_world(conn, actor, company_id)?;
    // Why every order would be refused, as the orders check it first.
    let blocked: Option<GameError> = if let Err(e) = crate::game::maps::worlds::takes_orders(&w) {
        Some(e)
    } else {
        leave::free(player.leave_until, db::now())
            .err()
            .map(Into::into)
    };
    let me = Placed {
        company,
        nation_id: player.nation_id,
        user_id: actor.user_id,
        leave_until: player.leave_until,
    };
    let u = load::unit_of(&me);
    let k = rs.kind(u.kind);
    let base_range = k.volley.map_or(0, |v| v.range);
    let mut points = vec![u.pos];
    // A cell off the map widens nothing: the rules refuse it on their own.
    points.extend(at.filter(|p| w.bounds().contains(*p)));
    // Targets need their own observers: everyone within sight of the reach.
    let radius = base_range.max(1) + max_range_bonus(rs);
    let margin = radius + vision::max_perception(rs) + 1;
    let (area, placed) = load::window(conn, &w, &points, margin)?;
    let reach = k.volley.map(|_| combat::reach(rs, &area, &u, base_range));
    let check = |v: Verdict| match &blocked {
        Some(e) => Err(copy_error(e)),
        None => v,
    };
    let on_leave = |id: i32| {
        placed
            .iter()
            .find(|p| p.company.id.0 == id)
            .is_some_and(|p| leave::on_leave(p.leave_until, db::now()))
    };
    let verdict = |ranged: bool, t: &Unit| -> Verdict {
        let mut dice = throwaway_dice();
        let battle = if ranged {
            combat::volley(rs, &area, &u, t.pos, &mut dice)
        } else {
            combat::melee(rs, &area, &u, t.pos, &mut dice)
        };
        let cost = battle?.ap_cost;
        if on_leave(t.id) {
            return Err(Refusal::TargetOnLeave.into());
        }
        check(Ok(cost))
    };
    // What the player knows of the enemies: the expected losses tell nothing more.
    let known = vision::as_seen_by(rs, &area, u.nation);
    let fight = |ranged: bool, t: &Unit| -> Attack {
        let verdict = verdict(ranged, t);
        let expected = match verdict {
            Ok(_) => combat::expect(rs, &known, &u, t.pos, ranged).map(|b| Expected {
                inflicted: b.defender.losses,
                suffered: b.attacker.losses,
            }),
            Err(_) => None,
        };
        Attack { verdict, expected }
    };
    let name_of = |id: i32| {
        placed
            .iter()
            .find(|p| p.company.id.0 == id)
            .map(|p| p.company.name.clone())
            .unwrap_or_default()
    };
    let seen = |t: &Unit| vision::nation_sees(rs, &area, u.nation, t);
    let hidden = |t: &Unit| {
        vision::is_hidden(
            rs,
            t,
            area.terrain(t.pos).unwrap_or(crate::rules::Terrain::Plain),
        )
    };
    let mut targets: Vec<Target> = area
        .units()
        .filter(|t| {
            t.nation != u.nation && area.bounds.distance(u.pos, t.pos) <= reach.unwrap_or(0).max(1)
        })
        .filter(|t| seen(t))
        .map(|t| Target {
            id: CompanyId(t.id),
            name: name_of(t.id),
            kind: t.kind,
            x: t.pos.x,
            y: t.pos.y,
            distance: area.bounds.distance(u.pos, t.pos),
            hidden: hidden(t),
            volley: fight(true, t),
            melee: fight(false, t),
        })
        .collect();
    targets.sort_by_key(|t| (t.distance, t.id));

    let here = area.cell(u.pos).cloned().ok_or(Refusal::OutOfMap(u.pos))?;
    let heal = check(
        actions::heal(rs, &u, &here)
            .map(|h| h.ap_cost)
            .map_err(Into::into),
    );
    let treasury: i64 = nations::table
        .find(player.nation_id)
        .select(nations::treasury)
        .first(conn)?;
    let reinforce = match &blocked {
        Some(e) => Err(copy_error(e)),
        None => actions::reinforce(
            rs,
            &u,
            u.pos,
            &here,
            player.reserve,
            treasury,
            k.full_strength,
        )
        .map(|r| (r.men, r.ap_cost))
        .map_err(Into::into),
    };

    let cell = match at {
        None => None,
        Some(at) => {
            let seen_there = area.unit_at(at).filter(|t| seen(t));
            let enemy = seen_there.filter(|t| t.nation != u.nation);
            let mut path = Vec::new();
            let move_to = (at != u.pos).then(|| {
                check(
                    orders::plan_path(conn, rs, &w, u.nation, &u, at).map(|(steps, cost)| {
                        path = steps;
                        cost
                    }),
                )
            });
            if !matches!(move_to, Some(Ok(_))) {
                path.clear();
            }
            let target_cell = area.cell(at).cloned();
            // A one-step move onto a wall or tower from outside: a climb, said as one.
            let climb = path.len() == 1
                && target_cell.as_ref().is_some_and(|c| {
                    rs.terrain(c.terrain).has(crate::rules::ruleset::Flag::Wall)
                        && movement::enter(rs, w.season, &u, (u.pos, &here), (at, c), true)
                            .is_ok_and(|e| e.ends_move)
                });
            let wall = match move_to {
                Some(Err(_)) => target_cell
                    .as_ref()
                    .and_then(|c| WallWay::of(rs, c, u.nation)),
                _ => None,
            };
            let can = |yes: bool, v: &dyn Fn() -> Verdict| yes.then(|| check(v()));
            let bombard = can(k.can(Ability::Bombard), &|| {
                Ok(siege::bombard(rs, &area, &u, at, &mut throwaway_dice())?.ap_cost)
            });
            let repair = can(k.can(Ability::Repair), &|| {
                Ok(siege::repair(rs, &area, &u, at)?.ap_cost)
            });
            let build_bridge = can(k.can(Ability::BuildBridge), &|| {
                Ok(siege::build_bridge(rs, &area, &u, at)?.ap_cost)
            });
            let ram = can(k.can(Ability::Ram), &|| {
                Ok(siege::ram(rs, &area, &u, at, &mut throwaway_dice())?.ap_cost)
            });
            let build_siege_tower = can(k.can(Ability::BuildSiegeTower), &|| {
                Ok(siege::build_siege_tower(rs, &area, &u, at)?.ap_cost)
            });
            let occupant = match seen_there {
                Some(t) => Some(Occupant {
                    id: CompanyId(t.id),
                    name: name_of(t.id),
                    kind: t.kind,
                    nation: NationId(t.nation),
                    nation_name: nations::table
                        .find(t.nation)
                        .select(nations::name)
                        .first(conn)?,
                    friendly: t.nation == u.nation,
                    hidden: hidden(t),
                }),
                None => None,
            };
            Some(CellOptions {
                at,
                distance: area.bounds.distance(u.pos, at),
                occupant,
                move_to,
                path,
                climb,
                wall,
                volley: enemy.map(|t| fight(true, t)),
                melee: enemy.map(|t| fight(false, t)),
                bombard,
                repair,
                build_bridge,
                ram,
                build_siege_tower,
            })
        }
    };
    Ok(Options {
        company_id,
        kind: u.kind,
        reach,
        heal,
        reinforce,
        targets,
        cell,
    })
}

/// The largest range bonus any ground gives any kind: how far a volley may reach at most.
fn max_range_bonus(rs: &Ruleset) -> i32 {
    crate::rules::Terrain::ALL
        .iter()
        .flat_map(|t| rs.terrain(*t).range_bonus.values().copied())
        .max()
        .unwrap_or(0)
        .max(0)
}

/// Dice for asking the rules whether an action is allowed: the outcome is thrown away, so
/// the company's own stream (whose rolls are secret until the turn's seed is revealed) is
/// never touched.
fn throwaway_dice() -> Dice<ChaCha20Rng> {
    Dice::new(ChaCha20Rng::seed_from_u64(0))
}

/// The blocking error again, for each verdict it decides (errors hold no database state here).
fn copy_error(e: &GameError) -> GameError {
    match e {
        GameError::Paused => GameError::Paused,
        GameError::CampaignOver => GameError::CampaignOver,
        GameError::Refused(r) => GameError::Refused(r.clone()),
        other => GameError::Internal(other.to_string()),
    }
}
