//! The GM API: editing cells (one or a batch), undo, spawn cells, companies by hand, creating,
//! generating, importing and exporting worlds, and the audit log.

use crate::game::gm::editor::{self, CellEdit, CompanyPatch};
use crate::game::maps::generate::{self, Options};
use crate::game::{gm::audit, maps::mapfile, maps::tiled_import, maps::worlds, GameError};
use crate::ids::{CompanyId, WorldId};
use crate::rules::Pos;
use crate::web::auth::{ApiActor, GmActor};
use crate::web::error::ApiError;
use crate::web::AppState;
use crate::wire::editor::*;
use actix_web::{web, HttpResponse};
use serde_json::value::RawValue;

fn raw(v: &Option<String>) -> Option<Box<RawValue>> {
    v.clone().and_then(|v| RawValue::from_string(v).ok())
}

pub async fn put_cell(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<(WorldId, i32, i32)>,
    body: web::Json<CellEdit>,
) -> Result<HttpResponse, ApiError> {
    let (w, x, y) = path.into_inner();
    actor.require_gm()?;
    let edit = body.into_inner();
    if edit.x.is_some_and(|v| v != x) || edit.y.is_some_and(|v| v != y) {
        return Err(GameError::Invalid("the body's x and y differ from the address".into()).into());
    }
    let st = state.clone();
    let v = state
        .db(move |conn| {
            let rows =
                editor::edit_cells(conn, &st.config.rules, &actor, w, &[(Pos::new(x, y), edit)])?;
            editor::named_cells(conn, w, &rows)
        })
        .await?;
    Ok(HttpResponse::Ok().json(v.into_iter().next().map(EditedCell::of)))
}

/// `PUT /api/v1/worlds/{w}/edges/{x}/{y}/{side} {feature}` (game masters).
pub async fn put_edge(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<(WorldId, i32, i32, String)>,
    body: web::Json<EdgeBody>,
) -> Result<HttpResponse, ApiError> {
    let (w, x, y, side) = path.into_inner();
    actor.require_gm()?;
    let feature = body.into_inner().feature;
    let v = state
        .db(move |conn| {
            crate::game::gm::edges::set(conn, &actor, w, Pos::new(x, y), &side, feature.as_deref())
        })
        .await?;
    Ok(HttpResponse::Ok().json(EdgeAnswer::of(v)))
}

