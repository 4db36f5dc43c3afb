//! `/healthz`: the server answers and its database does too.

use crate::db;
use crate::web::AppState;
use actix_web::{web, HttpResponse};
use serde_json::json;

pub async fn healthz(state: web::Data<AppState>) -> HttpResponse {
    let ok = state.db(|conn| Ok(db::ping(conn))).await.unwrap_or(false);
    if ok {
        HttpResponse::Ok().json(json!({"status": "ok", "database": "ok"}))
    } else {
        HttpResponse::ServiceUnavailable()
            .json(json!({"status": "error", "database": "unreachable"}))
    }
}
