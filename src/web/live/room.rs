//! The streams of one world in this process, and what each was last told: a batch of changes
//! becomes, for each stream, only what differs from that, as its player may see it.

use super::{Burst, Join, Said};
use crate::game::news::alerts::Alert;
use crate::game::play::views::Seen;
use crate::game::screens::live::{Clock, Frame, Reported};
use crate::i18n::Lang;
use crate::ids::{AlertId, CompanyId, NationId, UserId};
use crate::rules::names::LiveEvent;
use crate::web::auth::ApiCredentials;
use crate::wire::live::*;
use crate::wire::views::{rfc3339, AlertView, SeenCompany};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::Arc;
use tokio::sync::mpsc;

/// Reports and alerts replayed to a resuming stream at most (the newest): past that the
/// reports page has them.
pub const REPLAY: usize = 20;

/// The id of a burst: the time (UNIX ms), never below one given before in this process. A
/// count of the log's rows would tell a player how much happened where they cannot see.
fn stamp() -> i64 {
    static LAST: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(0);
    let now = crate::db::live::now_ms();
    let before = LAST.fetch_max(now, std::sync::atomic::Ordering::Relaxed);
    before.max(now)
}

/// Each stream's own key, for closing it.
static KEYS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// One stream and what it was told last.
pub struct Stream {
    pub key: u64,
    pub user: UserId,
    pub nation: NationId,
    lang: Lang,
    pub credentials: ApiCredentials,
    tx: mpsc::Sender<Burst>,
    clock: Option<Clock>,
    companies: HashMap<CompanyId, CompanyNews>,
    unread: Option<i32>,
    pub last_alert: AlertId,
}

/// What a batch brings a world's streams besides its frame.
#[derive(Default)]
pub struct News {
    /// The events recorded, as read.
    pub reports: Vec<Reported>,
    /// New alerts of users with a stream here, oldest first.
    pub alerts: HashMap<UserId, Vec<Alert>>,
    /// The messages' badge of users whose badge changed.
    pub unread: HashMap<UserId, i32>,
}

/// What a joining stream is told besides the world as it stands.
pub struct Missed {
    /// Events given since the id it resumes from.
    pub reports: Vec<Reported>,
    /// Its alerts given since, oldest first.
    pub alerts: Vec<Alert>,
    /// The alerts up to this one it has had.
    pub last_alert: AlertId,
    pub unread: i32,
    /// Why what it missed cannot be told, if it cannot.
    pub resync: Option<ResyncReason>,
}

/// Messages for one stream, the last of which will carry the id.
#[derive(Default)]
struct Outbox(Vec<Said>);

impl Outbox {
    fn push<T: Serialize>(&mut self, event: LiveEvent, data: &T) {
        match serde_json::to_string(data) {
            Ok(json) => self.0.push((event, json.into())),
            Err(e) => tracing::error!(error = %e, "a live event could not be written"),
        }
    }

    fn shared(&mut self, event: LiveEvent, json: &Arc<str>) {
        self.0.push((event, json.clone()));
    }

    /// Sends the messages, the last with `id`; false when the client is gone or so slow that
    /// its backlog is full (its stream is then closed: it resumes from its last id).
    fn send(self, tx: &mpsc::Sender<Burst>, id: i64) -> bool {
        let messages = self.0.into_boxed_slice();
        tx.try_send(Burst { messages, id }).is_ok()
    }
}

/// The streams of one world.
#[derive(Default)]
pub struct Room {
    pub streams: Vec<Stream>,
    /// What each nation with a stream here was shown, by company.
    seen: HashMap<NationId, HashMap<CompanyId, SeenCompany>>,
    /// The world as last read.
    pub frame: Option<Arc<Frame>>,
}

fn turn_news(c: &Clock) -> TurnNews {
    TurnNews {
        turn: c.turn,
        season: c.season,
        next_turn_at: rfc3339(c.next_turn_at),
    }
}

fn world_news(c: &Clock) -> WorldNews {
    WorldNews {
        paused: c.paused,
        status: if c.ended {
            WorldStatus::Ended
        } else if c.paused {
            WorldStatus::Paused
        } else {
            WorldStatus::Running
        },
    }
}

fn company_news(p: &crate::game::play::load::Placed) -> CompanyNews {
    let c = &p.company;
    CompanyNews {
        id: c.id,
        x: c.x,
        y: c.y,
        ap: c.ap,
        men: c.men,
        wounded: c.wounded,
        morale: c.morale,
    }
}

