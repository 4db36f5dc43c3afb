//! The game itself, pure: no I/O, no database, no HTTP, no clock, no global randomness.
//! Everything a rule needs comes in as plain data; randomness comes in as a `Roll`.
//!
//! "docs/rules.md §N" in the comments names a section of the rulebook; docs/decisions.md says
//! which file and function holds each section ("Rules map") and what was decided where the
//! rules say nothing.

pub mod actions;
pub mod blocks;
pub mod bot;
pub mod castle;
pub mod combat;
pub mod dice;
pub mod grid;
pub mod leave;
pub mod movement;
pub mod names;
pub mod refusal;
pub mod ruleset;
pub mod siege;
pub mod state;
pub mod tick;
pub mod victory;
pub mod vision;

#[cfg(test)]
mod tests;

pub use grid::{Bounds, Grid, Pos, Side};
pub use names::{Kind, Season, Terrain};
pub use refusal::Refusal;
pub use ruleset::Ruleset;
