//! `/api/v1/webhooks` and `/api/v1/push/…`: where a player's alerts also go.

use crate::game::news::{push, webhooks};
use crate::game::GameError;
use crate::ids::{SubscriptionId, WebhookId};
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
    public_now(&state, &url).await?;
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

/// Whether the server may send to `url` now (checked again at each delivery).
async fn public_now(state: &AppState, url: &str) -> Result<(), ApiError> {
    match state.outgoing.check(url).await {
        Ok(()) => Ok(()),
        Err(SendError::Busy) => Err(GameError::Busy { retry_after: 5 }.into()),
        Err(e) => Err(GameError::NotPublic(e.to_string().into()).into()),
    }
}

/// The VAPID public key browsers subscribe with.
pub async fn push_key(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let key = state.db(push::vapid_key).await?;
    Ok(HttpResponse::Ok().json(PushKey {
        key: key.public_base64(),
    }))
}

/// Keeps a browser's subscription: its keys valid, its endpoint a public address now.
pub async fn subscribe(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    body: web::Json<NewSubscriptionInput>,
) -> Result<HttpResponse, ApiError> {
    let new = body.into_inner().parse()?;
    public_now(&state, &new.endpoint).await?;
    let limit = state.config.settings.push.devices_per_user;
    let sub = state
        .db(move |conn| push::subscribe(conn, actor.user_id, &new, limit))
        .await?;
    Ok(HttpResponse::Created().json(SubscriptionView::from(sub)))
}

pub async fn list_subscriptions(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
) -> Result<HttpResponse, ApiError> {
    let list = state
        .db(move |conn| push::subscriptions(conn, actor.user_id))
        .await?;
    Ok(HttpResponse::Ok().json(SubscriptionList {
        subscriptions: list.into_iter().map(SubscriptionView::from).collect(),
    }))
}

pub async fn unsubscribe(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    path: web::Path<SubscriptionId>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    state
        .db(move |conn| push::unsubscribe(conn, actor.user_id, id))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

pub async fn settings(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
) -> Result<HttpResponse, ApiError> {
    let s = state
        .db(move |conn| push::settings(conn, actor.user_id))
        .await?;
    Ok(HttpResponse::Ok().json(PushSettingsView::from(s)))
}

pub async fn set_settings(
    state: web::Data<AppState>,
    ApiActor(actor): ApiActor,
    body: web::Json<PushSettingsView>,
) -> Result<HttpResponse, ApiError> {
    let chosen = body.into_inner().parse()?;
    let s = state
        .db(move |conn| push::set_settings(conn, actor.user_id, chosen))
        .await?;
    Ok(HttpResponse::Ok().json(PushSettingsView::from(s)))
}
