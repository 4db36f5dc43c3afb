//! The typed views of what the site shows: each one struct, serialised as it is both for the
//! JSON API and for the templates, so that a page and the API cannot say different things.

use crate::db::models::{Company, Event, Nation, Player, World};
use crate::game::play::load::Placed;
use crate::game::play::options::{self, Options, Verdict};
use crate::game::play::report::Report;
use crate::game::play::views::{self, NamedCell, PlayerMap, Seen};
use crate::i18n::Lang;
use crate::ids::{AlertId, CompanyId, EventId, NationId, RegimentId, UserId, WorldId};
use crate::rules::names::EventKind;
use crate::rules::ruleset::{Ability, Flag};
use crate::rules::{Kind, Pos, Ruleset, Season, Terrain};
use crate::wire::refusals;
use serde::Serialize;

/// Whether an order would be taken now: its AP, or the refusal's code and sentence.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct Choice {
    pub allowed: bool,
    pub ap: Option<i32>,
    pub code: Option<&'static str>,
    pub reason: Option<String>,
    /// An attack allowed: the men it would put out of action on each side with every die at
    /// its mean, the enemy taken as fresh (its figures are not seen).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<Expected>,
}

/// What an attack gives on average (`game::play::options::Expected`).
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct Expected {
    /// The enemy's men put out of action (killed and wounded).
    pub inflicted: i32,
    /// The attacker's.
    pub suffered: i32,
}

impl Choice {
    pub fn of(lang: Lang, v: &Verdict) -> Choice {
        match v {
            Ok(ap) => Choice {
                allowed: true,
                ap: Some(*ap),
                code: None,
                reason: None,
                expected: None,
            },
            Err(e) => Choice {
                allowed: false,
                ap: None,
                code: Some(e.code()),
                reason: Some(refusals::say(lang, e)),
                expected: None,
            },
        }
    }

    /// An attack's choice, with what it gives on average.
    pub fn of_attack(lang: Lang, a: &options::Attack) -> Choice {
        Choice {
            expected: a.expected.map(|e| Expected {
                inflicted: e.inflicted,
                suffered: e.suffered,
            }),
            ..Choice::of(lang, &a.verdict)
        }
    }
}

/// Whether the player may raise a company now (`game::play::may_raise`): what the world page
/// shows and the API's world tells, the refusal said as the raise order would say it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct RaiseView {
    pub allowed: bool,
    pub reason: Option<Reason>,
}

/// A refusal's stable code and its sentence in the reader's language.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct Reason {
    pub code: &'static str,
    pub message: String,
}

impl RaiseView {
    /// As a page says it: the refusal in the page's language, as the refused raise's page.
    pub fn of(lang: Lang, v: &Result<(), crate::game::GameError>) -> RaiseView {
        RaiseView::said(v, |e| refusals::say(lang, e))
    }

    /// As the API says it: the message the raise's error answer would carry.
    pub fn of_api(lang: Lang, v: &Result<(), crate::game::GameError>) -> RaiseView {
        RaiseView::said(v, |e| refusals::say_api(lang, e))
    }

    fn said(
        v: &Result<(), crate::game::GameError>,
        say: impl Fn(&crate::game::GameError) -> String,
    ) -> RaiseView {
        RaiseView {
            allowed: v.is_ok(),
            reason: v.as_ref().err().map(|e| Reason {
                code: e.code(),
                message: say(e),
            }),
        }
    }
}

/// What the kind of the company can do at all (docs/rules.md §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Abilities {
    pub volley: bool,
    pub melee: bool,
    pub bombard: bool,
    pub repair: bool,
    pub build_bridge: bool,
    pub ram: bool,
    pub build_siege_tower: bool,
}

impl Abilities {
    pub fn of(rs: &Ruleset, kind: Kind) -> Abilities {
        let k = rs.kind(kind);
        Abilities {
            volley: k.volley.is_some(),
            melee: k.melee.is_some(),
            bombard: k.can(Ability::Bombard),
            repair: k.can(Ability::Repair),
            build_bridge: k.can(Ability::BuildBridge),
            ram: k.can(Ability::Ram),
            build_siege_tower: k.can(Ability::BuildSiegeTower),
        }
    }
}

