//! Sends what the outbox holds (`game::news::outbox`): a thread of each server process claims
//! the deliveries due, posts each to its webhook or, encrypted, to its browser's push service
//! through `outgoing` (public addresses only), and records how it went.

use crate::config::Config;
use crate::db::Pool;
use crate::game::news::outbox::{self, Due, Failed, Next, Target};
use crate::game::news::push;
use crate::i18n::Lang;
use crate::outgoing::{Answer, Outgoing, SendError};
use crate::wire::push::{PushMessage, WebhookMessage};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::Duration;

/// Deliveries claimed at once.
const BATCH: i64 = 50;

/// Stops the delivery threads when asked.
pub struct DeliveryHandle {
    stop: Arc<AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl DeliveryHandle {
    pub fn stop(self) {
        self.stop.store(true, Ordering::SeqCst);
        for t in self.threads {
            let _ = t.join();
        }
    }
}

/// Starts `[push] senders` delivery threads. Each claims its own deliveries, so they share the
/// outbox as processes do; a push costs three P-256 operations' worth of CPU, so more threads
/// send more on more cores.
pub fn start(pool: Pool, config: Arc<Config>) -> DeliveryHandle {
    let stop = Arc::new(AtomicBool::new(false));
    let threads = (0..config.settings.push.senders.max(1))
        .filter_map(|i| {
            let (pool, config, flag) = (pool.clone(), config.clone(), stop.clone());
            std::thread::Builder::new()
                .name(format!("delivery-{i}"))
                .spawn(move || deliver_until(&pool, &config, &flag))
                .ok()
        })
        .collect();
    DeliveryHandle { stop, threads }
}

/// One delivery thread's work until `stop`: what is due, or a nap of `poll_ms` when nothing is.
fn deliver_until(pool: &Pool, config: &Config, stop: &AtomicBool) {
    lower_priority();
    let out = Outgoing::new(&config.settings.push);
    let poll = Duration::from_millis(config.settings.push.poll_ms.max(10));
    while !stop.load(Ordering::SeqCst) {
        let sent = match pool.get() {
            Ok(mut conn) => match deliver_due(&mut conn, config, &out, crate::db::now()) {
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
    let due = outbox::claim(conn, now, lease, BATCH)?;
    let vapid = match due
        .iter()
        .any(|d| matches!(d.target, Target::Browser { .. }))
    {
        true => Some(push::vapid_key(conn)?),
        false => None,
    };
    // Targets dropped by an answer in this batch: what else it holds for them is not sent.
    let mut dropped = std::collections::HashSet::new();
    // The claim ends at `now + lease`: a send that could outlast it is left to whoever takes
    // the delivery next, so that no two threads ever send it at once.
    let last_start = now + lease - s.timeout_seconds as i64 - 1;
    for d in &due {
        if crate::db::now() > last_start {
            break;
        }
        if dropped.contains(&d.target.key()) {
            continue;
        }
        // A browser that moved to another account since: not this alert's reader any more.
        if matches!(&d.target, Target::Browser { owner, .. } if *owner != d.user) {
            outbox::dropped(conn, d)?;
            continue;
        }
        // The turn near, or the points it would waste, told after the turn: worth nothing.
        if is_turn_kind(&d.kind) && d.at <= now {
            outbox::dropped(conn, d)?;
            continue;
        }
        let sent = match (&d.target, &vapid) {
            (Target::Webhook { url, .. }, _) => {
                let body = serde_json::to_vec(&message(config, d)).unwrap_or_default();
                let headers = [("X-Grognard-Delivery", d.key.clone())];
                out.post(url, "application/json", &headers, &body)
            }
            (Target::Browser { endpoint, .. }, Some(vapid)) => {
                match push_request(config, vapid, d, now) {
                    Some((headers, body)) => {
                        out.post(endpoint, "application/octet-stream", &headers, &body)
                    }
                    None => Err(SendError::NotPublic(
                        "the subscription's keys or endpoint do not read".into(),
                    )),
                }
            }
            (Target::Browser { .. }, None) => Err(SendError::Failed("no VAPID key".into())),
        };
        if settle(conn, s, d, sent)? {
            dropped.insert(d.target.key());
        }
    }
    Ok(due.len())
}

/// Records how a delivery went: done; the subscription gone (404, 410 from a push service);
/// tried again later (429 after its `Retry-After`, 5xx and failures to connect with a growing
/// wait); or given up (another answer, an address that is not public). Returns whether the
/// target is gone (a subscription deleted, a webhook turned off).
fn settle(
    conn: &mut crate::db::DbConnection,
    s: &crate::config::PushSettings,
    d: &Due,
    sent: Result<Answer, SendError>,
) -> crate::game::GameResult<bool> {
    let browser = matches!(d.target, Target::Browser { .. });
    let (error, next, lasting) = match sent {
        Ok(a) if (200..300).contains(&a.status) => {
            outbox::delivered(conn, d)?;
            return Ok(false);
        }
        Ok(a) if matches!(d.target, Target::Browser { .. }) && matches!(a.status, 404 | 410) => {
            outbox::gone(conn, d)?;
            return Ok(true);
        }
        Ok(a) => {
            let (next, lasting) = match a.status {
                429 => (
                    Next::RetryAt(
                        crate::db::now() + a.retry_after.unwrap_or(60).clamp(1, 3600) as i64,
                    ),
                    false,
                ),
                500..=599 => (retry(d, s.attempts), false),
                _ => (Next::GiveUp, true),
            };
            (format!("answered {}", a.status), next, lasting)
        }
        Err(SendError::NotPublic(e)) => (e, Next::GiveUp, true),
        Err(e @ (SendError::Failed(_) | SendError::Busy)) => {
            (e.to_string(), retry(d, s.attempts), false)
        }
    };
    // A webhook counts every failure in a row; a browser only a push service's refusal.
    let lasting = lasting || !browser;
    Ok(
        match outbox::failed(conn, d, &error, (next, lasting), s.webhook_failures)? {
            Failed::Counted => false,
            Failed::WebhookOff => {
                tracing::info!("a webhook failing again and again was turned off");
                true
            }
            Failed::BrowserDropped => {
                tracing::info!("a browser's subscription failing again and again was dropped");
                true
            }
        },
    )
}

/// The next try: 30 s, 1, 2, 4 … minutes after this one, up to `attempts` in all.
fn retry(d: &Due, attempts: i32) -> Next {
    if d.attempts + 1 >= attempts {
        return Next::GiveUp;
    }
    Next::RetryAt(crate::db::now() + (30i64 << d.attempts.clamp(0, 10)).min(3600))
}

/// Where to read more of an alert: its report, the conversation, or the world.
fn link(config: &Config, d: &Due) -> String {
    let base = config.settings.server.public_url.trim_end_matches('/');
    match (d.kind.as_str(), d.event) {
        (crate::game::news::alerts::MESSAGE | crate::game::news::alerts::BOARD, _) => {
            format!("{base}/worlds/{}/messages", d.world.0)
        }
        (_, Some(e)) => format!("{base}/worlds/{}/reports#report-{}", d.world.0, e.0),
        _ => format!("{base}/worlds/{}", d.world.0),
    }
}

fn said(d: &Due) -> (Lang, String) {
    let lang = d.lang.as_deref().and_then(Lang::parse).unwrap_or_default();
    (lang, crate::said::stored(lang, &d.said, &d.summary))
}

/// What a webhook is sent: the alert in its player's language, with where to read it.
pub fn message(config: &Config, d: &Due) -> WebhookMessage {
    let (_, said) = said(d);
    let url = link(config, d);
    let text = format!("{said}\n{url}");
    WebhookMessage {
        content: text.clone(),
        text,
        kind: d.kind.clone(),
        world: d.world,
        url,
    }
}

/// What a browser is shown (before encryption): the alert in its player's language, where a
/// tap leads, and a tag under which a newer push of the same kind and world replaces it.
pub fn push_message(config: &Config, d: &Due) -> PushMessage {
    let (lang, said) = said(d);
    // Far within a push's 3,993 bytes, so that the JSON is never cut.
    let mut body: String = said.chars().take(1000).collect();
    if d.last_of_day {
        body.push('\n');
        body.push_str(&crate::i18n::tr(lang, "push-daily-cap", &[]));
    }
    PushMessage {
        title: "Grognard".into(),
        body,
        url: link(config, d),
        kind: d.kind.clone(),
        world: d.world,
        tag: format!("{}-{}", d.kind, d.world.0),
    }
}

type Headers = Vec<(&'static str, String)>;

/// A push's headers and encrypted body (RFC 8030 §5, RFC 8291, RFC 8292), or None when the
/// subscription's keys do not read.
fn push_request(
    config: &Config,
    vapid: &crate::webpush::VapidKey,
    d: &Due,
    now: i64,
) -> Option<(Headers, Vec<u8>)> {
    let Target::Browser {
        endpoint,
        p256dh,
        auth,
        ..
    } = &d.target
    else {
        return None;
    };
    let s = &config.settings.push;
    let keys = crate::webpush::SubscriptionKeys::parse(p256dh, auth).ok()?;
    let text = serde_json::to_vec(&push_message(config, d)).ok()?;
    let body = crate::webpush::encrypt(&keys, &text)?;
    let subject = subject(config);
    let authorization = signed(vapid, endpoint, &subject)?;
    use crate::game::news::alerts::{ATTACKED, LOST_GROUND, TURN_SOON};
    let until_turn = (d.at - now).max(1) as u64;
    let (ttl, urgency) = match d.kind.as_str() {
        // Worth nothing once the turn has come.
        k if is_turn_kind(k) => (s.ttl_seconds.min(until_turn), "high"),
        ATTACKED | LOST_GROUND => (s.ttl_seconds, "high"),
        _ => (s.ttl_seconds, "normal"),
    };
    let mut headers = vec![
        ("Content-Encoding", "aes128gcm".to_string()),
        ("Authorization", authorization),
        ("TTL", ttl.to_string()),
        ("Urgency", urgency.to_string()),
    ];
    if is_turn_kind(&d.kind) {
        // A push service keeps one push of a topic: the newest turn's.
        let topic = if d.kind == TURN_SOON {
            "turn"
        } else {
            "unspent"
        };
        headers.push(("Topic", format!("{topic}-{}", d.world.0)));
    }
    Some((headers, body))
}

/// The `Authorization` header for a push to `endpoint`: a JWT of 12 hours (RFC 8292 allows
/// 24), signed once per push service and key and used for half its life. Signing is one of
/// the three P-256 operations a push costs; every push to one service shares it.
fn signed(vapid: &crate::webpush::VapidKey, endpoint: &str, subject: &str) -> Option<String> {
    type Signed = HashMap<(String, String, String), (String, i64)>;
    static SIGNED: LazyLock<Mutex<Signed>> = LazyLock::new(Default::default);
    let now = crate::db::now();
    let key = (
        vapid.public_base64(),
        crate::webpush::audience(endpoint)?,
        subject.to_string(),
    );
    let mut signed = SIGNED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((header, expires)) = signed.get(&key) {
        if expires - now > 6 * 3600 {
            return Some(header.clone());
        }
    }
    let expires = now + 12 * 3600;
    let header = vapid.authorization(endpoint, subject, expires)?;
    // Services are few; a key rotated leaves its old entries, which this clears.
    if signed.len() > 1000 {
        signed.clear();
    }
    signed.insert(key, (header.clone(), expires));
    Some(header)
}

/// Gives the calling thread a lower CPU priority (nice 10): a push is mostly its encryption,
/// and thousands of them after a turn should take the cores only when turns, orders and pages
/// leave them. Measured by `benches/push.rs`: a turn beside two busy delivery threads took
/// 1.8 times as long on PostgreSQL without this.
fn lower_priority() {
    // SAFETY: `gettid` and `setpriority` take and return plain integers; on Linux the nice
    // value belongs to the thread named, here the caller. A failure leaves the priority as it
    // was, which is harmless.
    #[cfg(target_os = "linux")]
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, tid, 10);
    }
}

/// The alerts about a turn to come, useless once it has: their alert's instant is the turn's.
fn is_turn_kind(kind: &str) -> bool {
    use crate::game::news::alerts::{TURN_SOON, TURN_UNSPENT};
    kind == TURN_SOON || kind == TURN_UNSPENT
}

/// Who runs the server, as push services are told (RFC 8292 asks for a `mailto:` or `https:`
/// address, and some services refuse anything else): `[push] subject`, else the public URL
/// when it is `https`, else the address the mails come from.
fn subject(config: &Config) -> String {
    let given = config.settings.push.subject.trim();
    if !given.is_empty() {
        return given.to_string();
    }
    let url = config.settings.server.public_url.trim();
    if url.starts_with("https://") {
        return url.to_string();
    }
    let from = config.settings.mail.from.as_str();
    let address = from
        .rsplit_once('<')
        .map_or(from, |(_, a)| a.trim_end_matches('>'))
        .trim();
    format!("mailto:{address}")
}
