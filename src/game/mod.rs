//! Use cases: one function per action and per tick. Each opens one transaction, loads what it
//! needs, asks `rules` and writes rows and events.

pub mod access;
pub mod accounts;
pub mod alerts;
pub mod audit;
pub mod cells;
pub mod dice;
pub mod editor;
pub mod error;
pub mod events;
pub mod generate;
pub mod gm;
pub mod leave;
pub mod load;
pub mod mapfile;
pub mod options;
pub mod order_input;
pub mod orders;
pub mod play;
pub mod reports;
pub mod retention;
pub mod sessions;
pub mod sketch;
pub mod throttle;
pub mod ticks;
pub mod tiled_import;
pub mod tokens;
pub mod unit_write;
pub mod views;
pub mod worlds;

pub use error::{GameError, GameResult};
