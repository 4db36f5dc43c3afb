//! The game masters' pages: the worlds (create empty, generate, upload a map file or a Tiled
//! map, download), the map editor, world and company controls, and the audit log.

use super::forms::{refused_page, submit, submit_then};
use super::world::parse_cell;
use super::{map_page, page, see_other};
use crate::game::gm::editor::{self, CellEdit, CompanyPatch};
use crate::game::maps::generate::{self, Options};
use crate::game::maps::mapfile::{self, MapFile, MapNation};
use crate::game::maps::sketch::PALETTE;
use crate::game::play::access::Actor;
use crate::game::{
    campaign, gm, gm::audit, maps::tiled_import, maps::worlds, play::views, GameError, GameResult,
};
use crate::ids::{AuditId, CompanyId, NationId, WorldId};
use crate::rules::{Pos, Terrain};
use crate::said::Said;
use crate::web::auth::{GmViewer, Viewer};
use crate::web::error::PageError;
use crate::web::form_post::SignedPost;
use crate::web::render::map::{self, MapView};
use crate::web::render::viewport::{Viewport, Zooms};
use crate::web::AppState;
use crate::wire::play::EdgeView;
use crate::wire::views::{CellInfo, SeenCompany, WorldView};
use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};

/// (cell size, columns, rows) of the editor's three zoom levels.
pub const ZOOMS: Zooms = [(10, 100, 70), (16, 60, 40), (26, 36, 24)];

fn gm_actor(viewer: &Viewer) -> GameResult<Actor> {
    let a = viewer.require()?;
    a.require_gm()?;
    Ok(a)
}

/// Where an editor's form leads back to (the world's editor unless it says), once its sender
/// is known to be a game master.
fn editor_back<F>(post: &SignedPost<F>, wid: WorldId) -> Result<String, PageError> {
    post.actor.require_gm()?;
    Ok(post.back_or(format!("/gm/worlds/{wid}")))
}

#[derive(Deserialize)]
pub struct ControlForm {
    pub csrf: Option<String>,
    pub kind: Option<String>,
    pub paused: Option<String>,
    pub season: Option<String>,
    pub back: Option<String>,
}

pub async fn control(
    state: web::Data<AppState>,
    path: web::Path<WorldId>,
    post: SignedPost<ControlForm>,
) -> Result<HttpResponse, PageError> {
    let wid = path.into_inner();
    let back = editor_back(&post, wid)?;
    submit(&state, post, back, move |conn, st, actor, f| {
        let paused = match f.paused.as_deref().filter(|p| !p.is_empty()) {
            None => None,
            Some("yes") | Some("true") => Some(true),
            Some("no") | Some("false") => Some(false),
            Some(other) => {
                return Err(GameError::Invalid(
                    Said::new("error-yes-no")
                        .s("what", "paused")
                        .s("value", other)
                        .into(),
                ))
            }
        };
        if let Some(k) = f.kind.filter(|k| !k.is_empty()) {
            gm::run_tick(conn, &st.config.rules, actor, wid, &k)?;
        }
        if let Some(p) = paused {
            gm::set_paused(conn, actor, wid, p)?;
        }
        if let Some(s) = f.season.filter(|s| !s.is_empty()) {
            gm::set_season(conn, actor, wid, &s)?;
        }
        Ok(())
    })
    .await
}

#[derive(Deserialize)]
pub struct CampaignForm {
    pub csrf: Option<String>,
    /// `end`, `next` or `victory`.
    pub action: Option<String>,
    pub name: Option<String>,
    pub points: Option<String>,
    pub end_turn: Option<String>,
    pub towns_share: Option<String>,
    pub back: Option<String>,
}
crate::signed_fields!(CampaignForm, back);

/// An optional number of the victory form: empty keeps the world's value.
fn optional_number<T: std::str::FromStr>(v: Option<&str>, what: &str) -> GameResult<Option<T>> {
    match v.map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(None),
        some => number(some, what).map(Some),
    }
}

