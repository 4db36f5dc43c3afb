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
use crate::rules::names::LiveEvent;
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
    pub tx: mpsc::Sender<Burst>,
}

/// One burst of messages waiting in a stream's queue: what one change told it, the last message
/// carrying the burst's id. The queue takes its slots 32 at a time for every stream, idle or
/// not, so a slot is kept to 24 bytes (a framed `sse::Event` takes 104); the messages are
/// framed as they go out.
pub struct Burst {
    pub messages: Box<[Said]>,
    pub id: i64,
}

/// One message: its event and its JSON, shared by the streams told the same.
pub type Said = (LiveEvent, Arc<str>);

fn framed(event: LiveEvent, data: &str, id: Option<i64>) -> sse::Event {
    let mut data = sse::Data::new(data).event(event.as_str());
    if let Some(id) = id {
        data.set_id(id.to_string());
    }
    sse::Event::Data(data)
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
    rx: mpsc::Receiver<Burst>,
    /// The burst going out, from its next message.
    current: Option<(std::vec::IntoIter<Said>, i64)>,
    _ticket: Ticket,
}

impl Events {
    pub fn new(rx: mpsc::Receiver<Burst>, ticket: Ticket) -> Events {
        Events {
            rx,
            current: None,
            _ticket: ticket,
        }
    }
}

impl futures_core::Stream for Events {
    type Item = sse::Event;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<sse::Event>> {
        loop {
            if let Some((messages, id)) = &mut self.current {
                let id = *id;
                if let Some((event, data)) = messages.next() {
                    let last = messages.as_slice().is_empty();
                    return Poll::Ready(Some(framed(event, &data, last.then_some(id))));
                }
                self.current = None;
            }
            match self.rx.poll_recv(cx) {
                Poll::Ready(Some(burst)) => {
                    self.current = Some((burst.messages.into_vec().into_iter(), burst.id));
                }
                Poll::Ready(None) => return Poll::Ready(None),
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_queued_burst_takes_24_bytes_and_goes_out_framed_with_its_id_last() {
        // Every stream's queue holds a block of 32 slots even when idle.
        assert_eq!(std::mem::size_of::<Burst>(), 24);
        let (tx, rx) = mpsc::channel(4);
        let live = Arc::new(Live::new(LiveSettings::default()));
        let ticket = live.admit(UserId(1)).unwrap();
        let mut events = Events::new(rx, ticket);
        tx.try_send(Burst {
            messages: vec![
                (LiveEvent::Turn, Arc::from(r#"{"turn":3}"#)),
                (LiveEvent::Message, Arc::from(r#"{"unread":1}"#)),
            ]
            .into_boxed_slice(),
            id: 1_765_000_000_000,
        })
        .unwrap();
        drop(tx);
        let waker = std::task::Waker::noop();
        let mut cx = Context::from_waker(waker);
        let mut out = Vec::new();
        while let Poll::Ready(Some(sse::Event::Data(d))) =
            futures_core::Stream::poll_next(Pin::new(&mut events), &mut cx)
        {
            out.push(format!("{d:?}"));
        }
        assert_eq!(out.len(), 2, "{out:?}");
        assert!(
            out[0].contains("turn") && !out[0].contains("1765000000000"),
            "{out:?}"
        );
        assert!(
            out[1].contains("unread") && out[1].contains("1765000000000"),
            "{out:?}"
        );
        assert_eq!(live.count(), 1);
        drop(events);
        assert_eq!(live.count(), 0, "the stream's place is freed with it");
    }
}
