//! `/worlds/{w}`: the map around the player's companies with fog of war, the selected cell's
//! panel and what the selected company can do there; joining and raising.

use super::{map_page, reports};
use crate::db::models::{Company, Player};
use crate::game::play::access::Actor;
use crate::game::play::first_steps;
use crate::game::play::views::{self, CellInfo, PlayerMap};
use crate::game::talk::markers::{self, MarkerView};
use crate::game::{maps::worlds, play, play::access, play::options, GameResult};
use crate::rules::{Kind, Pos};
use crate::web::auth::{Viewer, ViewerCookies};
use crate::web::error::PageError;
use crate::web::render::map::{self, MapView, UnitView};
use crate::web::render::viewport::{Viewport, Zooms};
use crate::web::AppState;
use crate::wire::views::{NationView, OptionsView, OwnCompany, PlayerView, RaiseView, WorldView};
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
    pub company: Option<i32>,
    pub report: Option<i32>,
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
    world: i32,
    #[serde(rename = "x")]
    cx: i32,
    #[serde(rename = "y")]
    cy: i32,
    zoom: i32,
    #[serde(skip)]
    cell: Option<Pos>,
    company: Option<i32>,
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
        push(&mut s, "/worlds/", self.world);
        push(&mut s, "?x=", self.cx);
        push(&mut s, "&y=", self.cy);
        push(&mut s, "&zoom=", self.zoom);
        if let Some(c) = self.company {
            push(&mut s, "&company=", c);
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

/// A marker of the selected cell, with whether the viewer may remove it.
#[derive(Serialize)]
struct CellMarker<'a> {
    #[serde(flatten)]
    marker: &'a MarkerView,
    removable: bool,
}

struct Loaded {
    w: crate::db::models::World,
    nations: Vec<crate::db::models::Nation>,
    player: Option<Player>,
    mine: Vec<Company>,
    map: PlayerMap,
    cell: Option<CellInfo>,
    /// What the selected company may do, on the selected cell.
    options: Option<OptionsView>,
    report: Option<super::reports::ReportView>,
    next_turn: Option<i64>,
    /// The selected cell: named in the query or clicked on the map.
    cell_pos: Option<Pos>,
    /// The selected company: named in the query, or the player's only one.
    selected_id: Option<i32>,
    /// The first day's checklist, until it is done.
    first_day: Option<first_steps::FirstSteps>,
    /// The player's nation's markers in the view.
    markers: Vec<MarkerView>,
    /// Whether the player may raise a company now.
    raise: Option<Result<(), crate::game::GameError>>,
}

