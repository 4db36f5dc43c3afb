//! The Tera pages, compiled into the binary and built once at start-up.

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
    "partials/map.html",
    "partials/symbols.html",
    "partials/legend.html",
);

pub fn build() -> Result<Tera, tera::Error> {
    let mut tera = Tera::default();
    tera.add_raw_templates(TEMPLATES.iter().copied())?;
    tera.autoescape_on(vec![".html"]);
    Ok(tera)
}
