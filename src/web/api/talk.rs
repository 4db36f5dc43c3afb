//! Talking: messages, blocks, markers, and the game masters' moderation of them.

use crate::game::talk::markers::{self};
use crate::game::talk::messages::{self, Reader, To};
use crate::game::talk::moderation::{self};
use crate::game::talk::text::{Body, Label};
use crate::ids::{MarkerId, MessageId, ReportId, WorldId};
use crate::web::auth::ApiActor;
use crate::web::error::ApiError;
use crate::web::AppState;
use crate::wire::talk::*;
use actix_web::{web, HttpResponse};

/// `POST /api/v1/worlds/{w}/messages`: the message as its readers get it.
pub async fn send(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<WorldId>,
    body: web::Json<SendBody>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let SendBody { to, body } = body.into_inner();
    let t = state.config.settings.talk.clone();
    let body = Body::parse(&body, t.message_chars)?;
    let m = state
        .db(move |conn| messages::send(conn, &t, &actor, wid, &To::parse(&to), &body))
        .await?;
    Ok(HttpResponse::Created().json(MessageView::from(m)))
}

/// `GET /api/v1/worlds/{w}/messages?since=ID`.
pub async fn list(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<WorldId>,
    q: web::Query<SinceQuery>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let since = q.since;
    let messages = state
        .db(move |conn| {
            let reader = Reader::of(conn, &actor, wid)?;
            messages::since(conn, &reader, wid, since)
        })
        .await?;
    Ok(HttpResponse::Ok().json(MessagesAnswer {
        messages: messages.into_iter().map(MessageView::from).collect(),
    }))
}

/// `POST /api/v1/messages/{id}/report {reason?}`.
pub async fn report(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<MessageId>,
    super::OptionalJson(body): super::OptionalJson<ReportBody>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let reason = body.reason;
    state
        .db(move |conn| moderation::report(conn, &actor, id, reason.as_deref()))
        .await?;
    Ok(HttpResponse::Ok().json(ReportAnswer { reported: id }))
}

/// `DELETE /api/v1/messages/{id}` (game masters).
pub async fn remove(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<MessageId>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    state
        .db(move |conn| moderation::remove_message(conn, &actor, id))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// `GET /api/v1/worlds/{w}/message-reports` (game masters): the open reports.
pub async fn reports(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<WorldId>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let reports = state
        .db(move |conn| moderation::open_reports(conn, &actor, wid))
        .await?;
    Ok(HttpResponse::Ok().json(ReportsAnswer {
        reports: reports.into_iter().map(OpenReport::from).collect(),
    }))
}

/// `DELETE /api/v1/worlds/{w}/message-reports/{id}` (game masters): dismisses a report.
pub async fn dismiss(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<(WorldId, ReportId)>,
) -> Result<HttpResponse, ApiError> {
    let (wid, id) = path.into_inner();
    state
        .db(move |conn| moderation::dismiss(conn, &actor, wid, id))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// `POST /api/v1/worlds/{w}/mutes {player, hours}` (game masters).
pub async fn mute(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<WorldId>,
    body: web::Json<MuteBody>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let MuteBody { player, hours } = body.into_inner();
    let max = state.config.settings.talk.max_mute_hours;
    let name = player.clone();
    let until = state
        .db(move |conn| moderation::mute(conn, &actor, wid, &name, hours, max))
        .await?;
    Ok(HttpResponse::Ok().json(MuteAnswer {
        player,
        muted_until: crate::wire::views::rfc3339(until),
    }))
}

/// `POST /api/v1/worlds/{w}/blocks {player}`: the list after it.
pub async fn block(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<WorldId>,
    body: web::Json<BlockBody>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let name = body.into_inner().player;
    let blocked = state
        .db(move |conn| {
            messages::block(conn, &actor, wid, &name)?;
            messages::blocked(conn, &actor, wid)
        })
        .await?;
    Ok(HttpResponse::Created().json(BlockedAnswer { blocked }))
}

/// `GET /api/v1/worlds/{w}/blocks`.
pub async fn blocks(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<WorldId>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let blocked = state
        .db(move |conn| messages::blocked(conn, &actor, wid))
        .await?;
    Ok(HttpResponse::Ok().json(BlockedAnswer { blocked }))
}

/// `DELETE /api/v1/worlds/{w}/blocks/{player}`.
pub async fn unblock(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<(WorldId, String)>,
) -> Result<HttpResponse, ApiError> {
    let (wid, name) = path.into_inner();
    state
        .db(move |conn| messages::unblock(conn, &actor, wid, &name))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// `POST /api/v1/worlds/{w}/markers {at, label}`.
pub async fn drop_marker(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<WorldId>,
    body: web::Json<MarkerBody>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let body = body.into_inner();
    let t = state.config.settings.talk.clone();
    let at = crate::web::order_input::cell(&body.at, crate::said::msg("what-cell"))?;
    let label = Label::parse(&body.label, t.marker_chars)?;
    let m = state
        .db(move |conn| markers::drop_at(conn, &t, &actor, wid, at, &label))
        .await?;
    Ok(HttpResponse::Created().json(MarkerView::from(&m)))
}

/// `GET /api/v1/worlds/{w}/markers`: the caller's nation's.
pub async fn list_markers(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<WorldId>,
) -> Result<HttpResponse, ApiError> {
    let wid = path.into_inner();
    let markers = state
        .db(move |conn| markers::list(conn, &actor, wid))
        .await?;
    Ok(HttpResponse::Ok().json(MarkersAnswer {
        markers: markers.iter().map(MarkerView::from).collect(),
    }))
}

/// `DELETE /api/v1/markers/{id}`.
pub async fn remove_marker(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<MarkerId>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    state
        .db(move |conn| markers::remove(conn, &actor, id))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}
