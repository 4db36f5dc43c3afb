//! A refusal in the viewer's language: English is the refusal's own text; other languages take
//! the message `refusal-<code>` of their Fluent file with the refusal's values. Messages that
//! are free text (malformed input) stay as they were written.

use crate::game::GameError;
use crate::i18n::{tr, Lang};
use crate::rules::{Kind, Pos, Refusal, Terrain};
use fluent_bundle::FluentValue;

fn at(p: &Pos) -> FluentValue<'static> {
    FluentValue::from(p.to_string())
}

fn terrain(lang: Lang, t: &Terrain) -> FluentValue<'static> {
    FluentValue::from(tr(lang, &format!("terrain-{}", t.as_str()), &[]))
}

fn kind(lang: Lang, k: &Kind) -> FluentValue<'static> {
    FluentValue::from(tr(lang, &format!("kind-{}", k.as_str()), &[]))
}

/// The values a refusal's message takes.
fn values(lang: Lang, r: &Refusal) -> Vec<(&'static str, FluentValue<'static>)> {
    let n = |v: i64| FluentValue::from(v);
    match r {
        Refusal::NotEnoughAp { need, have } => {
            vec![("need", n(*need as i64)), ("have", n(*have as i64))]
        }
        Refusal::Occupied(p)
        | Refusal::OutOfMap(p)
        | Refusal::EnemyFort(p)
        | Refusal::NotRiver(p)
        | Refusal::NotOwned(p)
        | Refusal::AlreadyBreached(p)
        | Refusal::LadderFirstStep(p)
        | Refusal::GateClosed(p)
        | Refusal::NotGate(p)
        | Refusal::VolleyBuilding(p)
        | Refusal::NoEnemyWall(p) => vec![("at", at(p))],
        Refusal::NotAdjacent { from, to } => vec![("from", at(from)), ("to", at(to))],
        Refusal::Impassable {
            at: p,
            terrain: t,
            kind: k,
        }
        | Refusal::CannotClimb {
            at: p,
            terrain: t,
            kind: k,
        } => {
            vec![
                ("at", at(p)),
                ("terrain", terrain(lang, t)),
                ("kind", kind(lang, k)),
            ]
        }
        Refusal::StopsMovement { at: p, terrain: t }
        | Refusal::NoStructure { at: p, terrain: t } => {
            vec![("at", at(p)), ("terrain", terrain(lang, t))]
        }
        Refusal::NoPath { to } => vec![("to", at(to))],
        Refusal::OutOfRange { distance, range } => {
            vec![
                ("distance", n(*distance as i64)),
                ("range", n(*range as i64)),
            ]
        }
        Refusal::NoLineOfSight { blocked_at } => vec![("at", at(blocked_at))],
        Refusal::RangedOnly { terrain: t }
        | Refusal::NoReinforcementHere(t)
        | Refusal::NotHeadquarters(t) => {
            vec![("terrain", terrain(lang, t))]
        }
        Refusal::CannotVolley(k)
        | Refusal::CannotMelee(k)
        | Refusal::NotSappers(k)
        | Refusal::CannotBombard(k)
        | Refusal::CannotRam(k) => {
            vec![("kind", kind(lang, k))]
        }
        Refusal::CompanyLimit(v) => vec![("n", n(*v as i64))],
        Refusal::Treasury { need, have } => vec![("need", n(*need)), ("have", n(*have))],
        Refusal::FullStructure { at: p, max } => vec![("at", at(p)), ("max", n(*max as i64))],
        Refusal::FullStrength(full) => vec![("full", n(*full as i64))],
        Refusal::OnLeave(until) => vec![(
            "until",
            FluentValue::from(crate::rules::refusal::instant(*until)),
        )],
        Refusal::RecentFight(from) => vec![(
            "from",
            FluentValue::from(crate::rules::refusal::instant(*from)),
        )],
        Refusal::LeaveLength { min, max } => vec![("min", n(*min as i64)), ("max", n(*max as i64))],
        Refusal::Invalid(_)
        | Refusal::HiddenTarget
        | Refusal::NotSeen
        | Refusal::OwnNation
        | Refusal::NoWounded
        | Refusal::ReserveEmpty
        | Refusal::AlreadyThere
        | Refusal::TargetOnLeave => Vec::new(),
    }
}

/// A refusal as the viewer reads it.
pub fn say_refusal(lang: Lang, r: &Refusal) -> String {
    if lang == Lang::En || matches!(r, Refusal::Invalid(_)) {
        return r.to_string();
    }
    // Two refusals share `on_leave`: the target's gets its own message.
    let key = match r {
        Refusal::TargetOnLeave => "refusal-target_on_leave".to_string(),
        _ => format!("refusal-{}", r.code()),
    };
    let text = tr(lang, &key, &values(lang, r));
    if text == key {
        r.to_string()
    } else {
        text
    }
}

