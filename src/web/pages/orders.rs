//! The form posts of the game pages: joining, raising, company orders and regiments. They go
//! through the same `game::` functions as the API, then redirect to the page with the report.

use super::{context, render_with, see_other};
use crate::game::play::orders;
use crate::game::{play, GameError};
use crate::said::Said;
use crate::web::auth::Viewer;
use crate::web::error::PageError;
use crate::web::form_post::SignedPost;
use crate::web::order_input;
use crate::web::AppState;
use crate::wire::input::{CellRef, PathRef, Whole};
use crate::wire::play::OrderFields;
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use serde::Deserialize;

#[derive(Deserialize, Default)]
pub struct OrderForm {
    pub csrf: Option<String>,
    pub to: Option<String>,
    pub path: Option<String>,
    pub target: Option<String>,
    pub at: Option<String>,
    pub men: Option<String>,
    pub back: Option<String>,
    pub nation: Option<String>,
    pub kind: Option<String>,
    pub name: Option<String>,
}

fn with_report(back: &str, event: i32) -> String {
    let sep = if back.contains('?') { '&' } else { '?' };
    format!("{back}{sep}report={event}")
}

impl OrderForm {
    /// The order's fields as the one order reader takes them (a form's are strings).
    fn fields(&self) -> OrderFields {
        OrderFields {
            path: self.path.clone().map(PathRef::Text),
            to: self.to.clone().map(CellRef::Text),
            target: self.target.clone().map(Whole::Digits),
            at: self.at.clone().map(CellRef::Text),
            men: self.men.clone().map(Whole::Digits),
        }
    }
}

/// After a form: back to `back` when it worked, the refusal page when not.
pub fn after_form<T>(
    state: &AppState,
    viewer: &Viewer,
    result: Result<T, GameError>,
    back: &str,
) -> Result<HttpResponse, PageError> {
    match result {
        Ok(_) => Ok(see_other(back)),
        Err(e) => refused_page(state, viewer, &e, Some(back)),
    }
}

/// A refused order: the reason, with a way back, and nothing changed.
pub fn refused_page(
    state: &AppState,
    viewer: &Viewer,
    err: &GameError,
    back: Option<&str>,
) -> Result<HttpResponse, PageError> {
    if matches!(
        err,
        GameError::Db(_) | GameError::Internal(_) | GameError::Unauthorized(_)
    ) {
        return Err(PageError(GameError::Internal(err.to_string())));
    }
    let (mut ctx, fresh) = context(viewer);
    ctx.insert("message", &crate::wire::refusals::say(viewer.lang, err));
    ctx.insert("code", err.code());
    ctx.insert("back", &back.unwrap_or("/"));
    let status = StatusCode::from_u16(err.status()).unwrap_or(StatusCode::BAD_REQUEST);
    let resp = render_with(state, status, "refused.html", &ctx, fresh)?;
    Ok(super::with_retry_after(resp, err))
}

pub async fn act(
    state: web::Data<AppState>,
    path: web::Path<(i32, String)>,
    post: SignedPost<OrderForm>,
) -> Result<HttpResponse, PageError> {
    let SignedPost {
        viewer,
        actor,
        form,
        back: sent_back,
    } = post;
    let (id, action) = path.into_inner();
    let back = sent_back.unwrap_or_else(|| format!("/companies/{id}"));
    let order = match order_input::parse(&action, &form.fields()) {
        Ok(o) => o,
        Err(e) => return refused_page(&state, &viewer, &e, Some(&back)),
    };
    let st = state.clone();
    match state
        .db(move |conn| orders::execute(conn, &st.writes, &st.config, &actor, id, order))
        .await
    {
        Ok(out) => {
            // A destroyed company has no page left to return to.
            let back = if out.company.is_none() && back.starts_with("/companies/") {
                "/".to_string()
            } else {
                back
            };
            Ok(see_other(&with_report(&back, out.event_id)))
        }
        Err(e) => refused_page(&state, &viewer, &e, Some(&back)),
    }
}

pub async fn join(
    state: web::Data<AppState>,
    path: web::Path<i32>,
    post: SignedPost<OrderForm>,
) -> Result<HttpResponse, PageError> {
    let SignedPost {
        viewer,
        actor,
        form,
        ..
    } = post;
    let wid = path.into_inner();
    let nation = form.nation.clone().unwrap_or_default();
    let back = format!("/worlds/{wid}");
    let result = state
        .db(move |conn| play::join(conn, &actor, wid, &nation))
        .await;
    after_form(&state, &viewer, result, &back)
}