/// The campaign panel of the editor: end it, set its victory, start the next one (whose
/// editor the game master lands on).
pub async fn campaign(
    state: web::Data<AppState>,
    path: web::Path<WorldId>,
    post: SignedPost<CampaignForm>,
) -> Result<HttpResponse, PageError> {
    let wid = path.into_inner();
    let back = editor_back(&post, wid)?;
    submit_then(
        &state,
        post,
        back,
        move |conn, st, actor, form| {
            let rs = &st.config.rules;
            match form.action.as_deref().unwrap_or("") {
                "end" => campaign::end_by_game_master(conn, actor, wid).map(|_| None),
                "next" => {
                    campaign::next::start(conn, rs, actor, wid, form.name.as_deref()).map(Some)
                }
                "victory" => {
                    let v = mapfile::MapVictory {
                        points: optional_number(form.points.as_deref(), "what-points")?,
                        end_turn: optional_number(form.end_turn.as_deref(), "what-end-turn")?,
                        towns_share: optional_number(
                            form.towns_share.as_deref(),
                            "what-towns-share",
                        )?,
                    };
                    campaign::set_victory(conn, actor, wid, v).map(|_| None)
                }
                other => Err(GameError::Invalid(
                    format!(
                        "unknown campaign action `{}`",
                        other.chars().take(20).collect::<String>()
                    )
                    .into(),
                )),
            }
        },
        |next, back| next.map_or(back, |w| format!("/gm/worlds/{w}")),
    )
    .await
}

// ------------------------------------------------------------------- the worlds

pub async fn worlds_page(
    state: web::Data<AppState>,
    viewer: Viewer,
) -> Result<HttpResponse, PageError> {
    gm_actor(&viewer)?;
    let list = state.db(worlds::list).await?;
    let rows: Vec<_> = list.iter().map(WorldView::from).collect();
    Ok(page(&state, &viewer, "gm_worlds.html", |ctx| {
        ctx.insert("worlds", &rows)
    })?)
}

#[derive(Deserialize, Default)]
pub struct NewWorldForm {
    pub csrf: Option<String>,
    pub how: Option<String>,
    pub name: Option<String>,
    pub width: Option<String>,
    pub height: Option<String>,
    pub nations: Option<String>,
    pub seed: Option<String>,
    pub map: Option<String>,
    pub format: Option<String>,
    /// `hex` for a hex world; anything else, square.
    pub grid: Option<String>,
}

fn number<T: std::str::FromStr>(v: Option<&str>, what: &str) -> GameResult<T> {
    v.and_then(|s| s.trim().parse().ok())
        .ok_or_else(|| GameError::Invalid(Said::new("error-give-number").m("what", what).into()))
}

/// "France #2b4c9b, Russia" → nations spread over the map's corners.
fn nations_from(text: &str, w: i32, h: i32) -> Vec<MapNation> {
    let corners = [[0, 0], [w - 1, h - 1], [w - 1, 0], [0, h - 1]];
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .enumerate()
        .map(|(i, entry)| {
            let mut parts = entry.split_whitespace();
            let name = parts.next().unwrap_or("").to_string();
            let color = parts
                .next()
                .map(str::to_string)
                .unwrap_or_else(|| PALETTE[i % PALETTE.len()].into());
            MapNation {
                name,
                color,
                spawn: Some(corners[i % corners.len()]),
                treasury: None,
            }
        })
        .collect()
}