/// What a nation sees in a frame, as every player of it is shown it (no one's own figures).
fn sight(frame: &Frame, nation: NationId) -> HashMap<CompanyId, SeenCompany> {
    let by_id: HashMap<NationId, &crate::db::models::Nation> =
        frame.nations.iter().map(|n| (n.id, n)).collect();
    frame
        .sights
        .get(&nation)
        .into_iter()
        .flatten()
        .map(|s| {
            let p = &frame.companies[s.index];
            let seen = SeenCompany::of(
                p,
                by_id.get(&p.nation_id).copied(),
                Seen {
                    mine: false,
                    friend: p.nation_id == nation,
                    hidden: s.hidden,
                    on_leave: s.on_leave,
                    figures: false,
                },
            );
            (p.company.id, seen)
        })
        .collect()
}

/// Whether two sightings of a company show the same.
fn same(a: &SeenCompany, b: &SeenCompany) -> bool {
    (
        a.x,
        a.y,
        a.hidden,
        a.on_leave,
        a.kind,
        &a.name,
        a.nation_id,
        &a.color,
    ) == (
        b.x,
        b.y,
        b.hidden,
        b.on_leave,
        b.kind,
        &b.name,
        b.nation_id,
        &b.color,
    )
}

/// A sighting as the company's own player sees it: theirs, with its figures.
fn as_owner(mut s: SeenCompany, frame: &Frame) -> SeenCompany {
    if let Ok(i) = frame
        .companies
        .binary_search_by_key(&s.id, |p| p.company.id)
    {
        let c = &frame.companies[i].company;
        s.mine = true;
        (s.men, s.wounded, s.ap, s.morale) =
            (Some(c.men), Some(c.wounded), Some(c.ap), Some(c.morale));
    }
    s
}

/// The `seen` of a change for one stream: the nation's (`shared` when already written),
/// unless it holds the stream's own companies, which their player sees as theirs.
fn seen_for(
    stream: &Stream,
    frame: &Frame,
    changed: &[SeenCompany],
    gone: &[CompanyId],
    all: bool,
    shared: Option<&[Arc<str>]>,
    out: &mut Outbox,
) {
    let own = |s: &SeenCompany| frame.own(stream.user).any(|p| p.company.id == s.id);
    if changed.iter().any(own) {
        let companies = changed
            .iter()
            .map(|s| {
                if own(s) {
                    as_owner(s.clone(), frame)
                } else {
                    s.clone()
                }
            })
            .collect();
        for piece in pieces(SeenNews {
            companies,
            gone: gone.to_vec(),
            all,
            more: false,
        }) {
            out.shared(LiveEvent::Seen, &piece);
        }
    } else if let Some(shared) = shared {
        for piece in shared {
            out.shared(LiveEvent::Seen, piece);
        }
    } else {
        for piece in pieces(SeenNews {
            companies: changed.to_vec(),
            gone: gone.to_vec(),
            all,
            more: false,
        }) {
            out.shared(LiveEvent::Seen, &piece);
        }
    }
}

/// A `seen` message is kept under this many bytes. A connection keeps a write buffer as large
/// as the largest write it made (up to 128 KiB) for as long as it is open: an idle stream
/// would otherwise hold its first burst's whole sight, 100 KiB in a world of 500 players.
const PIECE: usize = 3000;

/// `news` as one `seen` message, or as several when it is longer than `PIECE`, all but the
/// last with `more` (with `all`, what to take away is known at the last).
fn pieces(news: SeenNews) -> Vec<Arc<str>> {
    let json = |n: &SeenNews| -> Arc<str> { serde_json::to_string(n).unwrap_or_default().into() };
    let whole = json(&news);
    if whole.len() <= PIECE {
        return vec![whole];
    }
    let SeenNews {
        companies,
        gone,
        all,
        ..
    } = news;
    let empty = || SeenNews {
        companies: Vec::new(),
        gone: Vec::new(),
        all,
        more: true,
    };
    // The message's frame and each item's length, commas included.
    const FRAME: usize = 64;
    let mut out = Vec::new();
    let mut part = empty();
    let mut size = FRAME;
    for c in companies {
        let n = serde_json::to_string(&c).map_or(0, |s| s.len()) + 1;
        if size + n > PIECE && !part.companies.is_empty() {
            out.push(json(&std::mem::replace(&mut part, empty())));
            size = FRAME;
        }
        size += n;
        part.companies.push(c);
    }
    for g in gone {
        let n = 12;
        if size + n > PIECE && (!part.companies.is_empty() || !part.gone.is_empty()) {
            out.push(json(&std::mem::replace(&mut part, empty())));
            size = FRAME;
        }
        size += n;
        part.gone.push(g);
    }
    part.more = false;
    out.push(json(&part));
    out
}

