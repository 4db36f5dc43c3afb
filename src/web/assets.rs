//! The static files (CSS, JS, pictures), compiled into the binary. Pages link them by a name
//! that carries a hash of their content (`/static/style.1a2b3c4d.css`), which browsers may
//! keep for a year: a new build changes the name. The plain names still answer, briefly
//! cached, for links from elsewhere.

use actix_web::{web, HttpResponse};
use sha2::{Digest, Sha256};
use std::sync::LazyLock;

const FILES: &[(&str, &str, &str)] = &[
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../../static/style.css"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/app.js"),
    ),
    (
        "editor.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/editor.js"),
    ),
    (
        // The service worker that shows pushes; registered by its plain name, which stays.
        "sw.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/sw.js"),
    ),
    (
        "pick.svg",
        "image/svg+xml",
        include_str!("../../static/pick.svg"),
    ),
    (
        "favicon.svg",
        "image/svg+xml",
        include_str!("../../static/favicon.svg"),
    ),
];

struct Asset {
    name: &'static str,
    /// `style.1a2b3c4d.css`
    hashed: String,
    mime: &'static str,
    body: &'static str,
}

static ASSETS: LazyLock<Vec<Asset>> = LazyLock::new(|| {
    FILES
        .iter()
        .map(|&(name, mime, body)| {
            let digest = Sha256::digest(body.as_bytes());
            let hash: String = digest[..4].iter().map(|b| format!("{b:02x}")).collect();
            let (stem, ext) = name.rsplit_once('.').unwrap_or((name, ""));
            Asset {
                name,
                hashed: format!("{stem}.{hash}.{ext}"),
                mime,
                body,
            }
        })
        .collect()
});

/// The address pages link a static file by (`name` as in `static/`); the plain address for a
/// name that is not one of them.
pub fn url(name: &str) -> String {
    match ASSETS.iter().find(|a| a.name == name) {
        Some(a) => format!("/static/{}", a.hashed),
        None => format!("/static/{name}"),
    }
}

/// A template with its links to static files (`/static/style.css"`) turned into the hashed
/// names, once when the templates are built.
pub fn linked(text: &str) -> String {
    let mut out = text.to_string();
    for a in ASSETS.iter() {
        out = out.replace(
            &format!("/static/{}\"", a.name),
            &format!("/static/{}\"", a.hashed),
        );
    }
    out
}

pub async fn serve(file: web::Path<String>) -> HttpResponse {
    let file = file.as_str();
    let found = ASSETS.iter().find_map(|a| {
        if a.hashed == file {
            Some((a, "public, max-age=31536000, immutable"))
        } else if a.name == file {
            Some((a, "public, max-age=3600"))
        } else {
            None
        }
    });
    match found {
        Some((a, cache)) => HttpResponse::Ok()
            .content_type(a.mime)
            .insert_header(("Cache-Control", cache))
            .body(a.body),
        // A file, not a page, was asked for: a plain answer, and the error page (which links
        // the stylesheet by its asset name) stays the assets' user rather than their peer.
        None => HttpResponse::NotFound()
            .content_type("text/plain; charset=utf-8")
            .body("no such file"),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_file_has_a_name_that_changes_with_its_content() {
        let css = super::url("style.css");
        assert!(
            css.starts_with("/static/style.") && css.ends_with(".css"),
            "{css}"
        );
        assert_eq!(css.len(), "/static/style.12345678.css".len());
        assert_ne!(super::url("app.js"), "/static/app.js");
        assert_eq!(super::url("nothing.txt"), "/static/nothing.txt");
        let page = super::linked("<link href=\"/static/style.css\"><img src=\"/static/pick.svg\">");
        assert!(page.contains(&format!("href=\"{css}\"")), "{page}");
        assert!(
            page.contains(&format!("src=\"{}\"", super::url("pick.svg"))),
            "{page}"
        );
    }
}