// A company on a cell, as the player's nation sees it.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct Occupant {
    #[schema(value_type = i32)]
    pub id: CompanyId,
    pub name: String,
    pub kind: Kind,
    #[schema(value_type = i32)]
    pub nation: NationId,
    pub nation_name: String,
    pub friendly: bool,
    pub hidden: bool,
}

impl From<&options::Occupant> for Occupant {
    fn from(o: &options::Occupant) -> Occupant {
        Occupant {
            id: o.id,
            name: o.name.clone(),
            kind: o.kind,
            nation: o.nation,
            nation_name: o.nation_name.clone(),
            friendly: o.friendly,
            hidden: o.hidden,
        }
    }
}

/// A seen company of another nation within reach, and what the company may do to it.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct TargetView {
    #[schema(value_type = i32)]
    pub id: CompanyId,
    pub name: String,
    pub kind: Kind,
    pub x: i32,
    pub y: i32,
    pub distance: i32,
    pub hidden: bool,
    pub volley: Choice,
    pub melee: Choice,
}

/// The orders aimed at one cell.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct CellChoices {
    pub x: i32,
    pub y: i32,
    pub distance: i32,
    pub occupant: Option<Occupant>,
    pub move_to: Option<Choice>,
    /// The cheapest path's cells, `[x, y]`, when the move would be taken.
    pub path: Vec<[i32; 2]>,
    /// The move is a climb onto a wall or tower (it ends the move; defenders of castle ground
    /// strike first when charged).
    pub climb: bool,
    /// An enemy wall, tower or gate the move cannot enter: what takes it, `gate` (ram or
    /// bombard it), `fortified` (bombard it), `ladders` (foot companies climb it from next to
    /// it, outside) or `hooks` (voltigeurs climb it so).
    pub wall: Option<crate::game::play::options::WallWay>,
    pub volley: Option<Choice>,
    pub melee: Option<Choice>,
    pub bombard: Option<Choice>,
    pub repair: Option<Choice>,
    pub build_bridge: Option<Choice>,
    pub ram: Option<Choice>,
    pub build_siege_tower: Option<Choice>,
}

/// How many men could join now.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct ReinforceChoice {
    #[serde(flatten)]
    pub choice: Choice,
    pub men: Option<i32>,
}

/// `GET /api/v1/companies/{c}/options`, and what the world and company pages offer.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct OptionsView {
    #[schema(value_type = i32)]
    pub company: CompanyId,
    pub abilities: Abilities,
    pub reach: Option<i32>,
    pub heal: Choice,
    pub reinforce: ReinforceChoice,
    pub targets: Vec<TargetView>,
    pub cell: Option<CellChoices>,
}

impl OptionsView {
    pub fn of(rs: &Ruleset, lang: Lang, o: &Options) -> OptionsView {
        let choice = |v: &Verdict| Choice::of(lang, v);
        let maybe = |v: &Option<Verdict>| v.as_ref().map(choice);
        OptionsView {
            company: o.company_id,
            abilities: Abilities::of(rs, o.kind),
            reach: o.reach,
            heal: choice(&o.heal),
            reinforce: match &o.reinforce {
                Ok((men, ap)) => ReinforceChoice {
                    choice: Choice::of(lang, &Ok(*ap)),
                    men: Some(*men),
                },
                Err(e) => ReinforceChoice {
                    choice: Choice {
                        allowed: false,
                        ap: None,
                        code: Some(e.code()),
                        reason: Some(refusals::say(lang, e)),
                        expected: None,
                    },
                    men: None,
                },
            },
            targets: o
                .targets
                .iter()
                .map(|t| TargetView {
                    id: t.id,
                    name: t.name.clone(),
                    kind: t.kind,
                    x: t.x,
                    y: t.y,
                    distance: t.distance,
                    hidden: t.hidden,
                    volley: Choice::of_attack(lang, &t.volley),
                    melee: Choice::of_attack(lang, &t.melee),
                })
                .collect(),
            cell: o.cell.as_ref().map(|c| CellChoices {
                x: c.at.x,
                y: c.at.y,
                distance: c.distance,
                occupant: c.occupant.as_ref().map(Occupant::from),
                move_to: maybe(&c.move_to),
                path: c.path.iter().map(|p| [p.x, p.y]).collect(),
                climb: c.climb,
                wall: c.wall,
                volley: c.volley.as_ref().map(|a| Choice::of_attack(lang, a)),
                melee: c.melee.as_ref().map(|a| Choice::of_attack(lang, a)),
                bombard: maybe(&c.bombard),
                repair: maybe(&c.repair),
                build_bridge: maybe(&c.build_bridge),
                ram: maybe(&c.ram),
                build_siege_tower: maybe(&c.build_siege_tower),
            }),
        }
    }

