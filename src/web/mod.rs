//! The HTTP side: the application factory shared by `serve` and the tests, the routes (all
//! declared in `routes`), pages and the JSON API.

pub mod api;
pub mod assets;
pub mod auth;
pub mod error;
pub mod pages;
pub mod routes;
pub mod templates;

use crate::config::Config;
use crate::db::{DbConnection, Pool};
use crate::game::{GameError, GameResult};
use actix_web::dev::Server;
use actix_web::middleware::{Compress, DefaultHeaders};
use actix_web::{web, App, HttpServer};
use std::net::TcpListener;
use std::sync::Arc;
use tera::Tera;

/// What every handler can reach.
pub struct AppState {
    pub pool: Pool,
    pub config: Arc<Config>,
    pub tera: Tera,
}

impl AppState {
    pub fn new(pool: Pool, config: Arc<Config>) -> Result<AppState, tera::Error> {
        Ok(AppState {
            pool,
            config,
            tera: templates::build()?,
        })
    }

    /// Runs `f` on a pooled connection in the blocking thread pool (diesel is synchronous).
    pub async fn db<T, F>(&self, f: F) -> GameResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut DbConnection) -> GameResult<T> + Send + 'static,
    {
        let pool = self.pool.clone();
        web::block(move || {
            let mut conn = pool
                .get()
                .map_err(|e| GameError::Internal(format!("no database connection: {e}")))?;
            f(&mut conn)
        })
        .await
        .map_err(|e| GameError::Internal(format!("blocking task failed: {e}")))?
    }
}

/// Security headers on every response.
pub fn security_headers() -> DefaultHeaders {
    DefaultHeaders::new()
        .add((
            "Content-Security-Policy",
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
             object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        ))
        .add(("X-Content-Type-Options", "nosniff"))
        .add(("Referrer-Policy", "same-origin"))
        .add(("X-Frame-Options", "DENY"))
}

/// A running HTTP server bound to a listener (port 0 in tests).
pub struct Application {
    port: u16,
    server: Server,
}

impl Application {
    pub fn build(state: AppState, listener: TcpListener) -> std::io::Result<Application> {
        let port = listener.local_addr()?.port();
        let workers = state.config.settings.server.workers;
        let data = web::Data::new(state);
        let mut server = HttpServer::new(move || {
            App::new()
                .wrap(security_headers())
                .wrap(Compress::default())
                .wrap(tracing_actix_web::TracingLogger::default())
                .app_data(data.clone())
                .configure(routes::configure)
        })
        .shutdown_timeout(10)
        .listen(listener)?;
        if workers > 0 {
            server = server.workers(workers);
        }
        Ok(Application {
            port,
            server: server.run(),
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn handle(&self) -> actix_web::dev::ServerHandle {
        self.server.handle()
    }

    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.server.await
    }
}
