//! The JSON API under `/api/v1`.

pub mod accounts;
pub mod campaign;
pub mod editor;
pub mod gm;
pub mod live;
pub mod openapi;
pub mod play;
pub mod push;
pub mod screens;
pub mod talk;
pub mod worlds;

use super::error::ApiError;
use crate::game::GameError;
use crate::said::Said;
use actix_web::{error, web, HttpRequest, HttpResponse};

/// What a request body may weigh: orders, forms and small edits everywhere; whole maps only on
/// the game masters' routes that take them, whose extractor refuses anyone else before the
/// body is read.
pub const BODY_LIMIT: usize = 64 * 1024;
pub const MAP_BODY_LIMIT: usize = 16 * 1024 * 1024;

/// Malformed JSON bodies answer `invalid` with the parser's reason.
pub fn json_config() -> web::JsonConfig {
    json_config_up_to(BODY_LIMIT)
}

/// The JSON body rules with another size limit.
pub fn json_config_up_to(limit: usize) -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(limit)
        .error_handler(|err, _req| {
            let msg = match &err {
                error::JsonPayloadError::ContentType => {
                    "send the body as application/json".to_string()
                }
                other => format!("bad JSON body: {other}"),
            };
            ApiError(GameError::Invalid(msg.into())).into()
        })
}

/// Bad path parameters (`/worlds/abc`) are simply not found; a literal path of the API asked
/// with a method it does not take (`PATCH /worlds/generate`, routed to `/worlds/{w}`) is 405.
pub fn path_config() -> web::PathConfig {
    web::PathConfig::default().error_handler(|err, req: &HttpRequest| {
        if req.path().starts_with("/api/") {
            if let Some(resp) = wrong_method(req) {
                return error::InternalError::from_response(err, resp).into();
            }
            ApiError(GameError::NotFound("no such resource".into())).into()
        } else {
            super::error::PageError(GameError::NotFound(Said::new("error-no-page").into())).into()
        }
    })
}

pub fn query_config() -> web::QueryConfig {
    web::QueryConfig::default().error_handler(|err, req: &HttpRequest| {
        let e = GameError::Invalid(Said::new("error-query").s("detail", err.to_string()).into());
        if req.path().starts_with("/api/") {
            ApiError(e).into()
        } else {
            super::error::PageError(e).into()
        }
    })
}

/// A form body that cannot be read is a bad request page.
pub fn form_config() -> web::FormConfig {
    form_config_up_to(BODY_LIMIT)
}

pub fn form_config_up_to(limit: usize) -> web::FormConfig {
    web::FormConfig::default()
        .limit(limit)
        .error_handler(|err, _req| {
            super::error::PageError(GameError::Invalid(
                Said::new("error-form").s("detail", err.to_string()).into(),
            ))
            .into()
        })
}

/// No route took the request: a path the API has, asked with another method, is 405 with the
/// methods it takes (from the description); anything else is not found.
pub async fn not_found(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    wrong_method(&req).ok_or(ApiError(GameError::NotFound("no such API endpoint".into())))
}

/// 405 `method_not_allowed` with `Allow`, when the description gives the path other methods
/// than the request's.
fn wrong_method(req: &HttpRequest) -> Option<HttpResponse> {
    let allowed = openapi::methods_at(req.path());
    if allowed.is_empty() || allowed.contains(&req.method().as_str()) {
        return None;
    }
    let message = format!("{} takes {}", req.path(), allowed.join(", "));
    Some(
        HttpResponse::MethodNotAllowed()
            .insert_header(("Allow", allowed.join(", ")))
            .json(crate::wire::error::ErrorBody::new(
                "method_not_allowed",
                &message,
            )),
    )
}

/// A JSON body that may be left out (orders such as `heal` take none): no body reads as
/// `T::default()`, and so does `null`; a body that is there goes through the JSON rules, size limit included.
/// (actix's `Option<Json<_>>` would read an oversized or malformed body as no body at all.)
pub struct OptionalJson<T>(pub T);

impl<T: serde::de::DeserializeOwned + Default + 'static> actix_web::FromRequest
    for OptionalJson<T>
{
    type Error = actix_web::Error;
    type Future = std::pin::Pin<
        Box<dyn std::future::Future<Output = Result<OptionalJson<T>, actix_web::Error>>>,
    >;

    fn from_request(req: &HttpRequest, payload: &mut actix_web::dev::Payload) -> Self::Future {
        let headers = req.headers();
        let empty = headers
            .get(actix_web::http::header::CONTENT_LENGTH)
            .is_none_or(|v| v.as_bytes() == b"0")
            && !headers.contains_key(actix_web::http::header::TRANSFER_ENCODING);
        if empty {
            return Box::pin(std::future::ready(Ok(OptionalJson(T::default()))));
        }
        // `null` is no body too.
        let json = web::Json::<Option<T>>::from_request(req, payload);
        Box::pin(async move { Ok(OptionalJson(json.await?.into_inner().unwrap_or_default())) })
    }
}

/// A whole map's body (up to the route's `PayloadConfig`, 16 MB), read but not parsed: the
/// parsing is the CPU threads' work. Too large a body is a JSON 422 naming the limit, not
/// actix's plain-text 413.
pub struct MapBody(pub web::Bytes);

impl actix_web::FromRequest for MapBody {
    type Error = actix_web::Error;
    type Future =
        std::pin::Pin<Box<dyn std::future::Future<Output = Result<MapBody, actix_web::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut actix_web::dev::Payload) -> Self::Future {
        let bytes = web::Bytes::from_request(req, payload);
        Box::pin(async move {
            bytes.await.map(MapBody).map_err(|e| {
                ApiError(GameError::Invalid(
                    format!(
                        "the body was not read ({e}); a map is at most {} MB",
                        MAP_BODY_LIMIT >> 20
                    )
                    .into(),
                ))
                .into()
            })
        })
    }
}

impl MapBody {
    /// The body as text, for the CPU threads.
    pub fn text(&self) -> Result<&str, GameError> {
        std::str::from_utf8(&self.0)
            .map_err(|_| GameError::Invalid("the body is not UTF-8 text".into()))
    }
}

/// `GET /api/v1/openapi.json`: the API's OpenAPI description.
pub async fn description() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(openapi::description_json())
}