#[allow(clippy::too_many_arguments)]
fn load(
    conn: &mut crate::db::DbConnection,
    state: &AppState,
    lang: crate::i18n::Lang,
    actor: Option<&Actor>,
    wid: i32,
    q: &WorldQuery,
    viewport: impl Fn(&crate::db::models::World, Option<&Company>, Option<Pos>) -> Viewport,
) -> GameResult<(Loaded, Viewport)> {
    let rs = &state.config.rules;
    let w = worlds::get(conn, wid)?;
    let nations = worlds::nations_of(conn, wid)?;
    let player = match actor {
        Some(a) => access::player_in(conn, a, wid)?,
        None => None,
    };
    let mine = match &player {
        Some(p) => play::my_companies(conn, p.id)?,
        None => Vec::new(),
    };
    // A player with one company always has it in hand.
    let selected = match q.company {
        Some(id) => mine.iter().find(|c| c.id == id),
        None if mine.len() == 1 => mine.first(),
        None => None,
    };
    let selected_id = selected.map(|c| c.id);
    let spawn = player
        .as_ref()
        .and_then(|p| nations.iter().find(|n| n.id == p.nation_id))
        .map(|n| Pos::new(n.spawn_x, n.spawn_y));
    let vp = viewport(&w, selected.or(mine.first()), spawn);
    let picked = match (q.at_x, q.at_y) {
        (Some(px), Some(py)) => vp.cell_at(px, py).map(|(x, y)| Pos::new(x, y)),
        _ => None,
    };
    let cell_pos = q.cell.as_deref().and_then(parse_cell).or(picked);
    let who = actor.map(|a| match &player {
        Some(p) => views::Onlooker::player(a.user_id, p),
        None => views::Onlooker {
            user_id: a.user_id,
            nation_id: None,
            steps: None,
        },
    });
    // A shaded cell picked is the first day's look into the fog, ticked by the map itself.
    let look = cell_pos.map_or(views::Look::Around, views::Look::Cell);
    let map = views::player_map(conn, rs, who, &w, nations.clone(), vp.rect(), look)?;
    let markers = match &player {
        Some(p) => {
            let (x0, y0, x1, y1) = vp.rect();
            markers::of_nation(conn, p, w.turn, Some((Pos::new(x0, y0), Pos::new(x1, y1))))?
        }
        None => Vec::new(),
    };
    let cell = match cell_pos {
        Some(p) => views::cell_info(conn, rs, &w, p)?,
        None => None,
    };
    let options = match (actor, selected, &cell) {
        (Some(a), Some(c), Some(info)) => {
            let o = options::of(conn, rs, a, c.id, Some(Pos::new(info.x, info.y)))?;
            Some(OptionsView::of(lang, &o))
        }
        _ => None,
    };
    // The first day's checklist, with the step the map may have just ticked.
    let first_day = match &player {
        Some(p) => {
            let mut p = p.clone();
            if map.looked_into_fog {
                p.first_steps |= first_steps::LOOKED_INTO_FOG;
            }
            first_steps::of(conn, &p)?
        }
        None => None,
    };
    let report = match (actor, q.report) {
        (Some(a), Some(id)) => reports::one(conn, a, wid, id, lang)?,
        _ => None,
    };
    // On the figures the page has read already: its companies and its nation's treasury.
    let raise = player.as_ref().map(|p| {
        let treasury = nations
            .iter()
            .find(|n| n.id == p.nation_id)
            .map_or(0, |n| n.treasury);
        play::may_raise(rs, &w, p, mine.len() as i64, treasury)
    });
    // The page counts down to the next turn only: one query, not one per kind of tick.
    let next_turn = crate::game::time::clock::next_turn(conn, &state.config, &w)?;
    Ok((
        Loaded {
            w,
            nations,
            player,
            mine,
            map,
            cell,
            options,
            report,
            next_turn,
            cell_pos,
            selected_id,
            first_day,
            markers,
            raise,
        },
        vp,
    ))
}

pub async fn show(
    state: web::Data<AppState>,
    cookies: ViewerCookies,
    path: web::Path<i32>,
    q: web::Query<WorldQuery>,
    req: actix_web::HttpRequest,
) -> Result<HttpResponse, PageError> {
    let wid = path.into_inner();
    let q = q.into_inner();
    let st = state.clone();
    let (qx, qy) = (q.x, q.y);
    // Set by the page's script on a narrow screen: the nearest zoom, whose cells fit a finger.
    // Before the script has said (a first visit), a phone is known by what its browser says of
    // itself: opening it on the far zoom and then drawing the page again would shift it.
    let narrow = match req.cookie(NARROW) {
        Some(c) => c.value() == "1",
        None => {
            let header = |name: &str| {
                req.headers()
                    .get(name)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("")
            };
            header("sec-ch-ua-mobile") == "?1" || header("user-agent").contains("Mobile")
        }
    };
    let zooms = zooms_for(
        req.cookie(SPACE)
            .and_then(|c| parse_space(c.value()))
            .filter(|_| !narrow),
    );
    let (viewer, (l, vp)) = state
        .db(move |conn| {
            let viewer = cookies.resolve(conn)?;
            let actor = viewer.actor();
            // Spectators see the widest view; players start near their companies.
            let zoom = q.zoom.unwrap_or(match (narrow, actor.is_some()) {
                (true, _) => 3,
                (false, true) => 2,
                (false, false) => 1,
            });
            let loaded = load(
                conn,
                &st,
                viewer.lang,
                actor.as_ref(),
                wid,
                &q,
                |w, selected, spawn| {
                    let centre = match (qx, qy) {
                        (Some(x), Some(y)) => Pos::new(x, y),
                        _ => selected
                            .map(|c| Pos::new(c.x, c.y))
                            .or(spawn)
                            .unwrap_or(Pos::new(w.width / 2, w.height / 2)),
                    };
                    Viewport::around(&zooms, w.width, w.height, (centre.x, centre.y), zoom)
                        .on(w.grid)
                },
            )?;
            Ok((viewer, loaded))
        })
        .await?;
    let (cx, cy) = vp.centre();
    let view = View {
        world: wid,
        cx,
        cy,
        zoom: vp.zoom,
        cell: l.cell_pos,
        company: l.selected_id,
    };
    Ok(render(&state, &viewer, l, vp, view)?)
}

