//! The HTTP side: the application factory shared by `serve` and the tests, the routes (all
//! declared in `routes`), pages and the JSON API.

pub mod api;
pub mod assets;
pub mod auth;
pub mod cpu;
pub mod error;
pub mod form_post;
pub mod gzip;
pub mod live;
pub mod middleware;
pub mod order_input;
pub mod pages;
pub mod render;
pub mod routes;
pub mod rulebook;
pub mod templates;

use crate::config::Config;
use crate::db::{DbConnection, Pool};
use crate::game::{GameError, GameResult};
use crate::i18n::Lang;
use crate::ids::WorldId;
use crate::rules::Season;
use crate::wire::screens::FirstSteps;
use actix_web::dev::Server;
use actix_web::middleware::{from_fn, Compress, DefaultHeaders};
use actix_web::{web, App, HttpServer};
use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;
use tera::Tera;

/// What every handler can reach.
pub struct AppState {
    pub pool: Pool,
    pub config: Arc<Config>,
    pub tera: Tera,
    /// The map's legend in each language and season, written once: it depends on nothing else.
    legends: Vec<((Lang, Season), String)>,
    /// The first day's checklist in each language and state of its steps, written once: the
    /// page printed it through a loop with a message call per step.
    first_days: Vec<String>,
    /// The rulebook page in each language, made on its first request (pages::rules).
    rulebook: pages::rules::Cache,
    /// One permit per pooled connection: requests wait their turn here, first come first
    /// served, rather than as blocked threads all woken for each connection given back.
    db_slots: Arc<tokio::sync::Semaphore>,
    cpu: cpu::CpuSlots,
    /// Players' orders waiting for the database's writer (written in groups on SQLite).
    pub writes: Arc<crate::db::group::Group>,
    /// The live streams this process holds.
    pub live: Arc<live::Live>,
    /// Requests to players' addresses (webhooks): checked when they are registered.
    pub outgoing: Arc<crate::outgoing::Outgoing>,
}

impl AppState {
    pub fn new(pool: Pool, config: Arc<Config>) -> Result<AppState, tera::Error> {
        let slots = pool.max_size().max(1) as usize;
        let tera = templates::build()?;
        let mut legends = Vec::new();
        for lang in Lang::ALL {
            for season in [Season::Summer, Season::Winter] {
                let mut ctx = tera::Context::new();
                ctx.insert("lang", lang.code());
                ctx.insert("legend", &render::legend::legend(&config.rules, season));
                let name = templates::in_lang(lang, "partials/legend.html");
                legends.push(((lang, season), tera.render(&name, &ctx)?));
            }
        }
        let mut first_days = Vec::with_capacity(Lang::ALL.len() << FirstSteps::COUNT);
        for lang in Lang::ALL {
            for state in 0..1u32 << FirstSteps::COUNT {
                let steps = FirstSteps::from_index(state);
                let mut ctx = tera::Context::new();
                ctx.insert("lang", lang.code());
                ctx.insert("steps", &steps.list());
                let name = templates::in_lang(lang, "partials/first_day.html");
                let html = tera.render(&name, &ctx)?;
                first_days.push(html.trim_end_matches('\n').to_string());
            }
        }
        Ok(AppState {
            pool,
            config: config.clone(),
            tera,
            legends,
            first_days,
            rulebook: pages::rules::Cache::default(),
            db_slots: Arc::new(tokio::sync::Semaphore::new(slots)),
            cpu: cpu::CpuSlots::new(cores()),
            writes: Arc::default(),
            live: Arc::new(live::Live::new(config.settings.live.clone())),
            outgoing: Arc::new(crate::outgoing::Outgoing::new(&config.settings.push)),
        })
    }

    /// The map's legend (HTML) in a language and season.
    pub fn legend(&self, lang: Lang, season: Season) -> &str {
        self.legends
            .iter()
            .find(|(k, _)| *k == (lang, season))
            .map_or("", |(_, html)| html.as_str())
    }

    /// The first day's checklist (HTML) in a language, its steps ticked as `steps` says.
    pub fn first_day(&self, lang: Lang, steps: &FirstSteps) -> &str {
        let i = Lang::ALL.iter().position(|l| *l == lang).unwrap_or(0);
        &self.first_days[(i << FirstSteps::COUNT) + steps.index() as usize]
    }

