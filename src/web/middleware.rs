//! Small middleware of our own: the request log line, error pages in the visitor's language,
//! and keeping small answers uncompressed.

use super::auth::{cookie_name, LANG};
use super::error::{error_page_in, ApiError, PageError};
use super::AppState;
use crate::game::GameError;
use crate::i18n::Lang;
use crate::wire::error::ErrorBody;
use crate::wire::refusals::say;
use actix_web::body::{BodySize, EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{
    AcceptEncoding, Encoding, HeaderValue, ACCEPT_LANGUAGE, CACHE_CONTROL, CONTENT_ENCODING,
    CONTENT_LENGTH, VARY,
};
use actix_web::middleware::Next;
use actix_web::web::Bytes;
use actix_web::HttpMessage;
use actix_web::{web, Error, HttpRequest, HttpResponse};
use tracing::Span;
use tracing_actix_web::RootSpanBuilder;

/// One span and one log line per request: method, path (never the query) and status. The
/// crate's default span also resolves the route pattern, the user agent and the client's
/// address on every request, whether or not anything is logged.
pub struct RequestLine;

impl RootSpanBuilder for RequestLine {
    fn on_request_start(request: &ServiceRequest) -> Span {
        tracing::info_span!(
            "request",
            method = %request.method(),
            path = %request.path(),
        )
    }

    fn on_request_end<B: MessageBody>(span: Span, outcome: &Result<ServiceResponse<B>, Error>) {
        let status = match outcome {
            Ok(r) => r.status().as_u16(),
            Err(e) => e.as_response_error().status_code().as_u16(),
        };
        span.in_scope(|| tracing::info!(status, "answered"));
    }
}

/// `HEAD` is answered as `GET` is, without the body: health checks and link checkers send it.
/// The request takes the GET route; the server leaves the body out of an answer to a HEAD
/// request whatever the route (it keeps the request's own method for that).
pub async fn head_as_get(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    if req.method() == actix_web::http::Method::HEAD {
        req.head_mut().method = actix_web::http::Method::GET;
    }
    next.call(req).await
}

/// Errors in the visitor's language. A handler's error is turned into an answer without its
/// request; in a language other than English it is written again here, in the language the
/// browser chose (its cookie) or asks for (`Accept-Language`): an error page, or the JSON
/// error of an API call (the editor's script shows its message), code and status unchanged.
pub async fn errors_in_lang(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, Error> {
    let lang = browser_lang(req.request());
    let res = next.call(req).await?;
    if lang == Lang::En || res.status().is_redirection() {
        return Ok(res.map_into_left_body());
    }
    let shown = |e: &GameError| !matches!(e, GameError::Db(_) | GameError::Internal(_));
    let error = res.response().error();
    let body = if let Some(e) = error.and_then(|e| e.as_error::<PageError>()) {
        shown(&e.0).then(|| error_page_in(lang, res.status(), &say(lang, &e.0)))
    } else if let Some(e) = error.and_then(|e| e.as_error::<ApiError>()) {
        shown(&e.0).then(|| {
            let message = say(lang, &e.0);
            serde_json::to_string(&ErrorBody::new(e.0.code(), &message)).unwrap_or_default()
        })
    } else {
        None
    };
    let Some(body) = body else {
        return Ok(res.map_into_left_body());
    };
    let status = res.status();
    let (req, old) = res.into_parts();
    let mut answer = HttpResponse::build(status);
    for (name, value) in old.headers() {
        if name != CONTENT_LENGTH {
            answer.insert_header((name.clone(), value.clone()));
        }
    }
    let answer = answer.body(body);
    Ok(ServiceResponse::new(req, answer).map_into_right_body())
}

/// The reader's language for an API answer's own words (an option's reason, an alert): the
/// same the errors are said in, the browser's chosen cookie, else `Accept-Language`.
pub struct ReaderLang(pub Lang);

impl actix_web::FromRequest for ReaderLang {
    type Error = Error;
    type Future = std::future::Ready<Result<ReaderLang, Error>>;

    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        std::future::ready(Ok(ReaderLang(browser_lang(req))))
    }
}

/// The language of a browser, without the database: its chosen cookie, else its header.
fn browser_lang(req: &HttpRequest) -> Lang {
    let chosen = req
        .app_data::<web::Data<AppState>>()
        .and_then(|state| req.cookie(&cookie_name(state, LANG)))
        .and_then(|c| Lang::parse(c.value()));
    chosen
        .or_else(|| {
            req.headers()
                .get(ACCEPT_LANGUAGE)
                .and_then(|v| v.to_str().ok())
                .and_then(Lang::from_accept_language)
        })
        .unwrap_or_default()
}

/// Bodies below this size are sent as they are: compressing them costs more time than the
/// bytes it saves.
const COMPRESS_FROM: u64 = 1024;

/// Bodies up to this size are compressed on the thread that answers ([`super::gzip`]); larger
/// ones are left to the compression middleware, which works on them off the server's threads.
const COMPRESS_IN_PLACE_UP_TO: u64 = 512 * 1024;

/// Gzips answers whose body is whole and between [`COMPRESS_FROM`] and
/// [`COMPRESS_IN_PLACE_UP_TO`] when the client accepts it, and marks small answers so that the
/// compression middleware (outside this one) leaves them alone; `unmark_small` (outside that)
/// takes the mark off again.
pub async fn compress_sized(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody, Bytes>>, Error> {
    let wants_gzip = req
        .get_header::<AcceptEncoding>()
        .and_then(|a| a.negotiate([Encoding::gzip(), Encoding::identity()].iter()))
        == Some(Encoding::gzip());
    let res = next.call(req).await?;
    let size = match res.response().body().size() {
        BodySize::Sized(n) if !res.headers().contains_key(CONTENT_ENCODING) => Some(n),
        _ => None,
    };
    Ok(res.map_body(|head, body| match size {
        Some(n) if n < COMPRESS_FROM => {
            head.headers
                .insert(CONTENT_ENCODING, HeaderValue::from_static("identity"));
            EitherBody::left(body)
        }
        Some(n) if n <= COMPRESS_IN_PLACE_UP_TO => {
            head.headers
                .append(VARY, HeaderValue::from_static("accept-encoding"));
            if !wants_gzip {
                return EitherBody::left(body);
            }
            match body.try_into_bytes() {
                Ok(bytes) => {
                    head.headers
                        .insert(CONTENT_ENCODING, HeaderValue::from_static("gzip"));
                    EitherBody::right(Bytes::from(super::gzip::gzip(&bytes)))
                }
                Err(body) => EitherBody::left(body),
            }
        }
        _ => EitherBody::left(body),
    }))
}

pub async fn unmark_small(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let mut res = next.call(req).await?;
    if res
        .headers()
        .get(CONTENT_ENCODING)
        .is_some_and(|v| v == "identity")
    {
        res.headers_mut().remove(CONTENT_ENCODING);
    }
    Ok(res)
}

/// What a browser may keep (a handler's own `Cache-Control` wins: the static files'). API
/// answers and the account pages (a new token is shown once) are never stored; other pages
/// are kept privately but checked again before use, which lets the browser's back and forward
/// buttons show them at once instead of asking again.
pub async fn cache_policy(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let secret = {
        let p = req.path();
        p.starts_with("/api/") || p.starts_with("/account") || p.starts_with("/admin")
    };
    let mut res = next.call(req).await?;
    if !res.headers().contains_key(CACHE_CONTROL) {
        let policy = if secret || res.status().is_redirection() {
            "no-store"
        } else {
            "private, no-cache"
        };
        res.headers_mut()
            .insert(CACHE_CONTROL, HeaderValue::from_static(policy));
    }
    Ok(res)
}
