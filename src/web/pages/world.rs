//! `/worlds/{w}`: the map around the player's companies with fog of war, the selected cell's
//! panel and what the selected company can do there; joining and raising.

use super::map_page;
use crate::game::play::load::Placed;
use crate::game::play::report::Report;
use crate::game::play::views::Seen;
use crate::game::screens::{self, world::WorldScreen};
use crate::game::{GameError, GameResult};
use crate::ids::{CompanyId, EventId, WorldId};
use crate::rules::{Kind, Pos};
use crate::web::auth::{Viewer, ViewerCookies};
use crate::web::error::PageError;
use crate::web::render::map::{self, MapView};
use crate::web::render::viewport::{Viewport, Zooms};
use crate::web::AppState;
use crate::wire::screens::FirstSteps;
use crate::wire::talk::MarkerView;
use crate::wire::views::{
    CellInfo, NationView, OptionsView, OwnCompany, PlayerView, RaiseView, ReportView, WorldView,
};
use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};

/// (cell size in pixels, columns, rows) for zoom levels 1 (far) to 3 (near).
/// The cookie `static/app.js` sets on a screen narrower than 600 px.
pub const NARROW: &str = "grognard_narrow";

pub const ZOOMS: Zooms = [(14, 48, 32), (22, 30, 20), (40, 18, 12)];

/// The cookie the page's script sets on a wider screen to the room the map has there, `WxH`
/// in CSS pixels: the map grows to fill it.
pub const SPACE: &str = "grognard_space";

/// The zoom levels fitted to the room the map has: as many columns and rows as fill it, never
/// fewer columns than the default view nor more than half as many again each way (the page's
/// weight grows with the cells drawn).
pub fn zooms_for(space: Option<(i32, i32)>) -> Zooms {
    let Some((w, h)) = space else {
        return ZOOMS;
    };
    ZOOMS.map(|(px, cols, rows)| {
        (
            px,
            (w / px).clamp(cols, cols * 3 / 2),
            (h / px).clamp(rows * 2 / 3, rows * 3 / 2),
        )
    })
}

/// A narrow screen's windows: as many rows as columns. Its map's box is about as tall as it
/// is wide, and a finger that pans the box past an edge of the window gets the next one
/// shifted by what the box does not show (static/app.js): a window as tall as it is wide pans
/// as far down as across.
pub fn narrow_zooms() -> Zooms {
    ZOOMS.map(|(px, cols, rows)| (px, cols, rows.max(cols)))
}

/// The browser's viewport in CSS pixels, if it tells it (Chromium's client hints, asked for by
/// every page's `Accept-CH`): what a first visit's map is sized from, before the page's script
/// has measured the room it has.
fn viewport_hint(req: &actix_web::HttpRequest) -> Option<(i32, i32)> {
    let hint = |name: &str| {
        header(req, name)
            .trim()
            .parse::<i32>()
            .ok()
            .filter(|v| (1..=10_000).contains(v))
    };
    Some((
        hint("sec-ch-viewport-width")?,
        hint("sec-ch-viewport-height")?,
    ))
}

/// A request header as text; empty when it is absent or not text.
fn header<'a>(req: &'a actix_web::HttpRequest, name: &str) -> &'a str {
    req.headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

/// The room the map has in a viewport, as static/style.css lays the world page out (a page
/// at most 1,400 px wide with 1rem paddings, .5rem up to 700 px; the map's column beside a
/// side column of 340 px and a 1rem gap, once both fit) and as `rememberSpace` in
/// static/app.js rounds it. The viewport counts the page's scroll bar, which the column does
/// not have: 17 px are kept for it, or a map a few pixels too wide would scroll sideways in
/// its box.
fn room_in((width, height): (i32, i32)) -> (i32, i32) {
    let padding = if width <= 700 { 16 } else { 32 };
    let page = (width - 17).min(1400) - padding;
    let column = if width > 700 && page >= 600 + 16 + 340 {
        page - 16 - 340
    } else {
        page
    };
    (
        ((column - 2) / 20 * 20).max(20),
        ((height - 160 - 24) / 20 * 20).max(300),
    )
}

