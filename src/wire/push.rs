//! Alerts sent away from the site: `/api/v1/webhooks`, `/api/v1/push/…`, and what webhooks
//! and browsers are sent.

use crate::game::error::{GameError, GameResult};
use crate::game::news::push::{NewSubscription, Settings, Subscription};
use crate::game::news::webhooks::{self, Webhook};
use crate::ids::{SubscriptionId, WebhookId, WorldId};
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

/// What a browser is pushed (JSON, encrypted for it): shown by `static/sw.js` as a
/// notification whose tap opens `url`.
#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct PushMessage {
    pub title: String,
    pub body: String,
    pub url: String,
    /// The alert's kind (as `GET /api/v1/alerts` says it).
    pub kind: String,
    #[schema(value_type = i32)]
    pub world: WorldId,
    /// A newer notification with the same tag replaces the older one on the device.
    pub tag: String,
}

/// `GET /api/v1/push/key`: the server's VAPID public key, a browser's `applicationServerKey`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct PushKey {
    /// The uncompressed P-256 point, base64url.
    pub key: String,
}

/// A subscription's keys as a browser gives them.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SubscriptionKeysInput {
    pub p256dh: String,
    pub auth: String,
}

/// `POST /api/v1/push/subscriptions`: a browser's `PushSubscription.toJSON()` as it is.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewSubscriptionInput {
    pub endpoint: String,
    /// Read and not kept: push services end subscriptions with 404 or 410.
    #[serde(rename = "expirationTime", default)]
    pub expiration_time: Option<f64>,
    pub keys: SubscriptionKeysInput,
}

impl NewSubscriptionInput {
    pub fn parse(self) -> GameResult<NewSubscription> {
        NewSubscription::parse(&self.endpoint, &self.keys.p256dh, &self.keys.auth)
    }
}

/// A browser that takes the player's pushes, as its owner sees it.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct SubscriptionView {
    #[schema(value_type = i32)]
    pub id: SubscriptionId,
    /// The push service's host.
    pub host: String,
    /// The whole endpoint, for the page that holds it to find its own.
    pub endpoint: String,
    pub created_at: i64,
    /// Failures in a row; reset by a push that goes through.
    pub failures: i32,
    pub last_error: Option<String>,
}

impl From<Subscription> for SubscriptionView {
    fn from(s: Subscription) -> SubscriptionView {
        SubscriptionView {
            id: s.id,
            host: webhooks::host_of(&s.endpoint).to_string(),
            endpoint: s.endpoint,
            created_at: s.created_at,
            failures: s.failures,
            last_error: s.last_error,
        }
    }
}

/// `GET /api/v1/push/subscriptions`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct SubscriptionList {
    pub subscriptions: Vec<SubscriptionView>,
}

/// Reminders a player may have pushed, besides the alerts.
#[derive(Clone, Debug, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Reminders {
    /// A company at full action points after a turn.
    pub full_ap: bool,
    /// The turn in 30 minutes with action points a company would lose to it.
    pub turn_unspent: bool,
    /// A castle section of the nation lost.
    pub section_lost: bool,
    /// A message on the nation's board.
    pub board: bool,
}

/// Quiet hours: pushes wait until `to`. Times of the day `HH:MM` at the player's offset.
#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct QuietHours {
    pub from: String,
    pub to: String,
}

/// `GET` and `PUT /api/v1/push/settings`.
#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PushSettingsView {
    #[serde(default)]
    pub reminders: Reminders,
    #[serde(default)]
    pub quiet_hours: Option<QuietHours>,
    /// The player's offset from UTC in minutes, east positive (UTC+2: 120), for quiet hours
    /// and the day of the daily cap.
    #[serde(default)]
    pub utc_offset: i32,
    /// Pushes a day at most; the last one says the rest waits on the site.
    #[serde(default = "default_cap")]
    pub daily_cap: i32,
}

fn default_cap() -> i32 {
    crate::game::news::push::DAILY_CAP
}

fn minutes(hhmm: &str) -> GameResult<i32> {
    let bad = || GameError::Invalid(format!("{hhmm:?} is not a time of the day HH:MM").into());
    let (h, m) = hhmm.trim().split_once(':').ok_or_else(bad)?;
    if !(1..=2).contains(&h.len())
        || m.len() != 2
        || !(h.to_owned() + m).bytes().all(|b| b.is_ascii_digit())
    {
        return Err(bad());
    }
    let (h, m): (i32, i32) = (h.parse().map_err(|_| bad())?, m.parse().map_err(|_| bad())?);
    if !(0..24).contains(&h) || !(0..60).contains(&m) || hhmm.len() > 5 {
        return Err(bad());
    }
    Ok(h * 60 + m)
}

fn hhmm(minutes: i32) -> String {
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

impl PushSettingsView {
    pub fn parse(self) -> GameResult<Settings> {
        let (quiet_from, quiet_to) = match &self.quiet_hours {
            Some(q) => (Some(minutes(&q.from)?), Some(minutes(&q.to)?)),
            None => (None, None),
        };
        Settings {
            full_ap: self.reminders.full_ap,
            turn_unspent: self.reminders.turn_unspent,
            section_lost: self.reminders.section_lost,
            board: self.reminders.board,
            quiet_from,
            quiet_to,
            utc_offset: self.utc_offset,
            daily_cap: self.daily_cap,
        }
        .checked()
    }
}

impl From<Settings> for PushSettingsView {
    fn from(s: Settings) -> PushSettingsView {
        PushSettingsView {
            reminders: Reminders {
                full_ap: s.full_ap,
                turn_unspent: s.turn_unspent,
                section_lost: s.section_lost,
                board: s.board,
            },
            quiet_hours: match (s.quiet_from, s.quiet_to) {
                (Some(f), Some(t)) => Some(QuietHours {
                    from: hhmm(f),
                    to: hhmm(t),
                }),
                _ => None,
            },
            utc_offset: s.utc_offset,
            daily_cap: s.daily_cap,
        }
    }
}
