//! Leave (vacation): a player freezes their companies for a while. Frozen companies neither act
//! nor can be attacked, and turns pass them by; a leave cannot be cut short, and cannot begin
//! soon after a fight, so that it is no way out of a battle under way.

use super::refusal::Refusal;
use super::ruleset::Ruleset;

const DAY: i64 = 86_400;

/// When a leave of `days` asked at `now` ends, or why it cannot begin. `until` is the end of a
/// leave the player is on (if any), `last_fight` the instant of their companies' last fight.
pub fn begin(
    rs: &Ruleset,
    days: i32,
    now: i64,
    until: Option<i64>,
    last_fight: Option<i64>,
) -> Result<i64, Refusal> {
    free(until, now)?;
    let l = &rs.leave;
    if !(l.min_days..=l.max_days).contains(&days) {
        return Err(Refusal::LeaveLength {
            min: l.min_days,
            max: l.max_days,
        });
    }
    if let Some(f) = last_fight {
        let free = f + l.cooldown_hours as i64 * 3600;
        if free > now {
            return Err(Refusal::RecentFight(free));
        }
    }
    Ok(now + days as i64 * DAY)
}

/// The end of the leave running at `now`, for a player whose leave ends at `until`.
pub fn running(until: Option<i64>, now: i64) -> Option<i64> {
    until.filter(|t| *t > now)
}

/// Whether a player whose leave ends at `until` is on leave at `now`.
pub fn on_leave(until: Option<i64>, now: i64) -> bool {
    running(until, now).is_some()
}

/// Refuses an order of a player on leave.
pub fn free(until: Option<i64>, now: i64) -> Result<(), Refusal> {
    match running(until, now) {
        Some(t) => Err(Refusal::OnLeave(t)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leave_lasts_two_to_twenty_one_days_and_waits_a_day_after_a_fight() {
        let rs = Ruleset::shipped();
        let now = 1_000_000;
        assert_eq!(begin(&rs, 2, now, None, None), Ok(now + 2 * DAY));
        assert_eq!(begin(&rs, 21, now, None, None), Ok(now + 21 * DAY));
        for days in [0, 1, 22, -3] {
            assert_eq!(
                begin(&rs, days, now, None, None),
                Err(Refusal::LeaveLength { min: 2, max: 21 })
            );
        }
        // A fight 23 hours ago: leave may begin an hour from now.
        let fight = now - 23 * 3600;
        assert_eq!(
            begin(&rs, 5, now, None, Some(fight)),
            Err(Refusal::RecentFight(now + 3600))
        );
        assert_eq!(
            begin(&rs, 5, now + 3600, None, Some(fight)),
            Ok(now + 3600 + 5 * DAY)
        );
        // On leave already: no second leave, and none cut short.
        assert_eq!(
            begin(&rs, 5, now, Some(now + 10), None),
            Err(Refusal::OnLeave(now + 10))
        );
        assert!(on_leave(Some(now + 1), now));
        assert!(!on_leave(Some(now), now));
        assert!(!on_leave(None, now));
        assert_eq!(free(Some(now + 1), now), Err(Refusal::OnLeave(now + 1)));
        assert_eq!(free(Some(now), now), Ok(()));
    }
}
