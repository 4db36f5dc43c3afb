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

pub fn build() -> Result<Tera, tera::Error> {
    let mut tera = Tera::default();
    tera.register_filter("datetime", datetime);
    tera.add_raw_templates(TEMPLATES.iter().copied())?;
    tera.autoescape_on(vec![".html"]);
    Ok(tera)
}
