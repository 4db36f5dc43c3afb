//! The ruleset file (`config/rules.toml`): every table and constant of the rulebook (docs/rules.md), loaded and
//! validated so that the rest of the engine can trust it.

use super::names::{Class, Cover, Kind, Season, Terrain};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// A ruleset that failed validation; `key` names the offending entry (`terrains.forest.ap_summer`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesetError {
    pub key: String,
    pub message: String,
}

impl fmt::Display for RulesetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ruleset key `{}`: {}", self.key, self.message)
    }
}

impl std::error::Error for RulesetError {}

fn err<T>(key: impl Into<String>, message: impl Into<String>) -> Result<T, RulesetError> {
    Err(RulesetError {
        key: key.into(),
        message: message.into(),
    })
}

/// Boolean properties a terrain may carry (see the comment at the top of rules.toml).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Deserialize,
    serde::Serialize,
    utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Flag {
    StopsMovement,
    BlocksLos,
    Elevated,
    RangedOnly,
    OwnNationOnly,
    CapturedOnEntry,
    TownCentre,
    TownPart,
    Headquarters,
    Reinforce,
    Ownable,
    River,
    Road,
    /// A castle's wall, tower or gate: mounted companies and war machines never enter it
    /// (an own gate excepted); its defenders strike first in melee (docs/rules.md §12).
    Wall,
    /// A foot company may climb it with ladders (an enemy wall).
    Climbable,
    /// Only voltigeurs may climb it, with grappling hooks (an enemy tower).
    Hooks,
    /// Only its owner's nation passes until it is broken.
    Gate,
    /// Part of a castle's ground: the stairs lead up from it.
    CastlePart,
    /// Foot companies only.
    FootOnly,
    /// No volley is fired into or out of it.
    NoVolley,
    /// Melee into or out of it deals half damage.
    CloseQuarters,
}

/// A terrain's flags, as written, and one bit per flag: [`TerrainRules::has`] is asked at
/// every step of every path.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Flags {
    set: BTreeSet<Flag>,
    mask: u32,
}

impl Flags {
    fn bit(flag: Flag) -> u32 {
        1 << (flag as u32)
    }

    pub fn iter(&self) -> impl Iterator<Item = Flag> + '_ {
        self.set.iter().copied()
    }
}

impl FromIterator<Flag> for Flags {
    fn from_iter<I: IntoIterator<Item = Flag>>(flags: I) -> Flags {
        let set: BTreeSet<Flag> = flags.into_iter().collect();
        let mask = set.iter().fold(0, |m, f| m | Flags::bit(*f));
        Flags { set, mask }
    }
}

impl<'de> Deserialize<'de> for Flags {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Flags, D::Error> {
        Ok(BTreeSet::<Flag>::deserialize(d)?.into_iter().collect())
    }
}

impl serde::Serialize for Flags {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.set.serialize(s)
    }
}

// One bit per flag in a u32.
const _: () = assert!((Flag::CloseQuarters as u32) < 32);

/// Abilities a kind may have beyond moving, volleying and melee.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Ability {
    Bombard,
    BuildBridge,
    Repair,
    Ram,
    BuildSiegeTower,
    /// Grappling hooks: climbs an enemy tower.
    Hooks,
}

impl Ability {
    fn parse(s: &str) -> Option<Ability> {
        match s {
            "bombard" => Some(Ability::Bombard),
            "build_bridge" => Some(Ability::BuildBridge),
            "repair" => Some(Ability::Repair),
            "ram" => Some(Ability::Ram),
            "build_siege_tower" => Some(Ability::BuildSiegeTower),
            "hooks" => Some(Ability::Hooks),
            _ => None,
        }
    }
}

