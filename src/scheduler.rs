//! The scheduler: for every world and tick kind, the instants due by the schedules of the
//! config (cron strings in UTC or intervals, see `schedule`), counted after the last tick stored in the database, applied through
//! `game::ticks`, each exactly once.

use crate::config::Config;
use crate::db::DbConnection;
use crate::db::Pool;
use crate::game::maps::worlds;
use crate::game::time::clock::{last_ticks, next_due};
use crate::game::time::ticks::{self as tick_cases, TickKind};
use crate::game::GameResult;
use crate::ids::WorldId;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// The running scheduler thread; `stop` lets the tick in progress finish (or roll back) and
/// waits for it.
pub struct SchedulerHandle {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl SchedulerHandle {
    pub fn stop(mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Applies every due tick of every unpaused world once, then lets the bots play the turns they
/// have not played yet; returns how many ticks were applied.
pub fn run_once(conn: &mut DbConnection, config: &Arc<Config>, now: i64) -> GameResult<usize> {
    let cap = config.max_catch_up() as usize;
    let mut applied = 0;
    for w in worlds::list(conn)? {
        // A turn a stopped process left half-applied is finished at once, paused world or
        // not: its companies must not stay half on one turn and half on the next.
        if let Some(out) = tick_cases::finish_pending(conn, &config.rules, w.id)? {
            applied += 1;
            log_tick(w.id, TickKind::Turn, None, &out);
        }
        if w.paused {
            continue;
        }
        let last = last_ticks(conn, w.id)?;
        for &kind in TickKind::ALL {
            let (schedule, last) = match kind {
                TickKind::Turn => (&config.turn_schedule, last.turn),
                TickKind::Season => (&config.season_schedule, last.season),
            };
            let from = last.map_or(w.schedule_anchor, |l| l.max(w.schedule_anchor));
            for instant in schedule.due(from, now, cap, w.schedule_anchor) {
                let out = tick_cases::apply(conn, &config.rules, w.id, kind, instant, false)?;
                if out.applied {
                    applied += 1;
                    log_tick(w.id, kind, Some(instant), &out);
                }
            }
        }
    }
    alert_turns_soon(conn, config, now)?;
    // A bot's failure must not hold the ticks of the next pass up: it is told and tried again.
    // Nor a bot's panic: it is told, and the scheduler goes on.
    let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        crate::game::bots::play_all(conn, config)
    }))
    .unwrap_or_else(|_| Err(crate::game::GameError::Internal("a bot panicked".into())));
    match played {
        Ok(p) if p.bots > 0 => tracing::info!(
            bots = p.bots,
            raised = p.raised,
            orders = p.orders,
            refused = p.refused,
            longest_chunk_ms = p.longest_chunk_ms,
            undone = p.undone,
            "bots played"
        ),
        Ok(_) => {}
        Err(e) => tracing::error!(error = %e, "bots failed"),
    }
    Ok(applied)
}

fn log_tick(
    world: WorldId,
    kind: TickKind,
    scheduled_for: Option<i64>,
    out: &tick_cases::TickOutcome,
) {
    tracing::info!(
        world = world.0,
        kind = kind.as_str(),
        scheduled_for,
        duration_ms = out.duration_ms,
        orders_held_ms = out.orders_held_ms,
        rows = out.rows,
        turn = out.turn,
        "tick applied"
    );
}

/// Tells the players of every unpaused world whose next turn begins within
/// `scheduler.turn_soon_minutes` (once per player and turn).
pub fn alert_turns_soon(conn: &mut DbConnection, config: &Config, now: i64) -> GameResult<usize> {
    let lead = config.settings.scheduler.turn_soon_minutes * 60;
    if lead <= 0 && config.settings.push.unspent_minutes <= 0 {
        return Ok(0);
    }
    let mut told = 0;
    for w in worlds::list(conn)? {
        if w.paused {
            continue;
        }
        let last = last_ticks(conn, w.id)?;
        let Some(next) = next_due(&config.turn_schedule, last.turn, w.schedule_anchor) else {
            continue;
        };
        // Those who asked are reminded of action points the turn would waste.
        let unspent = config.settings.push.unspent_minutes * 60;
        if next > now && next - now <= unspent {
            let minutes = (next - now + 59) / 60;
            crate::game::news::reminders::turn_unspent(conn, &config.rules, w.id, next, minutes)?;
        }
        if next > now && next - now <= lead {
            let minutes = (next - now + 59) / 60;
            let said = crate::said::Said::new("said-turn-soon")
                .s("world", w.name.as_str())
                .n("turn", w.turn + 1)
                .n("minutes", minutes);
            told += crate::game::news::alerts::turn_soon(conn, w.id, next, &said)?;
        }
    }
    Ok(told)
}

