//! The site in English and French: messages in Fluent files (`locales/<lang>/main.ftl`),
//! compiled in. A message missing in French falls back to English, and a test checks that both
//! files name the same messages.

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use std::sync::OnceLock;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    En,
    Fr,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Fr];

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
        }
    }

    pub fn parse(s: &str) -> Option<Lang> {
        match s.trim().to_ascii_lowercase().as_str() {
            "en" => Some(Lang::En),
            "fr" => Some(Lang::Fr),
            _ => None,
        }
    }

    /// The first language of an `Accept-Language` header the site speaks (by weight).
    pub fn from_accept_language(header: &str) -> Option<Lang> {
        let mut best: Option<(f32, Lang)> = None;
        for part in header.split(',').take(20) {
            let mut it = part.split(';');
            let tag = it.next().unwrap_or("").trim();
            let q = it
                .find_map(|p| p.trim().strip_prefix("q="))
                .and_then(|q| q.parse::<f32>().ok())
                .unwrap_or(1.0);
            let primary = tag.split('-').next().unwrap_or("");
            if let Some(lang) = Lang::parse(primary) {
                if best.is_none_or(|(bq, _)| q > bq) {
                    best = Some((q, lang));
                }
            }
        }
        best.map(|(_, l)| l)
    }
}

const EN: &str = include_str!("../locales/en/main.ftl");
const FR: &str = include_str!("../locales/fr/main.ftl");
/// The refusals in French (in English they are `Refusal`'s own `Display`).
const FR_REFUSALS: &str = include_str!("../locales/fr/refusals.ftl");

struct Catalog {
    en: FluentBundle<FluentResource>,
    fr: FluentBundle<FluentResource>,
}

fn bundle(lang: &str, texts: &[&'static str]) -> FluentBundle<FluentResource> {
    let id: unic_langid::LanguageIdentifier = lang.parse().expect("a language tag");
    let mut b = FluentBundle::new_concurrent(vec![id]);
    // Pages are HTML: no Unicode isolation marks around the values put in a message.
    b.set_use_isolating(false);
    for text in texts {
        let res = FluentResource::try_new(text.to_string())
            .unwrap_or_else(|(_, errors)| panic!("locales/{lang}: {errors:?}"));
        b.add_resource(res)
            .unwrap_or_else(|errors| panic!("locales/{lang}: {errors:?}"));
    }
    b
}

fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| Catalog {
        en: bundle("en", &[EN]),
        fr: bundle("fr", &[FR, FR_REFUSALS]),
    })
}

/// The message `key` in `lang` with `args`; the English one when French lacks it; the key
/// itself when neither has it (a test keeps that from happening).
pub fn tr(lang: Lang, key: &str, args: &[(&str, FluentValue<'_>)]) -> String {
    let c = catalog();
    let bundles = match lang {
        Lang::Fr => [&c.fr, &c.en],
        Lang::En => [&c.en, &c.en],
    };
    let mut fargs = FluentArgs::new();
    for (k, v) in args {
        fargs.set(*k, v.clone());
    }
    for b in bundles {
        if let Some(pattern) = b.get_message(key).and_then(|m| m.value()) {
            let mut errors = Vec::new();
            return b
                .format_pattern(pattern, Some(&fargs), &mut errors)
                .into_owned();
        }
    }
    key.to_string()
}

/// A proper name given in the map (a nation's) as the language says it, when the messages
/// have it (`name-russia = Russie`); the name itself otherwise. Names are the map's data: a
/// game master's own names stay as written.
pub fn proper_name(lang: Lang, name: &str) -> String {
    let key: String = std::iter::once("name-".to_string())
        .chain(std::iter::once(
            name.chars()
                .map(|c| {
                    if c.is_alphanumeric() {
                        c.to_ascii_lowercase()
                    } else {
                        '-'
                    }
                })
                .collect(),
        ))
        .collect();
    let b = match lang {
        Lang::Fr => &catalog().fr,
        Lang::En => &catalog().en,
    };
    match b.get_message(&key).and_then(|m| m.value()) {
        Some(pattern) => {
            let mut errors = Vec::new();
            b.format_pattern(pattern, None, &mut errors).into_owned()
        }
        None => name.to_string(),
    }
}

/// The names of every message of a language's file.
pub fn keys(lang: Lang) -> Vec<String> {
    let text = match lang {
        Lang::En => EN,
        Lang::Fr => FR,
    };
    text.lines()
        .filter(|l| l.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
        .filter_map(|l| l.split_once(" =").map(|(k, _)| k.trim().to_string()))
        .collect()
}

/// A castle section's name in `lang` from its kind (`wall`, `courtyard`…) and its stored name,
/// whose last word is its number or its quarter: its kind's word, then the number or quarter.
pub fn section_name(lang: Lang, kind: &str, name: &str) -> String {
    let part = name.rsplit(' ').next().unwrap_or_default();
    let kind_word = tr(lang, &format!("section-{kind}"), &[]);
    if kind == "courtyard" {
        format!("{kind_word} {}", tr(lang, &format!("quarter-{part}"), &[]))
    } else {
        format!("{kind_word} {part}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nations_of_the_demo_are_named_in_the_page_s_language() {
        assert_eq!(proper_name(Lang::Fr, "Russia"), "Russie");
        assert_eq!(proper_name(Lang::En, "Russia"), "Russia");
        assert_eq!(proper_name(Lang::Fr, "Prussia"), "Prusse");
        assert_eq!(proper_name(Lang::Fr, "Atlantis"), "Atlantis");
    }

    #[test]
    fn both_languages_name_the_same_messages() {
        let (en, fr) = (keys(Lang::En), keys(Lang::Fr));
        assert!(en.len() > 50);
        for k in &en {
            assert!(fr.contains(k), "French lacks `{k}`");
        }
        for k in &fr {
            assert!(en.contains(k), "English lacks `{k}`");
        }
    }

    #[test]
    fn messages_take_their_values_and_plurals() {
        assert_eq!(tr(Lang::En, "terrain-forest", &[]), "forest");
        assert_eq!(tr(Lang::Fr, "terrain-forest", &[]), "forêt");
        let n = |v: i64| [("n", FluentValue::from(v))];
        assert_eq!(tr(Lang::Fr, "cells-away", &n(1)), "à 1 case");
        assert_eq!(tr(Lang::Fr, "cells-away", &n(3)), "à 3 cases");
        assert_eq!(tr(Lang::En, "cells-away", &n(3)), "3 cells away");
        assert_eq!(tr(Lang::Fr, "no-such-message", &[]), "no-such-message");
    }

    #[test]
    fn the_browser_s_languages_choose_by_weight() {
        assert_eq!(
            Lang::from_accept_language("fr-FR,fr;q=0.9,en;q=0.8"),
            Some(Lang::Fr)
        );
        assert_eq!(
            Lang::from_accept_language("de-DE,en;q=0.5,fr;q=0.7"),
            Some(Lang::Fr)
        );
        assert_eq!(Lang::from_accept_language("en-US,en;q=0.9"), Some(Lang::En));
        assert_eq!(Lang::from_accept_language("de, it"), None);
        assert_eq!(Lang::from_accept_language(""), None);
    }

    #[test]
    fn a_castle_section_is_named_by_its_kind_and_its_number_or_quarter() {
        assert_eq!(section_name(Lang::En, "wall", "wall 2"), "wall 2");
        assert_eq!(section_name(Lang::Fr, "tower", "tower 3"), "tour 3");
        assert_eq!(
            section_name(Lang::Fr, "courtyard", "courtyard NW"),
            "cour NO"
        );
    }
}
