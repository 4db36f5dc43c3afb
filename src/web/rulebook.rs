//! The rulebook: the rules a player needs, in the project's words, every number read from the
//! ruleset and the schedules in use. One Markdown template per language renders it; the
//! `/rules` page and `grognard rules` show the same text.

use crate::config::Config;
use crate::i18n::Lang;
use crate::rules::ruleset::{
    Ability, ActionCosts, Attack, CombatRules, LeaveRules, Limits, ScoreRules, TerrainRules,
    TurnRules,
};
use crate::rules::{Kind, Ruleset, Terrain};
use crate::schedule::Schedule;
use serde::Serialize;
use std::collections::BTreeMap;

/// One terrain's row: its name and the ruleset's row as it is.
#[derive(Clone, Debug, Serialize)]
pub struct TerrainEntry {
    pub name: Terrain,
    #[serde(flatten)]
    pub rules: TerrainRules,
}

/// One kind's row.
#[derive(Clone, Debug, Serialize)]
pub struct KindEntry {
    pub name: Kind,
    pub full_strength: i32,
    pub max_ap: i32,
    pub ap_per_turn: i32,
    pub perception: i32,
    pub volley: Option<Attack>,
    pub melee: Option<Attack>,
    pub abilities: Vec<Ability>,
}

/// When ticks come, as the rulebook says it: the times of day of a daily pattern, or a period.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ScheduleText {
    /// `HH:MM` (UTC) of each instant in one day, when the schedule repeats within a day.
    pub times: Vec<String>,
    /// The period in whole hours when it is a fixed interval (or a cron that is one).
    pub every_hours: Option<i64>,
    pub every_days: Option<i64>,
}

impl ScheduleText {
    fn of(s: &Schedule) -> ScheduleText {
        match s {
            Schedule::Every { period, .. } => Self::period(*period),
            Schedule::Cron(_) => {
                // Instants over a week from a Monday midnight (2024-01-01 is one).
                const MONDAY: i64 = 1_704_067_200;
                let mut t = MONDAY - 1;
                let mut instants = Vec::new();
                while instants.len() < 200 {
                    match s.next_after(t, MONDAY) {
                        Some(n) if n < MONDAY + 7 * 86_400 => {
                            instants.push(n);
                            t = n;
                        }
                        _ => break,
                    }
                }
                let gaps: Vec<i64> = instants.windows(2).map(|w| w[1] - w[0]).collect();
                let regular = !gaps.is_empty() && gaps.iter().all(|g| *g == gaps[0]);
                let mut out = if regular {
                    Self::period(gaps[0])
                } else {
                    ScheduleText::default()
                };
                if gaps.first().is_some_and(|g| *g < 86_400) || instants.len() > 7 {
                    out.times = instants
                        .iter()
                        .take_while(|i| **i < MONDAY + 86_400)
                        .map(|i| format!("{:02}:{:02}", (i % 86_400) / 3600, (i % 3600) / 60))
                        .collect();
                }
                out
            }
        }
    }

