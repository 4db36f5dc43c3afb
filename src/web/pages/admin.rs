//! `/admin/users`: admins list accounts, change roles and ban.

use super::{page, see_other};
use crate::game::accounts::{self};
use crate::game::{audit, GameError};
use crate::said::Said;
use crate::web::auth::Viewer;
use crate::web::error::PageError;
use crate::web::AppState;
use actix_web::{web, HttpResponse};
use serde::Deserialize;
use serde_json::json;

pub async fn users(state: web::Data<AppState>, viewer: Viewer) -> Result<HttpResponse, PageError> {
    let actor = viewer.require()?;
    actor.require_admin()?;
    let list = state.db(accounts::list_users).await?;
    let rows: Vec<_> = list
        .iter()
        .map(|u| json!({"id": u.id, "username": u.username, "role": u.role, "banned": u.banned}))
        .collect();
    Ok(page(&state, &viewer, "admin_users.html", |ctx| {
        ctx.insert("users", &rows)
    })?)
}

#[derive(Deserialize)]
pub struct UserChange {
    pub csrf: Option<String>,
    pub role: Option<String>,
    pub banned: Option<String>,
}

pub async fn update_user(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<i32>,
    form: web::Form<UserChange>,
) -> Result<HttpResponse, PageError> {
    let actor = viewer.require()?;
    actor.require_admin()?;
    viewer.check_csrf(form.csrf.as_deref())?;
    let role = form
        .role
        .as_deref()
        .filter(|r| !r.is_empty())
        .map(accounts::parse_role)
        .transpose()?;
    let banned = match form.banned.as_deref() {
        None | Some("") => None,
        Some("yes") | Some("true") | Some("1") => Some(true),
        Some("no") | Some("false") | Some("0") => Some(false),
        Some(other) => {
            return Err(GameError::Invalid(
                Said::new("error-yes-no")
                    .s("what", "banned")
                    .s("value", other)
                    .into(),
            )
            .into())
        }
    };
    let id = path.into_inner();
    state
        .db(move |conn| {
            crate::db::write(conn, |conn| {
                let (before, after) =
                    accounts::set_role_and_ban(conn, actor.user_id, id, role, banned)?;
                audit::record(
                    conn,
                    audit::Entry {
                        user_id: actor.user_id,
                        action: "user".into(),
                        target: format!("user {}", after.username),
                        before: Some(json!({"role": before.role, "banned": before.banned})),
                        after: Some(json!({"role": after.role, "banned": after.banned})),
                        ..Default::default()
                    },
                )
            })
        })
        .await?;
    Ok(see_other("/admin/users"))
}
