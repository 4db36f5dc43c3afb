//! The game master's world controls on the pages: run a tick, pause or resume, set the season.

use super::see_other;
use crate::game::{gm, GameError};
use crate::web::auth::Viewer;
use crate::web::error::PageError;
use crate::web::AppState;
use actix_web::{web, HttpResponse};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct ControlForm {
    pub csrf: Option<String>,
    pub kind: Option<String>,
    pub paused: Option<String>,
    pub season: Option<String>,
    pub back: Option<String>,
}

fn back_to(form: &ControlForm, wid: i32) -> String {
    form.back
        .as_deref()
        .filter(|b| b.starts_with('/') && !b.starts_with("//"))
        .map(str::to_string)
        .unwrap_or_else(|| format!("/gm/worlds/{wid}"))
}

pub async fn control(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<i32>,
    form: web::Form<ControlForm>,
) -> Result<HttpResponse, PageError> {
    let actor = viewer.require()?;
    actor.require_gm()?;
    viewer.check_csrf(form.csrf.as_deref())?;
    let wid = path.into_inner();
    let back = back_to(&form, wid);
    let (kind, paused, season) = (form.kind.clone(), form.paused.clone(), form.season.clone());
    let st = state.clone();
    state
        .db(move |conn| {
            if let Some(k) = kind.filter(|k| !k.is_empty()) {
                gm::run_tick(conn, &st.config.rules, &actor, wid, &k)?;
            }
            if let Some(p) = paused.filter(|p| !p.is_empty()) {
                let p = match p.as_str() {
                    "yes" | "true" => true,
                    "no" | "false" => false,
                    other => {
                        return Err(GameError::Invalid(format!(
                            "paused must be yes or no, not `{other}`"
                        )))
                    }
                };
                gm::set_paused(conn, &actor, wid, p)?;
            }
            if let Some(s) = season.filter(|s| !s.is_empty()) {
                gm::set_season(conn, &actor, wid, &s)?;
            }
            Ok(())
        })
        .await?;
    Ok(see_other(&back))
}