    /// The targets a volley may take now.
    pub fn volley_targets(&self) -> Vec<&TargetView> {
        self.targets.iter().filter(|t| t.volley.allowed).collect()
    }

    /// The targets a charge may take now.
    pub fn melee_targets(&self) -> Vec<&TargetView> {
        self.targets.iter().filter(|t| t.melee.allowed).collect()
    }
}

/// A world as every page and `GET /api/v1/worlds/{w}` show it.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct WorldView {
    #[schema(value_type = i32)]
    pub id: WorldId,
    pub name: String,
    pub width: i32,
    pub height: i32,
    pub turn: i32,
    pub season: Season,
    pub paused: bool,
    /// The turn after which its campaign ended; none while it runs.
    pub ended_turn: Option<i32>,
}

impl From<&World> for WorldView {
    fn from(w: &World) -> WorldView {
        WorldView {
            id: w.id,
            name: w.name.clone(),
            width: w.width,
            height: w.height,
            turn: w.turn,
            season: w.season,
            paused: w.paused,
            ended_turn: w.ended_turn,
        }
    }
}

/// A nation as the pages and the API show it.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct NationView {
    #[schema(value_type = i32)]
    pub id: NationId,
    pub name: String,
    pub color: String,
    /// None for another nation than the viewer's while the campaign runs: what it spends
    /// tells the companies it raises and the men it takes in (docs/decisions.md).
    pub treasury: Option<i64>,
    pub points: i64,
}

impl NationView {
    /// `n` as a player of `viewer` (a nation; none for a visitor or someone who has not
    /// joined) may know it; `over`: the campaign has ended, which publishes everything.
    pub fn of(n: &Nation, viewer: Option<NationId>, over: bool) -> NationView {
        NationView {
            id: n.id,
            name: n.name.clone(),
            color: n.color.clone(),
            treasury: Some(n.treasury).filter(|_| over || viewer == Some(n.id)),
            points: n.points,
        }
    }
}

/// A company as the API shows it to its owner.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct CompanyView {
    #[schema(value_type = i32)]
    pub id: CompanyId,
    #[schema(value_type = i32)]
    pub world_id: WorldId,
    pub name: String,
    pub kind: Kind,
    pub x: i32,
    pub y: i32,
    pub men: i32,
    pub wounded: i32,
    pub ap: i32,
    pub morale: i32,
    pub xp: i32,
    pub hidden: bool,
}

impl CompanyView {
    /// `c`, `hidden` where it stands (`game::play::hidden`).
    pub fn of(c: &Company, hidden: bool) -> CompanyView {
        CompanyView {
            id: c.id,
            world_id: c.world_id,
            name: c.name.clone(),
            kind: c.kind,
            x: c.x,
            y: c.y,
            men: c.men,
            wounded: c.wounded,
            ap: c.ap,
            morale: c.morale,
            xp: c.xp,
            hidden,
        }
    }
}

/// The player's own standing in a world.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct PlayerView {
    pub reserve: i32,
    pub nation: Option<String>,
    pub treasury: Option<i64>,
    /// When a leave that is running ends, as the pages print instants.
    pub leave_until: Option<String>,
}

impl PlayerView {
    pub fn of(p: &Player, nation: Option<&Nation>) -> PlayerView {
        PlayerView {
            reserve: p.reserve,
            nation: nation.map(|n| n.name.clone()),
            treasury: nation.map(|n| n.treasury),
            leave_until: crate::rules::leave::running(p.leave_until, crate::db::now())
                .map(crate::rules::refusal::instant),
        }
    }
}

/// One of the player's companies, as the world screen lists them.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct CompanyLine {
    #[schema(value_type = i32)]
    pub id: CompanyId,
    pub name: String,
    pub kind: Kind,
    pub x: i32,
    pub y: i32,
    pub men: i32,
    pub ap: i32,
}

impl From<&Company> for CompanyLine {
    fn from(c: &Company) -> CompanyLine {
        CompanyLine {
            id: c.id,
            name: c.name.clone(),
            kind: c.kind,
            x: c.x,
            y: c.y,
            men: c.men,
            ap: c.ap,
        }
    }
}