fn new_map(rs: &crate::rules::Ruleset, f: &NewWorldForm) -> GameResult<MapFile> {
    let name = f.name.clone().filter(|n| !n.trim().is_empty());
    let grid = match f.grid.as_deref() {
        Some("hex") => crate::rules::Grid::Hex,
        _ => crate::rules::Grid::Square,
    };
    match f.how.as_deref().unwrap_or("") {
        "empty" => {
            let (w, h): (i32, i32) = (
                number(f.width.as_deref(), "what-width")?,
                number(f.height.as_deref(), "what-height")?,
            );
            Ok(MapFile {
                name: name.unwrap_or_else(|| "New world".into()),
                width: w,
                height: h,
                season: "summer".into(),
                rng_seed: None,
                nations: nations_from(f.nations.as_deref().unwrap_or("France, Russia"), w, h),
                towns: vec![],
                cells: vec![],
                castles: vec![],
                victory: None,
                grid: (grid == crate::rules::Grid::Hex).then(|| grid.as_str().to_string()),
                edges: vec![],
            })
        }
        "generate" => generate::generate(
            rs,
            &Options {
                width: number(f.width.as_deref(), "what-width")?,
                height: number(f.height.as_deref(), "what-height")?,
                seed: number(f.seed.as_deref(), "what-seed")?,
                nations: number(f.nations.as_deref(), "what-nation-count")?,
                name,
                grid,
            },
        ),
        "upload" => mapfile::parse(f.map.as_deref().unwrap_or(""))
            .map_err(|e| GameError::Invalid(e.to_string().into())),
        "tiled" => tiled_import::read_text(
            f.map.as_deref().unwrap_or(""),
            f.format.as_deref().unwrap_or("tmx"),
            name.as_deref(),
        ),
        other => Err(GameError::Invalid(
            Said::new("error-how").s("how", other).into(),
        )),
    }
}

pub async fn create_world(
    state: web::Data<AppState>,
    GmViewer(viewer): GmViewer,
    form: web::Form<NewWorldForm>,
) -> Result<HttpResponse, PageError> {
    viewer.check_csrf(form.csrf.as_deref())?;
    let form = form.into_inner();
    let result = state.import_world(move |rules| new_map(rules, &form)).await;
    match result {
        Ok(id) => Ok(see_other(&format!("/gm/worlds/{id}"))),
        Err(e) => refused_page(&state, &viewer, &e, Some("/gm/worlds")),
    }
}

pub async fn export(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<WorldId>,
) -> Result<HttpResponse, PageError> {
    gm_actor(&viewer)?;
    let wid = path.into_inner();
    let map = state.db(move |conn| worlds::export(conn, wid)).await?;
    let body =
        serde_json::to_string_pretty(&map).map_err(|e| GameError::Internal(e.to_string()))?;
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .insert_header((
            "Content-Disposition",
            format!("attachment; filename=\"world-{wid}.json\""),
        ))
        .body(body))
}

// ------------------------------------------------------------------- the editor

#[derive(Deserialize, Default)]
pub struct EditorQuery {
    pub x: Option<i32>,
    pub y: Option<i32>,
    pub zoom: Option<i32>,
    pub cell: Option<String>,
}