/// Starts the scheduler thread (or a no-op handle when disabled in config).
pub fn start(pool: Pool, config: Arc<Config>) -> SchedulerHandle {
    let stop = Arc::new(AtomicBool::new(false));
    if !config.settings.scheduler.enabled {
        tracing::info!("scheduler disabled in config");
        return SchedulerHandle { stop, thread: None };
    }
    let flag = stop.clone();
    let poll = Duration::from_millis(config.settings.scheduler.poll_ms);
    let thread = std::thread::Builder::new()
        .name("scheduler".into())
        .spawn(move || {
            let purge_every =
                Duration::from_secs(config.settings.scheduler.purge_every_minutes.max(1) * 60);
            let mut last_purge: Option<std::time::Instant> = None;
            let mailer = crate::mail::transport(&config.settings.mail);
            while !flag.load(Ordering::SeqCst) {
                match pool.get() {
                    Ok(mut conn) => {
                        if let Err(e) = run_once(&mut conn, &config, crate::db::now()) {
                            tracing::error!(error = %e, "scheduler pass failed");
                        }
                        if let Some(t) = &mailer {
                            match crate::mail::send_due(&mut conn, &config, t, crate::db::now()) {
                                Ok(0) => {}
                                Ok(n) => tracing::info!(mails = n, "alert mails sent"),
                                Err(e) => tracing::error!(error = %e, "alert mails failed"),
                            }
                        }
                        if last_purge.is_none_or(|t| t.elapsed() >= purge_every) {
                            last_purge = Some(std::time::Instant::now());
                            match crate::game::time::retention::purge(
                                &mut conn,
                                &config,
                                crate::db::now(),
                            ) {
                                Ok(p) => tracing::info!(
                                    sessions = p.sessions,
                                    tokens = p.tokens,
                                    throttle = p.throttle,
                                    events = p.events,
                                    "purged"
                                ),
                                Err(e) => tracing::error!(error = %e, "purge failed"),
                            }
                        }
                    }
                    Err(e) => tracing::error!(error = %e, "scheduler: no database connection"),
                }
                // Sleep in short slices so that a stop request is seen quickly.
                let mut slept = Duration::ZERO;
                while slept < poll && !flag.load(Ordering::SeqCst) {
                    let step = Duration::from_millis(50).min(poll - slept);
                    std::thread::sleep(step);
                    slept += step;
                }
            }
        })
        .ok();
    SchedulerHandle { stop, thread }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::Schedule;

    const HOUR: i64 = 3600;

    fn six_hours() -> Schedule {
        Schedule::parse("0 0 */6 * * *").unwrap()
    }

    fn due_instants(expr: &str, from: i64, now: i64, cap: usize) -> Vec<i64> {
        Schedule::parse(expr).unwrap().due(from, now, cap, 0)
    }

    #[test]
    fn next_due_counts_from_the_last_tick_or_the_anchor() {
        // Every 6 hours at :00 UTC; 2026-01-01T00:00:00Z = 1767225600.
        let midnight = 1_767_225_600;
        assert_eq!(
            next_due(&six_hours(), None, midnight + 1),
            Some(midnight + 6 * HOUR)
        );
        assert_eq!(
            next_due(&six_hours(), Some(midnight + 6 * HOUR), midnight),
            Some(midnight + 12 * HOUR)
        );
    }

    #[test]
    fn due_instants_are_in_order_and_capped_to_the_latest() {
        let midnight = 1_767_225_600;
        let due = due_instants("0 0 */6 * * *", midnight, midnight + 24 * HOUR, 8);
        assert_eq!(
            due,
            vec![
                midnight + 6 * HOUR,
                midnight + 12 * HOUR,
                midnight + 18 * HOUR,
                midnight + 24 * HOUR
            ]
        );
        let due = due_instants("0 0 */6 * * *", midnight, midnight + 24 * HOUR, 2);
        assert_eq!(due, vec![midnight + 18 * HOUR, midnight + 24 * HOUR]);
        assert!(due_instants("0 0 */6 * * *", midnight, midnight + HOUR, 8).is_empty());
        let every_second = due_instants("* * * * * *", 100, 105, 8);
        assert_eq!(every_second, vec![101, 102, 103, 104, 105]);
    }
}
