//! Turns and seasons: ticks applied exactly once, the dice seed of each turn, when the next
//! tick is due, and the purge of old rows.

pub mod clock;
pub mod dice;
pub mod retention;
pub mod ticks;
pub mod verdict;
