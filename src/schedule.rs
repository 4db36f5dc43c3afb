//! When ticks fall due: a 6-field cron string evaluated in UTC (`0 0 */6 * * *`), or a fixed
//! interval, `every 14d` (units s, m, h, d, w), counted from the world's schedule anchor (its
//! creation or its last resume) or from a fixed instant: `every 14d from 2026-01-01T00:00:00Z`.
//! Instants are a pure function of the schedule and the anchor, so that each is stored and
//! applied exactly once whichever server process finds it due.

use chrono::{DateTime, TimeZone, Utc};
use std::str::FromStr;

#[derive(Clone, Debug)]
pub enum Schedule {
    Cron(Box<cron::Schedule>),
    Every {
        /// Seconds between two instants.
        period: i64,
        /// The first instant; None: the world's anchor.
        start: Option<i64>,
    },
}

impl Schedule {
    pub fn parse(expr: &str) -> Result<Schedule, String> {
        let expr = expr.trim();
        if let Some(rest) = expr.strip_prefix("every ") {
            return Self::parse_every(expr, rest.trim());
        }
        if expr.split_whitespace().count() != 6 {
            return Err(format!(
                "`{expr}` must have 6 fields (sec min hour day month weekday) or read `every 14d`"
            ));
        }
        cron::Schedule::from_str(expr)
            .map(|s| Schedule::Cron(Box::new(s)))
            .map_err(|e| format!("`{expr}` is not a valid cron expression: {e}"))
    }

    fn parse_every(expr: &str, rest: &str) -> Result<Schedule, String> {
        let (every, from) = match rest.split_once(" from ") {
            Some((e, f)) => (e.trim(), Some(f.trim())),
            None => (rest, None),
        };
        let bad =
            || format!("`{expr}`: write `every N` with a unit s, m, h, d or w, as `every 14d`");
        let unit = every.chars().last().ok_or_else(bad)?;
        let n: i64 = every[..every.len() - unit.len_utf8()]
            .parse()
            .map_err(|_| bad())?;
        let seconds = match unit {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86_400,
            'w' => 604_800,
            _ => return Err(bad()),
        };
        let period = n
            .checked_mul(seconds)
            .filter(|p| *p > 0 && *p <= 3650 * 86_400)
            .ok_or_else(|| format!("`{expr}`: the interval must be between 1 s and 10 years"))?;
        let start = match from {
            Some(f) => Some(
                DateTime::parse_from_rfc3339(f)
                    .map_err(|e| format!("`{expr}`: `{f}` is not an RFC 3339 instant: {e}"))?
                    .timestamp(),
            ),
            None => None,
        };
        Ok(Schedule::Every { period, start })
    }

    /// The first instant strictly after `t`.
    pub fn next_after(&self, t: i64, anchor: i64) -> Option<i64> {
        match self {
            Schedule::Cron(s) => s.after(&at(t)?).next().map(|d| d.timestamp()),
            Schedule::Every { period, start } => {
                let origin = start.unwrap_or(anchor);
                if t < origin {
                    return Some(origin);
                }
                // In i128: instants this far apart do not fit an i64's difference.
                let k = (t as i128 - origin as i128) / *period as i128 + 1;
                i64::try_from(origin as i128 + k * *period as i128).ok()
            }
        }
    }

