//! `/worlds/{w}/messages`: the nation's board (and the game masters' announcements), the
//! player's conversations and one of them, and the forms to write, report and block; the
//! markers' forms of the world page; `/messages`, where the header's badge leads.

use super::forms::{refused_page, submit, submit_then};
use super::{page, see_other};
use crate::game::maps::worlds;
use crate::game::talk::markers;
use crate::game::talk::messages::{self, Reader, To};
use crate::game::talk::moderation;
use crate::game::talk::text::{Body, Label};
use crate::game::GameError;
use crate::ids::{MarkerId, MessageId, WorldId};
use crate::web::auth::Viewer;
use crate::web::error::PageError;
use crate::web::form_post::SignedPost;
use crate::web::AppState;
use crate::wire::talk::{MessageView, ThreadView};
use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};

/// Messages on one page of the board or of a conversation.
const PAGE_SIZE: i64 = 30;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MessagesQuery {
    /// A conversation with this player; none: the board.
    pub with: Option<String>,
    /// Older messages than this id.
    pub before: Option<MessageId>,
}

/// A message as the page shows it: its body already made HTML (escaped, links).
#[derive(Serialize)]
struct Shown {
    id: MessageId,
    from: String,
    at: i64,
    html: String,
    mine: bool,
}

fn shown(m: MessageView, me: &str) -> Shown {
    Shown {
        id: m.id,
        mine: m.from == me,
        from: m.from,
        at: m.at,
        html: crate::web::render::text::message_html(&m.body),
    }
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
    q: web::Query<MessagesQuery>,
) -> Result<HttpResponse, PageError> {
    let actor = viewer.require()?;
    let wid = path.into_inner();
    let q = q.into_inner();
    let me = actor.username.clone();
    let gm = actor.role.is_gm();
    let (world, player, announcements, threads, (with, read), page_of, blocked, names) = state
        .db(move |conn| {
            let w = worlds::get(conn, wid)?;
            let reader = Reader::of(conn, &actor, wid)?;
            let announcements = messages::announcements(conn, wid, 3)?;
            let Reader::Player(p) = reader else {
                return Ok((
                    w,
                    false,
                    announcements,
                    Vec::new(),
                    (None, 0),
                    None,
                    Vec::new(),
                    Names::default(),
                ));
            };
            let mut names = Names::default();
            let thread = match q.with.as_deref().filter(|s| !s.trim().is_empty()) {
                Some(name) => match messages::thread(conn, &p, name, q.before, PAGE_SIZE) {
                    Ok((name, page, read)) => Some(((Some(name), read), page)),
                    // A name nobody plays under: the board, saying so, with the names it
                    // most likely meant.
                    Err(GameError::NotFound(_)) => {
                        names.unknown = Some(name.trim().chars().take(64).collect());
                        names.like = messages::names_like(conn, &p, name, 3)?;
                        None
                    }
                    Err(e) => return Err(e),
                },
                None => None,
            };
            let (with, page) = match thread {
                Some(t) => t,
                None => ((None, 0), messages::board(conn, &p, q.before, PAGE_SIZE)?),
            };
            names.all = messages::others(conn, &p, NAMES_LISTED)?;
            // After the conversation is read, so its unread count is already gone from the list.
            let threads = messages::threads(conn, &p)?;
            let blocked = messages::blocked(conn, &actor, wid)?;
            Ok((
                w,
                true,
                announcements,
                threads,
                with,
                Some(page),
                blocked,
                names,
            ))
        })
        .await?;
    let older = page_of.as_ref().and_then(|p| p.older);
    let shown_page: Vec<Shown> = page_of
        .map(|p| {
            p.messages
                .into_iter()
                .map(|m| shown(m.into(), &me))
                .collect()
        })
        .unwrap_or_default();
    let announcements: Vec<Shown> = announcements
        .messages
        .into_iter()
        .map(|m| shown(m.into(), &me))
        .collect();
    let threads: Vec<ThreadView> = threads.into_iter().map(ThreadView::from).collect();
    let talk = &state.config.settings.talk;
    let unknown = names.unknown.is_some();
    let mut resp = page(&state, &viewer, "messages.html", |ctx| {
        ctx.insert("names", &names);
        ctx.insert(
            "world",
            &WorldRef {
                id: world.id,
                name: world.name.clone(),
            },
        );
        ctx.insert("player", &player);
        ctx.insert("gm", &gm);
        ctx.insert("announcements", &announcements);
        ctx.insert("threads", &threads);
        ctx.insert("with", &with);
        ctx.insert("messages", &shown_page);
        ctx.insert("older", &older);
        ctx.insert("blocked", &blocked);
        ctx.insert(
            "with_blocked",
            &with.as_ref().is_some_and(|w| blocked.contains(w)),
        );
        ctx.insert("body_max", &talk.message_chars);
        // The header's badge counts what this page has just read.
        if let Some(mut v) = ctx.get("viewer").cloned() {
            let left = v["messages"].as_i64().unwrap_or(0) - read as i64;
            v["messages"] = left.max(0).into();
            ctx.insert("viewer", &v);
        }
    })?;
    if unknown {
        *resp.status_mut() = actix_web::http::StatusCode::NOT_FOUND;
    }
    Ok(resp)
}

/// The other players' names the page offers to write to.
const NAMES_LISTED: i64 = 500;

/// Whom the player may write to, and a name typed that nobody plays under.
#[derive(Serialize, Default)]
struct Names {
    /// The world's other players (up to [`NAMES_LISTED`]), for the "write to" field.
    all: Vec<String>,
    /// The name asked for that no player of the world has.
    unknown: Option<String>,
    /// The names nearest it.
    like: Vec<String>,
}

