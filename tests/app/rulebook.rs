//! The rules page `/rules`: the rulebook of the ruleset in use, in English and French, linked
//! from the world page, its legend and the header, readable on a phone. The page reads no table
//! but the sessions', so one SQLite server is enough.

use crate::support::webdriver::Browser;
use crate::support::{fixtures, Backend, TestApp};

/// A config's ruleset file with some numbers changed, written where a test server can read it.
fn changed_rules(replacements: &[(&str, &str)]) -> std::path::PathBuf {
    let mut text = std::fs::read_to_string(crate::support::config_dir().join("rules.toml"))
        .expect("config/rules.toml");
    for (from, to) in replacements {
        assert_eq!(text.matches(from).count(), 1, "{from} in rules.toml");
        text = text.replace(from, to);
    }
    let path = std::env::temp_dir().join(format!(
        "grognard-rules-{}-{}.toml",
        std::process::id(),
        text.len()
    ));
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn the_rules_page_shows_the_ruleset_in_use_in_english_and_in_french() {
    let app = TestApp::spawn_empty(Backend::Sqlite);
    let rules = &app.config.rules;
    let mut c = app.client();
    let en = c.get("/rules");
    let fr = c.get_with("/rules", &[("Accept-Language", "fr-FR,fr;q=0.9")]);
    for (page, lang, title) in [(&en, "en", "Rules"), (&fr, "fr", "Règles")] {
        let body = &page.body;
        assert_eq!(page.status, 200, "{body}");
        assert!(page
            .header("content-type")
            .unwrap()
            .starts_with("text/html"));
        assert!(body.contains(&format!("<html lang=\"{lang}\">")), "{body}");
        assert!(
            body.contains(&format!("<title>{title} · Grognard</title>")),
            "{body}"
        );
        assert!(
            body.contains("aria-current=\"page\""),
            "the header says where we are"
        );
        // Numbers of the ruleset in use, not copied from rules.toml.
        let infantry = rules.kind(grognard::rules::Kind::Infantry);
        let row = format!(
            "<td>{}</td><td>{}</td><td>{}</td>",
            infantry.full_strength, infantry.max_ap, infantry.ap_per_turn
        );
        assert!(body.contains(&row), "{lang}: no {row}");
        let heal = format!("</td><td>{}</td></tr>", rules.actions.heal);
        assert!(body.contains(&heal), "{lang}: no {heal}");
        assert!(
            body.contains(&rules.limits.start_treasury.to_string()),
            "{lang}"
        );
        // Nothing left of the templates; no markup but the site's own.
        for left in ["{{", "}}", "{%", "%}"] {
            assert!(!body.contains(left), "{lang}: {left} left in the page");
        }
        assert_eq!(body.matches("<script").count(), 1, "only app.js");
        // Sections with ids the same in both languages, and a table of contents to them.
        for id in ["s1", "s2", "s6", "s6-1"] {
            assert!(body.contains(&format!(" id=\"{id}\"")), "{lang}: no #{id}");
        }
        assert!(body.contains("<nav class=\"toc"), "{lang}");
        assert!(body.contains("<a href=\"#s2\">2. "), "{lang}");
        assert!(body.contains("<div class=\"table-wrap\"><table>"), "{lang}");
    }
    assert!(en.body.contains("<h1 id=\"rules\">Rules of the game</h1>"));
    assert!(en
        .body
        .contains(&format!("which starts at {}", rules.limits.start_treasury)));
    assert!(fr.body.contains("<h1 id=\"rules\">Règles du jeu</h1>"));
    assert!(fr
        .body
        .contains(&format!("de {} au départ", rules.limits.start_treasury)));
    // The same page again (kept, not made anew) and for a signed-in player, with their header.
    assert_eq!(c.get("/rules").body, en.body);
    let mut p = fixtures::player(&app, "lecteur");
    let mine = p.get("/rules");
    assert_eq!(mine.status, 200);
    assert!(mine.body.contains(">lecteur</a>"), "{}", mine.body);
    assert!(mine.body.contains("action=\"/logout\""));
}

#[test]
fn a_changed_ruleset_changes_the_rules_page() {
    let file = changed_rules(&[
        ("start_treasury = 1000", "start_treasury = 4321"),
        ("max_path = 200", "max_path = 187"),
    ]);
    let path = file.to_str().unwrap().to_string();
    let app = TestApp::spawn_with(Backend::Sqlite, |s| s.rules.file = path, false);
    assert_eq!(app.config.rules.limits.start_treasury, 4321);
    let mut c = app.client();
    let en = c.get("/rules").body;
    assert!(en.contains("which starts at 4321"), "{en}");
    assert!(en.contains("it has more than 187 steps"), "{en}");
    assert!(!en.contains("which starts at 1000"));
    let fr = c.get_with("/rules", &[("Accept-Language", "fr")]).body;
    assert!(fr.contains("de 4321 au départ"), "{fr}");
    assert!(fr.contains("plus de 187 pas"), "{fr}");
    let _ = std::fs::remove_file(&file);
}

#[test]
fn the_world_page_its_legend_and_the_header_link_to_the_rules() {
    let app = TestApp::spawn(Backend::Sqlite);
    let mut c = app.client();
    for (accept, text) in [("en", "Rules"), ("fr", "Règles")] {
        let world = c.get_with("/worlds/1", &[("Accept-Language", accept)]);
        assert_eq!(world.status, 200);
        let body = &world.body;
        assert!(
            body.contains(&format!("<a href=\"/rules\" id=\"rules-link\">{text}</a>")),
            "{body}"
        );
        for (class, place) in [("nav-rules", "header"), ("footer-rules", "footer")] {
            let link = format!("<a href=\"/rules\" class=\"{class}\">{text}</a>");
            assert!(body.contains(&link), "no link in the {place}");
        }
        assert!(body.contains("<p class=\"legend-rules\"><a href=\"/rules#s2\">"));
    }
    // The legend's link lands on the terrains.
    let rules = c.get("/rules").body;
    assert!(rules.contains("<h2 id=\"s2\">2. Terrains</h2>"), "{rules}");
    let home = c.get("/").body;
    assert!(
        home.contains("<a href=\"/rules\" class=\"nav-rules\">Rules</a>"),
        "{home}"
    );
}

#[test]
fn the_rules_read_on_a_phone_without_sideways_scrolling() {
    let app = TestApp::spawn_empty(Backend::Sqlite);
    let br = Browser::start_sized("screenshots-rules-390x844", 390, 844);
    for lang in ["en", "fr"] {
        br.goto(&format!("{}/lang/{lang}", app.base));
        br.goto(&format!("{}/rules", app.base));
        br.find(&format!("html[lang='{lang}'] .rulebook h2#s2"));
        assert_eq!(br.script("return window.innerWidth;"), 390);
        assert!(
            br.script("return document.documentElement.scrollWidth <= window.innerWidth;") == true,
            "{lang}: the page scrolls sideways"
        );
        // The wide tables scroll in their own box.
        assert!(
            br.script(
                "return Array.from(document.querySelectorAll('.table-wrap')).some(function (w) {\
                   return w.scrollWidth > w.clientWidth && w.getBoundingClientRect().right <= window.innerWidth; });"
            ) == true,
            "{lang}: no table wider than its box"
        );
        br.screenshot(&format!("rules-{lang}"));
        br.goto(&format!("{}/rules#s2", app.base));
        br.find(".rulebook h2#s2");
        br.screenshot(&format!("rules-{lang}-terrains"));
    }
}