/// A world the player plays, as their home page opens it (`game::screens::home`).
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct YourWorldView {
    #[schema(value_type = i32)]
    pub id: crate::ids::WorldId,
    pub name: String,
    pub turn: i32,
    pub paused: bool,
    pub ended: bool,
    pub nation: String,
    pub color: String,
    pub companies: Vec<CompanyLine>,
    /// Private messages to the player there not yet read.
    pub unread: i64,
    /// When the next turn is due (unix seconds); none when paused, over or unscheduled.
    pub next_turn_at: Option<i64>,
}

impl From<&crate::game::screens::home::YourWorld> for YourWorldView {
    fn from(y: &crate::game::screens::home::YourWorld) -> YourWorldView {
        YourWorldView {
            id: y.world.id,
            name: y.world.name.clone(),
            turn: y.world.turn,
            paused: y.world.paused,
            ended: y.world.ended(),
            nation: y.nation.name.clone(),
            color: y.nation.color.clone(),
            companies: y.companies.iter().map(CompanyLine::from).collect(),
            unread: y.unread,
            next_turn_at: y.next_turn,
        }
    }
}

/// One of the player's own companies in the world page's list, with the link that selects it:
/// what the page prints of it, no more (each field is copied into the page's context).
#[derive(Clone, Debug, Serialize)]
pub struct OwnCompany {
    /// The company as the world screen lists it.
    #[serde(flatten)]
    pub line: CompanyLine,
    pub href: String,
    /// The kind's name in the page's language.
    pub kind_name: &'static str,
}

impl OwnCompany {
    pub fn of(c: &Company, href: String, kind_name: &'static str) -> OwnCompany {
        OwnCompany {
            line: c.into(),
            href,
            kind_name,
        }
    }
}

/// The kind's figures the company page shows.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct KindView {
    pub full_strength: i32,
    pub max_ap: i32,
    pub ap_per_turn: i32,
    pub perception: i32,
    pub volley: Option<crate::rules::ruleset::Attack>,
    pub melee: Option<crate::rules::ruleset::Attack>,
    pub abilities: Abilities,
}

impl KindView {
    pub fn of(rs: &crate::rules::Ruleset, kind: Kind) -> KindView {
        let k = rs.kind(kind);
        KindView {
            full_strength: k.full_strength,
            max_ap: k.max_ap,
            ap_per_turn: k.ap_per_turn,
            perception: k.perception,
            volley: k.volley,
            melee: k.melee,
            abilities: Abilities::of(rs, kind),
        }
    }
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct SeenCompany {
    #[schema(value_type = i32)]
    pub id: CompanyId,
    pub name: String,
    pub kind: Kind,
    pub x: i32,
    pub y: i32,
    #[schema(value_type = i32)]
    pub nation_id: NationId,
    pub nation: String,
    pub color: String,
    pub mine: bool,
    /// Of the viewer's nation (its own companies included).
    pub friend: bool,
    pub hidden: bool,
    /// Its player is on leave: it neither acts nor can be attacked.
    pub on_leave: bool,
    /// Figures shown only for the viewer's own companies.
    pub men: Option<i32>,
    pub wounded: Option<i32>,
    pub ap: Option<i32>,
    pub morale: Option<i32>,
}

impl SeenCompany {
    pub fn of(p: &Placed, nation: Option<&Nation>, seen: Seen) -> SeenCompany {
        let c = &p.company;
        let figures = seen.figures;
        SeenCompany {
            id: c.id,
            name: c.name.clone(),
            kind: c.kind,
            x: c.x,
            y: c.y,
            nation_id: p.nation_id,
            nation: nation.map(|n| n.name.clone()).unwrap_or_default(),
            color: nation
                .map(|n| n.color.clone())
                .unwrap_or_else(|| "#000000".into()),
            mine: seen.mine,
            friend: seen.friend,
            hidden: seen.hidden,
            on_leave: seen.on_leave,
            men: figures.then_some(c.men),
            wounded: figures.then_some(c.wounded),
            ap: figures.then_some(c.ap),
            morale: figures.then_some(c.morale),
        }
    }