    /// Runs CPU-heavy work (password hashing, map generation) on a thread of its own, at most
    /// one per core at a time, holding no database connection.
    pub async fn cpu<T, F>(&self, f: F) -> GameResult<T>
    where
        T: Send + 'static,
        F: FnOnce() -> GameResult<T> + Send + 'static,
    {
        self.cpu.run(f).await
    }

    /// Creates a world from an upload: `parse` reads and the map is validated on the CPU
    /// threads (bounded, away from the HTTP workers and holding no connection), then the
    /// world is written. Returns its id.
    pub async fn import_world<F>(&self, parse: F) -> GameResult<WorldId>
    where
        F: FnOnce(&crate::rules::Ruleset) -> GameResult<crate::game::maps::mapfile::MapFile>
            + Send
            + 'static,
    {
        let config = self.config.clone();
        let valid = self
            .cpu(move || {
                let map = parse(&config.rules)?;
                Ok(map.validate(&config.rules)?)
            })
            .await?;
        self.db(move |conn| crate::game::maps::worlds::import(conn, &valid, None))
            .await
    }

    /// Runs `f` on a pooled connection in the blocking thread pool (diesel is synchronous).
    pub async fn db<T, F>(&self, f: F) -> GameResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut DbConnection) -> GameResult<T> + Send + 'static,
    {
        // A request that cannot have its turn soon is refused rather than queued: past what
        // the database can do, a queue only grows, and every answer in it comes too late.
        let wait = Duration::from_millis(self.config.settings.database.queue_wait_ms.max(1));
        let _slot = match tokio::time::timeout(wait, self.db_slots.acquire()).await {
            Ok(slot) => {
                slot.map_err(|e| GameError::Internal(format!("database slots closed: {e}")))?
            }
            Err(_) => {
                tracing::warn!("no turn at the database: refused");
                return Err(GameError::Busy { retry_after: 1 });
            }
        };
        let pool = self.pool.clone();
        web::block(move || {
            let mut conn = pool.get().map_err(|e| {
                tracing::warn!(error = %e, "no database connection");
                GameError::Busy { retry_after: 2 }
            })?;
            match f(&mut conn) {
                // The connection is gone (the database restarted): it is dropped when given
                // back, and the same request may be sent again at once.
                Err(GameError::Db(e)) if crate::db::is_lost(&e) => {
                    tracing::warn!(error = %e, "database connection lost");
                    conn.mark_lost();
                    Err(GameError::Busy { retry_after: 1 })
                }
                Err(GameError::Db(e)) if crate::db::is_busy(&e) => {
                    tracing::warn!(error = %e, "database locked");
                    Err(GameError::Busy { retry_after: 2 })
                }
                result => result,
            }
        })
        .await
        .map_err(|e| GameError::Internal(format!("blocking task failed: {e}")))?
    }
}

impl crate::game::Workers for AppState {
    fn config(&self) -> &Config {
        &self.config
    }

    fn db<T, F>(&self, f: F) -> impl std::future::Future<Output = GameResult<T>> + Send
    where
        T: Send + 'static,
        F: FnOnce(&mut DbConnection) -> GameResult<T> + Send + 'static,
    {
        AppState::db(self, f)
    }

    fn cpu<T, F>(&self, f: F) -> impl std::future::Future<Output = GameResult<T>> + Send
    where
        T: Send + 'static,
        F: FnOnce() -> GameResult<T> + Send + 'static,
    {
        AppState::cpu(self, f)
    }
}

/// Security headers on every response (a handler's own header of the same name wins); over
/// HTTPS, browsers are told to use nothing else for a year. What may be cached is said by
/// [`middleware::cache_policy`].
pub fn security_headers(https: bool) -> DefaultHeaders {
    let headers = DefaultHeaders::new();
    let headers = if https {
        headers.add(("Strict-Transport-Security", "max-age=31536000"))
    } else {
        headers
    };
    headers
        .add((
            "Content-Security-Policy",
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
             object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        ))
        .add(("X-Content-Type-Options", "nosniff"))
        .add(("Referrer-Policy", "same-origin"))
        .add(("X-Frame-Options", "DENY"))
        // The viewport's size on the next requests: a first visit's map is drawn for the room
        // it has (pages::world::viewport_hint).
        .add(("Accept-CH", "Sec-CH-Viewport-Width, Sec-CH-Viewport-Height"))
}