pub async fn put_cells(
    state: web::Data<AppState>,
    GmActor(actor): GmActor,
    path: web::Path<WorldId>,
    body: web::Json<Batch>,
) -> Result<HttpResponse, ApiError> {
    let w = path.into_inner();
    let edits = body
        .into_inner()
        .cells
        .into_iter()
        .enumerate()
        .map(|(i, e)| match (e.x, e.y) {
            (Some(x), Some(y)) => Ok((Pos::new(x, y), e)),
            _ => Err(GameError::Invalid(
                format!("cells[{i}] needs x and y").into(),
            )),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let st = state.clone();
    let v = state
        .db(move |conn| {
            let rows = editor::edit_cells(conn, &st.config.rules, &actor, w, &edits)?;
            editor::named_cells(conn, w, &rows)
        })
        .await?;
    Ok(HttpResponse::Ok().json(CellsAnswer::of(v)))
}

pub async fn undo(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<WorldId>,
) -> Result<HttpResponse, ApiError> {
    let w = path.into_inner();
    actor.require_gm()?;
    let st = state.clone();
    let v = state
        .db(move |conn| {
            let rows = editor::undo(conn, &st.config.rules, &actor, w)?;
            editor::named_cells(conn, w, &rows)
        })
        .await?;
    Ok(HttpResponse::Ok().json(CellsAnswer::of(v)))
}

pub async fn spawn(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<(WorldId, String)>,
    body: web::Json<crate::wire::play::AtBody>,
) -> Result<HttpResponse, ApiError> {
    let (w, nation) = path.into_inner();
    actor.require_gm()?;
    let at = crate::web::order_input::at(&body.at)?;
    let n = state
        .db(move |conn| editor::set_spawn(conn, &actor, w, &nation, at))
        .await?;
    Ok(HttpResponse::Ok().json(SpawnAnswer {
        id: n.id,
        name: n.name,
        spawn: [n.spawn_x, n.spawn_y],
    }))
}

pub async fn patch_company(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<CompanyId>,
    body: web::Json<CompanyPatch>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    actor.require_gm()?;
    let st = state.clone();
    let v = state
        .db(move |conn| {
            let c = editor::patch_company(conn, &st.config.rules, &actor, id, &body)?;
            let hidden = crate::game::play::hidden(conn, &st.config.rules, &c)?;
            Ok(crate::wire::views::CompanyView::of(&c, hidden))
        })
        .await?;
    Ok(HttpResponse::Ok().json(v))
}

pub async fn delete_company(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<CompanyId>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    actor.require_gm()?;
    state
        .db(move |conn| editor::remove_company(conn, &actor, id))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Creates a world from what `parse` reads (off the HTTP workers); 201 with its id.
async fn create_from<F>(state: &AppState, parse: F) -> Result<HttpResponse, ApiError>
where
    F: FnOnce(&crate::rules::Ruleset) -> Result<mapfile::MapFile, GameError> + Send + 'static,
{
    let id = state.import_world(parse).await?;
    Ok(HttpResponse::Created().json(Created { id }))
}

/// `POST /api/v1/worlds` with a map file: the body is read here and parsed on the CPU threads.
pub async fn create_world(
    state: web::Data<AppState>,
    _gm: GmActor,
    req: actix_web::HttpRequest,
    body: super::MapBody,
) -> Result<HttpResponse, ApiError> {
    let json = req
        .headers()
        .get(actix_web::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(';')
                .next()
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
        });
    if !json {
        return Err(GameError::Invalid("send the body as application/json".into()).into());
    }
    create_from(&state, move |_| Ok(mapfile::parse(body.text()?)?)).await
}

pub async fn generate_world(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    body: web::Json<GenerateBody>,
) -> Result<HttpResponse, ApiError> {
    actor.require_gm()?;
    let b = body.into_inner();
    let grid = match b.grid.as_deref() {
        None => crate::rules::Grid::Square,
        Some(g) => g.parse().map_err(|_| {
            GameError::Invalid(format!("grid: unknown grid `{g}` (square or hex)").into())
        })?,
    };
    let opts = Options {
        width: b.width,
        height: b.height,
        seed: b.seed,
        nations: b.nations,
        name: b.name,
        grid,
    };
    create_from(&state, move |rules| generate::generate(rules, &opts)).await
}

pub async fn import_tiled(
    state: web::Data<AppState>,
    _gm: GmActor,
    q: web::Query<TiledQuery>,
    body: super::MapBody,
) -> Result<HttpResponse, ApiError> {
    let format = q.format.clone().unwrap_or_else(|| {
        if body.0.trim_ascii_start().starts_with(b"<") {
            "tmx".into()
        } else {
            "json".into()
        }
    });
    let name = q.into_inner().name;
    create_from(&state, move |_| {
        tiled_import::read_text(body.text()?, &format, name.as_deref())
    })
    .await
}

pub async fn export(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<WorldId>,
) -> Result<HttpResponse, ApiError> {
    actor.require_gm()?;
    let w = path.into_inner();
    let map = state.db(move |conn| worlds::export(conn, w)).await?;
    Ok(HttpResponse::Ok().json(map))
}

pub async fn audit_log(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<WorldId>,
    q: web::Query<AuditQuery>,
) -> Result<HttpResponse, ApiError> {
    actor.require_gm()?;
    let w = path.into_inner();
    let q = q.into_inner();
    let filter = audit::Filter {
        user: q.user,
        at: q.x.zip(q.y).map(|(x, y)| Pos::new(x, y)),
        before_id: q.before,
    };
    let rows = state
        .db(move |conn| {
            worlds::get(conn, w)?;
            audit::list(conn, w, &filter, 200)
        })
        .await?;
    Ok(HttpResponse::Ok().json(AuditAnswer {
        entries: rows
            .into_iter()
            .map(|(r, user)| AuditEntry {
                before: raw(&r.old_value),
                after: raw(&r.new_value),
                id: r.id,
                at: r.at,
                user,
                action: r.action,
                target: r.target,
                x: r.x,
                y: r.y,
            })
            .collect(),
    }))
}