pub async fn editor_page(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<WorldId>,
    q: web::Query<EditorQuery>,
) -> Result<HttpResponse, PageError> {
    let actor = gm_actor(&viewer)?;
    let wid = path.into_inner();
    let q = q.into_inner();
    let zoom = q.zoom.unwrap_or(2);
    let st = state.clone();
    let selected = q.cell.as_deref().and_then(parse_cell);
    let (w, nations, towns, pm, info, vp, bots) = state
        .db(move |conn| {
            let w = worlds::get(conn, wid)?;
            let centre = (q.x.unwrap_or(w.width / 2), q.y.unwrap_or(w.height / 2));
            let vp = Viewport::around(&ZOOMS, w.width, w.height, centre, zoom).on(w.grid);
            let who = views::Onlooker::of(conn, w.id, &actor)?;
            let nations = worlds::nations_of(conn, wid)?;
            let pm = views::player_map(
                conn,
                &st.config.rules,
                Some(who),
                &w,
                nations,
                vp.rect(),
                views::Look::Everything,
            )?;
            let info = match selected {
                Some(p) => views::cell_info(conn, &w, p)?
                    .map(|c| CellInfo::of(&st.config.rules, w.season, &c)),
                None => None,
            };
            Ok((
                w.clone(),
                pm.nations.clone(),
                worlds::towns_of(conn, wid)?,
                pm,
                info,
                vp,
                crate::game::bots::list(conn, wid)?,
            ))
        })
        .await?;
    let rs = &state.config.rules;
    let here = |x: i32, y: i32, z: i32| format!("/gm/worlds/{wid}?x={x}&y={y}&zoom={z}");
    let (cx, cy) = vp.centre();
    let mut m: MapView = map::build(
        rs,
        &vp,
        &pm,
        false,
        Some(format!("{}&cell=", here(cx, cy, vp.zoom))),
        viewer.lang,
    );
    m.selected = selected.map(|p| (p.x, p.y));
    m.edges = map::ramparts(&pm.edges);
    m.units = pm
        .companies
        .iter()
        .map(|u| {
            // The editor sees every nation and takes sides with none: no company is "mine"
            // and none is drawn as an enemy.
            let mut unit =
                map::UnitView::of(&state.config.rules, &vp, u, pm.nation(u.0.nation_id), None);
            unit.mine = false;
            unit.friend = true;
            unit
        })
        .collect();
    let pan = vp.pan(w.width, w.height, here);
    let edges: Vec<EdgeView> = pm.edges.iter().copied().map(EdgeView::of).collect();
    let season = w.season;
    Ok(map_page(
        &state,
        &viewer,
        "gm_editor.html",
        &m,
        season,
        |ctx| {
            ctx.insert("victory", &w.victory(&state.config.rules.victory));
            ctx.insert("world", &WorldView::from(&w));
            ctx.insert("pan", &pan);
            ctx.insert("zooms", &vp.zoom_links(None, here));
            ctx.insert("here", &here(cx, cy, vp.zoom));
            ctx.insert(
                "terrains",
                &Terrain::ALL.iter().map(|t| t.as_str()).collect::<Vec<_>>(),
            );
            ctx.insert(
                "nations",
                &nations.iter().map(SpawnView::from).collect::<Vec<_>>(),
            );
            ctx.insert(
                "towns",
                &towns.iter().map(|t| t.name.clone()).collect::<Vec<_>>(),
            );
            ctx.insert("cell", &info);
            ctx.insert(
                "bots",
                &bots
                    .iter()
                    .cloned()
                    .map(crate::wire::gm::BotView::from)
                    .collect::<Vec<_>>(),
            );
            ctx.insert("sides", w.grid.sides());
            ctx.insert("edges", &edges);
            ctx.insert(
                "cell_edges",
                &info
                    .as_ref()
                    .map(|c| {
                        w.grid
                            .sides()
                            .iter()
                            .filter(|s| {
                                let (p, side) = w.grid.canonical(Pos::new(c.x, c.y), **s);
                                pm.edges.iter().any(|e| e.0 == p && e.1 == side)
                            })
                            .copied()
                            .collect::<Vec<_>>()
                    })
                    .unwrap_or_default(),
            );
            ctx.insert("companies", &SeenCompany::all(&pm));
            ctx.insert("viewport", &vp);
        },
    )?)
}

#[derive(Deserialize, Default)]
pub struct CellForm {
    pub csrf: Option<String>,
    pub x: Option<String>,
    pub y: Option<String>,
    pub terrain: Option<String>,
    pub town: Option<String>,
    pub owner: Option<String>,
    pub structure: Option<String>,
    pub castle: Option<String>,
    pub back: Option<String>,
}

#[derive(Deserialize, Default)]
pub struct EdgeForm {
    pub csrf: Option<String>,
    pub x: Option<String>,
    pub y: Option<String>,
    pub side: Option<String>,
    /// `rampart` sets one; anything else (the remove button) takes the feature off.
    pub feature: Option<String>,
    pub back: Option<String>,
}
crate::signed_fields!(EdgeForm, back);

/// The editor's edge form: a rampart on a side of the selected cell, or none.
pub async fn edit_edge(
    state: web::Data<AppState>,
    path: web::Path<WorldId>,
    post: SignedPost<EdgeForm>,
) -> Result<HttpResponse, PageError> {
    let wid = path.into_inner();
    let back = editor_back(&post, wid)?;
    submit(&state, post, back, move |conn, _, actor, f| {
        let at = Pos::new(
            number(f.x.as_deref(), "what-x")?,
            number(f.y.as_deref(), "what-y")?,
        );
        let feature = f.feature.as_deref().filter(|v| *v == "rampart");
        crate::game::gm::edges::set(
            conn,
            actor,
            wid,
            at,
            f.side.as_deref().unwrap_or(""),
            feature,
        )
    })
    .await
}

/// Empty form fields leave a property alone; `-` clears it.
fn field(v: Option<&str>) -> Option<Option<String>> {
    match v.map(str::trim) {
        None | Some("") => None,
        Some("-") => Some(None),
        Some(s) => Some(Some(s.to_string())),
    }
}

