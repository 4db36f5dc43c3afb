//! `GET /api/v1/worlds/{w}/live`: the world as it moves, for one of its players, as Server-Sent
//! Events (`web::live` tells each stream its part).

use crate::game::{play::access, GameError};
use crate::ids::WorldId;
use crate::web::auth::ApiCredentials;
use crate::web::error::ApiError;
use crate::web::live::{Events, Join};
use crate::web::middleware::ReaderLang;
use crate::web::AppState;
use crate::wire::live::LiveQuery;
use actix_web::{web, HttpRequest, Responder};
use actix_web_lab::sse::Sse;
use std::time::Duration;

/// How long a browser waits before it reconnects a dropped stream.
const RETRY: Duration = Duration::from_secs(3);

pub async fn stream(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<WorldId>,
    q: web::Query<LiveQuery>,
    ReaderLang(lang): ReaderLang,
) -> Result<impl Responder, ApiError> {
    let world = path.into_inner();
    let credentials = ApiCredentials::of(&state, &req);
    let from = match req.headers().get("Last-Event-ID") {
        Some(h) => Some(
            h.to_str()
                .ok()
                .and_then(|s| s.trim().parse::<i64>().ok())
                .ok_or_else(|| GameError::Invalid("Last-Event-ID is not an event id".into()))?,
        ),
        None => q.from,
    };
    let kept = credentials.clone();
    let (actor, player) = state
        .db(move |conn| {
            let actor = kept.resolve_reading(conn)?;
            crate::game::maps::worlds::get(conn, world)?;
            let player = access::player_in(conn, &actor, world)?.ok_or_else(|| {
                GameError::Forbidden("only the world's players have its live stream".into())
            })?;
            Ok((actor, player))
        })
        .await?;
    let ticket = state.live.admit(actor.user_id)?;
    let settings = state.live.settings();
    let (tx, rx) = tokio::sync::mpsc::channel(settings.backlog.max(16));
    state.live.join(Join {
        world,
        user: actor.user_id,
        nation: player.nation_id,
        lang,
        credentials,
        from,
        tx,
    });
    Ok(Sse::from_infallible_stream(Events::new(rx, ticket))
        .with_keep_alive(Duration::from_secs(settings.keep_alive_seconds.max(1)))
        .with_retry_duration(RETRY)
        .customize()
        // nginx would otherwise hold the events back in its buffer.
        .insert_header(("X-Accel-Buffering", "no")))
}