    /// The companies a map shows.
    pub fn all(map: &PlayerMap) -> Vec<SeenCompany> {
        map.companies
            .iter()
            .map(|(p, seen)| SeenCompany::of(p, map.nation(p.nation_id), *seen))
            .collect()
    }
}

/// Everything the cell panel tells about one cell.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct CellInfo {
    pub x: i32,
    pub y: i32,
    pub terrain: Terrain,
    pub ap: i32,
    pub volley_protection: i32,
    pub melee_protection: i32,
    pub confidence: i32,
    pub vision: i32,
    pub owner: Option<String>,
    pub town: Option<String>,
    pub structure: Option<i32>,
    pub structure_max: Option<i32>,
    pub breached: bool,
    pub stops_movement: bool,
    pub blocks_los: bool,
}

impl CellInfo {
    /// The cell as the ruleset reads it in `season`.
    pub fn of(rs: &Ruleset, season: Season, c: &NamedCell) -> CellInfo {
        let cell = c.row.cell();
        let t = rs.terrain(cell.terrain);
        let defence = cell.defence(rs);
        CellInfo {
            x: c.at.x,
            y: c.at.y,
            terrain: c.row.terrain,
            ap: t.ap(season),
            volley_protection: defence.volley_protection,
            melee_protection: defence.melee_protection,
            confidence: defence.confidence,
            vision: t.vision,
            owner: c.owner.clone(),
            town: c.town.clone(),
            structure: c.row.structure,
            structure_max: t.structure,
            breached: cell.is_breached(rs),
            stops_movement: t.has(Flag::StopsMovement),
            blocks_los: t.has(Flag::BlocksLos),
        }
    }
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct NationStanding {
    #[schema(value_type = i32)]
    pub id: NationId,
    pub name: String,
    pub color: String,
    /// Told as `companies` is: what a nation spends tells the companies it raises and the
    /// men it takes in.
    pub treasury: Option<i64>,
    /// The campaign's points (docs/rules.md §11): the one ranking of the nations, by which
    /// the list comes.
    pub points: i64,
    pub towns: Vec<String>,
    pub mines: i64,
    pub forts: i64,
    pub players: i64,
    /// None for another nation than the viewer's while the campaign runs: its strength, which
    /// the fog hides (as in the history); the end publishes it.
    pub companies: Option<i64>,
    /// The holdings weighed by `[score]` (towns, mines, fortified cells and companies), told
    /// as `companies` is, since it counts them. Kept for the API's readers: the nations are
    /// ranked by `points`.
    pub score: Option<i64>,
    /// The part of `score` for the ground held (towns, mines, fortified cells): public, as
    /// the map shows every cell's owner.
    pub ground_score: i64,
    /// Usernames, only for the viewer's own nation.
    pub members: Option<Vec<String>>,
}

impl From<views::NationStanding> for NationStanding {
    fn from(s: views::NationStanding) -> NationStanding {
        NationStanding {
            id: s.nation.id,
            name: s.nation.name,
            color: s.nation.color,
            treasury: Some(s.nation.treasury).filter(|_| s.told),
            points: s.nation.points,
            towns: s.towns,
            mines: s.mines,
            forts: s.forts,
            players: s.players,
            companies: s.companies,
            score: s.score,
            ground_score: s.ground_score,
            members: s.members,
        }
    }
}

/// A company of another nation that the player's nation sees near one of its companies.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct SeenEnemy {
    #[schema(value_type = i32)]
    pub id: CompanyId,
    pub name: String,
    pub kind: Kind,
    pub nation: String,
    pub x: i32,
    pub y: i32,
    pub hidden: bool,
    pub distance: i32,
}

impl SeenEnemy {
    pub fn of(
        (p, seen): &(Placed, Seen),
        nation: Option<&Nation>,
        from: Pos,
        grid: crate::rules::Grid,
    ) -> SeenEnemy {
        let c = &p.company;
        SeenEnemy {
            id: c.id,
            name: c.name.clone(),
            kind: c.kind,
            nation: nation.map(|n| n.name.clone()).unwrap_or_default(),
            x: c.x,
            y: c.y,
            hidden: seen.hidden,
            distance: grid.distance(Pos::new(c.x, c.y), from),
        }
    }
}

/// An instant as the API writes it (RFC 3339, UTC); `None` when there is none or it is out of
/// range.
pub fn rfc3339(ts: Option<i64>) -> Option<String> {
    use chrono::TimeZone;
    ts.and_then(|t| chrono::Utc.timestamp_opt(t, 0).single())
        .map(|d| d.to_rfc3339())
}