pub async fn edit_cell(
    state: web::Data<AppState>,
    path: web::Path<WorldId>,
    post: SignedPost<CellForm>,
) -> Result<HttpResponse, PageError> {
    let wid = path.into_inner();
    let back = editor_back(&post, wid)?;
    submit(&state, post, back, move |conn, st, actor, f| {
        let at = Pos::new(
            number(f.x.as_deref(), "what-x")?,
            number(f.y.as_deref(), "what-y")?,
        );
        let structure = match field(f.structure.as_deref()) {
            None => None,
            Some(None) => Some(None),
            Some(Some(s)) => Some(Some(s.parse::<i32>().map_err(|_| {
                GameError::Invalid(
                    Said::new("error-not-number")
                        .s("what", "structure")
                        .s("value", s)
                        .into(),
                )
            })?)),
        };
        let edit = CellEdit {
            x: None,
            y: None,
            terrain: f.terrain.filter(|t| !t.trim().is_empty()),
            town: field(f.town.as_deref()),
            owner: field(f.owner.as_deref()),
            structure,
            castle: field(f.castle.as_deref()),
        };
        editor::edit_cells(conn, &st.config.rules, actor, wid, &[(at, edit)])
    })
    .await
}

#[derive(Deserialize)]
pub struct SimpleForm {
    pub csrf: Option<String>,
    pub back: Option<String>,
    pub nation: Option<String>,
    pub at: Option<String>,
    /// A bot's level, or its name.
    pub level: Option<String>,
    pub name: Option<String>,
}

pub async fn undo(
    state: web::Data<AppState>,
    path: web::Path<WorldId>,
    post: SignedPost<SimpleForm>,
) -> Result<HttpResponse, PageError> {
    let wid = path.into_inner();
    let back = editor_back(&post, wid)?;
    submit(&state, post, back, move |conn, st, actor, _| {
        editor::undo(conn, &st.config.rules, actor, wid)
    })
    .await
}

pub async fn spawn(
    state: web::Data<AppState>,
    path: web::Path<WorldId>,
    post: SignedPost<SimpleForm>,
) -> Result<HttpResponse, PageError> {
    let wid = path.into_inner();
    let back = editor_back(&post, wid)?;
    let Some(at) = post.form.at.as_deref().and_then(parse_cell) else {
        let e = GameError::Invalid(Said::new("error-spawn").into());
        return refused_page(&state, &post.viewer, &e, Some(&back));
    };
    submit(&state, post, back, move |conn, _, actor, f| {
        let nation = f.nation.unwrap_or_default();
        editor::set_spawn(conn, actor, wid, &nation, at).map(|_| ())
    })
    .await
}

/// The editor's bots panel: seat a bot in a nation.
pub async fn add_bot(
    state: web::Data<AppState>,
    path: web::Path<WorldId>,
    post: SignedPost<SimpleForm>,
) -> Result<HttpResponse, PageError> {
    let wid = path.into_inner();
    let back = editor_back(&post, wid)?;
    submit(&state, post, back, move |conn, _, actor, f| {
        let (nation, level) = (f.nation.unwrap_or_default(), f.level.unwrap_or_default());
        crate::game::bots::add(conn, actor, wid, &nation, &level).map(|_| ())
    })
    .await
}

/// The editor's bots panel: stop a bot.
pub async fn remove_bot(
    state: web::Data<AppState>,
    path: web::Path<WorldId>,
    post: SignedPost<SimpleForm>,
) -> Result<HttpResponse, PageError> {
    let wid = path.into_inner();
    let back = editor_back(&post, wid)?;
    submit(&state, post, back, move |conn, _, actor, f| {
        crate::game::bots::remove(conn, actor, wid, &f.name.unwrap_or_default())
    })
    .await
}

#[derive(Deserialize, Default)]
pub struct CompanyForm {
    pub csrf: Option<String>,
    pub back: Option<String>,
    pub at: Option<String>,
    pub ap: Option<String>,
    pub men: Option<String>,
    pub wounded: Option<String>,
    pub morale: Option<String>,
    pub remove: Option<String>,
}