/// One terrain's row of docs/rules.md §2: read as config/rules.toml writes it (then checked by
/// [`TerrainRules::check`]), and shown as it is by the rulebook.
#[derive(Clone, Debug, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainRules {
    pub ap_summer: i32,
    pub ap_winter: i32,
    /// Percent; 25 means losses × 0.75.
    pub volley_protection: i32,
    pub melee_protection: i32,
    /// When not empty, melee protection applies only against attackers standing on these.
    #[serde(default)]
    pub melee_protection_against: Vec<Terrain>,
    pub confidence: i32,
    pub vision: i32,
    #[serde(default)]
    pub flags: Flags,
    #[serde(default)]
    pub impassable_to: BTreeSet<Kind>,
    #[serde(default)]
    pub hides: BTreeSet<Kind>,
    #[serde(default, serialize_with = "from_costs")]
    pub enter_cost_from: BTreeMap<Terrain, i32>,
    #[serde(default, serialize_with = "kind_bonuses")]
    pub range_bonus: BTreeMap<Kind, i32>,
    pub structure: Option<i32>,
    #[serde(default)]
    pub output: i32,
    #[serde(default)]
    pub heal_bonus: i32,
    pub bridge_into: Option<Terrain>,
    #[serde(default)]
    pub discount_from: Vec<Terrain>,
    #[serde(default)]
    pub discount_chance: i32,
    #[serde(default)]
    pub discount: i32,
    /// How much the terrain hides a company a volley's line passes by (docs/rules.md §13).
    #[serde(default = "exposed")]
    pub cover: Cover,
}

fn exposed() -> Cover {
    Cover::Exposed
}

/// What it costs to enter a terrain from another one, where that differs: the rulebook reads
/// `enter_cost_from` as a list of these, in the order of the terrains.
#[derive(serde::Serialize)]
struct FromCost {
    from: Terrain,
    ap: i32,
}

fn from_costs<S: serde::Serializer>(m: &BTreeMap<Terrain, i32>, s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(m.iter().map(|(&from, &ap)| FromCost { from, ap }))
}

/// A kind's range bonus on a terrain, as the rulebook lists `range_bonus`.
#[derive(serde::Serialize)]
struct KindBonus {
    kind: Kind,
    bonus: i32,
}

fn kind_bonuses<S: serde::Serializer>(m: &BTreeMap<Kind, i32>, s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(m.iter().map(|(&kind, &bonus)| KindBonus { kind, bonus }))
}

impl TerrainRules {
    pub fn has(&self, flag: Flag) -> bool {
        self.flags.mask & Flags::bit(flag) != 0
    }

    pub fn ap(&self, season: Season) -> i32 {
        match season {
            Season::Summer => self.ap_summer,
            Season::Winter => self.ap_winter,
        }
    }
}

/// A damage range with an optional reach, for volley and melee.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct Attack {
    pub min: i32,
    pub max: i32,
    /// Volley range in cells (melee: 1).
    pub range: i32,
    /// AP cost; defaults to the action cost.
    pub cost: i32,
}

/// One kind's row of docs/rules.md §3.
#[derive(Clone, Debug, PartialEq)]
pub struct KindRules {
    pub full_strength: i32,
    pub max_ap: i32,
    pub ap_per_turn: i32,
    pub perception: i32,
    pub volley: Option<Attack>,
    pub melee: Option<Attack>,
    pub abilities: BTreeSet<Ability>,
    /// On foot, mounted or a war machine: what it may do among castle walls.
    pub class: Class,
}

