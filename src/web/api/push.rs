//! `/api/v1/webhooks`: where a player's alerts also go.

use crate::game::news::webhooks;
use crate::game::GameError;
use crate::ids::WebhookId;
use crate::outgoing::SendError;
use crate::web::auth::ApiActor;
use crate::web::error::ApiError;
use crate::web::AppState;
use crate::wire::push::*;
use actix_web::{web, HttpResponse};

/// Registers a webhook: its address must be `https` to a public address now (and is checked
/// again at every delivery).
pub async fn add_webhook(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    body: web::Json<NewWebhook>,
) -> Result<HttpResponse, ApiError> {
    let url = webhooks::parse_url(&body.into_inner().url)?;
    match state.outgoing.check(&url).await {
        Ok(()) => {}
        Err(SendError::Busy) => return Err(GameError::Busy { retry_after: 5 }.into()),
        Err(e) => return Err(GameError::NotPublic(e.to_string().into()).into()),
    }
    let limit = state.config.settings.push.webhooks_per_user;
    let hook = state
        .db(move |conn| webhooks::add(conn, actor.user_id, &url, limit))
        .await?;
    Ok(HttpResponse::Created().json(WebhookView::from(hook)))
}

pub async fn list_webhooks(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
) -> Result<HttpResponse, ApiError> {
    let list = state
        .db(move |conn| webhooks::list(conn, actor.user_id))
        .await?;
    Ok(HttpResponse::Ok().json(WebhookList {
        webhooks: list.into_iter().map(WebhookView::from).collect(),
    }))
}

pub async fn remove_webhook(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<WebhookId>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    state
        .db(move |conn| webhooks::remove(conn, actor.user_id, id))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}
