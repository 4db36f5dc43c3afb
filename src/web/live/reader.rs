//! The reader of the live log: woken after each commit that wrote to it (by this process on
//! SQLite, by `NOTIFY` on PostgreSQL) and every few seconds in any case (a writer in another
//! process on SQLite, a notification lost with its connection), it reads the rows it has not
//! read, reads once what they concern for the streams of this process, and tells each stream
//! its part. Clients joining are admitted here too, between two batches.

use super::cursor::Cursor;
use super::room::{Missed, News, Room, REPLAY};
use super::Join;
use crate::db::live::{self, Change};
use crate::game::news::alerts::Alert;
use crate::game::screens::live::{self as screen, Frame, Reported};
use crate::game::{GameError, GameResult};
use crate::ids::{AlertId, EventId, NationId, UserId, WorldId};
use crate::rules::names::LiveTopic;
use crate::web::auth::ApiCredentials;
use crate::web::AppState;
use crate::wire::live::ResyncReason;
use actix_web::web::Data;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// Rows read at once.
const PAGE: i64 = 2000;
/// Alerts of one user told in one batch at most.
const ALERTS: i64 = 50;
/// How far a resuming client's id may run ahead of this process's clock (another process's
/// clock gave it): further, it was not given by a server of this world.
const SKEW_MS: i64 = 60_000;
/// A row is waited for this long (the reader's cursor): as far back a resumption reads.
const WAIT_MS: i64 = super::cursor::HOLE_WAIT.as_millis() as i64;

pub async fn run(state: Data<AppState>, mut joins: mpsc::UnboundedReceiver<Join>) {
    let live = state.live.clone();
    // Another process may write on SQLite too (the CLI's tick): read at least this often.
    let sqlite = matches!(
        crate::db::Target::parse(&state.config.settings.database.url),
        crate::db::Target::Sqlite(_)
    );
    let fallback = if sqlite {
        Duration::from_secs(1)
    } else {
        Duration::from_secs(5)
    };
    let mut reader = Reader {
        state,
        rooms: HashMap::new(),
        cursor: None,
    };
    let mut swept = Instant::now();
    while !live.is_stopped() {
        tokio::select! {
            join = joins.recv() => match join {
                Some(join) => {
                    if reader.cursor.is_none() || reader.rooms.is_empty() {
                        reader.place().await;
                    } else {
                        reader.read().await;
                    }
                    reader.admit(join).await;
                    while let Ok(join) = joins.try_recv() {
                        reader.admit(join).await;
                    }
                }
                None => break,
            },
            _ = crate::db::LIVE_COMMITS.notified() => reader.read().await,
            _ = tokio::time::sleep(fallback) => reader.read().await,
        }
        if swept.elapsed() >= Duration::from_secs(10) {
            reader.rooms.retain(|_, room| {
                room.sweep();
                !room.streams.is_empty()
            });
            swept = Instant::now();
        }
    }
}

struct Reader {
    state: Data<AppState>,
    rooms: HashMap<WorldId, Room>,
    /// None until the log was first read.
    cursor: Option<Cursor>,
}

/// What one world's streams need read for a batch.
struct Ask {
    world: WorldId,
    nations: Vec<NationId>,
    frame: bool,
    events: Vec<EventId>,
    alerts: Vec<(UserId, AlertId)>,
}

/// What was read for one world.
struct Answer {
    world: WorldId,
    frame: Option<Frame>,
    reports: Vec<Reported>,
    alerts: HashMap<UserId, Vec<Alert>>,
}