    fn period(seconds: i64) -> ScheduleText {
        ScheduleText {
            times: Vec::new(),
            every_hours: (seconds % 3600 == 0 && seconds < 86_400).then_some(seconds / 3600),
            every_days: (seconds % 86_400 == 0).then_some(seconds / 86_400),
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Schedules {
    pub turn: ScheduleText,
    pub season: ScheduleText,
}

/// Everything the rulebook's templates read: `r` the ruleset, `schedule` the schedules.
#[derive(Clone, Debug, Serialize)]
pub struct RulebookView {
    pub terrains: Vec<TerrainEntry>,
    /// The same rows by name, for a sentence that cites one terrain.
    pub terrain: BTreeMap<Terrain, TerrainEntry>,
    pub kinds: Vec<KindEntry>,
    pub kind: BTreeMap<Kind, KindEntry>,
    pub actions: ActionCosts,
    pub combat: CombatRules,
    pub turn: TurnRules,
    pub limits: Limits,
    pub score: ScoreRules,
    pub leave: LeaveRules,
    pub victory: crate::rules::victory::VictoryRules,
    pub castle: crate::rules::ruleset::CastleRules,
    pub cover: crate::rules::ruleset::CoverRules,
    /// `victory.towns_share` as a whole percentage, for the sentence that cites it.
    pub towns_percent: i64,
}

impl RulebookView {
    pub fn of(rs: &Ruleset) -> RulebookView {
        let terrains: Vec<TerrainEntry> = Terrain::ALL
            .iter()
            .map(|&t| TerrainEntry {
                name: t,
                rules: rs.terrain(t).clone(),
            })
            .collect();
        let kinds: Vec<KindEntry> = Kind::ALL
            .iter()
            .map(|&k| {
                let r = rs.kind(k);
                KindEntry {
                    name: k,
                    full_strength: r.full_strength,
                    max_ap: r.max_ap,
                    ap_per_turn: r.ap_per_turn,
                    perception: r.perception,
                    volley: r.volley,
                    melee: r.melee,
                    abilities: r.abilities.iter().copied().collect(),
                }
            })
            .collect();
        RulebookView {
            terrain: terrains.iter().map(|t| (t.name, t.clone())).collect(),
            terrains,
            kind: kinds.iter().map(|k| (k.name, k.clone())).collect(),
            kinds,
            actions: rs.actions.clone(),
            combat: rs.combat.clone(),
            turn: rs.turn.clone(),
            limits: rs.limits.clone(),
            score: rs.score.clone(),
            leave: rs.leave.clone(),
            victory: rs.victory.clone(),
            castle: rs.castle.clone(),
            cover: rs.cover.clone(),
            towns_percent: (rs.victory.towns_share * 100.0).round() as i64,
        }
    }
}

/// The rulebook's templates, one per language, compiled in.
pub const TEMPLATES: &[(&str, &str)] = &[
    (
        "rulebook/en.md",
        include_str!("../../templates/rulebook/en.md"),
    ),
    (
        "rulebook/fr.md",
        include_str!("../../templates/rulebook/fr.md"),
    ),
];

pub fn template_name(lang: Lang) -> String {
    format!("rulebook/{}.md", lang.code())
}

/// The rulebook in Markdown for the config's ruleset and schedules.
pub fn markdown(tera: &tera::Tera, config: &Config, lang: Lang) -> Result<String, tera::Error> {
    let mut ctx = tera::Context::new();
    ctx.insert("r", &RulebookView::of(&config.rules));
    ctx.insert(
        "schedule",
        &Schedules {
            turn: ScheduleText::of(&config.turn_schedule),
            season: ScheduleText::of(&config.season_schedule),
        },
    );
    ctx.insert("bots", &config.settings.bots);
    ctx.insert("lang", lang.code());
    tera.render(&template_name(lang), &ctx)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cron_every_six_hours_reads_as_four_times_a_day() {
        let s = ScheduleText::of(&Schedule::parse("0 0 */6 * * *").unwrap());
        assert_eq!(s.times, ["00:00", "06:00", "12:00", "18:00"]);
        assert_eq!(s.every_hours, Some(6));
        assert_eq!(s.every_days, None);
    }

    #[test]
    fn an_interval_reads_as_its_days() {
        let s = ScheduleText::of(&Schedule::parse("every 14d").unwrap());
        assert_eq!(s.every_days, Some(14));
        assert!(s.times.is_empty());
    }

    #[test]
    fn the_view_carries_the_ruleset_s_numbers() {
        let rs = Ruleset::shipped();
        let v = RulebookView::of(&rs);
        assert_eq!(v.kinds.len(), Kind::ALL.len());
        assert_eq!(
            v.kind[&Kind::Infantry].full_strength,
            rs.kind(Kind::Infantry).full_strength
        );
        assert_eq!(
            v.terrain[&Terrain::Marsh].rules.ap_winter,
            rs.terrain(Terrain::Marsh).ap_winter
        );
    }
}