/// `1280x700` from the cookie; None for anything else.
pub fn parse_space(v: &str) -> Option<(i32, i32)> {
    let (w, h) = v.split_once('x')?;
    let (w, h) = (w.parse::<i32>().ok()?, h.parse::<i32>().ok()?);
    ((1..=10_000).contains(&w) && (1..=10_000).contains(&h)).then_some((w, h))
}

#[derive(Deserialize, Default)]
pub struct WorldQuery {
    pub x: Option<i32>,
    pub y: Option<i32>,
    pub zoom: Option<i32>,
    /// The selected cell, `x,y`.
    pub cell: Option<String>,
    pub company: Option<CompanyId>,
    pub report: Option<EventId>,
    /// Where the map was clicked, in pixels, when it is clicked without JavaScript: the map is
    /// one image button of the page's form (`at`), not hundreds of links.
    #[serde(rename = "at.x")]
    pub at_x: Option<i32>,
    #[serde(rename = "at.y")]
    pub at_y: Option<i32>,
}

/// A cell named in a query or form field, `x,y`, read by the one order reader.
pub fn parse_cell(s: &str) -> Option<Pos> {
    crate::web::order_input::text_cell(s)
}

/// The page's state, enough to build every link on it; the map's form carries it as hidden
/// fields (`x`, `y`, `zoom`, `company`).
#[derive(Clone, Copy, Serialize)]
struct View {
    #[serde(skip)]
    world: WorldId,
    #[serde(rename = "x")]
    cx: i32,
    #[serde(rename = "y")]
    cy: i32,
    zoom: i32,
    #[serde(skip)]
    cell: Option<Pos>,
    company: Option<CompanyId>,
}

impl View {
    /// `/worlds/{w}?x=…&y=…&zoom=…[&company=…][&cell=x,y]`, written in one string.
    fn href(&self) -> String {
        let mut s = String::with_capacity(64);
        let mut n = itoa::Buffer::new();
        let mut push = |s: &mut String, key: &str, v: i32| {
            s.push_str(key);
            s.push_str(n.format(v));
        };
        push(&mut s, "/worlds/", self.world.0);
        push(&mut s, "?x=", self.cx);
        push(&mut s, "&y=", self.cy);
        push(&mut s, "&zoom=", self.zoom);
        if let Some(c) = self.company {
            push(&mut s, "&company=", c.0);
        }
        if let Some(p) = self.cell {
            push(&mut s, "&cell=", p.x);
            push(&mut s, ",", p.y);
        }
        s
    }

    fn with(&self, f: impl FnOnce(&mut View)) -> String {
        let mut v = *self;
        f(&mut v);
        v.href()
    }
}

/// A kind the raise form offers: its value and its name in the page's language.
#[derive(Serialize)]
struct KindChoice {
    kind: &'static str,
    name: &'static str,
}

/// What the page's script needs to follow the world's live stream (static/app.js): the turn
/// line's words, and how to draw the companies the stream brings.
#[derive(Serialize)]
struct LiveWords<'a> {
    /// `{turn}` stands for the number.
    turn: String,
    seasons: std::collections::BTreeMap<&'static str, String>,
    paused: String,
    ended: String,
    marks: map::Marks<'a>,
}

impl<'a> LiveWords<'a> {
    fn json(lang: crate::i18n::Lang, marks: map::Marks<'a>) -> String {
        use crate::i18n::tr;
        let words = LiveWords {
            turn: tr(
                lang,
                "world-turn",
                &[("turn", fluent_bundle::FluentValue::from("{turn}"))],
            ),
            seasons: crate::rules::Season::ALL
                .iter()
                .map(|s| (s.as_str(), tr(lang, &format!("season-{s}"), &[])))
                .collect(),
            paused: tr(lang, "world-paused", &[]),
            ended: tr(lang, "worlds-over", &[]),
            marks,
        };
        serde_json::to_string(&words).unwrap_or_default()
    }
}