/// An error as the viewer reads it, in their language where it was said so.
pub fn say(lang: Lang, e: &GameError) -> String {
    let n = |v: i64| FluentValue::from(v);
    match e {
        GameError::Refused(r) => say_refusal(lang, r),
        GameError::Invalid(t)
        | GameError::Unauthorized(t)
        | GameError::Forbidden(t)
        | GameError::NotFound(t)
        | GameError::Conflict(t)
        | GameError::TooDeep(t)
        | GameError::TooLarge(t) => t.in_lang(lang),
        GameError::RateLimited { retry_after } => {
            tr(lang, "error-rate-limited", &[("s", n(*retry_after))])
        }
        GameError::Busy { retry_after } => tr(lang, "error-busy", &[("s", n(*retry_after))]),
        GameError::Paused => tr(lang, "error-paused", &[]),
        GameError::CampaignOver => tr(lang, "error-campaign-over", &[]),
        other => other.to_string(),
    }
}

/// An error's message as an API answer carries it: English as the error writes itself, another
/// language as the pages say it (`middleware::errors_in_lang` writes error answers so).
pub fn say_api(lang: Lang, e: &GameError) -> String {
    match lang {
        Lang::En => e.to_string(),
        _ => say(lang, e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_refusal_reads_in_french() {
        let p = Pos::new(3, 4);
        let all = [
            Refusal::NotEnoughAp { need: 4, have: 2 },
            Refusal::Occupied(p),
            Refusal::NotAdjacent {
                from: p,
                to: Pos::new(9, 9),
            },
            Refusal::OutOfMap(p),
            Refusal::EnemyFort(p),
            Refusal::Impassable {
                at: p,
                terrain: Terrain::Marsh,
                kind: Kind::Artillery,
            },
            Refusal::StopsMovement {
                at: p,
                terrain: Terrain::Church,
            },
            Refusal::NoPath { to: p },
            Refusal::OutOfRange {
                distance: 5,
                range: 2,
            },
            Refusal::NoLineOfSight { blocked_at: p },
            Refusal::HiddenTarget,
            Refusal::NotSeen,
            Refusal::RangedOnly {
                terrain: Terrain::Fort,
            },
            Refusal::CannotVolley(Kind::Cavalry),
            Refusal::CannotMelee(Kind::Artillery),
            Refusal::NotSappers(Kind::Infantry),
            Refusal::NotRiver(p),
            Refusal::NotOwned(p),
            Refusal::CompanyLimit(3),
            Refusal::Treasury { need: 100, have: 7 },
            Refusal::OwnNation,
            Refusal::NoStructure {
                at: p,
                terrain: Terrain::Plain,
            },
            Refusal::CannotBombard(Kind::Infantry),
            Refusal::AlreadyBreached(p),
            Refusal::FullStructure { at: p, max: 15 },
            Refusal::NoWounded,
            Refusal::FullStrength(200),
            Refusal::NoReinforcementHere(Terrain::Plain),
            Refusal::ReserveEmpty,
            Refusal::NotHeadquarters(Terrain::Plain),
            Refusal::AlreadyThere,
            Refusal::OnLeave(1_767_225_600),
            Refusal::TargetOnLeave,
            Refusal::LeaveLength { min: 2, max: 21 },
            Refusal::RecentFight(1_767_225_600),
            Refusal::LadderFirstStep(p),
            Refusal::CannotClimb {
                at: p,
                terrain: Terrain::Tower,
                kind: Kind::Infantry,
            },
            Refusal::GateClosed(p),
            Refusal::NotGate(p),
            Refusal::CannotRam(Kind::Cavalry),
            Refusal::VolleyBuilding(p),
            Refusal::NoEnemyWall(p),
        ];
        for r in &all {
            let fr = say_refusal(Lang::Fr, r);
            assert_ne!(fr, r.to_string(), "no French for {}", r.code());
            assert!(!fr.contains('{'), "{fr}");
            assert_eq!(say_refusal(Lang::En, r), r.to_string());
        }
        assert_eq!(
            say_refusal(Lang::Fr, &Refusal::NotEnoughAp { need: 4, have: 2 }),
            "pas assez de points d'action : il en faut 4 et la compagnie en a 2"
        );
        assert_eq!(
            say_refusal(
                Lang::Fr,
                &Refusal::Impassable {
                    at: p,
                    terrain: Terrain::Marsh,
                    kind: Kind::Artillery
                }
            ),
            "l'arme artillerie ne peut pas entrer sur le terrain marais en (3, 4)"
        );
        assert_eq!(
            say_refusal(Lang::Fr, &Refusal::OnLeave(1_767_225_600)),
            "vous êtes en permission jusqu'au 2026-01-01 00:00 UTC : vos compagnies ne reçoivent aucun ordre d'ici là"
        );
    }
}
