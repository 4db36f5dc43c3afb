//! `/alerts`: what happened while the player was away (seeing the list marks it read); the
//! account's choice of alerts by mail; and the one-click way out of those mails.

use super::{page, see_other};
use crate::game::{news::alerts, GameError};
use crate::said::Said;
use crate::web::auth::Viewer;
use crate::web::error::PageError;
use crate::web::form_post::SignedPost;
use crate::web::AppState;
use actix_web::{web, HttpResponse};
use serde::Deserialize;

pub async fn index(state: web::Data<AppState>, viewer: Viewer) -> Result<HttpResponse, PageError> {
    let actor = viewer.require()?;
    let list = state
        .db(move |conn| alerts::seen(conn, actor.user_id, 100))
        .await?;
    Ok(page(&state, &viewer, "alerts.html", |ctx| {
        let list: Vec<_> = list
            .iter()
            .map(|a| crate::wire::views::AlertView::of(a, viewer.lang))
            .collect();
        ctx.insert("alerts", &list);
        // The badge of this very page counts what the list now shows as read.
        if let Some(v) = ctx.get("viewer").cloned() {
            let mut v = v;
            v["alerts"] = 0.into();
            ctx.insert("viewer", &v);
        }
    })?)
}

#[derive(Deserialize)]
pub struct MailForm {
    pub csrf: Option<String>,
    pub email: Option<String>,
    /// A ticked box sends `on`.
    pub mail: Option<String>,
}

/// Where and whether the player gets alerts by mail.
pub async fn set_mail(
    state: web::Data<AppState>,
    post: SignedPost<MailForm>,
) -> Result<HttpResponse, PageError> {
    let SignedPost {
        viewer,
        actor,
        form,
        ..
    } = post;
    let email = form
        .email
        .as_deref()
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .map(str::to_string);
    let on = form.mail.is_some();
    if let Some(e) = &email {
        if e.len() > 254 || e.parse::<lettre::message::Mailbox>().is_err() || !e.contains('@') {
            let err = GameError::Invalid(
                Said::new("error-not-address")
                    .s("address", e.as_str())
                    .into(),
            );
            return super::forms::refused_page(&state, &viewer, &err, Some("/account"));
        }
    }
    if on && email.is_none() {
        let err = GameError::Invalid(Said::new("error-no-address").into());
        return super::forms::refused_page(&state, &viewer, &err, Some("/account"));
    }
    state
        .db(move |conn| alerts::set_mail(conn, actor.user_id, email, on))
        .await?;
    Ok(see_other("/account?mail=1"))
}

#[derive(Deserialize)]
pub struct AwayForm {
    pub csrf: Option<String>,
    /// A ticked box sends `on`.
    pub hand: Option<String>,
}

/// Whether the nation's bot holds the player's companies while they are away (docs/rules.md
/// §14).
pub async fn set_away(
    state: web::Data<AppState>,
    post: SignedPost<AwayForm>,
) -> Result<HttpResponse, PageError> {
    let SignedPost { actor, form, .. } = post;
    let on = match form.hand.as_deref() {
        None => false,
        Some("on") => true,
        Some(other) => {
            let err = GameError::Invalid(format!("`hand` is `on` or absent, not `{other}`").into());
            return super::forms::refused_page(&state, &post.viewer, &err, Some("/account"));
        }
    };
    state
        .db(move |conn| crate::game::bots::set_hand_to_bot(conn, actor.user_id, on))
        .await?;
    Ok(see_other("/account?away=1#away"))
}

#[derive(Deserialize)]
pub struct PushForm {
    pub csrf: Option<String>,
    /// Ticked boxes send `on`.
    pub full_ap: Option<String>,
    pub turn_unspent: Option<String>,
    pub section_lost: Option<String>,
    pub board: Option<String>,
    /// `HH:MM`, both or neither.
    pub quiet_from: Option<String>,
    pub quiet_to: Option<String>,
    /// Minutes east of UTC, as the page's script reads the browser's time zone.
    pub utc_offset: Option<String>,
    pub daily_cap: Option<String>,
}

impl PushForm {
    /// The form as the API's settings, read by the same checks.
    fn settings(self) -> Result<crate::wire::push::PushSettingsView, GameError> {
        use crate::wire::push::{PushSettingsView, QuietHours, Reminders};
        let given = |v: Option<String>| v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
        let number = |v: Option<String>, default: i32, what: &str| match given(v) {
            None => Ok(default),
            Some(s) => s
                .parse::<i32>()
                .map_err(|_| GameError::Invalid(format!("{what} is a whole number").into())),
        };
        let quiet_hours = match (given(self.quiet_from), given(self.quiet_to)) {
            (None, None) => None,
            (from, to) => Some(QuietHours {
                from: from.unwrap_or_default(),
                to: to.unwrap_or_default(),
            }),
        };
        Ok(PushSettingsView {
            reminders: Reminders {
                full_ap: self.full_ap.is_some(),
                turn_unspent: self.turn_unspent.is_some(),
                section_lost: self.section_lost.is_some(),
                board: self.board.is_some(),
            },
            quiet_hours,
            utc_offset: number(self.utc_offset, 0, "utc_offset")?,
            daily_cap: number(
                self.daily_cap,
                crate::game::news::push::DAILY_CAP,
                "daily_cap",
            )?,
        })
    }
}

/// The player's reminders, quiet hours and daily cap of notifications (as
/// `PUT /api/v1/push/settings`).
pub async fn set_push(
    state: web::Data<AppState>,
    post: SignedPost<PushForm>,
) -> Result<HttpResponse, PageError> {
    let SignedPost {
        viewer,
        actor,
        form,
        ..
    } = post;
    let chosen = match form.settings().and_then(|s| s.parse()) {
        Ok(s) => s,
        Err(err) => return super::forms::refused_page(&state, &viewer, &err, Some("/account")),
    };
    state
        .db(move |conn| crate::game::news::push::set_settings(conn, actor.user_id, chosen))
        .await?;
    Ok(see_other("/account?push=1#reminders"))
}

/// The link of every alert mail: one click and no more mail (also what mail clients post for
/// `List-Unsubscribe-Post`). The token is the only credential: no session, no CSRF token.
pub async fn unsubscribe(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
) -> Result<HttpResponse, PageError> {
    let token = path.into_inner();
    let done = state
        .db(move |conn| alerts::unsubscribe(conn, &token))
        .await?;
    Ok(page(&state, &viewer, "unsubscribed.html", |ctx| {
        ctx.insert("done", &done);
    })?)
}
crate::signed_fields!(MailForm);
crate::signed_fields!(PushForm);
crate::signed_fields!(AwayForm);
