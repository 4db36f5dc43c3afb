//! The form posts of the game pages: joining, raising, company orders and regiments. They go
//! through the same `game::` functions as the API, then redirect to the page with the report.

use super::forms::{refused_at, refused_page, submit, submit_then};
use crate::game::play::orders;
use crate::game::{play, GameError};
use crate::ids::{CompanyId, EventId, RegimentId, WorldId};
use crate::said::Said;
use crate::web::error::PageError;
use crate::web::form_post::SignedPost;
use crate::web::order_input;
use crate::web::AppState;
use crate::wire::input::{CellRef, PathRef, Whole};
use crate::wire::play::OrderFields;
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

fn with_report(back: &str, event: EventId) -> String {
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

pub async fn act(
    state: web::Data<AppState>,
    path: web::Path<(CompanyId, String)>,
    post: SignedPost<OrderForm>,
) -> Result<HttpResponse, PageError> {
    let (id, action) = path.into_inner();
    let back = post.back_or(format!("/companies/{id}"));
    let order = match order_input::parse(&action, &post.form.fields()) {
        Ok(o) => o,
        Err(e) => return refused_at(&state, post.viewer, &e, &back, &post.req).await,
    };
    submit_then(
        &state,
        post,
        back,
        move |conn, st, actor, _| orders::execute(conn, &st.writes, &st.config, actor, id, order),
        |out, back| {
            // A destroyed company has no page left to return to.
            let back = if out.company.is_none() && back.starts_with("/companies/") {
                "/".to_string()
            } else {
                back
            };
            with_report(&back, out.event_id)
        },
    )
    .await
}

pub async fn join(
    state: web::Data<AppState>,
    path: web::Path<WorldId>,
    post: SignedPost<OrderForm>,
) -> Result<HttpResponse, PageError> {
    let wid = path.into_inner();
    submit(
        &state,
        post,
        format!("/worlds/{wid}"),
        move |conn, _, actor, f| {
            play::join(conn, actor, wid, f.nation.as_deref().unwrap_or_default())
        },
    )
    .await
}

pub async fn raise(
    state: web::Data<AppState>,
    path: web::Path<WorldId>,
    post: SignedPost<OrderForm>,
) -> Result<HttpResponse, PageError> {
    let wid = path.into_inner();
    submit_then(
        &state,
        post,
        format!("/worlds/{wid}"),
        move |conn, st, actor, f| {
            let (kind, name) = (f.kind.unwrap_or_default(), f.name.unwrap_or_default());
            play::raise(conn, &st.config.rules, actor, wid, &kind, &name)
        },
        |c, _| format!("/worlds/{wid}?company={}", c.id),
    )
    .await
}

#[derive(Deserialize)]
pub struct LeaveForm {
    pub csrf: Option<String>,
    pub days: Option<String>,
}

pub async fn take_leave(
    state: web::Data<AppState>,
    path: web::Path<WorldId>,
    post: SignedPost<LeaveForm>,
) -> Result<HttpResponse, PageError> {
    let wid = path.into_inner();
    let back = format!("/worlds/{wid}");
    let days = match post
        .form
        .days
        .as_deref()
        .map(str::trim)
        .map(str::parse::<i32>)
    {
        Some(Ok(d)) => d,
        _ => {
            let e = GameError::Invalid(Said::new("error-leave-days").into());
            return refused_page(&state, &post.viewer, &e, Some(&back));
        }
    };
    submit(&state, post, back, move |conn, st, actor, _| {
        play::leave::take(conn, &st.config.rules, actor, wid, days)
    })
    .await
}

#[derive(Deserialize)]
pub struct RegimentForm {
    pub csrf: Option<String>,
    pub name: Option<String>,
    pub at: Option<String>,
}

pub async fn create_regiment(
    state: web::Data<AppState>,
    path: web::Path<WorldId>,
    post: SignedPost<RegimentForm>,
) -> Result<HttpResponse, PageError> {
    let wid = path.into_inner();
    submit(
        &state,
        post,
        format!("/worlds/{wid}/nations"),
        move |conn, st, actor, f| {
            let name = f.name.unwrap_or_default();
            play::create_regiment(conn, &st.config.rules, actor, wid, &name)
        },
    )
    .await
}

pub async fn join_regiment(
    state: web::Data<AppState>,
    path: web::Path<(WorldId, RegimentId)>,
    post: SignedPost<RegimentForm>,
) -> Result<HttpResponse, PageError> {
    let (wid, rid) = path.into_inner();
    submit(
        &state,
        post,
        format!("/worlds/{wid}/nations"),
        move |conn, _, actor, _| play::join_regiment(conn, actor, wid, rid),
    )
    .await
}

pub async fn set_headquarters(
    state: web::Data<AppState>,
    path: web::Path<(WorldId, RegimentId)>,
    post: SignedPost<RegimentForm>,
) -> Result<HttpResponse, PageError> {
    let (wid, rid) = path.into_inner();
    let back = format!("/worlds/{wid}/nations");
    let at = match order_input::cell(
        &CellRef::Text(post.form.at.clone().unwrap_or_default()),
        crate::said::msg("what-farm"),
    ) {
        Ok(p) => p,
        Err(e) => return refused_page(&state, &post.viewer, &e, Some(&back)),
    };
    submit(&state, post, back, move |conn, st, actor, _| {
        play::set_headquarters(conn, &st.config.rules, actor, wid, rid, at)
    })
    .await
}

crate::signed_fields!(OrderForm, back);
crate::signed_fields!(LeaveForm);
crate::signed_fields!(RegimentForm);