fn opt_number(v: Option<&str>, what: &str) -> GameResult<Option<i32>> {
    match v.map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(None),
        Some(s) => s.parse().map(Some).map_err(|_| {
            GameError::Invalid(
                Said::new("error-not-number")
                    .s("what", what)
                    .s("value", s)
                    .into(),
            )
        }),
    }
}

pub async fn company(
    state: web::Data<AppState>,
    path: web::Path<CompanyId>,
    post: SignedPost<CompanyForm>,
) -> Result<HttpResponse, PageError> {
    post.actor.require_gm()?;
    let id = path.into_inner();
    let back = post.back_or("/gm/worlds".into());
    submit(&state, post, back, move |conn, st, actor, f| {
        if f.remove.as_deref() == Some("yes") {
            return editor::remove_company(conn, actor, id);
        }
        let at = match f.at.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            Some(s) => Some(parse_cell(s).ok_or_else(|| {
                GameError::Invalid(Said::new("error-not-xy").s("value", s).into())
            })?),
            None => None,
        };
        let patch = CompanyPatch {
            x: at.map(|p| p.x),
            y: at.map(|p| p.y),
            ap: opt_number(f.ap.as_deref(), "ap")?,
            men: opt_number(f.men.as_deref(), "men")?,
            wounded: opt_number(f.wounded.as_deref(), "wounded")?,
            morale: opt_number(f.morale.as_deref(), "morale")?,
        };
        editor::patch_company(conn, &st.config.rules, actor, id, &patch).map(|_| ())
    })
    .await
}

// ------------------------------------------------------------------- the audit log

#[derive(Deserialize, Default)]
pub struct AuditQuery {
    pub user: Option<String>,
    pub cell: Option<String>,
    pub before: Option<AuditId>,
}

pub async fn audit_page(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<WorldId>,
    q: web::Query<AuditQuery>,
) -> Result<HttpResponse, PageError> {
    gm_actor(&viewer)?;
    let wid = path.into_inner();
    let q = q.into_inner();
    let filter = audit::Filter {
        user: q.user.clone(),
        at: q.cell.as_deref().and_then(parse_cell),
        before_id: q.before,
    };
    let (w, rows) = state
        .db(move |conn| {
            let w = worlds::get(conn, wid)?;
            Ok((w, audit::list(conn, wid, &filter, 100)?))
        })
        .await?;
    let entries: Vec<_> = rows
        .iter()
        .map(|(r, who)| AuditEntry {
            id: r.id,
            at: r.at,
            user: who.clone(),
            action: r.action.clone(),
            target: r.target.clone(),
            before: r.old_value.clone(),
            after: r.new_value.clone(),
        })
        .collect();
    let older = (rows.len() == 100)
        .then(|| rows.last().map(|(r, _)| r.id))
        .flatten();
    Ok(page(&state, &viewer, "gm_audit.html", |ctx| {
        ctx.insert("world", &WorldView::from(&w));
        ctx.insert("entries", &entries);
        ctx.insert("user", &q.user.unwrap_or_default());
        ctx.insert("cell", &q.cell.unwrap_or_default());
        ctx.insert("older", &older);
    })?)
}

crate::signed_fields!(ControlForm, back);
crate::signed_fields!(CellForm, back);
crate::signed_fields!(SimpleForm, back);
crate::signed_fields!(CompanyForm, back);

/// A nation in the editor: where its companies are raised.
#[derive(Serialize)]
struct SpawnView {
    id: NationId,
    name: String,
    color: String,
    spawn: [i32; 2],
}

impl From<&crate::db::models::Nation> for SpawnView {
    fn from(n: &crate::db::models::Nation) -> SpawnView {
        SpawnView {
            id: n.id,
            name: n.name.clone(),
            color: n.color.clone(),
            spawn: [n.spawn_x, n.spawn_y],
        }
    }
}

/// One line of a world's GM audit log.
#[derive(Serialize)]
struct AuditEntry {
    id: AuditId,
    at: i64,
    user: String,
    action: String,
    target: String,
    before: Option<String>,
    after: Option<String>,
}
