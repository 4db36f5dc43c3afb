//! `/healthz`: the server answers and its database does too.

use crate::db;
use crate::web::AppState;
use actix_web::{web, HttpResponse};

pub async fn healthz(state: web::Data<AppState>) -> HttpResponse {
    let ok = state.db(|conn| Ok(db::ping(conn))).await.unwrap_or(false);
    if ok {
        HttpResponse::Ok().json(Health {
            status: "ok",
            database: "ok",
        })
    } else {
        HttpResponse::ServiceUnavailable().json(Health {
            status: "error",
            database: "unreachable",
        })
    }
}

/// `GET /healthz`.
#[derive(serde::Serialize)]
pub struct Health {
    pub status: &'static str,
    pub database: &'static str,
}
