//! Who is asking: the session cookie for pages (with its CSRF token), a bearer token for the
//! API. Cookie flags follow the config (`Secure` and the `__Host-` prefix over HTTPS).

use super::error::{ApiError, PageError};
use super::AppState;
use crate::db::DbConnection;
use crate::game::accounts::secret::same_secret;
use crate::game::accounts::sessions::{self, Expiry, Session};
use crate::game::play::access::Actor;
use crate::game::{accounts::tokens, GameError, GameResult};
use crate::i18n::Lang;
use crate::said::Said;
use actix_web::cookie::{time::Duration as CookieDuration, Cookie, SameSite};
use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest};
use std::future::Future;
use std::pin::Pin;

pub const SESSION: &str = "grognard_session";
pub const ANON_CSRF: &str = "grognard_csrf";

/// Cookie names take the `__Host-` prefix over HTTPS: the browser then insists on Secure,
/// Path=/ and no Domain.
pub fn cookie_name(state: &AppState, base: &str) -> String {
    if state.config.settings.server.https {
        format!("__Host-{base}")
    } else {
        base.to_string()
    }
}

fn build_cookie(
    state: &AppState,
    base: &str,
    value: String,
    max_age: CookieDuration,
) -> Cookie<'static> {
    Cookie::build(cookie_name(state, base), value)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(state.config.settings.server.https)
        .max_age(max_age)
        .finish()
}

pub fn session_cookie(state: &AppState, token: String) -> Cookie<'static> {
    let hours = state.config.settings.security.session_absolute_hours;
    build_cookie(state, SESSION, token, CookieDuration::hours(hours))
}

pub fn clear_session_cookie(state: &AppState) -> Cookie<'static> {
    build_cookie(state, SESSION, String::new(), CookieDuration::ZERO)
}

/// Keeps the language chosen on this browser for a year.
pub fn lang_cookie(state: &AppState, lang: Lang) -> Cookie<'static> {
    build_cookie(state, LANG, lang.code().into(), CookieDuration::days(365))
}

pub fn anon_csrf_cookie(state: &AppState, token: String) -> Cookie<'static> {
    build_cookie(state, ANON_CSRF, token, CookieDuration::hours(12))
}

pub fn expiry(state: &AppState) -> Expiry {
    let s = &state.config.settings.security;
    Expiry {
        idle: s.session_idle_minutes * 60,
        absolute: s.session_absolute_hours * 3600,
    }
}

/// The client's address for throttling: the peer, or the first X-Forwarded-For hop when the
/// config says a trusted proxy sets it.
pub fn client_addr(state: &AppState, req: &HttpRequest) -> String {
    if state.config.settings.security.trust_forwarded_for {
        if let Some(ip) = req.connection_info().realip_remote_addr() {
            return ip.to_string();
        }
    }
    req.peer_addr()
        .map(|a| a.ip().to_string())
        .unwrap_or_else(|| "unknown".into())
}

/// The visitor of a page: signed in or not, and the CSRF token their forms must carry.
#[derive(Clone)]
pub struct Viewer {
    pub session: Option<Session>,
    /// The anonymous visitor's CSRF cookie, if any (for the login and registration forms).
    pub anon_csrf: Option<String>,
    /// The pages' language: the one chosen on this browser, else the account's, else the
    /// browser's `Accept-Language`, else English.
    pub lang: Lang,
}

impl Viewer {
    pub fn actor(&self) -> Option<Actor> {
        self.session.as_ref().map(|s| Actor::of(&s.user))
    }

    /// The signed-in actor, or `unauthorized` (pages answer it with a redirect to the login).
    pub fn require(&self) -> GameResult<Actor> {
        self.actor()
            .ok_or_else(|| GameError::Unauthorized(Said::new("error-log-in").into()))
    }

    /// The token forms on this page must carry, if there is one yet.
    pub fn csrf(&self) -> Option<&str> {
        self.session
            .as_ref()
            .map(|s| s.csrf.as_str())
            .or(self.anon_csrf.as_deref())
    }

    /// Refuses a form whose token is missing or wrong, with `forbidden`.
    pub fn check_csrf(&self, sent: Option<&str>) -> GameResult<()> {
        match (self.csrf(), sent) {
            (Some(expected), Some(sent)) if !sent.is_empty() && same_secret(expected, sent) => {
                Ok(())
            }
            _ => Err(GameError::Forbidden(Said::new("error-form-expired").into())),
        }
    }
}

