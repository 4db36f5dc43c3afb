//! Randomness, made explicit: every roll goes through a `Roll`, and is recorded so that
//! battle reports carry their dice and can be replayed.

use rand::{Rng, RngCore};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Draw {
    pub label: String,
    pub min: i32,
    pub max: i32,
    pub value: i32,
}

pub trait Roll {
    /// A uniform integer in `min..=max`.
    fn roll(&mut self, label: &str, min: i32, max: i32) -> i32;
    /// Every draw made so far.
    fn draws(&self) -> &[Draw];

    /// True with `percent` % probability (a d100 roll at or under it).
    fn chance(&mut self, label: &str, percent: i32) -> bool {
        if percent <= 0 {
            return false;
        }
        if percent >= 100 {
            return true;
        }
        self.roll(label, 1, 100) <= percent
    }

    /// The draws made since `mark` (a previous `draws().len()`).
    fn since(&self, mark: usize) -> Vec<Draw> {
        self.draws()[mark.min(self.draws().len())..].to_vec()
    }
}

/// Keeps a roll among `draws` and gives its value back.
fn record(draws: &mut Vec<Draw>, label: &str, min: i32, max: i32, value: i32) -> i32 {
    draws.push(Draw {
        label: label.to_string(),
        min,
        max,
        value,
    });
    value
}

/// Dice that always roll the middle of their range: what an action gives on average.
#[derive(Default)]
pub struct Mean {
    draws: Vec<Draw>,
}

impl Roll for Mean {
    fn roll(&mut self, label: &str, min: i32, max: i32) -> i32 {
        let value = if max <= min { min } else { (min + max + 1) / 2 };
        record(&mut self.draws, label, min, max, value)
    }

    fn draws(&self) -> &[Draw] {
        &self.draws
    }
}

/// Dice over any random generator (the game uses one seeded ChaCha stream per world).
pub struct Dice<R> {
    rng: R,
    draws: Vec<Draw>,
}

impl<R: RngCore> Dice<R> {
    pub fn new(rng: R) -> Self {
        Dice {
            rng,
            draws: Vec::new(),
        }
    }

    pub fn into_inner(self) -> (R, Vec<Draw>) {
        (self.rng, self.draws)
    }
}

impl<R: RngCore> Roll for Dice<R> {
    fn roll(&mut self, label: &str, min: i32, max: i32) -> i32 {
        let value = if max <= min {
            min
        } else {
            self.rng.random_range(min..=max)
        };
        record(&mut self.draws, label, min, max, value)
    }

    fn draws(&self) -> &[Draw] {
        &self.draws
    }
}

/// Replays recorded draws in order: re-running an action with the dice of its report gives the
/// same outcome. Past the recording it rolls the minimum.
pub struct Replay {
    queue: VecDeque<Draw>,
    draws: Vec<Draw>,
}

impl Replay {
    pub fn new(draws: Vec<Draw>) -> Replay {
        Replay {
            queue: draws.into(),
            draws: Vec::new(),
        }
    }
}

impl Roll for Replay {
    fn roll(&mut self, label: &str, min: i32, max: i32) -> i32 {
        let value = self
            .queue
            .pop_front()
            .map_or(min, |d| d.value)
            .clamp(min, max.max(min));
        record(&mut self.draws, label, min, max, value)
    }

    fn draws(&self) -> &[Draw] {
        &self.draws
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    #[test]
    fn rolls_stay_in_range_and_are_recorded() {
        let mut d = Dice::new(ChaCha20Rng::seed_from_u64(7));
        for _ in 0..200 {
            let v = d.roll("damage", 10, 20);
            assert!((10..=20).contains(&v));
        }
        assert_eq!(d.draws().len(), 200);
        assert_eq!(d.since(198).len(), 2);
    }

    #[test]
    fn same_seed_same_rolls() {
        let mut a = Dice::new(ChaCha20Rng::seed_from_u64(42));
        let mut b = Dice::new(ChaCha20Rng::seed_from_u64(42));
        let ra: Vec<i32> = (0..20).map(|_| a.roll("d", 1, 100)).collect();
        let rb: Vec<i32> = (0..20).map(|_| b.roll("d", 1, 100)).collect();
        assert_eq!(ra, rb);
    }

    #[test]
    fn a_thirty_percent_chance_hits_about_thirty_percent_of_the_time() {
        let mut d = Dice::new(ChaCha20Rng::seed_from_u64(1));
        let hits = (0..10_000).filter(|_| d.chance("road", 30)).count();
        assert!((2_700..3_300).contains(&hits), "{hits}");
    }

    #[test]
    fn replay_gives_back_the_recorded_values() {
        let mut d = Dice::new(ChaCha20Rng::seed_from_u64(3));
        let v: Vec<i32> = (0..5).map(|_| d.roll("x", 1, 6)).collect();
        let mut r = Replay::new(d.draws().to_vec());
        let w: Vec<i32> = (0..5).map(|_| r.roll("x", 1, 6)).collect();
        assert_eq!(v, w);
    }
}
