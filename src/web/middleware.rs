//! Small middleware of our own: the request log line, and keeping small answers uncompressed.

use actix_web::body::{BodySize, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderValue, CONTENT_ENCODING};
use actix_web::middleware::Next;
use actix_web::Error;
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

/// Bodies below this size are sent as they are: compressing them costs more time than the
/// bytes it saves.
const COMPRESS_FROM: u64 = 1024;

/// Marks small answers so that the compression middleware (outside this one) leaves them
/// alone; `unmark_small` (outside that) takes the mark off again.
pub async fn mark_small(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let mut res = next.call(req).await?;
    if matches!(res.response().body().size(), BodySize::Sized(n) if n < COMPRESS_FROM)
        && !res.headers().contains_key(CONTENT_ENCODING)
    {
        res.headers_mut()
            .insert(CONTENT_ENCODING, HeaderValue::from_static("identity"));
    }
    Ok(res)
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
