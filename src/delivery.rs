//! Sends what the outbox holds (`game::news::webhooks`): a thread of each server process
//! claims the deliveries due, posts each to its webhook through `outgoing` (public addresses
//! only), and records how it went. Failures are tried again later (429 after its
//! `Retry-After`, 5xx and timeouts with a growing wait), a refusal for good (another 4xx) is not.

use crate::config::Config;
use crate::db::Pool;
use crate::game::news::webhooks::{self, Due, Next};
use crate::i18n::Lang;
use crate::outgoing::{Outgoing, SendError};
use crate::wire::push::WebhookMessage;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Deliveries claimed at once.
const BATCH: i64 = 50;

/// Stops the delivery thread when dropped or asked.
pub struct DeliveryHandle {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl DeliveryHandle {
    pub fn stop(mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Starts the delivery thread.
pub fn start(pool: Pool, config: Arc<Config>) -> DeliveryHandle {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let thread = std::thread::Builder::new()
        .name("delivery".into())
        .spawn(move || {
            let out = Outgoing::new(&config.settings.push);
            let poll = Duration::from_millis(config.settings.push.poll_ms.max(10));
            while !flag.load(Ordering::SeqCst) {
                let sent = match pool.get() {
                    Ok(mut conn) => match deliver_due(&mut conn, &config, &out, crate::db::now()) {
                        Ok(n) => n,
                        Err(e) => {
                            tracing::error!(error = %e, "deliveries failed");
                            0
                        }
                    },
                    Err(e) => {
                        tracing::error!(error = %e, "delivery: no database connection");
                        0
                    }
                };
                if sent == 0 {
                    std::thread::sleep(poll);
                }
            }
        })
        .ok();
    DeliveryHandle { stop, thread }
}

/// Sends the deliveries due at `now`; returns how many were claimed.
pub fn deliver_due(
    conn: &mut crate::db::DbConnection,
    config: &Config,
    out: &Outgoing,
    now: i64,
) -> crate::game::GameResult<usize> {
    let s = &config.settings.push;
    let lease = (s.timeout_seconds as i64 + 5) * 2;
    let due = webhooks::claim(conn, now, lease, BATCH)?;
    for d in &due {
        let body = message(config, d);
        let body = serde_json::to_vec(&body).unwrap_or_default();
        let headers = [("X-Grognard-Delivery", d.key.clone())];
        match out.post(&d.url, &headers, &body) {
            Ok(a) if (200..300).contains(&a.status) => webhooks::delivered(conn, d)?,
            Ok(a) => {
                let next = match a.status {
                    429 => Next::RetryAt(
                        crate::db::now() + a.retry_after.unwrap_or(60).clamp(1, 3600) as i64,
                    ),
                    500..=599 => retry(d, s.attempts),
                    _ => Next::GiveUp,
                };
                let off = webhooks::failed(
                    conn,
                    d,
                    &format!("answered {}", a.status),
                    next,
                    s.webhook_failures,
                )?;
                if off {
                    tracing::info!(
                        webhook = d.webhook.0,
                        "a webhook failing again and again was turned off"
                    );
                }
            }
            Err(SendError::NotPublic(e)) => {
                webhooks::failed(conn, d, &e, Next::GiveUp, s.webhook_failures)?;
            }
            Err(e @ (SendError::Failed(_) | SendError::Busy)) => {
                let e = e.to_string();
                webhooks::failed(conn, d, &e, retry(d, s.attempts), s.webhook_failures)?;
            }
        }
    }
    Ok(due.len())
}

/// The next try: 30 s, 1, 2, 4 … minutes after this one, up to `attempts` in all.
fn retry(d: &Due, attempts: i32) -> Next {
    if d.attempts + 1 >= attempts {
        return Next::GiveUp;
    }
    Next::RetryAt(crate::db::now() + (30i64 << d.attempts.clamp(0, 10)).min(3600))
}

/// What a webhook is sent: the alert in its player's language, with where to read it.
pub fn message(config: &Config, d: &Due) -> WebhookMessage {
    let lang = d.lang.as_deref().and_then(Lang::parse).unwrap_or_default();
    let said = crate::said::stored(lang, &d.said, &d.summary);
    let base = config.settings.server.public_url.trim_end_matches('/');
    let link = match (d.kind.as_str(), d.event) {
        (crate::game::news::alerts::MESSAGE, _) => format!("{base}/worlds/{}/messages", d.world.0),
        (_, Some(e)) => format!("{base}/worlds/{}/reports#report-{}", d.world.0, e.0),
        _ => format!("{base}/worlds/{}", d.world.0),
    };
    let text = format!("{said}\n{link}");
    WebhookMessage {
        content: text.clone(),
        text,
        kind: d.kind.clone(),
        world: d.world,
        url: link,
    }
}
