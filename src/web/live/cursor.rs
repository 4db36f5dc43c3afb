//! Where this process's reader stands in the live log. Ids are given when a row is written,
//! but transactions commit in their own order: on PostgreSQL row 11 may be read while row 10's
//! transaction still runs. The reader takes every row once, and stands (`floor`) below the
//! lowest id it has not read yet; an id missing for longer than [`HOLE_WAIT`] belonged to a
//! transaction rolled back (or one that outlived any order's), and is passed.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

/// How long a missing id is waited for.
pub const HOLE_WAIT: Duration = Duration::from_secs(10);
/// Missing ids waited for at most: past it (thousands of rolled-back rows), the oldest go.
const MAX_HOLES: usize = 10_000;

#[derive(Debug, Default)]
pub struct Cursor {
    /// Every id up to this one was read (or given up).
    floor: i64,
    /// Ids above `floor` read already.
    read: BTreeSet<i64>,
    /// Ids above `floor` not read yet, below one that was: since when.
    holes: BTreeMap<i64, Instant>,
}

impl Cursor {
    pub fn at(floor: i64) -> Cursor {
        Cursor {
            floor,
            ..Cursor::default()
        }
    }

    /// Every id up to this one was read.
    pub fn floor(&self) -> i64 {
        self.floor
    }

    /// Where the next read starts: rows after this id.
    pub fn after(&self) -> i64 {
        self.floor
    }

    /// Takes the ids of rows read (in any order, repeats allowed): returns those new to it, in
    /// order, and moves the floor up past what is read or given up.
    pub fn take(&mut self, ids: impl IntoIterator<Item = i64>, now: Instant) -> Vec<i64> {
        let mut fresh: Vec<i64> = ids
            .into_iter()
            .filter(|id| *id > self.floor && !self.read.contains(id))
            .collect();
        fresh.sort_unstable();
        fresh.dedup();
        for id in &fresh {
            self.read.insert(*id);
            self.holes.remove(id);
        }
        if let Some(top) = self.read.last().copied() {
            // Missing ids below the highest read: waited for from now on.
            let from = self
                .holes
                .last_key_value()
                .map_or(self.floor, |(k, _)| *k)
                .max(self.floor);
            let mut id = from + 1;
            // Past MAX_HOLES the rest is not listed: `advance` passes it at once.
            while id < top && self.holes.len() < MAX_HOLES {
                if !self.read.contains(&id) {
                    self.holes.entry(id).or_insert(now);
                }
                id += 1;
            }
        }
        self.advance(now);
        fresh
    }

    /// Passes missing ids waited for long enough, then moves the floor up.
    pub fn advance(&mut self, now: Instant) {
        loop {
            let next = self.floor + 1;
            if self.read.remove(&next) {
                self.floor = next;
            } else if let Some(since) = self.holes.get(&next) {
                if now.duration_since(*since) < HOLE_WAIT {
                    break;
                }
                self.holes.remove(&next);
                self.floor = next;
            } else if self.read.first().is_some_and(|first| *first > next) {
                // Neither read nor listed as missing (more than MAX_HOLES were): passed.
                self.floor = next;
            } else {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_read_in_order_move_the_floor() {
        let mut c = Cursor::at(0);
        let now = Instant::now();
        assert_eq!(c.take([1, 2, 3], now), vec![1, 2, 3]);
        assert_eq!(c.floor(), 3);
        assert_eq!(c.take([3, 4], now), vec![4], "a row is taken once");
        assert_eq!(c.floor(), 4);
    }

    #[test]
    fn a_row_committed_late_is_taken_and_the_floor_waits_for_it() {
        let mut c = Cursor::at(9);
        let now = Instant::now();
        assert_eq!(c.take([11], now), vec![11]);
        assert_eq!(c.floor(), 9, "10 may still commit");
        assert_eq!(c.after(), 9);
        // Read again from the floor: 11 comes back and is not taken twice.
        assert_eq!(c.take([10, 11], now), vec![10]);
        assert_eq!(c.floor(), 11);
    }

    #[test]
    fn an_id_that_never_comes_is_passed_after_the_wait() {
        let mut c = Cursor::at(0);
        let t0 = Instant::now();
        c.take([2, 3], t0);
        assert_eq!(c.floor(), 0);
        c.advance(t0 + HOLE_WAIT / 2);
        assert_eq!(c.floor(), 0);
        c.advance(t0 + HOLE_WAIT);
        assert_eq!(c.floor(), 3);
    }

    #[test]
    fn a_huge_gap_is_passed_without_listing_it_all() {
        let mut c = Cursor::at(0);
        let t0 = Instant::now();
        c.take([50_000], t0);
        assert!(c.holes.len() <= MAX_HOLES);
        c.advance(t0 + HOLE_WAIT);
        assert_eq!(c.floor(), 50_000);
    }
}