    /// The instants in `(from, now]`, oldest first, keeping only the latest `cap`: older
    /// missed instants are given up so that a long outage does not replay days of turns.
    pub fn due(&self, from: i64, now: i64, cap: usize, anchor: i64) -> Vec<i64> {
        if cap == 0 || now <= from {
            return Vec::new();
        }
        let mut out: Vec<i64> = match self {
            Schedule::Cron(s) => {
                let Some(after) = at(now.saturating_add(1)) else {
                    return Vec::new();
                };
                s.after(&after)
                    .rev()
                    .map(|t| t.timestamp())
                    .skip_while(|t| *t > now)
                    .take_while(|t| *t > from)
                    .take(cap)
                    .collect()
            }
            Schedule::Every { period, .. } => {
                let Some(first) = self.next_after(from, anchor) else {
                    return Vec::new();
                };
                let mut v = Vec::new();
                // The latest instant not after `now`, walking back to `first`.
                let (first_, period_) = (first as i128, *period as i128);
                let latest = first_ + (now as i128 - first_).max(-1) / period_ * period_;
                let Ok(mut t) = i64::try_from(latest) else {
                    return Vec::new();
                };
                while t >= first && t <= now && v.len() < cap {
                    v.push(t);
                    let Some(before) = t.checked_sub(*period) else {
                        break;
                    };
                    t = before;
                }
                v
            }
        };
        out.reverse();
        out
    }
}

/// The first and last instants a cron schedule is asked about: years 1 to 9999. Further out
/// the cron crate's own arithmetic overflows (and panics), and no world lives there.
const CRON_RANGE: std::ops::RangeInclusive<i64> = -62_135_596_800..=253_402_300_799;

fn at(ts: i64) -> Option<DateTime<Utc>> {
    CRON_RANGE
        .contains(&ts)
        .then(|| Utc.timestamp_opt(ts, 0).single())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::Schedule;

    const DAY: i64 = 86_400;

    #[test]
    fn an_interval_counts_from_the_anchor_or_its_own_start() {
        let s = Schedule::parse("every 14d").unwrap();
        let anchor = 1_000_000;
        assert_eq!(s.next_after(anchor, anchor), Some(anchor + 14 * DAY));
        assert_eq!(
            s.next_after(anchor + 14 * DAY, anchor),
            Some(anchor + 28 * DAY)
        );
        assert_eq!(
            s.next_after(anchor + 14 * DAY - 1, anchor),
            Some(anchor + 14 * DAY)
        );
        // 2026-01-01T00:00:00Z is 1767225600.
        let fixed = Schedule::parse("every 2w from 2026-01-01T00:00:00Z").unwrap();
        assert_eq!(fixed.next_after(0, anchor), Some(1_767_225_600));
        assert_eq!(
            fixed.next_after(1_767_225_600, anchor),
            Some(1_767_225_600 + 14 * DAY)
        );
    }

    #[test]
    fn due_instants_of_an_interval_are_the_latest_cap_in_order() {
        let s = Schedule::parse("every 1h").unwrap();
        let a = 7_200;
        assert_eq!(s.due(a, a + 3_599, 8, a), Vec::<i64>::new());
        assert_eq!(s.due(a, a + 3_600, 8, a), vec![a + 3_600]);
        assert_eq!(
            s.due(a, a + 5 * 3_600 + 10, 8, a),
            vec![a + 3_600, a + 7_200, a + 10_800, a + 14_400, a + 18_000]
        );
        assert_eq!(
            s.due(a, a + 5 * 3_600 + 10, 2, a),
            vec![a + 14_400, a + 18_000]
        );
        // After the last applied instant, only the ones after it.
        assert_eq!(
            s.due(a + 10_800, a + 5 * 3_600, 8, a),
            vec![a + 14_400, a + 18_000]
        );
        assert_eq!(s.due(a, a + 3_600, 0, a), Vec::<i64>::new());
    }

    #[test]
    fn cron_strings_keep_working() {
        let s = Schedule::parse("0 0 */6 * * *").unwrap();
        assert_eq!(s.next_after(0, 0), Some(6 * 3600));
        assert_eq!(s.due(0, 13 * 3600, 8, 0), vec![6 * 3600, 12 * 3600]);
    }

    #[test]
    fn bad_schedules_are_refused_with_a_reason() {
        for bad in [
            "every",
            "every 14",
            "every d",
            "every 0d",
            "every -3d",
            "every 14y",
            "every 99999999999w",
            "every 14d from yesterday",
            "0 0 * * *",
            "nonsense here",
        ] {
            assert!(Schedule::parse(bad).is_err(), "{bad}");
        }
    }
}