/// A nation's change of sight: the companies come into sight or moved, those gone, and the
/// `seen` messages saying it.
type SightChange = (Vec<SeenCompany>, Vec<CompanyId>, Vec<Arc<str>>);

impl Room {
    /// Tells every stream what changed: `frame` when the world was read again, `news` always.
    /// Streams whose client is gone or too slow are closed.
    pub fn tell(&mut self, frame: Option<Arc<Frame>>, news: &News) {
        let id = stamp();
        // The nations' changes of sight, each written once for all its streams.
        let mut seen_changes: HashMap<NationId, SightChange> = HashMap::new();
        if let Some(frame) = &frame {
            for (nation, before) in self.seen.iter_mut() {
                let now = sight(frame, *nation);
                let mut changed: Vec<SeenCompany> = now
                    .values()
                    .filter(|s| before.get(&s.id).is_none_or(|b| !same(b, s)))
                    .cloned()
                    .collect();
                changed.sort_by_key(|s| s.id);
                let mut gone: Vec<CompanyId> = before
                    .keys()
                    .filter(|id| !now.contains_key(id))
                    .copied()
                    .collect();
                gone.sort();
                *before = now;
                if !changed.is_empty() || !gone.is_empty() {
                    let shared = pieces(SeenNews {
                        companies: changed.clone(),
                        gone: gone.clone(),
                        all: false,
                        more: false,
                    });
                    seen_changes.insert(*nation, (changed, gone, shared));
                }
            }
            self.frame = Some(frame.clone());
        }
        let current = self.frame.clone();
        self.streams.retain_mut(|s| {
            let mut out = Outbox::default();
            if let (Some(_), Some(frame)) = (&frame, &current) {
                s.clock_news(&frame.clock, &mut out);
                s.company_news(frame, &mut out);
                if let Some((changed, gone, shared)) = seen_changes.get(&s.nation) {
                    seen_for(s, frame, changed, gone, false, Some(shared), &mut out);
                }
            }
            s.report_news(&news.reports, &mut out);
            if let Some(alerts) = news.alerts.get(&s.user) {
                s.alert_news(alerts, &mut out);
            }
            if let Some(n) = news.unread.get(&s.user) {
                s.unread_news(*n, &mut out);
            }
            out.0.is_empty() || out.send(&s.tx, id)
        });
        self.forget_unwatched();
    }

    /// Adds a joining stream, told everything as it stands (`frame`) and what it missed.
    pub fn admit(&mut self, join: Join, frame: Arc<Frame>, missed: Missed) {
        let Missed {
            reports,
            alerts,
            last_alert,
            unread,
            resync,
        } = missed;
        let id = stamp();
        let mut s = Stream {
            key: KEYS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            user: join.user,
            nation: join.nation,
            lang: join.lang,
            credentials: join.credentials,
            tx: join.tx,
            clock: None,
            companies: HashMap::new(),
            unread: None,
            last_alert,
        };
        let mut out = Outbox::default();
        if let Some(reason) = resync {
            out.push(LiveEvent::Resync, &ResyncNews { reason });
        }
        s.clock_news(&frame.clock, &mut out);
        s.company_news(&frame, &mut out);
        let nation_sight = sight(&frame, s.nation);
        let mut everything: Vec<SeenCompany> = nation_sight.values().cloned().collect();
        everything.sort_by_key(|c| c.id);
        seen_for(&s, &frame, &everything, &[], true, None, &mut out);
        self.seen.entry(s.nation).or_insert(nation_sight);
        let skip = reports.len().saturating_sub(REPLAY);
        s.report_news(&reports[skip..], &mut out);
        let skip = alerts.len().saturating_sub(REPLAY);
        s.alert_news(&alerts[skip..], &mut out);
        s.unread_news(unread, &mut out);
        self.frame = Some(frame);
        if out.send(&s.tx, id) {
            self.streams.push(s);
        }
    }

    /// Closes the streams of these keys (their credentials no longer hold).
    pub fn close(&mut self, keys: &std::collections::HashSet<u64>) {
        self.streams.retain(|s| !keys.contains(&s.key));
        self.forget_unwatched();
    }

