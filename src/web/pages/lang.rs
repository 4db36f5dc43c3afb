//! `/lang/{code}`: the visitor chooses the pages' language; it is kept on the browser and, for
//! a signed-in player, on the account (so that their mails and other browsers follow).

use crate::i18n::Lang;
use crate::web::auth::{lang_cookie, Viewer};
use crate::web::error::PageError;
use crate::web::form_post::same_site_path;
use crate::web::AppState;
use actix_web::{web, HttpRequest, HttpResponse};

/// The page to go back to: the referring page's path when it is one of this site's.
fn back(req: &HttpRequest) -> String {
    let host = req.connection_info().host().to_string();
    req.headers()
        .get(actix_web::http::header::REFERER)
        .and_then(|v| v.to_str().ok())
        .and_then(|r| r.split_once("://").map(|(_, rest)| rest))
        .and_then(|rest| rest.strip_prefix(host.as_str()))
        .and_then(same_site_path)
        .unwrap_or("/")
        .to_string()
}

pub async fn choose(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<String>,
) -> Result<HttpResponse, PageError> {
    let Some(lang) = Lang::parse(&path.into_inner()) else {
        return super::not_found().await;
    };
    if let Some(a) = viewer.actor() {
        state
            .db(move |conn| crate::game::accounts::users::set_lang(conn, a.user_id, lang))
            .await?;
    }
    Ok(HttpResponse::SeeOther()
        .cookie(lang_cookie(&state, lang))
        .insert_header(("Location", back(&req)))
        .finish())
}