/// The page of a world's messages, on the board or a conversation. Only a name an account
/// may have goes into the address (its letters need no escaping); anything else is the board.
fn messages_href(wid: WorldId, with: Option<&str>) -> String {
    match with.map(str::trim) {
        Some(name) if crate::game::accounts::users::check_username(name).is_ok() => {
            format!("/worlds/{wid}/messages?with={name}")
        }
        _ => format!("/worlds/{wid}/messages"),
    }
}

#[derive(Deserialize)]
pub struct SendForm {
    pub csrf: Option<String>,
    pub to: Option<String>,
    pub body: Option<String>,
}
crate::signed_fields!(SendForm);

pub async fn send(
    state: web::Data<AppState>,
    path: web::Path<WorldId>,
    post: SignedPost<SendForm>,
) -> Result<HttpResponse, PageError> {
    let wid = path.into_inner();
    let to = To::parse(post.form.to.as_deref().unwrap_or(messages::NATION));
    let back = match &to {
        To::Player(name) => messages_href(wid, Some(name)),
        _ => messages_href(wid, None),
    };
    let max = state.config.settings.talk.message_chars;
    let body = match Body::parse(post.form.body.as_deref().unwrap_or(""), max) {
        Ok(b) => b,
        Err(e) => return refused_page(&state, &post.viewer, &e, Some(&back)),
    };
    submit_then(
        &state,
        post,
        back,
        move |conn, st, actor, _| {
            messages::send(conn, &st.config.settings.talk, actor, wid, &to, &body)
        },
        // A first message to a player opens the conversation under the name as it is written.
        move |m, back| match &m.to {
            To::Player(name) => messages_href(wid, Some(name)),
            To::Nation | To::World => back,
        },
    )
    .await
}

#[derive(Deserialize)]
pub struct ReportForm {
    pub csrf: Option<String>,
    pub reason: Option<String>,
    pub back: Option<String>,
}
crate::signed_fields!(ReportForm, back);

pub async fn report(
    state: web::Data<AppState>,
    path: web::Path<(WorldId, MessageId)>,
    post: SignedPost<ReportForm>,
) -> Result<HttpResponse, PageError> {
    let (wid, id) = path.into_inner();
    let back = post.back_or(messages_href(wid, None));
    submit(&state, post, back, move |conn, _, actor, f| {
        moderation::report(conn, actor, id, f.reason.as_deref())
    })
    .await
}

#[derive(Deserialize)]
pub struct BlockForm {
    pub csrf: Option<String>,
    pub player: Option<String>,
    /// `unblock` lifts a block; anything else blocks.
    pub action: Option<String>,
}
crate::signed_fields!(BlockForm);

pub async fn block(
    state: web::Data<AppState>,
    path: web::Path<WorldId>,
    post: SignedPost<BlockForm>,
) -> Result<HttpResponse, PageError> {
    let wid = path.into_inner();
    let back = messages_href(wid, post.form.player.as_deref());
    submit(&state, post, back, move |conn, _, actor, f| {
        let name = f.player.unwrap_or_default();
        if f.action.as_deref() == Some("unblock") {
            messages::unblock(conn, actor, wid, &name)
        } else {
            messages::block(conn, actor, wid, &name).map(|_| ())
        }
    })
    .await
}

#[derive(Deserialize)]
pub struct MarkerForm {
    pub csrf: Option<String>,
    pub cell: Option<String>,
    pub label: Option<String>,
    pub back: Option<String>,
}
crate::signed_fields!(MarkerForm, back);

pub async fn drop_marker(
    state: web::Data<AppState>,
    path: web::Path<WorldId>,
    post: SignedPost<MarkerForm>,
) -> Result<HttpResponse, PageError> {
    let wid = path.into_inner();
    let back = post.back_or(format!("/worlds/{wid}"));
    let max = state.config.settings.talk.marker_chars;
    let f = &post.form;
    let parsed = f
        .cell
        .as_deref()
        .and_then(super::world::parse_cell)
        .ok_or_else(|| {
            GameError::Invalid(
                crate::said::Said::new("error-not-cell")
                    .v("what", crate::said::msg("what-cell"))
                    .into(),
            )
        })
        .and_then(|at| Ok((at, Label::parse(f.label.as_deref().unwrap_or(""), max)?)));
    let (at, label) = match parsed {
        Ok(p) => p,
        Err(e) => return refused_page(&state, &post.viewer, &e, Some(&back)),
    };
    submit(&state, post, back, move |conn, st, actor, _| {
        markers::drop_at(conn, &st.config.settings.talk, actor, wid, at, &label)
    })
    .await
}

#[derive(Deserialize)]
pub struct RemoveMarkerForm {
    pub csrf: Option<String>,
    pub back: Option<String>,
}
crate::signed_fields!(RemoveMarkerForm, back);

pub async fn remove_marker(
    state: web::Data<AppState>,
    path: web::Path<(WorldId, MarkerId)>,
    post: SignedPost<RemoveMarkerForm>,
) -> Result<HttpResponse, PageError> {
    let (wid, id) = path.into_inner();
    let back = post.back_or(format!("/worlds/{wid}"));
    submit(&state, post, back, move |conn, _, actor, _| {
        markers::remove(conn, actor, id)
    })
    .await
}

/// `/messages`: the world of the newest unread private message, else the first world the
/// player plays in, else the home page.
pub async fn newest(state: web::Data<AppState>, viewer: Viewer) -> Result<HttpResponse, PageError> {
    let actor = viewer.require()?;
    let wid = state
        .db(move |conn| messages::newest_world(conn, actor.user_id))
        .await?;
    Ok(see_other(&match wid {
        Some(w) => messages_href(w, None),
        None => "/".into(),
    }))
}
