//! `/account`: the player's API tokens, created (shown once) and revoked here, and the
//! password.

use super::{page, see_other};
use crate::game::{accounts, accounts::sessions, accounts::tokens, GameError};
use crate::ids::TokenId;
use crate::said::Said;
use crate::web::auth::{session_cookie, Viewer};
use crate::web::error::PageError;
use crate::web::form_post::SignedPost;
use crate::web::AppState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct NewToken {
    pub csrf: Option<String>,
    #[serde(default)]
    pub name: String,
}

#[derive(Deserialize)]
pub struct CsrfOnly {
    pub csrf: Option<String>,
}

#[derive(Deserialize)]
pub struct PasswordForm {
    pub csrf: Option<String>,
    #[serde(default)]
    pub current: String,
    #[serde(default)]
    pub new: String,
}

/// What the page says after a form: a new token, or how the password change went.
#[derive(Default)]
struct Notice {
    created: Option<String>,
    flash: Option<String>,
    error: Option<String>,
    mail_saved: bool,
    push_saved: bool,
    away_saved: bool,
}

async fn show(
    state: &AppState,
    viewer: &Viewer,
    notice: Notice,
) -> Result<HttpResponse, PageError> {
    let actor = viewer.require()?;
    let (list, push) = state
        .db(move |conn| {
            let list = tokens::list(conn, actor.user_id)?;
            let push = crate::game::news::push::settings(conn, actor.user_id)?;
            Ok::<_, crate::game::GameError>((list, push))
        })
        .await?;
    let user = viewer.session.as_ref().map(|s| &s.user);
    Ok(page(state, viewer, "account.html", |ctx| {
        ctx.insert("tokens", &crate::wire::accounts::TokenList::of(list).tokens);
        ctx.insert(
            "email",
            &user.and_then(|u| u.email.clone()).unwrap_or_default(),
        );
        ctx.insert("alert_mail", &user.is_some_and(|u| u.alert_mail));
        ctx.insert("mail_saved", &notice.mail_saved);
        ctx.insert("hand_to_bot", &user.is_some_and(|u| u.hand_to_bot));
        ctx.insert("away_saved", &notice.away_saved);
        ctx.insert("away_turns", &state.config.settings.bots.away_turns);
        ctx.insert("push", &crate::wire::push::PushSettingsView::from(push));
        ctx.insert("push_saved", &notice.push_saved);
        ctx.insert(
            "unspent_minutes",
            &state.config.settings.push.unspent_minutes,
        );
        ctx.insert("mail_minutes", &state.config.settings.mail.every_minutes);
        ctx.insert("created", &notice.created);
        ctx.insert("flash", &notice.flash);
        ctx.insert("error", &notice.error);
    })?)
}

#[derive(Deserialize)]
pub struct AccountQuery {
    pub changed: Option<String>,
    pub mail: Option<String>,
    pub push: Option<String>,
    pub away: Option<String>,
}

pub async fn index(
    state: web::Data<AppState>,
    viewer: Viewer,
    q: web::Query<AccountQuery>,
) -> Result<HttpResponse, PageError> {
    let notice = Notice {
        flash: q
            .changed
            .as_ref()
            .map(|_| crate::i18n::tr(viewer.lang, "password-changed", &[])),
        mail_saved: q.mail.is_some(),
        push_saved: q.push.is_some(),
        away_saved: q.away.is_some(),
        ..Notice::default()
    };
    show(&state, &viewer, notice).await
}

/// Changes the password: the current one first, then the new one hashed (neither while a
/// database connection is held); every session of the account ends, and this browser gets a
/// fresh one.
pub async fn change_password(
    state: web::Data<AppState>,
    post: SignedPost<PasswordForm>,
) -> Result<HttpResponse, PageError> {
    let SignedPost {
        viewer,
        actor,
        form,
        ..
    } = post;
    let uid = actor.user_id;
    let user = state.db(move |conn| accounts::get(conn, uid)).await?;
    let checked = state
        .cpu(move || {
            if !accounts::password_matches(Some(&user), &form.current) {
                return Err(GameError::Unauthorized(
                    Said::new("error-current-password").into(),
                ));
            }
            accounts::check_password(&form.new)?;
            accounts::hash_password(&form.new)
        })
        .await;
    let hash = match checked {
        Ok(h) => h,
        Err(e @ (GameError::Unauthorized(_) | GameError::Invalid(_))) => {
            let notice = Notice {
                error: Some(crate::wire::refusals::say(viewer.lang, &e)),
                ..Notice::default()
            };
            let mut resp = show(&state, &viewer, notice).await?;
            *resp.status_mut() =
                StatusCode::from_u16(e.status()).unwrap_or(StatusCode::BAD_REQUEST);
            return Ok(resp);
        }
        Err(e) => return Err(e.into()),
    };
    let token = state
        .db(move |conn| {
            accounts::set_password(conn, uid, &hash)?;
            sessions::create(conn, uid)
        })
        .await?;
    Ok(HttpResponse::SeeOther()
        .cookie(session_cookie(&state, token))
        .insert_header(("Location", "/account?changed=1"))
        .finish())
}

pub async fn create_token(
    state: web::Data<AppState>,
    post: SignedPost<NewToken>,
) -> Result<HttpResponse, PageError> {
    let SignedPost {
        viewer,
        actor,
        form,
        ..
    } = post;
    let name = form.name.clone();
    let (_, secret) = state
        .db(move |conn| tokens::create(conn, actor.user_id, &name))
        .await?;
    let notice = Notice {
        created: Some(secret),
        ..Notice::default()
    };
    show(&state, &viewer, notice).await
}

pub async fn revoke_token(
    state: web::Data<AppState>,
    path: web::Path<TokenId>,
    post: SignedPost<CsrfOnly>,
) -> Result<HttpResponse, PageError> {
    let SignedPost { actor, .. } = post;
    let id = path.into_inner();
    state
        .db(move |conn| tokens::revoke(conn, actor.user_id, id))
        .await?;
    Ok(see_other("/account"))
}

crate::signed_fields!(NewToken);
crate::signed_fields!(CsrfOnly);
crate::signed_fields!(PasswordForm);
