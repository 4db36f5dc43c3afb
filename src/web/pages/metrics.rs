//! `/metrics`: Prometheus text exposition of what the database holds and how ticks went.

use crate::db::schema::{companies, players, ticks, users, worlds};
use crate::game::accounts::secret::same_secret;
use crate::game::GameResult;
use crate::web::error::PageError;
use crate::web::AppState;
use actix_web::{web, HttpRequest, HttpResponse};
use diesel::prelude::*;

/// `written`: the batches of orders this server wrote, and the orders in them.
fn gather(conn: &mut crate::db::DbConnection, written: (u64, u64)) -> GameResult<String> {
    let count = |n: i64, name: &str, help: &str| {
        format!("# HELP {name} {help}\n# TYPE {name} gauge\n{name} {n}\n")
    };
    let worlds_n: i64 = worlds::table.count().get_result(conn)?;
    let paused: i64 = worlds::table
        .filter(worlds::paused.eq(true))
        .count()
        .get_result(conn)?;
    let users_n: i64 = users::table.count().get_result(conn)?;
    let players_n: i64 = players::table.count().get_result(conn)?;
    let companies_n: i64 = companies::table.count().get_result(conn)?;
    let mut out = String::new();
    out += &count(worlds_n, "grognard_worlds", "Worlds on this server.");
    out += &count(
        paused,
        "grognard_worlds_paused",
        "Worlds paused by a game master.",
    );
    out += &count(users_n, "grognard_users", "Registered accounts.");
    out += &count(players_n, "grognard_players", "Players who joined a world.");
    out += &count(companies_n, "grognard_companies", "Companies on the maps.");
    let (batches, batched) = written;
    out += &format!(
        "# HELP grognard_write_batches_total Transactions that wrote players' orders together (SQLite).\n# TYPE grognard_write_batches_total counter\ngrognard_write_batches_total {batches}\n"
    );
    out += &format!(
        "# HELP grognard_batched_orders_total Orders written in those transactions.\n# TYPE grognard_batched_orders_total counter\ngrognard_batched_orders_total {batched}\n"
    );
    out += "# HELP grognard_ticks_total Ticks applied, by world and kind.\n# TYPE grognard_ticks_total counter\n";
    let per: Vec<(i32, String, i64, Option<i64>)> = ticks::table
        .group_by((ticks::world_id, ticks::kind))
        .select((
            ticks::world_id,
            ticks::kind,
            diesel::dsl::count_star(),
            diesel::dsl::max(ticks::applied_at),
        ))
        .load(conn)?;
    for (w, kind, n, _) in &per {
        out += &format!("grognard_ticks_total{{world=\"{w}\",kind=\"{kind}\"}} {n}\n");
    }
    out += "# HELP grognard_last_tick_timestamp_seconds When the last tick of a kind was applied.\n# TYPE grognard_last_tick_timestamp_seconds gauge\n";
    for (w, kind, _, last) in &per {
        out += &format!(
            "grognard_last_tick_timestamp_seconds{{world=\"{w}\",kind=\"{kind}\"}} {}\n",
            last.unwrap_or(0)
        );
    }
    Ok(out)
}

/// Operators only: 404 unless a token is configured, 401 without it.
pub async fn metrics(
    state: web::Data<AppState>,
    req: HttpRequest,
) -> Result<HttpResponse, PageError> {
    let token = &state.config.settings.security.metrics_token;
    if token.is_empty() {
        return super::not_found().await;
    }
    let sent = req
        .headers()
        .get("Authorization")
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.strip_prefix("Bearer "))
        .unwrap_or("");
    if !same_secret(sent.trim(), token) {
        return Ok(HttpResponse::Unauthorized()
            .insert_header(("WWW-Authenticate", "Bearer"))
            .content_type("text/plain")
            .body("send the metrics token: Authorization: Bearer <token>\n"));
    }
    let written = state.writes.written();
    Ok(match state.db(move |conn| gather(conn, written)).await {
        Ok(text) => HttpResponse::Ok()
            .content_type("text/plain; version=0.0.4")
            .body(text),
        Err(e) => {
            tracing::error!(error = %e, "metrics");
            HttpResponse::ServiceUnavailable()
                .content_type("text/plain")
                .body("# the database does not answer\n")
        }
    })
}