/// What a page request carries to say who sends it, read without the database: resolved
/// with `resolve` on the connection the handler uses anyway, so that a page costs one trip
/// to the blocking pool, not two.
pub struct ViewerCookies {
    session_token: Option<String>,
    anon_csrf: Option<String>,
    expiry: Expiry,
    chosen_lang: Option<Lang>,
    browser_lang: Option<Lang>,
}

/// The cookie that keeps the language chosen on a browser.
pub const LANG: &str = "grognard_lang";

impl ViewerCookies {
    pub fn of(state: &AppState, req: &HttpRequest) -> ViewerCookies {
        ViewerCookies {
            session_token: req
                .cookie(&cookie_name(state, SESSION))
                .map(|c| c.value().to_string()),
            anon_csrf: req
                .cookie(&cookie_name(state, ANON_CSRF))
                .map(|c| c.value().to_string())
                .filter(|v| v.len() == 48),
            expiry: expiry(state),
            chosen_lang: req
                .cookie(&cookie_name(state, LANG))
                .and_then(|c| Lang::parse(c.value())),
            browser_lang: req
                .headers()
                .get(actix_web::http::header::ACCEPT_LANGUAGE)
                .and_then(|v| v.to_str().ok())
                .and_then(Lang::from_accept_language),
        }
    }

    pub fn resolve(self, conn: &mut DbConnection) -> GameResult<Viewer> {
        let session = match &self.session_token {
            Some(t) => sessions::load(conn, t, self.expiry)?,
            None => None,
        };
        let account_lang = session
            .as_ref()
            .and_then(|s| s.user.lang.as_deref())
            .and_then(Lang::parse);
        Ok(Viewer {
            session,
            anon_csrf: self.anon_csrf,
            lang: self
                .chosen_lang
                .or(account_lang)
                .or(self.browser_lang)
                .unwrap_or_default(),
        })
    }
}

fn app_state(req: &HttpRequest) -> GameResult<web::Data<AppState>> {
    req.app_data::<web::Data<AppState>>()
        .cloned()
        .ok_or_else(|| GameError::Internal("no state".into()))
}

impl FromRequest for ViewerCookies {
    type Error = PageError;
    type Future = std::future::Ready<Result<ViewerCookies, PageError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        std::future::ready(
            app_state(req)
                .map(|state| ViewerCookies::of(&state, req))
                .map_err(PageError),
        )
    }
}

impl FromRequest for Viewer {
    type Error = PageError;
    type Future = Pin<Box<dyn Future<Output = Result<Viewer, PageError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            let state = app_state(&req)?;
            let cookies = ViewerCookies::of(&state, &req);
            Ok(state.db(move |conn| cookies.resolve(conn)).await?)
        })
    }
}

fn no_credentials() -> GameError {
    GameError::Unauthorized("send an API token: Authorization: Bearer <token>".into())
}

/// What an API request carries to say who sends it, read without the database (see
/// `ViewerCookies`): a bearer token, or the site's own scripts' session cookie with the
/// session's CSRF token in `X-CSRF-Token`, which other sites cannot send.
#[derive(Clone)]
pub enum ApiCredentials {
    Bearer {
        secret: String,
        /// Tokens made before this instant have expired (None: tokens never expire).
        made_after: Option<i64>,
    },
    Session {
        token: String,
        csrf_sent: String,
        expiry: Expiry,
    },
    Missing,
}

impl ApiCredentials {
    pub fn of(state: &AppState, req: &HttpRequest) -> ApiCredentials {
        let header = req
            .headers()
            .get("Authorization")
            .and_then(|h| h.to_str().ok())
            .unwrap_or("");
        if let Some(secret) = header.strip_prefix("Bearer ") {
            return ApiCredentials::Bearer {
                secret: secret.trim().to_string(),
                made_after: crate::game::time::retention::token_cutoff(
                    &state.config,
                    crate::db::now(),
                ),
            };
        }
        match req.cookie(&cookie_name(state, SESSION)) {
            Some(c) => ApiCredentials::Session {
                token: c.value().to_string(),
                csrf_sent: req
                    .headers()
                    .get("X-CSRF-Token")
                    .and_then(|h| h.to_str().ok())
                    .unwrap_or("")
                    .to_string(),
                expiry: expiry(state),
            },
            None => ApiCredentials::Missing,
        }
    }