/// The machine's cores (what actix-web starts a worker for by default).
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A running HTTP server bound to a listener (port 0 in tests).
pub struct Application {
    port: u16,
    server: Server,
    live: Arc<live::Live>,
}

impl Application {
    pub fn build(state: AppState, listener: TcpListener) -> std::io::Result<Application> {
        let port = listener.local_addr()?.port();
        let workers = match state.config.settings.server.workers {
            0 => cores(),
            n => n,
        };
        // Each worker runs the database's work on its own blocking threads; with more threads
        // than its share of the pool's connections, every request woke an idle thread (and the
        // thread went back to sleep after it): a sixth of those threads' time in the map's
        // profile. At its share, a thread that finishes takes the next waiting request at once.
        let db_threads = (state.pool.max_size().max(1) as usize).div_ceil(workers);
        let server_settings = state.config.settings.server.clone();
        let https = server_settings.https;
        let data = web::Data::new(state);
        let live = data.live.clone();
        live::start(data.clone());
        let server = HttpServer::new(move || {
            App::new()
                .wrap(from_fn(middleware::head_as_get))
                .wrap(from_fn(middleware::errors_in_lang))
                .wrap(security_headers(https))
                .wrap(from_fn(middleware::cache_policy))
                .wrap(from_fn(middleware::compress_sized))
                .wrap(Compress::default())
                .wrap(from_fn(middleware::unmark_small))
                .wrap(tracing_actix_web::TracingLogger::<middleware::RequestLine>::new())
                .app_data(data.clone())
                .configure(routes::configure)
        })
        // An answer may go out in several writes (its head and body, a streamed body); with
        // Nagle's algorithm the last one waited for the client's delayed acknowledgement, 40 ms
        // on Linux (it did on every page).
        .tcp_nodelay(true)
        // Slow clients: a connection's first request head must come within the limit (408
        // then), an idle connection is closed after the keep-alive, a closing one after a
        // second; each worker holds a bounded number of connections. A client is a future on
        // the worker, never a thread: a slow one holds a connection, not a worker.
        .client_request_timeout(Duration::from_millis(
            server_settings.client_request_timeout_ms.max(1),
        ))
        .keep_alive(Duration::from_secs(server_settings.keep_alive_seconds))
        .client_disconnect_timeout(Duration::from_secs(1))
        // A client that closes its side is gone (browsers and proxies do not half-close
        // after a request): the connection ends at once, and a live stream's place with it,
        // not at the next keep-alive written to a socket no one reads (a reloaded page's old
        // stream then counted against the player's limit for up to 20 s).
        .h1_allow_half_closed(false)
        // A streamed answer's pieces are gathered up to this before a write. A connection
        // keeps its write buffer at the largest size it reached (under 128 KiB) while open:
        // with the default 32 KiB, every idle live stream held 32 KiB or more.
        .h1_write_buffer_size(4096)
        .max_connections(server_settings.max_connections.max(1))
        .shutdown_timeout(10)
        // Signals are heard by `run_until_stopped`, which ends the live streams first.
        .disable_signals()
        .workers(workers)
        .worker_max_blocking_threads(db_threads)
        .listen(listener)?;
        Ok(Application {
            port,
            server: server.run(),
            live,
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn handle(&self) -> actix_web::dev::ServerHandle {
        self.server.handle()
    }

    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let handle = self.server.handle();
        let live = self.live.clone();
        actix_web::rt::spawn(async move {
            stop_signal().await;
            // Live streams never end by themselves: ended first, or the graceful stop would
            // wait its whole timeout for them. Their browsers reconnect to another process.
            live.stop();
            handle.stop(true).await;
        });
        let ran = self.server.await;
        self.live.stop();
        ran
    }
}

/// SIGTERM (a service manager) or SIGINT (Ctrl-C): the server stops gracefully.
async fn stop_signal() {
    use actix_web::rt::signal::unix::{signal, SignalKind};
    match signal(SignalKind::terminate()) {
        Ok(mut term) => {
            tokio::select! {
                _ = actix_web::rt::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
        }
        Err(e) => {
            tracing::warn!(error = %e, "SIGTERM cannot be heard: only Ctrl-C stops the server");
            let _ = actix_web::rt::signal::ctrl_c().await;
        }
    }
}