    /// Drops the streams whose client went away.
    pub fn sweep(&mut self) {
        self.streams.retain(|s| !s.tx.is_closed());
        self.forget_unwatched();
    }

    /// The nations some stream here still watches: the others' sight is no longer kept.
    fn forget_unwatched(&mut self) {
        let watched: Vec<NationId> = self.streams.iter().map(|s| s.nation).collect();
        self.seen.retain(|n, _| watched.contains(n));
    }

    /// The nations watched here.
    pub fn nations(&self) -> Vec<NationId> {
        let mut n: Vec<NationId> = self.streams.iter().map(|s| s.nation).collect();
        n.sort();
        n.dedup();
        n
    }
}

impl Stream {
    fn clock_news(&mut self, now: &Clock, out: &mut Outbox) {
        let before = self.clock.replace(now.clone());
        let turn = |c: &Clock| (c.turn, c.season, c.next_turn_at);
        let world = |c: &Clock| (c.paused, c.ended);
        if before.as_ref().map(turn) != Some(turn(now)) {
            out.push(LiveEvent::Turn, &turn_news(now));
        }
        if before.as_ref().map(world) != Some(world(now)) {
            out.push(LiveEvent::World, &world_news(now));
        }
    }

    fn company_news(&mut self, frame: &Frame, out: &mut Outbox) {
        let mut now = HashMap::new();
        for p in frame.own(self.user) {
            let news = company_news(p);
            if self.companies.get(&news.id) != Some(&news) {
                out.push(LiveEvent::Company, &news);
            }
            now.insert(news.id, news);
        }
        self.companies = now;
    }

    /// The events among `reports` that the stream's player gave or suffered.
    fn report_news(&self, reports: &[Reported], out: &mut Outbox) {
        for r in reports {
            if r.actor == Some(self.user) || r.target == Some(self.user) {
                out.push(
                    LiveEvent::Report,
                    &ReportNews {
                        id: r.id,
                        kind: r.kind,
                    },
                );
            }
        }
    }

    fn alert_news(&mut self, alerts: &[Alert], out: &mut Outbox) {
        for a in alerts {
            if a.id > self.last_alert {
                out.push(LiveEvent::Alert, &AlertView::of(a, self.lang));
                self.last_alert = a.id;
            }
        }
    }

    fn unread_news(&mut self, unread: i32, out: &mut Outbox) {
        if self.unread != Some(unread) {
            out.push(LiveEvent::Message, &MessageNews { unread });
            self.unread = Some(unread);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Kind;

    fn company(id: i32) -> SeenCompany {
        SeenCompany {
            id: CompanyId(id),
            name: format!("Company number {id} of the line"),
            kind: Kind::Infantry,
            x: id % 200,
            y: id / 200,
            nation_id: NationId(1),
            nation: "France".into(),
            color: "#3050c0".into(),
            mine: false,
            friend: true,
            hidden: false,
            on_leave: false,
            men: None,
            wounded: None,
            ap: None,
            morale: None,
        }
    }

    #[test]
    fn a_long_seen_comes_in_pieces_under_the_bound_the_last_without_more() {
        let short = pieces(SeenNews {
            companies: (1..=3).map(company).collect(),
            gone: vec![CompanyId(9)],
            all: true,
            more: false,
        });
        assert_eq!(short.len(), 1);
        let long = pieces(SeenNews {
            companies: (1..=500).map(company).collect(),
            gone: (1000..1400).map(CompanyId).collect(),
            all: true,
            more: false,
        });
        assert!(long.len() > 20, "{}", long.len());
        let (mut ids, mut gone) = (Vec::new(), Vec::new());
        for (i, piece) in long.iter().enumerate() {
            assert!(piece.len() <= PIECE, "{} bytes", piece.len());
            let v: serde_json::Value = serde_json::from_str(piece).unwrap();
            assert_eq!(v["all"], true);
            assert_eq!(v["more"], i + 1 < long.len(), "piece {i}");
            ids.extend(
                v["companies"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c["id"].as_i64().unwrap()),
            );
            gone.extend(
                v["gone"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|g| g.as_i64().unwrap()),
            );
        }
        assert_eq!(ids, (1..=500).collect::<Vec<i64>>());
        assert_eq!(gone, (1000..1400).collect::<Vec<i64>>());
    }
}
