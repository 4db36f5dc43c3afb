//! The Tera pages, compiled into the binary and built once at start-up.

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
    "refused.html",
    "gm_worlds.html",
    "gm_editor.html",
    "gm_audit.html",
    "partials/report.html",
    "partials/map.html",
    "partials/symbols.html",
    "partials/legend.html",
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
        .and_then(crate::i18n::Lang::parse)
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
    Ok(tera::Value::String(crate::i18n::tr(lang, key, &values)))
}

pub fn build() -> Result<Tera, tera::Error> {
    let mut tera = Tera::default();
    tera.register_filter("datetime", datetime);
    tera.register_function("t", translate);
    tera.add_raw_templates(TEMPLATES.iter().copied())?;
    tera.autoescape_on(vec![".html"]);
    Ok(tera)
}
