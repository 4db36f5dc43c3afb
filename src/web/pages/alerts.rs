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