    /// The actor these credentials stand for, or `unauthorized` / `forbidden`.
    pub fn resolve(self, conn: &mut DbConnection) -> GameResult<Actor> {
        match self {
            ApiCredentials::Bearer { secret, made_after } => {
                match tokens::authenticate(conn, &secret, made_after)? {
                    Some(u) => Ok(Actor::of(&u)),
                    None => Err(GameError::Unauthorized(
                        "this API token is not valid".into(),
                    )),
                }
            }
            ApiCredentials::Session {
                token,
                csrf_sent,
                expiry,
            } => match sessions::load(conn, &token, expiry)? {
                Some(s) if !csrf_sent.is_empty() && same_secret(&s.csrf, &csrf_sent) => {
                    Ok(Actor::of(&s.user))
                }
                Some(_) => Err(GameError::Forbidden(
                    "send the page's CSRF token in X-CSRF-Token".into(),
                )),
                None => Err(GameError::Unauthorized(
                    Said::new("error-session-ended").into(),
                )),
            },
            ApiCredentials::Missing => Err(no_credentials()),
        }
    }

    /// The actor of a request that only reads and answers no other site (a live stream: a
    /// browser's `EventSource` cannot send headers, and without CORS another site cannot read
    /// the answer): a session needs no CSRF token here.
    pub fn resolve_reading(self, conn: &mut DbConnection) -> GameResult<Actor> {
        match self {
            ApiCredentials::Session { token, expiry, .. } => {
                match sessions::load(conn, &token, expiry)? {
                    Some(s) => Ok(Actor::of(&s.user)),
                    None => Err(GameError::Unauthorized(
                        Said::new("error-session-ended").into(),
                    )),
                }
            }
            other => other.resolve(conn),
        }
    }
}

impl FromRequest for ApiCredentials {
    type Error = ApiError;
    type Future = std::future::Ready<Result<ApiCredentials, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        // No credentials at all: refused at once, before any body is read.
        std::future::ready(
            app_state(req)
                .map(|state| ApiCredentials::of(&state, req))
                .and_then(|c| match c {
                    ApiCredentials::Missing => Err(no_credentials()),
                    c => Ok(c),
                })
                .map_err(ApiError),
        )
    }
}

/// The caller of a public route of the JSON API, who may send credentials or none: resolved
/// with `resolve` on the handler's connection. Credentials sent must be good (a bad token is
/// still `unauthorized`); none at all is a visitor.
pub struct MaybeCredentials(ApiCredentials);

impl MaybeCredentials {
    pub fn resolve(self, conn: &mut DbConnection) -> GameResult<Option<Actor>> {
        match self.0 {
            ApiCredentials::Missing => Ok(None),
            c => c.resolve(conn).map(Some),
        }
    }
}

impl FromRequest for MaybeCredentials {
    type Error = ApiError;
    type Future = std::future::Ready<Result<MaybeCredentials, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        std::future::ready(
            app_state(req)
                .map(|state| MaybeCredentials(ApiCredentials::of(&state, req)))
                .map_err(ApiError),
        )
    }
}

/// The caller of the JSON API, resolved before the handler runs (for handlers that need the
/// actor before their own database work).
pub struct ApiActor(pub Actor);

impl FromRequest for ApiActor {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<ApiActor, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            let state = app_state(&req)?;
            let credentials = ApiCredentials::of(&state, &req);
            let actor = state.db(move |conn| credentials.resolve(conn)).await?;
            Ok(ApiActor(actor))
        })
    }
}

/// A game master calling the API: anyone else is refused before the request's body is read
/// (the routes that take whole maps accept large bodies).
pub struct GmActor(pub Actor);

impl FromRequest for GmActor {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<GmActor, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let actor = ApiActor::from_request(req, payload);
        Box::pin(async move {
            let ApiActor(actor) = actor.await?;
            actor.require_gm()?;
            Ok(GmActor(actor))
        })
    }
}

/// A game master on a page: anyone else is refused before the form is read (the world
/// creation form takes whole maps).
pub struct GmViewer(pub Viewer);

impl FromRequest for GmViewer {
    type Error = PageError;
    type Future = Pin<Box<dyn Future<Output = Result<GmViewer, PageError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let viewer = Viewer::from_request(req, payload);
        Box::pin(async move {
            let viewer = viewer.await?;
            viewer.require()?.require_gm()?;
            Ok(GmViewer(viewer))
        })
    }
}
