//! Alerts by e-mail: one mail per player and period with every alert not seen yet, sent through
//! the SMTP server of `[mail]`, each with a one-click unsubscribe link (and the
//! `List-Unsubscribe` headers mail clients show as a button).

use crate::config::{Config, MailSettings};
use crate::db::DbConnection;
use crate::game::news::alerts::{self, Mail};
use crate::game::GameResult;
use crate::i18n::{tr, Lang};
use fluent_bundle::FluentValue;
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::Mailbox;
use lettre::transport::smtp::authentication::Credentials;
use lettre::{Message, SmtpTransport, Transport};
use std::time::Duration;

/// The SMTP transport of the settings, or None when no host is set (mail is off).
pub fn transport(s: &MailSettings) -> Option<SmtpTransport> {
    if s.smtp_host.is_empty() {
        return None;
    }
    let builder = match s.tls.as_str() {
        "tls" => SmtpTransport::relay(&s.smtp_host).ok()?,
        "starttls" => SmtpTransport::starttls_relay(&s.smtp_host).ok()?,
        _ => SmtpTransport::builder_dangerous(&s.smtp_host),
    };
    let mut builder = builder
        .port(s.smtp_port)
        .timeout(Some(Duration::from_secs(20)));
    if !s.username.is_empty() {
        builder = builder.credentials(Credentials::new(s.username.clone(), s.password.clone()));
    }
    Some(builder.build())
}

/// The mail of a batch of alerts.
pub fn compose(s: &MailSettings, public_url: &str, m: &Mail) -> Result<Message, String> {
    let from: Mailbox = s.from.parse().map_err(|e| format!("mail.from: {e}"))?;
    let to: Mailbox = m.to.parse().map_err(|e| format!("{}: {e}", m.to))?;
    let base = public_url.trim_end_matches('/');
    let unsubscribe = format!("{base}/unsubscribe/{}", m.unsubscribe_token);
    let lang = m.lang.as_deref().and_then(Lang::parse).unwrap_or_default();
    let say = |key: &str, args: &[(&str, FluentValue)]| tr(lang, key, args);
    let mut body = say("mail-greeting", &[("name", m.username.clone().into())]);
    body.push_str("\n\n");
    for (_, summary) in &m.alerts {
        body.push_str("- ");
        body.push_str(summary);
        body.push('\n');
    }
    body.push('\n');
    body.push_str(&say("mail-worlds", &[("url", format!("{base}/").into())]));
    body.push_str("\n\n");
    body.push_str(&say("mail-stop", &[("url", unsubscribe.clone().into())]));
    body.push('\n');
    let subject = say("mail-subject", &[("n", (m.alerts.len() as i64).into())]);
    let mut msg = Message::builder()
        .from(from)
        .to(to)
        .subject(subject)
        .header(ContentType::TEXT_PLAIN);
    for (name, value) in [
        ("List-Unsubscribe", format!("<{unsubscribe}>")),
        (
            "List-Unsubscribe-Post",
            "List-Unsubscribe=One-Click".to_string(),
        ),
    ] {
        msg = msg.raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str(name),
            value,
        ));
    }
    msg.body(body).map_err(|e| e.to_string())
}

/// Sends the mails due at `now`; returns how many went. A mail that fails goes back to wait
/// for the next round, its alerts with it.
pub fn send_due(
    conn: &mut DbConnection,
    config: &Config,
    transport: &SmtpTransport,
    now: i64,
) -> GameResult<usize> {
    let s = &config.settings.mail;
    let mut sent = 0;
    for m in alerts::claim_mails(conn, now, s.every_minutes * 60)? {
        let result = compose(s, &config.settings.server.public_url, &m)
            .and_then(|msg| transport.send(&msg).map_err(|e| e.to_string()));
        match result {
            Ok(_) => sent += 1,
            Err(e) => {
                tracing::warn!(user = m.user_id.0, error = %e, "alert mail not sent");
                alerts::unclaim(conn, &m)?;
            }
        }
    }
    Ok(sent)
}
