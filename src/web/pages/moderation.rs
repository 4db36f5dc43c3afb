//! `/gm/worlds/{w}/moderation`: the open reports of a world's messages, and what a game master
//! does with them (remove the message, mute its author, dismiss the report).

use super::forms::submit;
use super::page;
use crate::game::maps::worlds;
use crate::game::talk::moderation;
use crate::game::GameError;
use crate::ids::{MessageId, ReportId, WorldId};
use crate::said::Said;
use crate::web::auth::Viewer;
use crate::web::error::PageError;
use crate::web::form_post::SignedPost;
use crate::web::AppState;
use crate::wire::talk::OpenReport;
use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};

/// A report as the queue shows it: the message's body made HTML (escaped, links).
#[derive(Serialize)]
struct Shown {
    #[serde(flatten)]
    report: OpenReport,
    html: String,
}

#[derive(Serialize)]
struct WorldRef {
    id: WorldId,
    name: String,
}

pub async fn index(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<WorldId>,
) -> Result<HttpResponse, PageError> {
    let actor = viewer.require()?;
    actor.require_gm()?;
    let wid = path.into_inner();
    let (w, reports) = state
        .db(move |conn| {
            let w = worlds::get(conn, wid)?;
            Ok((w, moderation::open_reports(conn, &actor, wid)?))
        })
        .await?;
    let shown: Vec<Shown> = reports
        .into_iter()
        .map(OpenReport::from)
        .map(|r| Shown {
            html: crate::web::render::text::message_html(&r.body),
            report: r,
        })
        .collect();
    Ok(page(&state, &viewer, "gm_moderation.html", |ctx| {
        ctx.insert(
            "world",
            &WorldRef {
                id: w.id,
                name: w.name.clone(),
            },
        );
        ctx.insert("reports", &shown);
        ctx.insert("max_hours", &state.config.settings.talk.max_mute_hours);
    })?)
}

#[derive(Deserialize)]
pub struct ModerationForm {
    pub csrf: Option<String>,
    /// `remove`, `mute` or `dismiss`.
    pub action: Option<String>,
    pub report: Option<ReportId>,
    pub message: Option<MessageId>,
    pub player: Option<String>,
    pub hours: Option<String>,
}
crate::signed_fields!(ModerationForm);

pub async fn act(
    state: web::Data<AppState>,
    path: web::Path<WorldId>,
    post: SignedPost<ModerationForm>,
) -> Result<HttpResponse, PageError> {
    let wid = path.into_inner();
    let back = format!("/gm/worlds/{wid}/moderation");
    submit(&state, post, back, move |conn, st, actor, f| {
        let invalid = || GameError::Invalid(Said::new("error-moderation-form").into());
        match (f.action.as_deref(), f.report, f.message) {
            (Some("remove"), _, Some(m)) => moderation::remove_message(conn, actor, m).map(|_| ()),
            (Some("dismiss"), Some(r), _) => moderation::dismiss(conn, actor, wid, r),
            (Some("mute"), _, _) => {
                let hours = f.hours.as_deref().map(str::trim).map(str::parse::<i64>);
                let (Some(Ok(hours)), Some(name)) = (hours, f.player) else {
                    return Err(invalid());
                };
                let max = st.config.settings.talk.max_mute_hours;
                moderation::mute(conn, actor, wid, &name, hours, max).map(|_| ())
            }
            _ => Err(invalid()),
        }
    })
    .await
}
