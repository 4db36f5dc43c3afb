//! `/rules`: the rulebook as a page. The same Markdown as `grognard rules` and docs/rules.md
//! (templates/rulebook/, [`crate::web::rulebook`]), every number read from the ruleset and the
//! schedules in use, turned into HTML once per language and kept: neither changes while the
//! server runs.

use super::page;
use crate::game::GameError;
use crate::i18n::Lang;
use crate::web::auth::Viewer;
use crate::web::error::PageError;
use crate::web::AppState;
use actix_web::{web, HttpResponse};
use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use serde::Serialize;
use std::collections::HashSet;
use std::sync::{Arc, OnceLock};

pub async fn index(state: web::Data<AppState>, viewer: Viewer) -> Result<HttpResponse, PageError> {
    let book = state.rulebook.get(&state, viewer.lang)?;
    Ok(page(&state, &viewer, "rules.html", |ctx| {
        ctx.insert("intro", &book.intro);
        ctx.insert("toc", &book.toc);
        ctx.insert("body", &book.body);
    })?)
}

/// The rulebook in HTML, cut where its first section starts so that the page can put its
/// table of contents there.
#[derive(Debug, Default, Serialize)]
pub struct RulebookHtml {
    /// The title and the opening paragraphs.
    pub intro: String,
    /// The sections (`##`), each a link target.
    pub toc: Vec<Section>,
    /// Everything from the first section on.
    pub body: String,
}

#[derive(Debug, Serialize)]
pub struct Section {
    pub id: String,
    pub title: String,
}

/// The rulebook of each language, made on its first request.
#[derive(Default)]
pub struct Cache([OnceLock<Arc<RulebookHtml>>; Lang::ALL.len()]);

impl Cache {
    pub fn get(&self, state: &AppState, lang: Lang) -> Result<Arc<RulebookHtml>, GameError> {
        let slot = &self.0[Lang::ALL.iter().position(|l| *l == lang).unwrap_or(0)];
        if let Some(book) = slot.get() {
            return Ok(book.clone());
        }
        let text = crate::web::rulebook::markdown(&state.tera, &state.config, lang)
            .map_err(|e| GameError::Internal(format!("rulebook: {e:?}")))?;
        // Two first requests at once both render it; the first one stored is kept.
        Ok(slot.get_or_init(|| Arc::new(to_html(&text))).clone())
    }
}

/// The Markdown in HTML: tables in a box of their own that scrolls sideways, headings with ids
/// (`s3` for "## 3. …", `s6-2` for the second `###` of section 6, so that a link is the same in
/// every language), and any HTML in the text shown as text, never passed through.
pub fn to_html(markdown: &str) -> RulebookHtml {
    let mut events: Vec<Event> = Vec::new();
    let mut toc = Vec::new();
    let mut ids = HashSet::new();
    // Where the heading being read starts in `events`, and its text so far.
    let mut heading: Option<(usize, String)> = None;
    let (mut section, mut subsection) = (None::<String>, 0);
    let mut first_section = None;
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        let event = match event {
            Event::Html(s) | Event::InlineHtml(s) => Event::Text(s),
            other => other,
        };
        match &event {
            Event::Start(Tag::Heading { .. }) => heading = Some((events.len(), String::new())),
            Event::Text(s) | Event::Code(s) => {
                if let Some((_, text)) = &mut heading {
                    text.push_str(s);
                }
            }
            Event::End(TagEnd::Heading(level)) => {
                if let Some((at, text)) = heading.take() {
                    let title = text.trim().to_string();
                    let wanted = match level {
                        HeadingLevel::H1 => "rules".to_string(),
                        HeadingLevel::H2 => {
                            subsection = 0;
                            section = number(&title);
                            match &section {
                                Some(n) => format!("s{n}"),
                                None => slug(&title),
                            }
                        }
                        _ => {
                            subsection += 1;
                            match &section {
                                Some(n) => format!("s{n}-{subsection}"),
                                None => slug(&title),
                            }
                        }
                    };
                    let id = unique(&mut ids, wanted);
                    if let Event::Start(Tag::Heading { id: slot, .. }) = &mut events[at] {
                        *slot = Some(CowStr::from(id.clone()));
                    }
                    if *level == HeadingLevel::H2 {
                        first_section.get_or_insert(at);
                        toc.push(Section { id, title });
                    }
                }
            }
            _ => {}
        }
        let table = match &event {
            Event::Start(Tag::Table(_)) => Some(true),
            Event::End(TagEnd::Table) => Some(false),
            _ => None,
        };
        if table == Some(true) {
            events.push(Event::Html("<div class=\"table-wrap\">".into()));
        }
        events.push(event);
        if table == Some(false) {
            events.push(Event::Html("</div>\n".into()));
        }
    }
    let body = events.split_off(first_section.unwrap_or(events.len()));
    let mut out = RulebookHtml {
        toc,
        ..RulebookHtml::default()
    };
    pulldown_cmark::html::push_html(&mut out.intro, events.into_iter());
    pulldown_cmark::html::push_html(&mut out.body, body.into_iter());
    out
}

