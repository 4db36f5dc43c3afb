//! Alerts sent away from the site: `/api/v1/webhooks`, and what a webhook is sent.

use crate::game::news::webhooks::{self, Webhook};
use crate::ids::{WebhookId, WorldId};
use serde::{Deserialize, Serialize};

/// `POST /api/v1/webhooks`.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewWebhook {
    /// An incoming-webhook address (Discord, Slack, Matrix…): `https` to a public address.
    pub url: String,
}

/// A webhook as its owner sees it: the host only, since the address's path is its secret.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct WebhookView {
    #[schema(value_type = i32)]
    pub id: WebhookId,
    pub host: String,
    pub created_at: i64,
    /// Failures in a row; reset by a delivery that goes through.
    pub failures: i32,
    /// When it was turned off for failing too often (null while it works).
    pub disabled_at: Option<i64>,
    pub last_error: Option<String>,
}

impl From<Webhook> for WebhookView {
    fn from(w: Webhook) -> WebhookView {
        WebhookView {
            id: w.id,
            host: webhooks::host_of(&w.url).to_string(),
            created_at: w.created_at,
            failures: w.failures,
            disabled_at: w.disabled_at,
            last_error: w.last_error,
        }
    }
}

/// `GET /api/v1/webhooks`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct WebhookList {
    pub webhooks: Vec<WebhookView>,
}

/// What a webhook is sent (`POST`, JSON): `content` for Discord, `text` for Slack and Matrix
/// bridges, the same sentence in the player's language with the address to read more.
#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct WebhookMessage {
    pub content: String,
    pub text: String,
    /// The alert's kind (as `GET /api/v1/alerts` says it).
    pub kind: String,
    #[schema(value_type = i32)]
    pub world: WorldId,
    pub url: String,
}