impl KindRules {
    pub fn can(&self, a: Ability) -> bool {
        self.abilities.contains(&a)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize, serde::Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionCosts {
    pub volley: i32,
    pub melee: i32,
    pub heal: i32,
    pub build_bridge: i32,
    pub repair: i32,
    pub bombard: i32,
    pub reinforce: i32,
    pub raise: i32,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize, serde::Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CombatRules {
    pub morale_max: i32,
    pub morale_loss_threshold: i32,
    pub morale_loss: i32,
    pub xp_per_losses: i32,
    pub bombard_min: i32,
    pub bombard_max: i32,
    pub repair_points: i32,
    pub heal_men: i32,
    pub hidden_visible_at: i32,
    pub min_perception: i32,
    /// Whether a breached ranged-only cell (fort, fortifications) may be attacked in melee.
    #[serde(default = "yes")]
    pub breach_opens_melee: bool,
    /// Confidence points worth one point of morale when losses are split.
    #[serde(default = "ten")]
    pub confidence_per_morale: i32,
    /// Percent of the losses that are wounded rather than killed at half the maximum morale.
    #[serde(default = "fifty")]
    pub wounded_percent: i32,
}

// Defaults of keys added after the first ruleset, so that older rule files still load.
fn yes() -> bool {
    true
}
fn ten() -> i32 {
    10
}
fn fifty() -> i32 {
    50
}
fn forty() -> i32 {
    40
}
fn two_hundred() -> i32 {
    200
}
fn sixty_four() -> i32 {
    64
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize, serde::Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TurnRules {
    pub morale_gain: i32,
    pub wounded_healed: i32,
    pub reserve_gain: i32,
    pub regiment_morale_bonus: i32,
    pub regiment_radius: i32,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize, serde::Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    pub max_companies_per_player: i32,
    pub raise_cost: i64,
    pub raise_morale: i32,
    pub start_treasury: i64,
    pub reinforce_cost_per_man: i64,
    pub max_catch_up: i32,
    pub company_name_max: i32,
    #[serde(default = "forty")]
    pub regiment_name_max: i32,
    /// The most steps one move order may carry.
    #[serde(default = "two_hundred")]
    pub max_path: i32,
    /// How far around a company and its destination the path finder looks, in cells.
    #[serde(default = "sixty_four")]
    pub path_search_margin: i32,
    /// How far from the nation's spawn a raised company may be placed when it is crowded.
    #[serde(default = "forty")]
    pub raise_search_radius: i32,
}

/// Leave (vacation): a player freezes their companies for a while.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, serde::Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LeaveRules {
    pub min_days: i32,
    pub max_days: i32,
    /// No leave starts within this many hours of a fight of one of the player's companies.
    pub cooldown_hours: i32,
}

impl Default for LeaveRules {
    fn default() -> Self {
        LeaveRules {
            min_days: 2,
            max_days: 21,
            cooldown_hours: 24,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize, serde::Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ScoreRules {
    pub town: i64,
    pub mine: i64,
    pub fort: i64,
    pub company: i64,
}

/// The whole validated ruleset.
#[derive(Clone, Debug, PartialEq)]
pub struct Ruleset {
    terrains: Vec<TerrainRules>,
    kinds: Vec<KindRules>,
    pub actions: ActionCosts,
    pub combat: CombatRules,
    pub turn: TurnRules,
    pub limits: Limits,
    pub score: ScoreRules,
    pub leave: LeaveRules,
    pub victory: crate::rules::victory::VictoryRules,
    pub castle: CastleRules,
    pub cover: CoverRules,
}

/// `[cover]`: what a volley's line through cover gives its target (docs/rules.md §13).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, serde::Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, default)]
pub struct CoverRules {
    /// Volley protection, in percent, of a target the line reaches past `light` or `dense`
    /// cells.
    pub obscured: i32,
    /// A `light` terrain's own volley protection is for foot companies only.
    pub light_foot_only: bool,
    /// Of the losses a melee across a rampart would cost its defenders, the percent they take.
    pub rampart_melee_losses: i32,
}

impl Default for CoverRules {
    fn default() -> Self {
        CoverRules {
            obscured: 15,
            light_foot_only: false,
            rampart_melee_losses: 50,
        }
    }
}

/// `[castle]`: the AP of climbing and of breaches, the ram and the siege tower
/// (docs/rules.md §12). Entering a wall or tower by its stairs, or an own gate, costs the
/// terrain's own AP.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, serde::Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, default)]
pub struct CastleRules {
    /// Climbing an enemy wall (or, with hooks, a tower): the whole move.
    pub ladder: i32,
    /// Entering a breached wall or tower, or a broken gate.
    pub breach: i32,
    pub ram_cost: i32,
    pub ram_min: i32,
    pub ram_max: i32,
    pub siege_tower_cost: i32,
    /// Build actions a siege tower takes.
    pub siege_tower_builds: i32,
    /// A finished siege tower's structure.
    pub siege_tower_structure: i32,
}

impl Default for CastleRules {
    fn default() -> Self {
        CastleRules {
            ladder: 4,
            breach: 2,
            ram_cost: 6,
            ram_min: 2,
            ram_max: 4,
            siege_tower_cost: 8,
            siege_tower_builds: 3,
            siege_tower_structure: 6,
        }
    }
}

impl Ruleset {
    pub fn terrain(&self, t: Terrain) -> &TerrainRules {
        &self.terrains[t.index()]
    }

    pub fn kind(&self, k: Kind) -> &KindRules {
        &self.kinds[k.index()]
    }

    /// The volley cost of a kind (its own cost or the action's).
    pub fn volley_cost(&self, k: Kind) -> i32 {
        self.kind(k).volley.map_or(self.actions.volley, |v| v.cost)
    }

    /// The cheapest cost of entering any cell this season: the A* heuristic's unit.
    pub fn cheapest_step(&self, season: Season) -> i32 {
        let base = Terrain::ALL
            .iter()
            .map(|t| self.terrain(*t).ap(season))
            .min()
            .unwrap_or(0);
        let special = Terrain::ALL
            .iter()
            .flat_map(|t| self.terrain(*t).enter_cost_from.values().copied())
            .min()
            .unwrap_or(base);
        base.min(special).max(0)
    }

    /// Parses and validates a ruleset from TOML text.
    pub fn from_toml(text: &str) -> Result<Ruleset, RulesetError> {
        let raw: RawRuleset = toml::from_str(text).map_err(|e| RulesetError {
            key: e
                .span()
                .map(|s| key_at(text, s.start))
                .unwrap_or_else(|| "(file)".into()),
            message: e.message().to_string(),
        })?;
        raw.validate()
    }

    /// The ruleset shipped in `config/rules.toml`.
    pub fn shipped() -> Ruleset {
        Ruleset::from_toml(SHIPPED).expect("the shipped ruleset is valid")
    }
}

/// The text of the shipped `config/rules.toml`, compiled in as the default.
pub const SHIPPED: &str = include_str!("../../config/rules.toml");

/// Best effort: the nearest `[table]` header above a byte offset, to name a parse error's key.
fn key_at(text: &str, offset: usize) -> String {
    let before = &text[..offset.min(text.len())];
    let table = before
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with('['))
        .map(|l| l.trim().trim_matches(|c| c == '[' || c == ']').to_string());
    let line = before.lines().last().unwrap_or("").trim();
    let field = line.split('=').next().unwrap_or("").trim();
    match (table, field.is_empty()) {
        (Some(t), false) => format!("{t}.{field}"),
        (Some(t), true) => t,
        (None, _) => field.to_string(),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRuleset {
    terrains: BTreeMap<String, TerrainRules>,
    kinds: BTreeMap<String, RawKind>,
    actions: ActionCosts,
    combat: CombatRules,
    turn: TurnRules,
    limits: Limits,
    score: ScoreRules,
    #[serde(default)]
    leave: LeaveRules,
    #[serde(default)]
    victory: crate::rules::victory::VictoryRules,
    #[serde(default)]
    castle: CastleRules,
    #[serde(default)]
    cover: CoverRules,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAttack {
    min: i32,
    max: i32,
    #[serde(default)]
    range: Option<i32>,
    #[serde(default)]
    cost: Option<i32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKind {
    full_strength: i32,
    max_ap: i32,
    ap_per_turn: i32,
    perception: i32,
    volley: Option<RawAttack>,
    melee: Option<RawAttack>,
    #[serde(default)]
    abilities: Vec<String>,
    /// `foot` (the default), `mounted` or `machine`.
    class: Option<String>,
}

fn non_negative(key: &str, v: i32) -> Result<i32, RulesetError> {
    if v < 0 {
        return err(key, format!("must not be negative (got {v})"));
    }
    Ok(v)
}

fn positive(key: &str, v: i32) -> Result<i32, RulesetError> {
    if v <= 0 {
        return err(key, format!("must be positive (got {v})"));
    }
    Ok(v)
}

fn percent(key: &str, v: i32) -> Result<i32, RulesetError> {
    if !(-100..=100).contains(&v) {
        return err(key, format!("must be between -100 and 100 (got {v})"));
    }
    Ok(v)
}

impl TerrainRules {
    /// What the file's types do not say: the ranges of the numbers, and a bridge for a river.
    fn check(&self, p: &str) -> Result<(), RulesetError> {
        let k = |f: &str| format!("{p}.{f}");
        for (from, cost) in &self.enter_cost_from {
            non_negative(&k(&format!("enter_cost_from.{from}")), *cost)?;
        }
        if self.has(Flag::River) && self.bridge_into.is_none() {
            return err(
                k("bridge_into"),
                "a river terrain must name the terrain a bridge turns it into",
            );
        }
        if let Some(s) = self.structure {
            positive(&k("structure"), s)?;
        }
        if !(0..=100).contains(&self.discount_chance) {
            return err(
                k("discount_chance"),
                format!("must be between 0 and 100 (got {})", self.discount_chance),
            );
        }
        non_negative(&k("ap_summer"), self.ap_summer)?;
        non_negative(&k("ap_winter"), self.ap_winter)?;
        percent(&k("volley_protection"), self.volley_protection)?;
        percent(&k("melee_protection"), self.melee_protection)?;
        non_negative(&k("output"), self.output)?;
        non_negative(&k("heal_bonus"), self.heal_bonus)?;
        non_negative(&k("discount"), self.discount)?;
        Ok(())
    }
}

impl RawAttack {
    fn validate(
        self,
        key: &str,
        default_range: i32,
        default_cost: i32,
    ) -> Result<Attack, RulesetError> {
        non_negative(&format!("{key}.min"), self.min)?;
        if self.max < self.min {
            return err(
                format!("{key}.max"),
                format!("damage range is inverted ({}–{})", self.min, self.max),
            );
        }
        Ok(Attack {
            min: self.min,
            max: self.max,
            range: positive(&format!("{key}.range"), self.range.unwrap_or(default_range))?,
            cost: non_negative(&format!("{key}.cost"), self.cost.unwrap_or(default_cost))?,
        })
    }
}

impl RawKind {
    fn validate(self, p: &str, actions: &ActionCosts) -> Result<KindRules, RulesetError> {
        let k = |f: &str| format!("{p}.{f}");
        let abilities = self
            .abilities
            .iter()
            .map(|a| {
                Ability::parse(a)
                    .map_or_else(|| err(k("abilities"), format!("unknown ability `{a}`")), Ok)
            })
            .collect::<Result<BTreeSet<_>, _>>()?;
        let volley = match self.volley {
            Some(v) => {
                if v.range.is_none() {
                    return err(k("volley.range"), "a volley needs a range");
                }
                Some(v.validate(&k("volley"), 1, actions.volley)?)
            }
            None => None,
        };
        let melee = match self.melee {
            Some(m) => Some(m.validate(&k("melee"), 1, actions.melee)?),
            None => None,
        };
        Ok(KindRules {
            full_strength: positive(&k("full_strength"), self.full_strength)?,
            max_ap: non_negative(&k("max_ap"), self.max_ap)?,
            ap_per_turn: non_negative(&k("ap_per_turn"), self.ap_per_turn)?,
            perception: non_negative(&k("perception"), self.perception)?,
            volley,
            melee,
            abilities,
            class: match &self.class {
                None => Class::Foot,
                Some(c) => c
                    .parse::<Class>()
                    .or_else(|e| err(k("class"), e.to_string()))?,
            },
        })
    }
}

impl RawRuleset {
    fn validate(mut self) -> Result<Ruleset, RulesetError> {
        for name in self.terrains.keys() {
            if name.parse::<Terrain>().is_err() {
                return err(
                    format!("terrains.{name}"),
                    format!("unknown terrain `{name}`"),
                );
            }
        }
        for name in self.kinds.keys() {
            if name.parse::<Kind>().is_err() {
                return err(format!("kinds.{name}"), format!("unknown kind `{name}`"));
            }
        }
        let a = &self.actions;
        for (name, v) in [
            ("volley", a.volley),
            ("melee", a.melee),
            ("heal", a.heal),
            ("build_bridge", a.build_bridge),
            ("repair", a.repair),
            ("bombard", a.bombard),
            ("reinforce", a.reinforce),
            ("raise", a.raise),
        ] {
            non_negative(&format!("actions.{name}"), v)?;
        }
        let mut terrains = Vec::with_capacity(Terrain::ALL.len());
        for t in Terrain::ALL {
            let key = format!("terrains.{t}");
            let row = self
                .terrains
                .remove(t.as_str())
                .map_or_else(|| err(&key, format!("terrain `{t}` is missing")), Ok)?;
            row.check(&key)?;
            terrains.push(row);
        }
        let mut kinds = Vec::with_capacity(Kind::ALL.len());
        for kd in Kind::ALL {
            let key = format!("kinds.{kd}");
            let raw = self
                .kinds
                .remove(kd.as_str())
                .map_or_else(|| err(&key, format!("kind `{kd}` is missing")), Ok)?;
            kinds.push(raw.validate(&key, &self.actions)?);
        }
        let c = &self.combat;
        positive("combat.morale_max", c.morale_max)?;
        non_negative("combat.morale_loss_threshold", c.morale_loss_threshold)?;
        non_negative("combat.morale_loss", c.morale_loss)?;
        positive("combat.xp_per_losses", c.xp_per_losses)?;
        non_negative("combat.bombard_min", c.bombard_min)?;
        if c.bombard_max < c.bombard_min {
            return err(
                "combat.bombard_max",
                format!(
                    "damage range is inverted ({}–{})",
                    c.bombard_min, c.bombard_max
                ),
            );
        }
        non_negative("combat.repair_points", c.repair_points)?;
        non_negative("combat.heal_men", c.heal_men)?;
        non_negative("combat.hidden_visible_at", c.hidden_visible_at)?;
        non_negative("combat.min_perception", c.min_perception)?;
        positive("combat.confidence_per_morale", c.confidence_per_morale)?;
        if !(0..=100).contains(&c.wounded_percent) {
            return err(
                "combat.wounded_percent",
                format!("must be between 0 and 100 (got {})", c.wounded_percent),
            );
        }
        let t = &self.turn;
        non_negative("turn.morale_gain", t.morale_gain)?;
        non_negative("turn.wounded_healed", t.wounded_healed)?;
        non_negative("turn.reserve_gain", t.reserve_gain)?;
        non_negative("turn.regiment_morale_bonus", t.regiment_morale_bonus)?;
        non_negative("turn.regiment_radius", t.regiment_radius)?;
        let l = &self.limits;
        non_negative(
            "limits.max_companies_per_player",
            l.max_companies_per_player,
        )?;
        if l.raise_cost < 0 {
            return err("limits.raise_cost", "must not be negative");
        }
        if l.start_treasury < 0 {
            return err("limits.start_treasury", "must not be negative");
        }
        if l.reinforce_cost_per_man < 0 {
            return err("limits.reinforce_cost_per_man", "must not be negative");
        }
        if !(0..=c.morale_max).contains(&l.raise_morale) {
            return err(
                "limits.raise_morale",
                "must be between 0 and combat.morale_max",
            );
        }
        non_negative("limits.max_catch_up", l.max_catch_up)?;
        positive("limits.company_name_max", l.company_name_max)?;
        positive("limits.regiment_name_max", l.regiment_name_max)?;
        let v = &self.leave;
        positive("leave.min_days", v.min_days)?;
        if v.max_days < v.min_days {
            return err(
                "leave.max_days",
                format!("must not be below leave.min_days ({})", v.min_days),
            );
        }
        non_negative("leave.cooldown_hours", v.cooldown_hours)?;
        positive("limits.max_path", l.max_path)?;
        positive("limits.path_search_margin", l.path_search_margin)?;
        non_negative("limits.raise_search_radius", l.raise_search_radius)?;
        let v = &self.victory;
        if v.points <= 0 {
            return err(
                "victory.points",
                format!("must be positive (got {})", v.points),
            );
        }
        non_negative("victory.end_turn", v.end_turn)?;
        if !(v.towns_share > 0.0 && v.towns_share <= 1.0) {
            return err(
                "victory.towns_share",
                format!("must be above 0 and at most 1 (got {})", v.towns_share),
            );
        }
        for (key, n) in [
            ("victory.per_town", v.per_town),
            ("victory.per_mine", v.per_mine),
            ("victory.per_section", v.per_section),
        ] {
            if n < 0 {
                return err(key, format!("must not be negative (got {n})"));
            }
        }
        let ca = &self.castle;
        for (key, n) in [
            ("castle.ladder", ca.ladder),
            ("castle.breach", ca.breach),
            ("castle.ram_cost", ca.ram_cost),
            ("castle.ram_min", ca.ram_min),
            ("castle.siege_tower_cost", ca.siege_tower_cost),
        ] {
            non_negative(key, n)?;
        }
        positive("castle.siege_tower_builds", ca.siege_tower_builds)?;
        positive("castle.siege_tower_structure", ca.siege_tower_structure)?;
        if ca.ram_max < ca.ram_min {
            return err(
                "castle.ram_max",
                format!("damage range is inverted ({}–{})", ca.ram_min, ca.ram_max),
            );
        }
        Ok(Ruleset {
            terrains,
            kinds,
            actions: self.actions,
            combat: self.combat,
            turn: self.turn,
            limits: self.limits,
            score: self.score,
            leave: self.leave,
            victory: self.victory,
            castle: self.castle,
            cover: {
                percent("cover.obscured", self.cover.obscured)?;
                if !(0..=100).contains(&self.cover.rampart_melee_losses) {
                    return err(
                        "cover.rampart_melee_losses",
                        format!(
                            "must be between 0 and 100 (got {})",
                            self.cover.rampart_melee_losses
                        ),
                    );
                }
                self.cover
            },
        })
    }
}