impl Reader {
    async fn db<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut crate::db::DbConnection) -> GameResult<T> + Send + 'static,
    ) -> Option<T> {
        match self.state.db(f).await {
            Ok(v) => Some(v),
            Err(e) => {
                tracing::warn!(error = %e, "the live streams could not read");
                None
            }
        }
    }

    /// Reads the rows not read yet and tells the streams.
    async fn read(&mut self) {
        if self.rooms.is_empty() {
            // Nobody listens: nothing to tell, and the database is left alone (a process no
            // one streams from reads no log). The next client to join places the cursor.
            self.cursor = None;
            return;
        }
        if self.cursor.is_none() {
            self.place().await;
            return;
        }
        loop {
            let Some(cursor) = self.cursor.as_mut() else {
                return;
            };
            let after = cursor.after();
            let Some(rows) = self.db(move |c| Ok(live::since(c, after, PAGE)?)).await else {
                return;
            };
            let Some(cursor) = self.cursor.as_mut() else {
                return;
            };
            let fresh = cursor.take(rows.iter().map(|r| r.id), Instant::now());
            let full = rows.len() as i64 == PAGE;
            if fresh.is_empty() {
                return;
            }
            let fresh: Vec<Change> = rows
                .into_iter()
                .filter(|r| fresh.binary_search(&r.id).is_ok())
                .collect();
            self.tell(fresh).await;
            if !full {
                return;
            }
        }
    }

    /// Places the cursor where the log stands: what was written before is not news.
    async fn place(&mut self) {
        if let Some(newest) = self.db(|c| Ok(live::newest(c)?)).await {
            self.cursor = Some(Cursor::at(newest.unwrap_or(0)));
        }
    }

    /// Tells the streams what `rows` changed.
    async fn tell(&mut self, rows: Vec<Change>) {
        let mut asks: HashMap<WorldId, Ask> = HashMap::new();
        let mut unread: HashSet<UserId> = HashSet::new();
        let mut access: HashSet<UserId> = HashSet::new();
        let watched: HashSet<UserId> = self
            .rooms
            .values()
            .flat_map(|r| r.streams.iter().map(|s| s.user))
            .collect();
        for r in &rows {
            match (r.world, r.topic) {
                (_, LiveTopic::Message) => unread.extend(r.user.filter(|u| watched.contains(u))),
                (_, LiveTopic::Access) => access.extend(r.user.filter(|u| watched.contains(u))),
                (Some(w), topic) => {
                    let Some(room) = self.rooms.get(&w) else {
                        continue;
                    };
                    let ask = asks.entry(w).or_insert_with(|| Ask {
                        world: w,
                        nations: room.nations(),
                        frame: false,
                        events: Vec::new(),
                        alerts: Vec::new(),
                    });
                    match topic {
                        LiveTopic::Event => {
                            ask.frame = true;
                            ask.events.extend(r.reference.map(EventId));
                        }
                        LiveTopic::Map | LiveTopic::World => ask.frame = true,
                        LiveTopic::Alert => {
                            if let Some(u) = r.user {
                                let after = room
                                    .streams
                                    .iter()
                                    .filter(|s| s.user == u)
                                    .map(|s| s.last_alert)
                                    .min();
                                if let Some(after) = after {
                                    if !ask.alerts.iter().any(|(v, _)| *v == u) {
                                        ask.alerts.push((u, after));
                                    }
                                }
                            }
                        }
                        LiveTopic::Message | LiveTopic::Access => {}
                    }
                }
                (None, _) => {}
            }
        }
        let checks: Vec<(u64, ApiCredentials)> = self
            .rooms
            .values()
            .flat_map(|r| r.streams.iter())
            .filter(|s| access.contains(&s.user))
            .map(|s| (s.key, s.credentials.clone()))
            .collect();
        let config = self.state.config.clone();
        let asks: Vec<Ask> = asks.into_values().collect();
        let unread: Vec<UserId> = unread.into_iter().collect();
        let read = self
            .db(move |conn| {
                let mut answers = Vec::with_capacity(asks.len());
                for ask in asks {
                    let frame = match ask.frame {
                        true => match screen::frame(conn, &config, ask.world, &ask.nations) {
                            Ok(f) => Some(f),
                            Err(GameError::NotFound(_)) => None,
                            Err(e) => return Err(e),
                        },
                        false => None,
                    };
                    let reports = screen::reported(conn, &ask.events)?;
                    let mut alerts = HashMap::new();
                    for (user, after) in ask.alerts {
                        let told = screen::alerts_after(conn, user, ask.world, after, ALERTS)?;
                        alerts.insert(user, told);
                    }
                    answers.push(Answer {
                        world: ask.world,
                        frame,
                        reports,
                        alerts,
                    });
                }
                let unread = screen::unread(conn, &unread)?;
                let refused: HashSet<u64> = checks
                    .into_iter()
                    .filter(|(_, c)| c.clone().resolve_reading(conn).is_err())
                    .map(|(key, _)| key)
                    .collect();
                Ok((answers, unread, refused))
            })
            .await;
        let Some((answers, unread, refused)) = read else {
            return;
        };
        if !refused.is_empty() {
            for room in self.rooms.values_mut() {
                room.close(&refused);
            }
        }
        let mut told: HashSet<WorldId> = HashSet::new();
        for a in answers {
            let Some(room) = self.rooms.get_mut(&a.world) else {
                continue;
            };
            let news = News {
                reports: a.reports,
                alerts: a.alerts,
                unread: unread.clone(),
            };
            room.tell(a.frame.map(Arc::new), &news);
            told.insert(a.world);
        }
        if !unread.is_empty() {
            let news = News {
                unread,
                ..News::default()
            };
            for (w, room) in self.rooms.iter_mut() {
                if !told.contains(w) {
                    room.tell(None, &news);
                }
            }
        }
        self.rooms.retain(|_, r| !r.streams.is_empty());
    }

    /// Admits a client: tells it everything as it stands and what it missed since `from`.
    async fn admit(&mut self, join: Join) {
        let floor = self.cursor.as_ref().map_or(0, Cursor::floor);
        let (world, user) = (join.world, join.user);
        let room = self.rooms.entry(world).or_default();
        let cached = room
            .frame
            .clone()
            .filter(|f| f.sights.contains_key(&join.nation));
        let mut nations = room.nations();
        if !nations.contains(&join.nation) {
            nations.push(join.nation);
        }
        let config = self.state.config.clone();
        let keep_minutes = config.settings.live.keep_minutes;
        let from = join.from;
        let read = self
            .db(move |conn| {
                let frame = match cached {
                    Some(f) => f,
                    None => Arc::new(screen::frame(conn, &config, world, &nations)?),
                };
                // Ids are times (UNIX ms), which tell a client nothing it does not know.
                let now = live::now_ms();
                let kept_since = now - keep_minutes.saturating_mul(60_000);
                let (resync, missed) = match from {
                    None => (None, Vec::new()),
                    Some(t) if t > now + SKEW_MS => (Some(ResyncReason::Unknown), Vec::new()),
                    Some(t) if t < kept_since => (Some(ResyncReason::TooOld), Vec::new()),
                    // A row written a little before `t` may have committed after it.
                    Some(t) => (None, live::missed(conn, world, user, t - WAIT_MS, floor)?),
                };
                let events: Vec<EventId> = missed
                    .iter()
                    .filter(|r| r.topic == LiveTopic::Event)
                    .filter_map(|r| r.reference.map(EventId))
                    .collect();
                let reports = screen::reported(conn, &events)?;
                let first_alert = missed
                    .iter()
                    .filter(|r| r.topic == LiveTopic::Alert && r.user == Some(user))
                    .map(|r| r.at)
                    .min();
                let alerts = match first_alert {
                    Some(at) => screen::alerts_since(conn, user, world, at / 1000, REPLAY as i64)?,
                    None => Vec::new(),
                };
                let last_alert = screen::last_alert(conn, user, world)?;
                let unread = screen::unread(conn, &[user])?
                    .get(&user)
                    .copied()
                    .unwrap_or(0);
                Ok((frame, resync, reports, alerts, last_alert, unread))
            })
            .await;
        let Some((frame, resync, reports, alerts, last_alert, unread)) = read else {
            // The client's stream ends; it tries again.
            return;
        };
        let room = self.rooms.entry(world).or_default();
        let before = last_alert.min(alerts.first().map_or(last_alert, |a| AlertId(a.id.0 - 1)));
        let missed = Missed {
            reports,
            alerts,
            last_alert: before,
            unread,
            resync,
        };
        room.admit(join, frame, missed);
        if room.streams.is_empty() {
            self.rooms.remove(&world);
        }
    }
}