/// An account as `GET /api/v1/me` and registration answer it.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct UserView {
    #[schema(value_type = i32)]
    pub id: UserId,
    pub username: String,
    pub role: crate::rules::names::Role,
}

/// An alert as the site and the API show it: its sentence in the reader's language (the API
/// keeps English) and the sentence's clauses.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct AlertView {
    #[schema(value_type = i32)]
    pub id: AlertId,
    #[schema(value_type = i32)]
    pub world_id: WorldId,
    pub kind: String,
    pub summary: String,
    pub at: i64,
    pub read_at: Option<i64>,
    pub said: Option<crate::said::Said>,
}

impl AlertView {
    pub fn of(a: &crate::game::news::alerts::Alert, lang: Lang) -> AlertView {
        AlertView {
            id: a.id,
            world_id: a.world_id,
            kind: a.kind.clone(),
            summary: crate::said::stored(lang, &a.said, &a.summary),
            at: a.at,
            read_at: a.read_at,
            said: crate::said::Said::decode(&a.said),
        }
    }
}

/// An event as `GET /api/v1/worlds/{w}/events` lists it; `data` is the record the event kept
/// (an order's `Report`, a capture's cells…), passed on as stored.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct EventView {
    #[schema(value_type = i32)]
    pub id: EventId,
    pub turn: i32,
    pub at: i64,
    pub kind: crate::rules::names::EventKind,
    pub summary: String,
    pub said: Option<crate::said::Said>,
    #[schema(value_type = Option<i32>)]
    pub company: Option<CompanyId>,
    #[schema(value_type = Option<i32>)]
    pub target_company: Option<CompanyId>,
    pub x: Option<i32>,
    pub y: Option<i32>,
    #[schema(value_type = Option<Object>)]
    pub data: Option<Box<serde_json::value::RawValue>>,
}

impl From<&crate::db::models::Event> for EventView {
    fn from(e: &crate::db::models::Event) -> EventView {
        EventView {
            id: e.id,
            turn: e.turn,
            at: e.at,
            kind: e.kind,
            summary: e.summary.clone(),
            said: crate::said::Said::decode(&e.said),
            company: e.company_id,
            target_company: e.target_company_id,
            x: e.x,
            y: e.y,
            data: serde_json::value::RawValue::from_string(e.data.clone()).ok(),
        }
    }
}

/// A regiment as the API shows it.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct RegimentView {
    #[schema(value_type = i32)]
    pub id: RegimentId,
    pub name: String,
    #[schema(value_type = i32)]
    pub nation: NationId,
    pub headquarters: Option<[i32; 2]>,
}

impl From<&crate::db::models::Regiment> for RegimentView {
    fn from(r: &crate::db::models::Regiment) -> RegimentView {
        RegimentView {
            id: r.id,
            name: r.name.clone(),
            nation: r.nation_id,
            headquarters: r.hq_x.zip(r.hq_y).map(|(x, y)| [x, y]),
        }
    }
}

/// An event of the news since the reader's last visit, said in `lang`.
#[derive(Clone, Debug, Serialize)]
pub struct SummaryLine {
    pub world_id: WorldId,
    pub event_id: EventId,
    pub summary: String,
}

impl SummaryLine {
    pub fn of(e: &Event, lang: Lang) -> SummaryLine {
        SummaryLine {
            world_id: e.world_id,
            event_id: e.id,
            summary: crate::said::stored(lang, &e.said, &e.summary),
        }
    }
}

/// An event as the report partial draws it, said in `lang`.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct ReportView {
    #[schema(value_type = i32)]
    pub id: EventId,
    pub kind: EventKind,
    pub turn: i32,
    pub at: i64,
    pub summary: String,
    pub x: Option<i32>,
    pub y: Option<i32>,
    /// The order's record as the game wrote it (dice, losses, steps); none for other events.
    pub data: Option<Report>,
}

impl ReportView {
    pub fn of(e: &Event, lang: Lang) -> ReportView {
        ReportView {
            id: e.id,
            kind: e.kind,
            turn: e.turn,
            at: e.at,
            summary: crate::said::stored(lang, &e.said, &e.summary),
            x: e.x,
            y: e.y,
            data: Report::of_event(e.kind, &e.data),
        }
    }
}