/// A marker of the selected cell, with whether the viewer may remove it.
#[derive(Serialize)]
struct CellMarker {
    #[serde(flatten)]
    marker: MarkerView,
    removable: bool,
}

pub async fn show(
    state: web::Data<AppState>,
    cookies: ViewerCookies,
    path: web::Path<WorldId>,
    q: web::Query<WorldQuery>,
    req: actix_web::HttpRequest,
) -> Result<HttpResponse, PageError> {
    let (wid, q) = (path.into_inner(), q.into_inner());
    page(&state, Who::Cookies(cookies), wid, q, &req, None).await
}

/// Who a world page is drawn for: read from the request's cookies, or known already (the
/// form post it answers).
pub enum Who {
    Cookies(ViewerCookies),
    Known(Box<Viewer>),
}

/// The world page at `back`, a path of this site, if it is one: its world and view.
pub fn at_path(back: &str) -> Option<(WorldId, WorldQuery)> {
    let rest = back.strip_prefix("/worlds/")?;
    let (id, query) = rest.split_once('?').unwrap_or((rest, ""));
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let q = web::Query::<WorldQuery>::from_query(query)
        .ok()?
        .into_inner();
    Some((WorldId(id.parse().ok()?), q))
}

/// The world page of `wid` for the view `q`; with `refused`, the refusal of the form just
/// posted at the top of its panel, so that a refused order keeps the player on the map.
pub async fn page(
    state: &web::Data<AppState>,
    who: Who,
    wid: WorldId,
    q: WorldQuery,
    req: &actix_web::HttpRequest,
    refused: Option<&GameError>,
) -> Result<HttpResponse, PageError> {
    let st = state.clone();
    let (qx, qy) = (q.x, q.y);
    // Set by the page's script on a narrow screen: the nearest zoom, whose cells fit a finger.
    // Before the script has said (a first visit), a phone is known by what its browser says of
    // itself: opening it on the far zoom and then drawing the page again would shift it.
    let viewport = viewport_hint(req);
    let narrow = match (req.cookie(NARROW), viewport) {
        (Some(c), _) => c.value() == "1",
        // As static/app.js's `narrow()`.
        (None, Some((width, _))) => width < 600,
        (None, None) => {
            header(req, "sec-ch-ua-mobile") == "?1" || header(req, "user-agent").contains("Mobile")
        }
    };
    let zooms = if narrow {
        narrow_zooms()
    } else {
        zooms_for(
            req.cookie(SPACE)
                .and_then(|c| parse_space(c.value()))
                .or(viewport.map(room_in)),
        )
    };
    let (viewer, (l, vp)) = state
        .db(move |conn| {
            let viewer = match who {
                Who::Cookies(cookies) => cookies.resolve(conn)?,
                Who::Known(viewer) => *viewer,
            };
            let actor = viewer.actor();
            // Spectators see the widest view; players start near their companies.
            let zoom = q.zoom.unwrap_or(match (narrow, actor.is_some()) {
                (true, _) => 3,
                (false, true) => 2,
                (false, false) => 1,
            });
            let sp = screens::world::standpoint(conn, actor.as_ref(), wid, q.company)?;
            let w = &sp.world;
            let centre = match (qx, qy) {
                (Some(x), Some(y)) => Pos::new(x, y),
                _ => sp.focus(),
            };
            let vp =
                Viewport::around(&zooms, w.width, w.height, (centre.x, centre.y), zoom).on(w.grid);
            let picked = match (q.at_x, q.at_y) {
                (Some(px), Some(py)) => vp.cell_at(px, py).map(|(x, y)| Pos::new(x, y)),
                _ => None,
            };
            let look = screens::world::View {
                rect: vp.rect(),
                cell: q.cell.as_deref().and_then(parse_cell).or(picked),
                report: q.report,
            };
            let screen = screens::world::screen(conn, &st.config, actor.as_ref(), sp, look)?;
            Ok((viewer, (screen, vp)))
        })
        .await?;
    let (cx, cy) = vp.centre();
    let view = View {
        world: wid,
        cx,
        cy,
        zoom: vp.zoom,
        cell: l.view.cell,
        company: l.standpoint.selected,
    };
    let refused = refused.map(|e| Refused {
        code: e.code(),
        message: crate::wire::refusals::say(viewer.lang, e),
    });
    Ok(render(state, &viewer, l, vp, view, refused)?)
}