pub async fn raise(
    state: web::Data<AppState>,
    path: web::Path<i32>,
    post: SignedPost<OrderForm>,
) -> Result<HttpResponse, PageError> {
    let SignedPost {
        viewer,
        actor,
        form,
        ..
    } = post;
    let wid = path.into_inner();
    let (kind, name) = (
        form.kind.clone().unwrap_or_default(),
        form.name.clone().unwrap_or_default(),
    );
    let back = format!("/worlds/{wid}");
    let st = state.clone();
    match state
        .db(move |conn| play::raise(conn, &st.config.rules, &actor, wid, &kind, &name))
        .await
    {
        Ok(c) => Ok(see_other(&format!("/worlds/{wid}?company={}", c.id))),
        Err(e) => refused_page(&state, &viewer, &e, Some(&back)),
    }
}

#[derive(Deserialize)]
pub struct LeaveForm {
    pub csrf: Option<String>,
    pub days: Option<String>,
}

pub async fn take_leave(
    state: web::Data<AppState>,
    path: web::Path<i32>,
    post: SignedPost<LeaveForm>,
) -> Result<HttpResponse, PageError> {
    let SignedPost {
        viewer,
        actor,
        form,
        ..
    } = post;
    let wid = path.into_inner();
    let back = format!("/worlds/{wid}");
    let days = match form.days.as_deref().map(str::trim).map(str::parse::<i32>) {
        Some(Ok(d)) => d,
        _ => {
            let e = GameError::Invalid(Said::new("error-leave-days").into());
            return refused_page(&state, &viewer, &e, Some(&back));
        }
    };
    let st = state.clone();
    let result = state
        .db(move |conn| crate::game::play::leave::take(conn, &st.config.rules, &actor, wid, days))
        .await;
    after_form(&state, &viewer, result, &back)
}

#[derive(Deserialize)]
pub struct RegimentForm {
    pub csrf: Option<String>,
    pub name: Option<String>,
    pub at: Option<String>,
}

pub async fn create_regiment(
    state: web::Data<AppState>,
    path: web::Path<i32>,
    post: SignedPost<RegimentForm>,
) -> Result<HttpResponse, PageError> {
    let SignedPost {
        viewer,
        actor,
        form,
        ..
    } = post;
    let wid = path.into_inner();
    let name = form.name.clone().unwrap_or_default();
    let back = format!("/worlds/{wid}/nations");
    let st = state.clone();
    let result = state
        .db(move |conn| play::create_regiment(conn, &st.config.rules, &actor, wid, &name))
        .await;
    after_form(&state, &viewer, result, &back)
}

pub async fn join_regiment(
    state: web::Data<AppState>,
    path: web::Path<(i32, i32)>,
    post: SignedPost<RegimentForm>,
) -> Result<HttpResponse, PageError> {
    let SignedPost { viewer, actor, .. } = post;
    let (wid, rid) = path.into_inner();
    let back = format!("/worlds/{wid}/nations");
    let result = state
        .db(move |conn| play::join_regiment(conn, &actor, wid, rid))
        .await;
    after_form(&state, &viewer, result, &back)
}

pub async fn set_headquarters(
    state: web::Data<AppState>,
    path: web::Path<(i32, i32)>,
    post: SignedPost<RegimentForm>,
) -> Result<HttpResponse, PageError> {
    let SignedPost {
        viewer,
        actor,
        form,
        ..
    } = post;
    let (wid, rid) = path.into_inner();
    let back = format!("/worlds/{wid}/nations");
    let at = match order_input::cell(
        &CellRef::Text(form.at.clone().unwrap_or_default()),
        crate::said::msg("what-farm"),
    ) {
        Ok(p) => p,
        Err(e) => return refused_page(&state, &viewer, &e, Some(&back)),
    };
    let st = state.clone();
    let result = state
        .db(move |conn| play::set_headquarters(conn, &st.config.rules, &actor, wid, rid, at))
        .await;
    after_form(&state, &viewer, result, &back)
}

crate::signed_fields!(OrderForm, back);
crate::signed_fields!(LeaveForm);
crate::signed_fields!(RegimentForm);
