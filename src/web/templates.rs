//! The Tera pages, compiled into the binary and built once at start-up.

use crate::i18n::{tr, Lang};
use std::collections::HashMap;
use tera::Tera;

macro_rules! templates {
    ($($name:literal),+ $(,)?) => {
        &[$(($name, include_str!(concat!("../../templates/", $name)))),+]
    };
}

const TEMPLATES: &[(&str, &str)] = templates!(
    "base.html",
    "index.html",
    "world.html",
    "login.html",
    "register.html",
    "account.html",
    "alerts.html",
    "unsubscribed.html",
    "admin_users.html",
    "company.html",
    "reports.html",
    "nations.html",
    "standings.html",
    "messages.html",
    "gm_moderation.html",
    "rules.html",
    "refused.html",
    "gm_worlds.html",
    "gm_editor.html",
    "gm_audit.html",
    "partials/report.html",
    "partials/map.html",
    "partials/preview.html",
    "partials/symbols.html",
    "partials/legend.html",
    "partials/first_day.html",
    "partials/live.html",
    "partials/push_switch.html",
);

/// `{{ ts | datetime }}`: a UNIX time as `YYYY-MM-DD HH:MM UTC`.
fn datetime(value: &tera::Value, _: &HashMap<String, tera::Value>) -> tera::Result<tera::Value> {
    let ts = value
        .as_i64()
        .ok_or_else(|| tera::Error::msg("datetime expects a UNIX time"))?;
    Ok(tera::Value::String(format_time(ts)))
}

pub fn format_time(ts: i64) -> String {
    crate::rules::refusal::instant(ts)
}

/// `{{ t(k="key", l=lang, name=…) }}`: the message `key` in the page's language, the other
/// arguments as its values (already escaped by the message's own HTML when it has some).
fn translate(args: &HashMap<String, tera::Value>) -> tera::Result<tera::Value> {
    let key = args
        .get("k")
        .and_then(|v| v.as_str())
        .ok_or_else(|| tera::Error::msg("t() needs k, the message's key"))?;
    let lang = args
        .get("l")
        .and_then(|v| v.as_str())
        .and_then(Lang::parse)
        .unwrap_or_default();
    let values: Vec<(&str, fluent_bundle::FluentValue)> = args
        .iter()
        .filter(|(k, _)| k.as_str() != "k" && k.as_str() != "l")
        .map(|(k, v)| {
            let value = match v {
                tera::Value::Number(n) => match n.as_i64() {
                    Some(i) => fluent_bundle::FluentValue::from(i),
                    None => fluent_bundle::FluentValue::from(n.as_f64().unwrap_or(0.0)),
                },
                tera::Value::String(s) => fluent_bundle::FluentValue::from(s.clone()),
                other => fluent_bundle::FluentValue::from(other.to_string()),
            };
            (k.as_str(), value)
        })
        .collect();
    Ok(tera::Value::String(tr(lang, key, &values)))
}

/// `{{ nation.name | proper(l=lang) }}`: a nation's name as the page's language says it.
fn proper(value: &tera::Value, args: &HashMap<String, tera::Value>) -> tera::Result<tera::Value> {
    let lang = args
        .get("l")
        .and_then(|v| v.as_str())
        .and_then(Lang::parse)
        .unwrap_or_default();
    let name = value.as_str().unwrap_or_default();
    Ok(tera::Value::String(crate::i18n::proper_name(lang, name)))
}

/// `{{ refusal | sentence }}`: a refusal said on its own, as a sentence: a capital first letter
/// and a full stop (the messages are written to follow "Cannot move: " too).
fn sentence(value: &tera::Value, _: &HashMap<String, tera::Value>) -> tera::Result<tera::Value> {
    Ok(tera::Value::String(as_sentence(
        value.as_str().unwrap_or_default(),
    )))
}

/// `{{ s.name | section(kind=s.kind, l=lang) }}`: a castle section's name as the pages say
/// it ("wall 2", "courtyard NW"), from its stored name, whose last word is its number or
/// quarter.
fn section(value: &tera::Value, args: &HashMap<String, tera::Value>) -> tera::Result<tera::Value> {
    let lang = args
        .get("l")
        .and_then(|v| v.as_str())
        .and_then(Lang::parse)
        .unwrap_or_default();
    let kind = args
        .get("kind")
        .and_then(|v| v.as_str())
        .ok_or_else(|| tera::Error::msg("section: a section kind is needed"))?;
    Ok(tera::Value::String(crate::i18n::section_name(
        lang,
        kind,
        value.as_str().unwrap_or_default(),
    )))
}