/// A refused form's answer, as the world page shows it.
#[derive(Serialize)]
struct Refused {
    code: &'static str,
    message: String,
}

fn render(
    state: &AppState,
    viewer: &Viewer,
    l: WorldScreen,
    vp: Viewport,
    view: View,
    refused: Option<Refused>,
) -> GameResult<HttpResponse> {
    let rs = &state.config.rules;
    let sp = &l.standpoint;
    let options = l
        .options
        .as_ref()
        .map(|o| OptionsView::of(rs, viewer.lang, o));
    let report = l.report.as_ref().map(|e| ReportView::of(e, viewer.lang));
    // No link per cell: the map is the image button of a form that carries the view.
    let href = |(p, seen): &(Placed, Seen)| {
        let c = &p.company;
        Some(if seen.mine {
            view.with(|v| {
                v.company = Some(c.id);
                v.cell = None;
            })
        } else {
            view.with(|v| v.cell = Some(Pos::new(c.x, c.y)))
        })
    };
    let mut m: MapView = map::build_map(
        rs,
        &vp,
        &l.map,
        sp.player.is_some(),
        view.cell.map(|p| (p.x, p.y)),
        viewer.lang,
        href,
    );
    for u in &mut m.units {
        u.selected = Some(u.id) == view.company;
    }
    // The move the cell panel offers, drawn before it is given.
    if let (Some(c), Some(o)) = (
        view.company
            .and_then(|id| sp.mine.iter().find(|c| c.id == id)),
        options.as_ref().and_then(|o| o.cell.as_ref()),
    ) {
        if !o.path.is_empty() {
            m.path = std::iter::once((c.x, c.y))
                .chain(o.path.iter().map(|p| (p[0], p[1])))
                .collect();
        }
    }
    let at = |cx: i32, cy: i32, zoom: i32| {
        view.with(|v| {
            v.cx = cx;
            v.cy = cy;
            v.zoom = zoom;
        })
    };
    m.pan = Some(vp.pan(sp.world.width, sp.world.height, at));
    // The attack just reported, where it struck.
    m.hit = report.as_ref().and_then(|r| match (&r.data, r.x.zip(r.y)) {
        (Some(Report::Battle(b)), Some(from)) => b.at.map(|at| map::Hit {
            from,
            at: (at.x, at.y),
            inflicted: b.defender.losses,
            suffered: b.attacker.losses,
        }),
        _ => None,
    });
    m.sections = map::section_marks(&l.sections, view.cell.map(|p| (p.x, p.y)), viewer.lang);
    m.markers = l
        .markers
        .iter()
        .map(|k| ((k.at.x, k.at.y), k.label.clone()))
        .collect();
    let actor = viewer.actor();
    let cell_markers: Vec<CellMarker> = match (&l.cell, &actor) {
        (Some(c), Some(a)) => l
            .markers
            .iter()
            .filter(|k| k.at == c.at)
            .map(|k| CellMarker {
                removable: k.removable_by(a),
                marker: k.into(),
            })
            .collect(),
        _ => Vec::new(),
    };
    let season = sp.world.season;
    let my_nation = sp
        .player
        .as_ref()
        .and_then(|p| sp.nations.iter().find(|n| n.id == p.nation_id));
    let selected = view
        .company
        .and_then(|id| sp.mine.iter().find(|c| c.id == id));
    let focus = view
        .cell
        .map(|p| (p.x, p.y))
        .or(selected.map(|c| (c.x, c.y)))
        .or(sp.mine.first().map(|c| (c.x, c.y)));
    let zoom_links = vp.zoom_links(focus, at);
    let words = map::MapWords::of(viewer.lang);
    let mine: Vec<OwnCompany> = sp
        .mine
        .iter()
        .map(|c| {
            let href = view.with(|v| {
                v.company = Some(c.id);
                v.cell = None;
                v.cx = c.x;
                v.cy = c.y;
            });
            OwnCompany::of(c, href, words.kind(c.kind))
        })
        .collect();
    let here = view.href();
    let player = sp.player.as_ref().map(|p| PlayerView::of(p, my_nation));
    map_page(state, viewer, "world.html", &m, season, |ctx| {
        ctx.insert("world", &WorldView::from(&sp.world));
        ctx.insert(
            "nations",
            &sp.nations
                .iter()
                .map(|n| {
                    NationView::of(n, sp.player.as_ref().map(|p| p.nation_id), sp.world.ended())
                })
                .collect::<Vec<_>>(),
        );
        ctx.insert("player", &player);
        if player.is_some() {
            let marks = words.marks(rs, &sp.nations);
            ctx.insert("live_words", &LiveWords::json(viewer.lang, marks));
        }
        ctx.insert("companies", &mine);
        ctx.insert("reserve_gain", &rs.turn.reserve_gain);
        ctx.insert("name_max", &rs.limits.company_name_max);
        ctx.insert("leave", &rs.leave);
        ctx.insert(
            "fogged",
            &(sp.player.is_some() && l.map.cells.iter().any(|c| !c.seen)),
        );
        ctx.insert("raise_cost", &rs.limits.raise_cost);
        // The raise form when the game allows it, else why not.
        let raise = l.raise.as_ref().map(|v| RaiseView::of(viewer.lang, v));
        let raising = raise.as_ref().is_some_and(|r| r.allowed);
        ctx.insert("raise", &raise);
        ctx.insert(
            "kinds",
            &Kind::ALL
                .iter()
                .map(|k| KindChoice {
                    kind: k.as_str(),
                    name: words.kind(*k),
                })
                .filter(|_| raising)
                .collect::<Vec<_>>(),
        );
        ctx.insert(
            "selected",
            &selected.map(|c| mine.iter().find(|m| m.line.id == c.id)),
        );
        ctx.insert(
            "cell",
            &l.cell
                .as_ref()
                .map(|c| CellInfo::of(rs, sp.world.season, c)),
        );
        ctx.insert("cell_markers", &cell_markers);
        ctx.insert("cell_ramparts", &l.cell_ramparts);
        ctx.insert(
            "cell_section",
            &l.cell_section
                .clone()
                .map(crate::wire::campaign::CellSectionView::from),
        );
        ctx.insert("marker_max", &state.config.settings.talk.marker_chars);
        ctx.insert("options", &options);
        ctx.insert("report", &report);
        ctx.insert(
            "first_day",
            &l.first_day
                .map(|bits| state.first_day(viewer.lang, &FirstSteps::of(bits))),
        );
        ctx.insert("zooms", &zoom_links);
        ctx.insert("here", &here);
        ctx.insert("unselect", &view.with(|v| v.cell = None));
        ctx.insert("pan", &m.pan);
        ctx.insert("next_turn_at", &l.next_turn);
        ctx.insert(
            "next_turn_text",
            &l.next_turn.map(crate::web::templates::format_time),
        );
        ctx.insert("viewport", &vp);
        let bots: Vec<String> = l
            .bots
            .iter()
            .map(|n| crate::i18n::proper_name(viewer.lang, n))
            .collect();
        ctx.insert("bot_nations", &bots.join(", "));
        ctx.insert("bot_count", &bots.len());
        // The view a click on the map keeps: the form's hidden fields.
        ctx.insert("view", &view);
        ctx.insert("refused", &refused);
    })
}