fn render(
    state: &AppState,
    viewer: &Viewer,
    l: Loaded,
    vp: Viewport,
    view: View,
) -> GameResult<HttpResponse> {
    let rs = &state.config.rules;
    // No link per cell: the map is the image button of a form that carries the view.
    let mut m: MapView = map::build_shown(
        rs,
        &vp,
        &l.map.cells,
        &l.nations,
        l.player.is_some(),
        view.cell.map(|p| (p.x, p.y)),
        viewer.lang,
    );
    // The move the cell panel offers, drawn before it is given.
    if let (Some(c), Some(o)) = (
        view.company
            .and_then(|id| l.mine.iter().find(|c| c.id == id)),
        l.options.as_ref().and_then(|o| o.cell.as_ref()),
    ) {
        if !o.path.is_empty() {
            m.path = std::iter::once((c.x, c.y))
                .chain(o.path.iter().map(|p| (p[0], p[1])))
                .collect();
        }
    }
    m.units = l
        .map
        .companies
        .iter()
        .map(|c| {
            let href = if c.mine {
                view.with(|v| {
                    v.company = Some(c.id);
                    v.cell = None;
                })
            } else {
                view.with(|v| v.cell = Some(Pos::new(c.x, c.y)))
            };
            let mut u = UnitView::of(rs, &vp, c, Some(href));
            u.selected = Some(c.id) == view.company;
            u
        })
        .collect();
    let at = |cx: i32, cy: i32, zoom: i32| {
        view.with(|v| {
            v.cx = cx;
            v.cy = cy;
            v.zoom = zoom;
        })
    };
    m.pan = Some(vp.pan(l.w.width, l.w.height, at));
    m.edges = map::ramparts(&l.map.edges);
    m.markers = l
        .markers
        .iter()
        .map(|k| ((k.at[0], k.at[1]), k.label.clone()))
        .collect();
    let actor = viewer.actor();
    let cell_markers: Vec<CellMarker> = match (&l.cell, &actor) {
        (Some(c), Some(a)) => l
            .markers
            .iter()
            .filter(|k| k.at == [c.x, c.y])
            .map(|k| CellMarker {
                removable: k.removable_by(a),
                marker: k,
            })
            .collect(),
        _ => Vec::new(),
    };
    let season = l.w.season;
    let my_nation = l
        .player
        .as_ref()
        .and_then(|p| l.nations.iter().find(|n| n.id == p.nation_id));
    let selected = view
        .company
        .and_then(|id| l.mine.iter().find(|c| c.id == id));
    let focus = view
        .cell
        .map(|p| (p.x, p.y))
        .or(selected.map(|c| (c.x, c.y)))
        .or(l.mine.first().map(|c| (c.x, c.y)));
    let zoom_links = vp.zoom_links(focus, at);
    let words = map::MapWords::of(viewer.lang);
    let mine: Vec<OwnCompany> = l
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
    let player = l.player.as_ref().map(|p| PlayerView::of(p, my_nation));
    map_page(state, viewer, "world.html", &m, season, |ctx| {
        ctx.insert("world", &WorldView::from(&l.w));
        ctx.insert(
            "nations",
            &l.nations
                .iter()
                .map(|n| NationView::of(n, l.player.as_ref().map(|p| p.nation_id), l.w.ended()))
                .collect::<Vec<_>>(),
        );
        ctx.insert("player", &player);
        ctx.insert("companies", &mine);
        ctx.insert("reserve_gain", &rs.turn.reserve_gain);
        ctx.insert("name_max", &rs.limits.company_name_max);
        ctx.insert("leave", &rs.leave);
        ctx.insert(
            "fogged",
            &(l.player.is_some() && l.map.cells.iter().any(|c| !c.seen)),
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
            &selected.map(|c| mine.iter().find(|m| m.id == c.id)),
        );
        ctx.insert("cell", &l.cell);
        ctx.insert("cell_markers", &cell_markers);
        ctx.insert("marker_max", &state.config.settings.talk.marker_chars);
        ctx.insert("options", &l.options);
        ctx.insert("report", &l.report);
        ctx.insert(
            "first_day",
            &l.first_day.map(|f| state.first_day(viewer.lang, &f)),
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
        // The view a click on the map keeps: the form's hidden fields.
        ctx.insert("view", &view);
    })
}
