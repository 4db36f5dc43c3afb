//! `/admin/users`: admins list accounts, change roles and ban.

use super::{page, see_other};
use crate::game::accounts::{self, Role};
use crate::game::{gm::audit, GameError};
use crate::ids::UserId;
use crate::said::Said;
use crate::web::auth::Viewer;
use crate::web::error::PageError;
use crate::web::form_post::SignedPost;
use crate::web::AppState;
use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};

pub async fn users(state: web::Data<AppState>, viewer: Viewer) -> Result<HttpResponse, PageError> {
    let actor = viewer.require()?;
    actor.require_admin()?;
    let list = state.db(accounts::list_users).await?;
    let rows: Vec<_> = list
        .iter()
        .map(|u| UserRow {
            id: u.id,
            username: u.username.clone(),
            standing: Standing {
                role: u.role,
                banned: u.banned,
            },
        })
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
    path: web::Path<UserId>,
    post: SignedPost<UserChange>,
) -> Result<HttpResponse, PageError> {
    let SignedPost { actor, form, .. } = post;
    actor.require_admin()?;
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
                        before: serde_json::to_value(Standing::of(&before)).ok(),
                        after: serde_json::to_value(Standing::of(&after)).ok(),
                        ..Default::default()
                    },
                )
            })
        })
        .await?;
    Ok(see_other("/admin/users"))
}
crate::signed_fields!(UserChange);

/// What an admin changes of a user, as the users page shows it and the audit log records it.
#[derive(Serialize)]
struct Standing {
    role: Role,
    banned: bool,
}

impl Standing {
    fn of(u: &crate::db::models::User) -> Standing {
        Standing {
            role: u.role,
            banned: u.banned,
        }
    }
}

#[derive(Serialize)]
struct UserRow {
    id: UserId,
    username: String,
    #[serde(flatten)]
    standing: Standing,
}