/// The number a section's title starts with: "11" for "11. The campaign".
fn number(title: &str) -> Option<String> {
    let (n, rest) = title.split_once('.')?;
    (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && rest.starts_with(' '))
        .then(|| n.to_string())
}

/// Lower-case letters and digits of a title, runs of anything else as one dash.
fn slug(title: &str) -> String {
    let mut out = String::new();
    for c in title.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-');
    if out.is_empty() {
        "section".into()
    } else {
        out.into()
    }
}

fn unique(taken: &mut HashSet<String>, wanted: String) -> String {
    let mut id = wanted.clone();
    let mut n = 2;
    while !taken.insert(id.clone()) {
        id = format!("{wanted}-{n}");
        n += 1;
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_in_the_text_is_shown_not_passed_through() {
        let book = to_html(
            "# T\n\n<script>alert(1)</script>\n\nA <b>bold</b> & \"quoted\" word.\n\n\
             ## 1. One <i>x</i>\n",
        );
        let all = format!("{}{}", book.intro, book.body);
        assert!(!all.contains("<script"), "{all}");
        assert!(!all.contains("<b>") && !all.contains("<i>"), "{all}");
        assert!(
            all.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{all}"
        );
        assert!(all.contains("A &lt;b&gt;bold&lt;/b&gt; &amp; "), "{all}");
        assert_eq!(book.toc[0].title, "1. One <i>x</i>", "escaped by the page");
    }

    #[test]
    fn headings_get_ids_the_same_in_every_language_and_tables_a_box() {
        let md = "# Rules\n\nIntro.\n\n## 1. The world\n\nText.\n\n## 2. Combat\n\n\
                  ### Volley\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n### Melee\n\n## Odd one\n\n## Odd one\n";
        let book = to_html(md);
        assert!(
            book.intro.contains("<h1 id=\"rules\">Rules</h1>"),
            "{}",
            book.intro
        );
        assert!(book.intro.contains("<p>Intro.</p>"));
        assert!(!book.intro.contains("<h2"), "the sections are in the body");
        assert!(book.body.starts_with("<h2 id=\"s1\">1. The world</h2>"));
        assert!(book.body.contains("<h3 id=\"s2-1\">Volley</h3>"));
        assert!(book.body.contains("<h3 id=\"s2-2\">Melee</h3>"));
        assert!(book.body.contains("<h2 id=\"odd-one\">"));
        assert!(book.body.contains("<h2 id=\"odd-one-2\">"));
        assert!(book.body.contains("<div class=\"table-wrap\"><table>"));
        assert!(book.body.contains("</table>\n</div>"), "{}", book.body);
        let ids: Vec<&str> = book.toc.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["s1", "s2", "odd-one", "odd-one-2"]);
    }

    #[test]
    fn the_shipped_rulebook_reads_the_same_sections_in_both_languages() {
        let tera = crate::web::templates::build().unwrap();
        let config = crate::config::Config::with_settings(
            std::path::Path::new("/nonexistent"),
            crate::config::Settings::load(std::path::Path::new("/nonexistent"), None, None)
                .unwrap(),
        )
        .unwrap();
        let toc = |lang| {
            let md = crate::web::rulebook::markdown(&tera, &config, lang).unwrap();
            to_html(&md)
                .toc
                .into_iter()
                .map(|s| s.id)
                .collect::<Vec<_>>()
        };
        let en = toc(Lang::En);
        assert!(en.len() >= 10, "{en:?}");
        assert_eq!(en, toc(Lang::Fr));
    }
}
