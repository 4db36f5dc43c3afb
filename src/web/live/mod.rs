//! The live streams of this process (`GET /api/v1/worlds/{w}/live`): who holds one, the limits
//! on them, and the reader that turns the live log (`db::live`) into each stream's
//! events. Every stream's state lives in the reader's one task, so that a stream joining and a
//! batch of changes never interleave; the handler only admits a client and hands it over.

pub mod cursor;
mod listen;
mod reader;
mod room;

use crate::config::LiveSettings;
use crate::game::{GameError, GameResult};
use crate::i18n::Lang;
use crate::ids::{NationId, UserId, WorldId};
use crate::web::auth::ApiCredentials;
use actix_web_lab::sse;
use std::collections::HashMap;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use tokio::sync::mpsc;

/// A client admitted to a stream, handed to the reader.
pub struct Join {
    pub world: WorldId,
    pub user: UserId,
    pub nation: NationId,
    pub lang: Lang,
    /// What it was admitted with: checked again when its user's credentials change.
    pub credentials: ApiCredentials,
    /// The last event id it had (`Last-Event-ID` or `?from=`): what it missed since is sent.
    pub from: Option<i64>,
    pub tx: mpsc::Sender<sse::Event>,
}

/// This process's live streams.
pub struct Live {
    settings: LiveSettings,
    joins: mpsc::UnboundedSender<Join>,
    /// Taken by the reader when it starts.
    waiting: Mutex<Option<mpsc::UnboundedReceiver<Join>>>,
    open: Mutex<Open>,
    stopped: Arc<AtomicBool>,
}

#[derive(Default)]
struct Open {
    total: usize,
    per_user: HashMap<UserId, usize>,
}

impl Live {
    pub fn new(settings: LiveSettings) -> Live {
        let (joins, waiting) = mpsc::unbounded_channel();
        Live {
            settings,
            joins,
            waiting: Mutex::new(Some(waiting)),
            open: Mutex::default(),
            stopped: Arc::default(),
        }
    }

    pub fn settings(&self) -> &LiveSettings {
        &self.settings
    }

    fn open(&self) -> std::sync::MutexGuard<'_, Open> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Admits one more stream of `user`, within the limits: the ticket stands for it until
    /// dropped (its client gone).
    pub fn admit(self: &Arc<Live>, user: UserId) -> GameResult<Ticket> {
        let mut open = self.open();
        if open.total >= self.settings.streams_per_process {
            return Err(GameError::Busy { retry_after: 5 });
        }
        let mine = open.per_user.entry(user).or_default();
        if *mine >= self.settings.streams_per_user {
            return Err(GameError::RateLimited { retry_after: 5 });
        }
        *mine += 1;
        open.total += 1;
        Ok(Ticket {
            live: self.clone(),
            user,
        })
    }

    /// Hands an admitted client to the reader.
    pub fn join(&self, join: Join) {
        // The reader stops only with the server: a client joining then is simply dropped.
        let _ = self.joins.send(join);
    }

    /// Streams open now.
    pub fn count(&self) -> usize {
        self.open().total
    }

    /// Stops the reader and the listener (the server stopped).
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::Release);
        crate::db::LIVE_COMMITS.notify_one();
    }

    fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::Acquire)
    }
}

/// Starts the reader of the live log (and on PostgreSQL its listener) on a thread of its own.
pub fn start(state: actix_web::web::Data<crate::web::AppState>) {
    let Some(joins) = state
        .live
        .waiting
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
    else {
        return;
    };
    if let crate::db::Target::Postgres(url) =
        crate::db::Target::parse(&state.config.settings.database.url)
    {
        listen::spawn(url, state.live.stopped.clone());
    }
    let spawned = std::thread::Builder::new()
        .name("live-reader".into())
        .spawn(move || {
            actix_web::rt::System::new().block_on(reader::run(state, joins));
        });
    if let Err(e) = spawned {
        tracing::error!(error = %e, "the live streams' reader did not start");
    }
}

/// One admitted stream, counted until dropped.
pub struct Ticket {
    live: Arc<Live>,
    user: UserId,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut open = self.live.open();
        open.total = open.total.saturating_sub(1);
        if let Some(n) = open.per_user.get_mut(&self.user) {
            *n -= 1;
            if *n == 0 {
                open.per_user.remove(&self.user);
            }
        }
    }
}

/// What a stream's response reads: its events, until the reader drops its sender (closed,
/// credentials gone) or the client goes (the ticket is dropped with it).
pub struct Events {
    rx: mpsc::Receiver<sse::Event>,
    _ticket: Ticket,
}

impl Events {
    pub fn new(rx: mpsc::Receiver<sse::Event>, ticket: Ticket) -> Events {
        Events {
            rx,
            _ticket: ticket,
        }
    }
}

impl futures_core::Stream for Events {
    type Item = sse::Event;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<sse::Event>> {
        self.rx.poll_recv(cx)
    }
}