pub fn as_sentence(s: &str) -> String {
    let s = s.trim();
    let mut chars = s.chars();
    let Some(first) = chars.next() else {
        return String::new();
    };
    let mut out: String = first.to_uppercase().chain(chars).collect();
    if !out.ends_with(['.', '!', '?', '…']) {
        out.push('.');
    }
    out
}

/// The name a template has in a language: `fr/world.html`.
pub fn in_lang(lang: Lang, name: &str) -> String {
    format!("{}/{name}", lang.code())
}

/// A template with its messages without values written in `lang` once and for all (a call to
/// `t()` per message and page cost the world page a tenth of its time), its `extends` and
/// `include` pointing at the same language's templates. Messages with values stay calls.
fn specialise(text: &str, lang: Lang) -> String {
    const OPEN: &str = "{{ t(k=\"";
    const PLAIN: &str = "\", l=lang) }}";
    const SAFE: &str = "\", l=lang) | safe }}";
    let mut out = String::with_capacity(text.len() + 256);
    let mut rest = text;
    while let Some(at) = rest.find(OPEN) {
        out.push_str(&rest[..at]);
        let after = &rest[at + OPEN.len()..];
        let key_end = after.find('"').unwrap_or(0);
        let (key, tail) = after.split_at(key_end);
        if let Some(next) = tail.strip_prefix(PLAIN) {
            // What the call's output would have been once escaped.
            let mut escaped = String::new();
            super::render::escape(&mut escaped, &tr(lang, key, &[]));
            out.push_str(&escaped);
            rest = next;
        } else if let Some(next) = tail.strip_prefix(SAFE) {
            out.push_str(&tr(lang, key, &[]));
            rest = next;
        } else {
            out.push_str(OPEN);
            rest = after;
        }
    }
    out.push_str(rest);
    out.replace("{% extends \"", &format!("{{% extends \"{}/", lang.code()))
        .replace("{% include \"", &format!("{{% include \"{}/", lang.code()))
}

pub fn build() -> Result<Tera, tera::Error> {
    let mut tera = Tera::default();
    tera.register_filter("datetime", datetime);
    tera.register_function("t", translate);
    tera.register_filter("proper", proper);
    tera.register_filter("sentence", sentence);
    tera.register_filter("section", section);
    let mut all = Vec::new();
    for lang in Lang::ALL {
        for (name, text) in TEMPLATES {
            all.push((
                in_lang(lang, name),
                super::assets::linked(&specialise(text, lang)),
            ));
        }
    }
    all.extend(
        super::rulebook::TEMPLATES
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string())),
    );
    tera.add_raw_templates(all)?;
    tera.autoescape_on(vec![".html"]);
    Ok(tera)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_without_values_are_written_into_each_language_s_templates() {
        let text = "{% extends \"base.html\" %}<p>{{ t(k=\"fog-note\", l=lang) }}</p>\
                    <p>{{ t(k=\"register-have-account\", l=lang) | safe }}</p>\
                    {{ t(k=\"world-turn\", l=lang, turn=3) }}{% include \"partials/map.html\" %}";
        let fr = specialise(text, Lang::Fr);
        assert!(fr.starts_with("{% extends \"fr/base.html\" %}"));
        assert!(fr.contains("<p>Les cases assombries sont hors de vue"));
        assert!(
            fr.contains("Déjà inscrit ? <a href=\"/login\">Connectez-vous</a>"),
            "safe ones as they are"
        );
        assert!(
            fr.contains("{{ t(k=\"world-turn\", l=lang, turn=3) }}"),
            "calls with values stay"
        );
        assert!(fr.contains("{% include \"fr/partials/map.html\" %}"));
        let en = specialise("{{ t(k=\"fog-note\", l=lang) }}", Lang::En);
        assert!(en.starts_with("Shaded cells"));
        // Text with markup characters is escaped as the call's output would have been.
        let odd = specialise("{{ t(k=\"pan-east\", l=lang) }}", Lang::En);
        assert_eq!(odd, "East ▶");
    }
}

#[cfg(test)]
mod sentence_tests {
    use super::as_sentence;

    #[test]
    fn a_refusal_alone_reads_as_a_sentence() {
        assert_eq!(
            as_sentence("une permission dure de 2 à 21 jours"),
            "Une permission dure de 2 à 21 jours."
        );
        assert_eq!(
            as_sentence("not enough AP (4 needed)."),
            "Not enough AP (4 needed)."
        );
        assert_eq!(as_sentence("  état ?"), "État ?");
        assert_eq!(as_sentence(""), "");
    }
}
