//! Who is asking: the session cookie for pages (with its CSRF token), a bearer token for the
//! API. Cookie flags follow the config (`Secure` and the `__Host-` prefix over HTTPS).

use super::error::{ApiError, PageError};
use super::AppState;
use crate::game::access::Actor;
use crate::game::sessions::{self, Expiry, Session};
use crate::game::{tokens, GameError, GameResult};
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

/// Compares secrets in time independent of where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// The visitor of a page: signed in or not, and the CSRF token their forms must carry.
pub struct Viewer {
    pub session: Option<Session>,
    /// The anonymous visitor's CSRF cookie, if any (for the login and registration forms).
    pub anon_csrf: Option<String>,
}

impl Viewer {
    pub fn actor(&self) -> Option<Actor> {
        self.session.as_ref().map(|s| Actor::of(&s.user))
    }

    /// The signed-in actor, or `unauthorized` (pages answer it with a redirect to the login).
    pub fn require(&self) -> GameResult<Actor> {
        self.actor()
            .ok_or_else(|| GameError::Unauthorized("please log in".into()))
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
            (Some(expected), Some(sent)) if !sent.is_empty() && same_secret(expected, sent) => Ok(()),
            _ => Err(GameError::Forbidden(
                "this form has expired or did not come from this site; reload the page and try again".into(),
            )),
        }
    }
}

impl FromRequest for Viewer {
    type Error = PageError;
    type Future = Pin<Box<dyn Future<Output = Result<Viewer, PageError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            let state = req
                .app_data::<web::Data<AppState>>()
                .ok_or_else(|| PageError(GameError::Internal("no state".into())))?
                .clone();
            let anon_csrf = req
                .cookie(&cookie_name(&state, ANON_CSRF))
                .map(|c| c.value().to_string())
                .filter(|v| v.len() == 48);
            let token = req
                .cookie(&cookie_name(&state, SESSION))
                .map(|c| c.value().to_string());
            let session = match token {
                Some(t) => {
                    let exp = expiry(&state);
                    state.db(move |conn| sessions::load(conn, &t, exp)).await?
                }
                None => None,
            };
            Ok(Viewer { session, anon_csrf })
        })
    }
}

/// The caller of the JSON API, from `Authorization: Bearer …`.
pub struct ApiActor(pub Actor);

impl FromRequest for ApiActor {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<ApiActor, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            let state = req
                .app_data::<web::Data<AppState>>()
                .ok_or_else(|| ApiError(GameError::Internal("no state".into())))?
                .clone();
            let header = req
                .headers()
                .get("Authorization")
                .and_then(|h| h.to_str().ok())
                .unwrap_or("")
                .to_string();
            let Some(secret) = header.strip_prefix("Bearer ").map(|s| s.trim().to_string()) else {
                // The site's own scripts (the map editor) call the API with the session cookie
                // and the session's CSRF token in a header, which other sites cannot send.
                if let Some(token) = req
                    .cookie(&cookie_name(&state, SESSION))
                    .map(|c| c.value().to_string())
                {
                    let sent = req
                        .headers()
                        .get("X-CSRF-Token")
                        .and_then(|h| h.to_str().ok())
                        .unwrap_or("")
                        .to_string();
                    let exp = expiry(&state);
                    let session = state
                        .db(move |conn| sessions::load(conn, &token, exp))
                        .await?;
                    return match session {
                        Some(s) if !sent.is_empty() && same_secret(&s.csrf, &sent) => {
                            Ok(ApiActor(Actor::of(&s.user)))
                        }
                        Some(_) => Err(ApiError(GameError::Forbidden(
                            "send the page's CSRF token in X-CSRF-Token".into(),
                        ))),
                        None => Err(ApiError(GameError::Unauthorized(
                            "your session has ended; log in again".into(),
                        ))),
                    };
                }
                return Err(ApiError(GameError::Unauthorized(
                    "send an API token: Authorization: Bearer <token>".into(),
                )));
            };
            let user = state
                .db(move |conn| tokens::authenticate(conn, &secret))
                .await?;
            match user {
                Some(u) => Ok(ApiActor(Actor::of(&u))),
                None => Err(ApiError(GameError::Unauthorized(
                    "this API token is not valid".into(),
                ))),
            }
        })
    }
}
